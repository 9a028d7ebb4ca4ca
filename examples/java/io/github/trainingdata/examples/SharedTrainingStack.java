package io.github.trainingdata.examples;

import io.github.trainingdata.cdk.training.EfsChannel;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.S3Channel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.List;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.iam.Role;
import software.constructs.Construct;

/**
 * A training team's stack on the {@link SharedDataStack}'s data layer: one training definition that reads a
 * dataset of the shared Lustre cache and the features on the shared EFS, under the team's existing execution role
 * or a new one, held back by the data stack's preload (every execution waits for the cache's warm-up); or, for a
 * team without a dataset, one that reads S3 only, in the data stack's network.
 */
public class SharedTrainingStack extends Stack {
    /** The training image's repository (AWS Deep Learning Containers, PyTorch); the tag is a setting. */
    public static final String IMAGE_REPOSITORY = "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training";

    private final TrainingJobDefinition definition;

    /**
     * Creates the team's stack.
     *
     * @param data the data stack
     * @param job  the team's definition ({@link PlatformCompositionApp#TEAMS}, changed)
     */
    public SharedTrainingStack(Construct scope, String id, StackProps props, SharedDataStack data,
            TrainingSettings job) {
        super(scope, id, props);
        TrainingJobDefinitionProps.Builder builder = job.props(
                        TrainingImage.fromUri(IMAGE_REPOSITORY + ":" + job.imageTag()))
                .role(job.roleArn() != null ? Role.fromRoleArn(this, "TeamRole", job.roleArn()) : null)
                .outputBucket(data.getDataBucket())
                .outputPrefix("training-output/" + job.jobNamePrefix());
        if (job.dataset() == null) {
            // A team that reads S3 only, in the data stack's network (its subnet and training group).
            definition = new TrainingJobDefinition(this, job.name(), builder
                    .network(data.getNetwork())
                    .channels(List.of(S3Channel.builder("train").dataBucket(data.getDataBucket())
                            .path(job.jobNamePrefix() + "/train").build()))
                    .build());
        } else {
            definition = new TrainingJobDefinition(this, job.name(), builder
                    .channels(List.of(
                            LustreChannel.builder("train").cache(data.getLustre()).dataset(job.dataset())
                                    .path("train").build(),
                            EfsChannel.builder("features").store(data.getFeatures())
                                    .directoryPath("/features/" + job.dataset()).build()))
                    .build());
            data.getPreload().holdBack(definition);
        }
        KeyGrantFindings.acknowledge(this); // a team role's policy lives in this stack, outside the definition
    }

    /** @return the team's definition */
    public TrainingJobDefinition getDefinition() {
        return definition;
    }
}
