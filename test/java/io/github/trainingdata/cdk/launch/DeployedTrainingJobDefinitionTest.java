package io.github.trainingdata.cdk.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.ssm.SsmClient;

class DeployedTrainingJobDefinitionTest {
    static final String GET_PARAMETER = "AmazonSSM.GetParameter";

    /** A GetParameter answer in SSM's JSON shape holding the document. */
    static Reply parameterReply(String name, String document) {
        String escaped = document.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
        return Reply.ok("{\"Parameter\":{\"Name\":\"" + name + "\",\"Type\":\"String\",\"Value\":\"" + escaped
                + "\",\"Version\":3,\"DataType\":\"text\",\"LastModifiedDate\":1767225600.5,"
                + "\"ARN\":\"arn:aws:ssm:us-east-1:123456789012:parameter" + name + "\"}}");
    }

    @Test
    void launchesWhatTheParameterHolds() throws IOException {
        String document = TrainingJobLauncherTest.realisticDocument();
        try (AwsJsonEmulator emulator = new AwsJsonEmulator();
                SsmClient ssm = emulator.ssm();
                SageMakerClient sageMaker = emulator.sageMaker()) {
            emulator.on(GET_PARAMETER, call -> parameterReply("/training/resnet/definition", document));
            emulator.on(TrainingJobLauncherTest.CREATE, call -> Reply.ok("{\"TrainingJobArn\":\"arn\"}"));
            TrainingJobLauncher launcher = new TrainingJobLauncher(
                    sageMaker, new MutableClock(Instant.parse("2026-01-02T03:04:05Z")), duration -> { }, new Random(3));

            String jobName = new DeployedTrainingJobDefinition(ssm, "/training/resnet/definition")
                    .launch(launcher, "resnet");

            assertEquals(List.of(GET_PARAMETER, TrainingJobLauncherTest.CREATE),
                    emulator.calls().stream().map(AwsJsonEmulator.Call::target).toList());
            assertEquals(Json.tree("{\"Name\":\"/training/resnet/definition\"}"),
                    Json.tree(emulator.calls(GET_PARAMETER).get(0).body()));
            assertEquals(Json.treeWithJob(document, jobName,
                    "s3://training-data-123456789012/checkpoints/" + jobName + "/"),
                    Json.tree(emulator.calls(TrainingJobLauncherTest.CREATE).get(0).body()));
        }
    }

    @Test
    void resumesAnEarlierRunWithWhatTheParameterHolds() throws IOException {
        String document = TrainingJobLauncherTest.realisticDocument();
        try (AwsJsonEmulator emulator = new AwsJsonEmulator();
                SsmClient ssm = emulator.ssm();
                SageMakerClient sageMaker = emulator.sageMaker()) {
            emulator.on(GET_PARAMETER, call -> parameterReply("/training/resnet/definition", document));
            emulator.on(TrainingJobLauncherTest.CREATE, call -> Reply.ok("{\"TrainingJobArn\":\"arn\"}"));
            TrainingJobLauncher launcher = new TrainingJobLauncher(
                    sageMaker, new MutableClock(Instant.parse("2026-01-02T03:04:05Z")), duration -> { }, new Random(3));

            String jobName = new DeployedTrainingJobDefinition(ssm, "/training/resnet/definition")
                    .resume(launcher, "resnet", "nightly-execution-41");

            assertEquals(Json.treeWithJob(document, jobName,
                    "s3://training-data-123456789012/checkpoints/nightly-execution-41/"),
                    Json.tree(emulator.calls(TrainingJobLauncherTest.CREATE).get(0).body()));
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
}
