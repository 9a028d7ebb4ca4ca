package io.github.trainingdata.cdk.preload.handler;

import static io.github.trainingdata.cdk.launch.TrainingJobDescriptions.CREATED_EPOCH_SECONDS;
import static io.github.trainingdata.cdk.launch.TrainingJobDescriptions.describe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.launch.AwsJsonEmulator;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import io.github.trainingdata.cdk.launch.JsonTrees;
import io.github.trainingdata.cdk.launch.MutableClock;
import io.github.trainingdata.cdk.launch.TrainingJobNames;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;

class PreloadHandlerTest {
    private static final String CREATE = "SageMaker.CreateTrainingJob";
    private static final String DESCRIBE = "SageMaker.DescribeTrainingJob";
    private static final String STOP = "SageMaker.StopTrainingJob";
    private static final String STACK_ID =
            "arn:aws:cloudformation:us-east-1:123456789012:stack/Training/4a1e2b30-0000-11f0-9c7a-0a1b2c3d4e5f";
    private static final String LOGICAL_ID = "CachePreloadResource1A2B3C4D";
    private static final String PREFIX = "cache-preload";
    private static final String WORKER_REQUEST = """
            {"AlgorithmSpecification": {"TrainingImage": "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.3.0-cpu-py311",
               "TrainingInputMode": "File", "ContainerEntrypoint": ["/bin/sh", "-c", "exec /bin/sh /tmp/warm-cache.sh"],
               "MetricDefinitions": [{"Name": "preload:files", "Regex": "files=([0-9]+)"}]},
             "RoleArn": "arn:aws:iam::123456789012:role/PreloadWorker",
             "InputDataConfig": [{"ChannelName": "cache", "InputMode": "File", "DataSource": {"FileSystemDataSource": {
               "FileSystemId": "fs-0123456789abcdef0", "FileSystemAccessMode": "ro", "FileSystemType": "FSxLustre",
               "DirectoryPath": "/abcdwxyz/images"}}}],
             "OutputDataConfig": {"S3OutputPath": "s3://training-data-123456789012/preload/"},
             "ResourceConfig": {"InstanceType": "ml.m5.large", "InstanceCount": 1, "VolumeSizeInGB": 10},
             "StoppingCondition": {"MaxRuntimeInSeconds": 3600},
             "VpcConfig": {"SecurityGroupIds": ["sg-0123456789abcdef0"], "Subnets": ["subnet-0123456789abcdef0"]},
             "Environment": {"PRELOAD_ROOT": "/opt/ml/input/data/cache"}}
            """;

    private AwsJsonEmulator emulator;
    private SageMakerClient sageMaker;
    private MutableClock clock;
    private PreloadHandler handler;
    private RecordingContext context;

    @BeforeEach
    void start() throws IOException {
        emulator = new AwsJsonEmulator();
        Set<String> existing = new HashSet<>();
        emulator.on(CREATE, call -> {
            String name = call.json().field("TrainingJobName").orElseThrow().asString();
            return existing.add(name)
                    ? Reply.ok("{\"TrainingJobArn\":\"arn:aws:sagemaker:us-east-1:123456789012:training-job/" + name + "\"}")
                    : Reply.error(400, "ResourceInUse", "Training job names must be unique within an AWS account and "
                            + "region, and a training job with this name already exists");
        });
        emulator.on(STOP, call -> Reply.ok("{}"));
        sageMaker = emulator.connect(PreloadHandler.sageMakerClientBuilder());
        clock = new MutableClock(Instant.ofEpochSecond(CREATED_EPOCH_SECONDS).plusSeconds(60));
        handler = new PreloadHandler(sageMaker, clock);
        context = new RecordingContext();
    }

    @AfterEach
    void stop() {
        sageMaker.close();
        emulator.close();
    }

