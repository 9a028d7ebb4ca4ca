package io.github.trainingdata.cdk.preload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.NagFindings;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Template;
import software.constructs.IConstruct;

/**
 * The platform layout: a data stack with the cache and its preload, and two training stacks whose definitions the
 * preload holds back, in a bare {@code new App()} (no feature flags) under CDK's strong and weak cross-stack
 * references. A re-warm ({@code datasetVersion} bumped) must change nothing another stack reads: no output of the
 * data stack depends on a per-warm attribute, and the training stacks' templates do not change at all.
 */
class CrossStackWarmTest {
    private static final String REFERENCES = "@aws-cdk/core:defaultCrossStackReferences";
    private static final Environment ENV = Environment.builder().account("123456789012").region("us-east-1").build();

    /** The three synthesized templates of one app. */
    private record Layout(Stack data, LustrePreload preload, List<Stack> training, Map<String, Map<String, Object>> templates) {
        Map<String, Object> outputs(Stack stack) {
            @SuppressWarnings("unchecked")
            Map<String, Object> outputs = (Map<String, Object>) templates.get(stack.getStackName()).get("Outputs");
            return outputs == null ? Map.of() : outputs;
        }

        String logicalId(IConstruct construct) {
            return data.getLogicalId((CfnElement) construct.getNode().getDefaultChild());
        }
    }

    /** @param references strong, weak, or unset (CDK's default: strong, with a warning) */
    private static Layout synthesize(String references, String datasetVersion) {
        App app = references.equals("unset") ? new App()
                : new App(AppProps.builder().context(Map.of(REFERENCES, references)).build());
        Stack data = new Stack(app, "Data", StackProps.builder().env(ENV).build());
        TrainingNetwork network = new TrainingNetwork(data, "Network");
        TrainingDataBucket bucket = new TrainingDataBucket(data, "Bucket",
                TrainingDataBucketProps.builder().datasetPrefix("datasets").build());
        LustreCache cache = new LustreCache(data, "Lustre", LustreCacheProps.builder()
                .network(network)
                .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(bucket).prefix("imagenet").build(),
                        LustreDataset.builder("coco").dataBucket(bucket).prefix("coco").build()))
                .storageCapacityGiB(2400)
                .build());
        LustrePreload preload = new LustrePreload(data, "Preload", LustrePreloadProps.builder()
                .cache(cache)
                .image(TrainingImage.fromUri("123456789012.dkr.ecr.us-east-1.amazonaws.com/preload-worker:1"))
                .datasetVersion(datasetVersion)
                .build());
        List<Stack> training = List.of("Vision", "Detection").stream().map(team -> {
            Stack stack = new Stack(app, team, StackProps.builder().env(ENV).build());
            TrainingJobDefinition definition = new TrainingJobDefinition(stack, "Training",
                    TrainingJobDefinitionProps.builder()
                            .jobNamePrefix(team.toLowerCase())
                            .trainingImage(TrainingImage.fromUri(
                                    "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.5.1-gpu-py311"))
                            .instanceType("ml.p4d.24xlarge")
                            .outputBucket(bucket)
                            .outputPrefix("output/" + team.toLowerCase())
                            .channels(List.of(LustreChannel.builder("train").cache(cache)
                                    .dataset(team.equals("Vision") ? "imagenet" : "coco").build()))
                            .build());
            preload.holdBack(definition);
            return stack;
        }).toList();
        Map<String, Map<String, Object>> templates = new java.util.LinkedHashMap<>();
        for (Stack stack : List.of(data, training.get(0), training.get(1))) {
            templates.put(stack.getStackName(), Template.fromStack(stack).toJSON());
        }
        return new Layout(data, preload, training, templates);
    }

    @ParameterizedTest
    @ValueSource(strings = {"unset", "strong", "weak"})
    void aReWarmChangesNothingAnotherStackReads(String references) {
        Layout before = synthesize(references, "2026-11-01");
        Layout after = synthesize(references, "2026-11-25");
        assertNotEquals(before.templates().get("Data"), after.templates().get("Data"), "the data stack warms again");
        assertEquals(before.outputs(before.data()), after.outputs(after.data()), "the data stack's outputs");
        for (Stack stack : before.training()) {
            assertEquals(before.templates().get(stack.getStackName()), after.templates().get(stack.getStackName()),
                    stack.getStackName() + " is untouched by a re-warm");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"unset", "strong", "weak"})
    void onlyStableNamesCrossTheStackBoundary(String references) {
        Layout layout = synthesize(references, "2026-11-01");
        String preload = layout.logicalId(layout.preload().getResource());
        Map<String, Object> outputs = layout.outputs(layout.data());
        assertFalse(outputs.isEmpty());
        outputs.forEach((name, output) -> assertFalse(output.toString().contains(preload),
                name + " depends on the preload's per-warm attributes: " + output));
        // What the training stacks read: the pointer's name and the preload state machine's name (for IAM).
        String pointer = layout.logicalId((IConstruct) layout.preload().getCurrentExecutionParameter());
        String machine = layout.logicalId(layout.preload().getStateMachine());
        assertTrue(outputs.values().stream().anyMatch(o -> o.toString().contains("Ref=" + pointer)), outputs.toString());
        assertTrue(outputs.values().stream().anyMatch(o -> o.toString().contains("Fn::GetAtt=[" + machine + ", Name]")),
                outputs.toString());
        for (Stack stack : layout.training()) {
            String template = layout.templates().get(stack.getStackName()).toString();
            assertEquals(!references.equals("weak"), template.contains("Fn::ImportValue"), stack.getStackName());
            assertEquals(references.equals("weak"), template.contains("Fn::GetStackOutput"), stack.getStackName());
            assertTrue(template.contains("aws-sdk:ssm:getParameter"), "training looks the current warm up at run time");
            assertEquals("", NagFindings.of(stack), stack.getStackName());
        }
        assertEquals("", NagFindings.of(layout.data()));
    }

    /**
     * Replacing the cache (another AZ, Lustre version, deployment type or security group) gives it a new id and mount
     * name. Under every reference strength no output of the data stack carries the file system's identifiers, so no
     * training stack imports or reads them at its deploy (where they would block or go stale): each execution reads
     * them from the cache's publication when it starts (docs/composition.md).
     */
    @ParameterizedTest
    @ValueSource(strings = {"unset", "strong", "weak"})
    void noOutputOfTheDataStackCarriesTheCachesIdentifiers(String references) {
        Layout layout = synthesize(references, "2026-11-01");
        String fileSystem = layout.logicalId(layout.preload().getCache());
        Map<String, Object> outputs = layout.outputs(layout.data());
        List<String> cacheOutputs = outputs.entrySet().stream()
                .filter(o -> o.getValue().toString().contains(fileSystem)).map(Map.Entry::getKey).toList();
        assertEquals(List.of(), cacheOutputs, outputs.toString());
        for (Stack stack : layout.training()) {
            String template = layout.templates().get(stack.getStackName()).toString();
            assertFalse(template.contains(fileSystem), stack.getStackName());
            assertTrue(template.contains("/training-data/stores/"), stack.getStackName()
                    + " reads the cache's publication at run time");
        }
    }
}
