package io.github.trainingdata.examples;

import io.github.trainingdata.cdk.advisor.AccessPattern;
import io.github.trainingdata.cdk.performance.ByteSize;
import io.github.trainingdata.cdk.advisor.DatasetProfile;
import io.github.trainingdata.cdk.platform.TrainingDataPlatform;
import io.github.trainingdata.cdk.platform.TrainingDataPlatformProps;
import io.github.trainingdata.cdk.storage.DataEncryption;
import io.github.trainingdata.cdk.storage.LustreDeploymentType;
import io.github.trainingdata.cdk.training.CapacityPolicy;
import io.github.trainingdata.cdk.training.CapacityStep;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.constructs.Construct;

/**
 * A cache that grows with the cluster: 2 TB of 100 KB images read at random for 40 epochs by 8 x ml.p4d.24xlarge,
 * 30 minutes of compute per epoch. The instances read 1111 MB/s, more than the 469 MB/s the 2400 GiB SCRATCH_2 that
 * holds the data gives; the advisor compares a 7200 GiB SCRATCH_2 ($1,008 a month) with the PERSISTENT_2 tiers and
 * picks 2400 GiB at 500 MB/s per TiB ($816, an estimated price). The platform builds that cache, encrypted at rest with
 * the data layer's key, and pins it as a deployed platform should ({@link #DATA}: the advisor's type, tier and
 * capacity; FSx fixes the type at creation and only grows the capacity).
 */
public class ThroughputPlatformStack extends Stack {
    /**
     * What the state machine does when SageMaker has no 8 x ml.p4d.24xlarge in the cache's zone: waits 15 minutes
     * twice, tries ml.p4de.24xlarge, then reads the datasets from S3 in FastFile mode in any zone of the network.
     */
    public static final CapacityPolicy CAPACITY = CapacityPolicy.of(List.of(
            CapacityStep.waitAndRetry(software.amazon.awscdk.Duration.minutes(15), 2),
            CapacityStep.instanceTypes(List.of("ml.p4de.24xlarge")),
            CapacityStep.s3Fallback()));

    /**
     * The data layer's settings: the advisor's capacity and PERSISTENT_2 tier, pinned, with 12000 provisioned metadata
     * IOPS for the 20 million small files (their opens and stats are metadata operations).
     */
    public static final DataSettings DATA = new DataSettings(2400, Map.of(), null, List.of(), null, null, 500, 12000);
    /** The definition's settings. */
    public static final TrainingSettings TRAINING = new TrainingSettings("Training", "pretrain", null, "latest",
            "ml.p4d.24xlarge", 8, Map.of(), false, null, null, null, CAPACITY);

    private final TrainingDataPlatform platform;

    /** Creates the stack with default (environment-agnostic) props. */
    public ThroughputPlatformStack(Construct scope, String id) {
        this(scope, id, null, DATA, TRAINING);
    }

    /**
     * Creates the stack with other settings.
     *
     * @param data the cache's capacity and tier ({@link #DATA}, changed)
     * @param job  the definition's settings ({@link #TRAINING}, changed)
     */
    public ThroughputPlatformStack(Construct scope, String id, StackProps props, DataSettings data,
            TrainingSettings job) {
        super(scope, id, props);
        DatasetProfile profile = DatasetProfile.builder()
                .totalBytes(ByteSize.parse("2TB"))
                .fileCount(20_000_000)
                .accessPattern(AccessPattern.RANDOM)
                .epochs(40)
                .instanceType(job.instanceType())
                .instanceCount(job.instanceCount())
                .trainingTime(Duration.ofHours(20))
                .build();
        platform = new TrainingDataPlatform(this, "Platform", TrainingDataPlatformProps.builder()
                .profile(profile)
                .trainingJob(job.platformJob(this))
                .encryption(DataEncryption.KMS)
                .datasetPrefix("datasets/pretraining")
                .lustreDeploymentType(LustreDeploymentType.PERSISTENT_2)
                .lustrePerUnitStorageThroughput(data.lustrePerUnitStorageThroughput())
                .lustreMetadataIops(data.lustreMetadataIops())
                .lustreCapacityGiB(data.lustreCapacityGiB())
                .build());
        KeyGrantFindings.acknowledge(platform.getDefinition());
    }

    /** @return the platform */
    public TrainingDataPlatform getPlatform() {
        return platform;
    }
}
