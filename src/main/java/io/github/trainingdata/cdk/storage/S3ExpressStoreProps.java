package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.kms.IKey;

/**
 * Props of {@link S3ExpressStore}: a new directory bucket ({@code baseName}, in {@code zoneId} or the network's data
 * zone) or an existing one ({@code bucketName}, its full name), never both.
 */
public final class S3ExpressStoreProps {
    private final TrainingNetwork network;
    private final String baseName;
    private final String zoneId;
    private final String bucketName;
    private final IKey encryptionKey;
    private final String datasetPrefix;
    private final RemovalPolicy removalPolicy;
    private final Boolean requestMetrics;
    private final Boolean readOnlySessions;

    private S3ExpressStoreProps(Builder b) {
        this.network = b.network;
        this.baseName = b.baseName;
        this.zoneId = b.zoneId;
        this.bucketName = b.bucketName;
        this.encryptionKey = b.encryptionKey;
        this.datasetPrefix = b.datasetPrefix;
        this.removalPolicy = b.removalPolicy;
        this.requestMetrics = b.requestMetrics;
        this.readOnlySessions = b.readOnlySessions;
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return network, or null when not set */
    public TrainingNetwork getNetwork() {
        return network;
    }

    /** @return baseName, or null when not set */
    public String getBaseName() {
        return baseName;
    }

    /** @return zoneId, or null when not set */
    public String getZoneId() {
        return zoneId;
    }

    /** @return bucketName, or null when not set */
    public String getBucketName() {
        return bucketName;
    }

    /** @return encryptionKey, or null when not set */
    public IKey getEncryptionKey() {
        return encryptionKey;
    }

    /** @return datasetPrefix, or null when not set */
    public String getDatasetPrefix() {
        return datasetPrefix;
    }

    /** @return removalPolicy, or null when not set */
    public RemovalPolicy getRemovalPolicy() {
        return removalPolicy;
    }

    /** @return requestMetrics, or null when not set */
    public Boolean getRequestMetrics() {
        return requestMetrics;
    }

    /** @return readOnlySessions, or null when not set */
    public Boolean getReadOnlySessions() {
        return readOnlySessions;
    }

    /** Builder of {@link S3ExpressStoreProps}. */
    public static final class Builder {
        private TrainingNetwork network;
        private String baseName;
        private String zoneId;
        private String bucketName;
        private IKey encryptionKey;
        private String datasetPrefix;
        private RemovalPolicy removalPolicy;
        private Boolean requestMetrics;
        private Boolean readOnlySessions;

        private Builder() {
        }

        /**
         * The network jobs read the bucket from: the bucket goes in its data zone (by zone ID), jobs reading it run
         * there, and a new VPC gets the {@code s3express} gateway endpoint (an existing VPC must have one).
         *
         * @default none: jobs reading the bucket must be given a network
         */
        public Builder network(TrainingNetwork network) {
            this.network = network;
            return this;
        }

        /**
         * The base name of a new bucket; its full name is {@code <baseName>--<zoneId>--x-s3}: lowercase letters,
         * numbers and hyphens, beginning and ending with a letter or number, not beginning with {@code xn--},
         * {@code sthree-} or {@code amzn-s3-demo-}, the full name 3 to 63 characters. Required for a new bucket.
         */
        public Builder baseName(String baseName) {
            this.baseName = baseName;
            return this;
        }

        /**
         * The Availability Zone ID of a new bucket, e.g. {@code use1-az4} (a zone ID, not a zone name: names map to
         * physical zones differently in each account), or of an existing bucket whose {@code bucketName} is a
         * deploy-time value (required then). With a network it must be the network's data zone.
         *
         * @default the zone ID of the network's data subnet (its {@code AvailabilityZoneId}, at deploy time)
         */
        public Builder zoneId(String zoneId) {
            this.zoneId = zoneId;
            return this;
        }

        /**
         * The full name of an existing directory bucket to adopt, e.g. {@code features--use1-az4--x-s3}; its zone is
         * read from the name, or from {@code zoneId} when the name is a deploy-time value (a parameter, an import).
         * Not with {@code baseName} or {@code requestMetrics}, nor with {@code zoneId} when the name is known at
         * synth.
         *
         * @default a new bucket
         */
        public Builder bucketName(String bucketName) {
            this.bucketName = bucketName;
            return this;
        }

        /**
         * A customer managed KMS key for a new bucket's default encryption (SSE-KMS, for the bucket's whole life; S3
         * Bucket Keys on). SageMaker writes job output to a directory bucket with SSE-S3 only, so a bucket with a key
         * cannot take a job's output. For an existing bucket, the key it is encrypted with (the role is granted it).
         *
         * @default SSE-S3
         */
        public Builder encryptionKey(IKey encryptionKey) {
            this.encryptionKey = encryptionKey;
            return this;
        }

        /**
         * The prefix the datasets live under (channels' paths are relative to it).
         *
         * @default "datasets"
         */
        public Builder datasetPrefix(String datasetPrefix) {
            this.datasetPrefix = datasetPrefix;
            return this;
        }

        /**
         * What happens to a new bucket when it leaves the stack. The bucket may hold the only copy of data written to
         * it (job output, data uploaded there first), and CloudFormation cannot delete a bucket that holds objects.
         *
         * @default {@link RemovalPolicy#RETAIN_ON_UPDATE_OR_DELETE} (kept, except when the deploy that created it
         *     rolls back)
         */
        public Builder removalPolicy(RemovalPolicy removalPolicy) {
            this.removalPolicy = removalPolicy;
            return this;
        }

        /**
         * Whether a new bucket sends CloudWatch request metrics (a metrics configuration {@code EntireBucket}, billed
         * as custom metrics), which its dashboard rows plot.
         *
         * @default true
         */
        public Builder requestMetrics(Boolean requestMetrics) {
            this.requestMetrics = requestMetrics;
            return this;
        }

        /**
         * Whether a job that only reads the bucket is granted {@code s3express:CreateSession} for read-only sessions
         * only ({@code s3express:SessionMode} {@code ReadOnly}). A CreateSession that names no mode falls back to a
         * read-only session when ReadWrite is not allowed (S3 API reference, CreateSession); whether SageMaker's own
         * channel reader names one is not documented: turn this off if a job fails with AccessDenied on CreateSession.
         *
         * @default true
         */
        public Builder readOnlySessions(Boolean readOnlySessions) {
            this.readOnlySessions = readOnlySessions;
            return this;
        }

        /** @return the props */
        public S3ExpressStoreProps build() {
            return new S3ExpressStoreProps(this);
        }
    }
}
