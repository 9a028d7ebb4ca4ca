package io.github.trainingdata.examples.docs;

import io.github.trainingdata.cdk.advisor.AccessPattern;
import io.github.trainingdata.cdk.performance.ByteSize;
import io.github.trainingdata.cdk.advisor.DatasetProfile;
import io.github.trainingdata.cdk.platform.TrainingDataPlatform;
import io.github.trainingdata.cdk.platform.TrainingDataPlatformProps;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.Map;
import software.amazon.awscdk.Stack;
import software.constructs.Construct;

/** The one-call platform from a dataset profile. */
public class PlatformExample extends Stack {
    /** Creates the stack. */
    public PlatformExample(Construct scope, String id) {
        super(scope, id);
        TrainingImage image = TrainingImage.fromUri(
                "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.5.1-gpu-py311");
        // snippet:platform
        new TrainingDataPlatform(this, "Platform", TrainingDataPlatformProps.builder()
                .profile(DatasetProfile.builder().totalBytes(ByteSize.parse("1.2TB")).fileCount(12_000_000)
                        .accessPattern(AccessPattern.RANDOM).instanceType("ml.p4d.24xlarge").build())
                .trainingJob(TrainingJobDefinitionProps.builder()       // every definition setting, passed whole
                        .trainingImage(image)
                        .hyperParameters(Map.of("epochs", "20"))
                        .checkpointPrefix("checkpoints")
                        .build())
                .build());
        // end-snippet
    }
}
