package io.github.trainingdata.cdk.preload.handler;

import static io.github.trainingdata.cdk.launch.TrainingJobDescriptions.describe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.handler.SdkCalls;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import io.github.trainingdata.cdk.launch.MutableClock;
import io.github.trainingdata.cdk.launch.TrainingJobNames;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.utils.SdkAutoCloseable;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The preload handler against a loopback emulator of Step Functions and SageMaker, with the real SDK clients
 * configured as in Lambda: each test checks the calls the handler makes and what it returns to the Provider
 * framework.
 */
class PreloadHandlerTest {
    private static final String START = "AWSStepFunctions.StartExecution";
    private static final String DESCRIBE_EXECUTION = "AWSStepFunctions.DescribeExecution";
    private static final String STOP_EXECUTION = "AWSStepFunctions.StopExecution";
    private static final String DESCRIBE_JOB = "SageMaker.DescribeTrainingJob";
    private static final String STOP_JOB = "SageMaker.StopTrainingJob";
    private static final String STACK_ID =
            "arn:aws:cloudformation:us-east-1:123456789012:stack/Training/4a1e2b30-0000-11f0-9c7a-0a1b2c3d4e5f";
    private static final String LOGICAL_ID = "CachePreloadResource1A2B3C4D";
    private static final String PREFIX = "warm-resnet";
    private static final String STATE_MACHINE = "arn:aws:states:us-east-1:123456789012:stateMachine:PreloadStateMachineA1B2";
    private static final String OLD_STATE_MACHINE = "arn:aws:states:us-east-1:123456789012:stateMachine:PreloadOldC3D4";
    private static final String BUCKET = "training-data-123456789012";
    /** When the emulated executions started: 2026-01-01T00:00:00Z. */
    private static final long STARTED_EPOCH_SECONDS = 1_767_225_600L;

