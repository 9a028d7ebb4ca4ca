package io.github.trainingdata.cdk.preload.handler;

import static io.github.trainingdata.cdk.internal.handler.SdkCalls.isTransient;
import static io.github.trainingdata.cdk.preload.handler.PreloadClients.isAccessDenied;
import static io.github.trainingdata.cdk.preload.handler.PreloadClients.isNotFound;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import io.github.trainingdata.cdk.internal.handler.CustomResourceEvent;
import io.github.trainingdata.cdk.internal.handler.ExecutionArns;
import io.github.trainingdata.cdk.launch.TrainingJobNames;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.TrainingJobStatus;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Stops preload executions, cancels their FSx import tasks ({@link PreloadImportTask}) and waits for both and for
 * their workers: the Delete of a preload custom resource (so that no network interface is left in the VPC
 * CloudFormation deletes next, and no import task keeps the file system from being deleted or the next warm-up from
 * importing) and the execution a rollback abandons. Never fails.
 *
 * <p>A worker the handler may not describe (AccessDenied: for example one named under a prefix its policy no
 * longer covers) is not "gone": the teardown says so plainly, makes sure its execution is stopped (Step Functions
 * then stops the job) and does not wait for it, since waiting would only end in the dispatcher's deadline.
 */
final class PreloadTeardown {
    private final SfnClient stepFunctions;
    private final SageMakerClient sageMaker;
    private final PreloadImportTask importTask;

    PreloadTeardown(SfnClient stepFunctions, SageMakerClient sageMaker, FSxClient fsx) {
        this.stepFunctions = stepFunctions;
        this.sageMaker = sageMaker;
        this.importTask = new PreloadImportTask(stepFunctions, fsx);
    }

    /** Stops the deleted preload's execution if it runs (Step Functions then stops its worker). Never fails. */
    void stopExecution(CustomResourceEvent request, LambdaLogger log) {
        String arn = deletedExecutionArn(request, log);
        if (arn != null) {
            stopIfRunning(arn, "PreloadDeleted", "CloudFormation deleted or replaced the preload custom resource", log);
        }
    }

    /**
     * Stops an execution if it runs, and cancels its import task if that still runs. Never fails: an error is logged
     * and the caller goes on.
     *
     * @return whether it was running and was stopped
     */
    boolean stopIfRunning(String executionArn, String error, String cause, LambdaLogger log) {
        try {
            if (stepFunctions.describeExecution(r -> r.executionArn(executionArn)).status() == ExecutionStatus.RUNNING) {
                stepFunctions.stopExecution(r -> r.executionArn(executionArn).error(error).cause(cause));
                log.log("Stopped preload execution " + executionArn + " (" + error + ")");
                importTask.cancel(executionArn, log);
                return true;
            }
            log.log("Preload execution " + executionArn + " is not running: nothing to stop");
        } catch (SdkException e) {
            log.log("Could not check or stop preload execution " + executionArn + " (ignored, going on): "
                    + e.getMessage());
        }
        return false;
    }

    /**
     * Whether a deleted preload has ended: no running execution, no import task of it pending or executing, and no
     * worker (of any attempt) still holding network interfaces in the VPC that CloudFormation deletes next. Stops and
     * cancels what still runs. Never fails: transient errors mean "not yet"; a worker that may not be described is
     * reported as unknown, not as gone.
     */
    boolean deleted(CustomResourceEvent request, LambdaLogger log) {
        String arn = deletedExecutionArn(request, log);
        if (arn == null) {
            return true;
        }
        boolean knownNotRunning = false;
        try {
            if (stepFunctions.describeExecution(r -> r.executionArn(arn)).status() == ExecutionStatus.RUNNING) {
                stop(arn);
                log.log("Preload execution " + arn + " still runs: stopped it again");
                return false;
            }
            knownNotRunning = true;
        } catch (SdkException e) {
            if (isTransient(e)) {
                log.log("Could not describe preload execution " + arn + " (transient, will retry): " + e.getMessage());
                return false;
            }
            log.log("Could not describe preload execution " + arn + " (ignored): " + e.getMessage());
        }
        if (!importTask.cancel(arn, log)) {
            return false;
        }
        for (String worker : WorkerAttempts.names(request.physicalResourceId())) {
            WorkerState state = worker(worker, log);
            if (state == WorkerState.RUNNING || state == WorkerState.RETRY) {
                return false;
            }
            if (state == WorkerState.UNKNOWN) {
                if (!knownNotRunning) {
                    stopQuietly(arn, log);
                }
                return true;
            }
            if (state == WorkerState.NEVER_STARTED) {
                return true;
            }
        }
        return true;
    }

