package io.github.trainingdata.examples;

import io.github.trainingdata.cdk.monitoring.TrainingDataDashboard;
import io.github.trainingdata.cdk.monitoring.TrainingDataDashboardProps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.network.TrainingNetworkProps;
import io.github.trainingdata.cdk.preload.LustrePreload;
import io.github.trainingdata.cdk.preload.LustrePreloadProps;
import io.github.trainingdata.cdk.storage.DataEncryption;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.EfsStoreProps;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import io.github.trainingdata.cdk.training.EfsChannel;
import io.github.trainingdata.cdk.training.ChannelInputMode;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.S3Channel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.ecr.Repository;
import software.amazon.awscdk.services.efs.PerformanceMode;
import software.amazon.awscdk.services.efs.ThroughputMode;
import software.constructs.Construct;

/**
 * The quickstart: the training-data bucket with a KMS key that also encrypts every log group, a training
 * network, a SCRATCH_2 Lustre cache linked to the dataset and warmed by a preload, an EFS file system, and a
 * training-job definition that reads one channel from each store, with a dashboard of the data path.
 */
public class QuickstartStack extends Stack {
    private final TrainingNetwork network;
    private final TrainingDataBucket dataBucket;
    private final LustreCache lustre;
    private final EfsStore efs;
    private final TrainingJobDefinition training;
    private final LustrePreload preload;
    private final TrainingDataDashboard dashboard;

    /** Creates the stack with default (environment-agnostic) props. */
    public QuickstartStack(Construct scope, String id) {
        this(scope, id, null);
    }

    /** Creates the stack. */
    public QuickstartStack(Construct scope, String id, StackProps props) {
        super(scope, id, props);
        // One key for the data layer: the bucket's new KMS key also encrypts every log group (flow logs here,
        // the state machine's and the preload's through the bucket).
        dataBucket = new TrainingDataBucket(this, "DataBucket", TrainingDataBucketProps.builder()
                .datasetPrefix("datasets/imagenet")
                .encryption(DataEncryption.KMS)
                .build());
        network = new TrainingNetwork(this, "Network", TrainingNetworkProps.builder()
                .flowLogsKey(dataBucket.getEncryptionKey())
                .build());
        lustre = new LustreCache(this, "Lustre", LustreCacheProps.builder()
                .network(network)
                .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(dataBucket).build()))
                .storageCapacityGiB(1200)
                .build());
        efs = new EfsStore(this, "Efs", EfsStoreProps.builder()
                .network(network)
                .performanceMode(PerformanceMode.GENERAL_PURPOSE)
                .throughputMode(ThroughputMode.ELASTIC)
                .logsKey(dataBucket.getEncryptionKey())
                .build());
        training = new TrainingJobDefinition(this, "Training", TrainingJobDefinitionProps.builder()
                .jobNamePrefix("quickstart")
                .trainingImage(TrainingImage.fromEcrRepository(
                        Repository.fromRepositoryName(this, "ImageRepository", "training"), "latest"))
                .instanceType("ml.p3.2xlarge")
                .volumeSizeGiB(100)
                .maxRuntime(Duration.hours(8))
                .outputBucket(dataBucket)
                .checkpointPrefix("checkpoints/quickstart")
                .channels(List.of(
                        LustreChannel.builder("train").cache(lustre).dataset("imagenet").path("train").build(),
                        S3Channel.builder("validation").dataBucket(dataBucket).path("validation")
                                .inputMode(ChannelInputMode.FAST_FILE).build(),
                        EfsChannel.builder("features").store(efs).directoryPath("/features").build()))
                .hyperParameters(Map.of("epochs", "10", "batch-size", "256"))
                .build());
        preload = new LustrePreload(this, "Preload", LustrePreloadProps.builder()
                .cache(lustre)
                .definition(training)
                .build());
        dashboard = new TrainingDataDashboard(this, "Dashboard", TrainingDataDashboardProps.builder()
                .lustreCaches(List.of(lustre))
                .efsStores(List.of(efs))
                .preloads(List.of(preload))
                .definitions(List.of(training))
                .build());
        KeyGrantFindings.acknowledge(training);
    }

    /** @return the network */
    public TrainingNetwork getNetwork() {
        return network;
    }

    /** @return the data bucket */
    public TrainingDataBucket getDataBucket() {
        return dataBucket;
    }

    /** @return the Lustre cache */
    public LustreCache getLustre() {
        return lustre;
    }

    /** @return the EFS store */
    public EfsStore getEfs() {
        return efs;
    }

    /** @return the training-job definition */
    public TrainingJobDefinition getTraining() {
        return training;
    }

    /** @return the preload that warms the Lustre cache before training */
    public LustrePreload getPreload() {
        return preload;
    }

    /** @return the CloudWatch dashboard of the data path */
    public TrainingDataDashboard getDashboard() {
        return dashboard;
    }
}
