package io.github.trainingdata.cdk.preload.handler;

import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import static io.github.trainingdata.cdk.launch.TrainingJobDescriptions.describe;

import io.github.trainingdata.cdk.launch.AwsJsonEmulator;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import io.github.trainingdata.cdk.launch.MutableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * The preload handler against a loopback emulator of Step Functions, SageMaker and CloudFormation, with the real
 * SDK clients configured as in Lambda, plus the events CloudFormation sends and the answers the services give. One
 * per test: {@code @RegisterExtension final HandlerHarness h = HandlerHarness.start();} (closed after the test).
 */
final class HandlerHarness implements AutoCloseable, AfterEachCallback {
    static final String START = "AWSStepFunctions.StartExecution";
    static final String DESCRIBE_EXECUTION = "AWSStepFunctions.DescribeExecution";
    static final String STOP_EXECUTION = "AWSStepFunctions.StopExecution";
    static final String LIST_EXECUTIONS = "AWSStepFunctions.ListExecutions";
    static final String DESCRIBE_JOB = "SageMaker.DescribeTrainingJob";
    static final String STOP_JOB = "SageMaker.StopTrainingJob";
    static final String DESCRIBE_STACKS = "cloudformation.DescribeStacks";
    static final String HISTORY = "AWSStepFunctions.GetExecutionHistory";
    static final String DESCRIBE_TASKS = "AWSSimbaAPIService_v20180301.DescribeDataRepositoryTasks";
    static final String CANCEL_TASK = "AWSSimbaAPIService_v20180301.CancelDataRepositoryTask";
    static final String STACK_ID =
            "arn:aws:cloudformation:us-east-1:123456789012:stack/Training/4a1e2b30-0000-11f0-9c7a-0a1b2c3d4e5f";
    static final String LOGICAL_ID = "CachePreloadResource1A2B3C4D";
    static final String PREFIX = "warm-preload-0a1b2c3d";
    static final String STATE_MACHINE = "arn:aws:states:us-east-1:123456789012:stateMachine:PreloadStateMachineA1B2";
    static final String OLD_STATE_MACHINE = "arn:aws:states:us-east-1:123456789012:stateMachine:PreloadOldC3D4";
    static final String BUCKET = "training-data-123456789012";
    static final List<String> LOCATIONS = List.of("s3://" + BUCKET + "/datasets/imagenet/train/", "s3://" + BUCKET + "/");
    /** When the emulated executions started: 2026-01-01T00:00:00Z. */
    static final long STARTED_EPOCH_SECONDS = 1_767_225_600L;
    /** The execution a Create with request id req-1 and WarmKey k1 starts. */
    static final String NAME = name("k1", "req-1");

    final AwsJsonEmulator emulator;
    final SfnClient stepFunctions;
    final SageMakerClient sageMaker;
    final CloudFormationClient cloudFormation;
    final FSxClient fsx;
    final MutableClock clock;
    final PreloadHandler handler;
    final RecordingContext context = new RecordingContext();
    private final List<SdkAutoCloseable> clients = new ArrayList<>();
    private final Map<String, List<Reply>> jobs = new ConcurrentHashMap<>();

