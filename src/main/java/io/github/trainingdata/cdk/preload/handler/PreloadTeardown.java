package io.github.trainingdata.cdk.preload.handler;

import static io.github.trainingdata.cdk.handler.SdkCalls.isTransient;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import io.github.trainingdata.cdk.handler.CustomResourceEvent;
import io.github.trainingdata.cdk.launch.TrainingJobNames;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.TrainingJobStatus;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The Delete of a preload custom resource: stops its execution and waits until its worker has stopped, so
 * that no network interface is left in the VPC CloudFormation deletes next. Never fails a delete.
 */
final class PreloadTeardown {
    private final SfnClient stepFunctions;
    private final SageMakerClient sageMaker;

    PreloadTeardown(SfnClient stepFunctions, SageMakerClient sageMaker) {
        this.stepFunctions = stepFunctions;
        this.sageMaker = sageMaker;
    }

    /** Stops a running execution (Step Functions then stops its worker, best effort). Never fails. */
    void stopExecution(CustomResourceEvent request, LambdaLogger log) {
        String arn = deletedExecutionArn(request, log);
        if (arn == null) {
            return;
        }
        try {
            if (stepFunctions.describeExecution(r -> r.executionArn(arn)).status() == ExecutionStatus.RUNNING) {
                stop(arn);
                log.log("Stopped preload execution " + arn);
            } else {
                log.log("Preload execution " + arn + " is not running: nothing to stop");
            }
        } catch (SdkException e) {
            log.log("Could not check or stop preload execution " + arn + " (ignored, the delete goes on): "
                    + e.getMessage());
        }
    }

    /**
     * Whether a deleted preload has ended: no running execution and no worker still holding network
     * interfaces in the VPC that CloudFormation deletes next. Stops what still runs. Never fails: transient
     * errors mean "not yet", any other error "ended".
     */
    boolean deleted(CustomResourceEvent request, LambdaLogger log) {
        String arn = deletedExecutionArn(request, log);
        if (arn == null) {
            return true;
        }
        String workerJobName = request.physicalResourceId();
        try {
            if (stepFunctions.describeExecution(r -> r.executionArn(arn)).status() == ExecutionStatus.RUNNING) {
                stop(arn);
                log.log("Preload execution " + arn + " still runs: stopped it again");
                return false;
            }
        } catch (SdkException e) {
            if (isTransient(e)) {
                log.log("Could not describe preload execution " + arn + " (transient, will retry): " + e.getMessage());
                return false;
            }
            log.log("Could not describe preload execution " + arn + " (ignored): " + e.getMessage());
        }
        try {
            TrainingJobStatus status = sageMaker.describeTrainingJob(r -> r.trainingJobName(workerJobName))
                    .trainingJobStatus();
            if (status == TrainingJobStatus.IN_PROGRESS) {
                sageMaker.stopTrainingJob(r -> r.trainingJobName(workerJobName));
            }
            boolean ended = status != TrainingJobStatus.IN_PROGRESS && status != TrainingJobStatus.STOPPING;
            log.log("Preload worker " + workerJobName + " is " + status + (ended ? ": deleted" : ": waiting until it stops"));
            return ended;
        } catch (SdkException e) {
            if (isTransient(e)) {
                log.log("Could not check preload worker " + workerJobName + " (transient, will retry): " + e.getMessage());
                return false;
            }
            log.log("Preload worker " + workerJobName + " cannot be described (deleted; it never started when the data "
                    + "was empty or the preload stopped before it): " + e.getMessage());
            return true;
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
            return PreloadExecution.arn(PreloadProperties.from(request.resourceProperties()).stateMachineArn(), name);
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
