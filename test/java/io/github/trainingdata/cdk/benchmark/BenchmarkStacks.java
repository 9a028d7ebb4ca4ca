package io.github.trainingdata.cdk.benchmark;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.EfsStoreProps;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.S3Channel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.ec2.FlowLogDestination;
import software.amazon.awscdk.services.ec2.FlowLogOptions;
import software.amazon.awscdk.services.ec2.FlowLogTrafficType;
import software.amazon.awscdk.services.ec2.GatewayVpcEndpointAwsService;
import software.amazon.awscdk.services.ec2.GatewayVpcEndpointOptions;
import software.amazon.awscdk.services.ec2.Port;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.SubnetConfiguration;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.ec2.SubnetType;
import software.amazon.awscdk.services.ec2.Vpc;
import software.amazon.awscdk.services.ecr.IRepository;
import software.amazon.awscdk.services.ecr.Repository;
import software.amazon.awscdk.services.efs.FileSystem;
import software.amazon.awscdk.services.efs.PerformanceMode;
import software.amazon.awscdk.services.efs.ThroughputMode;
import software.amazon.awscdk.services.fsx.CfnDataRepositoryAssociation;
import software.amazon.awscdk.services.fsx.CfnFileSystem;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.LifecycleRule;
import software.amazon.awscdk.services.s3.ObjectOwnership;

/**
 * The stacks the benchmark synthesizes: the quickstart's data layer (network, bucket, Lustre cache,
 * EFS) written with our constructs, the same resources written with plain aws-cdk-lib constructs, and
 * the data layer shared by a number of training-job definitions.
 */
final class BenchmarkStacks {
    /** The quickstart's dataset: 150 GB under datasets/imagenet. */
    static final String DATASET_PREFIX = "datasets/imagenet";
    /** The quickstart cache's capacity; both data layers write the number. */
    static final int LUSTRE_CAPACITY_GIB = 1200;

    private BenchmarkStacks() {
    }

    /** Our constructs' data layer, as in the quickstart. */
    record DataLayer(TrainingNetwork network, TrainingDataBucket bucket, LustreCache lustre, EfsStore efs) {
    }

    /** Adds the quickstart's data layer, written with our constructs, to {@code stack}. */
    static DataLayer ours(Stack stack) {
        TrainingNetwork network = new TrainingNetwork(stack, "Network");
        TrainingDataBucket bucket = new TrainingDataBucket(stack, "DataBucket",
                TrainingDataBucketProps.builder().datasetPrefix(DATASET_PREFIX).build());
        LustreCache lustre = new LustreCache(stack, "Lustre", LustreCacheProps.builder()
                .network(network).datasets(List.of(LustreDataset.builder("imagenet").dataBucket(bucket).build()))
                .storageCapacityGiB(LUSTRE_CAPACITY_GIB).build());
        EfsStore efs = new EfsStore(stack, "Efs", EfsStoreProps.builder()
                .network(network)
                .performanceMode(PerformanceMode.GENERAL_PURPOSE)
                .throughputMode(ThroughputMode.ELASTIC)
                .build());
        return new DataLayer(network, bucket, lustre, efs);
    }

