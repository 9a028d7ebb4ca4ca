package io.github.trainingdata.cdk.launch;

/** How one job of a {@link CapacityRun} ended, as its last DescribeTrainingJob showed it. */
public enum AttemptOutcome {
    /** The job completed. */
    COMPLETED,
    /** The job failed because SageMaker could not provision its instances: its FailureReason contains
     * {@code CapacityError}. */
    CAPACITY_ERROR,
    /** The job failed for another reason. */
    FAILED,
    /** The job was stopped. */
    STOPPED,
    /** The job was still running when the launcher stopped waiting for it. */
    STILL_RUNNING
}
