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

/**
 * A data stack (this one: network, bucket, cache and a preload warming every dataset) and a team's training stack
 * beside it whose definition the preload holds back, as the composition guide shows.
 */
public class CompositionExample extends Stack {
    /** Creates the data stack and, in {@code scope}, the team's training stack. */
    public CompositionExample(Construct scope, String id) {
        super(scope, id);
        // snippet:composition
        // The data stack: no definition, so the preload warms every dataset with its own worker image.
        TrainingNetwork network = new TrainingNetwork(this, "Network");
        TrainingDataBucket data = new TrainingDataBucket(this, "DataBucket");
        LustreCache cache = new LustreCache(this, "Lustre", LustreCacheProps.builder()
                .network(network)
                .datasets(List.of(
                        LustreDataset.builder("imagenet").dataBucket(data).prefix("imagenet").build(),
                        LustreDataset.builder("coco").dataBucket(data).prefix("coco").build()))
                .build());
        LustrePreload preload = new LustrePreload(this, "Preload", LustrePreloadProps.builder()
                .cache(cache)
                .image(TrainingImage.fromUri("123456789012.dkr.ecr.us-east-1.amazonaws.com/preload-worker:1"))
                .datasetVersion("2026-11-28")    // bump after an upload: re-warms, an update of this stack alone
                .build());

        // A team's stack: its definition waits for the warm-up that is current when an execution starts.
        Stack team = new Stack(scope, id + "TeamVision");
        TrainingJobDefinition vision = new TrainingJobDefinition(team, "Training", TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri(
                        "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.5.1-gpu-py311"))
                .instanceType("ml.p4d.24xlarge")
                .outputBucket(data)
                .channels(List.of(
                        LustreChannel.builder("train").cache(cache).dataset("imagenet").path("train").build()))
                .build());
        preload.holdBack(vision);
        // end-snippet
    }
}
