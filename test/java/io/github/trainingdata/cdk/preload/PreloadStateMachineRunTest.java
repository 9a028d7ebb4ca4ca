package io.github.trainingdata.cdk.preload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.github.trainingdata.cdk.Intrinsics;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.JsonataAslSimulator;
import io.github.trainingdata.cdk.JsonataAslSimulator.Call;
import io.github.trainingdata.cdk.JsonataAslSimulator.Outcome;
import io.github.trainingdata.cdk.JsonataAslSimulator.Run;
import io.github.trainingdata.cdk.preload.handler.PreloadInputs;
import io.github.trainingdata.cdk.preload.handler.WorkerAttempts;
import io.github.trainingdata.cdk.training.TrainingImage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The preload state machine, as synthesized, executed branch by branch ({@link JsonataAslSimulator}) with the input
 * the handler starts it with and scripted answers of S3, FSx and SageMaker: empty and partial locations, FSx's import
 * task (busy, failed, too slow) and the worker's retries.
 */
class PreloadStateMachineRunTest {
    private static final String FILE_SYSTEM = "fs-0123456789abcdef0";
    private static final String BUCKET = "data-bucket";
    private static final List<String> LOCATIONS = List.of("s3://" + BUCKET + "/imagenet/train/",
            "s3://" + BUCKET + "/imagenet/val/", "s3://" + BUCKET + "/imagenet/test/");
    private static final String NAME = PreloadInputs.executionName("warm-preload-0a1b2c3d", "[\"fs\",[],\"v1\"]", "req-1");
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final String TASK_ID = "task-0123456789abcdef0";
    private static final String CAPACITY = "CapacityError: Unable to provision requested ML compute capacity. Please "
            + "retry using a different ML instance type.";
    private static final String THROTTLED = "Rate exceeded (Service: AmazonSageMaker; Status Code: 400; Error Code: "
            + "ThrottlingException; Request ID: 0a1b; Proxy: null)";
    private static final String IMPORT_BUSY = "An existing data repository task is currently executing on the file "
            + "system. Wait until the existing task has completed, then create the new task. (Service: FSx; Status "
            + "Code: 400; Error Code: DataRepositoryTaskExecuting; Request ID: 0a1b; Proxy: null)";

    private static Map<String, Object> definition;
    private static Map<String, Object> longImportDefinition;

