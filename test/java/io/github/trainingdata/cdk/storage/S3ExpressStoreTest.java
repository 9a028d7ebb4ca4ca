package io.github.trainingdata.cdk.storage;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.network.TrainingNetworkProps;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.CfnParameter;
import software.amazon.awscdk.CfnResource;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.cloudwatch.GraphWidget;
import software.amazon.awscdk.services.ec2.CfnSubnet;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.amazon.awscdk.services.ec2.Subnet;
import software.amazon.awscdk.services.ec2.SubnetProps;
import software.amazon.awscdk.services.ec2.Vpc;
import software.amazon.awscdk.services.ec2.VpcProps;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.s3.Bucket;

class S3ExpressStoreTest {
    private final Stack stack = TestApps.stack();
    private TrainingNetwork network;

    private TrainingNetwork network() {
        if (network == null) {
            network = new TrainingNetwork(stack, "Network");
        }
        return network;
    }

    private static String logicalId(Stack stack, ISubnet subnet) {
        return stack.resolve(((CfnSubnet) subnet.getNode().getDefaultChild()).getLogicalId()).toString();
    }

    @Test
    void aNewBucketGoesInTheNetworksDataZoneByZoneIdWithSseS3AndIsKept() {
        new S3ExpressStore(stack, "Express", S3ExpressStoreProps.builder().network(network()).baseName("features")
                .build());
        Template t = Template.fromStack(stack);
        Map<String, Object> zoneId = Map.of("Fn::GetAtt",
                List.of(logicalId(stack, network().getDataSubnet()), "AvailabilityZoneId"));

        t.hasResource("AWS::S3Express::DirectoryBucket", Map.of(
                "DeletionPolicy", "RetainExceptOnCreate",
                "UpdateReplacePolicy", "Retain",
                "Properties", Map.of(
                        "BucketName", Map.of("Fn::Join", List.of("", List.of("features--", zoneId, "--x-s3"))),
                        "DataRedundancy", "SingleAvailabilityZone",
                        "LocationName", zoneId,
                        "BucketEncryption", Map.of("ServerSideEncryptionConfiguration", List.of(Map.of(
                                "BucketKeyEnabled", false,
                                "ServerSideEncryptionByDefault", Map.of("SSEAlgorithm", "AES256")))),
                        "LifecycleConfiguration", Map.of("Rules", List.of(Map.of(
                                "Id", "AbortIncompleteMultipartUploads", "Status", "Enabled",
                                "AbortIncompleteMultipartUpload", Map.of("DaysAfterInitiation", 7)))),
                        "MetricsConfigurations", List.of(Map.of("Id", "EntireBucket")))));
    }

    @Test
    void aNewVpcGetsOneS3ExpressGatewayEndpointOnItsStorageSubnets() {
        new S3ExpressStore(stack, "Express", S3ExpressStoreProps.builder().network(network()).baseName("features")
                .build());
        new S3ExpressStore(stack, "Scratch", S3ExpressStoreProps.builder().network(network()).baseName("scratch")
                .build());
        Template t = Template.fromStack(stack);

        t.resourcePropertiesCountIs("AWS::EC2::VPCEndpoint", Map.of("VpcEndpointType", "Gateway",
                "ServiceName", Map.of("Fn::Join", List.of("", List.of("com.amazonaws.",
                        Map.of("Ref", "AWS::Region"), ".s3express")))), 1);
    }

    @Test
    void aKmsKeyEncryptsTheBucketWithBucketKeys() {
        Key key = new Key(stack, "Key");
        new S3ExpressStore(stack, "Express", S3ExpressStoreProps.builder().zoneId("use1-az4").baseName("features")
                .encryptionKey(key).build());

        Template.fromStack(stack).hasResourceProperties("AWS::S3Express::DirectoryBucket", Map.of(
                "BucketName", "features--use1-az4--x-s3",
                "LocationName", "use1-az4",
                "BucketEncryption", Map.of("ServerSideEncryptionConfiguration", List.of(Map.of(
                        "BucketKeyEnabled", true,
                        "ServerSideEncryptionByDefault", Map.of("SSEAlgorithm", "aws:kms",
                                "KMSMasterKeyID", Map.of("Fn::GetAtt", List.of(
                                        stack.resolve(((CfnResource) key.getNode()
                                                .getDefaultChild()).getLogicalId()), "Arn"))))))));
    }

