package io.github.trainingdata.cdk.preload;

import io.github.trainingdata.cdk.storage.TrainingDataBucket;

/**
 * An S3 location whose objects the preload warms: the preload looks there for at least one object before it
 * starts a worker, and its state machine may list only there.
 *
 * @param bucket    the bucket
 * @param keyPrefix the key prefix without a trailing {@code /}, or empty for the bucket root
 */
record DataLocation(TrainingDataBucket bucket, String keyPrefix) {
    /** @return the prefix as ListObjectsV2 takes it: with a trailing {@code /} (empty for the bucket root) */
    String listPrefix() {
        return keyPrefix.isEmpty() ? "" : keyPrefix + "/";
    }

    /** @return {@code s3://bucket/prefix/} ({@code s3://bucket/} for the bucket root) */
    String uri() {
        return bucket.uri(keyPrefix) + "/";
    }
}
