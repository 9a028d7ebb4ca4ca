package io.github.trainingdata.cdk.advisor;

/** How the training script reads its files; random reads rule out Pipe mode and favour FSx for Lustre. */
public enum AccessPattern {
    /** Each file is read from start to end, in some order (streaming records, whole images). */
    SEQUENTIAL,
    /** Files are read at random offsets (seeking inside large files, random-access formats). */
    RANDOM
}
