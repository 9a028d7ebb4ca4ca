package io.github.trainingdata.examples;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.network.TrainingNetworkProps;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.EfsStoreProps;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import java.util.List;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.Vpc;
import software.amazon.awscdk.services.ec2.VpcAttributes;
import software.amazon.awscdk.services.efs.FileSystem;
import software.amazon.awscdk.services.efs.FileSystemAttributes;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketAttributes;
import software.constructs.Construct;

/**
 * The data layer a platform team owns, built on resources that already exist: their VPC, their dataset
 * bucket (SSE-KMS with their key) and their EFS file system (where a labelling tool writes features). It adds a Lustre cache linked
 * to the bucket and the training security group. Training stacks reference it across stacks.
 */
public class SharedDataStack extends Stack {
    private final TrainingNetwork network;
    private final TrainingDataBucket dataBucket;
    private final LustreCache lustre;
    private final EfsStore features;

    /** Creates the stack. */
    public SharedDataStack(Construct scope, String id, StackProps props) {
        super(scope, id, props);
        network = new TrainingNetwork(this, "Network", TrainingNetworkProps.builder()
                .vpc(Vpc.fromVpcAttributes(this, "PlatformVpc", VpcAttributes.builder()
                        .vpcId("vpc-0a1b2c3d4e5f60718")
                        .availabilityZones(List.of("us-east-1a", "us-east-1b"))
                        .isolatedSubnetIds(List.of("subnet-0a1b2c3d4e5f60001", "subnet-0a1b2c3d4e5f60002"))
                        .isolatedSubnetRouteTableIds(List.of("rtb-0a1b2c3d4e5f60001", "rtb-0a1b2c3d4e5f60002"))
                        .build()))
                .build());
        dataBucket = new TrainingDataBucket(this, "DataBucket", TrainingDataBucketProps.builder()
                // The team's bucket is SSE-KMS with the team's key, whose policy the platform team manages: the
                // training stack's log groups use the same key (its policy must admit CloudWatch Logs: a warning).
                .bucket(Bucket.fromBucketAttributes(this, "TeamBucket", BucketAttributes.builder()
                        .bucketName("team-training-data")
                        .encryptionKey(Key.fromKeyArn(this, "TeamKey",
                                "arn:aws:kms:us-east-1:123456789012:key/0f1e2d3c-4b5a-4978-8899-aabbccddeeff"))
                        .build()))
                .datasetPrefix("vision")
                .build());
        lustre = new LustreCache(this, "Lustre", LustreCacheProps.builder()
                .network(network)
                .datasets(List.of(
                        LustreDataset.builder("imagenet").dataBucket(dataBucket).prefix("imagenet").build(),
                        LustreDataset.builder("coco").dataBucket(dataBucket).prefix("coco").build()))
                .storageCapacityGiB(2400)
                .build());
        features = new EfsStore(this, "Features", EfsStoreProps.builder()
                .network(network)
                .fileSystem(FileSystem.fromFileSystemAttributes(this, "LabellingEfs", FileSystemAttributes.builder()
                        .fileSystemId("fs-0f1e2d3c4b5a69788")
                        .securityGroup(SecurityGroup.fromSecurityGroupId(this, "LabellingEfsGroup",
                                "sg-0f1e2d3c4b5a69788"))
                        .build()))
                .logsKey(dataBucket.getEncryptionKey())
                .build());
    }

    /** @return the network (existing VPC, new training group) */
    public TrainingNetwork getNetwork() {
        return network;
    }

    /** @return the existing dataset bucket */
    public TrainingDataBucket getDataBucket() {
        return dataBucket;
    }

    /** @return the Lustre cache */
    public LustreCache getLustre() {
        return lustre;
    }

    /** @return the existing EFS file system */
    public EfsStore getFeatures() {
        return features;
    }
}
