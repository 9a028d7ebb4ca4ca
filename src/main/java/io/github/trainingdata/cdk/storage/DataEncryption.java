package io.github.trainingdata.cdk.storage;

/** How a new {@link TrainingDataBucket} encrypts objects at rest. */
public enum DataEncryption {
    /** SSE-S3 (AES-256 with S3-managed keys): no key policy to manage; FSx and SageMaker read it as is. */
    S3_MANAGED,
    /**
     * SSE-KMS with a customer managed key (a new key with rotation, unless one is given), S3 Bucket Keys on. The
     * key is the data layer's key: the log groups of the definitions and preloads on the bucket use it too, and
     * the network's flow logs can ({@code TrainingNetworkProps.flowLogsKey}). The server-access-log bucket stays
     * SSE-S3, the only default encryption S3 delivers access logs to.
     */
    KMS
}
