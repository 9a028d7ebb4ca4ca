package io.github.trainingdata.cdk.preload;

import io.github.trainingdata.cdk.storage.LogGroups;
import io.github.trainingdata.cdk.WildcardFindings;
import io.github.trainingdata.cdk.preload.handler.PreloadExecutionInput;
import io.github.trainingdata.cdk.preload.handler.PreloadStatus;
import io.github.trainingdata.cdk.training.SyncTrainingPermissions;
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
 * <li>{@code CheckData}: ListObjectsV2 with {@code MaxKeys} 1 on each data location; when none holds an
 * object the execution succeeds at once with status {@code EMPTY}, and no worker is started.</li>
 * <li>{@code CheckImports}: DescribeDataRepositoryTasks of the file system (lifecycle PENDING or EXECUTING);
 * while an {@code IMPORT_METADATA_FROM_REPOSITORY} task runs (a data repository association created with
 * BatchImportMetaDataOnCreate starts one, and files exist only once imported) it waits and looks again,
 * and fails with {@code ImportNotFinished} once the import timeout has passed. The interval keeps the loop
 * under {@value #MAX_POLLS} polls, about 9 history events each, far below Step Functions' 25,000.</li>
 * <li>{@code Warm}: the worker, {@code sagemaker:createTrainingJob.sync}, named by the execution input;
 * stopping the execution makes Step Functions stop the job (best effort).</li>
 * </ol>
 *
 * <p>JSONata (recommended by the Step Functions guide for new state machines) keeps each step one state: it
 * counts a missing list as zero and compares times without helper states. Logging at level ALL and X-Ray
 * tracing are on; the role may list only the data locations, describe FSx tasks (no resource-level
 * permissions exist), and run only the preload's worker jobs, as the {@code .sync} integration needs.
 */
final class PreloadStateMachine extends Construct {
    /** Most polls of the import loop. */
    static final int MAX_POLLS = 500;
    /** Shortest interval between polls. */
    static final Duration MIN_POLL_INTERVAL = Duration.minutes(1);
    /** Time beyond the import and worker limits: the data check, the worker's start-up and stop. */
    static final Duration MARGIN = Duration.hours(1);
    private static final String IMPORT_TASK_TYPE = "IMPORT_METADATA_FROM_REPOSITORY";
    private static final String INPUT = "$states.context.Execution.Input.";

    private final StateMachine stateMachine;

    PreloadStateMachine(Construct scope, String id, TrainingJobBlueprint worker, List<DataLocation> locations,
            Duration importTimeout, Duration workerTimeout, IKey logsKey) {
        super(scope, id);
        Stack stack = Stack.of(this);
        long importSeconds = importTimeout.toSeconds().longValue();
        long timeoutSeconds = importSeconds + workerTimeout.toSeconds().longValue() + MARGIN.toSeconds().longValue();
        LogGroup logs = LogGroups.create(this, "Logs", logsKey);
        this.stateMachine = StateMachine.Builder.create(this, "Resource")
                .definitionBody(DefinitionBody.fromString(stack.toJsonString(
                        definition(worker, importSeconds, timeoutSeconds))))
                .logs(LogOptions.builder().destination(logs).level(LogLevel.ALL).includeExecutionData(true).build())
                .tracingEnabled(true)
                .build();

        WildcardFindings findings = new WildcardFindings(stateMachine.getRole());
        grantListing(locations);
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
        findings.add(List.of(workers), "Each execution runs one worker named '" + worker.getJobNamePrefix()
                + "-<12 hex>'; the state machine may manage only jobs with that prefix.");
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
        Map<String, Object> states = new LinkedHashMap<>();

        Map<String, Object> listOne = new LinkedHashMap<>();
        listOne.put("Type", "Task");
        listOne.put("Comment", "One key is enough to know the location holds data");
        listOne.put("Resource", "arn:" + partition + ":states:::aws-sdk:s3:listObjectsV2");
        listOne.put("Arguments", "{% $merge([$states.input, {'MaxKeys': 1}]) %}");
        listOne.put("Output", "{% $count($states.result.Contents) %}");
        listOne.put("Retry", transientRetry());
        listOne.put("End", true);
        Map<String, Object> processor = new LinkedHashMap<>();
        processor.put("ProcessorConfig", Map.of("Mode", "INLINE"));
        processor.put("StartAt", "ListOneObject");
        processor.put("States", Map.of("ListOneObject", listOne));
        Map<String, Object> checkData = new LinkedHashMap<>();
        checkData.put("Type", "Map");
        checkData.put("Comment", "Count the objects found (0 or 1) at each data location");
        checkData.put("Items", "{% $states.input." + PreloadExecutionInput.DATA_LOCATIONS + " %}");
        checkData.put("ItemProcessor", processor);
        checkData.put("Output", "{% $sum($states.result) %}");
        checkData.put("Next", "AnyData");
        states.put("CheckData", checkData);

        states.put("AnyData", choice(List.of(rule("{% $states.input = 0 %}", "Empty")), "CheckImports"));
        Map<String, Object> empty = new LinkedHashMap<>();
        empty.put("Type", "Succeed");
        empty.put("Comment", "Nothing to warm yet: no worker");
        empty.put("Output", Map.of(PreloadStatus.OUTPUT_FIELD, PreloadStatus.EMPTY));
        states.put("Empty", empty);

        Map<String, Object> fileSystem = new LinkedHashMap<>();
        fileSystem.put("Name", "file-system-id");
        fileSystem.put("Values", List.of("{% " + INPUT + PreloadExecutionInput.FILE_SYSTEM_ID + " %}"));
        Map<String, Object> lifecycle = new LinkedHashMap<>();
        lifecycle.put("Name", "task-lifecycle");
        lifecycle.put("Values", List.of("PENDING", "EXECUTING"));
        Map<String, Object> checkImports = new LinkedHashMap<>();
        checkImports.put("Type", "Task");
        checkImports.put("Comment", "Count the metadata imports from S3 that are pending or running");
        checkImports.put("Resource", "arn:" + partition + ":states:::aws-sdk:fsx:describeDataRepositoryTasks");
        checkImports.put("Arguments", Map.of("Filters", List.of(fileSystem, lifecycle)));
        checkImports.put("Output", "{% $count($states.result.DataRepositoryTasks[Type = '" + IMPORT_TASK_TYPE + "']) %}");
        checkImports.put("Retry", transientRetry());
        checkImports.put("Next", "Imported");
        states.put("CheckImports", checkImports);

        String waited = "($toMillis($states.context.State.EnteredTime) - $toMillis($states.context.Execution.StartTime))";
        states.put("Imported", choice(List.of(
                rule("{% $states.input = 0 %}", "Warm"),
                rule("{% " + waited + " > " + importSeconds * 1000 + " %}", "ImportNotFinished")), "WaitForImport"));
        Map<String, Object> wait = new LinkedHashMap<>();
        wait.put("Type", "Wait");
        wait.put("Seconds", pollSeconds(importSeconds));
        wait.put("Next", "CheckImports");
        states.put("WaitForImport", wait);
        Map<String, Object> importNotFinished = new LinkedHashMap<>();
        importNotFinished.put("Type", "Fail");
        importNotFinished.put("Error", "ImportNotFinished");
        importNotFinished.put("Cause", "FSx was still importing file metadata from S3 after " + importSeconds
                + " s (the preload's importTimeout). Raise importTimeout, then change datasetVersion and deploy again.");
        states.put("ImportNotFinished", importNotFinished);

        Map<String, Object> arguments = new LinkedHashMap<>();
        arguments.put("TrainingJobName", "{% " + INPUT + PreloadExecutionInput.WORKER_JOB_NAME + " %}");
        arguments.putAll(worker.getRequest());
        Map<String, Object> warm = new LinkedHashMap<>();
        warm.put("Type", "Task");
        warm.put("Comment", "The worker mounts the cache and reads every file; waits until the job ends");
        warm.put("Resource", "arn:" + partition + ":states:::sagemaker:createTrainingJob.sync");
        warm.put("Arguments", arguments);
        warm.put("Output", Map.of(PreloadStatus.OUTPUT_FIELD, PreloadStatus.WARMED));
        warm.put("End", true);
        states.put("Warm", warm);

        Map<String, Object> asl = new LinkedHashMap<>();
        asl.put("Comment", "Lustre preload " + getNode().getScope().getNode().getPath()
                + ": check the data, wait for FSx's metadata import, warm the cache with the worker");
        asl.put("QueryLanguage", "JSONata");
        asl.put("TimeoutSeconds", timeoutSeconds);
        asl.put("StartAt", "CheckData");
        asl.put("States", states);
        return asl;
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

    private static Map<String, Object> rule(String condition, String next) {
        Map<String, Object> rule = new LinkedHashMap<>();
        rule.put("Condition", condition);
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
