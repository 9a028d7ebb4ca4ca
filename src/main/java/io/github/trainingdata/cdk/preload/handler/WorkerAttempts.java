package io.github.trainingdata.cdk.preload.handler;

import java.util.ArrayList;
import java.util.List;

/**
 * How the preload state machine names its worker jobs: the first attempt is named like the execution, a retry
 * (after a transient error or a job that failed for capacity; SageMaker never reuses a job name) like the execution
 * plus {@code -<attempt>}, up to {@value #MAX_ATTEMPTS} attempts. The state machine renders the same rule in
 * JSONata; the handler uses it to find every worker an execution may have started. JDK only.
 */
public final class WorkerAttempts {
    /** The most worker jobs one execution starts. */
    public static final int MAX_ATTEMPTS = 6;

    private WorkerAttempts() {
    }

    /**
     * @param executionName the preload execution's name (at most 48 characters)
     * @param attempt       1 to {@value #MAX_ATTEMPTS}
     * @return the worker's name for that attempt
     */
    public static String name(String executionName, int attempt) {
        if (attempt < 1 || attempt > MAX_ATTEMPTS) {
            throw new IllegalArgumentException("attempt " + attempt + " is not 1 to " + MAX_ATTEMPTS);
        }
        return attempt == 1 ? executionName : executionName + "-" + attempt;
    }

    /**
     * @param executionName the preload execution's name
     * @return the name of every worker the execution may start, first attempt first
     */
    public static List<String> names(String executionName) {
        List<String> names = new ArrayList<>();
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            names.add(name(executionName, attempt));
        }
        return names;
    }
}
