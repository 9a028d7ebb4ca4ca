package io.github.trainingdata.cdk.launch;

import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.sagemaker.model.DescribeTrainingJobResponse;

/**
 * What {@link TrainingJobLauncher#runWithCapacityPlan} did: every job it started, in order, and the final
 * description of the one that completed, if any.
 */
public final class CapacityRun {
    private final List<CapacityRunAttempt> attempts;
    private final DescribeTrainingJobResponse completedJob;

    CapacityRun(List<CapacityRunAttempt> attempts, DescribeTrainingJobResponse completedJob) {
        this.attempts = List.copyOf(attempts);
        this.completedJob = completedJob;
    }

    /**
     * Every job started, in order.
     *
     * @return the attempts (at least one)
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
