package io.github.trainingdata.cdk.launch;

import static io.github.trainingdata.cdk.launch.TrainingJobDescriptions.describe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ResourceLimitExceededException;

/**
 * {@link TrainingJobLauncher#runWithCapacityPlan} against the real SDK client and a loopback SageMaker: a job that
 * fails for capacity goes on to the plan's next attempt as a new job on the first job's checkpoints; any other end
 * stops the run.
 */
class TrainingJobLauncherCapacityTest {
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    private static final String BASE = "s3://training-data-123456789012/checkpoints/";
    static final String CAPACITY = "CapacityError: Unable to provision requested ML compute capacity. Please retry "
            + "using a different ML instance type.";
    static final String EC2_CAPACITY = "EC2InsufficientCapacityError: Instance type 'ml.g5.2xlarge' is temporarily "
            + "unavailable in supported availability zones [use1-az1]. Try again in a few minutes, or try a different "
            + "instance type.";
    /** The realistic document's channels with the Lustre channel {@code cache} read from S3 in FastFile mode. */
    static final String FALLBACK_CHANNELS = "[{\"ChannelName\":\"train\",\"DataSource\":{\"S3DataSource\":{"
            + "\"S3DataType\":\"S3Prefix\",\"S3Uri\":\"s3://training-data-123456789012/datasets/train/\","
            + "\"S3DataDistributionType\":\"ShardedByS3Key\"}},\"InputMode\":\"FastFile\","
            + "\"ContentType\":\"application/x-parquet\"},"
            + "{\"ChannelName\":\"cache\",\"DataSource\":{\"S3DataSource\":{\"S3DataType\":\"S3Prefix\","
            + "\"S3Uri\":\"s3://training-data-123456789012/datasets/images/\","
            + "\"S3DataDistributionType\":\"FullyReplicated\"}},\"InputMode\":\"FastFile\"},"
            + "{\"ChannelName\":\"shared\",\"DataSource\":{\"FileSystemDataSource\":{"
            + "\"FileSystemId\":\"fs-0fedcba987654321\",\"FileSystemAccessMode\":\"rw\",\"FileSystemType\":\"EFS\","
            + "\"DirectoryPath\":\"/datasets/shared\"}},\"InputMode\":\"File\"}]";
    static final List<String> FALLBACK_SUBNETS = List.of("subnet-0123456789abcdef0", "subnet-0fedcba9876543210");
    /**
     * A plan for the realistic document: wait 10 minutes and retry, then ml.g5.4xlarge, then ml.g5.4xlarge reading
     * S3 in two zones.
     */
    static final String PLAN = "{\"FirstAttempt\":{\"DataSources\":\"S3+FSxLustre+EFS\",\"AvailabilityZones\":"
            + "[\"us-east-1a\"]},\"Attempts\":["
            + "{\"WaitSeconds\":600,\"InstanceType\":\"ml.g5.2xlarge\",\"FromS3\":false,"
            + "\"DataSources\":\"S3+FSxLustre+EFS\",\"AvailabilityZones\":[\"us-east-1a\"]},"
            + "{\"WaitSeconds\":0,\"InstanceType\":\"ml.g5.4xlarge\",\"FromS3\":false,"
            + "\"DataSources\":\"S3+FSxLustre+EFS\",\"AvailabilityZones\":[\"us-east-1a\"]},"
            + "{\"WaitSeconds\":0,\"InstanceType\":\"ml.g5.4xlarge\",\"FromS3\":true,"
            + "\"DataSources\":\"S3+EFS\",\"AvailabilityZones\":[\"us-east-1a\",\"us-east-1b\"]}],"
            + "\"S3Fallback\":{\"InputDataConfig\":" + FALLBACK_CHANNELS + ",\"Subnets\":[\"subnet-0123456789abcdef0\","
            + "\"subnet-0fedcba9876543210\"]}}";

    private AwsJsonEmulator emulator;
    private SageMakerClient sageMaker;
    private MutableClock clock;
    private List<Duration> sleeps;
    private TrainingJobLauncher launcher;
    private final List<String> progress = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        emulator = new AwsJsonEmulator();
        emulator.on(TrainingJobLauncherTest.CREATE, call -> Reply.ok("{\"TrainingJobArn\":\"arn:aws:sagemaker:us-east-1:"
                + "123456789012:training-job/" + call.json().required("TrainingJobName").textValue() + "\"}"));
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

