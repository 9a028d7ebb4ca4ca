package io.github.trainingdata.cdk.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import com.fasterxml.jackson.databind.node.ObjectNode;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.ssm.SsmClient;

class DeployedTrainingJobDefinitionTest {
    static final String GET_PARAMETER = "AmazonSSM.GetParameter";
    static final String DESCRIBE_STATE_MACHINE = "AWSStepFunctions.DescribeStateMachine";
    private static final String STATE_MACHINE = "arn:aws:states:us-east-1:123456789012:stateMachine:TrainingStateMachine1A2B";
    private static final String BASE = "s3://training-data-123456789012/checkpoints/";

    /** A GetParameter answer in SSM's JSON shape holding the document. */
    static Reply parameterReply(String name, String document) {
        String escaped = document.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
        return Reply.ok("{\"Parameter\":{\"Name\":\"" + name + "\",\"Type\":\"String\",\"Value\":\"" + escaped
                + "\",\"Version\":3,\"DataType\":\"text\",\"LastModifiedDate\":1767225600.5,"
                + "\"ARN\":\"arn:aws:ssm:us-east-1:123456789012:parameter" + name + "\"}}");
    }

    /** What one start against the emulator did: the job it named and every call it made. */
    private record Started(String jobName, List<AwsJsonEmulator.Call> calls) {
        String body(String target) {
            return calls.stream().filter(call -> call.target().equals(target)).findFirst().orElseThrow().body();
        }
    }

    /** Starts a job with {@code start} from a deployed parameter holding {@code document}, against the emulator. */
    private static Started start(String document,
            BiFunction<DeployedTrainingJobDefinition, TrainingJobLauncher, String> start) throws IOException {
        try (AwsJsonEmulator emulator = new AwsJsonEmulator();
                SsmClient ssm = emulator.ssm();
                SageMakerClient sageMaker = emulator.sageMaker()) {
            emulator.on(GET_PARAMETER, call -> parameterReply("/training/resnet/definition", document));
            emulator.on(TrainingJobLauncherTest.CREATE, call -> Reply.ok("{\"TrainingJobArn\":\"arn\"}"));
            TrainingJobLauncher launcher = new TrainingJobLauncher(
                    sageMaker, new MutableClock(Instant.parse("2026-01-02T03:04:05Z")), duration -> { }, new Random(3));
            String jobName = start.apply(new DeployedTrainingJobDefinition(ssm, "/training/resnet/definition"), launcher);
            return new Started(jobName, List.copyOf(emulator.calls()));
        }
    }

    @Test
    void launchesWhatTheParameterHolds() throws IOException {
        String document = TrainingJobLauncherTest.realisticDocument();
        Started started = start(document, (deployed, launcher) -> deployed.launch(launcher, "resnet"));

        assertEquals(List.of(GET_PARAMETER, TrainingJobLauncherTest.CREATE),
                started.calls().stream().map(AwsJsonEmulator.Call::target).toList());
        assertEquals(Json.tree("{\"Name\":\"/training/resnet/definition\"}"), Json.tree(started.body(GET_PARAMETER)));
        assertEquals(Json.treeWithJob(document, started.jobName(),
                "s3://training-data-123456789012/checkpoints/" + started.jobName() + "/"),
                Json.tree(started.body(TrainingJobLauncherTest.CREATE)));
    }

    @Test
    void resumesAnEarlierRunWithWhatTheParameterHolds() throws IOException {
        String document = TrainingJobLauncherTest.realisticDocument();
        Started started = start(document,
                (deployed, launcher) -> deployed.resume(launcher, "resnet", "nightly-execution-41"));

        assertEquals(Json.treeWithJob(document, started.jobName(),
                "s3://training-data-123456789012/checkpoints/nightly-execution-41/"),
                Json.tree(started.body(TrainingJobLauncherTest.CREATE)));
    }

    /** What a definition whose request may exceed 8 KB stores: a pointer to its state machine's training state. */
    static String pointer(String checkpointS3Uri) {
        return "{\"RequestInStateMachine\":{\"StateMachineArn\":\"" + STATE_MACHINE + "\",\"StateName\":\"Train\""
                + (checkpointS3Uri != null ? ",\"CheckpointS3Uri\":\"" + checkpointS3Uri + "\"" : "") + "}}";
    }

