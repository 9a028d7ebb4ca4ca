package io.github.trainingdata.cdk.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.launch.TrainingErrors;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the training state machine retries, executed by {@link AslSimulator}: a quota refusal and throttled or failed
 * (5xx) requests are retried with bounded, growing waits, under the same job name; a user error fails at once.
 */
class TrainRetryTest {
    private static final String ACCOUNT_QUOTA = "The account-level service limit 'ml.p4d.24xlarge for training job "
            + "usage' is 0 Instances (Service: AmazonSageMaker; Status Code: 400; Error Code: ResourceLimitExceeded; "
            + "Request ID: 1)";
    private static final String THROTTLED = "Rate exceeded (Service: AmazonSageMaker; Status Code: 400; Error Code: "
            + "ThrottlingException; Request ID: 2)";
    private static final String INTERNAL = "We encountered an internal error. (Service: AmazonSageMaker; Status Code: "
            + "500; Error Code: InternalFailure; Request ID: 3)";
    private static final String INVALID = "Invalid VolumeSizeInGB (Service: AmazonSageMaker; Status Code: 400; "
            + "Error Code: ValidationException; Request ID: 4)";

    private final TrainingFixture f = new TrainingFixture();
    private final JsonNode asl;

    TrainRetryTest() {
        f.define(f.props().jobNamePrefix("resnet"));
        asl = AslSimulator.definitionOf(f.stack);
    }

    /**
     * Runs an execution whose CreateTrainingJob calls fail with {@code errors} (error, cause) in turn, then succeed;
     * DescribeTrainingJob finds a failed job only after a {@code States.TaskFailed} (a job that ran), else none.
     */
    private AslSimulator.Run run(List<String[]> errors) {
        Deque<String[]> left = new ArrayDeque<>(errors);
        String[] last = {null};
        return new AslSimulator(asl).run("exec-1", Json.MAPPER.createObjectNode(), (resource, parameters, now) -> {
            if (resource.endsWith(":describeTrainingJob")) {
                if ("States.TaskFailed".equals(last[0])) {
                    return Json.MAPPER.valueToTree(Map.of("TrainingJobStatus", "Failed", "FailureReason",
                            "AlgorithmError: ExecuteUserScriptError"));
                }
                throw new AslSimulator.TaskError("SageMaker.ValidationException", "Requested resource not found");
            }
            String[] error = left.poll();
            if (error != null) {
                last[0] = error[0];
                throw new AslSimulator.TaskError(error[0], error[1]);
            }
            return Json.MAPPER.valueToTree(Map.of("TrainingJobStatus", "Completed"));
        }, false);
    }

    private static List<AslSimulator.Call> creates(AslSimulator.Run run) {
        return run.calls().stream().filter(c -> c.resource().endsWith(":createTrainingJob.sync")).toList();
    }

    private static List<String> jobNames(AslSimulator.Run run) {
        return creates(run).stream().map(c -> c.parameters().get("TrainingJobName").asText()).distinct().toList();
    }

    @Test
    void retriesAQuotaRefusalWithBoundedExponentialBackoff() {
        Map<String, Object> retrier = Json.MAPPER.convertValue(asl.get("States").get("Train").get("Retry").get(0),
                Map.class);
        assertEquals(List.of("SageMaker.ResourceLimitExceededException"), retrier.get("ErrorEquals"));
        assertEquals(900, retrier.get("MaxDelaySeconds"));
        assertEquals(2, retrier.get("BackoffRate"));
        AslSimulator.Run run = run(List.of(new String[] {"SageMaker.ResourceLimitExceededException", ACCOUNT_QUOTA},
                new String[] {"SageMaker.ResourceLimitExceededException", ACCOUNT_QUOTA}));
        assertNull(run.error(), run.toString());
        assertEquals(3, creates(run).size());
        assertEquals(List.of("resnet-00000000-0000-4000-8000-000000000000"), jobNames(run));
    }

    @Test
    void givesUpOnAQuotaThatStaysUsedUp() {
        String[] quota = {"SageMaker.ResourceLimitExceededException", ACCOUNT_QUOTA};
        AslSimulator.Run run = run(List.of(quota, quota, quota, quota, quota, quota, quota, quota, quota));
        assertEquals(TrainingErrors.QUOTA_EXHAUSTED, run.error());
        assertEquals("SageMaker.ResourceLimitExceededException", Json.read(run.cause()).get("Error").asText());
        assertEquals(1 + TrainingStateMachine.QUOTA_RETRIES, creates(run).size());
        assertEquals(creates(run).size(), run.calls().size(), "a quota refusal is no job to look for");
    }

    @Test
    void retriesThrottlingAndServerErrorsWithDoublingWaitsUnderTheSameName() {
        AslSimulator.Run run = run(List.of(new String[] {"SageMaker.AmazonSageMakerException", THROTTLED},
                new String[] {"SageMaker.AmazonSageMakerException", INTERNAL}));
        assertNull(run.error(), run.toString());
        assertEquals("Train", run.endState());
        assertEquals(List.of(10L, 20L), run.waits());
        assertEquals(1, jobNames(run).size());
    }

    @Test
    void stopsRetryingTransientErrorsAfterTheBound() {
        String[] throttled = {"SageMaker.AmazonSageMakerException", THROTTLED};
        AslSimulator.Run run = run(List.of(throttled, throttled, throttled, throttled, throttled, throttled, throttled));
        assertEquals(TrainingErrors.REQUEST_REFUSED, run.error(), "no job of that name: refused");
        assertEquals("SageMaker.AmazonSageMakerException", Json.read(run.cause()).get("Error").asText());
        assertEquals(List.of(10L, 20L, 40L, 80L, 160L), run.waits());
        assertEquals(1 + TrainingStateMachine.TRANSIENT_RETRIES, creates(run).size());
    }

    @Test
    void neverRetriesAUserError() {
        AslSimulator.Run run = run(List.<String[]>of(new String[] {"SageMaker.AmazonSageMakerException", INVALID}));
        assertEquals(TrainingErrors.REQUEST_REFUSED, run.error());
        assertEquals(INVALID, Json.read(run.cause()).get("Cause").asText());
        assertEquals(1, creates(run).size());
        assertEquals(List.of(), run.waits());
    }

    @Test
    void aFailedJobIsNotRetried() {
        AslSimulator.Run run = run(List.<String[]>of(new String[] {"States.TaskFailed", "{\"TrainingJobStatus\":\"Failed\"}"}));
        assertEquals(TrainingErrors.TRAINING_JOB_FAILED, run.error());
        JsonNode cause = Json.read(run.cause());
        assertEquals("States.TaskFailed", cause.get("Error").asText(), "the task's own error, in the cause");
        assertEquals("AlgorithmError: ExecuteUserScriptError", cause.get("FailureReason").asText(), "from SageMaker");
        assertEquals(1, creates(run).size());
    }
}
