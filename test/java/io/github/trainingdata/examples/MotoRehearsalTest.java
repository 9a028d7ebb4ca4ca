package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.trainingdata.cdk.MotoServer;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.advisor.AccessPattern;
import io.github.trainingdata.cdk.advisor.ByteSize;
import io.github.trainingdata.cdk.advisor.DatasetProfile;
import io.github.trainingdata.cdk.launch.DeployedTrainingJobDefinition;
import io.github.trainingdata.cdk.launch.TrainingJobLauncher;
import io.github.trainingdata.cdk.launch.TrainingJobNames;
import io.github.trainingdata.cdk.launch.TrainingJobRequestJson;
import io.github.trainingdata.cdk.platform.TrainingDataPlatform;
import io.github.trainingdata.cdk.platform.TrainingDataPlatformProps;
import io.github.trainingdata.cdk.preload.handler.PreloadHandler;
import io.github.trainingdata.cdk.preload.handler.RecordingContext;
import io.github.trainingdata.cdk.training.TrainingImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterType;

/**
 * A rehearsal of the deployed examples in moto, the AWS emulator: what a deploy would create, run against
 * emulated Step Functions, SageMaker, SSM and S3, with every CreateTrainingJob request that arrives checked
 * against botocore's SageMaker model.
 *
 * <p>Each training state machine is taken from the synthesized template, its DefinitionString resolved with
 * realistic deploy-time values ({@code .ci/cfn_resolve.py}). Two changes, and only these, make it run in moto:
 * the optimised {@code arn:aws:states:::sagemaker:createTrainingJob.sync} becomes its request-response form
 * {@code ...:createTrainingJob} (moto does not emulate .sync), and every Wait state waits 0 seconds (moto honours
 * {@code Seconds}, so the prerequisite poll's minute would make the test slow; the loop is the same).
 *
 * <p>Skipped without Python 3 and moto, except under {@code CI=true}.
 */
class MotoRehearsalTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SYNC = ":states:::sagemaker:createTrainingJob.sync";
    private static final StackProps ENV = StackProps.builder()
            .env(Environment.builder().account("123456789012").region("us-east-1").build()).build();

    private static MotoServer moto;
    private static SfnClient sfn;
    private static SageMakerClient sageMaker;
    private static SsmClient ssm;
    private static S3Client s3;
    /** Stack name to resolved template. */
    private static final Map<String, JsonNode> TEMPLATES = new LinkedHashMap<>();
    private static final Set<String> WORKERS = new LinkedHashSet<>();
    private static int machines;

    @BeforeAll
    static void deployIntoMoto() throws IOException {
        moto = MotoServer.start();
        sfn = moto.client(SfnClient.builder());
        sageMaker = moto.client(SageMakerClient.builder());
        ssm = moto.client(SsmClient.builder());
        s3 = moto.client(S3Client.builder().forcePathStyle(true));

        App app = TestApps.app();
        QuickstartStack quickstart = new QuickstartStack(app, "TrainingDataQuickstart");
        AdvisedPlatformStack advised = new AdvisedPlatformStack(app, "TrainingDataAdvisedPlatform");
        SharedDataStack shared = new SharedDataStack(app, "TrainingDataShared", ENV);
        SharedTrainingStack team = new SharedTrainingStack(app, "TrainingTeamVision", ENV, shared);
        Stack waits = new Stack(app, "TrainingDataWaitsForPreload");
        new TrainingDataPlatform(waits, "Platform", TrainingDataPlatformProps.builder()
                .profile(DatasetProfile.builder().totalBytes(ByteSize.parse("1.2TB")).fileCount(12_000_000)
                        .accessPattern(AccessPattern.RANDOM).instanceType("ml.p4d.24xlarge").build())
                .trainingImage(TrainingImage.fromUri("763104351884.dkr.ecr.us-east-1.amazonaws.com/"
                        + "pytorch-training:2.5.1-gpu-py311"))
                .jobNamePrefix("waits")
                .waitForPreload(false)
                .build());
        resolve(List.of(quickstart), List.of(advised), List.of(shared, team), List.of(waits));
    }

    @SafeVarargs
    private static void resolve(List<? extends Stack>... groups) throws IOException {
        Path dir = Files.createDirectories(Path.of("target", "rehearsal"));
        for (List<? extends Stack> group : groups) {
            List<Path> files = new ArrayList<>();
            for (Stack stack : group) {
                Path file = dir.resolve(stack.getStackName() + ".template.json");
                Files.writeString(file, JSON.writeValueAsString(Template.fromStack(stack).toJSON()));
                files.add(file);
            }
            List<JsonNode> resolved = moto.resolve(files);
            for (int i = 0; i < group.size(); i++) {
                TEMPLATES.put(group.get(i).getStackName(), resolved.get(i));
            }
        }
    }

    @AfterAll
    static void stopMoto() {
        if (moto != null) {
            moto.close();
        }
    }

    /** The training state machines that train at once (no prerequisite), as (stack, logical id). */
    static Stream<Arguments> trainingMachines() {
        return Stream.of(Arguments.of("TrainingDataQuickstart", "TrainingStateMachine8350BA52"),
                Arguments.of("TrainingDataAdvisedPlatform", "PlatformTrainingStateMachineF0FE358C"),
                Arguments.of("TrainingTeamVision", "ResnetStateMachine95D9A2C8"),
                Arguments.of("TrainingTeamVision", "VitStateMachine60566B89"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("trainingMachines")
    void everyExecutionTrainsOneJobWithAValidUniqueNameAndAValidRequest(String stack, String machine) {
        String arn = createInMoto(stack, machine);
        int before = requests().size();

        List<String> executions = List.of(UUID.randomUUID().toString(), UUID.randomUUID().toString());
        for (String execution : executions) {
            assertEquals("SUCCEEDED", run(arn, execution).get("status").asText(), stack + " " + machine);
        }

        List<JsonNode> trained = requests().subList(before, requests().size());
        assertEquals(2, trained.size(), "one CreateTrainingJob per execution");
        Set<String> names = new LinkedHashSet<>();
        String prefix = trainingPrefix(stack, machine);
        for (JsonNode request : trained) {
            String name = request.get("TrainingJobName").asText();
            assertTrue(TrainingJobNames.isValidName(name) && name.startsWith(prefix + "-"), name);
            names.add(name);
        }
        assertEquals(2, names.size(), "each execution trains under its own name: " + names);
        assertEquals(List.of(), problems(), "requests that arrived at SageMaker, against botocore's model");
    }

    @ParameterizedTest(name = "prerequisite {0}")
    @ValueSource(strings = {"Completed", "InProgress,Stopping,Completed"})
    void withAPreloadThatDoesNotWaitTrainingStartsOnlyAfterTheWorkerCompleted(String statuses) {
        String worker = createPrerequisiteWorker();
        moto.call(Map.of("cmd", "script-status", "job", worker, "statuses", List.of(statuses.split(","))));
        String arn = createInMoto("TrainingDataWaitsForPreload", "PlatformTrainingStateMachineF0FE358C");
        int before = requests().size();

        assertEquals("SUCCEEDED", run(arn, UUID.randomUUID().toString()).get("status").asText());
        List<JsonNode> trained = requests().subList(before, requests().size());
        assertEquals(1, trained.size());
        assertTrue(trained.get(0).get("TrainingJobName").asText().startsWith("waits-"));
        assertEquals(List.of(), problems());
    }

    @ParameterizedTest(name = "prerequisite {0}")
    @ValueSource(strings = {"Failed", "Stopped", "InProgress,Failed"})
    void withAPreloadThatDoesNotWaitAFailedOrStoppedWorkerFailsTheExecutionWithoutTraining(String statuses) {
        String worker = createPrerequisiteWorker();
        moto.call(Map.of("cmd", "script-status", "job", worker, "statuses", List.of(statuses.split(","))));
        String arn = createInMoto("TrainingDataWaitsForPreload", "PlatformTrainingStateMachineF0FE358C");
        int before = requests().size();

        JsonNode result = run(arn, UUID.randomUUID().toString());
        assertEquals("FAILED", result.get("status").asText());
        assertEquals("PrerequisiteJobNotCompleted", result.get("failure").asText());
        assertEquals(before, requests().size(), "no training job was started");
    }

    @Test
    void theLauncherStartsTheDeployedRequestFromSsmAndItsChannelsFindTheData() throws InterruptedException {
        JsonNode template = TEMPLATES.get("TrainingDataQuickstart");
        JsonNode parameter = resourcesOfType(template, "AWS::SSM::Parameter").get(0).get("Properties");
        String name = "/rehearsal/quickstart/request";
        ssm.putParameter(r -> r.name(name).type(ParameterType.STRING).value(parameter.get("Value").asText()));
        String bucket = uploadDataset(template, "validation/shard-000000.tar");

        TrainingJobLauncher launcher = new TrainingJobLauncher(sageMaker);
        String job = launcher.start(new DeployedTrainingJobDefinition(ssm, name).document(), "quickstart");
        assertEquals("Completed", launcher.waitForCompletion(job, Duration.ofSeconds(1), Duration.ofMinutes(1),
                line -> { }).trainingJobStatusAsString());

        JsonNode request = requestNamed(job);
        assertEquals(List.of(), problems());
        for (JsonNode channel : request.get("InputDataConfig")) {
            JsonNode source = channel.path("DataSource").path("S3DataSource");
            if (!source.isMissingNode()) {
                String uri = source.get("S3Uri").asText();
                assertTrue(uri.startsWith("s3://" + bucket + "/"), uri);
                String prefix = uri.substring(("s3://" + bucket + "/").length());
                assertTrue(s3.listObjectsV2(r -> r.bucket(bucket).prefix(prefix)).keyCount() > 0,
                        "channel " + channel.get("ChannelName").asText() + " finds the uploaded data at " + uri);
            }
        }
        assertTrue(request.get("OutputDataConfig").get("S3OutputPath").asText().startsWith("s3://" + bucket + "/"));
    }

    @Test
    void thePreloadHandlerStartsTheWorkerAsDeployedWaitsForItAndDeletesCleanly() {
        JsonNode template = TEMPLATES.get("TrainingDataQuickstart");
        JsonNode preload = resourcesOfType(template, "Custom::LustrePreload").get(0).get("Properties");
        Map<String, Object> properties = JSON.convertValue(preload, new TypeReference<Map<String, Object>>() { });
        properties.remove("ServiceToken");
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("RequestType", "Create");
        event.put("RequestId", UUID.randomUUID().toString());
        event.put("StackId", "arn:aws:cloudformation:us-east-1:123456789012:stack/TrainingDataQuickstart/"
                + UUID.randomUUID());
        event.put("LogicalResourceId", "Preload180FEAD3");
        event.put("ResourceProperties", properties);
        PreloadHandler handler = new PreloadHandler(sfn, sageMaker, Clock.systemUTC());

        Map<String, Object> created = handler.onEvent(event, new RecordingContext());
        String worker = (String) created.get("PhysicalResourceId");
        assertEquals(worker, requestNamed(worker).get("TrainingJobName").asText());
        assertEquals(List.of(), problems());

        event.put("PhysicalResourceId", worker);
        Map<String, Object> complete = handler.isComplete(event, new RecordingContext());
        assertEquals(true, complete.get("IsComplete"));
        assertEquals(worker, ((Map<?, ?>) complete.get("Data")).get(PreloadHandler.WORKER_JOB_NAME));

        event.put("RequestType", "Delete");
        assertEquals(worker, handler.onEvent(event, new RecordingContext()).get("PhysicalResourceId"));
        assertEquals(true, handler.isComplete(event, new RecordingContext()).get("IsComplete"));
    }

    // ------------------------------------------------------------------------------------------ helpers

    /** Creates the resolved state machine in moto (.sync made request-response, waits 0 s) and returns its ARN. */
    private static String createInMoto(String stack, String machine) {
        ObjectNode definition = definition(stack, machine);
        rehearsable(definition);
        return sfn.createStateMachine(r -> r.name(machine + "-" + ++machines)
                .roleArn("arn:aws:iam::123456789012:role/rehearsal")
                .definition(definition.toString())).stateMachineArn();
    }

    private static ObjectNode definition(String stack, String machine) {
        try {
            return (ObjectNode) JSON.readTree(TEMPLATES.get(stack).get("Resources").get(machine).get("Properties")
                    .get("DefinitionString").asText());
        } catch (IOException e) {
            throw new IllegalStateException(stack + " " + machine + ": the definition is not JSON", e);
        }
    }

    private static void rehearsable(JsonNode node) {
        if (node instanceof ObjectNode object) {
            if (object.path("Resource").asText().endsWith(SYNC)) {
                object.put("Resource", object.get("Resource").asText().replace(".sync", ""));
            }
            if ("Wait".equals(object.path("Type").asText())) {
                object.remove(List.of("SecondsPath", "Timestamp", "TimestampPath"));
                object.put("Seconds", 0);
            }
        }
        node.forEach(MotoRehearsalTest::rehearsable);
    }

    private static String trainingPrefix(String stack, String machine) {
        String format = definition(stack, machine).findValue("TrainingJobName.$").asText();
        return format.substring(format.indexOf('\'') + 1, format.indexOf("-{}"));
    }

    private static JsonNode run(String stateMachineArn, String name) {
        String execution = sfn.startExecution(r -> r.stateMachineArn(stateMachineArn).name(name)).executionArn();
        return moto.call(Map.of("cmd", "await-execution", "arn", execution, "timeout", 120));
    }

    /** The worker job the waiting state machine describes, created in moto once from the preload's own request. */
    private static String createPrerequisiteWorker() {
        JsonNode template = TEMPLATES.get("TrainingDataWaitsForPreload");
        String worker = definition("TrainingDataWaitsForPreload", "PlatformTrainingStateMachineF0FE358C")
                .findValue("TrainingJobName").asText();
        if (WORKERS.add(worker)) {
            String request = resourcesOfType(template, "Custom::LustrePreload").get(0).get("Properties")
                    .get("WorkerRequest").asText();
            sageMaker.createTrainingJob(TrainingJobRequestJson.toRequest(request, worker));
        }
        return worker;
    }

    private static String uploadDataset(JsonNode template, String relativeKey) {
        String importPath = resourcesOfType(template, "AWS::FSx::FileSystem").get(0).get("Properties")
                .get("LustreConfiguration").get("ImportPath").asText();
        String bucketAndPrefix = importPath.substring("s3://".length());
        String bucket = bucketAndPrefix.split("/", 2)[0];
        String datasetPrefix = bucketAndPrefix.substring(bucket.length() + 1);
        s3.createBucket(r -> r.bucket(bucket));
        s3.putObject(r -> r.bucket(bucket).key(datasetPrefix + "/" + relativeKey), RequestBody.fromString("data"));
        return bucket;
    }

    private static List<JsonNode> resourcesOfType(JsonNode template, String type) {
        List<JsonNode> found = new ArrayList<>();
        template.get("Resources").forEach(r -> {
            if (type.equals(r.get("Type").asText())) {
                found.add(r);
            }
        });
        assertNotEquals(0, found.size(), "no " + type);
        return found;
    }

    private static List<JsonNode> requests() {
        List<JsonNode> all = new ArrayList<>();
        moto.call(Map.of("cmd", "training-requests")).get("requests").forEach(all::add);
        return all;
    }

    private static JsonNode requestNamed(String name) {
        return requests().stream().filter(r -> name.equals(r.get("TrainingJobName").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("SageMaker received no CreateTrainingJob for " + name));
    }

    private static List<String> problems() {
        List<String> all = new ArrayList<>();
        moto.call(Map.of("cmd", "training-requests")).get("problems").forEach(p -> all.add(p.asText()));
        return all;
    }
}
