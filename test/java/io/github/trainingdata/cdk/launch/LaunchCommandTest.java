package io.github.trainingdata.cdk.launch;

import static io.github.trainingdata.cdk.launch.TrainingJobDescriptions.describe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.regions.Region;

class LaunchCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final List<Optional<Region>> requestedRegions = new ArrayList<>();
    /** What the command slept: nothing really waits. */
    private final List<java.time.Duration> sleeps = new ArrayList<>();
    private AwsJsonEmulator emulator;
    private LaunchCommand command;

    @BeforeEach
    void start() throws IOException {
        emulator = new AwsJsonEmulator();
        emulator.on(DeployedTrainingJobDefinitionTest.GET_PARAMETER, call -> DeployedTrainingJobDefinitionTest
                .parameterReply("/p", "{\"RoleArn\":\"arn:aws:iam::123456789012:role/R\"}"));
        emulator.on(TrainingJobLauncherTest.CREATE, call -> Reply.ok("{\"TrainingJobArn\":\"arn\"}"));
        command = new LaunchCommand(print(out), print(err),
                region -> {
                    requestedRegions.add(region);
                    return emulator.ssm();
                },
                region -> emulator.sageMaker(),
                region -> emulator.stepFunctions(),
                sleeps::add);
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    private String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void startsAJobAndPrintsItsName() {
        int exit = command.run(new String[] {"--parameter", "/p", "--job-name-prefix", "nightly", "--region", "eu-west-1"});

        assertEquals(LaunchCommand.EXIT_OK, exit, text(err));
        String jobName = text(out).strip();
        assertTrue(jobName.matches("nightly-\\d{8}-\\d{6}-[0-9a-f]{4}"), jobName);
        assertEquals(List.of(Optional.of(Region.EU_WEST_1)), requestedRegions);
        assertEquals(List.of(), emulator.calls(TrainingJobLauncherTest.DESCRIBE));
    }

    @Test
    void readsARequestKeptInTheStateMachine() throws IOException {
        String document = TrainingJobLauncherTest.realisticDocument();
        emulator.on(DeployedTrainingJobDefinitionTest.GET_PARAMETER, call -> DeployedTrainingJobDefinitionTest
                .parameterReply("/p", DeployedTrainingJobDefinitionTest.pointer("s3://training-data-123456789012/checkpoints/")));
        emulator.on(DeployedTrainingJobDefinitionTest.DESCRIBE_STATE_MACHINE,
                call -> DeployedTrainingJobDefinitionTest.stateMachineReply(document));

        int exit = command.run(new String[] {"--parameter", "/p", "--job-name-prefix", "nightly"});

        assertEquals(LaunchCommand.EXIT_OK, exit, text(err));
        String job = text(out).strip();
        assertEquals(Json.treeWithJob(document, job, "s3://training-data-123456789012/checkpoints/" + job + "/"),
                Json.tree(emulator.calls(TrainingJobLauncherTest.CREATE).get(0).body()));
    }

    @Test
    void resumesAnEarlierRunWhenAsked() {
        emulator.on(DeployedTrainingJobDefinitionTest.GET_PARAMETER, call -> DeployedTrainingJobDefinitionTest
                .parameterReply("/p", "{\"CheckpointConfig\":{\"S3Uri\":\"s3://b/ckpt/\"}}"));

        int exit = command.run(new String[] {"--parameter", "/p", "--job-name-prefix", "nightly", "--resume-from",
            "nightly-20260303-010203-00af"});

        assertEquals(LaunchCommand.EXIT_OK, exit, text(err));
        assertEquals("s3://b/ckpt/nightly-20260303-010203-00af/", emulator.calls(TrainingJobLauncherTest.CREATE)
                .get(0).json().required("CheckpointConfig").required("S3Uri").textValue());
    }

    @Test
    void resumingADefinitionWithoutCheckpointsFailsWithTheReason() {
        int exit = command.run(new String[] {"--parameter", "/p", "--job-name-prefix", "nightly", "--resume-from",
            "nightly-20260303-010203-00af"});

        assertEquals(LaunchCommand.EXIT_FAILED, exit);
        assertEquals("Cannot resume from nightly-20260303-010203-00af: the document has no CheckpointConfig (the "
                + "definition keeps no checkpoints)", text(err).strip());
        assertEquals(List.of(), emulator.calls(TrainingJobLauncherTest.CREATE));
    }

    @Test
    void waitsForTheJobWhenAsked() {
        emulator.on(TrainingJobLauncherTest.DESCRIBE, call -> Reply.ok(describe("j", "Completed", "Completed")));

        int exit = command.run(new String[] {"--wait", "--job-name-prefix", "nightly", "--parameter", "/p"});

        assertEquals(LaunchCommand.EXIT_OK, exit, text(err));
        assertEquals(List.of(Optional.empty()), requestedRegions);
        assertEquals(text(out).strip() + ": Completed / Completed", text(err).strip());
    }

    @Test
    void aFailedJobExitsWithItsReason() {
        emulator.on(TrainingJobLauncherTest.DESCRIBE, call -> Reply.ok(
                describe("j", "Failed", "Failed", "\"FailureReason\":\"AlgorithmError: exit code 3\",")));

        int exit = command.run(new String[] {"--parameter", "/p", "--job-name-prefix", "nightly", "--wait"});

        assertEquals(LaunchCommand.EXIT_FAILED, exit);
        assertTrue(text(err).contains(TrainingErrors.TRAINING_JOB_FAILED + ": Training job "), text(err));
        assertTrue(text(err).contains("failed: AlgorithmError: exit code 3"), text(err));
    }

    @Test
    void aRefusedRequestExitsWithRequestRefused() {
        emulator.on(TrainingJobLauncherTest.CREATE, call -> Reply.error(400, "ValidationException", "bad volume"));
        emulator.on(TrainingJobLauncherTest.DESCRIBE, call -> Reply.error(400, "ValidationException", "not found"));

        int exit = command.run(new String[] {"--parameter", "/p", "--job-name-prefix", "nightly"});

        assertEquals(LaunchCommand.EXIT_FAILED, exit);
        assertTrue(text(err).startsWith(TrainingErrors.REQUEST_REFUSED + ": bad volume"), text(err));
    }

    @Test
    void aJobThatCannotBeDescribedWhileWaitingIsNotCalledARefusedRequest() {
        emulator.on(TrainingJobLauncherTest.DESCRIBE, call -> Reply.error(400, "AccessDeniedException",
                "not authorized to perform sagemaker:DescribeTrainingJob"));

        int exit = command.run(new String[] {"--parameter", "/p", "--job-name-prefix", "nightly", "--wait"});

        assertEquals(LaunchCommand.EXIT_FAILED, exit);
        String job = text(out).strip();
        assertTrue(text(err).startsWith(TrainingErrors.TRAINING_JOB_UNREADABLE + ": "), text(err));
        assertTrue(text(err).contains(job) && text(err).contains("not authorized"), text(err));
    }

    @Test
    void aCapacityRunWhoseJobCannotBeDescribedEndsUnreadable() throws IOException {
        deployWithCapacityPolicy();
        emulator.on(TrainingJobLauncherTest.DESCRIBE, call -> Reply.error(400, "AccessDeniedException",
                "not authorized to perform sagemaker:DescribeTrainingJob"));

        int exit = command.run(new String[] {"--parameter", "/p", "--job-name-prefix", "nightly", "--capacity-policy",
            "/p/capacity"});

        assertEquals(LaunchCommand.EXIT_FAILED, exit);
        assertTrue(text(err).strip().lines().reduce((a, b) -> b).orElseThrow()
                .startsWith(TrainingErrors.TRAINING_JOB_UNREADABLE + ": "), text(err));
    }

    /** Parameter {@code /p} holds the realistic document, any other the capacity plan for it. */
    private void deployWithCapacityPolicy() throws IOException {
        String document = TrainingJobLauncherTest.realisticDocument();
        emulator.on(DeployedTrainingJobDefinitionTest.GET_PARAMETER, call -> DeployedTrainingJobDefinitionTest
                .parameterReply("/p", call.json().required("Name").textValue().equals("/p") ? document
                        : TrainingJobLauncherCapacityTest.PLAN));
    }

    @Test
    void runsTheCapacityPolicyAndPrintsOneLinePerAttempt() throws IOException {
        deployWithCapacityPolicy();
        emulator.on(TrainingJobLauncherTest.DESCRIBE, call -> {
            String job = call.json().required("TrainingJobName").textValue();
            return Reply.ok(emulator.calls(TrainingJobLauncherTest.CREATE).size() < 4
                    ? describe(job, "Failed", "Failed", "\"FailureReason\":\"" + TrainingJobLauncherCapacityTest.CAPACITY
                            + "\",")
                    : describe(job, "Completed", "Completed"));
        });

        int exit = command.run(new String[] {"--parameter", "/p", "--job-name-prefix", "nightly", "--capacity-policy",
            "/p/capacity"});

        assertEquals(LaunchCommand.EXIT_OK, exit, text(err));
        List<String> lines = text(out).lines().toList();
        List<String> jobs = emulator.calls(TrainingJobLauncherTest.CREATE).stream()
                .map(call -> call.json().required("TrainingJobName").textValue()).toList();
        assertEquals(List.of(
                jobs.get(0) + "\tml.g5.2xlarge\tS3+FSxLustre+EFS\tus-east-1a\tCapacityError\t"
                        + TrainingJobLauncherCapacityTest.CAPACITY,
                jobs.get(1) + "\tml.g5.2xlarge\tS3+FSxLustre+EFS\tus-east-1a\tCapacityError\t"
                        + TrainingJobLauncherCapacityTest.CAPACITY,
                jobs.get(2) + "\tml.g5.4xlarge\tS3+FSxLustre+EFS\tus-east-1a\tCapacityError\t"
                        + TrainingJobLauncherCapacityTest.CAPACITY,
                jobs.get(3) + "\tml.g5.4xlarge\tS3+EFS\tus-east-1a,us-east-1b\tCompleted\t"), lines);
        assertEquals(List.of(java.time.Duration.ofSeconds(600)), sleeps);
        assertEquals(List.of("/p", "/p/capacity"), emulator.calls(DeployedTrainingJobDefinitionTest.GET_PARAMETER)
                .stream().map(call -> call.json().required("Name").textValue()).sorted().toList());
    }

    @Test
    void aCapacityPolicyRunWithoutACompletedJobExitsFailed() throws IOException {
        deployWithCapacityPolicy();
        emulator.on(TrainingJobLauncherTest.DESCRIBE, call -> Reply.ok(describe("j", "Failed", "Failed",
                "\"FailureReason\":\"AlgorithmError: exit code 3\",")));

        int exit = command.run(new String[] {"--parameter", "/p", "--job-name-prefix", "nightly", "--capacity-policy",
            "/p/capacity"});

        assertEquals(LaunchCommand.EXIT_FAILED, exit);
        assertTrue(text(out).strip().endsWith("\tFailed\tAlgorithmError: exit code 3"), text(out));
        assertEquals(1, emulator.calls(TrainingJobLauncherTest.CREATE).size());
        assertTrue(text(err).strip().endsWith(TrainingErrors.TRAINING_JOB_FAILED + ": AlgorithmError: exit code 3"),
                text(err));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "--parameter /p",
        "--job-name-prefix nightly",
        "--parameter /p --job-name-prefix",
        "--parameter --job-name-prefix nightly",
        "--parameter /p --job-name-prefix nightly --verbose",
        "--parameter /p --job-name-prefix night_ly",
        "--parameter /p --job-name-prefix nightly --resume-from",
        "--parameter /p --job-name-prefix nightly --resume-from run*1",
        "--parameter /p --job-name-prefix nightly --capacity-policy"})
    void badFlagsExitWithUsage(String args) {
        int exit = command.run(args.split(" "));

        assertEquals(LaunchCommand.EXIT_USAGE, exit);
        assertTrue(text(err).endsWith(LaunchCommand.USAGE + System.lineSeparator()), text(err));
        assertEquals(List.of(), emulator.calls());
        assertEquals("", text(out));
    }
}
