package io.github.trainingdata.cdk.advisor;

/** Where the dataset lives before training; data already on EFS is mounted where it is. */
public enum DataLocation {
    /** An S3 bucket and prefix. */
    S3,
    /** An EFS file system, typically written by preprocessing or labelling tools. */
    EFS
}
