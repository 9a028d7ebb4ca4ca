package io.github.trainingdata.cdk.preload.handler;

/**
 * Field names of a successful preload execution's output, which the state machine writes and the handler reads.
 * JDK only.
 */
public final class PreloadExecutionOutput {
    /** A {@link PreloadStatus}: {@code WARMED}, {@code PARTIAL} or {@code EMPTY}. */
    public static final String STATUS = "Status";
    /** The name of the worker job that warmed the cache (the last attempt's); absent when there was none (EMPTY). */
    public static final String WORKER_JOB_NAME = "WorkerJobName";
    /** The data locations ({@code s3://bucket/prefix/}) that held no object, in the order given; empty when none. */
    public static final String EMPTY_LOCATIONS = "EmptyLocations";

    private PreloadExecutionOutput() {
    }
}
