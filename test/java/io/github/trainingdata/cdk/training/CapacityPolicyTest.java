package io.github.trainingdata.cdk.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.PolicyStatements;
import io.github.trainingdata.cdk.launch.TrainingErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.assertions.Template;

/**
 * A capacity policy executed by {@link AslSimulator}: a job that fails for capacity goes on to the policy's next
 * attempt (wait and retry, the next instance type, S3 instead of Lustre), each a new job; any other failure is not
 * retried. Each rendered attempt's request is checked against the SageMaker API model.
 */
class CapacityPolicyTest {
    /** SageMaker's FailureReason for a job it could not place (as the SageMaker Python SDK and users report it). */
    private static final String CAPACITY = "{\"TrainingJobStatus\":\"Failed\",\"FailureReason\":\"CapacityError: "
            + "Unable to provision requested ML compute capacity. Please retry using a different ML instance type.\"}";
    private static final String EC2_CAPACITY = "{\"TrainingJobStatus\":\"Failed\",\"FailureReason\":"
            + "\"EC2InsufficientCapacityError: Instance type 'ml.p4d.24xlarge' is temporarily unavailable in supported "
            + "availability zones [use1-az1]. Try again in a few minutes, or try a different instance type.\"}";
    private static final String ALGORITHM = "{\"TrainingJobStatus\":\"Failed\",\"FailureReason\":\"AlgorithmError: "
            + "ExecuteUserScriptError\"}";

    private final TrainingFixture f = new TrainingFixture();
    private final JsonNode asl;

    CapacityPolicyTest() {
        f.define(f.props().jobNamePrefix("resnet").instanceType("ml.p4d.24xlarge")
                .channels(List.of(f.lustreChannel("train", "train"), f.s3("validation").path("validation").build()))
                .capacityPolicy(CapacityPolicy.of(List.of(
                        CapacityStep.waitAndRetry(Duration.minutes(10), 2),
                        CapacityStep.instanceTypes(List.of("ml.p4de.24xlarge", "ml.p5.48xlarge")),
                        CapacityStep.s3Fallback()))));
        asl = AslSimulator.definitionOf(f.stack);
    }

    /**
     * Runs an execution whose jobs fail in turn, then complete: each fails the Train task with {@code States.TaskFailed}
     * and a cause that says nothing; DescribeTrainingJob answers with the job's description, {@code causes}' JSON (a
     * string that is no JSON: a failed job with that FailureReason).
     */
    private AslSimulator.Run run(List<String> causes) {
        return new AslSimulator(asl).run("exec-1", Json.MAPPER.createObjectNode(), sageMaker(causes, false), false);
    }

    /** SageMaker, as {@link #run} describes it; CloudWatch answers, or (failing) refuses every count. */
    static AslSimulator.Tasks sageMaker(List<String> descriptions, boolean countsFail) {
        List<String> left = new ArrayList<>(descriptions);
        JsonNode[] current = {null};
        return (resource, parameters, now) -> {
            if (resource.endsWith(":putMetricData")) {
                if (countsFail) {
                    throw new AslSimulator.TaskError("CloudWatch.CloudWatchException", "AccessDenied");
                }
                return Json.MAPPER.createObjectNode();
            }
            if (resource.endsWith(":describeTrainingJob")) {
                return current[0];
            }
            if (!left.isEmpty()) {
                String description = left.remove(0);
                current[0] = description.startsWith("{") ? Json.read(description) : Json.MAPPER.valueToTree(Map.of(
                        "TrainingJobStatus", "Failed", "FailureReason", description));
                throw new AslSimulator.TaskError("States.TaskFailed", "the .sync cause, never read");
            }
            return Json.MAPPER.valueToTree(Map.of("TrainingJobStatus", "Completed"));
        };
    }

    /** @return the CreateTrainingJob calls, in order */
    private static List<AslSimulator.Call> jobs(AslSimulator.Run run) {
        return run.calls().stream().filter(c -> c.resource().endsWith(":createTrainingJob.sync")).toList();
    }

    private static List<String> instanceTypes(AslSimulator.Run run) {
        return jobs(run).stream().map(c -> c.parameters().get("ResourceConfig").get("InstanceType").asText()).toList();
    }

    /** @return the outcome dimension of each job's count in CloudWatch, in order */
    private static List<String> countedOutcomes(AslSimulator.Run run) {
        return run.calls().stream().filter(c -> c.resource().endsWith(":putMetricData"))
                .map(c -> c.parameters().get("MetricData").get(0).get("Dimensions").get(1).get("Value").asText())
                .toList();
    }