    @BeforeAll
    static void synthesize() {
        LustrePreloadTest.Fixture f = new LustrePreloadTest.Fixture();
        f.define(f.definitionProps("resnet"));
        LustrePreload preload = new LustrePreload(f.stack, "Preload", f.props()
                .locations(f.at(f.cache, List.of("train", "val", "test"))).build());
        LustrePreload longImport = new LustrePreload(f.stack, "LongImport", f.props()
                .image(TrainingImage.fromUri("123456789012.dkr.ecr.us-east-1.amazonaws.com/tools:1"))
                .importTimeout(software.amazon.awscdk.Duration.days(28)).waitForCompletion(false).build());
        f.synth();
        definition = definitionOf(f, preload);
        longImportDefinition = definitionOf(f, longImport);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> definitionOf(LustrePreloadTest.Fixture f, LustrePreload preload) {
        return (Map<String, Object>) Json.value(Intrinsics.string(
                f.properties(f.id(preload.getStateMachine())).get("DefinitionString")));
    }

    /** Scripted answers: which locations hold data, the import task, and the worker's attempts. */
    private static final class Script implements JsonataAslSimulator.Tasks {
        Set<String> empty = Set.of();
        List<Outcome> imports = List.of(Outcome.result(Map.of("DataRepositoryTask",
                Map.of("TaskId", TASK_ID, "Lifecycle", "PENDING"))));
        List<String> lifecycles = List.of("EXECUTING", "SUCCEEDED");
        List<Function<String, Outcome>> workers = List.of(Script::completed);
        private int importCalls;
        private int describeCalls;
        private int workerCalls;

        static Outcome completed(String name) {
            return Outcome.result(Map.of("TrainingJobName", name, "TrainingJobStatus", "Completed"),
                    Duration.ofMinutes(8));
        }

        @Override
        public Outcome call(Call call) {
            String resource = call.resource();
            if (resource.endsWith(":s3:listObjectsV2")) {
                String uri = "s3://" + call.argumentMap().get("Bucket") + "/" + call.argumentMap().get("Prefix");
                assertEquals(1L, ((Number) call.argumentMap().get("MaxKeys")).longValue());
                return Outcome.result(empty.contains(uri) ? Map.of("KeyCount", 0)
                        : Map.of("KeyCount", 1, "Contents", List.of(Map.of("Key", "x"))));
            }
            if (resource.endsWith(":fsx:createDataRepositoryTask")) {
                return imports.get(Math.min(importCalls++, imports.size() - 1));
            }
            if (resource.endsWith(":fsx:describeDataRepositoryTasks")) {
                assertEquals(Map.of("TaskIds", List.of(TASK_ID)), call.arguments());
                String lifecycle = lifecycles.get(Math.min(describeCalls++, lifecycles.size() - 1));
                Map<String, Object> task = new LinkedHashMap<>(Map.of("TaskId", TASK_ID, "Lifecycle", lifecycle));
                if (lifecycle.equals("FAILED")) {
                    task.put("FailureDetails", Map.of("Message", "2 paths could not be imported"));
                }
                return Outcome.result(Map.of("DataRepositoryTasks", List.of(task)));
            }
            if (resource.endsWith(":sagemaker:createTrainingJob.sync")) {
                String name = (String) call.argumentMap().get("TrainingJobName");
                return workers.get(Math.min(workerCalls++, workers.size() - 1)).apply(name);
            }
            throw new AssertionError("unexpected task " + resource);
        }
    }

    private static Run run(Script script) {
        return run(definition, script);
    }

    private static Run run(Map<String, Object> machine, Script script) {
        return new JsonataAslSimulator(machine).run(NAME, Json.value(PreloadInputs.input(FILE_SYSTEM, LOCATIONS)), START,
                script);
    }

    /** A .sync failure of a job that ran: the DescribeTrainingJob of the failed job as the cause. */
    private static Outcome failedJob(String name, String reason) {
        return Outcome.error("States.TaskFailed", json(Map.of("TrainingJobName", name, "TrainingJobStatus",
                "Failed", "FailureReason", reason, "SecondaryStatus", "Failed")), Duration.ofMinutes(4));
    }

    private static String json(Object value) {
        try {
            return Json.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> channelNames(Call warm) {
        List<String> names = new ArrayList<>();
        for (Object channel : (List<?>) warm.argumentMap().get("InputDataConfig")) {
            names.add((String) ((Map<?, ?>) channel).get("ChannelName"));
        }
        return names;
    }

    @Test
    void everyLocationWithDataIsImportedThenWarmed() {
        Run run = run(new Script());

        assertEquals("SUCCEEDED", run.status(), run.toString());
        assertEquals(Map.of("Status", "WARMED", "WorkerJobName", NAME, "EmptyLocations", List.of()), run.output());
        Map<String, Object> importTask = run.calls("createDataRepositoryTask").get(0).argumentMap();
        assertEquals(Map.of("Type", "IMPORT_METADATA_FROM_REPOSITORY", "FileSystemId", FILE_SYSTEM, "Paths", LOCATIONS,
                "Report", Map.of("Enabled", false), "ClientRequestToken", NAME), importTask);
        List<Call> workers = run.calls("createTrainingJob.sync");
        assertEquals(1, workers.size());
        assertEquals(NAME, workers.get(0).argumentMap().get("TrainingJobName"));
        assertEquals(List.of("warm0", "warm1", "warm2"), channelNames(workers.get(0)));
        assertEquals(List.of(87L), run.waits(), "one poll of the import task");
    }

    @Test
    void anEmptyLocationIsNeitherImportedNorMountedAndTheWarmSucceedsAsPartial() {
        Script script = new Script();
        script.empty = Set.of(LOCATIONS.get(1));
        Run run = run(script);

        assertEquals("SUCCEEDED", run.status(), "training is not held back by a location without data");
        assertEquals(Map.of("Status", "PARTIAL", "WorkerJobName", NAME, "EmptyLocations", List.of(LOCATIONS.get(1))),
                run.output());
        assertEquals(List.of(LOCATIONS.get(0), LOCATIONS.get(2)),
                run.calls("createDataRepositoryTask").get(0).argumentMap().get("Paths"));
        Call warm = run.calls("createTrainingJob.sync").get(0);
        assertEquals(List.of("warm0", "warm2"), channelNames(warm), "no channel on a directory FSx does not show");
    }

    @Test
    void noLocationWithDataSucceedsAsEmptyWithoutImportOrWorker() {
        Script script = new Script();
        script.empty = Set.copyOf(LOCATIONS);
        Run run = run(script);

        assertEquals("SUCCEEDED", run.status());
        assertEquals(Map.of("Status", "EMPTY", "EmptyLocations", LOCATIONS), run.output());
        assertEquals(List.of(), run.calls("createDataRepositoryTask"));
        assertEquals(List.of(), run.calls("createTrainingJob.sync"));
    }

    @Test
    void anImportStartedWhileAnotherTaskRunsIsTriedAgainWithTheSameToken() {
        Script script = new Script();
        script.imports = List.of(Outcome.error("FSx.DataRepositoryTaskExecutingException", IMPORT_BUSY),
                Outcome.error("FSx.DataRepositoryTaskExecutingException", IMPORT_BUSY),
                Outcome.result(Map.of("DataRepositoryTask", Map.of("TaskId", TASK_ID, "Lifecycle", "PENDING"))));
        Run run = run(script);

        assertEquals("SUCCEEDED", run.status(), run.toString());
        List<Call> imports = run.calls("createDataRepositoryTask");
        assertEquals(3, imports.size(), "not retried by the transient retrier: MaxAttempts 0 comes first");
        assertEquals(Set.of(NAME), Set.copyOf(imports.stream().map(c -> c.argumentMap().get("ClientRequestToken")).toList()),
                "one client token per execution: a Step Functions retry creates no second task");
        assertEquals(List.of(87L, 87L, 87L), run.waits(), "two waits for the running task, one poll of ours");
        assertEquals(1, run.calls("createTrainingJob.sync").size());
    }

    @Test
    void aBusyErrorUnderAnotherNameIsRecognizedByItsCode() {
        Script script = new Script();
        List<Outcome> imports = new ArrayList<>(Collections.nCopies(6, Outcome.error("FSx.FSxException",
                IMPORT_BUSY)));
        imports.add(Outcome.result(Map.of("DataRepositoryTask", Map.of("TaskId", TASK_ID))));
        script.imports = imports;
        Run run = run(script);

        assertEquals("SUCCEEDED", run.status(), run.toString());
        assertEquals(7, run.calls("createDataRepositoryTask").size(), "5 transient retries, then the busy wait");
    }

    @Test
    void aFailedImportTaskFailsTheExecutionWithFsxsDetailsAndStartsNoWorker() {
        Script script = new Script();
        script.lifecycles = List.of("EXECUTING", "FAILED");
        Run run = run(script);

        assertEquals("FAILED", run.status());
        assertEquals("ImportFailed", run.error());
        assertEquals("FSx import task " + TASK_ID + " ended FAILED: 2 paths could not be imported. Check the data "
                + "repository associations of " + FILE_SYSTEM + " and the objects under " + String.join(", ", LOCATIONS)
                + ", then change datasetVersion and deploy again.", run.cause());
        assertEquals(List.of(), run.calls("createTrainingJob.sync"));
    }

    @Test
    void aCanceledImportTaskFailsTooAndARefusedImportCarriesItsErrorInTheCause() {
        Script canceled = new Script();
        canceled.lifecycles = List.of("CANCELED");
        assertEquals("ImportFailed", run(canceled).error());

        Script refused = new Script();
        refused.imports = List.of(Outcome.error("FSx.BadRequestException", "Paths must be within a data repository"));
        Run run = run(refused);
        assertEquals("FAILED", run.status());
        assertEquals(PreloadStateMachine.IMPORT_NOT_STARTED, run.error(), "never the refusal's own error name");
        JsonNode cause = Json.read(run.cause());
        assertEquals("FSx.BadRequestException", cause.get("Error").asText());
        assertEquals("Paths must be within a data repository", cause.get("Cause").asText());
        assertEquals(6, run.calls("createDataRepositoryTask").size(), "the transient retrier, then no more");
    }

    @Test
    void anImportThatOutlastsTheImportTimeoutFailsAfterAtMost500PollsFarBelowTheHistoryLimit() {
        Script script = new Script();
        script.lifecycles = List.of("EXECUTING");
        Run run = run(longImportDefinition, script);

        assertEquals("FAILED", run.status());
        assertEquals("ImportNotFinished", run.error());
        long polls = run.calls("describeDataRepositoryTasks").size();
        assertTrue(polls <= PreloadStateMachine.MAX_POLLS + 1, polls + " polls");
        assertTrue(run.events() < 25_000 / 4, run.events() + " history events");
        assertTrue(run.elapsed().compareTo(Duration.ofDays(28)) > 0, run.elapsed().toString());

        Script busy = new Script();
        busy.imports = List.of(Outcome.error("FSx.DataRepositoryTaskExecutingException", IMPORT_BUSY));
        Run neverStarted = run(longImportDefinition, busy);
        assertEquals("ImportNotFinished", neverStarted.error(), "another task ran the whole time");
        assertTrue(neverStarted.calls("createDataRepositoryTask").size() <= PreloadStateMachine.MAX_POLLS + 1);
        assertTrue(neverStarted.events() < 25_000 / 4, neverStarted.events() + " history events");
    }

    @Test
    void aWorkerThatFailedForCapacityIsReplacedByANewlyNamedOne() {
        Script script = new Script();
        script.workers = List.of(name -> failedJob(name, CAPACITY), Script::completed);
        Run run = run(script);

        assertEquals("SUCCEEDED", run.status(), run.toString());
        List<String> names = run.calls("createTrainingJob.sync").stream()
                .map(c -> (String) c.argumentMap().get("TrainingJobName")).toList();
        assertEquals(List.of(WorkerAttempts.name(NAME, 1), WorkerAttempts.name(NAME, 2)), names);
        assertEquals(NAME + "-2", names.get(1));
        assertEquals(Map.of("Status", "WARMED", "WorkerJobName", NAME + "-2", "EmptyLocations", List.of()), run.output(),
                "the handler reads the final worker's name from the output");
        assertEquals(60L, run.waits().get(run.waits().size() - 1), "a minute before the second worker");
    }

    @Test
    void aWorkerWithoutEc2CapacityIsReplacedToo() {
        Script script = new Script();
        script.workers = List.of(name -> failedJob(name, "EC2InsufficientCapacityError: Instance type 'ml.c5.4xlarge' "
                + "is temporarily unavailable in supported availability zones [use1-az1]."), Script::completed);
        Run run = run(script);

        assertEquals("SUCCEEDED", run.status(), run.toString());
        assertEquals(2, run.calls("createTrainingJob.sync").size());
    }

    @Test
    void throttlingLimitsAndARoleNotYetAssumableAreRetried() {
        Script script = new Script();
        script.workers = List.of(
                name -> Outcome.error("SageMaker.AmazonSageMakerException", THROTTLED),
                name -> Outcome.error("SageMaker.ResourceLimitExceededException", "The account-level service limit "
                        + "'ml.m5.xlarge for training job usage' is 2 Instances, with current utilization of 2"),
                name -> Outcome.error("SageMaker.AmazonSageMakerException", "Could not assume role "
                        + "arn:aws:iam::123456789012:role/worker. Please ensure that the role exists and allows principal "
                        + "'sagemaker.amazonaws.com' to assume the role. (Service: AmazonSageMaker; Status Code: 400; "
                        + "Error Code: ValidationException)"),
                name -> failedJob(name, "ClientError: SageMaker was unable to assume the role "
                        + "'arn:aws:iam::123456789012:role/worker'"),
                Script::completed);
        Run run = run(script);

        assertEquals("SUCCEEDED", run.status(), run.toString());
        assertEquals(5, run.calls("createTrainingJob.sync").size());
        assertEquals(List.of(60L, 120L, 240L, 480L), run.waits().subList(run.waits().size() - 4, run.waits().size()));
        assertEquals(NAME + "-5", ((Map<?, ?>) run.output()).get("WorkerJobName"));
    }

    @Test
    void aFailedScriptIsNeverRetriedEvenIfItsMessageMentionsCapacity() {
        Script script = new Script();
        String reason = "AlgorithmError: preload failed: 1 of 9 files could not be read, e.g. "
                + "/opt/ml/input/data/warm0/CapacityError: insufficient capacity.txt";
        script.workers = List.of(name -> failedJob(name, reason), Script::completed);
        Run run = run(script);

        assertEquals("FAILED", run.status());
        assertEquals(PreloadStateMachine.WORKER_FAILED, run.error(), "never the reserved States.TaskFailed");
        JsonNode cause = Json.read(run.cause());
        assertEquals(NAME, cause.get("Worker").asText());
        assertEquals(1, cause.get("Attempt").asInt());
        assertEquals(6, cause.get("MaxAttempts").asInt());
        assertEquals("States.TaskFailed", cause.get("Error").asText(), "the worker's own error, in the cause");
        assertTrue(run.cause().contains(reason), run.cause());
        assertEquals(1, run.calls("createTrainingJob.sync").size());
    }

    @Test
    void aValidationErrorIsNotRetried() {
        Script script = new Script();
        script.workers = List.of(name -> Outcome.error("SageMaker.AmazonSageMakerException", "1 validation error "
                + "detected (Service: AmazonSageMaker; Status Code: 400; Error Code: ValidationException)"));
        Run run = run(script);

        assertEquals(PreloadStateMachine.WORKER_FAILED, run.error());
        assertEquals("SageMaker.AmazonSageMakerException", Json.read(run.cause()).get("Error").asText());
        assertEquals(1, run.calls("createTrainingJob.sync").size());
    }

    @Test
    void capacityRetriesStopAtSixWorkers() {
        Script script = new Script();
        script.workers = List.of(name -> Outcome.error("States.TaskFailed", json(Map.of("TrainingJobStatus",
                "Failed", "FailureReason", CAPACITY))));
        Run run = run(script);

        assertEquals("FAILED", run.status());
        assertEquals(WorkerAttempts.MAX_ATTEMPTS, run.calls("createTrainingJob.sync").size());
        assertEquals(List.of(60L, 120L, 240L, 480L, 600L), run.waits().subList(run.waits().size() - 5, run.waits().size()));
        assertEquals(PreloadStateMachine.WORKER_FAILED, run.error());
        assertEquals(NAME + "-6", Json.read(run.cause()).get("Worker").asText());
        assertEquals(6, Json.read(run.cause()).get("Attempt").asInt());
    }

    @Test
    void capacityRetriesStopWhenTheNextWouldStartAfterTheDeploysWait() {
        Script script = new Script();
        script.workers = List.of(name -> Outcome.error("States.TaskFailed", json(Map.of("TrainingJobStatus",
                "Failed", "FailureReason", CAPACITY)), Duration.ofMinutes(15)));
        Run run = run(script);

        // Each worker fails after 15 minutes. Started at 0, 16 (after 1 min), 33 (2 min), 52 (4 min); the next would
        // start at 67 + 8 minutes, after the 55 minutes a deploy waits.
        assertEquals("FAILED", run.status());
        List<Call> workers = run.calls("createTrainingJob.sync");
        assertEquals(List.of(0L, 16L, 33L, 52L), workers.stream()
                .map(c -> Duration.between(workers.get(0).at(), c.at()).toMinutes()).toList());
    }
}
