package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.internal.KeyPrefix;
import java.util.List;
import software.amazon.awscdk.services.kms.IKey;

/**
 * A {@link TrainingDataStore} addressed by {@code s3://} URIs: a general purpose bucket ({@link TrainingDataBucket}),
 * an S3 Express One Zone directory bucket ({@link S3ExpressStore}), or a bucket of your own, new or existing. An S3
 * channel ({@code S3Channel}) and a job's direct reads ({@code DirectRead}) read any of them: the store names the
 * bucket and the dataset prefix, grants what a job's role needs for a prefix ({@link #grantTraining}: object actions
 * scoped to it, or {@code s3express:CreateSession} on a directory bucket, with IAM conditions where they apply), says
 * where it keeps its data ({@link #getZone}) and which SageMaker input modes read it ({@link #getInputModes}).
 */
public interface S3Store extends TrainingDataStore {
    /** Every SageMaker input mode of an S3 channel, in the API's spelling. */
    List<String> ALL_INPUT_MODES = List.of("File", "FastFile", "Pipe");

    /** @return the bucket's name (a token for a new bucket) */
    String getBucketName();

    /**
     * @return the bucket's ARN: {@code arn:<partition>:s3:::<name>} for a general purpose bucket,
     *     {@code arn:<partition>:s3express:<region>:<account>:bucket/<name>} for a directory bucket
     */
    String getBucketArn();

    /** @return the KMS key the bucket's objects are encrypted with, or null for SSE-S3 (or unknown); null by default */
    default IKey getEncryptionKey() {
        return null;
    }

    /** @return the dataset prefix, without leading or trailing {@code /} (empty for the bucket root) */
    String getDatasetPrefix();

    /**
     * @return the SageMaker input modes a channel on this store may use ({@code File}, {@code FastFile},
     *     {@code Pipe}); all three by default
     */
    default List<String> getInputModes() {
        return ALL_INPUT_MODES;
    }

    /**
     * @return whether the bucket is an S3 directory bucket (S3 Express One Zone): it cannot link to an FSx for Lustre
     *     file system, and SageMaker writes output to it with SSE-S3 only; false by default
     */
    default boolean isDirectoryBucket() {
        return false;
    }

    /**
     * The object-key prefix of a path relative to the dataset prefix; an empty path gives the dataset prefix itself.
     *
     * @param relativePath a path under the dataset prefix, without leading or trailing {@code /}
     * @return the key prefix, e.g. {@code datasets/train}
     */
    default String keyPrefix(String relativePath) {
        return KeyPrefix.join(getDatasetPrefix(), KeyPrefix.check(this, "relativePath", relativePath));
    }

    /**
     * The {@code s3://} URI of a directory under the dataset prefix, with a trailing {@code /} (a prefix never
     * matches a sibling, and directory buckets list only prefixes that end in {@code /}).
     *
     * @param relativePath a path under the dataset prefix; empty for the dataset prefix itself
     * @return e.g. {@code s3://my-bucket/datasets/train/}
     */
    default String s3Uri(String relativePath) {
        return uri(keyPrefix(relativePath)) + "/";
    }

    /**
     * @param key a key or key prefix counted from the bucket root (checked by the caller); empty for the bucket
     * @return its {@code s3://} URI without a trailing {@code /}
     */
    default String uri(String key) {
        return "s3://" + getBucketName() + (key.isEmpty() ? "" : "/" + key);
    }
}