    /**
     * A DescribeStateMachine answer whose {@code Train} state has the document as Parameters, the way the training
     * state machine renders it: a job name and a checkpoint URI computed per execution, the rest as it is.
     */
    static Reply stateMachineReply(String document) {
        ObjectNode parameters = Json.MAPPER.createObjectNode();
        parameters.put("TrainingJobName.$", "States.Format('resnet-{}', States.UUID())");
        ((ObjectNode) Json.read(document)).properties().forEach(member -> parameters.set(member.getKey(), member.getValue()));
        if (parameters.get("CheckpointConfig") instanceof ObjectNode checkpoints) {
            ObjectNode perExecution = Json.MAPPER.createObjectNode();
            perExecution.put("S3Uri.$", "States.Format('" + BASE + "{}/', $checkpointRun)");
            checkpoints.properties().stream().filter(member -> !member.getKey().equals("S3Uri"))
                    .forEach(member -> perExecution.set(member.getKey(), member.getValue()));
            parameters.set("CheckpointConfig", perExecution);
        }
        ObjectNode definition = Json.MAPPER.createObjectNode();
        definition.put("StartAt", "Train");
        definition.putObject("States").putObject("Train").put("Type", "Task")
                .put("Resource", "arn:aws:states:::sagemaker:createTrainingJob.sync").put("End", true)
                .set("Parameters", parameters);
        ObjectNode reply = Json.MAPPER.createObjectNode().put("stateMachineArn", STATE_MACHINE)
                .put("name", "TrainingStateMachine1A2B").put("status", "ACTIVE").put("definition", definition.toString())
                .put("roleArn", "arn:aws:iam::123456789012:role/sm").put("type", "STANDARD")
                .put("creationDate", 1767225600);
        return Reply.ok(reply.toString());
    }

    @Test
    void followsAPointerToTheRequestInTheStateMachine() throws IOException {
        String document = TrainingJobLauncherTest.realisticDocument();
        try (AwsJsonEmulator emulator = new AwsJsonEmulator(); SsmClient ssm = emulator.ssm();
                SfnClient sfn = emulator.stepFunctions()) {
            emulator.on(GET_PARAMETER, call -> parameterReply("/training/resnet/definition", pointer(BASE)));
            emulator.on(DESCRIBE_STATE_MACHINE, call -> stateMachineReply(document));

            String read = new DeployedTrainingJobDefinition(ssm, sfn, "/training/resnet/definition").document();

            assertEquals(Json.tree(document), Json.tree(read));
            assertEquals(List.of(GET_PARAMETER, DESCRIBE_STATE_MACHINE),
                    emulator.calls().stream().map(AwsJsonEmulator.Call::target).toList());
            assertEquals(Json.tree("{\"stateMachineArn\":\"" + STATE_MACHINE + "\"}"),
                    Json.tree(emulator.calls(DESCRIBE_STATE_MACHINE).get(0).body()));
        }
    }

    @Test
    void aPointerWithoutCheckpointsRestoresNone() throws IOException {
        ObjectNode document = (ObjectNode) Json.read(TrainingJobLauncherTest.realisticDocument());
        document.remove("CheckpointConfig");
        try (AwsJsonEmulator emulator = new AwsJsonEmulator(); SsmClient ssm = emulator.ssm();
                SfnClient sfn = emulator.stepFunctions()) {
            emulator.on(GET_PARAMETER, call -> parameterReply("/p", pointer(null)));
            emulator.on(DESCRIBE_STATE_MACHINE, call -> stateMachineReply(document.toString()));

            assertEquals(Json.tree(document.toString()), Json.tree(new DeployedTrainingJobDefinition(ssm, sfn, "/p").document()));
        }
    }

