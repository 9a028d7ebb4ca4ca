package io.github.trainingdata.examples;

import io.github.trainingdata.cdk.advisor.AccessPattern;
import io.github.trainingdata.cdk.advisor.DatasetProfile;
import io.github.trainingdata.cdk.performance.ByteSize;
import io.github.trainingdata.cdk.platform.TrainingDataPlatform;
import io.github.trainingdata.cdk.platform.TrainingDataPlatformProps;
import io.github.trainingdata.cdk.storage.DataEncryption;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.time.Duration;
import software.amazon.awscdk.Stack;
import software.constructs.Construct;

/**
 * A platform the advisor builds on S3 Express One Zone: 1 TB of 10 MB files read at random for 5 epochs by 4 x
 * ml.p4d.24xlarge, 2 hours of compute. A preloaded Lustre cache estimates about 1% cheaper, within the 5% the model
 * can tell apart; FastFile on a directory bucket needs nothing provisioned, so the tie goes to it. The platform builds
 * the directory bucket in the network's data zone (by zone ID, encrypted with the data layer's key), the s3express
 * gateway endpoint, and a FastFile channel on it; the bucket starts empty (a synth warning says to copy the dataset in
 * before training).
 */
public class ExpressPlatformStack extends Stack {
    private final TrainingDataPlatform platform;

    /** Creates the stack with default (environment-agnostic) props. */
    public ExpressPlatformStack(Construct scope, String id) {
        super(scope, id);
        platform = new TrainingDataPlatform(this, "Platform", TrainingDataPlatformProps.builder()
                .profile(DatasetProfile.builder()
                        .totalBytes(ByteSize.parse("1TB"))
                        .fileCount(100_000)
                        .accessPattern(AccessPattern.RANDOM)
                        .epochs(5)
                        .trainingTime(Duration.ofHours(2))
                        .instanceType("ml.p4d.24xlarge")
                        .instanceCount(4)
                        .build())
                .s3ExpressBaseName("vision")
                .encryption(DataEncryption.KMS)
                .trainingJob(TrainingJobDefinitionProps.builder()
                        .trainingImage(TrainingImage.fromUri("123456789012.dkr.ecr.us-east-1.amazonaws.com/vision:1"))
                        .build())
                .build());
        KeyGrantFindings.acknowledge(platform.getDefinition());
    }

    /** @return the platform */
    public TrainingDataPlatform getPlatform() {
        return platform;
    }
}
