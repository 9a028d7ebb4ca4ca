package io.github.trainingdata.cdk.preload.handler;

import static io.github.trainingdata.cdk.launch.TrainingJobDescriptions.describe;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.DESCRIBE_EXECUTION;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.DESCRIBE_JOB;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.DESCRIBE_STACKS;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.HISTORY;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.LIST_EXECUTIONS;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.NAME;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.START;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.STATE_MACHINE;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.STOP_EXECUTION;
import static io.github.trainingdata.cdk.preload.handler.HandlerHarness.afterOnEvent;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An update that changed WarmKey (k1, warmed by {@code E0}, to k2, which started {@code E1}) and then rolled back.
 * CloudFormation may (a) send a Delete of E1, or (b) send an Update with k1's properties to E1 (not documented
 * either way): both must start nothing, stop E1 and leave the resource on E0, without waiting.
 */
class PreloadRollbackTest {
    /** The execution that warmed k1 (the configuration rolled back to). */
    private static final String E0 = NAME;
    /** The execution the forward update started for k2 (the configuration abandoned). */
    private static final String E1 = name("k2", "req-2");

    @RegisterExtension
    final HandlerHarness h = HandlerHarness.start();

    /** (b): the Update of the rollback, with k1's properties, to E1. */
    private static Map<String, Object> rollbackUpdate() {
        Map<String, Object> event = update(E1, waiting(), properties("k2", "3300"));
        event.put("RequestId", "req-rollback");
        return event;
    }

    private static String listed(String... names) {
        return "{\"executions\":[" + List.of(names).stream().map(name -> "{\"executionArn\":\"" + executionArn(name)
                + "\",\"stateMachineArn\":\"" + STATE_MACHINE + "\",\"name\":\"" + name + "\",\"status\":\"SUCCEEDED\","
                + "\"startDate\":" + HandlerHarness.STARTED_EPOCH_SECONDS + "}").collect(Collectors.joining(",")) + "]}";
    }

