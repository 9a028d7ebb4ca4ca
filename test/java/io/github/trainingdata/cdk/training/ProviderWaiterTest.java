package io.github.trainingdata.cdk.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.trainingdata.cdk.Intrinsics;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.internal.CustomResourceProvider;
import io.github.trainingdata.cdk.internal.dispatch.CustomResourceDispatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;

/**
 * The stack provider's waiter state machine, as synthesized, run on {@link AslSimulator} (here because the simulator
 * is this package's; moto cannot run it: its Step Functions interpreter would invoke a Lambda function, which moto runs
 * only in Docker) with the dispatcher's answers scripted: it loops every 30 seconds until the dispatcher says
 * complete, retries Lambda's transient errors, and hands a call that keeps failing to the dispatcher as a failure.
 */
class ProviderWaiterTest {
    private static JsonNode definition;

    @BeforeAll
    static void synthesize() throws java.io.IOException {
        Stack stack = TestApps.stack();
        CustomResourceProvider.of(stack, null);
        Map<String, Map<String, Object>> machines = Template.fromStack(stack)
                .findResources("AWS::StepFunctions::StateMachine");
        assertEquals(1, machines.size());
        definition = Json.MAPPER.readTree(Intrinsics.string(((Map<?, ?>) machines.values().iterator().next()
                .get("Properties")).get("DefinitionString")));
    }

    /** The waiter's input: a request the dispatcher did not find complete at once. */
    private static JsonNode input() {
        ObjectNode input = Json.MAPPER.createObjectNode();
        input.put("RequestType", "Create");
        input.put("RequestId", "3f2c6a7e-1b2d-4c5e-8f90-123456789abc");
        input.put("PhysicalResourceId", "resource-1");
        input.put(CustomResourceDispatcher.PHASE, CustomResourceDispatcher.IS_COMPLETE);
        input.put(CustomResourceDispatcher.DEADLINE, 3480);
        return input;
    }

    private static JsonNode answer(boolean complete) {
        return Json.read("{\"StatusCode\":200,\"Payload\":{\"IsComplete\":" + complete + "}}");
    }

    @Test
    void itAsksEvery30SecondsUntilTheDispatcherSaysComplete() {
        List<JsonNode> payloads = new ArrayList<>();
        AslSimulator.Run run = new AslSimulator(definition).run("3f2c6a7e", input(), (resource, parameters, now) -> {
            assertTrue(resource.endsWith(":states:::lambda:invoke"), resource);
            assertTrue(parameters.get("FunctionName").asText().contains(":function:training-data-provider-"),
                    parameters.toString());
            payloads.add(parameters.get("Payload"));
            return answer(now >= 90);
        }, false);

        assertEquals("Answered", run.endState());
        assertEquals(null, run.error());
        assertEquals(List.of(30L, 30L, 30L), run.waits());
        assertEquals(List.of(30L, 60L, 90L), run.calls().stream().map(AslSimulator.Call::atSeconds).toList());
        assertEquals("resource-1", payloads.get(0).get("PhysicalResourceId").asText());
        assertEquals(CustomResourceDispatcher.IS_COMPLETE, payloads.get(0).get(CustomResourceDispatcher.PHASE)
                .asText());
        assertEquals(false, payloads.get(1).get(CustomResourceDispatcher.WAITER_RESULT).get("IsComplete")
                .asBoolean(), "the last answer is kept under its own key; the request is passed on whole");
        assertEquals(3480, payloads.get(2).get(CustomResourceDispatcher.DEADLINE).asLong());
    }

    @Test
    void fiftyEightMinutesOfChecksStayFarBelowTheExecutionHistoryLimit() {
        AslSimulator.Run run = new AslSimulator(definition).run("3f2c6a7e", input(),
                (resource, parameters, now) -> answer(now >= CustomResourceDispatcher.TOTAL_TIMEOUT_SECONDS), true);
        assertEquals("Answered", run.endState());
        assertEquals(CustomResourceDispatcher.TOTAL_TIMEOUT_SECONDS / 30, run.calls().size());
        assertTrue(run.events() < 25_000, run.events() + " events, worst-case retries counted");
    }

    @Test
    void lambdasTransientErrorsAreRetriedWithoutReportingAFailure() {
        int[] refusals = {5};
        AslSimulator.Run run = new AslSimulator(definition).run("3f2c6a7e", input(), (resource, parameters, now) -> {
            if (refusals[0]-- > 0) {
                throw new AslSimulator.TaskError("Lambda.TooManyRequestsException", "Rate exceeded");
            }
            return answer(true);
        }, false);
        assertEquals("Answered", run.endState());
        assertEquals(6, run.calls().size());
    }

    @Test
    void aCallThatKeepsFailingIsReportedToTheDispatcherWhichAnswersFailed() {
        List<JsonNode> payloads = new ArrayList<>();
        AslSimulator.Run run = new AslSimulator(definition).run("3f2c6a7e", input(), (resource, parameters, now) -> {
            payloads.add(parameters.get("Payload"));
            if (!parameters.get("Payload").has(CustomResourceDispatcher.WAITER_ERROR)) {
                throw new AslSimulator.TaskError("Lambda.Unknown", "Task timed out after 120.00 seconds");
            }
            return answer(true);
        }, false);

        assertEquals("Failed", run.endState());
        assertEquals("CustomResourceFailed", run.error());
        assertEquals(4, payloads.size(), "the call, its two retries, then the report");
        JsonNode report = payloads.get(3);
        assertEquals("Lambda.Unknown", report.get(CustomResourceDispatcher.WAITER_ERROR).get("Error").asText());
        assertEquals("Task timed out after 120.00 seconds", report.get(CustomResourceDispatcher.WAITER_ERROR)
                .get("Cause").asText());
        assertEquals("resource-1", report.get("PhysicalResourceId").asText(), "the request goes with it");
    }
}
