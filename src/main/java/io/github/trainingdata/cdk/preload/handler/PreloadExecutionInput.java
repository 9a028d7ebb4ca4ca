package io.github.trainingdata.cdk.preload.handler;

/**
 * Field names of the preload state machine's execution input, which the handler writes and the state
 * machine reads. Each data location is a ListObjectsV2 request ({@value #BUCKET}, and {@value #PREFIX} and
 * {@value #START_AFTER} unless it is the bucket root) that the state machine sends with {@code MaxKeys} 1.
 * JDK only.
 */
public final class PreloadExecutionInput {
    /** The deterministic name of the worker training job (also the execution's name). */
    public static final String WORKER_JOB_NAME = "WorkerJobName";
    /** The FSx file system whose metadata imports the execution waits for. */
    public static final String FILE_SYSTEM_ID = "FileSystemId";
    /** The S3 locations checked for at least one object. */
    public static final String DATA_LOCATIONS = "DataLocations";
    /** ListObjectsV2 {@code Bucket}. */
    public static final String BUCKET = "Bucket";
    /** ListObjectsV2 {@code Prefix}: the location's key prefix, ending in {@code /}. */
    public static final String PREFIX = "Prefix";
    /**
     * ListObjectsV2 {@code StartAfter}: the prefix itself, so a zero-byte "folder" object created by the S3
     * console does not count as data.
     */
    public static final String START_AFTER = "StartAfter";

    private PreloadExecutionInput() {
    }
}