    @Test
    void aCapacityErrorThenSuccessWaitsAndTrainsAgainAsANewJob() {
        AslSimulator.Run run = run(List.of(CAPACITY));
        assertEquals(null, run.error(), run.toString());
        assertEquals(List.of(600L), run.waits());
        assertEquals(List.of("ml.p4d.24xlarge", "ml.p4d.24xlarge"), instanceTypes(run));
        assertTrue(asl.get("States").get("CapacityAttempt1").get("Assign").has("trainingJobName.$"), "a new job name");
    }

    @Test
    void theOutputListsEveryJobWithItsInstanceTypeZonesSourcesAndReason() {
        AslSimulator.Run run = run(List.of(CAPACITY));
        assertEquals("Completed", run.output().get("TrainingJobStatus").asText(), "the job's description stays");
        String zone = "SELECT(0,GETAZS())"; // the data AZ of an environment-agnostic stack, as Intrinsics renders it
        assertEquals(Json.tree("[{\"Attempt\": 0, \"TrainingJobName\": \"resnet-00000000-0000-4000-8000-000000000000\","
                + " \"InstanceType\": \"ml.p4d.24xlarge\", \"DataSources\": \"FSxLustre+S3\", \"AvailabilityZones\": [\""
                + zone + "\"], \"Outcome\": \"CapacityError\", \"FailureReason\": \"CapacityError: Unable to provision "
                + "requested ML compute capacity. Please retry using a different ML instance type.\"}, "
                + "{\"Attempt\": 1, \"TrainingJobName\": \"resnet-00000000-0000-4000-8000-000000000000\", \"InstanceType\": "
                + "\"ml.p4d.24xlarge\", \"DataSources\": \"FSxLustre+S3\", \"AvailabilityZones\": [\"" + zone + "\"], "
                + "\"Outcome\": \"Completed\"}]"), Json.tree(run.output().get("CapacityAttempts").toString()));
        assertEquals(List.of("CapacityError", "Completed"), countedOutcomes(run));
    }

    @Test
    void theS3FallbackIsRecordedWithItsSourcesAndEveryZoneItMayUse() {
        AslSimulator.Run run = run(List.of(CAPACITY, EC2_CAPACITY, CAPACITY, CAPACITY, EC2_CAPACITY));
        JsonNode attempts = run.output().get("CapacityAttempts");
        assertEquals(6, attempts.size());
        assertEquals("EC2InsufficientCapacityError: Instance type 'ml.p4d.24xlarge' is temporarily unavailable in "
                + "supported availability zones [use1-az1]. Try again in a few minutes, or try a different instance type.",
                attempts.get(4).get("FailureReason").asText());
        assertEquals("ml.p5.48xlarge", attempts.get(5).get("InstanceType").asText());
        assertEquals("S3", attempts.get(5).get("DataSources").asText());
        assertEquals(2, attempts.get(5).get("AvailabilityZones").size(), "a zone per storage subnet");
        assertEquals(List.of("CapacityError", "CapacityError", "CapacityError", "CapacityError", "CapacityError",
                "Completed"), countedOutcomes(run));
        JsonNode byJob = run.calls().get(run.calls().size() - 1).parameters().get("MetricData").get(1);
        assertEquals(Json.tree("[{\"Name\": \"JobNamePrefix\", \"Value\": \"resnet\"}, {\"Name\": \"InstanceType\", "
                + "\"Value\": \"ml.p5.48xlarge\"}, {\"Name\": \"DataSources\", \"Value\": \"S3\"}, {\"Name\": "
                + "\"Outcome\", \"Value\": \"Completed\"}]"), Json.tree(byJob.get("Dimensions").toString()));
        assertEquals(CapacityPolicy.METRIC_NAMESPACE, run.calls().get(run.calls().size() - 1).parameters()
                .get("Namespace").asText());
        SageMakerModelCheck.assertCallValid("cloudwatch", "PutMetricData", run.calls().get(run.calls().size() - 1)
                .parameters());
    }

    @Test
    void aFailedExecutionsCauseListsEveryJobThenTheLastCause() {
        AslSimulator.Run run = run(List.of(CAPACITY, CAPACITY, CAPACITY, CAPACITY, CAPACITY, CAPACITY));
        JsonNode cause = Json.read(run.cause());
        assertEquals(6, cause.get("CapacityAttempts").size());
        assertEquals(List.of(0, 1, 2, 3, 4, 5), java.util.stream.StreamSupport.stream(cause.get("CapacityAttempts")
                .spliterator(), false).map(a -> a.get("Attempt").asInt()).toList());
        assertEquals("the .sync cause, never read", cause.get("Cause").asText());
        assertEquals(Json.read(CAPACITY).get("FailureReason").asText(), cause.get("FailureReason").asText());
    }

    @Test
    void aLongFailureReasonIsRecordedCutTo512Characters() {
        AslSimulator.Run run = run(List.of("x".repeat(3000)));
        JsonNode attempt = Json.read(run.cause()).get("CapacityAttempts").get(0);
        assertEquals("Failed", attempt.get("Outcome").asText());
        assertEquals("x".repeat(512), attempt.get("FailureReason").asText());
    }

