package io.github.trainingdata.cdk.launch;

import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.sagemaker.model.DescribeTrainingJobResponse;

/**
 * What {@link TrainingJobLauncher#runWithCapacityPlan} did: every attempt, in order, and the final description of the
 * job that completed, or the error ({@link TrainingErrors}) and cause the run ended with.
 */
public final class CapacityRun {
    private final List<CapacityRunAttempt> attempts;
    private final DescribeTrainingJobResponse completedJob;
    private final String error;
    private final String cause;

    CapacityRun(List<CapacityRunAttempt> attempts, DescribeTrainingJobResponse completedJob, String error,
            String cause) {
        this.attempts = List.copyOf(attempts);
        this.completedJob = completedJob;
        this.error = error;
        this.cause = cause;
    }

    /**
     * The error the run ended with, the same as the training state machine's for the same end.
     *
     * @return one of {@link TrainingErrors}, or empty when a job completed
     */
    public Optional<String> error() {
        return Optional.ofNullable(error);
    }

    /**
     * Why: the last job's FailureReason, or SageMaker's message for a refused request.
     *
     * @return the cause, or empty when a job completed
     */
    public Optional<String> cause() {
        return Optional.ofNullable(cause);
    }

    /**
     * Every attempt, in order: each job started, and each request refused for a quota after every retry; a request
     * refused otherwise is not one.
     *
     * @return the attempts (empty when the first request was refused)
     */
    public List<CapacityRunAttempt> attempts() {
        return attempts;
    }

    /**
     * The last attempt's final description, when it completed.
     *
     * @return the completed job's description, or empty when no attempt completed
     */
    public Optional<DescribeTrainingJobResponse> completedJob() {
        return Optional.ofNullable(completedJob);
    }

    /**
     * Whether an attempt completed.
     *
     * @return true when the last attempt completed
     */
    public boolean completed() {
        return completedJob != null;
    }
}
