package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import io.github.trainingdata.cdk.internal.DurationSeconds;
import io.github.trainingdata.cdk.internal.KeyPrefix;
import java.util.Set;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.constructs.IConstruct;

/**
 * The synth-time rules of {@link TrainingDataBucket}, one constant each (listed in docs/rules.md), and the
 * resolution of its props into a {@link TrainingDataBucketSpec}: a valid dataset prefix; an existing bucket without
 * new-bucket settings; for a new one, no S3-managed encryption with a KMS key, noncurrent versions expiring after
 * whole days, and a removal policy whose every delete completes (RETAIN or DESTROY). Event notifications are refused when the app synthesizes ({@code TrainingDataBucket}'s validation).
 */
final class TrainingDataBucketRules {
    private static final long DAY_MILLIS = 86_400_000L;

    static final SynthRule ENCRYPTION_KEY = SynthRule.of("BUCKET_ENCRYPTION_KEY", "TrainingDataBucket", "encryption",
            "KMS when an encryptionKey is given",
            "library");
    static final SynthRule NONCURRENT_EXPIRATION = SynthRule.of("BUCKET_NONCURRENT_EXPIRATION", "TrainingDataBucket",
            "noncurrentVersionExpiration",
            "a whole number of days, at least 1",
            "Amazon S3 User Guide, lifecycle configuration (NoncurrentDays)");
    static final SynthRule EVENT_NOTIFICATIONS = SynthRule.of("BUCKET_EVENT_NOTIFICATIONS", "TrainingDataBucket",
            "event notifications",
            "none (use EventBridge rules)",
            "Amazon FSx for Lustre User Guide, automatic import (FSx owns the bucket's notification configuration)");

    static final SynthRule REMOVAL_POLICY = SynthRule.of("BUCKET_REMOVAL_POLICY", "TrainingDataBucket",
            "removalPolicy",
            "RETAIN or DESTROY for a new bucket",
            "CloudFormation DeletionPolicy (RetainExceptOnCreate deletes on a rolled-back create); Amazon S3 API "
                    + "reference, DeleteBucket (every object version deleted first)");

    private TrainingDataBucketRules() {
    }

    /** Checks {@code props} of the bucket construct {@code scope} and applies the defaults. */
    static TrainingDataBucketSpec resolve(IConstruct scope, TrainingDataBucketProps props) {
        String datasetPrefix = props.getDatasetPrefix() != null ? props.getDatasetPrefix()
                : TrainingDataBucket.DEFAULT_DATASET_PREFIX;
        KeyPrefix.check(scope, "datasetPrefix", datasetPrefix);
        DataEncryption encryption = props.getEncryption() != null ? props.getEncryption()
                : props.getEncryptionKey() != null ? DataEncryption.KMS : DataEncryption.S3_MANAGED;
        Duration noncurrent = props.getNoncurrentVersionExpiration() != null
                ? props.getNoncurrentVersionExpiration() : TrainingDataBucket.DEFAULT_NONCURRENT_EXPIRATION;
        boolean existing = props.getBucket() != null;
        if (existing) {
            NewResourceSettings.rejectWithExisting(scope, props, "", "bucket", "bucket", "new-bucket",
                    Set.of("bucket", "datasetPrefix"));
        } else {
            checkNewBucket(scope, props, encryption, noncurrent);
        }
        return new TrainingDataBucketSpec(existing, datasetPrefix, encryption, noncurrent,
                props.getRemovalPolicy() != null ? props.getRemovalPolicy() : RemovalPolicy.RETAIN);
    }

    private static void checkNewBucket(IConstruct scope, TrainingDataBucketProps props, DataEncryption encryption,
            Duration noncurrent) {
        if (encryption == DataEncryption.S3_MANAGED && props.getEncryptionKey() != null) {
            throw ConfigurationError.of(ENCRYPTION_KEY, scope, "encryption", encryption,
                    "KMS when an encryptionKey is given (or leave encryption unset)");
        }
        RemovalPolicy removal = props.getRemovalPolicy();
        if (removal != null && removal != RemovalPolicy.RETAIN && removal != RemovalPolicy.DESTROY) {
            throw ConfigurationError.of(REMOVAL_POLICY, scope, "removalPolicy", removal, "RETAIN (kept, also when "
                    + "the deploy that created it rolls back) or DESTROY (emptied and deleted with the stack): "
                    + "RetainExceptOnCreate deletes the bucket when its creating deploy rolls back, which fails once it "
                    + "holds any object version (S3 deletes a bucket only when every version is gone), leaving the "
                    + "stack in ROLLBACK_FAILED; a bucket takes no snapshot");
        }
        if (noncurrent.isUnresolved() && "days".equals(noncurrent.unitLabel())) {
            return;   // a deploy-time number of days: the lifecycle rule renders it as NoncurrentDays
        }
        Long seconds = DurationSeconds.literal(noncurrent);
        long millis = seconds == null ? -1 : seconds * 1000;
        if (millis < DAY_MILLIS || millis % DAY_MILLIS != 0) {
            throw ConfigurationError.of(NONCURRENT_EXPIRATION, scope, "noncurrentVersionExpiration",
                    noncurrent.toHumanString(), "a whole number of days, at least 1 (S3 lifecycle rules count whole days; "
                    + "a deploy-time value given as Duration.days(...))");
        }
    }
}