    /** @return a started harness */
    static HandlerHarness start() {
        try {
            return new HandlerHarness();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts the emulator: executions start once per name, stops succeed, jobs not scripted do not exist. */
    private HandlerHarness() throws IOException {
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
        emulator.on(HISTORY, call -> Reply.ok("{\"events\":[]}"));
        emulator.on(DESCRIBE_JOB, call -> {
            List<Reply> replies = jobs.get(call.json().required("TrainingJobName").textValue());
            if (replies == null) {
                return Reply.error(400, "ValidationException", "Requested resource not found.");
            }
            return replies.size() > 1 ? replies.remove(0) : replies.get(0);
        });
        stackIs("UPDATE_IN_PROGRESS");
        stepFunctions = client(emulator.connect(PreloadClients.stepFunctionsClientBuilder()));
        sageMaker = client(emulator.connect(PreloadClients.sageMakerClientBuilder()));
        cloudFormation = client(emulator.connect(PreloadClients.cloudFormationClientBuilder()));
        fsx = client(emulator.connect(PreloadClients.fsxClientBuilder()));
        clock = new MutableClock(Instant.ofEpochSecond(STARTED_EPOCH_SECONDS).plusSeconds(60));
        handler = new PreloadHandler(stepFunctions, sageMaker, cloudFormation, fsx, clock);
    }

    private <C extends SdkAutoCloseable> C client(C client) {
        clients.add(client);
        return client;
    }

    @Override
    public void close() {
        clients.forEach(SdkAutoCloseable::close);
        emulator.close();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close();
    }

    /** A handler whose clients give up at once, so a test sees the error the SDK would raise after its retries. */
    PreloadHandler withoutSdkRetries() {
        ClientOverrideConfiguration once = SdkCalls.clientConfiguration().toBuilder()
                .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(1).build()).build();
        return new PreloadHandler(
                client(emulator.connect(PreloadClients.stepFunctionsClientBuilder().overrideConfiguration(once))),
                client(emulator.connect(PreloadClients.sageMakerClientBuilder().overrideConfiguration(once))),
                client(emulator.connect(PreloadClients.cloudFormationClientBuilder().overrideConfiguration(once))),
                client(emulator.connect(PreloadClients.fsxClientBuilder().overrideConfiguration(once))),
                clock);
    }

    /**
     * The execution's history shows StartImport's result: CreateDataRepositoryTask returned {@code taskId} (the
     * TaskSucceeded event Step Functions records for an AWS SDK integration).
     */
    void importStarted(String taskId) {
        emulator.on(HISTORY, call -> Reply.ok("{\"events\":[{\"timestamp\":" + STARTED_EPOCH_SECONDS + ",\"type\":"
                + "\"ExecutionStarted\",\"id\":1,\"previousEventId\":0},{\"timestamp\":" + STARTED_EPOCH_SECONDS
                + ",\"type\":\"TaskSucceeded\",\"id\":9,\"previousEventId\":8,\"taskSucceededEventDetails\":{"
                + "\"resourceType\":\"aws-sdk:fsx\",\"resource\":\"createDataRepositoryTask\",\"output\":"
                + "\"{\\\"DataRepositoryTask\\\":{\\\"TaskId\\\":\\\"" + taskId + "\\\",\\\"Lifecycle\\\":"
                + "\\\"PENDING\\\"}}\"}}]}"));
    }

    /** DescribeDataRepositoryTasks answers the task in these lifecycles in turn, then the last one. */
    void task(String taskId, String... lifecycles) {
        int[] next = {0};
        emulator.on(DESCRIBE_TASKS, call -> Reply.ok("{\"DataRepositoryTasks\":[{\"TaskId\":\"" + taskId
                + "\",\"Type\":\"IMPORT_METADATA_FROM_REPOSITORY\",\"Lifecycle\":\""
                + lifecycles[Math.min(next[0]++, lifecycles.length - 1)] + "\",\"CreationTime\":"
                + STARTED_EPOCH_SECONDS + ",\"FileSystemId\":\"fs-0123456789abcdef0\"}]}"));
        emulator.on(CANCEL_TASK, call -> Reply.ok("{\"TaskId\":\"" + taskId + "\",\"Lifecycle\":\"CANCELING\"}"));
    }

    /** DescribeStacks reports the stack in this status. */
    void stackIs(String status) {
        emulator.on(DESCRIBE_STACKS, call -> Reply.ok("<DescribeStacksResponse xmlns=\"http://cloudformation.amazonaws"
                + ".com/doc/2010-05-15/\"><DescribeStacksResult><Stacks><member><StackName>Training</StackName>"
                + "<StackId>" + STACK_ID + "</StackId><CreationTime>2026-01-01T00:00:00Z</CreationTime>"
                + "<StackStatus>" + status + "</StackStatus></member></Stacks></DescribeStacksResult>"
                + "<ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></DescribeStacksResponse>"));
    }

    /** DescribeTrainingJob of {@code name} answers these replies in turn, then the last one. */
    void job(String name, Reply... replies) {
        jobs.put(name, new ArrayList<>(List.of(replies)));
    }

    /** DescribeTrainingJob of {@code name} reports a job in this status. */
    void job(String name, String status) {
        job(name, Reply.ok(describe(name, status, status)));
    }

    static String name(String warmKey, String requestId) {
        return PreloadExecution.name(PREFIX, warmKey, STACK_ID + "|" + LOGICAL_ID + "|" + requestId);
    }

    static String executionArn(String name) {
        return "arn:aws:states:us-east-1:123456789012:execution:PreloadStateMachineA1B2:" + name;
    }

    static Map<String, Object> properties(String warmKey, String waitSeconds) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:framework-onEvent");
        properties.put("WorkerJobNamePrefix", PREFIX);
        properties.put("StateMachineArn", STATE_MACHINE);
        properties.put("FileSystemId", "fs-0123456789abcdef0");
        properties.put("DataLocations", LOCATIONS);
        properties.put("WarmKey", warmKey);
        properties.put("WaitSeconds", waitSeconds);
        return properties;
    }

    static Map<String, Object> waiting() {
        return properties("k1", "3300");
    }

    static Map<String, Object> event(String requestType, String requestId, Map<String, Object> properties) {
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

    static Map<String, Object> withPhysicalId(Map<String, Object> event, String physicalId) {
        event.put("PhysicalResourceId", physicalId);
        return event;
    }

    static Map<String, Object> update(String physicalId, Map<String, Object> properties,
            Map<String, Object> oldProperties) {
        Map<String, Object> event = withPhysicalId(event("Update", "req-2", properties), physicalId);
        event.put("OldResourceProperties", oldProperties);
        return event;
    }

    /** The event isComplete gets: the request with what onEvent returned (the Provider framework's merge). */
    static Map<String, Object> afterOnEvent(Map<String, Object> request, Map<String, Object> onEventResult) {
        Map<String, Object> event = new LinkedHashMap<>(request);
        event.putAll(onEventResult);
        return event;
    }

    /** A DescribeExecution answer for the execution {@code name}. */
    static String execution(String name, String status, String extraMembers) {
        return "{" + extraMembers
                + "\"executionArn\":\"" + executionArn(name) + "\",\"stateMachineArn\":\"" + STATE_MACHINE + "\","
                + "\"name\":\"" + name + "\",\"status\":\"" + status + "\",\"startDate\":" + STARTED_EPOCH_SECONDS + "}";
    }

    /** The {@code output} member of a succeeded execution's description. */
    static String output(String json) {
        return "\"output\":\"" + json.replace("\\", "\\\\").replace("\"", "\\\"") + "\",";
    }

    List<String> targets() {
        return emulator.calls().stream().map(AwsJsonEmulator.Call::target).toList();
    }

    static Map<String, Object> attributes(String status, String files, String bytes, String seconds) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("Status", status);
        data.put("FilesWarmed", files);
        data.put("BytesWarmed", bytes);
        data.put("Seconds", seconds);
        data.put("EmptyLocations", "");
        return Map.of("IsComplete", true, "Data", data);
    }

    static Map<String, Object> started(String name, String executionArn, String action) {
        return Map.of("PhysicalResourceId", name, "Data", Map.of("WorkerJobName", name, "ExecutionArn", executionArn),
                "PreloadAction", action);
    }
}
