package io.github.trainingdata.examples.docs;

import io.github.trainingdata.cdk.monitoring.TrainingDataDashboard;
import io.github.trainingdata.cdk.monitoring.TrainingDataDashboardProps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.S3ExpressStore;
import io.github.trainingdata.cdk.storage.S3ExpressStoreProps;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.training.ChannelInputMode;
import io.github.trainingdata.cdk.training.DirectRead;
import io.github.trainingdata.cdk.training.S3Channel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.List;
import software.amazon.awscdk.Stack;
import software.constructs.Construct;

/**
 * An S3 Express One Zone directory bucket in the network's data zone: one job reads it through a FastFile channel,
 * another streams shards from it in its own code (a direct read), and the dashboard shows its latency and requests.
 */
public class S3ExpressExample extends Stack {
    /** Creates the stack. */
    public S3ExpressExample(Construct scope, String id) {
        super(scope, id);
        TrainingDataBucket output = new TrainingDataBucket(this, "Output");
        // snippet:store
        TrainingNetwork network = new TrainingNetwork(this, "Network");
        S3ExpressStore express = new S3ExpressStore(this, "Express", S3ExpressStoreProps.builder()
                .network(network)               // the bucket goes in the network's data zone, by zone ID
                .baseName("features")           // named features--<zone-id>--x-s3
                .build());
        // end-snippet
        // snippet:channel
        new TrainingJobDefinition(this, "FastFile", TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri("123456789012.dkr.ecr.us-east-1.amazonaws.com/trainer:latest"))
                .instanceType("ml.g5.xlarge")
                .channels(List.of(S3Channel.builder("train").store(express).path("train")
                        .inputMode(ChannelInputMode.FAST_FILE).build()))
                .outputBucket(output)
                .build());
        // end-snippet
        // snippet:direct
        new TrainingJobDefinition(this, "Streaming", TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri("123456789012.dkr.ecr.us-east-1.amazonaws.com/trainer:latest"))
                .instanceType("ml.g5.8xlarge")
                .directReads(List.of(DirectRead.builder("TRAIN_SHARDS").store(express).path("shards/train").build()))
                .outputBucket(output)
                .build());
        // end-snippet
        new TrainingDataDashboard(this, "Dashboard", TrainingDataDashboardProps.builder()
                .stores(List.of(express))
                .build());
    }
}
