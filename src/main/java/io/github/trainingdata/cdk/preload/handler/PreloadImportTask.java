package io.github.trainingdata.cdk.preload.handler;

import static io.github.trainingdata.cdk.internal.handler.SdkCalls.isTransient;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.fsx.model.DataRepositoryTask;
import software.amazon.awssdk.services.fsx.model.DataRepositoryTaskEndedException;
import software.amazon.awssdk.services.fsx.model.DataRepositoryTaskLifecycle;
import software.amazon.awssdk.services.fsx.model.DataRepositoryTaskNotFoundException;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.GetExecutionHistoryResponse;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;
import software.amazon.awssdk.services.sfn.model.HistoryEventType;

/**
 * The FSx import task a preload execution started ({@code StartImport}: CreateDataRepositoryTask
 * {@code IMPORT_METADATA_FROM_REPOSITORY}), found in the execution's history (the task's result holds its id), and
 * cancelled when the preload is deleted, replaced or rolled back: a stopped execution does not stop its task, which
 * would keep the file system from being deleted ("You cannot delete an FSx for Lustre file system if there are data
 * repository tasks for the file system in the PENDING or EXECUTING states", FSx API reference, DataRepositoryTask) and
 * hold up the next execution's import (DataRepositoryTaskExecuting). Never fails: what cannot be read is logged.
 */
final class PreloadImportTask {
    /** The task's id in StartImport's result ({@code DataRepositoryTask.TaskId}, pattern {@code task-[0-9a-f]{17,}}). */
    private static final Pattern TASK_ID = Pattern.compile("\"TaskId\"\\s*:\\s*\"(task-[0-9a-f]{17,})\"");
    /** StartImport runs after the data check: within the first pages of the history. */
    private static final int MAX_PAGES = 5;
    private static final int PAGE_SIZE = 200;

    private final SfnClient stepFunctions;
    private final FSxClient fsx;

    PreloadImportTask(SfnClient stepFunctions, FSxClient fsx) {
        this.stepFunctions = stepFunctions;
        this.fsx = fsx;
    }

    /**
     * Cancels the execution's import task if it is PENDING or EXECUTING, and tells whether it is over.
     *
     * @return true when the execution started no task, or its task has ended (or cannot be looked at); false while
     *         it is being cancelled, or when a transient error means "look again"
     */
    boolean cancel(String executionArn, LambdaLogger log) {
        Optional<String> taskId;
        try {
            taskId = taskOf(executionArn);
        } catch (SdkException e) {
            log.log("Could not read the history of preload execution " + executionArn + " for its FSx import task ("
                    + (isTransient(e) ? "transient, will retry" : "ignored") + "): " + e.getMessage());
            return !isTransient(e);
        }
        if (taskId.isEmpty()) {
            return true;
        }
        String id = taskId.get();
        try {
            List<DataRepositoryTask> tasks = fsx.describeDataRepositoryTasks(r -> r.taskIds(id)).dataRepositoryTasks();
            DataRepositoryTaskLifecycle lifecycle = tasks.isEmpty() ? DataRepositoryTaskLifecycle.SUCCEEDED
                    : tasks.get(0).lifecycle();
            if (lifecycle == DataRepositoryTaskLifecycle.PENDING || lifecycle == DataRepositoryTaskLifecycle.EXECUTING) {
                fsx.cancelDataRepositoryTask(r -> r.taskId(id));
                log.log("Cancelled FSx import task " + id + " of preload execution " + executionArn);
                return false;
            }
            if (lifecycle == DataRepositoryTaskLifecycle.CANCELING) {
                log.log("FSx import task " + id + " of preload execution " + executionArn + " is CANCELING: waiting");
                return false;
            }
            log.log("FSx import task " + id + " of preload execution " + executionArn + " is " + lifecycle + ": over");
            return true;
        } catch (DataRepositoryTaskNotFoundException | DataRepositoryTaskEndedException e) {
            return true;
        } catch (SdkException e) {
            log.log("Could not check or cancel FSx import task " + id + " (" + (isTransient(e) ? "transient, will retry"
                    : "ignored") + "): " + e.getMessage());
            return !isTransient(e);
        }
    }

    /** The id of the task StartImport created, from its TaskSucceeded event, if the execution got that far. */
    private Optional<String> taskOf(String executionArn) {
        String token = null;
        for (int page = 0; page < MAX_PAGES; page++) {
            String next = token;
            GetExecutionHistoryResponse history = stepFunctions.getExecutionHistory(r -> r.executionArn(executionArn)
                    .maxResults(PAGE_SIZE).includeExecutionData(true).nextToken(next));
            for (HistoryEvent event : history.events()) {
                if (event.type() == HistoryEventType.TASK_SUCCEEDED && event.taskSucceededEventDetails() != null
                        && "createDataRepositoryTask".equals(event.taskSucceededEventDetails().resource())
                        && event.taskSucceededEventDetails().output() != null) {
                    Matcher id = TASK_ID.matcher(event.taskSucceededEventDetails().output());
                    if (id.find()) {
                        return Optional.of(id.group(1));
                    }
                }
            }
            token = history.nextToken();
            if (token == null || token.isEmpty()) {
                break;
            }
        }
        return Optional.empty();
    }
}
