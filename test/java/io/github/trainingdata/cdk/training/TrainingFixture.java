package io.github.trainingdata.cdk.training;


import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.EfsStoreProps;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.s3.Bucket;

/**
 * One stack per test with the stores a training job reads: an existing bucket {@code team-datasets} with
 * dataset prefix {@code imagenet} (literal, so S3 URIs are plain strings), and, created on first use, a
 * training network, a Lustre cache linked to the dataset and a regional EFS store.
 */
final class TrainingFixture {
    static final String IMAGE = "123456789012.dkr.ecr.us-east-1.amazonaws.com/trainer:1.0";

    final Stack stack = TestApps.stack();
    final TrainingDataBucket data = new TrainingDataBucket(stack, "Data", TrainingDataBucketProps.builder()
            .bucket(Bucket.fromBucketName(stack, "Existing", "team-datasets")).datasetPrefix("imagenet").build());
    private TrainingNetwork network;
    private LustreCache lustre;
    private EfsStore efs;

    TrainingNetwork network() {
        if (network == null) {
            network = new TrainingNetwork(stack, "Network");
        }
        return network;
    }

    LustreCache lustre() {
        if (lustre == null) {
            lustre = new LustreCache(stack, "Lustre", LustreCacheProps.builder().network(network())
                    .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(data).build()))
                    .build());
        }
        return lustre;
    }

    EfsStore efs() {
        if (efs == null) {
            efs = new EfsStore(stack, "Efs", EfsStoreProps.builder().network(network()).build());
        }
        return efs;
    }

    /** @return props with what is required: an ECR image by URI, an instance type and the data bucket */
    TrainingJobDefinitionProps.Builder props() {
        return TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri(IMAGE))
                .instanceType("ml.m5.xlarge")
                .outputBucket(data);
    }

    S3Channel.Builder s3(String name) {
        return S3Channel.builder(name).dataBucket(data);
    }

    LustreChannel lustreChannel(String name, String path) {
        return LustreChannel.builder(name).cache(lustre()).path(path).build();
    }

    EfsChannel efsChannel(String name, String directoryPath) {
        return EfsChannel.builder(name).store(efs()).directoryPath(directoryPath).build();
    }

    /**
     * The job most tests look at: {@code resnet}, 8 hours on managed spot with checkpoints, one channel per
     * store (S3 {@code validation} in FastFile, Lustre {@code train}, EFS {@code features}), hyperparameters
     * and tags given out of key order.
     */
    TrainingJobDefinition threeStoreJob() {
        return define(props()
                .jobNamePrefix("resnet")
                .maxRuntime(Duration.hours(8))
                .managedSpot(true)
                .checkpointPrefix("checkpoints/resnet")
                .channels(List.of(
                        s3("validation").path("validation").inputMode(ChannelInputMode.FAST_FILE).build(),
                        lustreChannel("train", "train"),
                        efsChannel("features", "/features")))
                .hyperParameters(Map.of("lr", "0.1", "epochs", "10", "batch-size", "256"))
                .tags(Map.of("team", "ml", "cost-center", "42")));
    }

    /** @return the definition {@code Test/Training} */
    TrainingJobDefinition define(TrainingJobDefinitionProps.Builder props) {
        return new TrainingJobDefinition(stack, "Training", props.build());
    }
}
