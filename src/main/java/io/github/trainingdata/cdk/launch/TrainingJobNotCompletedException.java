package io.github.trainingdata.cdk.launch;

/** A training job that ended without completing (Failed or Stopped), or did not finish in time. */
public final class TrainingJobNotCompletedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String jobName;
    private final String status;

    TrainingJobNotCompletedException(String jobName, String status, String message) {
        super(message);
        this.jobName = jobName;
        this.status = status;
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
     * @return {@code Failed}, {@code Stopped}, or the status it still had at the timeout
     */
    public String status() {
        return status;
    }
}