    /**
     * Makes the n-th job started end with the n-th of {@code ends} (a status, with {@code FailureReason} after a
     * colon), after one poll in progress.
     */
    private void jobsEnd(String... ends) {
        int[] polls = {0};
        emulator.on(TrainingJobLauncherTest.DESCRIBE, call -> {
            List<AwsJsonEmulator.Call> created = emulator.calls(TrainingJobLauncherTest.CREATE);
            String job = call.json().required("TrainingJobName").textValue();
            if (polls[0]++ % 2 == 0) {
                return Reply.ok(describe(job, "InProgress", "Starting"));
            }
            String[] end = ends[created.size() - 1].split(":", 2);
            String reason = end.length > 1 ? "\"FailureReason\":" + Json.MAPPER.valueToTree(end[1].strip()) + "," : "";
            return Reply.ok(describe(job, end[0], end[0], reason));
        });
    }

    private CapacityRun run(String document) throws InterruptedException {
        return launcher.runWithCapacityPlan(document, CapacityPlan.fromJson(PLAN), "resnet", null,
                Duration.ofSeconds(30), Duration.ofDays(1), progress::add);
    }

    private List<Map<String, Object>> requests() {
        return emulator.calls(TrainingJobLauncherTest.CREATE).stream()
                .map(call -> (Map<String, Object>) Json.tree(call.body())).toList();
    }

    @Test
    void aCapacityErrorWaitsThenTrainsAgainAsANewJobOnTheSameCheckpoints() throws Exception {
        String document = TrainingJobLauncherTest.realisticDocument();
        jobsEnd("Failed: " + CAPACITY, "Completed");

        CapacityRun run = run(document);

        assertTrue(run.completed());
        List<CapacityRunAttempt> attempts = run.attempts();
        assertEquals(2, attempts.size());
        String first = attempts.get(0).jobName();
        String second = attempts.get(1).jobName();
        assertEquals(new CapacityRunAttempt(first, "ml.g5.2xlarge", "S3+FSxLustre+EFS", List.of("us-east-1a"),
                AttemptOutcome.CAPACITY_ERROR, CAPACITY), attempts.get(0));
        assertEquals(new CapacityRunAttempt(second, "ml.g5.2xlarge", "S3+FSxLustre+EFS", List.of("us-east-1a"),
                AttemptOutcome.COMPLETED, null), attempts.get(1));
        assertTrue(second.matches("resnet-20260304-0\\d{5}-[0-9a-f]{4}") && !second.equals(first), second);
        assertEquals(second, run.completedJob().orElseThrow().trainingJobName());
        assertEquals(List.of(Duration.ofSeconds(30), Duration.ofSeconds(600), Duration.ofSeconds(30)), sleeps);
        assertEquals(List.of(Json.treeWithJob(document, first, BASE + first + "/"),
                Json.treeWithJob(document, second, BASE + first + "/")), requests());
        assertTrue(progress.contains("Attempt 1 of 4: " + first + " CAPACITY_ERROR: " + CAPACITY), progress.toString());
        assertTrue(progress.contains("Waiting 600 s for capacity before attempt 2"), progress.toString());
    }

    @Test
    void capacityErrorsThroughTheListEndOnTheS3FallbackWithOnlyItsChannelsAndSubnetsChanged() throws Exception {
        String document = TrainingJobLauncherTest.realisticDocument();
        jobsEnd("Failed: " + CAPACITY, "Failed: " + EC2_CAPACITY, "Failed: " + CAPACITY, "Completed");

        CapacityRun run = run(document);

        assertTrue(run.completed());
        assertEquals(List.of(AttemptOutcome.CAPACITY_ERROR, AttemptOutcome.CAPACITY_ERROR, AttemptOutcome.CAPACITY_ERROR,
                AttemptOutcome.COMPLETED), run.attempts().stream().map(CapacityRunAttempt::outcome).toList());
        assertEquals(List.of("ml.g5.2xlarge", "ml.g5.2xlarge", "ml.g5.4xlarge", "ml.g5.4xlarge"),
                run.attempts().stream().map(CapacityRunAttempt::instanceType).toList());
        CapacityRunAttempt last = run.attempts().get(3);
        assertEquals("S3+EFS", last.dataSources());
        assertEquals(List.of("us-east-1a", "us-east-1b"), last.availabilityZones());
        String first = run.attempts().get(0).jobName();
        Map<String, Object> expected = (Map<String, Object>) Json.treeWithJob(document, last.jobName(),
                BASE + first + "/");
        expected.put("InputDataConfig", Json.tree(FALLBACK_CHANNELS));
        ((Map<String, Object>) expected.get("VpcConfig")).put("Subnets", FALLBACK_SUBNETS);
        ((Map<String, Object>) expected.get("ResourceConfig")).put("InstanceType", "ml.g5.4xlarge");
        assertEquals(expected, requests().get(3));
        Map<String, Object> third = (Map<String, Object>) Json.treeWithJob(document, run.attempts().get(2).jobName(),
                BASE + first + "/");
        ((Map<String, Object>) third.get("ResourceConfig")).put("InstanceType", "ml.g5.4xlarge");
        assertEquals(third, requests().get(2));
        assertEquals(4, requests().stream().map(r -> r.get("TrainingJobName")).distinct().count());
    }

