package io.github.trainingdata.cdk.training;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.github.trainingdata.cdk.Json;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.CfnParameter;
import software.amazon.awscdk.Duration;

/**
 * Training that waits for other jobs (the preload worker): the poll loop's outcomes, its retries, and its
 * worst-case execution history, computed by running the rendered definition on a simulated clock.
 */
class PrerequisiteWaitTest {
    /** Step Functions fails an execution at 25,000 history events; we keep the worst case under 10,000. */
    private static final long EVENT_BUDGET = 10_000;
    private static final ObjectMapper JSON = Json.MAPPER;
    private static final String DESCRIBE = "arn:REF(AWS::Partition):states:::aws-sdk:sagemaker:describeTrainingJob";

    private static JsonNode longest;
    private static JsonNode twoJobs;

    @BeforeAll
    static void synthesizeOnce() {
        longest = waitingFor(Map.of("warm-resnet-1", Duration.days(365)));
        TrainingFixture f = new TrainingFixture();
        TrainingJobDefinition job = f.define(f.props().jobNamePrefix("resnet"));
        job.waitForTrainingJob("warm-resnet-1", Duration.hours(12));
        job.waitForTrainingJob("other-job");
        twoJobs = AslSimulator.definitionOf(f.stack);
    }

    private static JsonNode waitingFor(Map<String, Duration> jobs) {
        TrainingFixture f = new TrainingFixture();
        TrainingJobDefinition job = f.define(f.props().jobNamePrefix("resnet"));
        jobs.forEach(job::waitForTrainingJob);
        return AslSimulator.definitionOf(f.stack);
    }

    /** Every described job reports the status its function gives for the time waited so far. */
    private static AslSimulator.Run run(JsonNode definition, Map<String, ToLongFunction<Long>> completesAt,
            boolean worstCaseRetries) {
        return new AslSimulator(definition).run("exec", JsonNodeFactory.instance.objectNode(),
                (resource, parameters, now) -> {
                    if (!resource.equals(DESCRIBE)) {
                        return JsonNodeFactory.instance.objectNode();
                    }
                    long at = completesAt.get(parameters.get("TrainingJobName").asText()).applyAsLong(now);
                    return JSON.valueToTree(Map.of("TrainingJobStatus", now >= at ? "Completed" : "InProgress"));
                }, worstCaseRetries);
    }

    private static List<String> describedJobs(AslSimulator.Run run) {
        return run.calls().stream().filter(c -> c.resource().equals(DESCRIBE))
                .map(c -> c.parameters().get("TrainingJobName").asText()).distinct().toList();
    }

    @Test
    void aCompletedJobLetsTrainingStartAtOnce() {
        AslSimulator.Run run = run(longest, Map.of("warm-resnet-1", t -> 0), false);
        assertEquals("Train", run.endState());
        assertEquals(List.of(), run.waits());
        assertEquals(List.of("DescribePrerequisite0", "Train"), run.calls().stream().map(AslSimulator.Call::state)
                .toList());
    }

    @Test
    void aRunningJobIsPolledEveryMinuteAtFirstThenLessOften() {
        AslSimulator.Run run = run(longest, Map.of("warm-resnet-1", t -> 6 * 3600), false);
        assertEquals("Train", run.endState());
        assertTrue(run.seconds() >= 6 * 3600, "waited " + run.seconds());
        assertEquals(List.of(60L, 60L, 60L), run.waits().subList(0, 3));
        long waited = 0;
        for (long wait : run.waits()) {
            assertTrue(wait <= Math.max(60, waited / 10), wait + " s after " + waited + " s: at most a tenth");
            waited += wait;
        }
        assertTrue(run.seconds() - 6 * 3600 <= 6 * 3600 / 10, "completion noticed " + (run.seconds() - 6 * 3600)
                + " s late");
    }

    @Test
    void theLongestAllowedWaitStaysFarBelowTheHistoryLimitEvenWithEveryRetry() {
        AslSimulator.Run nominal = run(longest, Map.of("warm-resnet-1", t -> Long.MAX_VALUE), false);
        AslSimulator.Run worst = run(longest, Map.of("warm-resnet-1", t -> Long.MAX_VALUE), true);
        assertEquals("PrerequisiteJobTimedOut", worst.error());
        assertTrue(worst.seconds() >= Duration.days(365).toSeconds().longValue(), "waited " + worst.seconds());
        System.out.printf("Waiting 365 days: %d polls, %d history events (%d if every poll needs all %d retries)%n",
                worst.waits().size() + 1, nominal.events(), worst.events(), AslStates.RETRY_ATTEMPTS);
        assertTrue(worst.events() <= EVENT_BUDGET, worst.events() + " events");
    }

    @Test
    void severalJobsShareOneWaitSoTheirPollsDoNotAddUp() {
        long deadline = Duration.hours(12).toSeconds().longValue();
        // The worker completes at the last poll before its 12 hours, the other job never.
        Map<String, ToLongFunction<Long>> jobs = new HashMap<>();
        jobs.put("warm-resnet-1", t -> deadline - 1);
        jobs.put("other-job", t -> Long.MAX_VALUE);
        AslSimulator.Run worst = run(twoJobs, jobs, true);
        assertEquals("PrerequisiteTimedOut1", worst.endState());
        assertEquals(List.of("warm-resnet-1", "other-job"), describedJobs(worst));
        AslSimulator.Run alone = run(waitingFor(Map.of("other-job", Duration.days(28))),
                Map.of("other-job", t -> Long.MAX_VALUE), true);
        System.out.printf("Waiting 28 days: %d history events; after a 12-hour prerequisite: %d%n", alone.events(),
                worst.events());
        assertTrue(worst.events() - alone.events() <= 100, worst.events() + " vs " + alone.events());
        assertTrue(worst.events() <= EVENT_BUDGET, worst.events() + " events");
    }

