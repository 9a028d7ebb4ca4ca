package io.github.trainingdata.cdk.storage;

/** How a training job uses a path of a {@link TrainingDataStore}, which decides what its role is granted. */
public enum StoreAccess {
    /** Reads: an input channel. */
    READ,
    /** Reads and writes: the job's output, or a file system mounted read-write. */
    READ_WRITE,
    /**
     * Reads, writes and deletes: a checkpoint prefix, which SageMaker keeps in sync with the container's checkpoint
     * directory, deletions included.
     */
    SYNC
}
