package io.github.trainingdata.cdk.launch;

import static io.github.trainingdata.cdk.launch.TrainingJobDescriptions.describe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ResourceInUseException;
import software.amazon.awssdk.services.sagemaker.model.DescribeTrainingJobResponse;
import software.amazon.awssdk.services.sagemaker.model.TrainingJobStatus;

class TrainingJobLauncherTest {
    static final String CREATE = "SageMaker.CreateTrainingJob";
    static final String DESCRIBE = "SageMaker.DescribeTrainingJob";
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    /** The checkpoint URI of the realistic document: the base under which each run gets its prefix. */
    private static final String BASE = "s3://training-data-123456789012/checkpoints/";

    private AwsJsonEmulator emulator;
    private SageMakerClient sageMaker;
    private MutableClock clock;
    private List<Duration> sleeps;
    private TrainingJobLauncher launcher;

    @BeforeEach
    void start() throws IOException {
        emulator = new AwsJsonEmulator();
        emulator.on(CREATE, call -> Reply.ok("{\"TrainingJobArn\":\"arn:aws:sagemaker:us-east-1:123456789012:training-job/"
                + call.json().required("TrainingJobName").textValue() + "\"}"));
        sageMaker = emulator.sageMaker();
        clock = new MutableClock(NOW);
        sleeps = new ArrayList<>();
        launcher = new TrainingJobLauncher(sageMaker, clock, duration -> {
            sleeps.add(duration);
            clock.advance(duration);
        }, new Random(7));
    }

    @AfterEach
    void stop() {
        sageMaker.close();
        emulator.close();
    }

    static String realisticDocument() throws IOException {
        try (InputStream in = TrainingJobLauncherTest.class.getResourceAsStream("realistic-training-job.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void startSendsTheDocumentWithTheJobNameAndCheckpointsUnderTheJobName() throws IOException {
        String document = realisticDocument();

        String jobName = launcher.start(document, "resnet-train");

        assertTrue(jobName.matches("resnet-train-20260304-050607-[0-9a-f]{4}"), jobName);
        assertEquals(List.of(CREATE), emulator.calls().stream().map(AwsJsonEmulator.Call::target).toList());
        assertEquals(Json.treeWithJob(document, jobName, BASE + jobName + "/"),
                Json.tree(emulator.calls(CREATE).get(0).body()));
    }

    @Test
    void everyStartGetsItsOwnCheckpointPrefix() throws IOException {
        String document = realisticDocument();
        String first = launcher.start(document, "resnet");
        String second = launcher.start(document, "resnet");

        assertEquals(List.of(BASE + first + "/", BASE + second + "/"), emulator.calls(CREATE).stream()
                .map(call -> call.json().required("CheckpointConfig").required("S3Uri").textValue()).toList());
        assertTrue(!first.equals(second), first);
    }

    @Test
    void aDocumentWithoutCheckpointsIsSentAsItIs() {
        String document = "{\"RoleArn\":\"arn:aws:iam::123456789012:role/R\"}";

        String jobName = launcher.start(document, "plain");

        assertEquals(Json.treeWith(document, "TrainingJobName", jobName),
                Json.tree(emulator.calls(CREATE).get(0).body()));
    }

    @Test
    void resumeTrainsOnTheCheckpointsOfTheEarlierRun() throws IOException {
        String document = realisticDocument();

        String jobName = launcher.resume(document, "resnet", "resnet-20260303-010203-00af");

        assertEquals(Json.treeWithJob(document, jobName, BASE + "resnet-20260303-010203-00af/"),
                Json.tree(emulator.calls(CREATE).get(0).body()));
    }

    @Test
    void aBaseWithoutTrailingSlashStillGetsOneSegmentPerRun() {
        String document = "{\"CheckpointConfig\":{\"S3Uri\":\"s3://b/ckpt\",\"LocalPath\":\"/opt/ml/ckpt\"}}";

        String jobName = launcher.start(document, "resnet");

        assertEquals(Json.tree("{\"CheckpointConfig\":{\"S3Uri\":\"s3://b/ckpt/" + jobName + "/\","
                + "\"LocalPath\":\"/opt/ml/ckpt\"},\"TrainingJobName\":\"" + jobName + "\"}"),
                Json.tree(emulator.calls(CREATE).get(0).body()));
    }

    @Test
    void resumeNeedsADocumentWithCheckpoints() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> launcher.resume(
                "{\"RoleArn\":\"arn:aws:iam::123456789012:role/R\"}", "plain", "plain-20260303-010203-00af"));

        assertEquals("Cannot resume from plain-20260303-010203-00af: the document has no CheckpointConfig (the "
                + "definition keeps no checkpoints)", e.getMessage());
        assertEquals(List.of(), emulator.calls());
    }