    @Test
    void anExistingBucketIsAdoptedByItsFullNameWithItsZoneReadFromIt() {
        S3ExpressStore store = new S3ExpressStore(stack, "Express", S3ExpressStoreProps.builder()
                .bucketName("features--use1-az4--x-s3").build());

        assertEquals("use1-az4", store.getZone().getZoneId());
        assertEquals(StoreZone.Affinity.PREFERRED, store.getZone().getAffinity());
        assertEquals("s3://features--use1-az4--x-s3/datasets/train/", store.s3Uri("train"));
        assertEquals(Map.of("Fn::Join", List.of("", List.of("arn:", Map.of("Ref", "AWS::Partition"),
                ":s3express:", Map.of("Ref", "AWS::Region"), ":", Map.of("Ref", "AWS::AccountId"),
                ":bucket/features--use1-az4--x-s3"))), stack.resolve(store.getBucketArn()));
        assertEquals(null, store.getNode().tryFindChild("Resource"), "an existing bucket is not created");
    }

    @Test
    void showsLatencyRequestsDownloadsAndSizeOnTheDashboard() {
        S3ExpressStore store = new S3ExpressStore(stack, "Express", S3ExpressStoreProps.builder()
                .bucketName("features--use1-az4--x-s3").build());
        S3ExpressStore quiet = new S3ExpressStore(stack, "Quiet", S3ExpressStoreProps.builder().zoneId("use1-az4")
                .baseName("quiet").requestMetrics(false).build());

        assertEquals(2, store.dashboardRows(Duration.minutes(1)).size());
        assertEquals(1, store.dashboardRows(Duration.minutes(1)).get(1).size(),
                "an existing bucket's request metrics are its own business: the size only");
        assertEquals(1, quiet.dashboardRows(Duration.minutes(1)).get(1).size());
        S3ExpressStore metered = new S3ExpressStore(stack, "Metered", S3ExpressStoreProps.builder().zoneId("use1-az4")
                .baseName("metered").build());
        List<?> graphs = metered.dashboardRows(Duration.minutes(1)).get(1);
        assertEquals(4, graphs.size());
        assertTrue(graphs.stream().allMatch(g -> g instanceof GraphWidget));
    }

    @Test
    void rejectsABaseNameOutOfTheNamingRules() {
        assertRule("S3EXPRESS_BASE_NAME", () -> new S3ExpressStore(stack, "Express", S3ExpressStoreProps.builder()
                .zoneId("use1-az4").baseName("Features_1").build()),
                "Test/Express", "baseName", "Features_1",
                "1 to 47 lowercase letters, numbers and hyphens, beginning and ending with a letter or number, not "
                        + "beginning with xn--, sthree-, amzn-s3-demo- (the full name <baseName>--<zoneId>--x-s3 is at "
                        + "most 63 characters)");
    }

    @Test
    void rejectsAFullNameOutOfTheNamingRules() {
        assertRule("S3EXPRESS_BUCKET_NAME", () -> new S3ExpressStore(stack, "Express", S3ExpressStoreProps.builder()
                .bucketName("features--us-east-1a--x-s3").build()),
                "Test/Express", "bucketName", "features--us-east-1a--x-s3",
                "<base-name>--<zone-id>--x-s3 (e.g. features--use1-az4--x-s3), 3 to 63 lowercase letters, numbers "
                        + "and hyphens, the base beginning and ending with a letter or number and not beginning "
                        + "with xn--, sthree-, amzn-s3-demo-");
    }

    @Test
    void adoptsABucketNamedAtDeployInTheZoneGiven() {
        String name = new CfnParameter(stack, "FeaturesBucket").getValueAsString();
        S3ExpressStore store = new S3ExpressStore(stack, "Express", S3ExpressStoreProps.builder()
                .bucketName(name).zoneId("use1-az4").build());

        assertEquals(name, store.getBucketName());
        assertEquals("use1-az4", store.getZoneId());
    }