    @Test
    void aStoppedJobIsRecordedAsStoppedAndNotRetried() {
        AslSimulator.Run run = run(List.of("{\"TrainingJobStatus\":\"Stopped\"}"));
        assertEquals(TrainingErrors.TRAINING_JOB_STOPPED, run.error());
        assertEquals(List.of(CapacityPolicy.STOPPED), countedOutcomes(run));
    }

    @Test
    void aFailedScriptWhoseMessageMentionsACapacityErrorIsNotRetried() {
        AslSimulator.Run run = run(List.of("{\"TrainingJobStatus\":\"Failed\",\"FailureReason\":\"AlgorithmError: "
                + "could not read /data/CapacityError.txt\"}"));
        assertEquals(TrainingErrors.TRAINING_JOB_FAILED, run.error());
        assertEquals(1, jobs(run).size());
        assertEquals("Failed", Json.read(run.cause()).get("CapacityAttempts").get(0).get("Outcome").asText());
    }

    @Test
    void onlyTheFailureReasonDecidesNotAValueThatMentionsCapacityError() {
        String cause = "{\"HyperParameters\":{\"note\":\"\\\"FailureReason\\\": CapacityError\"},\"TrainingJobStatus\":"
                + "\"Failed\",\"FailureReason\":\"AlgorithmError: ExecuteUserScriptError\"}";
        AslSimulator.Run run = run(List.of(cause));
        assertEquals(TrainingErrors.TRAINING_JOB_FAILED, run.error());
        assertEquals(1, jobs(run).size(), "not retried");
        assertEquals("AlgorithmError: ExecuteUserScriptError", Json.read(run.cause()).get("CapacityAttempts").get(0)
                .get("FailureReason").asText());
    }

    @Test
    void aFailureToCountNeverFailsTheTraining() {
        AslSimulator.Run run = new AslSimulator(asl).run("exec-1", Json.MAPPER.createObjectNode(),
                sageMaker(List.of(CAPACITY), true), false);
        assertEquals(null, run.error(), run.toString());
        assertEquals(2, run.output().get("CapacityAttempts").size());
    }

    @Test
    void theStateMachineMayPublishOnlyToItsOwnNamespace() {
        String policies = Json.MAPPER.valueToTree(inlinePolicies(f, "TrainingStateMachineRole"))
                .toString();
        assertTrue(policies.contains("{\"Action\":\"cloudwatch:PutMetricData\",\"Condition\":{\"StringEquals\":"
                + "{\"cloudwatch:namespace\":\"" + CapacityPolicy.METRIC_NAMESPACE + "\"}},\"Effect\":\"Allow\","
                + "\"Resource\":\"*\"}"), policies);
    }

    @Test
    void capacityErrorsThroughTheWholeListEndOnS3InAnySubnet() {
        AslSimulator.Run run = run(List.of(CAPACITY, EC2_CAPACITY, CAPACITY, CAPACITY, EC2_CAPACITY));
        assertEquals(null, run.error(), run.toString());
        assertEquals(List.of(600L, 600L), run.waits());
        assertEquals(List.of("ml.p4d.24xlarge", "ml.p4d.24xlarge", "ml.p4d.24xlarge", "ml.p4de.24xlarge",
                "ml.p5.48xlarge", "ml.p5.48xlarge"), instanceTypes(run));
        JsonNode first = jobs(run).get(0).parameters();
        JsonNode last = jobs(run).get(5).parameters();
        assertTrue(first.get("InputDataConfig").get(0).get("DataSource").has("FileSystemDataSource"));
        assertEquals(Json.tree("{\"ChannelName\": \"train\", \"DataSource\": {\"S3DataSource\": {\"S3DataType\": "
                + "\"S3Prefix\", \"S3Uri\": \"s3://team-datasets/imagenet/train/\", \"S3DataDistributionType\": "
                + "\"FullyReplicated\"}}, \"InputMode\": \"FastFile\"}"),
                Json.tree(last.get("InputDataConfig").get(0).toString()));
        assertEquals(first.get("InputDataConfig").get(1), last.get("InputDataConfig").get(1));
        assertEquals(1, first.get("VpcConfig").get("Subnets").size());
        assertEquals(2, last.get("VpcConfig").get("Subnets").size());
        for (int i = 1; i <= 5; i++) {
            assertEquals("States.Format('resnet-{}', States.UUID())", asl.get("States").get("CapacityAttempt" + i)
                    .get("Assign").get("trainingJobName.$").asText());
        }
    }

