package io.github.trainingdata.cdk.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.trainingdata.cdk.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.assertions.Match;
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

    /** Runs an execution whose jobs fail with {@code failures} (Step Functions error, cause) in turn, then succeed. */
    private AslSimulator.Run run(List<String> causes) {
        List<String> left = new ArrayList<>(causes);
        return new AslSimulator(asl).run("exec-1", Json.MAPPER.createObjectNode(), (resource, parameters, now) -> {
            if (!left.isEmpty()) {
                throw new AslSimulator.TaskError("States.TaskFailed", left.remove(0));
            }
            return Json.MAPPER.valueToTree(Map.of("TrainingJobStatus", "Completed"));
        }, false);
    }

    private static List<String> instanceTypes(AslSimulator.Run run) {
        return run.calls().stream().map(c -> c.parameters().get("ResourceConfig").get("InstanceType").asText()).toList();
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
    void capacityErrorsThroughTheWholeListEndOnS3InAnySubnet() {
        AslSimulator.Run run = run(List.of(CAPACITY, EC2_CAPACITY, CAPACITY, CAPACITY, EC2_CAPACITY));
        assertEquals(null, run.error(), run.toString());
        assertEquals(List.of(600L, 600L), run.waits());
        assertEquals(List.of("ml.p4d.24xlarge", "ml.p4d.24xlarge", "ml.p4d.24xlarge", "ml.p4de.24xlarge",
                "ml.p5.48xlarge", "ml.p5.48xlarge"), instanceTypes(run));
        JsonNode first = run.calls().get(0).parameters();
        JsonNode last = run.calls().get(5).parameters();
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
        assertEquals("TrainingFailed", run.endState());
        assertEquals("States.TaskFailed", run.error());
        assertEquals(6, run.calls().size());
    }

    @Test
    void aUserErrorIsNotRetried() {
        AslSimulator.Run run = run(List.of(ALGORITHM));
        assertEquals("TrainingFailed", run.endState());
        assertEquals(1, run.calls().size());
        assertEquals(List.of(), run.waits());
    }

    @Test
    void theFallbackMayReadTheDatasetsPrefixOnly() {
        String policies = Json.MAPPER.valueToTree(Template.fromStack(f.stack).findResources("AWS::IAM::Policy",
                Map.of("Properties", Map.of("PolicyName", Match.stringLikeRegexp("TrainingExecutionRole.*"))))).toString();
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
}
