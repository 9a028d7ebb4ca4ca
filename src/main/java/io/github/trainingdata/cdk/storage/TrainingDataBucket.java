package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.ConfigurationError;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.IBucket;
import software.amazon.awscdk.services.s3.LifecycleRule;
import software.amazon.awscdk.services.s3.ObjectOwnership;
import software.constructs.Construct;

/**
 * The S3 bucket that holds the training data, and the dataset prefix inside it.
 *
 * <p>A new bucket gets secure defaults: encryption at rest (S3-managed or KMS), TLS-only access, all
 * public access blocked, versioning with noncurrent versions expiring, server access logs to a log
 * bucket, and retention when the stack is deleted. An existing bucket is used as it is. Either way
 * the construct hands out {@code s3://} URIs and key prefixes under the dataset prefix, which the file
 * systems, channels and IAM policies are scoped to.
 */
public class TrainingDataBucket extends Construct {
    static final String DEFAULT_DATASET_PREFIX = "datasets";
    private static final Duration DEFAULT_NONCURRENT_EXPIRATION = Duration.days(30);
    private static final long DAY_MILLIS = 86_400_000L;

    private final IBucket bucket;
    private final String datasetPrefix;

    /** Creates a new, secure bucket with the default dataset prefix. */
    public TrainingDataBucket(Construct scope, String id) {
        this(scope, id, TrainingDataBucketProps.builder().build());
    }

    /** Creates a new bucket, or adopts {@code props.bucket}. */
    public TrainingDataBucket(Construct scope, String id, TrainingDataBucketProps props) {
        super(scope, id);
        this.datasetPrefix = props.getDatasetPrefix() != null ? props.getDatasetPrefix() : DEFAULT_DATASET_PREFIX;
        KeyPrefix.check(this, "datasetPrefix", datasetPrefix);
        if (props.getBucket() != null) {
            rejectNewBucketSettings(props);
            this.bucket = props.getBucket();
        } else {
            this.bucket = createBucket(props);
        }
    }

    private void rejectNewBucketSettings(TrainingDataBucketProps props) {
        Map<String, Object> newBucketOnly = new LinkedHashMap<>();
        newBucketOnly.put("encryption", props.getEncryption());
        newBucketOnly.put("encryptionKey", props.getEncryptionKey());
        newBucketOnly.put("noncurrentVersionExpiration", props.getNoncurrentVersionExpiration());
        newBucketOnly.put("accessLogsBucket", props.getAccessLogsBucket());
        newBucketOnly.put("removalPolicy", props.getRemovalPolicy());
        ConfigurationError.rejectNewSettingsWithExisting(this, "bucket", "bucket", "new-bucket", newBucketOnly);
    }

    private IBucket createBucket(TrainingDataBucketProps props) {
        DataEncryption encryption = props.getEncryption() != null ? props.getEncryption()
                : props.getEncryptionKey() != null ? DataEncryption.KMS : DataEncryption.S3_MANAGED;
        if (encryption == DataEncryption.S3_MANAGED && props.getEncryptionKey() != null) {
            throw ConfigurationError.of(this, "encryption", encryption,
                    "KMS when an encryptionKey is given (or leave encryption unset)");
        }
        Duration noncurrent = props.getNoncurrentVersionExpiration() != null
                ? props.getNoncurrentVersionExpiration() : DEFAULT_NONCURRENT_EXPIRATION;
        long millis = noncurrent.toMilliseconds().longValue();
        if (millis < DAY_MILLIS || millis % DAY_MILLIS != 0) {
            throw ConfigurationError.of(this, "noncurrentVersionExpiration", noncurrent.toHumanString(),
                    "a whole number of days, at least 1 (S3 lifecycle rules count whole days)");
        }
        RemovalPolicy removal = props.getRemovalPolicy() != null ? props.getRemovalPolicy() : RemovalPolicy.RETAIN;
        boolean destroy = removal == RemovalPolicy.DESTROY;

        IBucket logs = props.getAccessLogsBucket() != null ? props.getAccessLogsBucket()
                : Bucket.Builder.create(this, "AccessLogs")
                        .encryption(BucketEncryption.S3_MANAGED)
                        .enforceSsl(true)
                        .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
                        .objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED)
                        .lifecycleRules(List.of(LifecycleRule.builder()
                                .id("ExpireAccessLogs").expiration(Duration.days(365)).build()))
                        .removalPolicy(removal)
                        .autoDeleteObjects(destroy)
                        .build();

        Bucket.Builder data = Bucket.Builder.create(this, "Resource")
                .enforceSsl(true)
                .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
                .objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED)
                .versioned(true)
                .serverAccessLogsBucket(logs)
                .serverAccessLogsPrefix("training-data/")
                .lifecycleRules(List.of(LifecycleRule.builder()
                        .id("ExpireNoncurrentVersions")
                        .noncurrentVersionExpiration(noncurrent)
                        .abortIncompleteMultipartUploadAfter(Duration.days(7))
                        .build()))
                .removalPolicy(removal)
                .autoDeleteObjects(destroy);
        if (encryption == DataEncryption.KMS) {
            IKey key = props.getEncryptionKey() != null ? props.getEncryptionKey()
                    : Key.Builder.create(this, "Key")
                            .description("Encrypts the training data bucket " + getNode().getPath())
                            .enableKeyRotation(true)
                            .removalPolicy(removal)
                            .build();
            data.encryption(BucketEncryption.KMS).encryptionKey(key).bucketKeyEnabled(true);
        } else {
            data.encryption(BucketEncryption.S3_MANAGED);
        }
        return data.build();
    }

    /** @return the bucket (new or existing) */
    public IBucket getBucket() {
        return bucket;
    }

    /** @return the bucket's name (a token for a new bucket) */
    public String getBucketName() {
        return bucket.getBucketName();
    }

    /** @return the dataset prefix, without leading or trailing {@code /} (empty for the bucket root) */
    public String getDatasetPrefix() {
        return datasetPrefix;
    }

    /**
     * The object-key prefix of a path relative to the dataset prefix, e.g. {@code keyPrefix("train")} is
     * {@code "datasets/train"}; an empty path gives the dataset prefix itself.
     *
     * @param relativePath a path under the dataset prefix, without leading or trailing {@code /}
     * @return the key prefix
     */
    public String keyPrefix(String relativePath) {
        return KeyPrefix.join(datasetPrefix, KeyPrefix.check(this, "relativePath", relativePath));
    }

    /**
     * The {@code s3://} URI of a directory under the dataset prefix, with a trailing {@code /} so that a
     * prefix never matches a sibling ({@code train/} does not match {@code train2/}).
     *
     * @param relativePath a path under the dataset prefix; empty for the dataset prefix itself
     * @return e.g. {@code s3://my-bucket/datasets/train/}
     */
    public String s3Uri(String relativePath) {
        return uri(keyPrefix(relativePath)) + "/";
    }

    /** @return the dataset's {@code s3://} URI without a trailing {@code /}, as FSx import paths want it */
    public String datasetUri() {
        return uri(datasetPrefix);
    }

    /**
     * The {@code s3://} URI of an object key or key prefix counted from the bucket root, without a trailing
     * {@code /}; an empty key gives {@code s3://bucket}.
     *
     * @param key a key or key prefix (checked by the caller)
     * @return e.g. {@code s3://my-bucket/training-output}
     */
    public String uri(String key) {
        return "s3://" + getBucketName() + (key.isEmpty() ? "" : "/" + key);
    }
}
