package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.trainingdata.cdk.SecurityProperties;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.monitoring.TrainingDataDashboard;
import io.github.trainingdata.cdk.monitoring.TrainingDataDashboardProps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.preload.LustrePreload;
import io.github.trainingdata.cdk.preload.LustrePreloadProps;
import io.github.trainingdata.cdk.storage.DataEncryption;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.EfsStoreProps;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.S3Channel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;
import software.constructs.Construct;

/**
 * A platform repo brings its own app, without our cdk.json feature flags: every example stack and every
 * construct synthesizes in a bare {@code new App()} and keeps the same resources and security properties
 * (encryption, TLS only, no ACLs, access logs admitted by bucket policy, rotated keys, encrypted log groups,
 * tracing, a closed default security group) as under cdk.json's flags.
 */
class BareAppTest {
    /** Builds the example's stacks into the given app and returns them. */
    static Stream<Arguments> examples() {
        Function<App, List<Stack>> quickstart = app -> List.of(new QuickstartStack(app, "TrainingDataQuickstart"));
        Function<App, List<Stack>> advised = app -> List.of(new AdvisedPlatformStack(app, "TrainingDataAdvisedPlatform"),
                new ThroughputPlatformStack(app, "TrainingDataThroughputPlatform"),
                new ExpressPlatformStack(app, "TrainingDataExpressPlatform"));
        Function<App, List<Stack>> composition = app -> PlatformCompositionApp.build(app, PlatformCompositionApp.DATA,
                PlatformCompositionApp.TEAMS);
        return Stream.of(Arguments.of("QuickstartApp", quickstart), Arguments.of("AdvisedPlatformApp", advised),
                Arguments.of("PlatformCompositionApp", composition));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void exampleSynthesizesInABareAppWithTheSameResourcesAndSecurity(String name, Function<App, List<Stack>> build) {
        App bare = new App();
        List<Stack> bareStacks = build.apply(bare);
        bare.synth();
        List<Stack> flaggedStacks = build.apply(TestApps.app());
        for (int i = 0; i < bareStacks.size(); i++) {
            Map<String, Object> template = Template.fromStack(bareStacks.get(i)).toJSON();
            assertEquals(List.of(), SecurityProperties.violations(template), name + " in a bare app");
            // Same resources; a few flags only rename logical ids (EFS mount targets, imported roles' policies).
            assertEquals(resourceCounts(Template.fromStack(flaggedStacks.get(i)).toJSON()), resourceCounts(template),
                    name + ": the bare app builds the same resources as the app with cdk.json's flags");
        }
    }

    /** Each construct alone, with the fewest props, in a bare app. */
    static Stream<Arguments> constructs() {
        Map<String, Consumer<Stack>> each = new LinkedHashMap<>();
        each.put("TrainingNetwork", stack -> new TrainingNetwork(stack, "Network"));
        each.put("TrainingDataBucket", stack -> new TrainingDataBucket(stack, "Data"));
        each.put("TrainingDataBucket (KMS)", stack -> new TrainingDataBucket(stack, "Data",
                TrainingDataBucketProps.builder().encryption(DataEncryption.KMS).build()));
        each.put("LustreCache", stack -> cache(stack));
        each.put("EfsStore", stack -> new EfsStore(stack, "Efs", EfsStoreProps.builder()
                .network(new TrainingNetwork(stack, "Network")).build()));
        each.put("TrainingJobDefinition", stack -> definition(stack, new TrainingDataBucket(stack, "Data"), null));
        each.put("LustrePreload + TrainingDataDashboard", stack -> {
            LustreCache cache = cache(stack);
            TrainingJobDefinition definition = definition(stack, cache.getDatasets().get(0).getDataBucket(), cache);
            LustrePreload preload = new LustrePreload(stack, "Preload", LustrePreloadProps.builder()
                    .cache(cache).definition(definition).build());
            new TrainingDataDashboard(stack, "Dashboard", TrainingDataDashboardProps.builder()
                    .stores(List.of(cache)).preloads(List.of(preload)).definitions(List.of(definition)).build());
        });
        return each.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("constructs")
    void constructSynthesizesInABareApp(String name, Consumer<Stack> build) {
        App app = new App();
        Stack stack = new Stack(app, "Bare");
        build.accept(stack);
        app.synth();
        List<String> violations = SecurityProperties.violations(Template.fromStack(stack).toJSON()).stream()
                // Without a data key (the default) log groups use CloudWatch Logs' own encryption.
                .filter(v -> !v.endsWith("is not encrypted with the data layer's key")).toList();
        assertEquals(List.of(), violations, name);
    }

    @Test
    void theAccessLogBucketAdmitsLogDeliveryByPolicyInABareApp() {
        App app = new App();
        Stack stack = new Stack(app, "Bare");
        new TrainingDataBucket(stack, "Data");
        Map<String, Object> template = Template.fromStack(stack).toJSON();
        String text = template.toString();
        assertEquals(false, text.contains("LogDeliveryWrite"), "no LogDeliveryWrite ACL");
        assertEquals(List.of(), SecurityProperties.violations(template));
    }

    private static LustreCache cache(Construct scope) {
        TrainingNetwork network = new TrainingNetwork(scope, "Network");
        return new LustreCache(scope, "Lustre", LustreCacheProps.builder().network(network).datasets(List.of(
                LustreDataset.builder("dataset").dataBucket(new TrainingDataBucket(scope, "Data")).build())).build());
    }

    private static TrainingJobDefinition definition(Construct scope, TrainingDataBucket data, LustreCache cache) {
        return new TrainingJobDefinition(scope, "Training", TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri("123456789012.dkr.ecr.us-east-1.amazonaws.com/training:1"))
                .instanceType("ml.m5.xlarge")
                .outputBucket(data)
                .channels(List.of(cache != null ? LustreChannel.builder("train").cache(cache).build()
                        : S3Channel.builder("train").dataBucket(data).build()))
                .build());
    }

    private static Map<String, Integer> resourceCounts(Map<String, Object> template) {
        Map<String, Integer> counts = new TreeMap<>();
        ((Map<?, ?>) template.get("Resources")).values().forEach(r -> counts.merge(
                (String) ((Map<?, ?>) r).get("Type"), 1, Integer::sum));
        return counts;
    }
}