    private AwsJsonEmulator emulator;
    private SfnClient stepFunctions;
    private SageMakerClient sageMaker;
    private MutableClock clock;
    private PreloadHandler handler;
    private RecordingContext context;
    private final List<SdkAutoCloseable> extraClients = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        emulator = new AwsJsonEmulator();
        Set<String> started = new HashSet<>();
        emulator.on(START, call -> {
            String name = call.json().required("name").textValue();
            return started.add(name)
                    ? Reply.ok("{\"executionArn\":\"" + executionArn(name) + "\",\"startDate\":" + STARTED_EPOCH_SECONDS + "}")
                    : Reply.error(400, "ExecutionAlreadyExists", "Execution Already Exists: '" + executionArn(name) + "'");
        });
        emulator.on(STOP_EXECUTION, call -> Reply.ok("{\"stopDate\":" + (STARTED_EPOCH_SECONDS + 90) + "}"));
        emulator.on(STOP_JOB, call -> Reply.ok("{}"));
        stepFunctions = emulator.connect(PreloadClients.stepFunctionsClientBuilder());
        sageMaker = emulator.connect(PreloadClients.sageMakerClientBuilder());
        clock = new MutableClock(Instant.ofEpochSecond(STARTED_EPOCH_SECONDS).plusSeconds(60));
        handler = new PreloadHandler(stepFunctions, sageMaker, clock);
        context = new RecordingContext();
    }

    @AfterEach
    void stop() {
        extraClients.forEach(SdkAutoCloseable::close);
        stepFunctions.close();
        sageMaker.close();
        emulator.close();
    }

    private static String executionArn(String name) {
        return "arn:aws:states:us-east-1:123456789012:execution:PreloadStateMachineA1B2:" + name;
    }

    private static Map<String, Object> properties(String warmKey, String waitSeconds) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:framework-onEvent");
        properties.put("WorkerJobNamePrefix", PREFIX);
        properties.put("StateMachineArn", STATE_MACHINE);
        properties.put("FileSystemId", "fs-0123456789abcdef0");
        properties.put("DataLocations", List.of("s3://" + BUCKET + "/datasets/imagenet/train/", "s3://" + BUCKET + "/"));
        properties.put("WarmKey", warmKey);
        properties.put("WaitSeconds", waitSeconds);
        return properties;
    }

    private static Map<String, Object> waiting() {
        return properties("k1", "3300");
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

    private static Map<String, Object> update(String physicalId, Map<String, Object> properties,
            Map<String, Object> oldProperties) {
        Map<String, Object> event = withPhysicalId(event("Update", "req-2", properties), physicalId);
        event.put("OldResourceProperties", oldProperties);
        return event;
    }

    private Map<String, Object> isCompleteAfterCreate(Map<String, Object> properties) {
        return handler.isComplete(withPhysicalId(event("Create", "req-1", properties), NAME), context);
    }

    private static String expectedName(String requestId) {
        return TrainingJobNames.hashed(PREFIX, STACK_ID + "|" + LOGICAL_ID + "|" + requestId);
    }

    private static final String NAME = expectedName("req-1");

    /** A DescribeExecution answer for the execution {@link #NAME}. */
    private static String execution(String status, String extraMembers) {
        return "{" + extraMembers
                + "\"executionArn\":\"" + executionArn(NAME) + "\",\"stateMachineArn\":\"" + STATE_MACHINE + "\","
                + "\"name\":\"" + NAME + "\",\"status\":\"" + status + "\",\"startDate\":" + STARTED_EPOCH_SECONDS + "}";
    }

    private List<String> targets() {
        return emulator.calls().stream().map(AwsJsonEmulator.Call::target).toList();
    }

    private static Map<String, Object> attributes(String status, String files, String bytes, String seconds) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("Status", status);
        data.put("FilesWarmed", files);
        data.put("BytesWarmed", bytes);
        data.put("Seconds", seconds);
        return Map.of("IsComplete", true, "Data", data);
    }

    private static Map<String, Object> started(String name, String executionArn) {
        return Map.of("PhysicalResourceId", name, "Data", Map.of("WorkerJobName", name, "ExecutionArn", executionArn));
    }

    @Test
    void createStartsAnExecutionNamedAfterTheRequestWithTheLocationsToCheck() {
        Map<String, Object> result = handler.onEvent(event("Create", "req-1", waiting()), context);

        assertTrue(NAME.matches(PREFIX + "-[0-9a-f]{12}"), NAME);
        assertEquals(started(NAME, executionArn(NAME)), result);
        assertEquals(List.of(START), targets());
        Map<String, Object> request = Map.of("stateMachineArn", STATE_MACHINE, "name", NAME, "input", """
                {"WorkerJobName": "%s", "FileSystemId": "fs-0123456789abcdef0", "DataLocations": [
                  {"Bucket": "%s", "Prefix": "datasets/imagenet/train/", "StartAfter": "datasets/imagenet/train/"},
                  {"Bucket": "%s"}]}""".formatted(NAME, BUCKET, BUCKET));
        Object sent = Json.tree(emulator.calls(START).get(0).body());
        assertEquals(request.keySet(), ((Map<?, ?>) sent).keySet());
        assertEquals(Json.tree((String) request.get("input")), Json.tree((String) ((Map<?, ?>) sent).get("input")));
        assertEquals(List.of(STATE_MACHINE, NAME), List.of(((Map<?, ?>) sent).get("stateMachineArn"), ((Map<?, ?>) sent).get("name")));
    }

    @Test
    void aRetriedCreateStartsNoSecondExecution() {
        Map<String, Object> first = handler.onEvent(event("Create", "req-1", waiting()), context);
        Map<String, Object> retry = handler.onEvent(event("Create", "req-1", waiting()), context);

        assertEquals(first, retry);
        assertEquals(List.of(START, START), targets());
        assertEquals(emulator.calls(START).get(0).body(), emulator.calls(START).get(1).body(), "the same name and input");
        assertEquals("Preload execution " + NAME + " already exists (the request was retried): not starting another",
                context.lines().get(1));
    }

    @Test
    void badPropertiesAreRejectedByNameBeforeAnyCall() {
        Map<String, Object> properties = waiting();
        properties.put("WaitSeconds", "soon");
        assertEquals("ResourceProperties.WaitSeconds must be a whole number of seconds (0: the deploy does not wait), "
                + "got 'soon'", rejected(properties));
        properties.put("WaitSeconds", "0");
        properties.put("DataLocations", List.of("s3://" + BUCKET + "/train"));
        assertEquals("ResourceProperties.DataLocations[0]: 's3://" + BUCKET + "/train' is not an S3 location "
                + "s3://bucket/ or s3://bucket/prefix/", rejected(properties));
        properties.put("DataLocations", List.of());
        assertEquals("ResourceProperties.DataLocations must be a non-empty list of s3://bucket/prefix/ URIs",
                rejected(properties));
        properties.put("StateMachineArn", "PreloadStateMachineA1B2");
        assertEquals("ResourceProperties.StateMachineArn must be a state machine ARN, got 'PreloadStateMachineA1B2'",
                rejected(properties));
        properties.remove("WarmKey");
        properties.put("StateMachineArn", STATE_MACHINE);
        properties.put("DataLocations", List.of("s3://" + BUCKET + "/"));
        assertEquals("ResourceProperties.WarmKey is required", rejected(properties));
        assertEquals(List.of(), emulator.calls());
    }

    private String rejected(Map<String, Object> properties) {
        return assertThrows(IllegalArgumentException.class,
                () -> handler.onEvent(event("Create", "req-1", properties), context)).getMessage();
    }

    @Test
    void anUpdateWithTheSameKeyKeepsThePreloadAndItsExecution() {
        Map<String, Object> old = properties("k1", "0");
        old.put("StateMachineArn", OLD_STATE_MACHINE);
        Map<String, Object> result = handler.onEvent(update(NAME, waiting(), old), context);

        assertEquals(started(NAME, "arn:aws:states:us-east-1:123456789012:execution:PreloadOldC3D4:" + NAME), result,
                "the execution stays on the state machine it was started on");
        assertEquals(List.of(), emulator.calls());
    }

    @Test
    void anUpdateWithANewKeyStartsANewExecution() {
        Map<String, Object> result = handler.onEvent(update(NAME, properties("k2", "3300"), waiting()), context);

        String name = expectedName("req-2");
        assertEquals(started(name, executionArn(name)), result);
        assertEquals(List.of(START), targets());
    }

    @Test
    void anUpdateToAnotherPrefixStartsAnExecutionUnderIt() {
        Map<String, Object> result = handler.onEvent(update("old-prefix-0123456789ab", waiting(), waiting()), context);

        assertEquals(expectedName("req-2"), result.get("PhysicalResourceId"));
        assertEquals(List.of(START), targets());
    }

    @Test
    void whileTheExecutionRunsTheDeployWaits() {
        emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution("RUNNING", "")));

        assertEquals(Map.of("IsComplete", false), isCompleteAfterCreate(waiting()));
        assertEquals(List.of(DESCRIBE_EXECUTION), targets());
        assertEquals("{\"executionArn\":\"" + executionArn(NAME) + "\"}", emulator.calls(DESCRIBE_EXECUTION).get(0).body());
        assertEquals("Preload execution " + executionArn(NAME) + ": RUNNING, waited 60 of 3300 s", context.lines().get(0));
    }

    @Test
    void anExecutionStillRunningAtTheWaitLimitNoLongerHoldsTheDeploy() {
        emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution("RUNNING", "")));
        clock.advance(Duration.ofSeconds(3300 - 60 - 1));
        assertEquals(Map.of("IsComplete", false), isCompleteAfterCreate(waiting()));

        clock.advance(Duration.ofSeconds(1));
        assertEquals(attributes("STARTED", "0", "0", "0"), isCompleteAfterCreate(waiting()));
        assertEquals(List.of(DESCRIBE_EXECUTION, DESCRIBE_EXECUTION), targets(), "the execution goes on");
        assertTrue(context.lines().get(1).endsWith("the deploy goes on without waiting, the execution goes on"),
                context.lines().toString());
    }

    @Test
    void aWarmedPreloadReturnsTheWorkersMetrics() {
        emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution("SUCCEEDED", "\"output\":\"{\\\"Status\\\":\\\"WARMED\\\"}\",")));
        emulator.on(DESCRIBE_JOB, call -> Reply.ok(describe(NAME, "Completed", "Completed",
                "\"FinalMetricDataList\":["
                        + "{\"MetricName\":\"preload:files\",\"Value\":1234.0,\"Timestamp\":1767225700},"
                        + "{\"MetricName\":\"preload:bytes\",\"Value\":5.36870912E8,\"Timestamp\":1767225700},"
                        + "{\"MetricName\":\"preload:seconds\",\"Value\":42.0,\"Timestamp\":1767225700}],"
                        + "\"TrainingStartTime\":1767225630,\"TrainingEndTime\":1767225700,")));

        assertEquals(attributes("WARMED", "1234", "536870912", "42"), isCompleteAfterCreate(waiting()));
        assertEquals(List.of(DESCRIBE_EXECUTION, DESCRIBE_JOB), targets());
        assertEquals("{\"TrainingJobName\":\"" + NAME + "\"}", emulator.calls(DESCRIBE_JOB).get(0).body());
    }

    @Test
    void secondsFallBackToTheTrainingTimeAndMissingMetricsToZero() {
        emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution("SUCCEEDED", "\"output\":\"{\\\"Status\\\":\\\"WARMED\\\"}\",")));
        emulator.on(DESCRIBE_JOB, call -> Reply.ok(describe(NAME, "Completed", "Completed",
                "\"FinalMetricDataList\":[{\"MetricName\":\"preload:files\",\"Value\":7.0,\"Timestamp\":1767225700}],"
                        + "\"TrainingStartTime\":1767225630.25,\"TrainingEndTime\":1767225700.75,")));

        assertEquals(attributes("WARMED", "7", "0", "70"), isCompleteAfterCreate(waiting()));
        assertTrue(context.lines().get(0).endsWith("reported no metric preload:bytes: check the worker's MetricDefinitions"),
                context.lines().toString());
    }

    @Test
    void anEmptyLocationCompletesWithStatusEmptyAndNoWorker() {
        emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution("SUCCEEDED", "\"output\":\"{\\\"Status\\\":\\\"EMPTY\\\"}\",")));

        assertEquals(attributes("EMPTY", "0", "0", "0"), isCompleteAfterCreate(waiting()));
        assertEquals(List.of(DESCRIBE_EXECUTION), targets(), "there is no worker to describe");
        assertEquals("Preload " + NAME + ": the data locations hold no object yet, nothing was warmed", context.lines().get(0));
    }

    @Test
    void aFailedExecutionFailsACreateWithItsCause() {
        emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution("FAILED", "\"error\":\"SageMaker.AmazonSageMakerException\","
                + "\"cause\":\"AlgorithmError: preload failed: 3 files still have an HSM action\",")));

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> isCompleteAfterCreate(waiting()));

        assertEquals("Preload execution " + executionArn(NAME) + " ended FAILED: SageMaker.AmazonSageMakerException: "
                + "AlgorithmError: preload failed: 3 files still have an HSM action. Its history is in the Step Functions "
                + "console; the worker's log, if it started, is in CloudWatch Logs group /aws/sagemaker/TrainingJobs, "
                + "stream " + NAME + "/algo-1-*.", e.getMessage());
    }

    @Test
    void aTimedOutOrAbortedExecutionFailsACreateToo() {
        for (String status : List.of("TIMED_OUT", "ABORTED")) {
            emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(status, "\"error\":\"States.Timeout\",\"cause\":\"\",")));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> isCompleteAfterCreate(waiting()));
            assertTrue(e.getMessage().startsWith("Preload execution " + executionArn(NAME) + " ended " + status + ": "),
                    e.getMessage());
        }
    }

    @Test
    void aFailedExecutionDoesNotFailAnUpdateWhichMayBeARollback() {
        emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution("FAILED", "\"error\":\"ImportNotFinished\",\"cause\":\"x\",")));

        Map<String, Object> result = handler.isComplete(update(NAME, waiting(), properties("k0", "3300")), context);

        assertEquals(attributes("FAILED", "0", "0", "0"), result);
        assertTrue(context.lines().get(0).endsWith("The update goes on: it may be the rollback of another update."),
                context.lines().toString());
    }

    @Test
    void withoutWaitingThePreloadIsCompleteAtOnce() {
        Map<String, Object> result = isCompleteAfterCreate(properties("k1", "0"));

        assertEquals(Map.of("IsComplete", true, "Data", Map.of("Status", "STARTED")), result);
        assertEquals(List.of(), emulator.calls());
    }

    @Test
    void anExecutionNotVisibleYetIsNotCompleteButAKeptOneThatIsGoneIsUnknown() {
        emulator.on(DESCRIBE_EXECUTION, call -> Reply.error(400, "ExecutionDoesNotExist", "Execution Does Not Exist"));

        assertEquals(Map.of("IsComplete", false), isCompleteAfterCreate(waiting()), "DescribeExecution is eventually consistent");
        assertEquals(attributes("UNKNOWN", "0", "0", "0"), handler.isComplete(update(NAME, waiting(), waiting()), context),
                "90 days after it ended, Step Functions no longer keeps it");
    }

    /** A handler whose clients give up at once, so the tests see the error the SDK would raise after its retries. */
    private PreloadHandler withoutSdkRetries() {
        ClientOverrideConfiguration once = SdkCalls.clientConfiguration().toBuilder()
                .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(1).build()).build();
        SfnClient sfn = emulator.connect(PreloadClients.stepFunctionsClientBuilder().overrideConfiguration(once));
        SageMakerClient sm = emulator.connect(PreloadClients.sageMakerClientBuilder().overrideConfiguration(once));
        extraClients.add(sfn);
        extraClients.add(sm);
        return new PreloadHandler(sfn, sm, clock);
    }

    @Test
    void throttlingAndServerErrorsMeanNotCompleteYet() {
        PreloadHandler impatient = withoutSdkRetries();
        emulator.onSequence(DESCRIBE_EXECUTION,
                Reply.error(400, "ThrottlingException", "Rate exceeded"),
                Reply.error(500, "InternalServerError", "Internal failure"),
                Reply.ok(execution("SUCCEEDED", "\"output\":\"{\\\"Status\\\":\\\"WARMED\\\"}\",")));
        emulator.onSequence(DESCRIBE_JOB, Reply.error(503, "ServiceUnavailable", "Service unavailable"),
                Reply.ok(describe(NAME, "Completed", "Completed")));
        Map<String, Object> event = withPhysicalId(event("Create", "req-1", waiting()), NAME);

        assertEquals(Map.of("IsComplete", false), impatient.isComplete(event, context), "throttled");
        assertEquals(Map.of("IsComplete", false), impatient.isComplete(event, context), "500");
        assertEquals(Map.of("IsComplete", false), impatient.isComplete(event, context), "SageMaker 503");
        assertEquals(true, impatient.isComplete(event, context).get("IsComplete"));
        assertTrue(context.lines().get(0).startsWith("Could not describe preload execution " + executionArn(NAME)
                + " (transient, not complete yet): Rate exceeded"), context.lines().toString());
    }

    @Test
    void theSdkRetriesAbsorbABriefThrottle() {
        emulator.onSequence(DESCRIBE_EXECUTION, Reply.error(400, "ThrottlingException", "Rate exceeded"),
                Reply.ok(execution("RUNNING", "")));

        assertEquals(Map.of("IsComplete", false), isCompleteAfterCreate(waiting()));
        assertEquals(List.of(DESCRIBE_EXECUTION, DESCRIBE_EXECUTION), targets());
        assertTrue(context.lines().get(0).contains("RUNNING"), context.lines().toString());
    }

    @Test
    void anUnreachableServiceMeansNotCompleteYet() {
        PreloadHandler impatient = withoutSdkRetries();
        emulator.close();

        assertEquals(Map.of("IsComplete", false),
                impatient.isComplete(withPhysicalId(event("Create", "req-1", waiting()), NAME), context));
    }

    @Test
    void accessDeniedFailsTheDeploy() {
        emulator.on(DESCRIBE_EXECUTION, call -> Reply.error(400, "AccessDeniedException", "not authorized"));

        SdkException e = assertThrows(SdkException.class, () -> isCompleteAfterCreate(waiting()));
        assertFalse(SdkCalls.isTransient(e));
        assertTrue(e.getMessage().startsWith("not authorized"), e.getMessage());
    }

    private Map<String, Object> delete(String physicalId) {
        return handler.onEvent(withPhysicalId(event("Delete", "req-3", waiting()), physicalId), context);
    }

    private Map<String, Object> isCompleteForDelete(String physicalId) {
        return handler.isComplete(withPhysicalId(event("Delete", "req-3", waiting()), physicalId), context);
    }

    @Test
    void deleteStopsARunningExecution() {
        emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution("RUNNING", "")));

        assertEquals(Map.of("PhysicalResourceId", NAME), delete(NAME));
        assertEquals(List.of(DESCRIBE_EXECUTION, STOP_EXECUTION), targets());
        assertEquals(Json.tree("{\"executionArn\": \"" + executionArn(NAME) + "\", \"error\": \"PreloadDeleted\", "
                + "\"cause\": \"CloudFormation deleted or replaced the preload custom resource\"}"),
                Json.tree(emulator.calls(STOP_EXECUTION).get(0).body()));
    }

    @Test
    void deleteLeavesAnEndedExecutionAlone() {
        emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution("SUCCEEDED", "\"output\":\"{}\",")));

        delete(NAME);
        assertEquals(List.of(DESCRIBE_EXECUTION), targets());
    }

    @Test
    void deleteWaitsUntilTheExecutionAndItsWorkerHaveStopped() {
        emulator.onSequence(DESCRIBE_EXECUTION, Reply.ok(execution("RUNNING", "")), Reply.ok(execution("ABORTED", "")));
        emulator.onSequence(DESCRIBE_JOB, Reply.ok(describe(NAME, "InProgress", "Training")),
                Reply.ok(describe(NAME, "Stopping", "Stopping")), Reply.ok(describe(NAME, "Stopped", "Stopped")));

        assertEquals(Map.of("IsComplete", false), isCompleteForDelete(NAME), "the execution is stopped again");
        assertEquals(Map.of("IsComplete", false), isCompleteForDelete(NAME), "Step Functions' stop is best effort");
        assertEquals(Map.of("IsComplete", false), isCompleteForDelete(NAME), "its network interfaces are still in use");
        assertEquals(Map.of("IsComplete", true, "Data", Map.of()), isCompleteForDelete(NAME));
        assertEquals(List.of(DESCRIBE_EXECUTION, STOP_EXECUTION, DESCRIBE_EXECUTION, DESCRIBE_JOB, STOP_JOB,
                DESCRIBE_EXECUTION, DESCRIBE_JOB, DESCRIBE_EXECUTION, DESCRIBE_JOB), targets());
    }

    @Test
    void deleteOfAPreloadThatNeverStartedAWorkerCompletes() {
        emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution("SUCCEEDED", "\"output\":\"{\\\"Status\\\":\\\"EMPTY\\\"}\",")));
        emulator.on(DESCRIBE_JOB, call -> Reply.error(400, "ValidationException", "Requested resource not found."));

        assertEquals(Map.of("PhysicalResourceId", NAME), delete(NAME));
        assertEquals(Map.of("IsComplete", true, "Data", Map.of()), isCompleteForDelete(NAME));
        assertEquals(List.of(DESCRIBE_EXECUTION, DESCRIBE_EXECUTION, DESCRIBE_JOB), targets());
    }

    @Test
    void deleteOfAnExecutionThatNeverStartedCompletes() {
        emulator.on(DESCRIBE_EXECUTION, call -> Reply.error(400, "ExecutionDoesNotExist", "Execution Does Not Exist"));
        emulator.on(DESCRIBE_JOB, call -> Reply.error(400, "ValidationException", "Requested resource not found."));

        assertEquals(Map.of("PhysicalResourceId", NAME), delete(NAME));
        assertEquals(true, isCompleteForDelete(NAME).get("IsComplete"));
        assertTrue(context.lines().get(0).contains("(ignored, the delete goes on)"), context.lines().toString());
    }

    @Test
    void deleteWaitsOutTransientErrors() {
        PreloadHandler impatient = withoutSdkRetries();
        emulator.onSequence(DESCRIBE_EXECUTION, Reply.error(400, "ThrottlingException", "Rate exceeded"),
                Reply.ok(execution("SUCCEEDED", "")));
        emulator.onSequence(DESCRIBE_JOB, Reply.error(500, "InternalFailure", "x"), Reply.ok(describe(NAME, "Completed", "Completed")));
        Map<String, Object> event = withPhysicalId(event("Delete", "req-3", waiting()), NAME);

        assertEquals(Map.of("IsComplete", false), impatient.isComplete(event, context));
        assertEquals(Map.of("IsComplete", false), impatient.isComplete(event, context));
        assertEquals(true, impatient.isComplete(event, context).get("IsComplete"));
    }

    @Test
    void deleteOfAPhysicalIdThatNamesNoExecutionOrWithBadPropertiesCallsNothing() {
        String marker = "AWSCDK::CustomResourceProviderFramework::CREATE_FAILED";
        assertEquals(Map.of("PhysicalResourceId", marker), delete(marker));
        assertEquals(true, isCompleteForDelete(marker).get("IsComplete"));
        Map<String, Object> event = withPhysicalId(event("Delete", "req-3", Map.of("WorkerJobNamePrefix", PREFIX)), NAME);
        assertEquals(Map.of("PhysicalResourceId", NAME), handler.onEvent(event, context));
        assertEquals(true, handler.isComplete(event, context).get("IsComplete"));
        assertEquals(List.of(), emulator.calls());
    }
}
