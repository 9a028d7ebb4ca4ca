package io.github.trainingdata.cdk.preload;

import io.github.trainingdata.cdk.internal.WildcardFindings;
import io.github.trainingdata.cdk.launch.CapacityPlan;
import io.github.trainingdata.cdk.preload.handler.PreloadExecutionInput;
import io.github.trainingdata.cdk.preload.handler.PreloadExecutionOutput;
import io.github.trainingdata.cdk.preload.handler.PreloadStatus;
import io.github.trainingdata.cdk.preload.handler.WorkerAttempts;
import io.github.trainingdata.cdk.internal.LogGroups;
import io.github.trainingdata.cdk.internal.SyncTrainingPermissions;
import io.github.trainingdata.cdk.training.TrainingJobBlueprint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.s3.IBucket;
import software.amazon.awscdk.services.stepfunctions.DefinitionBody;
import software.amazon.awscdk.services.stepfunctions.LogLevel;
import software.amazon.awscdk.services.stepfunctions.LogOptions;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * The state machine of a {@link LustrePreload}: one execution per warm-up, started by the custom resource.
 *
 * <ol>
 * <li>{@code CheckData}: ListObjectsV2 with {@code MaxKeys} 1 on each data location. FSx shows a directory only
 * for imported objects, so only the locations that hold an object are warmed; when none does, the execution
 * succeeds at once with status {@code EMPTY} and no worker is started.</li>
 * <li>{@code StartImport}: CreateDataRepositoryTask {@code IMPORT_METADATA_FROM_REPOSITORY} of those locations
 * (idempotent: its client token is the execution's name). Auto-import creates no task, so waiting for tasks would
 * not see an upload; this task imports what was uploaded (also with auto-import off). While another task runs
 * (DataRepositoryTaskExecuting, e.g. an association's create-time import) it waits and tries again.</li>
 * <li>{@code DescribeImport}: DescribeDataRepositoryTasks of that task until it SUCCEEDED; FAILED or CANCELED fails
 * the execution with {@code ImportFailed} and FSx's failure details. Both loops share the import timeout
 * ({@code ImportNotFinished}) and an interval that keeps them under {@value #MAX_POLLS} polls, about 9 history events
 * each, far below Step Functions' 25,000.</li>
 * <li>{@code Warm}: the worker, {@code sagemaker:createTrainingJob.sync}, with the channels of the non-empty
 * locations only. Throttling, ResourceLimitExceeded, a role SageMaker cannot assume yet and a job that failed for
 * capacity are retried, up to {@link WorkerAttempts#MAX_ATTEMPTS} jobs named by {@link WorkerAttempts}, with
 * backoff, within {@link #RETRY_WINDOW}; a failed script never is. The output names the worker and the empty
 * locations, with status {@code WARMED} or {@code PARTIAL}.</li>
 * </ol>
 *
 * <p>JSONata (recommended by the Step Functions guide for new state machines) keeps each step one state. Logging at
 * level ALL and X-Ray tracing are on; the role may list only the data locations, create import tasks only on the
 * cache's file system, describe FSx tasks (no resource-level permissions exist), and run only the preload's worker
 * jobs, as the {@code .sync} integration needs.
 */
final class PreloadStateMachine extends Construct {
    /** Most polls of the import loops. */
    static final int MAX_POLLS = 500;
    /** Shortest interval between polls. */
    static final Duration MIN_POLL_INTERVAL = Duration.minutes(1);
    /** Time beyond the import and worker limits: the data check, the worker's start-up and stop. */
    static final Duration MARGIN = Duration.hours(1);
    /**
     * How long after its first attempt the worker is retried: the deploy's own wait, so that retries fit in what a
     * waiting deploy waits for.
     */
    static final Duration RETRY_WINDOW = LustrePreload.MAX_WAITING_TIMEOUT;
    /** The wait before the second worker attempt; it doubles for each later one. */
    static final Duration FIRST_BACKOFF = Duration.minutes(1);
    /** The longest wait between worker attempts. */
    static final Duration MAX_BACKOFF = Duration.minutes(10);
    /**
     * The error Step Functions raises when CreateDataRepositoryTask answers DataRepositoryTaskExecuting:
     * {@code <exception prefix>.<SDK exception>} (Step Functions guide, "AWS SDK service integrations": the
     * prefix of Amazon FSx is {@code FSx}). ImportBusy also recognizes the code in any error's text.
     */
    static final String IMPORT_BUSY_ERROR = "FSx.DataRepositoryTaskExecutingException";
    private static final String IMPORT_BUSY_CODE = "DataRepositoryTaskExecuting";
    private static final String IMPORT_TASK_TYPE = "IMPORT_METADATA_FROM_REPOSITORY";
    private static final String INPUT = "$states.context.Execution.Input.";
    private static final String EXECUTION_NAME = "$states.context.Execution.Name";
    /** The worker's name for the current {@code $attempt} ({@link WorkerAttempts#name}). */
    private static final String WORKER_NAME = "($attempt = 1 ? " + EXECUTION_NAME + " : " + EXECUTION_NAME
            + " & '-' & $attempt)";
    /** Milliseconds since the execution started, when the current state was entered. */
    private static final String SINCE_START =
            "($toMillis($states.context.State.EnteredTime) - $toMillis($states.context.Execution.StartTime))";
    /**
     * Whether the worker's failure ({@code $workerFailure}, the Catch's error output) is worth another job. A job
     * that ran and failed (its DescribeTrainingJob in the cause) only for capacity
     * ({@link CapacityPlan#CAPACITY_FAILURE} or SageMaker's other capacity messages), an internal error or a role
     * SageMaker could not assume yet; an API error for throttling, ResourceLimitExceeded, IAM propagation or a 5xx.
     * Never a failed script (AlgorithmError) or any other client error.
     */
    private static final String RETRYABLE = "($text := $string($workerFailure.Cause);"
            + " $contains($text, /\"TrainingJobStatus\"\\s*:\\s*\"Failed\"/)"
            + " ? $contains($text, /\"FailureReason\"\\s*:\\s*\"(" + CapacityPlan.CAPACITY_FAILURE
            + "|InternalServerError|ClientError: SageMaker was unable to assume the role|Insufficient[^\"]*capacity"
            + "|There is not enough capacity)/)"
            + " : ($contains($string($workerFailure.Error), 'ResourceLimitExceeded') or $contains($text,"
            + " /ThrottlingException|Rate exceeded|ResourceLimitExceeded|Could not assume role|InternalServerError"
            + "|ServiceUnavailable/)))";

    /**
     * The error of an execution whose last worker failed (never the worker's own error, which may be a reserved
     * {@code States.} name); the cause is JSON: the worker's name, its attempt, the most attempts, and the worker's
     * error and cause.
     */
    static final String WORKER_FAILED = "TrainingData.PreloadWorkerFailed";
    /**
     * The error of an execution whose import task FSx refused for another reason than a running task (never the
     * refusal's own error, which may be a reserved {@code States.} name such as {@code States.Timeout}); the cause is
     * JSON: the refusal's error and cause.
     */
    static final String IMPORT_NOT_STARTED = "ImportNotStarted";

    private final StateMachine stateMachine;

    PreloadStateMachine(Construct scope, String id, TrainingJobBlueprint worker, String fileSystemId,
            List<DataLocation> locations, Duration importTimeout, Duration workerTimeout, IKey logsKey) {
        super(scope, id);
        Stack stack = Stack.of(this);
        long importSeconds = importTimeout.toSeconds().longValue();
        long timeoutSeconds = importSeconds + RETRY_WINDOW.toSeconds().longValue()
                + workerTimeout.toSeconds().longValue() + MARGIN.toSeconds().longValue();
        LogGroup logs = LogGroups.shared(this, logsKey);
        this.stateMachine = StateMachine.Builder.create(this, "Resource")
                .definitionBody(DefinitionBody.fromString(stack.toJsonString(
                        definition(worker, importSeconds, timeoutSeconds))))
                .logs(LogOptions.builder().destination(logs).level(LogLevel.ALL).includeExecutionData(true).build())
                .tracingEnabled(true)
                .build();

        WildcardFindings findings = new WildcardFindings(stateMachine.getRole());
        grantListing(locations);
        String fileSystem = stack.formatArn(ArnComponents.builder().service("fsx").resource("file-system")
                .resourceName(fileSystemId).arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
        String tasks = stack.formatArn(ArnComponents.builder().service("fsx").resource("task").resourceName("*")
                .arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                .actions(List.of("fsx:CreateDataRepositoryTask")).resources(List.of(fileSystem, tasks)).build());
        findings.add(List.of(tasks), "fsx:CreateDataRepositoryTask requires both the file system and the new task "
                + "(Service Authorization Reference); FSx generates the task's id at creation, so it cannot be named in "
                + "advance. The same statement limits the action to the cache's own file system, and no tags are passed "
                + "(no fsx:TagResource is granted).");
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                .actions(List.of("fsx:DescribeDataRepositoryTasks")).resources(List.of("*")).build());
        findings.add(List.of("*"), "fsx:DescribeDataRepositoryTasks supports no resource-level permissions; it only "
                + "reads task descriptions. Added by aws-cdk-lib for X-Ray trace upload and CloudWatch Logs vended log "
                + "delivery, which support no resource-level permissions.");
        String workers = stack.formatArn(ArnComponents.builder().service("sagemaker").resource("training-job")
                .resourceName(worker.getJobNamePrefix() + "-*").arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                .actions(List.of("sagemaker:CreateTrainingJob", "sagemaker:DescribeTrainingJob",
                        "sagemaker:StopTrainingJob", "sagemaker:ListTags"))
                .resources(List.of(workers)).build());
        findings.add(List.of(workers), "Each execution runs its workers, named '" + worker.getJobNamePrefix()
                + "-<8 hex>-<12 hex>[-<attempt>]'; the state machine may manage only jobs with that prefix.");
        SyncTrainingPermissions.grant(stateMachine, worker.getRole());
        findings.acknowledge();
    }

    /** ListBucket on each bucket, only for the locations' prefixes (a bucket-root location lists it all). */
    private void grantListing(List<DataLocation> locations) {
        Map<IBucket, Set<String>> prefixes = new LinkedHashMap<>();
        for (DataLocation location : locations) {
            prefixes.computeIfAbsent(location.bucket().getBucket(), b -> new LinkedHashSet<>()).add(location.listPrefix());
        }
        prefixes.forEach((bucket, listed) -> {
            PolicyStatement.Builder statement = PolicyStatement.Builder.create()
                    .actions(List.of("s3:ListBucket")).resources(List.of(bucket.getBucketArn()));
            if (!listed.contains("")) {
                statement.conditions(Map.of("StringEquals", Map.of("s3:prefix", new ArrayList<>(listed))));
            }
            stateMachine.addToRolePolicy(statement.build());
        });
    }

    /** Seconds between polls of the import: at least a minute, and at most {@value #MAX_POLLS} polls in all. */
    static long pollSeconds(long importSeconds) {
        return Math.max(MIN_POLL_INTERVAL.toSeconds().longValue(), (importSeconds + MAX_POLLS - 1) / MAX_POLLS);
    }

    private Map<String, Object> definition(TrainingJobBlueprint worker, long importSeconds, long timeoutSeconds) {
        String partition = Stack.of(this).getPartition();
        long importMillis = importSeconds * 1000;
        Map<String, Object> states = new LinkedHashMap<>();
        Map<String, Object> request = new LinkedHashMap<>(worker.getRequest());
        Object channels = request.remove("InputDataConfig");

        states.put("CheckData", checkData(partition, channels));
        states.put("AnyData", choice(List.of(rule("{% $count($withData) = 0 %}", "Empty", null)), "StartImport"));
        Map<String, Object> empty = new LinkedHashMap<>();
        empty.put("Type", "Succeed");
        empty.put("Comment", "Nothing to warm yet: no worker");
        Map<String, Object> nothing = new LinkedHashMap<>();
        nothing.put(PreloadExecutionOutput.STATUS, PreloadStatus.EMPTY);
        nothing.put(PreloadExecutionOutput.EMPTY_LOCATIONS, "{% $emptyLocations %}");
        empty.put("Output", nothing);
        states.put("Empty", empty);

        Map<String, Object> importArguments = new LinkedHashMap<>();
        importArguments.put("Type", IMPORT_TASK_TYPE);
        importArguments.put("FileSystemId", "{% " + INPUT + PreloadExecutionInput.FILE_SYSTEM_ID + " %}");
        importArguments.put("Paths", "{% $withData %}");
        importArguments.put("Report", Map.of("Enabled", false));
        importArguments.put("ClientRequestToken", "{% " + EXECUTION_NAME + " %}");
        Map<String, Object> busyRetrier = new LinkedHashMap<>();
        busyRetrier.put("ErrorEquals", List.of(IMPORT_BUSY_ERROR));
        busyRetrier.put("MaxAttempts", 0);
        List<Map<String, Object>> importRetry = new ArrayList<>(List.of(busyRetrier));
        importRetry.addAll(transientRetry());
        Map<String, Object> startImport = task("Import the metadata of the locations that hold data (idempotent: the "
                + "client token is the execution's name)", partition, "aws-sdk:fsx:createDataRepositoryTask",
                importArguments);
        startImport.put("Retry", importRetry);
        startImport.put("Catch", List.of(catcher("importError", "ImportBusy")));
        startImport.put("Assign", Map.of("importTaskId", "{% $states.result.DataRepositoryTask.TaskId %}"));
        startImport.put("Next", "DescribeImport");
        states.put("StartImport", startImport);

        String busy = "$contains($string($importError), '" + IMPORT_BUSY_CODE + "')";
        states.put("ImportBusy", choice(List.of(
                rule("{% " + busy + " and " + SINCE_START + " <= " + importMillis + " %}", "WaitToStartImport", null),
                rule("{% " + busy + " %}", "ImportNotFinished", null)), "ImportNotStarted"));
        states.put("WaitToStartImport", waitState(pollSeconds(importSeconds), "StartImport"));
        states.put("ImportNotStarted", fail(IMPORT_NOT_STARTED, "{% $string({'Error': $importError.Error, 'Cause': "
                + orEmpty("$importError.Cause") + "}) %}"));

        Map<String, Object> describeImport = task("Look at the import task", partition,
                "aws-sdk:fsx:describeDataRepositoryTasks", Map.of("TaskIds", List.of("{% $importTaskId %}")));
        describeImport.put("Output", "{% {'Lifecycle': $states.result.DataRepositoryTasks[0].Lifecycle, 'Message': "
                + "$states.result.DataRepositoryTasks[0].FailureDetails.Message} %}");
        describeImport.put("Retry", transientRetry());
        describeImport.put("Next", "ImportDone");
        states.put("DescribeImport", describeImport);
        Map<String, Object> firstAttempt = new LinkedHashMap<>();
        firstAttempt.put("attempt", 1);
        firstAttempt.put("warmFrom", "{% $toMillis($states.context.State.EnteredTime) %}");
        states.put("ImportDone", choice(List.of(
                rule("{% $states.input.Lifecycle = 'SUCCEEDED' %}", "Warm", firstAttempt),
                rule("{% $states.input.Lifecycle in ['FAILED', 'CANCELED'] %}", "ImportFailed",
                        Map.of("importFailure", "{% $states.input %}")),
                rule("{% " + SINCE_START + " > " + importMillis + " %}", "ImportNotFinished", null)), "WaitForImport"));
        states.put("WaitForImport", waitState(pollSeconds(importSeconds), "DescribeImport"));
        states.put("ImportFailed", fail("ImportFailed", "{% 'FSx import task ' & $importTaskId & ' ended ' & "
                + "$importFailure.Lifecycle & ': ' & " + orEmpty("$importFailure.Message") + " & '. Check the data "
                + "repository associations of ' & " + INPUT + PreloadExecutionInput.FILE_SYSTEM_ID + " & ' and the "
                + "objects under ' & $join($withData, ', ') & ', then change datasetVersion and deploy again.' %}"));
        states.put("ImportNotFinished", fail("ImportNotFinished", "FSx was still importing file metadata from S3 "
                + "(this execution's import task, or another data repository task before it) after " + importSeconds
                + " s (the preload's importTimeout). Raise importTimeout, then change datasetVersion and deploy "
                + "again."));

        states.put("Warm", warm(partition, worker, request));
        long windowMillis = RETRY_WINDOW.toMilliseconds().longValue();
        String nextBackoffMillis = "($min([" + FIRST_BACKOFF.toSeconds() + " * $power(2, $attempt - 1), "
                + MAX_BACKOFF.toSeconds() + "]) * 1000)";
        states.put("WorkerRetry", choice(List.of(rule("{% $attempt < " + WorkerAttempts.MAX_ATTEMPTS
                + " and ($toMillis($states.context.State.EnteredTime) - $warmFrom + " + nextBackoffMillis + ") <= "
                + windowMillis + " and (" + RETRYABLE + ") = true %}", "WaitToRetryWorker",
                Map.of("attempt", "{% $attempt + 1 %}"))), "WorkerFailed"));
        Map<String, Object> backoff = new LinkedHashMap<>();
        backoff.put("Type", "Wait");
        backoff.put("Comment", "Back off before the next worker, which gets a new name (SageMaker never reuses one)");
        backoff.put("Seconds", "{% $floor($min([" + FIRST_BACKOFF.toSeconds() + " * $power(2, $attempt - 2), "
                + MAX_BACKOFF.toSeconds() + "])) %}");
        backoff.put("Next", "Warm");
        states.put("WaitToRetryWorker", backoff);
        states.put("WorkerFailed", fail(WORKER_FAILED, "{% $string({'Worker': " + WORKER_NAME + ", 'Attempt': $attempt, "
                + "'MaxAttempts': " + WorkerAttempts.MAX_ATTEMPTS + ", 'Error': $workerFailure.Error, 'Cause': "
                + orEmpty("$workerFailure.Cause") + "}) %}"));

        Map<String, Object> asl = new LinkedHashMap<>();
        asl.put("Comment", "Lustre preload " + getNode().getScope().getNode().getPath() + ": check each data location, "
                + "import the metadata of those that hold data, warm them with the worker");
        asl.put("QueryLanguage", "JSONata");
        asl.put("TimeoutSeconds", timeoutSeconds);
        asl.put("StartAt", "CheckData");
        asl.put("States", states);
        return asl;
    }

    /**
     * One ListObjectsV2 per location (0 or 1 object); assigns the count per location ({@code $found}), the URIs
     * with data ({@code $withData}) and without ({@code $emptyLocations}), and the worker's channels, one per
     * location in the same order ({@code $workerChannels}).
     */
    private static Map<String, Object> checkData(String partition, Object channels) {
        Map<String, Object> listOne = task("One key is enough to know the location holds data", partition,
                "aws-sdk:s3:listObjectsV2", "{% {'Bucket': $states.input." + PreloadExecutionInput.BUCKET
                        + ", 'Prefix': $states.input." + PreloadExecutionInput.PREFIX + ", 'StartAfter': $states.input."
                        + PreloadExecutionInput.START_AFTER + ", 'MaxKeys': 1} %}");
        listOne.put("Output", "{% $count($states.result.Contents) %}");
        listOne.put("Retry", transientRetry());
        listOne.put("End", true);
        Map<String, Object> processor = new LinkedHashMap<>();
        processor.put("ProcessorConfig", Map.of("Mode", "INLINE"));
        processor.put("StartAt", "ListOneObject");
        processor.put("States", Map.of("ListOneObject", listOne));
        String locations = "$states.input." + PreloadExecutionInput.DATA_LOCATIONS;
        Map<String, Object> assign = new LinkedHashMap<>();
        assign.put("found", "{% $states.result %}");
        assign.put("withData", "{% [$filter(" + locations + ", function($l, $i) { $states.result[$i] > 0 })."
                + PreloadExecutionInput.URI + "] %}");
        assign.put("emptyLocations", "{% [$filter(" + locations + ", function($l, $i) { $states.result[$i] = 0 })."
                + PreloadExecutionInput.URI + "] %}");
        assign.put("workerChannels", channels);
        Map<String, Object> checkData = new LinkedHashMap<>();
        checkData.put("Type", "Map");
        checkData.put("Comment", "Count the objects found (0 or 1) at each data location");
        checkData.put("Items", "{% " + locations + " %}");
        checkData.put("ItemProcessor", processor);
        checkData.put("Assign", assign);
        checkData.put("Next", "AnyData");
        return checkData;
    }

    /** The worker: the channels of the locations that hold data only, named after the attempt. */
    private static Map<String, Object> warm(String partition, TrainingJobBlueprint worker, Map<String, Object> request) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        arguments.put("TrainingJobName", "{% " + WORKER_NAME + " %}");
        arguments.putAll(request);
        arguments.put("InputDataConfig", "{% [$filter($workerChannels, function($c, $i) { $found[$i] > 0 })] %}");
        Map<String, Object> warm = task("The worker mounts the cache and reads every file of the locations that hold "
                + "data; waits until the job ends", partition, "sagemaker:createTrainingJob.sync", arguments);
        warm.put("Output", "{% {'" + PreloadExecutionOutput.STATUS + "': $count($emptyLocations) > 0 ? '"
                + PreloadStatus.PARTIAL + "' : '" + PreloadStatus.WARMED + "', '" + PreloadExecutionOutput.WORKER_JOB_NAME
                + "': " + WORKER_NAME + ", '" + PreloadExecutionOutput.EMPTY_LOCATIONS + "': $emptyLocations} %}");
        warm.put("Catch", List.of(catcher("workerFailure", "WorkerRetry")));
        warm.put("End", true);
        return warm;
    }

    private static Map<String, Object> task(String comment, String partition, String integration, Object arguments) {
        Map<String, Object> task = new LinkedHashMap<>();
        task.put("Type", "Task");
        task.put("Comment", comment);
        task.put("Resource", "arn:" + partition + ":states:::" + integration);
        task.put("Arguments", arguments);
        return task;
    }

    /** Catches every error, keeps its error output in a variable and goes on to {@code next}. */
    private static Map<String, Object> catcher(String variable, String next) {
        Map<String, Object> catcher = new LinkedHashMap<>();
        catcher.put("ErrorEquals", List.of("States.ALL"));
        catcher.put("Assign", Map.of(variable, "{% $states.errorOutput %}"));
        catcher.put("Next", next);
        return catcher;
    }

    /** A JSONata expression that is the string at {@code path}, or empty when there is none. */
    private static String orEmpty(String path) {
        return "($exists(" + path + ") ? $string(" + path + ") : '')";
    }

    private static Map<String, Object> waitState(long seconds, String next) {
        Map<String, Object> wait = new LinkedHashMap<>();
        wait.put("Type", "Wait");
        wait.put("Seconds", seconds);
        wait.put("Next", next);
        return wait;
    }

    private static Map<String, Object> fail(String error, String cause) {
        Map<String, Object> fail = new LinkedHashMap<>();
        fail.put("Type", "Fail");
        fail.put("Error", error);
        fail.put("Cause", cause);
        return fail;
    }

    /** Throttling, 5xx and network errors of the SDK integrations: a few retries with backoff and jitter. */
    private static List<Map<String, Object>> transientRetry() {
        Map<String, Object> retry = new LinkedHashMap<>();
        retry.put("ErrorEquals", List.of("States.TaskFailed"));
        retry.put("IntervalSeconds", 5);
        retry.put("MaxAttempts", 5);
        retry.put("BackoffRate", 2);
        retry.put("MaxDelaySeconds", 60);
        retry.put("JitterStrategy", "FULL");
        return List.of(retry);
    }

    private static Map<String, Object> rule(String condition, String next, Map<String, Object> assign) {
        Map<String, Object> rule = new LinkedHashMap<>();
        rule.put("Condition", condition);
        if (assign != null) {
            rule.put("Assign", assign);
        }
        rule.put("Next", next);
        return rule;
    }

    private static Map<String, Object> choice(List<Map<String, Object>> rules, String otherwise) {
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("Type", "Choice");
        choice.put("Choices", rules);
        choice.put("Default", otherwise);
        return choice;
    }

    StateMachine getStateMachine() {
        return stateMachine;
    }
}
