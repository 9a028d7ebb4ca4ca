package io.github.trainingdata.cdk.storage;

import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.s3.IBucket;

/**
 * Properties of a {@link TrainingDataBucket}: either an existing {@code bucket}, or settings for a new
 * one (never both).
 */
public final class TrainingDataBucketProps {
    private final IBucket bucket;
    private final String datasetPrefix;
    private final DataEncryption encryption;
    private final IKey encryptionKey;
    private final Duration noncurrentVersionExpiration;
    private final IBucket accessLogsBucket;
    private final RemovalPolicy removalPolicy;

    private TrainingDataBucketProps(Builder b) {
        this.bucket = b.bucket;
        this.datasetPrefix = b.datasetPrefix;
        this.encryption = b.encryption;
        this.encryptionKey = b.encryptionKey;
        this.noncurrentVersionExpiration = b.noncurrentVersionExpiration;
        this.accessLogsBucket = b.accessLogsBucket;
        this.removalPolicy = b.removalPolicy;
    }

    /** @return a builder; every property is optional. */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the existing bucket, or null for a new one */
    public IBucket getBucket() {
        return bucket;
    }

    /** @return the dataset prefix, or null for the default */
    public String getDatasetPrefix() {
        return datasetPrefix;
    }

    /** @return the encryption of a new bucket, or null for the default */
    public DataEncryption getEncryption() {
        return encryption;
    }

    /** @return the KMS key of a new bucket, or null */
    public IKey getEncryptionKey() {
        return encryptionKey;
    }

    /** @return how long noncurrent versions are kept, or null for the default */
    public Duration getNoncurrentVersionExpiration() {
        return noncurrentVersionExpiration;
    }

    /** @return the bucket that receives server access logs, or null for a new one */
    public IBucket getAccessLogsBucket() {
        return accessLogsBucket;
    }

    /** @return what happens to a new bucket when the stack is deleted, or null for the default */
    public RemovalPolicy getRemovalPolicy() {
        return removalPolicy;
    }

    /** Builder of {@link TrainingDataBucketProps}. */
    public static final class Builder {
        private IBucket bucket;
        private String datasetPrefix;
        private DataEncryption encryption;
        private IKey encryptionKey;
        private Duration noncurrentVersionExpiration;
        private IBucket accessLogsBucket;
        private RemovalPolicy removalPolicy;

        private Builder() {
        }

        /**
         * An existing bucket that already holds the training data. Then none of the new-bucket settings
         * may be given.
         *
         * @default a new bucket with secure defaults
         */
        public Builder bucket(IBucket bucket) {
            this.bucket = bucket;
            return this;
        }

        /**
         * The key prefix under which the dataset lives, without leading or trailing {@code /}; empty for
         * the bucket root.
         *
         * @default "datasets"
         */
        public Builder datasetPrefix(String datasetPrefix) {
            this.datasetPrefix = datasetPrefix;
            return this;
        }

        /**
         * Encryption at rest of a new bucket.
         *
         * @default {@link DataEncryption#S3_MANAGED}, or {@link DataEncryption#KMS} when an encryptionKey is given
         */
        public Builder encryption(DataEncryption encryption) {
            this.encryption = encryption;
            return this;
        }

        /**
         * The customer managed key of a new bucket (implies {@link DataEncryption#KMS}).
         *
         * @default a new key with yearly rotation when encryption is KMS
         */
        public Builder encryptionKey(IKey encryptionKey) {
            this.encryptionKey = encryptionKey;
            return this;
        }

        /**
         * How long a new bucket keeps overwritten or deleted object versions (at least one day).
         *
         * @default 30 days
         */
        public Builder noncurrentVersionExpiration(Duration noncurrentVersionExpiration) {
            this.noncurrentVersionExpiration = noncurrentVersionExpiration;
            return this;
        }

        /**
         * Where a new bucket writes its server access logs.
         *
         * @default a new, retained log bucket (S3-managed encryption, TLS only, logs expire after a year)
         */
        public Builder accessLogsBucket(IBucket accessLogsBucket) {
            this.accessLogsBucket = accessLogsBucket;
            return this;
        }

        /**
         * What happens to a new bucket (and a new log bucket and key) when the stack is deleted: RETAIN or DESTROY
         * (its objects are deleted first). RETAIN_ON_UPDATE_OR_DELETE is refused: CloudFormation deletes the bucket
         * when the deploy that created it rolls back, and S3 deletes a bucket only once every object version in it is
         * gone, so a first deploy that fails after any object (an upload, an access log) arrived would end in
         * ROLLBACK_FAILED. The key follows the bucket, so that a retained bucket's objects stay readable.
         *
         * @default {@link RemovalPolicy#RETAIN} (kept when the stack is deleted, and when its first deploy rolls back:
         *     delete the empty buckets and schedule the key's deletion after a failed first deploy)
         */
        public Builder removalPolicy(RemovalPolicy removalPolicy) {
            this.removalPolicy = removalPolicy;
            return this;
        }

        /** @return the props */
        public TrainingDataBucketProps build() {
            return new TrainingDataBucketProps(this);
        }
    }
}
