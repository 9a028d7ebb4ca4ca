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
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import io.github.trainingdata.cdk.training.EfsChannel;
import io.github.trainingdata.cdk.training.ChannelInputMode;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.S3Channel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.ecr.IRepository;
import software.amazon.awscdk.services.ecr.Repository;
import software.amazon.awscdk.services.efs.PerformanceMode;
import software.amazon.awscdk.services.efs.ThroughputMode;
import software.constructs.Construct;

/**
 * The quickstart: the training-data bucket with a KMS key that also encrypts every log group, a training
 * network, a SCRATCH_2 Lustre cache linked to the dataset and warmed by a preload, an EFS file system, and a
 * training-job definition that reads one channel from each store, with a dashboard of the data path.
 *
 * <p>What a platform team changes from one deploy to the next is in {@link #DATA} and {@link #TRAINING} (the values
 * the quickstart ships with); give changed copies to the last constructor, e.g.
 * {@code List.of(TRAINING.withInstanceType("ml.p4d.24xlarge"))}. Every definition after the first is held back by
 * the same preload.
 */
public class QuickstartStack extends Stack {
    /** The data layer's settings: a 1200 GiB cache with one dataset (the bucket's dataset prefix itself). */
    public static final DataSettings DATA = new DataSettings(1200, Map.of("imagenet", ""), null, List.of(), null,
            null);
    /** The definition's settings. */
    public static final TrainingSettings TRAINING = new TrainingSettings("Training", "quickstart", "imagenet",
            "latest", "ml.p3.2xlarge", 1, Map.of("epochs", "10", "batch-size", "256"), false,
            "checkpoints/quickstart", null, null, null);

    private final TrainingNetwork network;
    private final TrainingDataBucket dataBucket;
    private final LustreCache lustre;
    private final EfsStore efs;
    private final List<TrainingJobDefinition> definitions;
    private final LustrePreload preload;
    private final TrainingDataDashboard dashboard;

    /** Creates the stack with default (environment-agnostic) props. */
    public QuickstartStack(Construct scope, String id) {
        this(scope, id, null);
    }

    /** Creates the stack. */
    public QuickstartStack(Construct scope, String id, StackProps props) {
        this(scope, id, props, DATA, List.of(TRAINING));
    }

    /**
     * Creates the stack with other settings.
     *
     * @param data the data layer's settings ({@link #DATA}, changed)
     * @param jobs one or more definitions' settings ({@link #TRAINING}, changed, and more)
     */
    public QuickstartStack(Construct scope, String id, StackProps props, DataSettings data,
            List<TrainingSettings> jobs) {
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
                .datasets(data.lustreDatasets(dataBucket))
                .storageCapacityGiB(data.lustreCapacityGiB())
                .build());
        efs = new EfsStore(this, "Efs", EfsStoreProps.builder()
                .network(network)
                .performanceMode(PerformanceMode.GENERAL_PURPOSE)
                .throughputMode(ThroughputMode.ELASTIC)
                .logsKey(dataBucket.getEncryptionKey())
                .build());
        data.efsDirectories().forEach(efs::addDirectory);
        IRepository repository = Repository.fromRepositoryName(this, "ImageRepository", "training");
        definitions = jobs.stream().map(job -> definition(job, repository)).toList();
        preload = new LustrePreload(this, "Preload", LustrePreloadProps.builder()
                .cache(lustre)
                .definition(definitions.get(0))
                .datasetVersion(data.datasetVersion())
                .timeout(data.preloadTimeout())
                .importTimeout(data.importTimeout())
                .build());
        definitions.subList(1, definitions.size()).forEach(preload::holdBack);
        dashboard = new TrainingDataDashboard(this, "Dashboard", TrainingDataDashboardProps.builder()
                .stores(List.of(lustre, efs))
                .preloads(List.of(preload))
                .definitions(definitions)
                .build());
        definitions.forEach(KeyGrantFindings::acknowledge);
    }

    private TrainingJobDefinition definition(TrainingSettings job, IRepository repository) {
        return new TrainingJobDefinition(this, job.name(), job.props(TrainingImage.fromEcrRepository(repository,
                        job.imageTag()))
                .volumeSizeGiB(100)
                .maxRuntime(Duration.hours(8))
                .outputBucket(dataBucket)
                .channels(List.of(
                        LustreChannel.builder("train").cache(lustre).dataset(job.dataset()).path("train").build(),
                        S3Channel.builder("validation").dataBucket(dataBucket).path("validation")
                                .inputMode(ChannelInputMode.FAST_FILE).build(),
                        EfsChannel.builder("features").store(efs).directoryPath("/features").build()))
                .build());
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

    /** @return the (first) training-job definition */
    public TrainingJobDefinition getTraining() {
        return definitions.get(0);
    }

    /** @return every training-job definition, the first one's preload holding back the others */
    public List<TrainingJobDefinition> getDefinitions() {
        return definitions;
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
