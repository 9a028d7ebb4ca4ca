package io.github.trainingdata.cdk.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.trainingdata.cdk.Intrinsics;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.PolicyStatements;
import io.github.trainingdata.cdk.launch.TrainingErrors;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * The .sync state machine and the SSM parameter: both carry the definition's one request; each execution
 * trains with its own checkpoint prefix unless its input resumes an earlier execution's.
 */
class TrainingStateMachineTest {
    private static final ObjectMapper JSON = Json.MAPPER;
    /** Numbers compare by value: the template writes 28800 where a resolved Java value may be 28800.0. */
    private static final Comparator<JsonNode> BY_VALUE = (a, b) -> a.isNumber() && b.isNumber()
            ? a.decimalValue().compareTo(b.decimalValue()) : (a.equals(b) ? 0 : 1);
    private static final String LIST_OBJECTS = "arn:REF(AWS::Partition):states:::aws-sdk:s3:listObjectsV2";

    private static TrainingFixture f;
    private static TrainingJobDefinition job;
    private static Template template;
    private static JsonNode asl;
    private static JsonNode train;

    @BeforeAll
    static void synthesizeOnce() {
        f = new TrainingFixture();
        job = f.threeStoreJob();
        template = Template.fromStack(f.stack);
        Map<String, Object> machine = AslSimulator.trainingStateMachines(template).values().iterator().next();
        Object definition = ((Map<String, Object>) machine.get("Properties")).get("DefinitionString");
        assertTrue(definition instanceof Map<?, ?> join && join.containsKey("Fn::Join"), "a Fn::Join: " + definition);
        asl = AslSimulator.definitionOf(f.stack);
        train = asl.get("States").get("Train");
    }

    /** @return the definition's request, resolved and evaluated like the template's JSON */
    private static JsonNode expectedRequest() {
        return JSON.valueToTree(Intrinsics.evaluate(f.stack.resolve(job.getRequest())));
    }

    private static void assertSameJson(JsonNode expected, JsonNode actual) {
        assertTrue(expected.equals(BY_VALUE, actual), "expected " + expected + "\n but was " + actual);
    }

    private static List<String> stateNames(JsonNode definition) {
        List<String> states = new ArrayList<>();
        definition.get("States").fieldNames().forEachRemaining(states::add);
        return states;
    }