    @Test
    void aBoundDefinitionsPlanRecordsTheZonesAndFallbackSubnetsPublishedWhenTheLaunchStarts() throws Exception {
        String cache = "/training-data/stores/Data.Lustre";
        String network = "/training-data/networks/Data.Network";
        // As a definition bound to a cache and network of another stack keeps its plan (StoreBindingTest).
        String bound = PLAN.replace("[\"us-east-1a\"]", "[\"{{DataStore:" + cache + ":AvailabilityZone}}\"]")
                .replace("[\"us-east-1a\",\"us-east-1b\"]", "\"{{DataStore:" + network + ":StorageZones}}\"")
                .replace("[\"subnet-0123456789abcdef0\",\"subnet-0fedcba9876543210\"]",
                        "\"{{DataStore:" + network + ":StorageSubnets}}\"");
        assertFalse(bound.contains("us-east-1"), bound);
        Map<String, String> parameters = Map.of("/training/resnet/capacity", bound,
                cache, "{\"Store\":\"Data/Lustre\",\"FileSystemId\":\"fs-0123456789abcdef0\",\"AvailabilityZone\":"
                        + "\"us-west-2c\",\"Subnets\":[\"subnet-0c0c0c0c0c0c0c0c0\"]}",
                network, "{\"Store\":\"Data/Network\",\"StorageSubnets\":[\"subnet-0d0d0d0d0d0d0d0d0\","
                        + "\"subnet-0c0c0c0c0c0c0c0c0\"],\"StorageZones\":[\"us-west-2b\",\"us-west-2c\"]}");
        emulator.on(DeployedTrainingJobDefinitionTest.GET_PARAMETER, call -> {
            String name = call.json().required("Name").textValue();
            return DeployedTrainingJobDefinitionTest.parameterReply(name, parameters.get(name));
        });
        CapacityPlan plan;
        try (software.amazon.awssdk.services.ssm.SsmClient ssm = emulator.ssm()) {
            plan = new DeployedTrainingJobDefinition(ssm, "/training/resnet/definition")
                    .capacityPlan("/training/resnet/capacity");
        }
        assertEquals(List.of("us-west-2c"), plan.firstAvailabilityZones(), "the data zone as published now");
        assertEquals(List.of("subnet-0d0d0d0d0d0d0d0d0", "subnet-0c0c0c0c0c0c0c0c0"), plan.s3FallbackSubnets());

        String document = TrainingJobLauncherTest.realisticDocument();
        jobsEnd("Failed: " + CAPACITY, "Failed: " + CAPACITY, "Failed: " + CAPACITY, "Completed");
        CapacityRun run = launcher.runWithCapacityPlan(document, plan, "resnet", null, Duration.ofSeconds(30),
                Duration.ofDays(1), progress::add);

        assertTrue(run.completed());
        assertEquals(List.of(List.of("us-west-2c"), List.of("us-west-2c"), List.of("us-west-2c"),
                List.of("us-west-2b", "us-west-2c")), run.attempts().stream()
                .map(CapacityRunAttempt::availabilityZones).toList(), "the record of attempts");
        assertEquals(List.of("subnet-0d0d0d0d0d0d0d0d0", "subnet-0c0c0c0c0c0c0c0c0"),
                ((Map<String, Object>) requests().get(3).get("VpcConfig")).get("Subnets"));
        assertTrue(progress.get(0).endsWith(" in us-west-2c"), progress.get(0));
    }

    @Test
    void aCapacityErrorOfTheLastAttemptEndsTheRunWithEveryAttemptListed() throws Exception {
        jobsEnd("Failed: " + CAPACITY, "Failed: " + CAPACITY, "Failed: " + CAPACITY, "Failed: " + EC2_CAPACITY);

        CapacityRun run = run(TrainingJobLauncherTest.realisticDocument());

        assertFalse(run.completed());
        assertEquals(4, run.attempts().size());
        assertEquals(EC2_CAPACITY, run.attempts().get(3).failureReason());
        assertEquals(AttemptOutcome.CAPACITY_ERROR, run.attempts().get(3).outcome());
        assertEquals(4, emulator.calls(TrainingJobLauncherTest.CREATE).size());
    }