    @Test
    void theRollbacksUpdateStartsNothingStopsTheAbandonedExecutionAndRestoresTheNewestOfTheRestoredConfiguration() {
        h.stackIs("UPDATE_ROLLBACK_IN_PROGRESS");
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(E1, "RUNNING", "")));
        String olderOfK1 = name("k1", "req-0");
        h.emulator.on(LIST_EXECUTIONS, call -> Reply.ok(listed(E1, "warm-resnet-0123456789ab", E0, olderOfK1)));

        Map<String, Object> result = h.handler.onEvent(rollbackUpdate(), h.context);

        assertEquals(started(E0, executionArn(E0), "RESTORED"), result);
        assertEquals(List.of(DESCRIBE_STACKS, DESCRIBE_EXECUTION, STOP_EXECUTION, HISTORY, LIST_EXECUTIONS), h.targets(),
                "no StartExecution: no billed worker for the configuration being abandoned");
        assertEquals(Json.tree("{\"executionArn\": \"" + executionArn(E1) + "\", \"error\": \"PreloadRolledBack\", "
                + "\"cause\": \"CloudFormation rolled back the update that started this warm-up\"}"),
                Json.tree(h.emulator.calls(STOP_EXECUTION).get(0).body()));
        assertEquals(Json.tree("{\"stateMachineArn\": \"" + STATE_MACHINE + "\", \"maxResults\": 100}"),
                Json.tree(h.emulator.calls(LIST_EXECUTIONS).get(0).body()));
    }

    @Test
    void theRestoredExecutionsResultIsReportedAtOnce() {
        h.stackIs("UPDATE_ROLLBACK_IN_PROGRESS");
        h.emulator.on(DESCRIBE_EXECUTION, call -> call.body().contains(E1) ? Reply.ok(execution(E1, "ABORTED", ""))
                : Reply.ok(execution(E0, "SUCCEEDED", output("{\"Status\":\"WARMED\",\"WorkerJobName\":\"" + E0
                        + "\",\"EmptyLocations\":[]}"))));
        h.emulator.on(LIST_EXECUTIONS, call -> Reply.ok(listed(E1, E0)));
        h.job(E0, Reply.ok(describe(E0, "Completed", "Completed")));
        Map<String, Object> request = rollbackUpdate();

        Map<String, Object> result = h.handler.isComplete(afterOnEvent(request, h.handler.onEvent(request, h.context)),
                h.context);

        assertEquals("WARMED", ((Map<?, ?>) result.get("Data")).get("Status"));
        assertEquals(E0, ((Map<?, ?>) result.get("Data")).get("WorkerJobName"));
        assertTrue(h.emulator.calls(START).isEmpty());
    }

    @Test
    void aRestoredExecutionThatStillRunsIsNotWaitedFor() {
        h.stackIs("UPDATE_ROLLBACK_IN_PROGRESS");
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(call.body().contains(E1) ? E1 : E0, "RUNNING", "")));
        h.emulator.on(LIST_EXECUTIONS, call -> Reply.ok(listed(E1, E0)));
        Map<String, Object> request = rollbackUpdate();

        Map<String, Object> result = h.handler.isComplete(afterOnEvent(request, h.handler.onEvent(request, h.context)),
                h.context);

        assertEquals(attributes("STARTED", "0", "0", "0"), result, "a rollback never waits up to 55 minutes");
    }

    @Test
    void whenNoExecutionOfTheRestoredConfigurationIsFoundTheRollbackCompletesAsUnknown() {
        h.stackIs("UPDATE_ROLLBACK_IN_PROGRESS");
        h.emulator.on(DESCRIBE_EXECUTION, call -> call.body().contains(E1) ? Reply.ok(execution(E1, "SUCCEEDED", ""))
                : Reply.error(400, "ExecutionDoesNotExist", "Execution Does Not Exist"));
        h.emulator.onSequence(LIST_EXECUTIONS, Reply.ok(listed(E1).replace("]}", "],\"nextToken\":\"page-2\"}")),
                Reply.ok(listed("warm-resnet-0123456789ab")));
        Map<String, Object> request = rollbackUpdate();

        Map<String, Object> onEvent = h.handler.onEvent(request, h.context);
        Map<String, Object> result = h.handler.isComplete(afterOnEvent(request, onEvent), h.context);

        String none = (String) onEvent.get("PhysicalResourceId");
        assertTrue(PreloadExecution.warms(none, HandlerHarness.PREFIX, "k1"), none);
        assertEquals(attributes("UNKNOWN", "0", "0", "0"), result);
        assertEquals(List.of(DESCRIBE_STACKS, DESCRIBE_EXECUTION, LIST_EXECUTIONS, LIST_EXECUTIONS, DESCRIBE_EXECUTION),
                h.targets(), "the abandoned execution had ended: nothing to stop; both pages looked at; nothing started");
        assertTrue(h.emulator.calls(LIST_EXECUTIONS).get(1).body().contains("\"nextToken\":\"page-2\""));
    }

    @Test
    void aRollbackThatCannotListExecutionsStillCompletes() {
        h.stackIs("UPDATE_ROLLBACK_IN_PROGRESS");
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.error(400, "AccessDeniedException", "not authorized"));
        h.emulator.on(LIST_EXECUTIONS, call -> Reply.error(400, "AccessDeniedException", "not authorized"));
        Map<String, Object> request = rollbackUpdate();

        Map<String, Object> onEvent = h.handler.onEvent(request, h.context);
        Map<String, Object> result = h.handler.isComplete(afterOnEvent(request, onEvent), h.context);

        assertEquals("RESTORED", onEvent.get("PreloadAction"));
        assertEquals(attributes("UNKNOWN", "0", "0", "0"), result, "never fails a rollback");
        assertTrue(h.emulator.calls(START).isEmpty());
    }

    @Test
    void aRollbackToTheSameWarmKeyKeepsTheCurrentExecutionWithoutAsking() {
        Map<String, Object> event = update(E0, waiting(), waiting());

        assertEquals("KEPT", h.handler.onEvent(event, h.context).get("PreloadAction"));
        assertEquals(List.of(), h.targets());
    }

    @Test
    void aDeleteOfTheNewPhysicalIdStopsItsExecution() {
        // (a): CloudFormation deletes E1 in the rollback's cleanup; the resource keeps E0 and its attributes.
        h.emulator.on(DESCRIBE_EXECUTION, call -> Reply.ok(execution(E1, "RUNNING", "")));

        Map<String, Object> delete = withPhysicalId(event("Delete", "req-cleanup", properties("k2", "3300")), E1);
        assertEquals(Map.of("PhysicalResourceId", E1), h.handler.onEvent(delete, h.context));
        assertEquals(Map.of("IsComplete", false), h.handler.isComplete(delete, h.context), "stopped again, not yet ended");
        assertEquals(List.of(DESCRIBE_EXECUTION, STOP_EXECUTION, HISTORY, DESCRIBE_EXECUTION, STOP_EXECUTION),
                h.targets(), "the stopped execution's history names no import task to cancel");
        assertTrue(h.emulator.calls(START).isEmpty() && h.emulator.calls(DESCRIBE_JOB).isEmpty());
    }
}
