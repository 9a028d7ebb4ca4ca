package io.github.trainingdata.examples.docs;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.preload.LustrePreload;
import io.github.trainingdata.cdk.preload.LustrePreloadProps;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.EfsStoreProps;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import io.github.trainingdata.cdk.training.ChannelInputMode;
import io.github.trainingdata.cdk.training.EfsChannel;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.S3Channel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.List;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.ecr.IRepository;
import software.amazon.awscdk.services.ecr.Repository;
import software.amazon.awscdk.services.efs.ThroughputMode;
import software.constructs.Construct;

/** The front page's example: one store of each kind, a definition with a channel on each, and the preload. */
public class ConstructsExample extends Stack {
    /** Creates the stack. */
    public ConstructsExample(Construct scope, String id) {
        super(scope, id);
        IRepository repository = Repository.fromRepositoryName(this, "Repository", "training");
        // snippet:constructs
        TrainingNetwork network = new TrainingNetwork(this, "Network");
        TrainingDataBucket data = new TrainingDataBucket(this, "DataBucket",
                TrainingDataBucketProps.builder().datasetPrefix("datasets/imagenet").build());
        LustreCache lustre = new LustreCache(this, "Lustre", LustreCacheProps.builder()
                .network(network)
                .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(data).build()))  // s3://…/datasets/imagenet/ at /imagenet
                .storageCapacityGiB(1200)
                .build());
        EfsStore efs = new EfsStore(this, "Efs", EfsStoreProps.builder()
                .network(network).throughputMode(ThroughputMode.ELASTIC).build());

        TrainingJobDefinition training = new TrainingJobDefinition(this, "Training", TrainingJobDefinitionProps.builder()
                .jobNamePrefix("quickstart")
                .trainingImage(TrainingImage.fromEcrRepository(repository, "latest"))
                .instanceType("ml.p3.2xlarge")
                .outputBucket(data)
                .channels(List.of(
                        LustreChannel.builder("train").cache(lustre).dataset("imagenet").path("train").build(),
                        S3Channel.builder("validation").dataBucket(data).path("validation")
                                .inputMode(ChannelInputMode.FAST_FILE).build(),
                        EfsChannel.builder("features").store(efs).directoryPath("/features").build()))
                .build());

        new LustrePreload(this, "Preload", LustrePreloadProps.builder()
                .cache(lustre).definition(training).build());   // warms what the definition's Lustre channels read
        // end-snippet
    }
}
