package io.github.trainingdata.cdk.preload.handler;

/**
 * Names of the SageMaker metrics the preload worker reports: the warm-up script's metric definitions
 * produce them and the handler turns their final values into attributes. JDK only.
 */
public final class PreloadMetrics {
    /** Files warmed. */
    public static final String FILES = "preload:files";
    /** Bytes in the files warmed. */
    public static final String BYTES = "preload:bytes";
    /** Seconds the warm-up took. */
    public static final String SECONDS = "preload:seconds";
    /**
     * Data locations the worker warmed (its channel directories): fewer than the preload's locations when some held
     * no object yet (status PARTIAL).
     */
    public static final String LOCATIONS = "preload:locations";

    private PreloadMetrics() {
    }
}