    @Test
    void aRequestRefusedForAQuotaIsAskedAgainWithDoublingWaitsUnderTheSameName() throws Exception {
        int[] refusals = {2};
        emulator.on(TrainingJobLauncherTest.CREATE, call -> refusals[0]-- > 0
                ? Reply.error(400, "ResourceLimitExceeded", "The account-level service limit 'ml.g5.2xlarge for "
                        + "training job usage' is 2 Instances, with current utilization of 2 Instances")
                : Reply.ok("{\"TrainingJobArn\":\"arn\"}"));
        jobsEnd("Completed", "Completed", "Completed"); // by request: the two refused ones count too

        CapacityRun run = run(TrainingJobLauncherTest.realisticDocument());

        assertTrue(run.completed());
        List<String> names = requests().stream().map(r -> (String) r.get("TrainingJobName")).distinct().toList();
        assertEquals(3, requests().size());
        assertEquals(1, names.size(), "every retry asks for the same job");
        assertEquals(List.of(Duration.ofMinutes(1), Duration.ofMinutes(2)), sleeps.subList(0, 2));
        assertTrue(progress.stream().anyMatch(line -> line.startsWith("A quota is in use (The account-level")),
                progress.toString());
    }

    @Test
    void aQuotaStillInUseOnEveryInstanceTypeEndsTheRunWithQuotaExhausted() throws Exception {
        emulator.on(TrainingJobLauncherTest.CREATE, call -> Reply.error(400, "ResourceLimitExceeded", "quota"));

        CapacityRun run = run(TrainingJobLauncherTest.realisticDocument());

        assertFalse(run.completed());
        assertEquals(Optional.of(TrainingErrors.QUOTA_EXHAUSTED), run.error());
        assertEquals(List.of(AttemptOutcome.QUOTA_EXCEEDED, AttemptOutcome.QUOTA_EXCEEDED),
                run.attempts().stream().map(CapacityRunAttempt::outcome).toList());
        assertEquals(List.of("ml.g5.2xlarge", "ml.g5.4xlarge"),
                run.attempts().stream().map(CapacityRunAttempt::instanceType).toList(),
                "the waits and retries on the same instance type are skipped");
        assertEquals(2 * (TrainingJobLauncher.QUOTA_RETRIES + 1), requests().size());
        assertEquals(Duration.ofMinutes(15), sleeps.get(sleeps.size() - 1), "waits never grow past 15 minutes");
        assertTrue(emulator.calls(TrainingJobLauncherTest.DESCRIBE).isEmpty(), "a quota refusal is no job");
    }

    @Test
    void aQuotaRefusalMovesOnToTheNextInstanceTypeAndIsRecorded() throws Exception {
        emulator.on(TrainingJobLauncherTest.CREATE, call -> call.json().required("ResourceConfig")
                .required("InstanceType").textValue().equals("ml.g5.4xlarge")
                ? Reply.ok("{\"TrainingJobArn\":\"arn\"}") : Reply.error(400, "ResourceLimitExceeded", "quota"));
        jobsEnd("Completed", "Completed", "Completed", "Completed", "Completed", "Completed", "Completed", "Completed",
                "Completed", "Completed");

        CapacityRun run = run(TrainingJobLauncherTest.realisticDocument());

        assertTrue(run.completed());
        assertEquals(List.of(AttemptOutcome.QUOTA_EXCEEDED, AttemptOutcome.COMPLETED),
                run.attempts().stream().map(CapacityRunAttempt::outcome).toList());
        assertEquals("quota", run.attempts().get(0).failureReason());
    }

    @Test
    void aRefusedRequestEndsTheRunWithoutARecord() throws Exception {
        emulator.on(TrainingJobLauncherTest.CREATE, call -> Reply.error(400, "ValidationException", "bad request"));
        emulator.on(TrainingJobLauncherTest.DESCRIBE, call -> Reply.error(400, "ValidationException",
                "Requested resource not found"));

        CapacityRun run = run(TrainingJobLauncherTest.realisticDocument());

        assertEquals(Optional.of(TrainingErrors.REQUEST_REFUSED), run.error());
        assertEquals(List.of(), run.attempts(), "no job was recorded");
        assertTrue(run.cause().orElseThrow().contains("bad request"));
    }

