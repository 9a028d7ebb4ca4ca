package io.github.trainingdata.examples;

import io.github.trainingdata.cdk.advisor.AccessPattern;
import io.github.trainingdata.cdk.advisor.ByteSize;
import io.github.trainingdata.cdk.advisor.DatasetProfile;
import io.github.trainingdata.cdk.platform.TrainingDataPlatform;
import io.github.trainingdata.cdk.platform.TrainingDataPlatformProps;
import io.github.trainingdata.cdk.storage.DataEncryption;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.time.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.ecr.Repository;
import software.constructs.Construct;

/**
 * Advisor-driven: a 1.2 TB image dataset of 12 million small files read in random order for 20 epochs.
 * The advisor recommends FSx for Lustre (too large for File mode, too many small files for FastFile),
 * and the platform builds the cache sized for the dataset, its preload, and the training definition, with
 * one KMS key for the bucket and every log group.
 */
public class AdvisedPlatformStack extends Stack {
    private final TrainingDataPlatform platform;

    /** Creates the stack with default (environment-agnostic) props. */
    public AdvisedPlatformStack(Construct scope, String id) {
        this(scope, id, null);
    }

    /** Creates the stack. */
    public AdvisedPlatformStack(Construct scope, String id, StackProps props) {
        super(scope, id, props);
        DatasetProfile profile = DatasetProfile.builder()
                .totalBytes(ByteSize.parse("1.2TB"))
                .fileCount(12_000_000)
                .accessPattern(AccessPattern.RANDOM)
                .epochs(20)
                .instanceType("ml.p4d.24xlarge")
                .instanceCount(2)
                .trainingTime(Duration.ofHours(30))
                .build();
        platform = new TrainingDataPlatform(this, "Platform", TrainingDataPlatformProps.builder()
                .profile(profile)
                .trainingJob(TrainingJobDefinitionProps.builder()
                        .trainingImage(TrainingImage.fromEcrRepository(
                                Repository.fromRepositoryName(this, "ImageRepository", "training"), "latest"))
                        .jobNamePrefix("advised")
                        .build())
                .encryption(DataEncryption.KMS)
                .datasetPrefix("datasets/images")
                .build());
        KeyGrantFindings.acknowledge(platform.getDefinition());
    }

    /** @return the platform */
    public TrainingDataPlatform getPlatform() {
        return platform;
    }
}