    /**
     * Adds the same resources as {@link #ours}, written with plain aws-cdk-lib constructs, to {@code stack}:
     * the same props our constructs pass (so the code mirrors their internals on purpose), the templates
     * differing only in descriptions and Name tags.
     */
    static void plain(Stack stack) {
        LogGroup flowLogs = LogGroup.Builder.create(stack, "FlowLogs").retention(RetentionDays.ONE_YEAR).build();
        Vpc vpc = Vpc.Builder.create(stack, "Vpc")
                .maxAzs(2)
                .natGateways(0)
                .subnetConfiguration(List.of(SubnetConfiguration.builder()
                        .name("Data").subnetType(SubnetType.PRIVATE_ISOLATED).cidrMask(20).build()))
                .gatewayEndpoints(Map.of("S3", GatewayVpcEndpointOptions.builder()
                        .service(GatewayVpcEndpointAwsService.S3).build()))
                .flowLogs(Map.of("FlowLog", FlowLogOptions.builder()
                        .destination(FlowLogDestination.toCloudWatchLogs(flowLogs))
                        .trafficType(FlowLogTrafficType.ALL).build()))
                .build();
        SecurityGroup training = SecurityGroup.Builder.create(stack, "TrainingSecurityGroup")
                .vpc(vpc).description("SageMaker training jobs").allowAllOutbound(true).build();
        training.addIngressRule(training, Port.allTraffic(), "Distributed training");

        Bucket logs = Bucket.Builder.create(stack, "AccessLogs")
                .encryption(BucketEncryption.S3_MANAGED)
                .enforceSsl(true)
                .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
                .objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED)
                .lifecycleRules(List.of(LifecycleRule.builder()
                        .id("ExpireAccessLogs").expiration(Duration.days(365)).build()))
                .removalPolicy(RemovalPolicy.RETAIN)
                .build();
        Bucket data = Bucket.Builder.create(stack, "DataBucket")
                .encryption(BucketEncryption.S3_MANAGED)
                .enforceSsl(true)
                .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
                .objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED)
                .versioned(true)
                .serverAccessLogsBucket(logs)
                .serverAccessLogsPrefix("training-data/")
                .lifecycleRules(List.of(LifecycleRule.builder()
                        .id("ExpireNoncurrentVersions")
                        .noncurrentVersionExpiration(Duration.days(30))
                        .abortIncompleteMultipartUploadAfter(Duration.days(7)).build()))
                .removalPolicy(RemovalPolicy.RETAIN)
                .build();

        SecurityGroup lustreGroup = SecurityGroup.Builder.create(stack, "LustreSecurityGroup")
                .vpc(vpc).description("FSx for Lustre").allowAllOutbound(true).build();
        for (Port port : List.of(Port.tcp(988), Port.tcpRange(1018, 1023))) {
            lustreGroup.addIngressRule(lustreGroup, port, "Lustre between file servers");
            lustreGroup.getConnections().allowFrom(training, port, "Lustre from training");
        }
        CfnFileSystem lustre = CfnFileSystem.Builder.create(stack, "Lustre")
                .fileSystemType("LUSTRE")
                .fileSystemTypeVersion("2.15")
                .storageCapacity(LUSTRE_CAPACITY_GIB)
                .subnetIds(List.of(vpc.getIsolatedSubnets().get(0).getSubnetId()))
                .securityGroupIds(List.of(lustreGroup.getSecurityGroupId()))
                .lustreConfiguration(CfnFileSystem.LustreConfigurationProperty.builder()
                        .deploymentType("SCRATCH_2")
                        .dataCompressionType("NONE")
                        .build())
                .build();
        CfnDataRepositoryAssociation.Builder.create(stack, "LustreDataset")
                .fileSystemId(lustre.getRef())
                .fileSystemPath("/imagenet")
                .dataRepositoryPath("s3://" + data.getBucketName() + "/" + DATASET_PREFIX + "/")
                .batchImportMetaDataOnCreate(true)
                .s3(CfnDataRepositoryAssociation.S3Property.builder()
                        .autoImportPolicy(CfnDataRepositoryAssociation.AutoImportPolicyProperty.builder()
                                .events(List.of("NEW", "CHANGED", "DELETED")).build())
                        .build())
                .build();

        SecurityGroup efsGroup = SecurityGroup.Builder.create(stack, "EfsSecurityGroup")
                .vpc(vpc).description("EFS").allowAllOutbound(true).build();
        FileSystem efs = FileSystem.Builder.create(stack, "Efs")
                .vpc(vpc)
                .vpcSubnets(SubnetSelection.builder().subnetType(SubnetType.PRIVATE_ISOLATED).build())
                .securityGroup(efsGroup)
                .performanceMode(PerformanceMode.GENERAL_PURPOSE)
                .throughputMode(ThroughputMode.ELASTIC)
                .encrypted(true)
                .enableAutomaticBackups(true)
                .allowAnonymousAccess(true)
                .removalPolicy(RemovalPolicy.RETAIN)
                .build();
        efs.getConnections().allowDefaultPortFrom(training, "NFS from training");
    }

    /**
     * Adds our data layer and {@code count} training-job definitions sharing it, each reading one Lustre
     * channel and one S3 channel.
     */
    static void definitions(Stack stack, int count) {
        DataLayer layer = ours(stack);
        IRepository images = Repository.fromRepositoryName(stack, "ImageRepository", "training");
        for (int i = 1; i <= count; i++) {
            new TrainingJobDefinition(stack, "Training" + i, TrainingJobDefinitionProps.builder()
                    .trainingImage(TrainingImage.fromEcrRepository(images, "latest"))
                    .instanceType("ml.p3.2xlarge")
                    .outputBucket(layer.bucket())
                    .channels(List.of(
                            LustreChannel.builder("train").cache(layer.lustre()).path("train").build(),
                            S3Channel.builder("validation").dataBucket(layer.bucket()).path("validation").build()))
                    .build());
        }
    }
}
