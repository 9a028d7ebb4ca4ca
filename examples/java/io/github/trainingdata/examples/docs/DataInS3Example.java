package io.github.trainingdata.examples.docs;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.network.TrainingNetworkProps;
import io.github.trainingdata.cdk.storage.DataEncryption;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import io.github.trainingdata.cdk.training.ChannelInputMode;
import io.github.trainingdata.cdk.training.S3Channel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.List;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.s3.Bucket;
import software.constructs.Construct;

/** The S3 guide's example: a KMS-encrypted data bucket whose key also covers the flow logs, and S3 channels. */
public class DataInS3Example extends Stack {
    /** Creates the stack. */
    public DataInS3Example(Construct scope, String id) {
        super(scope, id);
        // snippet:data-in-s3
        TrainingDataBucket data = new TrainingDataBucket(this, "DataBucket", TrainingDataBucketProps.builder()
                .encryption(DataEncryption.KMS)   // the data layer's key: the bucket, every log group, the flow logs
                .build());                        // datasets under s3://<bucket>/datasets/
        TrainingNetwork network = new TrainingNetwork(this, "Network", TrainingNetworkProps.builder()
                .flowLogsKey(data.getEncryptionKey()).build());
        // A bucket the team already has, with its own dataset prefix:
        TrainingDataBucket team = new TrainingDataBucket(this, "TeamBucket", TrainingDataBucketProps.builder()
                .bucket(Bucket.fromBucketName(this, "Existing", "team-training-data"))
                .datasetPrefix("vision")
                .build());

        new TrainingJobDefinition(this, "Training", TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri(
                        "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.5.1-gpu-py311"))
                .instanceType("ml.g5.2xlarge")
                .network(network)
                .outputBucket(data)
                .channels(List.of(
                        S3Channel.builder("train").dataBucket(team).path("imagenet/train")
                                .inputMode(ChannelInputMode.FAST_FILE).build(),   // streams, no download
                        S3Channel.builder("validation").dataBucket(data).path("validation").build()))   // File mode
                .build());
        // end-snippet
    }
}
