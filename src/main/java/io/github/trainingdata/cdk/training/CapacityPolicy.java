package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.launch.AttemptOutcome;
import java.util.List;

/**
 * What the training state machine does when a job fails for capacity: its {@link CapacityStep}s, tried in the
 * order given, each attempt a new job. Opt-in: without a policy such a failure fails the execution. Each attempt
 * is a state of the execution's history ({@code CapacityAttempt<n>}, whose comment names its instance type and data
 * source) after the failed job's error and cause. See docs/capacity.md.
 */
public final class CapacityPolicy {
    /** The most attempts a policy may add: each is a task of the execution's history. */
    public static final int MAX_ATTEMPTS = 20;
    /** The CloudWatch namespace where the training state machine counts the jobs of a definition with a policy. */
    public static final String METRIC_NAMESPACE = "TrainingData/CapacityPolicy";
    /**
     * The metric counted once per job such a state machine ran, when the job ends: dimensions
     * {@value #JOB_NAME_PREFIX_DIMENSION} and {@value #OUTCOME_DIMENSION}, and a second series that also has
     * {@value #INSTANCE_TYPE_DIMENSION} and {@value #DATA_SOURCES_DIMENSION}.
     */
    public static final String ATTEMPTS_METRIC = "Attempts";
    /** The dimension that names the definition: its job-name prefix. */
    public static final String JOB_NAME_PREFIX_DIMENSION = "JobNamePrefix";
    /**
     * The dimension that says how the attempt ended: {@value #COMPLETED}, {@value #CAPACITY_ERROR}, {@value #FAILED},
     * {@value #STOPPED} or {@value #QUOTA_EXCEEDED}.
     */
    public static final String OUTCOME_DIMENSION = "Outcome";
    /** The dimension with the job's instance type. */
    public static final String INSTANCE_TYPE_DIMENSION = "InstanceType";
    /** The dimension with the kinds of data source the job read, such as {@code FSxLustre+S3} or {@code S3}. */
    public static final String DATA_SOURCES_DIMENSION = "DataSources";
    /** The outcome of a job that completed. */
    public static final String COMPLETED = "Completed";
    /**
     * The outcome of a job SageMaker could not provision instances for (its FailureReason, read with
     * DescribeTrainingJob, starts with "CapacityError" or "EC2InsufficientCapacityError").
     */
    public static final String CAPACITY_ERROR = "CapacityError";
    /** The outcome of a job that failed for any other reason. */
    public static final String FAILED = "Failed";
    /** The outcome of a job that was stopped before it completed. */
    public static final String STOPPED = "Stopped";
    /**
     * The outcome of a request SageMaker refused for a quota (ResourceLimitExceeded) after every retry: no job of that
     * name exists; the policy goes on with its next attempt on another instance type.
     */
    public static final String QUOTA_EXCEEDED = "QuotaExceeded";
    /** Every outcome of an attempt, in the order the dashboard shows them; the launcher's {@link AttemptOutcome}s. */
    public static final List<String> OUTCOMES = List.of(COMPLETED, CAPACITY_ERROR, FAILED, STOPPED, QUOTA_EXCEEDED);

    private final List<CapacityStep> steps;

    private CapacityPolicy(List<CapacityStep> steps) {
        this.steps = steps;
    }

    /**
     * @param steps the steps, in the order to try them (at least one; no null)
     * @return the policy
     */
    public static CapacityPolicy of(List<CapacityStep> steps) {
        return new CapacityPolicy(steps == null ? List.of() : List.copyOf(steps));
    }

    /** @return the steps, in order */
    public List<CapacityStep> getSteps() {
        return steps;
    }
}