    private static Map<String, Object> properties(String warmKey, String waitForCompletion) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:framework-onEvent");
        properties.put("WorkerJobNamePrefix", PREFIX);
        properties.put("WorkerRequest", WORKER_REQUEST);
        properties.put("WarmKey", warmKey);
        properties.put("TimeoutSeconds", "3600");
        properties.put("Wait", waitForCompletion);
        return properties;
    }

    private static Map<String, Object> event(String requestType, String requestId, Map<String, Object> properties) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("RequestType", requestType);
        event.put("RequestId", requestId);
        event.put("StackId", STACK_ID);
        event.put("LogicalResourceId", LOGICAL_ID);
        event.put("ResourceType", "Custom::LustrePreload");
        event.put("ResponseURL", "https://cloudformation-custom-resource-response-useast1.s3.amazonaws.com/x");
        event.put("ResourceProperties", properties);
        return event;
    }

    private static Map<String, Object> withPhysicalId(Map<String, Object> event, String physicalId) {
        event.put("PhysicalResourceId", physicalId);
        return event;
    }

    private static Map<String, Object> update(String requestId, String physicalId, Map<String, Object> properties,
            Map<String, Object> oldProperties) {
        Map<String, Object> event = withPhysicalId(event("Update", requestId, properties), physicalId);
        event.put("OldResourceProperties", oldProperties);
        return event;
    }

    private Map<String, Object> isCompleteAfterCreate(String physicalId, Map<String, Object> properties) {
        return handler.isComplete(withPhysicalId(event("Create", "req-1", properties), physicalId), context);
    }

    private static String expectedName(String requestId) {
        return TrainingJobNames.hashed(PREFIX, STACK_ID + "|" + LOGICAL_ID + "|" + requestId);
    }

    private List<String> targets() {
        return emulator.calls().stream().map(AwsJsonEmulator.Call::target).toList();
    }

    @Test
    void createStartsTheWorkerUnderADeterministicName() {
        Map<String, Object> result = handler.onEvent(event("Create", "req-1", properties("k1", "true")), context);

        String name = expectedName("req-1");
        assertTrue(name.matches(PREFIX + "-[0-9a-f]{12}"), name);
        assertEquals(Map.of("PhysicalResourceId", name, "Data", Map.of("WorkerJobName", name)), result);
        assertEquals(List.of(CREATE), targets());
        assertEquals(JsonTrees.treeWith(WORKER_REQUEST, "TrainingJobName", name),
                JsonTrees.tree(emulator.calls(CREATE).get(0).body()));
    }

    @Test
    void aRetriedCreateDoesNotStartASecondWorker() {
        Map<String, Object> first = handler.onEvent(event("Create", "req-1", properties("k1", "true")), context);
        Map<String, Object> retry = handler.onEvent(event("Create", "req-1", properties("k1", "true")), context);

        assertEquals(first, retry);
        List<String> names = emulator.calls(CREATE).stream()
                .map(call -> call.json().field("TrainingJobName").orElseThrow().asString()).toList();
        assertEquals(List.of(expectedName("req-1"), expectedName("req-1")), names);
        assertTrue(context.lines().get(1).contains("already exists"), context.lines().toString());
    }

    @Test
    void createRejectsBadPropertiesNamingThem() {
        Map<String, Object> properties = properties("k1", "true");
        properties.put("TimeoutSeconds", "soon");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> handler.onEvent(event("Create", "req-1", properties), context));
        assertEquals("ResourceProperties.TimeoutSeconds must be a positive whole number of seconds, got 'soon'",
                e.getMessage());

        properties.remove("WarmKey");
        assertEquals("ResourceProperties.WarmKey is required", assertThrows(IllegalArgumentException.class,
                () -> handler.onEvent(event("Create", "req-1", properties), context)).getMessage());
        assertEquals(List.of(), emulator.calls());
    }

    @Test
    void isCompleteIsFalseWhileTheWorkerRuns() {
        emulator.onSequence(DESCRIBE,
                Reply.ok(describe("w", "InProgress", "Downloading")),
                Reply.ok(describe("w", "Stopping", "Stopping")));

        assertEquals(Map.of("IsComplete", false), isCompleteAfterCreate("w", properties("k1", "true")));
        assertEquals(Map.of("IsComplete", false), isCompleteAfterCreate("w", properties("k1", "true")));
        assertEquals(List.of(DESCRIBE, DESCRIBE), targets());
        assertEquals("{\"TrainingJobName\":\"w\"}", emulator.calls(DESCRIBE).get(0).body());
        assertEquals("Preload worker w: InProgress / Downloading, 60 of 3600 s", context.lines().get(0));
    }

    @Test
    void aCompletedWorkerReturnsItsMetricsAsAttributes() {
        emulator.on(DESCRIBE, call -> Reply.ok(describe("w", "Completed", "Completed",
                "\"FinalMetricDataList\":["
                        + "{\"MetricName\":\"preload:files\",\"Value\":1234.0,\"Timestamp\":1767225700},"
                        + "{\"MetricName\":\"preload:bytes\",\"Value\":5.36870912E8,\"Timestamp\":1767225700},"
                        + "{\"MetricName\":\"preload:seconds\",\"Value\":42.0,\"Timestamp\":1767225700}],"
                        + "\"TrainingStartTime\":1767225630,\"TrainingEndTime\":1767225700,")));

        Map<String, Object> result = isCompleteAfterCreate("w", properties("k1", "true"));

        assertEquals(Map.of("IsComplete", true, "Data", Map.of("WorkerJobName", "w", "FilesWarmed", "1234",
                "BytesWarmed", "536870912", "Seconds", "42")), result);
    }

    @Test
    void secondsFallBackToTheTrainingTimeWhenTheMetricIsMissing() {
        emulator.on(DESCRIBE, call -> Reply.ok(describe("w", "Completed", "Completed",
                "\"FinalMetricDataList\":[{\"MetricName\":\"preload:files\",\"Value\":0.0,\"Timestamp\":1767225700},"
                        + "{\"MetricName\":\"preload:bytes\",\"Value\":0.0,\"Timestamp\":1767225700}],"
                        + "\"TrainingStartTime\":1767225630.25,\"TrainingEndTime\":1767225700.75,")));

        Map<String, Object> result = isCompleteAfterCreate("w", properties("k1", "true"));

        assertEquals(Map.of("WorkerJobName", "w", "FilesWarmed", "0", "BytesWarmed", "0", "Seconds", "70"),
                result.get("Data"));
    }

    @Test
    void aFailedWorkerFailsTheDeploymentWithSageMakersReason() {
        emulator.on(DESCRIBE, call -> Reply.ok(describe("w", "Failed", "Failed",
                "\"FailureReason\":\"AlgorithmError: preload failed: 3 files still have an HSM action\",")));

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> isCompleteAfterCreate("w", properties("k1", "true")));

        assertTrue(e.getMessage().startsWith(
                "Preload worker w failed: AlgorithmError: preload failed: 3 files still have an HSM action."), e.getMessage());
    }

    @Test
    void aStoppedWorkerFailsTheDeploymentClearly() {
        emulator.on(DESCRIBE, call -> Reply.ok(describe("w", "Stopped", "Stopped")));

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> isCompleteAfterCreate("w", properties("k1", "true")));

        assertEquals("Preload worker w was stopped before it finished, so the cache is not fully warm; deploy again to retry",
                e.getMessage());
    }

    @Test
    void throttlingIsAbsorbedByTheSdkRetries() {
        emulator.onSequence(DESCRIBE,
                Reply.error(400, "ThrottlingException", "Rate exceeded"),
                Reply.ok(describe("w", "Completed", "Completed")));

        Map<String, Object> result = isCompleteAfterCreate("w", properties("k1", "true"));

        assertEquals(true, result.get("IsComplete"));
        assertEquals(List.of(DESCRIBE, DESCRIBE), targets());
    }

    @Test
    void aWorkerPastTheTimeoutIsStoppedAndFailsTheDeployment() {
        clock.advance(Duration.ofSeconds(3600 - 60 + 1));
        emulator.on(DESCRIBE, call -> Reply.ok(describe("w", "InProgress", "Training")));

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> isCompleteAfterCreate("w", properties("k1", "true")));

        assertTrue(e.getMessage().startsWith("Preload worker w did not finish within 3600 s; it was stopped. "),
                e.getMessage());
        assertEquals(List.of(DESCRIBE, STOP), targets());
        assertEquals("{\"TrainingJobName\":\"w\"}", emulator.calls(STOP).get(0).body());
    }

    @Test
    void aWorkerJustWithinTheTimeoutKeepsRunning() {
        clock.advance(Duration.ofSeconds(3600 - 60));
        emulator.on(DESCRIBE, call -> Reply.ok(describe("w", "InProgress", "Training")));

        assertEquals(Map.of("IsComplete", false), isCompleteAfterCreate("w", properties("k1", "true")));
        assertEquals(List.of(DESCRIBE), targets());
    }

    @Test
    void withoutWaitTheResourceIsCompleteAtOnce() {
        Map<String, Object> result = isCompleteAfterCreate("w", properties("k1", "false"));

        assertEquals(Map.of("IsComplete", true, "Data", Map.of("WorkerJobName", "w")), result);
        assertEquals(List.of(), emulator.calls());
    }

    @Test
    void anUpdateWithTheSameKeyStartsNothing() {
        String old = expectedName("req-1");
        Map<String, Object> result = handler.onEvent(
                update("req-2", old, properties("k1", "true"), properties("k1", "false")), context);

        assertEquals(Map.of("PhysicalResourceId", old, "Data", Map.of("WorkerJobName", old)), result);
        assertEquals(List.of(), emulator.calls());
    }

    @Test
    void anUpdateToAnotherPrefixStartsAWorkerUnderIt() {
        Map<String, Object> result = handler.onEvent(
                update("req-2", "old-prefix-0123456789ab", properties("k1", "true"), properties("k1", "true")), context);

        assertEquals(expectedName("req-2"), result.get("PhysicalResourceId"));
        assertEquals(List.of(CREATE), targets());
    }

    @Test
    void anUpdateWithANewKeyStartsANewWorker() {
        Map<String, Object> result = handler.onEvent(
                update("req-2", expectedName("req-1"), properties("k2", "true"), properties("k1", "true")), context);

        assertEquals(expectedName("req-2"), result.get("PhysicalResourceId"));
        assertNotEquals(expectedName("req-1"), result.get("PhysicalResourceId"));
        assertEquals(List.of(CREATE), targets());
    }

    @Test
    void anUpdateOfOnlyTheWorkerRequestStartsNothing() {
        Map<String, Object> old = properties("k1", "true");
        old.put("WorkerRequest", WORKER_REQUEST.replace("ml.m5.large", "ml.m5.xlarge"));

        Map<String, Object> result = handler.onEvent(update("req-2", expectedName("req-1"), properties("k1", "true"), old),
                context);

        assertEquals(expectedName("req-1"), result.get("PhysicalResourceId"), "what is warmed did not change");
        assertEquals(List.of(), emulator.calls());
    }

    @Test
    void deleteStopsARunningWorker() {
        emulator.on(DESCRIBE, call -> Reply.ok(describe("w", "InProgress", "Training")));

        Map<String, Object> result = handler.onEvent(withPhysicalId(event("Delete", "req-3", properties("k1", "true")), "w"),
                context);

        assertEquals(Map.of("PhysicalResourceId", "w"), result);
        assertEquals(List.of(DESCRIBE, STOP), targets());
        assertEquals("{\"TrainingJobName\":\"w\"}", emulator.calls(STOP).get(0).body());
    }

    @Test
    void deleteLeavesAFinishedWorkerAlone() {
        emulator.on(DESCRIBE, call -> Reply.ok(describe("w", "Completed", "Completed")));

        handler.onEvent(withPhysicalId(event("Delete", "req-3", properties("k1", "true")), "w"), context);

        assertEquals(List.of(DESCRIBE), targets());
    }

    @Test
    void deleteOfAMissingWorkerSucceeds() {
        emulator.on(DESCRIBE, call -> Reply.error(400, "ValidationException", "Requested resource not found."));

        Map<String, Object> result = handler.onEvent(
                withPhysicalId(event("Delete", "req-3", properties("k1", "true")), "gone"), context);

        assertEquals(Map.of("PhysicalResourceId", "gone"), result);
        assertEquals(List.of(DESCRIBE), targets());
        assertTrue(context.lines().get(0).contains("Requested resource not found"), context.lines().toString());
    }

    @Test
    void deleteSucceedsWhenTheWorkerVanishesBeforeItIsStopped() {
        emulator.on(DESCRIBE, call -> Reply.ok(describe("w", "InProgress", "Training")));
        emulator.on(STOP, call -> Reply.error(400, "ResourceNotFound", "Training job w does not exist"));

        Map<String, Object> result = handler.onEvent(withPhysicalId(event("Delete", "req-3", properties("k1", "true")), "w"),
                context);

        assertEquals(Map.of("PhysicalResourceId", "w"), result);
        assertEquals(List.of(DESCRIBE, STOP), targets());
    }

    @Test
    void deleteOfAPhysicalIdThatIsNoJobNameCallsNothing() {
        Map<String, Object> result = handler.onEvent(withPhysicalId(event("Delete", "req-3", properties("k1", "true")),
                "AWSCDK::CustomResourceProviderFramework::CREATE_FAILED"), context);

        assertEquals(Map.of("PhysicalResourceId", "AWSCDK::CustomResourceProviderFramework::CREATE_FAILED"), result);
        assertEquals(List.of(), emulator.calls());
    }

    private Map<String, Object> isCompleteForDelete(String physicalId) {
        return handler.isComplete(withPhysicalId(event("Delete", "req-3", properties("k1", "true")), physicalId), context);
    }

    @Test
    void deleteWaitsUntilAStoppingWorkerHasStopped() {
        emulator.onSequence(DESCRIBE, Reply.ok(describe("w", "Stopping", "Stopping")),
                Reply.ok(describe("w", "Stopped", "Stopped")));

        assertEquals(Map.of("IsComplete", false), isCompleteForDelete("w"), "its network interfaces are still in use");
        assertEquals(Map.of("IsComplete", true, "Data", Map.of()), isCompleteForDelete("w"));
        assertEquals(List.of(DESCRIBE, DESCRIBE), targets());
    }

    @Test
    void deleteStopsAgainAWorkerStillRunning() {
        emulator.on(DESCRIBE, call -> Reply.ok(describe("w", "InProgress", "Training")));

        assertEquals(Map.of("IsComplete", false), isCompleteForDelete("w"));
        assertEquals(List.of(DESCRIBE, STOP), targets());
    }

    @Test
    void deleteCompletesWhenTheWorkerIsGoneOrThePhysicalIdIsNoJob() {
        emulator.on(DESCRIBE, call -> Reply.error(400, "ValidationException", "Requested resource not found."));

        assertEquals(true, isCompleteForDelete("w").get("IsComplete"));
        assertEquals(true, isCompleteForDelete("AWSCDK::CustomResourceProviderFramework::CREATE_FAILED").get("IsComplete"));
        assertEquals(List.of(DESCRIBE), targets());
    }
}
