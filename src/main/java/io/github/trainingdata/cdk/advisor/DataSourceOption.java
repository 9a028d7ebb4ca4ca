package io.github.trainingdata.cdk.advisor;

/** The ways a SageMaker training channel can read a dataset: a storage service plus an input mode. */
public enum DataSourceOption {
    /** S3, File mode: the whole dataset is copied to the instance volume before the script starts. */
    S3_FILE("File"),
    /** S3, FastFile mode: S3 objects appear as a read-only POSIX file system, streamed on demand. */
    S3_FAST_FILE("FastFile"),
    /** S3, Pipe mode: objects are prefetched into a FIFO per channel per epoch; no seeking. */
    S3_PIPE("Pipe"),
    /** FSx for Lustre (SCRATCH_2, or PERSISTENT_2 at a throughput tier) linked to the S3 prefix, mounted at start. */
    FSX_LUSTRE("File"),
    /** EFS, mounted at job start; the data must already be on the file system. */
    EFS("File");

    private final String inputMode;

    DataSourceOption(String inputMode) {
        this.inputMode = inputMode;
    }

    /**
     * The SageMaker {@code InputMode} a channel of this option uses.
     *
     * @return {@code File}, {@code FastFile} or {@code Pipe}; file systems always use {@code File}
     */
    public String inputMode() {
        return inputMode;
    }
}
