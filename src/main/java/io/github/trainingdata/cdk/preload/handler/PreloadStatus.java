package io.github.trainingdata.cdk.preload.handler;

/**
 * The values of the preload custom resource's {@code Status} attribute, and the {@code Status} field of a
 * successful preload execution's output. JDK only: the construct renders the state machine with them.
 */
public final class PreloadStatus {
    /** The execution output field that carries the status. */
    public static final String OUTPUT_FIELD = "Status";
    /** The worker ran and warmed the files; the counts come from its metrics. */
    public static final String WARMED = "WARMED";
    /** No object was found at any data location: nothing to warm, no worker was started. */
    public static final String EMPTY = "EMPTY";
    /**
     * The deploy did not wait for the result (waitForCompletion is false, or the warm-up outlasted the
     * custom-resource limit); the execution goes on.
     */
    public static final String STARTED = "STARTED";
    /**
     * An update started a warm-up that failed. Only a create fails on a failed warm-up: an update that failed
     * would be rolled back by another update, which must not fail in turn.
     */
    public static final String FAILED = "FAILED";
    /** An update kept an earlier warm-up whose execution Step Functions no longer keeps (90 days after it ended). */
    public static final String UNKNOWN = "UNKNOWN";

    private PreloadStatus() {
    }
}
