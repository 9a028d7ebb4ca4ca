package io.github.trainingdata.cdk.preload.handler;

import static io.github.trainingdata.cdk.launch.TrainingJobDescriptions.describe;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.DESCRIBE_EXECUTION;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.DESCRIBE_JOB;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.DESCRIBE_STACKS;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.LOCATIONS;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.NAME;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.OLD_STATE_MACHINE;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.PREFIX;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.START;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.STATE_MACHINE;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.attributes;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.event;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.execution;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.executionArn;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.name;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.output;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.properties;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.started;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.update;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.waiting;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.withPhysicalId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * The preload handler's Create, Update and isComplete against the loopback emulator ({@link HandlerHarness}): each
 * test checks the calls the handler makes and what it returns to the Provider framework.
 */
class PreloadHandlerTest {
    private static final String WARMED_WORKER_METRICS = "\"FinalMetricDataList\":["
            + "{\"MetricName\":\"preload:files\",\"Value\":1234.0,\"Timestamp\":1767225700},"
            + "{\"MetricName\":\"preload:bytes\",\"Value\":5.36870912E8,\"Timestamp\":1767225700},"
            + "{\"MetricName\":\"preload:seconds\",\"Value\":42.0,\"Timestamp\":1767225700}],"
            + "\"TrainingStartTime\":1767225630,\"TrainingEndTime\":1767225700,";

    @RegisterExtension
    final HandlerHarness h = HandlerHarness.start();

    private Map<String, Object> isCompleteAfterCreate(Map<String, Object> properties) {
        return h.handler.isComplete(withPhysicalId(event("Create", "req-1", properties), NAME), h.context);
    }