    @Test
    void rejectsABucketNamedAtDeployWithoutItsZoneId() {
        assertRule("S3EXPRESS_ZONE_ID", () -> new S3ExpressStore(stack, "Express", S3ExpressStoreProps.builder()
                .bucketName(new CfnParameter(stack, "FeaturesBucket").getValueAsString()).build()),
                "Test/Express", "zoneId", null,
                "the bucket's zone ID, such as use1-az4, when bucketName is a deploy-time value (the zone ID in its "
                        + "name is known only at deploy)");
    }

    @Test
    void rejectsAZoneNameForAZoneId() {
        assertRule("S3EXPRESS_ZONE_ID", () -> new S3ExpressStore(stack, "Express", S3ExpressStoreProps.builder()
                .zoneId("us-east-1a").baseName("features").build()),
                "Test/Express", "zoneId", "us-east-1a",
                "a zone ID such as use1-az4 or usw2-lax1-az1 (a directory bucket is named by zone ID, not by zone "
                        + "name)");
    }

    @Test
    void rejectsAZoneIdThatIsNotTheNetworksDataZone() {
        Vpc vpc = new Vpc(stack, "Vpc", VpcProps.builder().maxAzs(2).build());
        Subnet data = new Subnet(stack, "Data", SubnetProps.builder().vpcId(vpc.getVpcId()).cidrBlock("10.0.250.0/24")
                .availabilityZone("us-east-1a").build());
        ((CfnSubnet) data.getNode().getDefaultChild()).setAvailabilityZoneId("use1-az1");
        TrainingNetwork own = new TrainingNetwork(stack, "Own", TrainingNetworkProps.builder().vpc(vpc)
                .dataSubnet(data).build());

        assertRule("S3EXPRESS_ZONE_NOT_DATA_ZONE", () -> new S3ExpressStore(stack, "Express",
                S3ExpressStoreProps.builder().network(own).zoneId("use1-az4").baseName("features").build()),
                "Test/Express", "zoneId", "use1-az4",
                "the zone ID of the network's data subnet Test/Data (use1-az1): jobs that read the bucket run there");
    }

    @Test
    void rejectsNewBucketSettingsOnAnExistingBucket() {
        assertRule("S3EXPRESS_EXISTING_OR_NEW", () -> new S3ExpressStore(stack, "Express", S3ExpressStoreProps
                .builder().bucketName("features--use1-az4--x-s3").baseName("features").build()),
                "Test/Express", "baseName", "features",
                "unset with bucketName (an existing bucket keeps its own name, zone and metrics)");
    }

    @Test
    void rejectsASnapshotRemovalPolicy() {
        assertRule("S3EXPRESS_REMOVAL_POLICY", () -> new S3ExpressStore(stack, "Express", S3ExpressStoreProps
                .builder().zoneId("use1-az4").baseName("features").removalPolicy(RemovalPolicy.SNAPSHOT).build()),
                "Test/Express", "removalPolicy", "SNAPSHOT",
                "DESTROY, RETAIN or RETAIN_ON_UPDATE_OR_DELETE (CloudFormation takes no snapshot of a bucket)");
    }

    @Test
    void rejectsADirectoryBucketAsALustreDataset() {
        TrainingDataBucket adopted = new TrainingDataBucket(stack, "Adopted", TrainingDataBucketProps.builder()
                .bucket(Bucket.fromBucketName(stack, "Directory", "features--use1-az4--x-s3")).build());

        assertRule("LUSTRE_DATASET_DIRECTORY_BUCKET", () -> new LustreCache(stack, "Cache", LustreCacheProps.builder()
                .network(network()).datasets(List.of(LustreDataset.builder("features").dataBucket(adopted).build()))
                .build()),
                "Test/Cache", "datasets[0].dataBucket", "features--use1-az4--x-s3",
                "a general purpose bucket: a directory bucket is read with S3ExpressStore and an S3 channel or a "
                        + "direct read, not through a Lustre cache");
    }
}
