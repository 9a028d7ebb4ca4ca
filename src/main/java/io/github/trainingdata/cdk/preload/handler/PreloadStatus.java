package io.github.trainingdata.cdk.preload.handler;

/**
 * The values of the preload custom resource's {@code Status} attribute, and of the {@code Status} field of a
 * successful preload execution's output ({@link PreloadExecutionOutput}). JDK only: the construct renders the
 * state machine with them.
 */
public final class PreloadStatus {
    /** The worker ran and warmed every data location; the counts come from its metrics. */
    public static final String WARMED = "WARMED";
    /**
     * Some data locations held no object: the worker warmed the others (the counts come from its metrics) and the
     * execution names the empty ones. It succeeded, so training is not held back by a location without data.
     */
    public static final String PARTIAL = "PARTIAL";
    /** No object was found at any data location: nothing to warm, no worker was started. */
    public static final String EMPTY = "EMPTY";
    /**
     * The deploy did not wait for the result (waitForCompletion is false, or the warm-up outlasted the
     * custom-resource limit, or a rollback restored a configuration whose warm-up still runs); the execution goes on.
     */
    public static final String STARTED = "STARTED";
    /**
     * An update started a warm-up that failed. Only a create fails on a failed warm-up: an update that failed
     * would be rolled back by another update, which must not fail in turn.
     */
    public static final String FAILED = "FAILED";
    /**
     * The result is not known: an unchanged preload whose execution Step Functions no longer keeps (90 days after
     * it ended), or a rollback that found no execution of the configuration it restored.
     */
    public static final String UNKNOWN = "UNKNOWN";

    private PreloadStatus() {
    }
}
