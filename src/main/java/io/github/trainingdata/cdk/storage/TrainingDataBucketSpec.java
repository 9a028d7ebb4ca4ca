package io.github.trainingdata.cdk.storage;

import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;

/**
 * A {@link TrainingDataBucket}'s settings with every default applied ({@link TrainingDataBucketRules#resolve}); the
 * bucket settings matter only when the construct creates the bucket.
 *
 * @param existing whether the construct adopts {@code TrainingDataBucketProps.bucket}
 * @param datasetPrefix the key prefix datasets live under (default {@code datasets})
 * @param encryption a new bucket's encryption (default KMS with an encryptionKey, else S3_MANAGED)
 * @param noncurrentVersionExpiration when a new bucket's noncurrent versions expire (default 30 days)
 * @param removalPolicy a new bucket's (and key's) removal policy (default RETAIN)
 */
record TrainingDataBucketSpec(boolean existing, String datasetPrefix, DataEncryption encryption,
        Duration noncurrentVersionExpiration, RemovalPolicy removalPolicy) {
}
