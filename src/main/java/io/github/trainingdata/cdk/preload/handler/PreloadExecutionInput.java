package io.github.trainingdata.cdk.preload.handler;

/**
 * Field names of the preload state machine's execution input, which the handler writes and the state machine
 * reads. Each data location carries its S3 URI ({@value #URI}, as the custom resource's {@code DataLocations}
 * property gives it) and a ListObjectsV2 request ({@value #BUCKET}, and {@value #PREFIX} and
 * {@value #START_AFTER} unless it is the bucket root) that the state machine sends with {@code MaxKeys} 1. The
 * execution's name (not its input) names the worker jobs ({@link WorkerAttempts}). JDK only.
 */
public final class PreloadExecutionInput {
    /** The FSx file system whose metadata the execution imports. */
    public static final String FILE_SYSTEM_ID = "FileSystemId";
    /** The data locations, in the order of the worker's channels. */
    public static final String DATA_LOCATIONS = "DataLocations";
    /**
     * The location as {@code s3://bucket/prefix/} ({@code s3://bucket/} for the bucket root): what the import task
     * is given and the execution reports when the location is empty.
     */
    public static final String URI = "Uri";
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
