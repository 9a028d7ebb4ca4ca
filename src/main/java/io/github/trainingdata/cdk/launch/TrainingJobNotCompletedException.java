package io.github.trainingdata.cdk.launch;

/**
 * A training job that ended without completing (Failed or Stopped), did not finish in time, or could not be described
 * after its create was answered with an error (it may be running).
 */
public final class TrainingJobNotCompletedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String jobName;
    private final String status;
    private final String error;

    TrainingJobNotCompletedException(String jobName, String status, String error, String message) {
        super(message);
        this.jobName = jobName;
        this.status = status;
        this.error = error;
    }

    /**
     * The error the training state machine ends with for the same end ({@link TrainingErrors}).
     *
     * @return e.g. {@code TrainingData.CapacityExhausted}
     */
    public String error() {
        return error;
    }

    /**
     * The job.
     *
     * @return the training job name
     */
    public String jobName() {
        return jobName;
    }

    /**
     * The job's last seen {@code TrainingJobStatus}.
     *
     * @return {@code Failed}, {@code Stopped}, the status it still had at the timeout, or {@code Unknown} when it
     *         could not be described ({@link TrainingErrors#TRAINING_JOB_UNREADABLE})
     */
    public String status() {
        return status;
    }
}
