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