    @Test
    void aCapacityErrorAfterTheLastAttemptFailsWithTheJobsCause() {
        AslSimulator.Run run = run(List.of(CAPACITY, CAPACITY, CAPACITY, CAPACITY, CAPACITY, CAPACITY));
        assertEquals(TrainingErrors.CAPACITY_EXHAUSTED, run.error());
        assertEquals("States.TaskFailed", Json.read(run.cause()).get("Error").asText(), "the job's error, in the cause");
        assertEquals(6, jobs(run).size());
    }

    @Test
    void aUserErrorIsNotRetried() {
        AslSimulator.Run run = run(List.of(ALGORITHM));
        assertEquals(TrainingErrors.TRAINING_JOB_FAILED, run.error());
        assertEquals(1, jobs(run).size());
        assertEquals(List.of(), run.waits());
    }

    @Test
    void anS3FallbackKeepsARegionalEfsChannelAndRunsInEveryZoneWithAMountTarget() {
        TrainingFixture g = new TrainingFixture();
        g.define(g.props().channels(List.of(g.lustreChannel("train", "train"), g.efsChannel("features", "/features")))
                .capacityPolicy(CapacityPolicy.of(List.of(CapacityStep.s3Fallback()))));
        JsonNode fallback = AslSimulator.definitionOf(g.stack).get("States").get("CapacityAttempt1").get("Assign");
        assertEquals(2, fallback.get("subnets").size(), "a storage subnet in each zone, each with a mount target");
        assertEquals(2, fallback.get("availabilityZones").size());
        assertEquals("S3+EFS", fallback.get("dataSources").asText());
        assertTrue(fallback.get("inputDataConfig").get(1).get("DataSource").get("FileSystemDataSource")
                .get("FileSystemType").asText().equals("EFS"), fallback.toString());
    }

    @Test
    void theLargestPolicyWithEveryRetryAndLongReasonsStaysBelowTheHistoryAndCauseLimits() {
        TrainingFixture g = new TrainingFixture();
        g.define(g.props().channels(List.of(g.lustreChannel("train", "train"))).capacityPolicy(CapacityPolicy.of(
                List.of(CapacityStep.waitAndRetry(Duration.seconds(1), CapacityPolicy.MAX_ATTEMPTS)))));
        String longest = "{\"TrainingJobStatus\":\"Failed\",\"HyperParameters\":{\"notes\":\"" + "n".repeat(8000) + "\"},\"FailureReason\":\"CapacityError: "
                + "\\\"".repeat(500) + "\"}";
        AslSimulator.Run run = new AslSimulator(AslSimulator.definitionOf(g.stack)).run("exec-1",
                Json.MAPPER.createObjectNode(), sageMaker(java.util.Collections.nCopies(CapacityPolicy.MAX_ATTEMPTS + 1,
                        longest), false), true);
        assertEquals(TrainingErrors.CAPACITY_EXHAUSTED, run.error());
        assertEquals(CapacityPolicy.MAX_ATTEMPTS + 1, Json.read(run.cause()).get("CapacityAttempts").size());
        assertTrue(run.events() < 25_000 / 4, run.events() + " history events of 25,000 (Step Functions' limit)");
        assertTrue(run.cause().length() < 32_768, run.cause().length() + " characters of cause, at most 32,768");
    }

    @Test
    void theFallbackMayReadTheDatasetsPrefixOnly() {
        String policies = Json.MAPPER.valueToTree(inlinePolicies(f, "TrainingExecutionRole")).toString();
        assertTrue(policies.contains("\"imagenet/train\",\"imagenet/train/*\""), policies);
        assertTrue(policies.contains("/imagenet/train/*\""), "objects under the prefix: " + policies);
        assertFalse(policies.contains("\"imagenet/*\""), "not the whole dataset: " + policies);
    }

    @Test
    void everyAttemptsRequestSatisfiesTheSageMakerModel() {
        SageMakerModelCheck.assertAttemptsValid(f.stack, 6);
    }

    @Test
    void withoutAPolicyNoCapacityStateIsRendered() {
        TrainingFixture g = new TrainingFixture();
        g.define(g.props().channels(List.of(g.lustreChannel("train", "train"))));
        JsonNode plain = AslSimulator.definitionOf(g.stack);
        assertFalse(plain.get("States").has(TrainingStateMachine.CHECK_CAPACITY_ERROR));
        assertEquals("ml.m5.xlarge", plain.get("States").get("Train").get("Parameters").get("ResourceConfig")
                .get("InstanceType").asText());
    }

    /** @return the statements inline in the roles whose logical ids start with {@code role}; fails when none */
    private static List<Map<String, Object>> inlinePolicies(TrainingFixture f, String role) {
        List<Map<String, Object>> statements = new ArrayList<>();
        Template.fromStack(f.stack).findResources("AWS::IAM::Role").forEach((id, resource) -> {
            if (id.startsWith(role)) {
                statements.addAll(PolicyStatements.of(resource));
            }
        });
        assertFalse(statements.isEmpty(), "no inline statements in a role " + role);
        return statements;
    }
}
