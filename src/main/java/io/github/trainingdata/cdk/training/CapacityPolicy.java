package io.github.trainingdata.cdk.training;

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
