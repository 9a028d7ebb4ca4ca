package io.github.trainingdata.examples.docs;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.preload.LustrePreload;
import io.github.trainingdata.cdk.preload.LustrePreloadProps;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.List;
import software.amazon.awscdk.Stack;
import software.constructs.Construct;

/** A preload whose worker image carries the Lustre client ({@code lfs}), so the worker takes the fast path. */
public class LfsWorkerExample extends Stack {
    /** Creates the stack. */
    public LfsWorkerExample(Construct scope, String id) {
        super(scope, id);
        TrainingDataBucket data = new TrainingDataBucket(this, "DataBucket");
        LustreCache lustre = new LustreCache(this, "Lustre", LustreCacheProps.builder()
                .network(new TrainingNetwork(this, "Network"))
                .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(data).prefix("imagenet").build()))
                .build());
        TrainingJobDefinition training = new TrainingJobDefinition(this, "Training", TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri(
                        "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.5.1-gpu-py311"))
                .instanceType("ml.p4d.24xlarge")
                .outputBucket(data)
                .channels(List.of(LustreChannel.builder("train").cache(lustre).build()))
                .build());
        // snippet:lfs-worker
        new LustrePreload(this, "Preload", LustrePreloadProps.builder()
                .cache(lustre).definition(training)
                .image(TrainingImage.fromUri("123456789012.dkr.ecr.us-east-1.amazonaws.com/preload-worker:lfs-1"))
                .workerImageHasLfs(true)
                .build());
        // end-snippet
    }
}