    @Test
    void aRequestWhoseJobCannotBeLookedUpIsNotCalledRefused() throws Exception {
        emulator.on(TrainingJobLauncherTest.CREATE, call -> Reply.error(400, "ValidationException", "bad request"));
        emulator.on(TrainingJobLauncherTest.DESCRIBE, call -> Reply.error(400, "AccessDeniedException",
                "not authorized to perform sagemaker:DescribeTrainingJob"));

        CapacityRun run = run(TrainingJobLauncherTest.realisticDocument());

        assertEquals(Optional.of(TrainingErrors.TRAINING_JOB_UNREADABLE), run.error(), "the job may be running");
        assertEquals(List.of(), run.attempts());
        assertTrue(run.cause().orElseThrow().contains("not authorized"), run.cause().orElseThrow());
    }

    @Test
    void aJobCreatedByARequestAnsweredWithAnErrorIsFollowed() throws Exception {
        emulator.onSequence(TrainingJobLauncherTest.CREATE, Reply.error(400, "ResourceInUse", "a job with this name "
                + "already exists"));
        jobsEnd("Completed");

        CapacityRun run = run(TrainingJobLauncherTest.realisticDocument());

        assertTrue(run.completed(), progress.toString());
        assertEquals(List.of(AttemptOutcome.COMPLETED), run.attempts().stream().map(CapacityRunAttempt::outcome)
                .toList());
        assertEquals(1, requests().size());
    }

    @Test
    void aFailureForAnotherReasonIsNotRetried() throws Exception {
        jobsEnd("Failed: AlgorithmError: ExecuteUserScriptError");

        CapacityRun run = run(TrainingJobLauncherTest.realisticDocument());

        assertFalse(run.completed());
        assertEquals(List.of(AttemptOutcome.FAILED), run.attempts().stream().map(CapacityRunAttempt::outcome).toList());
        assertEquals("AlgorithmError: ExecuteUserScriptError", run.attempts().get(0).failureReason());
        assertEquals(1, emulator.calls(TrainingJobLauncherTest.CREATE).size());
        assertEquals(List.of(Duration.ofSeconds(30)), sleeps);
    }

    @Test
    void aStoppedJobIsNotRetried() throws Exception {
        jobsEnd("Stopped");

        CapacityRun run = run(TrainingJobLauncherTest.realisticDocument());

        assertEquals(List.of(AttemptOutcome.STOPPED), run.attempts().stream().map(CapacityRunAttempt::outcome).toList());
        assertEquals(1, emulator.calls(TrainingJobLauncherTest.CREATE).size());
    }

    @Test
    void aJobStillRunningAtTheTimeoutEndsTheRun() throws Exception {
        emulator.on(TrainingJobLauncherTest.DESCRIBE, call -> Reply.ok(describe("j", "InProgress", "Training")));

        CapacityRun run = launcher.runWithCapacityPlan(TrainingJobLauncherTest.realisticDocument(),
                CapacityPlan.fromJson(PLAN), "resnet", null, Duration.ofSeconds(30), Duration.ofMinutes(1), line -> { });

        assertEquals(List.of(AttemptOutcome.STILL_RUNNING),
                run.attempts().stream().map(CapacityRunAttempt::outcome).toList());
        assertEquals(1, emulator.calls(TrainingJobLauncherTest.CREATE).size());
    }

    @Test
    void resumingTrainsEveryAttemptOnTheEarlierRunsCheckpoints() throws Exception {
        jobsEnd("Failed: " + CAPACITY, "Completed");

        launcher.runWithCapacityPlan(TrainingJobLauncherTest.realisticDocument(), CapacityPlan.fromJson(PLAN), "resnet",
                "nightly-41", Duration.ofSeconds(30), Duration.ofDays(1), line -> { });

        assertEquals(List.of(BASE + "nightly-41/", BASE + "nightly-41/"), requests().stream()
                .map(r -> ((Map<?, ?>) r.get("CheckpointConfig")).get("S3Uri")).toList());
    }

    @Test
    void aPlanReadingS3NeedsADocumentWithAVpcBeforeAnyJobStarts() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> launcher.runWithCapacityPlan(
                "{\"RoleArn\":\"arn:aws:iam::123456789012:role/R\"}", CapacityPlan.fromJson(PLAN), "resnet", null,
                Duration.ofSeconds(30), Duration.ofDays(1), line -> { }));

        assertEquals("The capacity plan reads S3 in the fallback's subnets, but the document has no VpcConfig: is the "
                + "plan of another definition?", e.getMessage());
        assertEquals(List.of(), emulator.calls());
    }
}