    @Test
    void resumeRejectsWhatCannotNameARunBeforeCallingSageMaker() throws IOException {
        String document = realisticDocument();
        for (String run : new String[] {null, "", "two words", "star*", "a".repeat(81), "line\nbreak"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> launcher.resume(document, "resnet", run));
            assertEquals("Invalid run to resume from '" + run + "': use the name of an earlier job or execution, 1 to "
                    + "80 characters without whitespace or any of ? * < > { } [ ] : ; , \\ | ^ ~ $ # % & ` \"",
                    e.getMessage());
        }
        launcher.resume(document, "resnet", "a".repeat(80));
        launcher.resume(document, "resnet", "nightly/2026-03-03.run_1");
        assertEquals(2, emulator.calls(CREATE).size());
    }

    @Test
    void startAdoptsItsOwnJobWhenARetriedCreateMeetsResourceInUse() throws IOException {
        emulator.on(CREATE, call -> Reply.error(400, "ResourceInUse", "a training job with this name already exists"));
        emulator.on(DESCRIBE, call -> Reply.ok(describe(call.json().required("TrainingJobName")
                .textValue(), "InProgress", "Starting")));

        String job = launcher.start(realisticDocument(), "resnet");

        assertEquals(job, emulator.calls(DESCRIBE).get(0).json().required("TrainingJobName").textValue());
    }

    @Test
    void startAdoptsItsOwnJobWhenTheLastAnswerToItsCreateIsAServerError() throws IOException {
        emulator.on(CREATE, call -> Reply.error(500, "InternalFailure", "an internal error occurred"));
        emulator.on(DESCRIBE, call -> Reply.ok(describe(call.json().required("TrainingJobName")
                .textValue(), "InProgress", "Starting")));

        String job = launcher.start(realisticDocument(), "resnet");

        assertEquals(job, emulator.calls(DESCRIBE).get(0).json().required("TrainingJobName").textValue(),
                "SageMaker may have carried out a request it answered with an error: the job is followed, as a plan run "
                + "and the state machine do");
    }

    @Test
    void startRethrowsResourceInUseWhenNoJobHasItsName() throws IOException {
        String document = realisticDocument();
        emulator.on(CREATE, call -> Reply.error(400, "ResourceInUse", "in use"));
        emulator.on(DESCRIBE, call -> Reply.error(400, "ValidationException", "Requested resource not found"));

        assertThrows(ResourceInUseException.class, () -> launcher.start(document, "resnet"));
    }

    @Test
    void startDoesNotCallARequestRefusedWhenItCannotReadWhetherTheJobExists() throws IOException {
        String document = realisticDocument();
        emulator.on(CREATE, call -> Reply.error(400, "ResourceInUse", "in use"));
        emulator.on(DESCRIBE, call -> Reply.error(400, "AccessDeniedException", "not authorized to perform "
                + "sagemaker:DescribeTrainingJob"));

        TrainingJobNotCompletedException e = assertThrows(TrainingJobNotCompletedException.class,
                () -> launcher.start(document, "resnet"));

        assertEquals(TrainingErrors.TRAINING_JOB_UNREADABLE, e.error());
        assertTrue(e.getMessage().contains("may be running"), e.getMessage());
    }

