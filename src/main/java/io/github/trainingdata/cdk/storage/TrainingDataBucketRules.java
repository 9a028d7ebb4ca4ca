package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.SynthRule;

/** The synth-time rules of TrainingDataBucket, one constant each (listed in docs/rules.md). */
final class TrainingDataBucketRules {
    static final SynthRule ENCRYPTION_KEY = SynthRule.of("BUCKET_ENCRYPTION_KEY", "TrainingDataBucket", "encryption",
            "KMS when an encryptionKey is given",
            "library");
    static final SynthRule NONCURRENT_EXPIRATION = SynthRule.of("BUCKET_NONCURRENT_EXPIRATION", "TrainingDataBucket", "noncurrentVersionExpiration",
            "a whole number of days, at least 1",
            "Amazon S3 User Guide, lifecycle configuration (NoncurrentDays)");
    static final SynthRule EVENT_NOTIFICATIONS = SynthRule.of("BUCKET_EVENT_NOTIFICATIONS", "TrainingDataBucket", "event notifications",
            "none (use EventBridge rules)",
            "Amazon FSx for Lustre User Guide, automatic import (FSx owns the bucket's notification configuration)");

    private TrainingDataBucketRules() {
    }
}