    @Test
    void aPointerNeedsAStepFunctionsClient() throws IOException {
        try (AwsJsonEmulator emulator = new AwsJsonEmulator(); SsmClient ssm = emulator.ssm()) {
            emulator.on(GET_PARAMETER, call -> parameterReply("/p", pointer(BASE)));

            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> new DeployedTrainingJobDefinition(ssm, "/p").document());

            assertEquals("SSM parameter /p points at the request in state machine " + STATE_MACHINE + " (it is larger "
                    + "than an SSM parameter holds): read it with new DeployedTrainingJobDefinition(ssm, stepFunctions, "
                    + "parameterName)", e.getMessage());
        }
    }

    @Test
    void aPointerToAMissingStateMachineOrStateSaysSo() throws IOException {
        try (AwsJsonEmulator emulator = new AwsJsonEmulator(); SsmClient ssm = emulator.ssm();
                SfnClient sfn = emulator.stepFunctions()) {
            emulator.on(GET_PARAMETER, call -> parameterReply("/p", pointer(BASE)));
            emulator.onSequence(DESCRIBE_STATE_MACHINE, Reply.error(400, "StateMachineDoesNotExist", "State Machine Does Not Exist"),
                    Reply.ok("{\"stateMachineArn\":\"" + STATE_MACHINE + "\",\"name\":\"x\",\"definition\":"
                            + "\"{\\\"StartAt\\\":\\\"Wait\\\",\\\"States\\\":{}}\",\"roleArn\":\"r\",\"type\":\"STANDARD\","
                            + "\"creationDate\":1767225600}"));
            DeployedTrainingJobDefinition definition = new DeployedTrainingJobDefinition(ssm, sfn, "/p");

            assertEquals("State machine " + STATE_MACHINE + ", which SSM parameter /p points at, does not exist: is the "
                    + "stack deployed in this account and Region?",
                    assertThrows(IllegalArgumentException.class, definition::document).getMessage());
            assertEquals("State machine " + STATE_MACHINE + " has no state Train with Parameters: is it a training "
                    + "definition's state machine?", assertThrows(IllegalArgumentException.class, definition::document)
                    .getMessage());
        }
    }

    static final String GET_PARAMETERS = "AmazonSSM.GetParameters";

    /** A GetParameters answer in SSM's JSON shape: the asked names {@code parts} holds, the others invalid. */
    private static Reply partsReply(AwsJsonEmulator.Call call, java.util.Map<String, String> parts) {
        ObjectNode reply = Json.MAPPER.createObjectNode();
        com.fasterxml.jackson.databind.node.ArrayNode found = reply.putArray("Parameters");
        com.fasterxml.jackson.databind.node.ArrayNode invalid = reply.putArray("InvalidParameters");
        // SSM lists the parameters it found in alphabetical order, not in the order asked.
        java.util.TreeSet<String> asked = new java.util.TreeSet<>();
        call.json().get("Names").forEach(name -> asked.add(name.asText()));
        for (String name : asked) {
            if (parts.containsKey(name)) {
                found.addObject().put("Name", name).put("Type", "String").put("Value", parts.get(name))
                        .put("Version", 1).put("DataType", "text");
            } else {
                invalid.add(name);
            }
        }
        return Reply.ok(reply.toString());
    }

    /** The document cut into {@code count} parts named {@code /p/part-1}…, as a definition splits it. */
    private static java.util.Map<String, String> split(String document, int count) {
        java.util.Map<String, String> parts = new java.util.LinkedHashMap<>();
        int size = (document.length() + count - 1) / count;
        for (int i = 0; i < count; i++) {
            parts.put("/p/part-" + (i + 1), document.substring(Math.min(document.length(), i * size),
                    Math.min(document.length(), (i + 1) * size)));
        }
        return parts;
    }

    @Test
    void joinsTheRequestsPartsTenPerCallAndLaunchesIt() throws IOException {
        String document = TrainingJobLauncherTest.realisticDocument();
        java.util.Map<String, String> parts = split(document, 12);
        try (AwsJsonEmulator emulator = new AwsJsonEmulator(); SsmClient ssm = emulator.ssm();
                SageMakerClient sageMaker = emulator.sageMaker()) {
            emulator.on(GET_PARAMETER, call -> parameterReply("/training/resnet/definition",
                    "{\"RequestParts\":{\"Prefix\":\"/p/part-\",\"Count\":12}}"));
            emulator.on(GET_PARAMETERS, call -> partsReply(call, parts));
            emulator.on(TrainingJobLauncherTest.CREATE, call -> Reply.ok("{\"TrainingJobArn\":\"arn\"}"));
            TrainingJobLauncher launcher = new TrainingJobLauncher(
                    sageMaker, new MutableClock(Instant.parse("2026-01-02T03:04:05Z")), duration -> { }, new Random(3));

            String jobName = new DeployedTrainingJobDefinition(ssm, "/training/resnet/definition")
                    .launch(launcher, "resnet");

            assertEquals(List.of(GET_PARAMETER, GET_PARAMETERS, GET_PARAMETERS, TrainingJobLauncherTest.CREATE),
                    emulator.calls().stream().map(AwsJsonEmulator.Call::target).toList());
            assertEquals(Json.tree("{\"Names\":[\"/p/part-1\",\"/p/part-2\",\"/p/part-3\",\"/p/part-4\","
                    + "\"/p/part-5\",\"/p/part-6\",\"/p/part-7\",\"/p/part-8\",\"/p/part-9\",\"/p/part-10\"]}"),
                    Json.tree(emulator.calls(GET_PARAMETERS).get(0).body()));
            assertEquals(Json.tree("{\"Names\":[\"/p/part-11\",\"/p/part-12\"]}"),
                    Json.tree(emulator.calls(GET_PARAMETERS).get(1).body()));
            assertEquals(Json.treeWithJob(document, jobName,
                    "s3://training-data-123456789012/checkpoints/" + jobName + "/"),
                    Json.tree(emulator.calls(TrainingJobLauncherTest.CREATE).get(0).body()));
        }
    }

    @Test
    void aMissingPartSaysWhichOne() throws IOException {
        java.util.Map<String, String> parts = split(TrainingJobLauncherTest.realisticDocument(), 3);
        parts.remove("/p/part-2");
        try (AwsJsonEmulator emulator = new AwsJsonEmulator(); SsmClient ssm = emulator.ssm()) {
            emulator.on(GET_PARAMETER, call -> parameterReply("/p",
                    "{\"RequestParts\":{\"Prefix\":\"/p/part-\",\"Count\":3}}"));
            emulator.on(GET_PARAMETERS, call -> partsReply(call, parts));

            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new DeployedTrainingJobDefinition(ssm, "/p").document());

            assertEquals("SSM parameter /p splits the request into 3 parts, but /p/part-2 does not exist: is the "
                    + "stack deployed (or being updated, which replaces the parts) in this account and Region?",
                    e.getMessage());
        }
    }

    @Test
    void aMissingParameterSaysSo() throws IOException {
        try (AwsJsonEmulator emulator = new AwsJsonEmulator(); SsmClient ssm = emulator.ssm()) {
            emulator.on(GET_PARAMETER, call -> Reply.error(400, "ParameterNotFound", ""));

            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new DeployedTrainingJobDefinition(ssm, "/nope").document());

            assertEquals("SSM parameter /nope does not exist: is the stack deployed in this account and Region?",
                    e.getMessage());
        }
    }

    @Test
    void readsTheCapacityPlanFromItsOwnParameter() throws IOException {
        try (AwsJsonEmulator emulator = new AwsJsonEmulator(); SsmClient ssm = emulator.ssm()) {
            emulator.on(GET_PARAMETER, call -> parameterReply("/training/resnet/capacity",
                    TrainingJobLauncherCapacityTest.PLAN));

            CapacityPlan plan = new DeployedTrainingJobDefinition(ssm, "/training/resnet/definition")
                    .capacityPlan("/training/resnet/capacity");

            assertEquals(3, plan.attempts().size());
            assertEquals(TrainingJobLauncherCapacityTest.FALLBACK_SUBNETS, plan.s3FallbackSubnets());
            assertEquals(Json.tree("{\"Name\":\"/training/resnet/capacity\"}"),
                    Json.tree(emulator.calls(GET_PARAMETER).get(0).body()));
        }
    }

    @Test
    void aMissingCapacityPlanParameterSaysSo() throws IOException {
        try (AwsJsonEmulator emulator = new AwsJsonEmulator(); SsmClient ssm = emulator.ssm()) {
            emulator.on(GET_PARAMETER, call -> Reply.error(400, "ParameterNotFound", ""));

            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new DeployedTrainingJobDefinition(ssm, "/p").capacityPlan("/nope"));

            assertEquals("SSM parameter /nope does not exist: is the stack deployed in this account and Region?",
                    e.getMessage());
        }
    }
}
