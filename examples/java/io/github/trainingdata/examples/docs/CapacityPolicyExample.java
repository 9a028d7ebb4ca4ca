package io.github.trainingdata.examples.docs;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import io.github.trainingdata.cdk.training.CapacityPolicy;
import io.github.trainingdata.cdk.training.CapacityStep;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.List;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.constructs.Construct;

/** A definition that waits, then changes instance type, then reads S3 when SageMaker has no capacity. */
public class CapacityPolicyExample extends Stack {
    /** Creates the stack. */
    public CapacityPolicyExample(Construct scope, String id) {
        super(scope, id);
        TrainingNetwork network = new TrainingNetwork(this, "Network");
        TrainingDataBucket data = new TrainingDataBucket(this, "DataBucket",
                TrainingDataBucketProps.builder().datasetPrefix("datasets/imagenet").build());
        LustreCache cache = new LustreCache(this, "Lustre", LustreCacheProps.builder()
                .network(network)
                .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(data).build()))
                .build());
        // snippet:policy
        new TrainingJobDefinition(this, "Training", TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri("123456789012.dkr.ecr.us-east-1.amazonaws.com/trainer:1.0"))
                .instanceType("ml.p4d.24xlarge")
                .channels(List.of(LustreChannel.builder("train").cache(cache).path("train").build()))
                .outputBucket(data)
                .capacityPolicy(CapacityPolicy.of(List.of(
                        CapacityStep.waitAndRetry(Duration.minutes(15), 2),      // same type, same AZ
                        CapacityStep.instanceTypes(List.of("ml.p4de.24xlarge")),  // then another type
                        CapacityStep.s3Fallback())))                             // then S3, any AZ
                .build());
        // end-snippet
    }
}