    @Test
    void theOneArgumentWaitGivesUpAfterTwentyEightDays() {
        AslSimulator.Run run = run(twoJobs, Map.of("warm-resnet-1", t -> 0, "other-job", t -> Long.MAX_VALUE), false);
        assertEquals("PrerequisiteJobTimedOut", run.error());
        long days28 = TrainingJobDefinition.MAX_PREREQUISITE_WAIT.toSeconds().longValue();
        assertTrue(run.seconds() >= days28 && run.seconds() <= days28 * 11 / 10, "waited " + run.seconds());
    }

    @Test
    void aFailedOrStoppedJobFailsTheExecution() {
        for (String status : List.of("Failed", "Stopped")) {
            AslSimulator.Run run = new AslSimulator(longest).run("exec", JsonNodeFactory.instance.objectNode(),
                    (resource, parameters, now) -> JSON.valueToTree(Map.of("TrainingJobStatus", status)), false);
            assertEquals("PrerequisiteJobNotCompleted", run.error(), status);
        }
    }

    @Test
    void transientErrorsAreRetriedAndAMissingJobFailsAtOnce() {
        int[] throttled = {2};
        AslSimulator.Run retried = new AslSimulator(longest).run("exec", JsonNodeFactory.instance.objectNode(),
                (resource, parameters, now) -> {
                    if (resource.equals(DESCRIBE) && throttled[0]-- > 0) {
                        throw new AslSimulator.TaskError("SageMaker.ThrottlingException");
                    }
                    return JSON.valueToTree(Map.of("TrainingJobStatus", "Completed"));
                }, false);
        assertEquals("Train", retried.endState());
        assertEquals(4, retried.calls().size(), "three describes, then training");

        for (String error : List.of("SageMaker.ValidationException", "SageMaker.ResourceNotFoundException")) {
            AslSimulator.Run missing = new AslSimulator(longest).run("exec", JsonNodeFactory.instance.objectNode(),
                    (resource, parameters, now) -> {
                        throw new AslSimulator.TaskError(error);
                    }, false);
            assertEquals("PrerequisiteJobNotFound", missing.error(), error);
            assertEquals(1, missing.calls().size(), error + " is not retried");
        }
    }

    @Test
    void retriesTransientErrorsWithJitteredBackoff() throws Exception {
        assertEquals(JSON.readTree("""
                [{"ErrorEquals": ["SageMaker.ResourceNotFoundException", "SageMaker.ValidationException"],
                  "MaxAttempts": 0},
                 {"ErrorEquals": ["States.TaskFailed", "States.Timeout"], "IntervalSeconds": 4, "MaxAttempts": 5,
                  "BackoffRate": 2, "MaxDelaySeconds": 60, "JitterStrategy": "FULL"}]"""),
                longest.at("/States/DescribePrerequisite0/Retry"));
        assertEquals(60, longest.at("/States/DescribePrerequisite0/TimeoutSeconds").asInt());
    }

    @Test
    void rejectsAMaximumWaitOutsideOneMinuteToAYear() {
        TrainingFixture f = new TrainingFixture();
        TrainingJobDefinition job = f.define(f.props());
        assertRule("TRAINING_MAX_WAIT_EXECUTION", () -> job.waitForTrainingJob("j", Duration.seconds(59)),
                "Test/Training", "maxWait (waitForTrainingJob)", "59 seconds",
                "1 minute to 365 days (a standard Step Functions execution runs for at most a year)");
        assertRule("TRAINING_MAX_WAIT_EXECUTION", () -> job.waitForTrainingJob("j", Duration.days(366)),
                "Test/Training", "maxWait (waitForTrainingJob)", "366 days",
                "1 minute to 365 days (a standard Step Functions execution runs for at most a year)");
        assertRule("TRAINING_MAX_WAIT_EXECUTION", () -> job.waitForTrainingJob("j", Duration.millis(90_500)),
                "Test/Training", "maxWait (waitForTrainingJob)", "1 minute 30 seconds", "a literal whole "
                        + "number of seconds from 1 minute to 365 days (it sizes the waiting states, so it cannot be a "
                        + "deploy-time value)");
        Number hours = CfnParameter.Builder.create(job, "Hours").type("Number").build()
                .getValueAsNumber();
        assertRule("TRAINING_MAX_WAIT_EXECUTION", () -> job.waitForTrainingJob("j", Duration.hours(hours)),
                "Test/Training", "maxWait (waitForTrainingJob)", "<token> hours", "a literal whole number of seconds "
                        + "from 1 minute to 365 days (it sizes the waiting states, so it cannot be a deploy-time value)");
        job.waitForTrainingJob("j", Duration.minutes(1));
        job.waitForTrainingJob("k", Duration.days(365));
    }
}
