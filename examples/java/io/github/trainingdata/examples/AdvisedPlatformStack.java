package io.github.trainingdata.examples;

import io.github.trainingdata.cdk.advisor.AccessPattern;
import io.github.trainingdata.cdk.performance.ByteSize;
import io.github.trainingdata.cdk.advisor.DatasetProfile;
import io.github.trainingdata.cdk.platform.TrainingDataPlatform;
import io.github.trainingdata.cdk.platform.TrainingDataPlatformProps;
import io.github.trainingdata.cdk.storage.DataEncryption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.constructs.Construct;

/**
 * Advisor-driven: a 1.2 TB image dataset of 12 million small files read in random order for 20 epochs.
 * The advisor recommends FSx for Lustre (too large for File mode, too many small files for FastFile),
 * and the platform builds the cache sized for the dataset, its preload, and the training definition, with
 * one KMS key for the bucket and every log group.
 *
 * <p>What a platform team changes is in {@link #DATA} (only the cache's capacity applies: null lets the platform
 * size it) and {@link #TRAINING} (the instances are the profile's, which the advisor sizes for).
 */
public class AdvisedPlatformStack extends Stack {
    /** The data layer's settings: the capacity the platform derives from the profile. */
    public static final DataSettings DATA = new DataSettings(null, Map.of(), null, List.of(), null, null);
    /** The definition's settings. */
    public static final TrainingSettings TRAINING = new TrainingSettings("Training", "advised", null, "latest",
            "ml.p4d.24xlarge", 2, Map.of(), false, null, null, null, null);

    private final TrainingDataPlatform platform;

    /** Creates the stack with default (environment-agnostic) props. */
    public AdvisedPlatformStack(Construct scope, String id) {
        this(scope, id, null);
    }

    /** Creates the stack. */
    public AdvisedPlatformStack(Construct scope, String id, StackProps props) {
        this(scope, id, props, DATA, TRAINING);
    }

    /**
     * Creates the stack with other settings.
     *
     * @param data the cache's capacity ({@link #DATA}, changed)
     * @param job  the definition's settings ({@link #TRAINING}, changed)
     */
    public AdvisedPlatformStack(Construct scope, String id, StackProps props, DataSettings data,
            TrainingSettings job) {
        super(scope, id, props);
        DatasetProfile profile = DatasetProfile.builder()
                .totalBytes(ByteSize.parse("1.2TB"))
                .fileCount(12_000_000)
                .accessPattern(AccessPattern.RANDOM)
                .epochs(20)
                .instanceType(job.instanceType())
                .instanceCount(job.instanceCount())
                .trainingTime(Duration.ofHours(30))
                .build();
        platform = new TrainingDataPlatform(this, "Platform", TrainingDataPlatformProps.builder()
                .profile(profile)
                .trainingJob(job.platformJob(this))
                .encryption(DataEncryption.KMS)
                .datasetPrefix("datasets/images")
                .lustreCapacityGiB(data.lustreCapacityGiB())
                .build());
        KeyGrantFindings.acknowledge(platform.getDefinition());
    }

    /** @return the platform */
    public TrainingDataPlatform getPlatform() {
        return platform;
    }
}
