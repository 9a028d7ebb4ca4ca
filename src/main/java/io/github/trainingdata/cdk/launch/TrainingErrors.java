package io.github.trainingdata.cdk.launch;

import java.util.List;

/**
 * The errors a training execution (a definition's state machine) and the launcher end with when no job completed.
 * None begins with {@code States.}, which the Amazon States Language reserves; the error and cause SageMaker or Step
 * Functions gave are carried in the cause (a JSON object), with the execution's jobs when it has a capacity policy.
 */
public final class TrainingErrors {
    /** A job ran and failed for a reason other than capacity. */
    public static final String TRAINING_JOB_FAILED = "TrainingData.TrainingJobFailed";
    /** A job was stopped (StopTrainingJob) before it completed. */
    public static final String TRAINING_JOB_STOPPED = "TrainingData.TrainingJobStopped";
    /**
     * The last job failed because SageMaker could not provision its instances ({@link CapacityPlan#CAPACITY_FAILURE}):
     * without a capacity policy, the only job; with one, the policy's last step.
     */
    public static final String CAPACITY_EXHAUSTED = "TrainingData.CapacityExhausted";
    /**
     * SageMaker refused the last request for a quota (ResourceLimitExceeded) after every retry: without a capacity
     * policy, or with no later step on another instance type.
     */
    public static final String QUOTA_EXHAUSTED = "TrainingData.QuotaExhausted";
    /**
     * SageMaker refused the request and no job of that name exists: a validation or access error, ResourceNotFound,
     * ResourceInUse for a name with no job, or throttling and 5xx answers after every retry. No job was recorded.
     */
    public static final String REQUEST_REFUSED = "TrainingData.RequestRefused";
    /** The job's status could not be read (DescribeTrainingJob kept failing): it may still run. */
    public static final String TRAINING_JOB_UNREADABLE = "TrainingData.TrainingJobUnreadable";
    /** Only the launcher: a job was still running when it stopped waiting. */
    public static final String TRAINING_JOB_STILL_RUNNING = "TrainingData.TrainingJobStillRunning";
    /** Every error above, in this order. */
    public static final List<String> ALL = List.of(TRAINING_JOB_FAILED, TRAINING_JOB_STOPPED, CAPACITY_EXHAUSTED,
            QUOTA_EXHAUSTED, REQUEST_REFUSED, TRAINING_JOB_UNREADABLE, TRAINING_JOB_STILL_RUNNING);

    private TrainingErrors() {
    }
}
