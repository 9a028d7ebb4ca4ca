package io.github.trainingdata.examples;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.network.TrainingNetworkProps;
import io.github.trainingdata.cdk.preload.LustrePreload;
import io.github.trainingdata.cdk.preload.LustrePreloadProps;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.EfsStoreProps;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDeploymentType;
import io.github.trainingdata.cdk.storage.LustreMetadataMode;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import io.github.trainingdata.cdk.training.TrainingImage;
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
 * bucket (SSE-KMS with their key) and their EFS file system (where a labelling tool writes features). It adds a
 * Lustre cache linked to the bucket, the training security group, and the preload that warms every dataset of the
 * cache with a small worker image. Training stacks ({@link SharedTrainingStack}, one per team) reference it across
 * stacks and are held back by its preload.
 */
public class SharedDataStack extends Stack {
    /** The worker image that warms the cache (see {@code examples/worker-image}): no training image needed. */
    public static final String WORKER_IMAGE = "123456789012.dkr.ecr.us-east-1.amazonaws.com/preload-worker:1";

    private final TrainingNetwork network;
    private final TrainingDataBucket dataBucket;
    private final LustreCache lustre;
    private final EfsStore features;
    private final LustrePreload preload;

    /**
     * Creates the stack.
     *
     * @param data the cache's capacity and datasets, the preload's dataset version and time limits, extra EFS
     *             directories ({@link PlatformCompositionApp#DATA}, changed)
     */
    public SharedDataStack(Construct scope, String id, StackProps props, DataSettings data) {
        super(scope, id, props);
        network = new TrainingNetwork(this, "Network", TrainingNetworkProps.builder()
                .vpc(Vpc.fromVpcAttributes(this, "PlatformVpc", VpcAttributes.builder()
                        .vpcId("vpc-0a1b2c3d4e5f60718")
                        .availabilityZones(List.of("us-east-1a", "us-east-1b"))
                        .isolatedSubnetIds(List.of("subnet-0a1b2c3d4e5f60001", "subnet-0a1b2c3d4e5f60002"))
                        .isolatedSubnetRouteTableIds(List.of("rtb-0a1b2c3d4e5f60001", "rtb-0a1b2c3d4e5f60002"))
                        .build()))
                .dataAvailabilityZone(data.dataAvailabilityZone())
                .build());
        dataBucket = new TrainingDataBucket(this, "DataBucket", TrainingDataBucketProps.builder()
                // The team's bucket is SSE-KMS with the team's key, whose policy the platform team manages: the
                // log groups use the same key (its policy must admit CloudWatch Logs: a warning).
                .bucket(Bucket.fromBucketAttributes(this, "TeamBucket", BucketAttributes.builder()
                        .bucketName("team-training-data")
                        .encryptionKey(Key.fromKeyArn(this, "TeamKey",
                                "arn:aws:kms:us-east-1:123456789012:key/0f1e2d3c-4b5a-4978-8899-aabbccddeeff"))
                        .build()))
                .datasetPrefix("vision")
                .build());
        lustre = new LustreCache(this, "Lustre", LustreCacheProps.builder()
                .network(network)
                .datasets(data.lustreDatasets(dataBucket))
                .storageCapacityGiB(data.lustreCapacityGiB())
                .lustreVersion(data.lustreVersion())
                // A tier makes it PERSISTENT_2 (the default is SCRATCH_2).
                .deploymentType(data.lustrePerUnitStorageThroughput() == null ? null
                        : LustreDeploymentType.PERSISTENT_2)
                .perUnitStorageThroughput(data.lustrePerUnitStorageThroughput())
                .metadataMode(data.lustrePerUnitStorageThroughput() == null ? null : LustreMetadataMode.AUTOMATIC)
                .build());
        features = data.efsPerformanceMode() != null ? new EfsStore(this, "Features", EfsStoreProps.builder()
                .network(network)
                .performanceMode(data.efsPerformanceMode())
                .logsKey(dataBucket.getEncryptionKey())
                .build()) : new EfsStore(this, "Features", EfsStoreProps.builder()
                .network(network)
                .fileSystem(FileSystem.fromFileSystemAttributes(this, "LabellingEfs", FileSystemAttributes.builder()
                        .fileSystemId("fs-0f1e2d3c4b5a69788")
                        .securityGroup(SecurityGroup.fromSecurityGroupId(this, "LabellingEfsGroup",
                                "sg-0f1e2d3c4b5a69788"))
                        .build()))
                .logsKey(dataBucket.getEncryptionKey())
                .build());
        data.efsDirectories().forEach(features::addDirectory);
        // No definition: the preload warms every dataset of the cache; each team's stack calls holdBack.
        preload = new LustrePreload(this, "Preload", LustrePreloadProps.builder()
                .cache(lustre)
                .image(TrainingImage.fromUri(WORKER_IMAGE))
                .datasetVersion(data.datasetVersion())
                .timeout(data.preloadTimeout())
                .importTimeout(data.importTimeout())
                .build());
        KeyGrantFindings.acknowledge(preload); // the worker writes its output to the team's SSE-KMS bucket
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

    /** @return the preload that warms every dataset of the cache */
    public LustrePreload getPreload() {
        return preload;
    }
}
