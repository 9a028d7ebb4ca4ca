package io.github.trainingdata.examples;

import io.github.trainingdata.cdk.preload.LustrePreload;
import io.github.trainingdata.cdk.preload.LustrePreloadProps;
import io.github.trainingdata.cdk.training.EfsChannel;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.List;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.Role;
import software.constructs.Construct;

/**
 * A training team's stack: two training definitions that share the {@link SharedDataStack}'s data layer
 * (same Lustre cache, EFS and bucket), run under the team's existing execution role, and one preload that
 * warms the cache before either deploys.
 */
public class SharedTrainingStack extends Stack {
    private final TrainingJobDefinition resnet;
    private final TrainingJobDefinition vit;
    private final LustrePreload preload;

    /** Creates the stack on top of the shared data layer. */
    public SharedTrainingStack(Construct scope, String id, StackProps props, SharedDataStack data) {
        super(scope, id, props);
        TrainingImage image = TrainingImage.fromUri(
                "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.5.1-gpu-py311");
        resnet = definition("Resnet", "resnet", image, data,
                Role.fromRoleArn(this, "TeamRole", "arn:aws:iam::123456789012:role/team-sagemaker-execution"));
        vit = definition("Vit", "vit", image, data, null);
        preload = new LustrePreload(this, "Preload", LustrePreloadProps.builder()
                .cache(data.getLustre())
                .definition(resnet)
                .datasetVersion("2026-11-01")
                .build());
        preload.holdBack(vit);
        KeyGrantFindings.acknowledge(this); // the team role's policy lives in this stack, outside the definitions
    }

    private TrainingJobDefinition definition(String id, String prefix, TrainingImage image, SharedDataStack data,
            IRole role) {
        return new TrainingJobDefinition(this, id, TrainingJobDefinitionProps.builder()
                .jobNamePrefix(prefix)
                .trainingImage(image)
                .role(role)
                .instanceType("ml.p4d.24xlarge")
                .instanceCount(2)
                .outputBucket(data.getDataBucket())
                .outputPrefix("training-output/" + prefix)
                .channels(List.of(
                        LustreChannel.builder("train").cache(data.getLustre()).dataset("imagenet").path("train")
                                .build(),
                        EfsChannel.builder("features").store(data.getFeatures()).directoryPath("/features/imagenet")
                                .build()))
                .build());
    }

    /** @return the ResNet definition (team role) */
    public TrainingJobDefinition getResnet() {
        return resnet;
    }

    /** @return the ViT definition (own role) */
    public TrainingJobDefinition getVit() {
        return vit;
    }

    /** @return the shared preload */
    public LustrePreload getPreload() {
        return preload;
    }
}