    @Test
    void startRejectsABadPrefixBeforeCallingSageMaker() throws IOException {
        String document = realisticDocument();
        assertThrows(IllegalArgumentException.class, () -> launcher.start(document, "bad_prefix"));
        assertThrows(IllegalArgumentException.class, () -> launcher.start(document, "a".repeat(27)));
        assertEquals(List.of(), emulator.calls());
    }

    @Test
    void startRejectsABadDocumentBeforeCallingSageMaker() {
        assertThrows(IllegalArgumentException.class, () -> launcher.start("{\"Bogus\": 1}", "train"));
        assertEquals(List.of(), emulator.calls());
    }

    @Test
    void waitReportsEachStatusChangeAndReturnsOnCompleted() throws InterruptedException {
        emulator.onSequence(DESCRIBE,
                Reply.ok(describe("job", "InProgress", "Starting")),
                Reply.ok(describe("job", "InProgress", "Starting")),
                Reply.ok(describe("job", "InProgress", "Downloading")),
                Reply.ok(describe("job", "InProgress", "Training")),
                Reply.ok(describe("job", "Completed", "Completed")));
        List<String> progress = new ArrayList<>();

        DescribeTrainingJobResponse done = launcher.waitForCompletion(
                "job", Duration.ofSeconds(30), Duration.ofHours(1), progress::add);

        assertEquals(TrainingJobStatus.COMPLETED, done.trainingJobStatus());
        assertEquals(List.of("job: InProgress / Starting", "job: InProgress / Downloading",
                "job: InProgress / Training", "job: Completed / Completed"), progress);
        assertEquals(List.of(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(30),
                Duration.ofSeconds(30)), sleeps);
        assertEquals("{\"TrainingJobName\":\"job\"}", emulator.calls(DESCRIBE).get(0).body());
    }

    @Test
    void waitSurfacesTheFailureReason() {
        emulator.onSequence(DESCRIBE,
                Reply.ok(describe("job", "InProgress", "Downloading")),
                Reply.ok(describe("job", "Failed", "Failed",
                        "\"FailureReason\":\"ClientError: Unable to mount file system: fs-0123456789abcdef0\",")));

        TrainingJobNotCompletedException e = assertThrows(TrainingJobNotCompletedException.class,
                () -> launcher.waitForCompletion("job", Duration.ofSeconds(30), Duration.ofHours(1), line -> { }));

        assertEquals("Training job job failed: ClientError: Unable to mount file system: fs-0123456789abcdef0",
                e.getMessage());
        assertEquals("Failed", e.status());
        assertEquals("job", e.jobName());
    }

    @Test
    void waitReportsAStoppedJob() {
        emulator.onSequence(DESCRIBE, Reply.ok(describe("job", "Stopped", "Stopped")));

        TrainingJobNotCompletedException e = assertThrows(TrainingJobNotCompletedException.class,
                () -> launcher.waitForCompletion("job", Duration.ofSeconds(30), Duration.ofHours(1), line -> { }));

        assertEquals("Training job job was stopped before it completed", e.getMessage());
    }

    @Test
    void waitGivesUpAtTheTimeoutWithoutOversleeping() {
        emulator.onSequence(DESCRIBE, Reply.ok(describe("job", "InProgress", "Training")));

        TrainingJobNotCompletedException e = assertThrows(TrainingJobNotCompletedException.class,
                () -> launcher.waitForCompletion("job", Duration.ofSeconds(40), Duration.ofSeconds(100), line -> { }));

        assertTrue(e.getMessage().startsWith("Training job job did not end within PT1M40S (last status InProgress / Training)"),
                e.getMessage());
        assertEquals("InProgress", e.status());
        assertEquals(List.of(Duration.ofSeconds(40), Duration.ofSeconds(40), Duration.ofSeconds(20)), sleeps);
        assertEquals(4, emulator.calls(DESCRIBE).size());
    }

    @Test
    void waitRejectsANonPositivePollInterval() {
        assertThrows(IllegalArgumentException.class,
                () -> launcher.waitForCompletion("job", Duration.ZERO, Duration.ofHours(1), line -> { }));
        assertEquals(List.of(), emulator.calls());
    }
}