    /** Runs {@code definition} with the input; listing finds {@code checkpointObjects} objects. */
    private static AslSimulator.Run run(JsonNode definition, String input, int checkpointObjects) {
        return new AslSimulator(definition).run("exec-2", read(input), (resource, parameters, now) -> {
            if (resource.equals(LIST_OBJECTS)) {
                return JSON.valueToTree(Map.of("KeyCount", checkpointObjects));
            }
            return JSON.valueToTree(Map.of("TrainingJobStatus", "Completed"));
        }, false);
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** @return the CheckpointConfig the Train task of {@code result} received */
    private static JsonNode trainedCheckpoints(AslSimulator.Run result) {
        assertEquals(TrainingStateMachine.TRAIN_STATE, result.endState(), "the execution trained: " + result);
        return result.calls().get(result.calls().size() - 1).parameters().get("CheckpointConfig");
    }

    @Test
    void choosesTheCheckpointsThenTrains() {
        assertEquals("ChooseCheckpoints", asl.get("StartAt").asText());
        assertEquals(List.of("ChooseCheckpoints", "FindCheckpointsToResume", "CheckCheckpointsToResume",
                "InvalidResumeFrom", "NoCheckpointsToResume", "NameTrainingJob", "Train", "CheckTrainError",
                "WaitToRetryTrain", "DescribeTrainingJob", "CheckTrainingJob", "WaitForTrainingJob", "TrainingJobCompleted",
                "ClassifyFailedJob", "ChooseFailure", "TrainingJobFailed", "TrainingJobStopped", "CapacityExhausted",
                "QuotaExhausted", "RequestRefused", "TrainingJobUnreadable"), stateNames(asl));
    }

    @Test
    void isOneSyncTaskThatEnds() {
        assertEquals("Task", train.get("Type").asText());
        assertEquals("arn:REF(AWS::Partition):states:::sagemaker:createTrainingJob.sync",
                train.get("Resource").asText());
        assertTrue(train.get("End").asBoolean());
    }

    @Test
    void namesEachJobWithThePrefixAndAUuidOncePerExecution() {
        assertEquals("States.Format('resnet-{}', States.UUID())", asl.get("States").get("NameTrainingJob")
                .get("Assign").get("trainingJobName.$").asText());
        assertEquals("$trainingJobName", train.get("Parameters").get("TrainingJobName.$").asText());
    }

    @Test
    void passesTheRequestMembersAsParametersWithAPerExecutionCheckpointPrefix() {
        ObjectNode parameters = train.get("Parameters").deepCopy();
        parameters.remove("TrainingJobName.$");
        ObjectNode request = expectedRequest().deepCopy();
        assertEquals("s3://team-datasets/checkpoints/resnet/", request.get("CheckpointConfig").get("S3Uri").asText());
        request.set("CheckpointConfig", JSON.valueToTree(Map.of("S3Uri.$",
                "States.Format('s3://team-datasets/checkpoints/resnet/{}/', $checkpointRun)")));
        assertSameJson(request, parameters);
        assertEquals("/GETATT(" + f.stack.getLogicalId(f.lustre().getResource()) + ".LustreMountName)/imagenet/train",
                parameters.get("InputDataConfig").get(1).get("DataSource").get("FileSystemDataSource")
                        .get("DirectoryPath").asText());
    }

    @Test
    void aNewExecutionTrainsUnderItsOwnName() {
        AslSimulator.Run result = run(asl, "{\"learningRate\": 0.1}", 0);
        assertEquals(read("{\"S3Uri\": \"s3://team-datasets/checkpoints/resnet/exec-2/\"}"),
                trainedCheckpoints(result));
        assertEquals(List.of("Train"), result.calls().stream().map(AslSimulator.Call::state).toList());
    }

    @Test
    void resumingReusesTheEarlierExecutionsPrefixOnceItsCheckpointsAreFound() {
        AslSimulator.Run result = run(asl, "{\"resumeFrom\": \"exec-1\"}", 3);
        assertEquals(read("{\"S3Uri\": \"s3://team-datasets/checkpoints/resnet/exec-1/\"}"),
                trainedCheckpoints(result));
        AslSimulator.Call list = result.calls().get(0);
        assertEquals(LIST_OBJECTS, list.resource());
        assertEquals(read("{\"Bucket\": \"team-datasets\", \"Prefix\": \"checkpoints/resnet/exec-1/\", \"MaxKeys\": 1}"),
                list.parameters());
    }

    @Test
    void resumingARunWithoutCheckpointsFails() {
        AslSimulator.Run result = run(asl, "{\"resumeFrom\": \"exec-0\"}", 0);
        assertEquals("NoCheckpointsToResume", result.error());
        assertEquals(1, result.calls().size(), "no training job: " + result.calls());
    }

    @Test
    void resumingFromSomethingOtherThanAName() {
        for (String input : List.of("{\"resumeFrom\": \"\"}", "{\"resumeFrom\": 7}", "{\"resumeFrom\": null}")) {
            AslSimulator.Run result = run(asl, input, 1);
            assertEquals("InvalidResumeFrom", result.error(), input);
            assertEquals(List.of(), result.calls(), input);
        }
    }

    @Test
    void theCheckpointBucketMayBeATokenAndThePrefixIsEscapedForStatesFormat() {
        TrainingFixture g = new TrainingFixture();
        TrainingDataBucket created = new TrainingDataBucket(g.stack, "Created", TrainingDataBucketProps.builder().build());
        g.define(g.props().outputBucket(created).checkpointPrefix("runs/it's"));
        JsonNode definition = AslSimulator.definitionOf(g.stack);
        String bucket = "REF(" + g.stack.getLogicalId(
                (software.amazon.awscdk.CfnElement) created.getBucket().getNode().getDefaultChild()) + ")";
        assertEquals("States.Format('s3://" + bucket + "/runs/it\\'s/{}/', $checkpointRun)",
                definition.at("/States/Train/Parameters/CheckpointConfig/S3Uri.$").asText());
        assertEquals(read("{\"S3Uri\": \"s3://" + bucket + "/runs/it's/exec-2/\"}"),
                trainedCheckpoints(run(definition, "{}", 0)));
    }

    @Test
    void keepsTheCheckpointLocalPath() {
        TrainingFixture g = new TrainingFixture();
        g.define(g.props().checkpointPrefix("ckpt").checkpointLocalPath("/opt/ml/ckpt"));
        assertEquals(read("{\"S3Uri\": \"s3://team-datasets/ckpt/exec-2/\", \"LocalPath\": \"/opt/ml/ckpt\"}"),
                trainedCheckpoints(run(AslSimulator.definitionOf(g.stack), "{}", 0)));
    }

    @Test
    void withoutCheckpointsAnInputThatResumesFails() {
        TrainingFixture g = new TrainingFixture();
        g.define(g.props());
        JsonNode definition = AslSimulator.definitionOf(g.stack);
        assertEquals(List.of("RejectResume", "ResumeWithoutCheckpoints", "NameTrainingJob", "Train",
                "CheckTrainError", "WaitToRetryTrain", "DescribeTrainingJob", "CheckTrainingJob", "WaitForTrainingJob", "TrainingJobCompleted",
                "ClassifyFailedJob", "ChooseFailure", "TrainingJobFailed", "TrainingJobStopped", "CapacityExhausted",
                "QuotaExhausted", "RequestRefused", "TrainingJobUnreadable"), stateNames(definition));
        assertFalse(definition.at("/States/Train/Parameters").has("CheckpointConfig"));
        assertEquals("ResumeWithoutCheckpoints", run(definition, "{\"resumeFrom\": \"exec-1\"}", 1).error());
        assertEquals(TrainingStateMachine.TRAIN_STATE, run(definition, "{}", 0).endState());
        Map<String, Map<String, Object>> roles = Template.fromStack(g.stack).findResources("AWS::IAM::Role");
        List<String> machineRoles = roles.keySet().stream().filter(id -> id.startsWith("TrainingStateMachineRole"))
                .toList();
        assertEquals(1, machineRoles.size(), roles.keySet().toString());
        String statements = PolicyStatements.of(roles.get(machineRoles.get(0))).toString();
        assertTrue(statements.contains("sagemaker:CreateTrainingJob"), "its policy is inline: " + statements);
        assertFalse(statements.contains("s3:ListBucket"), statements);
    }

    @Test
    void logsEverythingAndTraces() {
        Object logGroupArn = Match.objectLike(Map.of("Fn::GetAtt", Match.arrayWith(List.of("Arn"))));
        template.hasResourceProperties("AWS::StepFunctions::StateMachine", Map.of(
                "LoggingConfiguration", Match.objectLike(Map.of("Level", "ALL", "IncludeExecutionData", true,
                        "Destinations", List.of(Map.of("CloudWatchLogsLogGroup", Map.of("LogGroupArn", logGroupArn))))),
                "TracingConfiguration", Map.of("Enabled", true)));
    }

    @Test
    void storesTheSameRequestWithTheBaseCheckpointPrefixInTheParameter() throws Exception {
        Map<String, Object> parameter = (Map<String, Object>) template.findResources("AWS::SSM::Parameter")
                .values().iterator().next();
        Map<String, Object> properties = (Map<String, Object>) parameter.get("Properties");
        assertEquals("Intelligent-Tiering", properties.get("Tier"));
        assertSameJson(expectedRequest(), JSON.readTree(Intrinsics.string(properties.get("Value"))));
    }
    @Test
    void noFailStateReportsAReservedErrorAndEveryTrainingErrorHasOne() {
        TrainingFixture g = new TrainingFixture();
        g.define(g.props().channels(List.of(g.lustreChannel("train", "train"))).capacityPolicy(CapacityPolicy.of(
                List.of(CapacityStep.instanceTypes(List.of("ml.m5.2xlarge"))))));
        java.util.Set<String> errors = new java.util.TreeSet<>();
        for (JsonNode definition : List.of(asl, AslSimulator.definitionOf(g.stack))) {
            definition.get("States").forEach(state -> {
                if ("Fail".equals(state.get("Type").asText())) {
                    String error = state.path("Error").asText();
                    assertFalse(error.startsWith("States.") || error.startsWith("{%") || state.has("ErrorPath"),
                            "a Fail state reports its own error, not a States. one nor one it is given: " + state);
                    errors.add(error);
                }
            });
        }
        java.util.Set<String> expected = new java.util.TreeSet<>(TrainingErrors.ALL);
        expected.remove(TrainingErrors.TRAINING_JOB_STILL_RUNNING); // the launcher's only
        assertTrue(errors.containsAll(expected), errors.toString());
    }
}