    /**
     * Stops the workers (every attempt) of an execution that ended without success and may have left one running
     * (whether Step Functions stops a {@code .sync} job when its execution times out is not documented), before a
     * retried request starts its next execution: the resource's Delete later waits only for the workers of the
     * execution its physical id names. Never fails, does not wait.
     *
     * @param executionName the ended execution's name
     */
    void stopWorkers(String executionName, LambdaLogger log) {
        for (String worker : WorkerAttempts.names(executionName)) {
            WorkerState state = worker(worker, log);
            if (state == WorkerState.NEVER_STARTED || state == WorkerState.UNKNOWN) {
                return;
            }
        }
    }

    /** What a Delete knows about one worker attempt. */
    private enum WorkerState { ENDED, NEVER_STARTED, RUNNING, RETRY, UNKNOWN }

    private WorkerState worker(String name, LambdaLogger log) {
        try {
            TrainingJobStatus status = sageMaker.describeTrainingJob(r -> r.trainingJobName(name)).trainingJobStatus();
            if (status == TrainingJobStatus.IN_PROGRESS) {
                sageMaker.stopTrainingJob(r -> r.trainingJobName(name));
            }
            boolean ended = status != TrainingJobStatus.IN_PROGRESS && status != TrainingJobStatus.STOPPING;
            log.log("Preload worker " + name + " is " + status + (ended ? ": ended" : ": waiting until it stops"));
            return ended ? WorkerState.ENDED : WorkerState.RUNNING;
        } catch (SdkException e) {
            if (isTransient(e)) {
                log.log("Could not check preload worker " + name + " (transient, will retry): " + e.getMessage());
                return WorkerState.RETRY;
            }
            if (isNotFound(e)) {
                log.log("Preload worker " + name + " does not exist: no later attempt was started");
                return WorkerState.NEVER_STARTED;
            }
            log.log("Preload worker " + name + " may still run: it cannot be described or stopped ("
                    + (isAccessDenied(e) ? "access denied, e.g. a worker named under a prefix this handler's policy no "
                            + "longer covers" : "error") + ": " + e.getMessage() + "). Its execution is stopped, so Step "
                    + "Functions stops it; the delete goes on without waiting for its network interfaces.");
            return WorkerState.UNKNOWN;
        }
    }

    private void stopQuietly(String arn, LambdaLogger log) {
        try {
            stop(arn);
            log.log("Stopped preload execution " + arn + " to make sure its worker is stopped");
        } catch (SdkException e) {
            log.log("Could not stop preload execution " + arn + " (ignored, the delete goes on): " + e.getMessage());
        }
    }

    /** The execution a Delete is about, or null when its physical id or properties name none. */
    private static String deletedExecutionArn(CustomResourceEvent request, LambdaLogger log) {
        String name = request.physicalResourceId();
        if (!TrainingJobNames.isValidName(name)) {
            log.log("Physical id " + name + " names no preload execution: nothing to stop");
            return null;
        }
        try {
            return ExecutionArns.of(PreloadProperties.from(request.resourceProperties()).stateMachineArn(), name);
        } catch (IllegalArgumentException e) {
            log.log("Cannot tell which execution to stop (ignored, the delete goes on): " + e.getMessage());
            return null;
        }
    }

    private void stop(String executionArn) {
        stepFunctions.stopExecution(r -> r.executionArn(executionArn).error("PreloadDeleted")
                .cause("CloudFormation deleted or replaced the preload custom resource"));
    }
}
