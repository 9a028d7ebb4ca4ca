package io.github.trainingdata.cdk.preload.handler;

import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.CANCEL_TASK;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.DESCRIBE_EXECUTION;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.DESCRIBE_TASKS;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.HISTORY;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.DESCRIBE_JOB;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.NAME;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.STOP_EXECUTION;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.STOP_JOB;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.event;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.execution;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.executionArn;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.output;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.waiting;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.withPhysicalId;
import static io.github.trainingdata.cdk.launch.TrainingJobDescriptions.describe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The preload handler's Delete against the loopback emulator: it stops a running execution, waits until every
 * worker attempt has stopped, never fails, and never calls a worker it may not see "gone".
 */
class PreloadTeardownTest {
    @RegisterExtension
    final HandlerHarness h = HandlerHarness.start();

    private Map<String, Object> delete(String physicalId) {
        return h.handler.onEvent(withPhysicalId(event("Delete", "req-3", waiting()), physicalId), h.context);
    }

    private Map<String, Object> isCompleteForDelete(String physicalId) {
        return h.handler.isComplete(withPhysicalId(event("Delete", "req-3", waiting()), physicalId), h.context);
    }

    @Test
    void deleteStopsARunningExecution() {
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(NAME, "RUNNING", "")));

        assertEquals(Map.of("PhysicalResourceId", NAME), delete(NAME));
        assertEquals(List.of(DESCRIBE_EXECUTION, STOP_EXECUTION, HISTORY), h.targets(), "no import task in its history");
        assertEquals(Json.tree("{\"executionArn\": \"" + executionArn(NAME) + "\", \"error\": \"PreloadDeleted\", "
                + "\"cause\": \"CloudFormation deleted or replaced the preload custom resource\"}"),
                Json.tree(h.emulator.calls(STOP_EXECUTION).get(0).body()));
    }

    @Test
    void deleteCancelsTheStoppedExecutionsImportTaskAndWaitsUntilItIsOver() {
        String task = "task-0123456789abcdef0";
        h.emulator.onSequence(DESCRIBE_EXECUTION, Reply.ok(execution(NAME, "RUNNING", "")),
                Reply.ok(execution(NAME, "ABORTED", "")));
        h.importStarted(task);
        h.task(task, "EXECUTING", "CANCELING", "CANCELED");

        delete(NAME);
        assertEquals(List.of(DESCRIBE_EXECUTION, STOP_EXECUTION, HISTORY, DESCRIBE_TASKS, CANCEL_TASK), h.targets());
        assertEquals("{\"TaskId\":\"" + task + "\"}", h.emulator.calls(CANCEL_TASK).get(0).body());
        assertEquals(Map.of("IsComplete", false), isCompleteForDelete(NAME), "CANCELING: the file system cannot go yet");
        assertEquals(Map.of("IsComplete", true, "Data", Map.of()), isCompleteForDelete(NAME), "CANCELED, no worker");
        assertEquals(1, h.emulator.calls(CANCEL_TASK).size());
        assertTrue(h.context.lines().contains("Cancelled FSx import task " + task + " of preload execution "
                + executionArn(NAME)), h.context.lines().toString());
    }

    @Test
    void deleteLeavesAnEndedExecutionAlone() {
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(NAME, "SUCCEEDED", output("{}"))));

        delete(NAME);
        assertEquals(List.of(DESCRIBE_EXECUTION), h.targets());
    }

    @Test
    void deleteWaitsUntilTheExecutionAndEveryWorkerAttemptHaveStopped() {
        String second = WorkerAttempts.name(NAME, 2);
        h.emulator.onSequence(DESCRIBE_EXECUTION, Reply.ok(execution(NAME, "RUNNING", "")), Reply.ok(execution(NAME,
                "ABORTED", "")));
        h.job(NAME, "Failed");
        h.job(second, Reply.ok(describe(second, "InProgress", "Training")),
                Reply.ok(describe(second, "Stopping", "Stopping")), Reply.ok(describe(second, "Stopped", "Stopped")));

        assertEquals(Map.of("IsComplete", false), isCompleteForDelete(NAME), "the execution is stopped again");
        assertEquals(Map.of("IsComplete", false), isCompleteForDelete(NAME), "Step Functions' stop is best effort");
        assertEquals(Map.of("IsComplete", false), isCompleteForDelete(NAME), "its network interfaces are still in use");
        assertEquals(Map.of("IsComplete", true, "Data", Map.of()), isCompleteForDelete(NAME));
        assertEquals("{\"TrainingJobName\":\"" + second + "\"}", h.emulator.calls(STOP_JOB).get(0).body(),
                "the second attempt, which the first (capacity) made way for");
        assertEquals(List.of(NAME, second, WorkerAttempts.name(NAME, 3)), h.emulator.calls(DESCRIBE_JOB).stream()
                .skip(h.emulator.calls(DESCRIBE_JOB).size() - 3L).map(c -> c.json().required("TrainingJobName").textValue())
                .toList(), "no third attempt exists, so none later can");
    }

    @Test
    void deleteOfAPreloadThatNeverStartedAWorkerCompletes() {
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(NAME, "SUCCEEDED", output("{\"Status\":\"EMPTY\"}"))));

        assertEquals(Map.of("PhysicalResourceId", NAME), delete(NAME));
        assertEquals(Map.of("IsComplete", true, "Data", Map.of()), isCompleteForDelete(NAME));
        assertEquals(List.of(DESCRIBE_EXECUTION, DESCRIBE_EXECUTION, HISTORY, DESCRIBE_JOB), h.targets());
    }

    @Test
    void deleteOfAnExecutionThatNeverStartedCompletes() {
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.error(400, "ExecutionDoesNotExist", "Execution Does Not Exist"));

        assertEquals(Map.of("PhysicalResourceId", NAME), delete(NAME));
        assertEquals(true, isCompleteForDelete(NAME).get("IsComplete"));
        assertTrue(h.context.lines().get(0).contains("(ignored, going on)"), h.context.lines().toString());
    }

    @Test
    void aWorkerTheHandlerMayNotDescribeIsUnknownNotGoneAndItsExecutionIsStopped() {
        // A worker named under an earlier prefix (before the prefix stopped following the definition's): IAM denies.
        String legacy = "warm-resnet-0123456789ab";
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.error(400, "AccessDeniedException", "not authorized"));
        h.job(legacy, Reply.error(400, "AccessDeniedException", "User is not authorized to perform: "
                + "sagemaker:DescribeTrainingJob"));

        assertEquals(Map.of("IsComplete", true, "Data", Map.of()), isCompleteForDelete(legacy),
                "a delete never fails nor waits for what it cannot see");
        assertEquals(List.of(DESCRIBE_EXECUTION, HISTORY, DESCRIBE_JOB, STOP_EXECUTION), h.targets(),
                "the execution may still run: stopped, so that Step Functions stops its job");
        String line = h.context.lines().stream().filter(l -> l.contains(legacy + " may still run")).findFirst()
                .orElseThrow(() -> new AssertionError(h.context.lines().toString()));
        assertTrue(line.contains("access denied"), line);
        assertFalse(h.context.lines().stream().anyMatch(l -> l.contains("does not exist") || l.contains(": ended")),
                "never reported as gone: " + h.context.lines());
    }

    @Test
    void aWorkerTheHandlerMayNotDescribeOfAnEndedExecutionIsNotStoppedAgain() {
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(NAME, "SUCCEEDED", output("{}"))));
        h.job(NAME, Reply.error(400, "AccessDeniedException", "not authorized"));

        assertEquals(true, isCompleteForDelete(NAME).get("IsComplete"));
        assertEquals(List.of(DESCRIBE_EXECUTION, HISTORY, DESCRIBE_JOB), h.targets());
    }

    @Test
    void deleteWaitsOutTransientErrors() {
        PreloadHandler impatient = h.withoutSdkRetries();
        h.emulator.onSequence(DESCRIBE_EXECUTION, Reply.error(400, "ThrottlingException", "Rate exceeded"),
                Reply.ok(execution(NAME, "SUCCEEDED", "")));
        h.job(NAME, Reply.error(500, "InternalFailure", "x"), Reply.ok(describe(NAME, "Completed", "Completed")));
        Map<String, Object> event = withPhysicalId(event("Delete", "req-3", waiting()), NAME);

        assertEquals(Map.of("IsComplete", false), impatient.isComplete(event, h.context));
        assertEquals(Map.of("IsComplete", false), impatient.isComplete(event, h.context));
        assertEquals(true, impatient.isComplete(event, h.context).get("IsComplete"));
    }

    @Test
    void deleteOfAPhysicalIdThatNamesNoExecutionOrWithBadPropertiesCallsNothing() {
        String marker = "AWSCDK::CustomResourceProviderFramework::CREATE_FAILED";
        assertEquals(Map.of("PhysicalResourceId", marker), delete(marker));
        assertEquals(true, isCompleteForDelete(marker).get("IsComplete"));
        Map<String, Object> event = withPhysicalId(event("Delete", "req-3", Map.of("WorkerJobNamePrefix",
                HandlerHarness.PREFIX)), NAME);
        assertEquals(Map.of("PhysicalResourceId", NAME), h.handler.onEvent(event, h.context));
        assertEquals(true, h.handler.isComplete(event, h.context).get("IsComplete"));
        assertEquals(List.of(), h.emulator.calls());
    }
}