    private void succeeds(String name, String outputJson) {
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(name, "SUCCEEDED", output(outputJson))));
    }

    @Test
    void createStartsAnExecutionNamedAfterTheWarmKeyAndTheRequestWithTheLocationsToCheck() {
        Map<String, Object> result = h.handler.onEvent(event("Create", "req-1", waiting()), h.context);

        assertTrue(NAME.matches(PREFIX + "-[0-9a-f]{8}-[0-9a-f]{12}"), NAME);
        assertTrue(NAME.length() <= 48, NAME);
        assertEquals(started(NAME, executionArn(NAME), "STARTED"), result);
        assertEquals(List.of(START), h.targets());
        Object sent = Json.tree(h.emulator.calls(START).get(0).body());
        assertEquals(List.of("stateMachineArn", "name", "input"), List.copyOf(((Map<?, ?>) sent).keySet()));
        assertEquals(List.of(STATE_MACHINE, NAME), List.of(((Map<?, ?>) sent).get("stateMachineArn"),
                ((Map<?, ?>) sent).get("name")));
        assertEquals(Json.tree("""
                {"FileSystemId": "fs-0123456789abcdef0", "DataLocations": [
                  {"Uri": "%s", "Bucket": "%s", "Prefix": "datasets/imagenet/train/",
                   "StartAfter": "datasets/imagenet/train/"},
                  {"Uri": "%s", "Bucket": "%s"}]}""".formatted(LOCATIONS.get(0), HandlerHarness.BUCKET,
                LOCATIONS.get(1), HandlerHarness.BUCKET)), Json.tree((String) ((Map<?, ?>) sent).get("input")));
    }

    @Test
    void executionNamesDifferByWarmKeyAndByRequest() {
        assertEquals(NAME.substring(0, PREFIX.length() + 10), name("k1", "req-9").substring(0, PREFIX.length() + 10),
                "the same WarmKey digest");
        assertFalse(NAME.regionMatches(PREFIX.length(), name("k2", "req-1"), PREFIX.length(), 10),
                "another WarmKey digest");
        assertFalse(NAME.endsWith(name("k1", "req-9").substring(PREFIX.length() + 10)), "another request digest");
    }

    @Test
    void aRetriedCreateStartsNoSecondExecutionWhileTheFirstRunsOrOnceItSucceeded() {
        Map<String, Object> first = h.handler.onEvent(event("Create", "req-1", waiting()), h.context);
        for (String status : List.of("RUNNING", "SUCCEEDED", "PENDING_REDRIVE")) {
            h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(NAME, status, "")));
            assertEquals(first, h.handler.onEvent(event("Create", "req-1", waiting()), h.context), status);
            assertEquals("Preload execution " + NAME + " already exists (" + status + ": this request was delivered "
                    + "before): not starting another", h.context.lines().get(h.context.lines().size() - 1));
        }

        assertEquals(List.of(START, START, DESCRIBE_EXECUTION, START, DESCRIBE_EXECUTION, START, DESCRIBE_EXECUTION),
                h.targets());
        assertEquals(h.emulator.calls(START).get(0).body(), h.emulator.calls(START).get(1).body(), "the same name and input");
        assertEquals("{\"executionArn\":\"" + executionArn(NAME) + "\"}", h.emulator.calls(DESCRIBE_EXECUTION).get(0).body());
    }

    /**
     * A retried deployment sends the failed Create again with the same RequestId; the execution of its first delivery
     * FAILED (or timed out, or was stopped): the retry starts the request's next attempt, and succeeds when it does.
     */
    @Test
    void aRetriedCreateWhoseExecutionEndedWithoutSuccessStartsTheNextAttemptAndSucceedsWithIt() {
        h.handler.onEvent(event("Create", "req-1", waiting()), h.context);
        String second = PreloadExecution.name(PREFIX, "k1", HandlerHarness.STACK_ID + "|" + HandlerHarness.LOGICAL_ID
                + "|req-1|2");
        h.emulator.on(DESCRIBE_EXECUTION, call -> {
            String arn = call.json().required("executionArn").textValue();
            return Reply.ok(arn.equals(executionArn(NAME)) ? execution(NAME, "FAILED", "\"error\":\"WorkerFailed\","
                    + "\"cause\":\"no capacity\",") : execution(second, "SUCCEEDED", output("{\"Status\":\"WARMED\","
                    + "\"WorkerJobName\":\"" + second + "\",\"EmptyLocations\":[]}")));
        });
        h.job(second, Reply.ok(describe(second, "Completed", "Completed", WARMED_WORKER_METRICS)));

        Map<String, Object> retry = event("Create", "req-1", waiting());
        Map<String, Object> onEvent = h.handler.onEvent(retry, h.context);

        assertEquals(started(second, executionArn(second), "STARTED"), onEvent);
        assertTrue(second.matches(PREFIX + "-[0-9a-f]{8}-[0-9a-f]{12}") && second.length() == NAME.length(), second);
        assertEquals(NAME.substring(0, PREFIX.length() + 10), second.substring(0, PREFIX.length() + 10),
                "the same WarmKey digest: rollbacks and the dashboard find it");
        assertTrue(PreloadExecution.warms(second, PREFIX, "k1"));
        assertEquals(List.of(START, START, DESCRIBE_EXECUTION, DESCRIBE_STACKS, DESCRIBE_JOB, START), h.targets(),
                "the stack runs an operation (a retry); the failed execution's worker is looked at: it never started");
        assertEquals(second, Json.tree(h.emulator.calls(START).get(2).body()) instanceof Map<?, ?> sent
                ? sent.get("name") : null);
        assertEquals("Preload execution " + NAME + " ended FAILED (a retried deployment sends the same request again): "
                + "starting attempt 2", h.context.lines().get(2));
        Map<?, ?> data = (Map<?, ?>) h.handler.isComplete(HandlerHarness.afterOnEvent(retry, onEvent), h.context)
                .get("Data");
        assertEquals(List.of("WARMED", second, "1234"), List.of(data.get("Status"), data.get("WorkerJobName"),
                data.get("FilesWarmed")));
    }

    /** Whether Step Functions stops a .sync worker when its execution times out is not documented: the retry does. */
    @Test
    void aRetryStopsAWorkerTheEndedExecutionLeftRunningBeforeItStartsTheNextAttempt() {
        h.handler.onEvent(event("Create", "req-1", waiting()), h.context);
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(NAME, "TIMED_OUT", "")));
        h.job(NAME, "InProgress");

        h.handler.onEvent(event("Create", "req-1", waiting()), h.context);

        assertEquals(List.of(START, START, DESCRIBE_EXECUTION, DESCRIBE_STACKS, DESCRIBE_JOB, HandlerHarness.STOP_JOB,
                DESCRIBE_JOB, START), h.targets());
        assertEquals("{\"TrainingJobName\":\"" + NAME + "\"}", h.emulator.calls(HandlerHarness.STOP_JOB).get(0).body());
    }

    /**
     * Lambda may deliver a request again long after it was served; once the request's waiter ended, the dispatcher
     * serves such a late duplicate as a new attempt. CloudFormation sends requests only while an operation of the stack
     * runs: when the stack runs none (here the first deploy's rollback is over), the failed execution is kept and no
     * billed worker is started that no Delete would ever stop.
     */
    @Test
    void aLateDuplicateOfACreateTheStackIsDoneWithStartsNoNextAttempt() {
        h.handler.onEvent(event("Create", "req-1", waiting()), h.context);
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(NAME, "FAILED", "\"error\":\"WorkerFailed\","
                + "\"cause\":\"no capacity\",")));
        h.stackIs("ROLLBACK_COMPLETE");

        Map<String, Object> onEvent = h.handler.onEvent(event("Create", "req-1", waiting()), h.context);

        assertEquals(NAME, onEvent.get("PhysicalResourceId"));
        assertEquals(List.of(START, START, DESCRIBE_EXECUTION, DESCRIBE_STACKS), h.targets(), "no next attempt");
        assertTrue(h.context.lines().get(h.context.lines().size() - 1).startsWith("Preload execution " + NAME
                + " ended FAILED, and the stack runs no operation"), h.context.lines().toString());
    }

    @Test
    void aRequestStartsAtMostMaxAttemptsExecutionsThenKeepsTheLastAndReportsItsEnd() {
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution("x", "ABORTED", "\"error\":\"States.Aborted\","
                + "\"cause\":\"stopped\",")));
        Map<String, Object> onEvent = Map.of();
        for (int delivery = 1; delivery <= PreloadExecution.MAX_ATTEMPTS + 1; delivery++) {
            onEvent = h.handler.onEvent(event("Create", "req-1", waiting()), h.context);
        }
        String last = PreloadExecution.name(PREFIX, "k1", HandlerHarness.STACK_ID + "|" + HandlerHarness.LOGICAL_ID
                + "|req-1", PreloadExecution.MAX_ATTEMPTS);

        assertEquals(last, onEvent.get("PhysicalResourceId"));
        assertEquals(PreloadExecution.MAX_ATTEMPTS, h.emulator.calls(START).stream().map(call -> call.json()
                .required("name").textValue()).distinct().count(), "one name per attempt, no more");
        assertTrue(h.context.lines().get(h.context.lines().size() - 1).startsWith("Preload execution " + last
                + " ended ABORTED, and this request has started 5 executions, the most it starts"),
                h.context.lines().toString());
        assertThrows(IllegalArgumentException.class, () -> PreloadExecution.name(PREFIX, "k1", "r",
                PreloadExecution.MAX_ATTEMPTS + 1));
    }

    @Test
    void badPropertiesAreRejectedByNameBeforeAnyCall() {
        Map<String, Object> properties = waiting();
        properties.put("WaitSeconds", "soon");
        assertEquals("ResourceProperties.WaitSeconds must be a whole number of seconds (0: the deploy does not wait), "
                + "got 'soon'", rejected(properties));
        properties.put("WaitSeconds", "0");
        properties.put("DataLocations", List.of("s3://" + HandlerHarness.BUCKET + "/train"));
        assertEquals("ResourceProperties.DataLocations[0]: 's3://" + HandlerHarness.BUCKET + "/train' is not an S3 "
                + "location s3://bucket/ or s3://bucket/prefix/", rejected(properties));
        properties.put("DataLocations", List.of());
        assertEquals("ResourceProperties.DataLocations must be a non-empty list of s3://bucket/prefix/ URIs",
                rejected(properties));
        properties.put("StateMachineArn", "PreloadStateMachineA1B2");
        assertEquals("ResourceProperties.StateMachineArn must be a state machine ARN, got 'PreloadStateMachineA1B2'",
                rejected(properties));
        properties.remove("WarmKey");
        properties.put("StateMachineArn", STATE_MACHINE);
        properties.put("DataLocations", List.of("s3://" + HandlerHarness.BUCKET + "/"));
        assertEquals("ResourceProperties.WarmKey is required", rejected(properties));
        assertEquals(List.of(), h.emulator.calls());
    }

    private String rejected(Map<String, Object> properties) {
        return assertThrows(IllegalArgumentException.class,
                () -> h.handler.onEvent(event("Create", "req-1", properties), h.context)).getMessage();
    }

    @Test
    void anUpdateWithTheSameKeyKeepsThePreloadAndItsExecutionAndAsksNothing() {
        Map<String, Object> old = properties("k1", "0");
        old.put("StateMachineArn", OLD_STATE_MACHINE);
        Map<String, Object> result = h.handler.onEvent(update(NAME, waiting(), old), h.context);

        assertEquals(started(NAME, "arn:aws:states:us-east-1:123456789012:execution:PreloadOldC3D4:" + NAME, "KEPT"),
                result, "the execution stays on the state machine it was started on");
        assertEquals(List.of(), h.emulator.calls(), "not even whether the stack rolls back");
    }

    /** The upgrade to the stack's provider (another ServiceToken, the same WarmKey) re-warms nothing. */
    @Test
    void anUpdateFromAnotherProviderKeepsTheWarmUpAndAsksNothing() {
        Map<String, Object> old = waiting();
        old.put("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:PreloadProviderframeworkonEvent");
        Map<String, Object> now = waiting();
        now.put("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:CustomResourceProviderframeworkonEvent");

        Map<String, Object> result = h.handler.onEvent(update(NAME, now, old), h.context);

        assertEquals(started(NAME, "arn:aws:states:us-east-1:123456789012:execution:" + STATE_MACHINE
                .substring(STATE_MACHINE.lastIndexOf(':') + 1) + ":" + NAME, "KEPT"), result);
        assertEquals(List.of(), h.emulator.calls(), "no execution started, nothing asked");
    }

    /** A new role ARN (the role replaced) keeps the warm-up: no execution started, nothing asked. */
    @Test
    void anUpdateOfTheRoleOnlyKeepsTheWarmUpAndAsksNothing() {
        Map<String, Object> old = waiting();
        old.put("RoleArn", "arn:aws:iam::123456789012:role/training-data/custom-resource/Training/HandlerRoleOld");
        Map<String, Object> now = waiting();
        now.put("RoleArn", "arn:aws:iam::123456789012:role/training-data/custom-resource/Training/HandlerRoleNew");

        Map<String, Object> result = h.handler.onEvent(update(NAME, now, old), h.context);

        assertEquals("KEPT", result.get("PreloadAction"));
        assertEquals(NAME, result.get("PhysicalResourceId"));
        assertEquals(List.of(), h.emulator.calls(), "no execution started, nothing asked");
    }

    @Test
    void anUpdateWithANewKeyStartsANewExecutionOnceTheStackIsNotRollingBack() {
        Map<String, Object> result = h.handler.onEvent(update(NAME, properties("k2", "3300"), waiting()), h.context);

        String name = name("k2", "req-2");
        assertEquals(started(name, executionArn(name), "STARTED"), result);
        assertEquals(List.of(DESCRIBE_STACKS, START), h.targets());
        assertEquals(HandlerHarness.STACK_ID, AwsJsonEmulator.formField(
                h.emulator.calls(DESCRIBE_STACKS).get(0), "StackName"));
    }

    @Test
    void aPhysicalIdFromBeforeWarmKeyDigestsIsWarmedOnceMore() {
        Map<String, Object> result = h.handler.onEvent(update("warm-resnet-0123456789ab", waiting(), waiting()),
                h.context);

        assertEquals(name("k1", "req-2"), result.get("PhysicalResourceId"),
                "an execution that does not name its WarmKey cannot be told to have warmed it");
        assertEquals(List.of(DESCRIBE_STACKS, START), h.targets());
    }

    @Test
    void aDefinitionRenameChangesNothingTheHandlerSees() {
        // The worker prefix no longer follows the definition's: an update that changes the definition only (same
        // WarmKey, same prefix) keeps the warm-up.
        Map<String, Object> renamedDefinition = waiting();
        assertEquals("KEPT", h.handler.onEvent(update(NAME, renamedDefinition, waiting()), h.context).get("PreloadAction"));
    }

    @Test
    void whenStackStatusCannotBeReadAnUpdateIsHandledAsAnOrdinaryOne() {
        h.emulator.on(DESCRIBE_STACKS, call -> Reply.queryError(403, "AccessDenied", "not authorized"));
        Map<String, Object> result = h.handler.onEvent(update(NAME, properties("k2", "3300"), waiting()), h.context);

        assertEquals("STARTED", result.get("PreloadAction"));
        assertTrue(h.context.lines().get(0).startsWith("Could not tell whether stack " + HandlerHarness.STACK_ID
                + " rolls back (handled as an ordinary update)"), h.context.lines().toString());
    }

    @Test
    void whileTheExecutionRunsTheDeployWaits() {
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(NAME, "RUNNING", "")));

        assertEquals(Map.of("IsComplete", false), isCompleteAfterCreate(waiting()));
        assertEquals(List.of(DESCRIBE_EXECUTION), h.targets());
        assertEquals("{\"executionArn\":\"" + executionArn(NAME) + "\"}", h.emulator.calls(DESCRIBE_EXECUTION).get(0).body());
        assertEquals("Preload execution " + executionArn(NAME) + ": RUNNING, waited 60 of 3300 s", h.context.lines().get(0));
    }

    @Test
    void anExecutionStillRunningAtTheWaitLimitNoLongerHoldsTheDeploy() {
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(NAME, "RUNNING", "")));
        h.clock.advance(Duration.ofSeconds(3300 - 60 - 1));
        assertEquals(Map.of("IsComplete", false), isCompleteAfterCreate(waiting()));

        h.clock.advance(Duration.ofSeconds(1));
        assertEquals(attributes("STARTED", "0", "0", "0"), isCompleteAfterCreate(waiting()));
        assertEquals(List.of(DESCRIBE_EXECUTION, DESCRIBE_EXECUTION), h.targets(), "the execution goes on");
        assertTrue(h.context.lines().get(1).endsWith("the deploy goes on without waiting, the execution goes on"),
                h.context.lines().toString());
    }

    @Test
    void aWarmedPreloadReturnsTheWorkersMetrics() {
        succeeds(NAME, "{\"Status\":\"WARMED\",\"WorkerJobName\":\"" + NAME + "\",\"EmptyLocations\":[]}");
        h.job(NAME, Reply.ok(describe(NAME, "Completed", "Completed", WARMED_WORKER_METRICS)));

        Map<String, Object> data = new LinkedHashMap<>(Map.of("Status", "WARMED", "WorkerJobName", NAME,
                "EmptyLocations", "", "FilesWarmed", "1234", "BytesWarmed", "536870912", "Seconds", "42"));
        assertEquals(Map.of("IsComplete", true, "Data", data), isCompleteAfterCreate(waiting()));
        assertEquals(List.of(DESCRIBE_EXECUTION, DESCRIBE_JOB), h.targets());
        assertEquals("{\"TrainingJobName\":\"" + NAME + "\"}", h.emulator.calls(DESCRIBE_JOB).get(0).body());
    }

    @Test
    void theWorkerIsTheOneTheOutputNamesAfterAnotherAttempt() {
        String second = WorkerAttempts.name(NAME, 2);
        succeeds(NAME, "{\"Status\":\"WARMED\",\"WorkerJobName\":\"" + second + "\",\"EmptyLocations\":[]}");
        h.job(second, Reply.ok(describe(second, "Completed", "Completed", WARMED_WORKER_METRICS)));

        Map<String, Object> result = isCompleteAfterCreate(waiting());

        assertEquals("{\"TrainingJobName\":\"" + second + "\"}", h.emulator.calls(DESCRIBE_JOB).get(0).body(),
                "not the physical id: the first worker failed for capacity");
        assertEquals(second, ((Map<?, ?>) result.get("Data")).get("WorkerJobName"), "the attribute follows it");
        assertEquals("1234", ((Map<?, ?>) result.get("Data")).get("FilesWarmed"));
    }

    @Test
    void aPartialPreloadReportsPartialTheEmptyLocationsAndTheWorkersMetrics() {
        succeeds(NAME, "{\"Status\":\"PARTIAL\",\"WorkerJobName\":\"" + NAME + "\",\"EmptyLocations\":[\""
                + LOCATIONS.get(1) + "\"]}");
        h.job(NAME, Reply.ok(describe(NAME, "Completed", "Completed", WARMED_WORKER_METRICS)));

        Map<String, Object> data = new LinkedHashMap<>(Map.of("Status", "PARTIAL", "WorkerJobName", NAME,
                "EmptyLocations", LOCATIONS.get(1), "FilesWarmed", "1234", "BytesWarmed", "536870912", "Seconds", "42"));
        assertEquals(Map.of("IsComplete", true, "Data", data), isCompleteAfterCreate(waiting()),
                "a create does not roll back for a location without data");
        assertEquals("Preload " + NAME + ": warmed the locations that hold data; no object yet at " + LOCATIONS.get(1),
                h.context.lines().get(0));
    }

    @Test
    void aLongListOfEmptyLocationsIsCutToFitCloudFormationsResponse() {
        List<String> twenty = IntStream.range(0, 20).mapToObj(i -> "s3://" + HandlerHarness.BUCKET + "/"
                + "datasets/".repeat(12) + "part-" + i + "/").toList();
        String attribute = PreloadHandler.emptyLocations(twenty);

        assertTrue(attribute.length() <= PreloadHandler.MAX_EMPTY_LOCATIONS_LENGTH, attribute.length() + " characters");
        String[] parts = attribute.split(",");
        assertEquals(twenty.subList(0, parts.length - 1), List.of(parts).subList(0, parts.length - 1));
        assertEquals("+" + (20 - parts.length + 1) + " more", parts[parts.length - 1]);
        assertEquals(String.join(",", twenty.subList(0, 3)), PreloadHandler.emptyLocations(twenty.subList(0, 3)));
        assertEquals("", PreloadHandler.emptyLocations(List.of()));
    }

    @Test
    void secondsFallBackToTheTrainingTimeAndMissingMetricsToZero() {
        succeeds(NAME, "{\"Status\":\"WARMED\"}");
        h.job(NAME, Reply.ok(describe(NAME, "Completed", "Completed",
                "\"FinalMetricDataList\":[{\"MetricName\":\"preload:files\",\"Value\":7.0,\"Timestamp\":1767225700}],"
                        + "\"TrainingStartTime\":1767225630.25,\"TrainingEndTime\":1767225700.75,")));

        Map<?, ?> data = (Map<?, ?>) isCompleteAfterCreate(waiting()).get("Data");
        assertEquals(List.of("7", "0", "70"), List.of(data.get("FilesWarmed"), data.get("BytesWarmed"), data.get("Seconds")));
        assertEquals(NAME, data.get("WorkerJobName"), "an output without a worker name: the first attempt's");
        assertTrue(h.context.lines().get(0).endsWith("reported no metric preload:bytes: check the worker's MetricDefinitions"),
                h.context.lines().toString());
    }

    @Test
    void workerMetricsThatCannotBeReadAreReportedAsZeroNotAsAFailure() {
        succeeds(NAME, "{\"Status\":\"WARMED\",\"WorkerJobName\":\"" + NAME + "\",\"EmptyLocations\":[]}");
        h.job(NAME, Reply.error(400, "AccessDeniedException", "not authorized"));

        Map<?, ?> data = (Map<?, ?>) isCompleteAfterCreate(waiting()).get("Data");
        assertEquals(List.of("WARMED", "0"), List.of(data.get("Status"), data.get("FilesWarmed")));
        assertTrue(h.context.lines().get(0).startsWith("Could not read the metrics of preload worker " + NAME),
                h.context.lines().toString());
    }

    @Test
    void anEmptyLocationCompletesWithStatusEmptyAndNoWorker() {
        succeeds(NAME, "{\"Status\":\"EMPTY\",\"EmptyLocations\":[\"" + LOCATIONS.get(0) + "\",\"" + LOCATIONS.get(1) + "\"]}");

        Map<String, Object> data = new LinkedHashMap<>(Map.of("Status", "EMPTY", "FilesWarmed", "0", "BytesWarmed", "0",
                "Seconds", "0", "EmptyLocations", String.join(",", LOCATIONS)));
        assertEquals(Map.of("IsComplete", true, "Data", data), isCompleteAfterCreate(waiting()));
        assertEquals(List.of(DESCRIBE_EXECUTION), h.targets(), "there is no worker to describe");
        assertEquals("Preload " + NAME + ": the data locations hold no object yet, nothing was warmed", h.context.lines().get(0));
    }

    @Test
    void aFailedExecutionFailsACreateWithItsCause() {
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(NAME, "FAILED", "\"error\":\"States.TaskFailed\","
                + "\"cause\":\"Worker " + NAME + " (attempt 1 of at most 6): AlgorithmError: preload failed\",")));

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> isCompleteAfterCreate(waiting()));

        assertEquals("Preload execution " + executionArn(NAME) + " ended FAILED: States.TaskFailed: Worker " + NAME
                + " (attempt 1 of at most 6): AlgorithmError: preload failed. Its history is in the Step Functions "
                + "console; the workers' logs, if one started, are in CloudWatch Logs group /aws/sagemaker/TrainingJobs, "
                + "streams " + NAME + "[-<attempt>]/algo-1-*.", e.getMessage());
    }

    @Test
    void aTimedOutOrAbortedExecutionFailsACreateToo() {
        for (String status : List.of("TIMED_OUT", "ABORTED")) {
            h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(NAME, status, "\"error\":\"States.Timeout\",\"cause\":\"\",")));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> isCompleteAfterCreate(waiting()));
            assertTrue(e.getMessage().startsWith("Preload execution " + executionArn(NAME) + " ended " + status + ": "),
                    e.getMessage());
        }
    }

    @Test
    void aFailedExecutionDoesNotFailAnUpdate() {
        String name = name("k2", "req-2");
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(name, "FAILED", "\"error\":\"ImportFailed\",\"cause\":\"x\",")));
        Map<String, Object> request = update(NAME, properties("k2", "3300"), waiting());

        Map<String, Object> result = h.handler.isComplete(HandlerHarness.afterOnEvent(request,
                h.handler.onEvent(request, h.context)), h.context);

        assertEquals(attributes("FAILED", "0", "0", "0"), result);
        assertTrue(h.context.lines().get(2).endsWith("The update goes on: it may be the rollback of another update."),
                h.context.lines().toString());
    }

    @Test
    void withoutWaitingThePreloadIsCompleteAtOnce() {
        Map<String, Object> result = isCompleteAfterCreate(properties("k1", "0"));

        assertEquals(Map.of("IsComplete", true, "Data", Map.of("Status", "STARTED")), result);
        assertEquals(List.of(), h.emulator.calls());
    }

    @Test
    void anExecutionNotVisibleYetIsNotCompleteButAKeptOneThatIsGoneIsUnknown() {
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.error(400, "ExecutionDoesNotExist", "Execution Does Not Exist"));

        assertEquals(Map.of("IsComplete", false), isCompleteAfterCreate(waiting()), "DescribeExecution is eventually consistent");
        assertEquals(attributes("UNKNOWN", "0", "0", "0"), h.handler.isComplete(update(NAME, waiting(), waiting()), h.context),
                "90 days after it ended, Step Functions no longer keeps it");
    }

    @Test
    void aNewExecutionOfAnUpdateThatIsNotVisibleYetIsWaitedForNotUnknown() {
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.error(400, "ExecutionDoesNotExist", "Execution Does Not Exist"));
        Map<String, Object> request = update("warm-resnet-0123456789ab", waiting(), waiting());
        Map<String, Object> onEvent = h.handler.onEvent(request, h.context);

        assertEquals(Map.of("IsComplete", false), h.handler.isComplete(HandlerHarness.afterOnEvent(request, onEvent),
                h.context), "onEvent started it: the same WarmKey does not make it a kept one");
    }

    @Test
    void throttlingAndServerErrorsMeanNotCompleteYet() {
        PreloadHandler impatient = h.withoutSdkRetries();
        h.emulator.onSequence(DESCRIBE_EXECUTION,
                Reply.error(400, "ThrottlingException", "Rate exceeded"),
                Reply.error(500, "InternalServerError", "Internal failure"),
                Reply.ok(execution(NAME, "SUCCEEDED", output("{\"Status\":\"WARMED\"}"))));
        h.job(NAME, Reply.error(503, "ServiceUnavailable", "Service unavailable"),
                Reply.ok(describe(NAME, "Completed", "Completed")));
        Map<String, Object> event = withPhysicalId(event("Create", "req-1", waiting()), NAME);

        assertEquals(Map.of("IsComplete", false), impatient.isComplete(event, h.context), "throttled");
        assertEquals(Map.of("IsComplete", false), impatient.isComplete(event, h.context), "500");
        assertEquals(Map.of("IsComplete", false), impatient.isComplete(event, h.context), "SageMaker 503");
        assertEquals(true, impatient.isComplete(event, h.context).get("IsComplete"));
        assertTrue(h.context.lines().get(0).startsWith("Could not describe preload execution " + executionArn(NAME)
                + " (transient, not complete yet): Rate exceeded"), h.context.lines().toString());
    }

    @Test
    void theSdkRetriesAbsorbABriefThrottle() {
        h.emulator.onSequence(DESCRIBE_EXECUTION, Reply.error(400, "ThrottlingException", "Rate exceeded"),
                Reply.ok(execution(NAME, "RUNNING", "")));

        assertEquals(Map.of("IsComplete", false), isCompleteAfterCreate(waiting()));
        assertEquals(List.of(DESCRIBE_EXECUTION, DESCRIBE_EXECUTION), h.targets());
        assertTrue(h.context.lines().get(0).contains("RUNNING"), h.context.lines().toString());
    }

    @Test
    void anUnreachableServiceMeansNotCompleteYet() {
        PreloadHandler impatient = h.withoutSdkRetries();
        h.emulator.close();

        assertEquals(Map.of("IsComplete", false),
                impatient.isComplete(withPhysicalId(event("Create", "req-1", waiting()), NAME), h.context));
    }

    @Test
    void accessDeniedFailsTheDeploy() {
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.error(400, "AccessDeniedException", "not authorized"));

        SdkException e = assertThrows(SdkException.class, () -> isCompleteAfterCreate(waiting()));
        assertFalse(SdkCalls.isTransient(e));
        assertTrue(PreloadClients.isAccessDenied(e));
        assertTrue(e.getMessage().startsWith("not authorized"), e.getMessage());
    }
}
