package io.github.trainingdata.cdk.launch;

/**
 * How one attempt of a {@link CapacityRun} ended, as its last DescribeTrainingJob showed it, or as SageMaker refused
 * it for a quota; {@link #recorded()} is the same outcome as the training state machine records and counts it.
 */
public enum AttemptOutcome {
    /** The job completed. */
    COMPLETED("Completed"),
    /** The job failed because SageMaker could not provision its instances: its FailureReason starts as
     * {@link CapacityPlan#CAPACITY_FAILURE} says. */
    CAPACITY_ERROR("CapacityError"),
    /** The job failed for another reason. */
    FAILED("Failed"),
    /** The job was stopped. */
    STOPPED("Stopped"),
    /**
     * SageMaker refused the request for a quota (ResourceLimitExceeded) after every retry: no job of that name exists.
     */
    QUOTA_EXCEEDED("QuotaExceeded"),
    /** The job was still running when the launcher stopped waiting for it (the launcher only). */
    STILL_RUNNING("StillRunning");

    private final String recorded;

    AttemptOutcome(String recorded) {
        this.recorded = recorded;
    }

    /**
     * The outcome's name in the training state machine's records and CloudWatch metrics.
     *
     * @return e.g. {@code CapacityError}
     */
    public String recorded() {
        return recorded;
    }
}
