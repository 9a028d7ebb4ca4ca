package io.github.trainingdata.examples;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.EfsStoreProps;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.efs.PerformanceMode;
import software.amazon.awscdk.services.efs.ThroughputMode;
import software.constructs.Construct;

/**
 * The quickstart: a training network, the training-data bucket, a SCRATCH_2 Lustre cache linked to the
 * dataset, and an EFS file system, all with the library's defaults.
 */
public class QuickstartStack extends Stack {
    private final TrainingNetwork network;
    private final TrainingDataBucket dataBucket;
    private final LustreCache lustre;
    private final EfsStore efs;

    /** Creates the stack with default (environment-agnostic) props. */
    public QuickstartStack(Construct scope, String id) {
        this(scope, id, null);
    }

    /** Creates the stack. */
    public QuickstartStack(Construct scope, String id, StackProps props) {
        super(scope, id, props);
        network = new TrainingNetwork(this, "Network");
        dataBucket = new TrainingDataBucket(this, "DataBucket", TrainingDataBucketProps.builder()
                .datasetPrefix("datasets/imagenet")
                .build());
        lustre = new LustreCache(this, "Lustre", LustreCacheProps.builder()
                .network(network)
                .dataBucket(dataBucket)
                .datasetSizeBytes(150L * 1_000_000_000L)
                .build());
        efs = new EfsStore(this, "Efs", EfsStoreProps.builder()
                .network(network)
                .performanceMode(PerformanceMode.GENERAL_PURPOSE)
                .throughputMode(ThroughputMode.ELASTIC)
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
}
