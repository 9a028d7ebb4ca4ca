package io.github.trainingdata.examples.docs;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.LustreDeploymentType;
import io.github.trainingdata.cdk.storage.LustreMetadataMode;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import java.util.List;
import software.amazon.awscdk.Stack;
import software.constructs.Construct;

/** A PERSISTENT_2 cache with a throughput tier, for a cluster that reads faster than SCRATCH_2 gives. */
public class PersistentCacheExample extends Stack {
    /** Creates the stack. */
    public PersistentCacheExample(Construct scope, String id) {
        super(scope, id);
        TrainingNetwork network = new TrainingNetwork(this, "Network");
        TrainingDataBucket data = new TrainingDataBucket(this, "DataBucket",
                TrainingDataBucketProps.builder().datasetPrefix("datasets/imagenet").build());
        // snippet:persistent
        new LustreCache(this, "Lustre", LustreCacheProps.builder()
                .network(network)
                .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(data).build()))
                .deploymentType(LustreDeploymentType.PERSISTENT_2)
                .perUnitStorageThroughput(500)            // MB/s per TiB: 125, 250, 500 or 1000
                .metadataMode(LustreMetadataMode.AUTOMATIC) // or .metadataIops(n): always stated
                .storageCapacityGiB(2400)
                .build());
        // end-snippet
    }
}
