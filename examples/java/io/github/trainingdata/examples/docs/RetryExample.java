package io.github.trainingdata.examples.docs;

import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import io.github.trainingdata.cdk.training.S3Channel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.List;
import software.amazon.awscdk.Stack;
import software.constructs.Construct;

/** A definition whose jobs SageMaker retries after an internal error (docs/capacity.md). */
public class RetryExample extends Stack {
    /** Creates the stack. */
    public RetryExample(Construct scope, String id) {
        super(scope, id);
        TrainingDataBucket data = new TrainingDataBucket(this, "DataBucket",
                TrainingDataBucketProps.builder().datasetPrefix("datasets/imagenet").build());
        // snippet:retries
        new TrainingJobDefinition(this, "Training", TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri("123456789012.dkr.ecr.us-east-1.amazonaws.com/trainer:1.0"))
                .instanceType("ml.p4d.24xlarge")
                .channels(List.of(S3Channel.builder("train").dataBucket(data).build()))
                .outputBucket(data)
                .maximumRetryAttempts(3)        // SageMaker retries after an InternalServerError, 1 to 30
                .build());
        // end-snippet
    }
}
