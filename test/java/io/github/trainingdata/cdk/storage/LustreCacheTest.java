package io.github.trainingdata.cdk.storage;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.trainingdata.cdk.performance.CacheThroughput;
import io.github.trainingdata.cdk.limits.FsxLimits;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.CfnParameter;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.fsx.LustreDataCompressionType;
import software.amazon.awscdk.services.s3.Bucket;

class LustreCacheTest {
    private final Stack stack = TestApps.stack();
    private final TrainingNetwork network = new TrainingNetwork(stack, "Network");
    private final TrainingDataBucket data = new TrainingDataBucket(stack, "Data", TrainingDataBucketProps.builder()
            .bucket(Bucket.fromBucketName(stack, "Existing", "team-datasets")).datasetPrefix("vision").build());

    private LustreDataset.Builder dataset(String name) {
        return LustreDataset.builder(name).dataBucket(data).prefix(name);
    }

    private LustreCacheProps.Builder props() {
        return LustreCacheProps.builder().network(network).datasets(List.of(dataset("imagenet").build()));
    }

    @Test
    void isScratch2Lustre215InTheDataSubnetAndRemovedWithTheStack() {
        LustreCache cache = new LustreCache(stack, "Lustre", props().build());
        Template t = Template.fromStack(stack);

        t.hasResource("AWS::FSx::FileSystem", Map.of(
                "DeletionPolicy", "Delete",
                "Properties", Map.of(
                        "FileSystemType", "LUSTRE",
                        "FileSystemTypeVersion", "2.15",
                        "StorageCapacity", 1200,
                        "SubnetIds", List.of(Map.of("Ref", Match.stringLikeRegexp("NetworkVpcDataSubnet1.*"))),
                        "SecurityGroupIds", List.of(Match.anyValue()),
                        "LustreConfiguration", Map.of(
                                "DeploymentType", "SCRATCH_2",
                                "DataCompressionType", "NONE"))));
        assertEquals(network.getDataAvailabilityZone(), cache.getAvailabilityZone());
        assertEquals(234.4, cache.getBaselineThroughputMBps(), 0.1);
        assertEquals(1523.4, cache.getBurstThroughputMBps(), 0.1);
        // SCRATCH_2 loads from S3 at its disk write throughput: 1.171875 TiB x 100 MB/s per TiB.
        assertEquals(new CacheThroughput(1200, 100), cache.getLoadThroughput());
        assertEquals(LustreDataCompressionType.NONE, cache.getDataCompression());
        t.hasResource("AWS::EC2::VPC", Map.of("DeletionPolicy", Match.absent()));
    }

    @Test
    void eachDatasetIsADataRepositoryAssociationImportingMetadataAndFollowingEveryChange() {
        LustreCache cache = new LustreCache(stack, "Lustre", props().build());
        Template t = Template.fromStack(stack);

        t.resourceCountIs("AWS::FSx::DataRepositoryAssociation", 0);
        t.resourceCountIs("Custom::DataRepositoryAssociation", 1);
        t.hasResource("Custom::DataRepositoryAssociation", Map.of(
                "DeletionPolicy", "Delete",
                "UpdateReplacePolicy", "Delete",
                "Properties", Map.of(
                        "ServiceToken", Match.anyValue(),
                        "FileSystemId", Map.of("Ref", stack.getLogicalId(cache.getResource())),
                        "FileSystemPath", "/imagenet",
                        "DataRepositoryPath", "s3://team-datasets/vision/imagenet/",
                        "AutoImportEvents", List.of("NEW", "CHANGED", "DELETED"),
                        "AutoExportEvents", List.of(),
                        "BatchImportMetaDataOnCreate", true)));
        assertEquals(1, cache.getAssociations().size());
    }

    @Test
    void severalDatasetsFromOneBucketShareTheCacheWithTheirOwnOptions() {
        LustreCache cache = new LustreCache(stack, "Lustre", props().datasets(List.of(
                dataset("imagenet").build(),
                dataset("coco").fileSystemPath("/datasets/coco").autoImport(List.of(DataRepositoryEvent.NEW))
                        .importedFileChunkSizeMiB(512).build(),
                dataset("frozen").autoImport(List.of()).build())).dataCompression(LustreDataCompressionType.LZ4)
                .lustreVersion(LustreVersion.V2_12).build());
        Template t = Template.fromStack(stack);

        t.resourceCountIs("Custom::DataRepositoryAssociation", 3);
        t.hasResourceProperties("Custom::DataRepositoryAssociation", Match.objectLike(Map.of(
                "FileSystemPath", "/datasets/coco",
                "DataRepositoryPath", "s3://team-datasets/vision/coco/",
                "ImportedFileChunkSize", 512,
                "AutoImportEvents", List.of("NEW"))));
        t.hasResourceProperties("Custom::DataRepositoryAssociation", Match.objectLike(Map.of(
                "FileSystemPath", "/frozen", "AutoImportEvents", List.of(), "AutoExportEvents", List.of(),
                "ImportedFileChunkSize", Match.absent())));
        t.hasResourceProperties("AWS::FSx::FileSystem", Match.objectLike(Map.of("FileSystemTypeVersion", "2.12",
                "LustreConfiguration", Map.of("DeploymentType", "SCRATCH_2", "DataCompressionType", "LZ4"))));
        assertEquals(List.of("imagenet", "coco", "frozen"),
                cache.getDatasets().stream().map(LustreDataset::getName).toList());
    }

    @Test
    void aLocationRendersTheMountNameTheDatasetPathAndItsS3Location() {
        LustreCache cache = new LustreCache(stack, "Lustre", props().datasets(List.of(dataset("imagenet").build(),
                dataset("coco").fileSystemPath("/datasets/coco").build())).build());
        Object mountName = Map.of("Fn::GetAtt", List.of(stack.getLogicalId(cache.getResource()), "LustreMountName"));

        LustreLocation train = cache.location("coco", "train/shards");
        assertEquals(Map.of("Fn::Join", List.of("", List.of("/", mountName, "/datasets/coco/train/shards"))),
                stack.resolve(train.getDirectoryPath()));
        assertEquals("s3://team-datasets/vision/coco/train/shards/", train.getS3Uri());
        assertEquals("vision/coco/train/shards", train.getKeyPrefix());
        assertEquals(Map.of("Fn::Join", List.of("", List.of("/", mountName, "/imagenet"))),
                stack.resolve(cache.location("imagenet", "").getDirectoryPath()));
    }

    @Test
    void aDatasetAtTheRootMapsObjectsToTheMountRoot() {
        LustreCache cache = new LustreCache(stack, "Lustre", props().datasets(List.of(
                dataset("all").prefix("").fileSystemPath("/").build())).build());
        Object mountName = Map.of("Fn::GetAtt", List.of(stack.getLogicalId(cache.getResource()), "LustreMountName"));
        assertEquals(Map.of("Fn::Join", List.of("", List.of("/", mountName, "/train"))),
                stack.resolve(cache.location("all", "train").getDirectoryPath()));
        Template.fromStack(stack).hasResourceProperties("Custom::DataRepositoryAssociation", Match.objectLike(Map.of(
                "FileSystemPath", "/", "DataRepositoryPath", "s3://team-datasets/vision/")));
    }

    @Test
    void rejectsALocationInADatasetTheCacheDoesNotHave() {
        LustreCache cache = new LustreCache(stack, "Lustre", props().build());
        assertRule("DATASET_KNOWN", () -> cache.location("coco", "train"), "Test/Lustre", "dataset", "coco",
                "one of the cache's datasets imagenet");
    }

    @Test
    void anExportingCacheIsRetainedWithItsSecurityGroupSubnetAndVpc() {
        LustreCache cache = new LustreCache(stack, "Lustre", props().datasets(List.of(dataset("imagenet")
                .autoExport(List.of(DataRepositoryEvent.NEW, DataRepositoryEvent.CHANGED)).build())).build());
        Template t = Template.fromStack(stack);

        t.hasResource("AWS::FSx::FileSystem", Map.of("DeletionPolicy", "RetainExceptOnCreate", "UpdateReplacePolicy", "Retain"));
        t.hasResource("Custom::LustreTaskGuard", Map.of("DeletionPolicy", "RetainExceptOnCreate",
                "UpdateReplacePolicy", "Retain"));
        t.hasResource("Custom::DataRepositoryAssociation", Map.of("DeletionPolicy", "Delete",
                "UpdateReplacePolicy", "Delete", "Properties", Match.objectLike(Map.of(
                        "AutoImportEvents", List.of("NEW", "CHANGED", "DELETED"),
                        "AutoExportEvents", List.of("NEW", "CHANGED")))));
        t.hasResource("AWS::EC2::SecurityGroup", Map.of("DeletionPolicy", "RetainExceptOnCreate", "Properties",
                Match.objectLike(Map.of("GroupDescription", "FSx for Lustre cache: Lustre traffic from itself and from training jobs"))));
        t.hasResource("AWS::EC2::Subnet", Map.of("DeletionPolicy", "RetainExceptOnCreate", "Properties",
                Match.objectLike(Map.of("CidrBlock", Match.anyValue()))));
        t.hasResource("AWS::EC2::VPC", Map.of("DeletionPolicy", "RetainExceptOnCreate"));
        assertEquals(1, t.findResources("AWS::EC2::Subnet", Map.of("DeletionPolicy", "RetainExceptOnCreate")).size(),
                "only the data subnet, where the file system's interfaces live");
        // The group keeps its Lustre rules from itself (separate resources, deleted with the stack otherwise: the
        // retained file servers could not reach each other); the rules naming the training group go with that group,
        // which a retained rule would keep from being deleted (DependencyViolation).
        Object self = stack.resolve(cache.getSecurityGroup().getSecurityGroupId());
        Object training = stack.resolve(network.getTrainingSecurityGroup().getSecurityGroupId());
        for (int port : List.of(988, 1018)) {
            t.hasResource("AWS::EC2::SecurityGroupIngress", Map.of("DeletionPolicy", "RetainExceptOnCreate",
                    "UpdateReplacePolicy", "Retain", "Properties", Match.objectLike(Map.of("GroupId", self,
                            "SourceSecurityGroupId", self, "FromPort", port))));
            t.hasResource("AWS::EC2::SecurityGroupIngress", Map.of("DeletionPolicy", Match.absent(), "Properties",
                    Match.objectLike(Map.of("GroupId", self, "SourceSecurityGroupId", training, "FromPort", port))));
        }
        assertEquals(2, t.findResources("AWS::EC2::SecurityGroupIngress", Map.of("DeletionPolicy",
                "RetainExceptOnCreate")).size(), "the two rules from itself");
        Annotations.fromStack(stack).hasInfo("/Test/Lustre", Match.stringLikeRegexp(".*retained when the stack is "
                + "deleted \\(it exports to S3\\), and so are its security group with its Lustre rules from itself, the "
                + "data subnet and the VPC.*"));
        Annotations.fromStack(stack).hasWarning("/Test/Lustre", Match.stringLikeRegexp(".*retained, also when an "
                + "update replaces it .*the old file system then stays; in the update's cleanup its associations export "
                + "their directories and are unlinked.*"));
    }

    @Test
    void aRetainedCacheInAnExistingVpcKeepsOnlyItsSecurityGroup() {
        Stack other = TestApps.stack();
        TrainingNetwork existingVpc = new TrainingNetwork(other, "Network", io.github.trainingdata.cdk.network
                .TrainingNetworkProps.builder().vpc(software.amazon.awscdk.services.ec2.Vpc.fromVpcAttributes(other,
                        "Vpc", software.amazon.awscdk.services.ec2.VpcAttributes.builder().vpcId("vpc-0123456789abcdef0")
                                .availabilityZones(List.of("us-east-1a"))
                                .isolatedSubnetIds(List.of("subnet-0123456789abcdef0")).build())).build());
        TrainingDataBucket bucket = new TrainingDataBucket(other, "Data", TrainingDataBucketProps.builder()
                .bucket(Bucket.fromBucketName(other, "Existing", "team-datasets")).build());
        new LustreCache(other, "Lustre", LustreCacheProps.builder().network(existingVpc).removalPolicy(RemovalPolicy.RETAIN)
                .datasets(List.of(LustreDataset.builder("d").dataBucket(bucket).build())).build());
        Template t = Template.fromStack(other);
        t.hasResource("AWS::FSx::FileSystem", Map.of("DeletionPolicy", "Retain"));
        t.hasResource("AWS::EC2::SecurityGroup", Map.of("DeletionPolicy", "Retain", "Properties",
                Match.objectLike(Map.of("GroupDescription", "FSx for Lustre cache: Lustre traffic from itself and from training jobs"))));
    }

    @Test
    void securityGroupAdmitsLustrePortsFromItselfAndTrainingOnly() {
        LustreCache cache = new LustreCache(stack, "Lustre", props().build());
        Template t = Template.fromStack(stack);
        Object self = stack.resolve(cache.getSecurityGroup().getSecurityGroupId());
        Object training = stack.resolve(network.getTrainingSecurityGroup().getSecurityGroupId());

        for (Object source : List.of(self, training)) {
            t.hasResourceProperties("AWS::EC2::SecurityGroupIngress", Map.of("GroupId", self,
                    "SourceSecurityGroupId", source, "IpProtocol", "tcp", "FromPort", 988, "ToPort", 988));
            t.hasResourceProperties("AWS::EC2::SecurityGroupIngress", Map.of("GroupId", self,
                    "SourceSecurityGroupId", source, "IpProtocol", "tcp", "FromPort", 1018, "ToPort", 1023));
        }
        assertEquals(4, t.findResources("AWS::EC2::SecurityGroupIngress", Match.objectLike(Map.of("Properties",
                Match.objectLike(Map.of("GroupId", self))))).size(), "exactly the two port ranges from the two groups");
        t.hasResourceProperties("AWS::EC2::SecurityGroup", Map.of(
                "GroupDescription", "FSx for Lustre cache: Lustre traffic from itself and from training jobs",
                "SecurityGroupIngress", Match.absent()));
    }

    @Test
    void capacityIsDerivedFromTheDatasetWithHeadroomAndAWarningToPinIt() {
        new LustreCache(stack, "Lustre", props().datasetSizeBytes(3_000L * 1_073_741_824L).build());
        Template.fromStack(stack).hasResourceProperties("AWS::FSx::FileSystem", Match.objectLike(
                Map.of("StorageCapacity", 4800)));
        Annotations.fromStack(stack).hasWarning("/Test/Lustre", Match.stringLikeRegexp("Test/Lustre: storage capacity "
                + "4800 GiB is derived from datasetSizeBytes. FSx only grows a file system's capacity .* once deployed, "
                + "set storageCapacityGiB\\(4800\\) instead.*"));
    }

    @Test
    void rejectsAnInvalidScratch2Capacity() {
        assertRule("LUSTRE_CAPACITY", () -> new LustreCache(stack, "Lustre", props().storageCapacityGiB(3600).build()), "Test/Lustre",
                "storageCapacityGiB", 3600, "1200, 2400, or a multiple of 2400 GiB for SCRATCH_2");
    }

    @Test
    void rejectsAFractionalCapacity() {
        assertRule("LUSTRE_CAPACITY", () -> new LustreCache(stack, "Lustre", props().storageCapacityGiB(1200.5).build()), "Test/Lustre",
                "storageCapacityGiB", 1200.5, "1200, 2400, or a multiple of 2400 GiB for SCRATCH_2");
    }

    @Test
    void takesTheCapacityAsADeployTimeNumber() {
        CfnParameter capacity = CfnParameter.Builder.create(stack, "Capacity").type("Number").build();
        LustreCache cache = new LustreCache(stack, "Lustre", props().storageCapacityGiB(capacity.getValueAsNumber())
                .build());
        Template.fromStack(stack).hasResourceProperties("AWS::FSx::FileSystem",
                Map.of("StorageCapacity", Map.of("Ref", "Capacity")));
        assertNull(cache.getStorageCapacityGiB(), "not known at synth, and never printed as a number");
        assertThrows(IllegalStateException.class, cache::getBaselineThroughputMBps);
    }

    @Test
    void rejectsASnapshotRemovalPolicy() {
        // aws-cdk-lib's own error ("AWS::FSx::FileSystem does not support snapshot removal policy") names no construct.
        assertRule("LUSTRE_REMOVAL_POLICY", () -> new LustreCache(stack, "Lustre", props()
                .removalPolicy(RemovalPolicy.SNAPSHOT).build()), "Test/Lustre", "removalPolicy", "SNAPSHOT", "DESTROY, "
                        + "RETAIN or RETAIN_ON_UPDATE_OR_DELETE: CloudFormation takes no snapshot of an FSx file system, "
                        + "nor of the security group, subnet and VPC a retained cache keeps");
    }

    @Test
    void rejectsCapacityTogetherWithDatasetSize() {
        assertRule("LUSTRE_CAPACITY_OR_DATASET_SIZE", () -> new LustreCache(stack, "Lustre", props().storageCapacityGiB(2400).datasetSizeBytes(1L).build()),
                "Test/Lustre", "storageCapacityGiB", 2400,
                "either storageCapacityGiB or datasetSizeBytes (capacity derived from the dataset), not both");
    }

    @Test
    void rejectsANegativeDatasetSize() {
        assertRule("LUSTRE_DATASET_SIZE", () -> new LustreCache(stack, "Lustre", props().datasetSizeBytes(-1L).build()), "Test/Lustre",
                "datasetSizeBytes", -1, "a size of 0 bytes or more");
    }

    @Test
    void rejectsNoDatasets() {
        assertRule("DATASET_COUNT", () -> new LustreCache(stack, "Lustre", props().datasets(List.of()).build()), "Test/Lustre",
                "datasets", "0 datasets", "1 to 8 datasets (one data repository association each)");
    }

    @Test
    void rejectsMoreThanEightDatasets() {
        List<LustreDataset> nine = java.util.stream.IntStream.range(0, 9).mapToObj(i -> dataset("d" + i).build()).toList();
        assertRule("DATASET_COUNT", () -> new LustreCache(stack, "Lustre", props().datasets(nine).build()), "Test/Lustre",
                "datasets", "9 datasets", "1 to 8 datasets (one data repository association each)");
    }

    @Test
    void rejectsADatasetNameThatCannotNameALink() {
        assertRule("DATASET_NAME", () -> new LustreCache(stack, "Lustre", props().datasets(List.of(dataset("image net").build())).build()),
                "Test/Lustre", "datasets[0].name", "image net",
                "1 to 32 characters of [A-Za-z0-9_-], starting with a letter or digit");
    }

    @Test
    void rejectsTwoDatasetsOfOneName() {
        assertRule("DATASET_NAME_UNIQUE", () -> new LustreCache(stack, "Lustre", props().datasets(List.of(dataset("a").build(),
                dataset("a").prefix("b").fileSystemPath("/b").build())).build()), "Test/Lustre", "datasets[1].name",
                "a", "a name no other dataset of the cache uses");
    }

    @Test
    void rejectsTwoDatasetsOfOneS3Location() {
        assertRule("DATASET_LOCATION_UNIQUE", () -> new LustreCache(stack, "Lustre", props().datasets(List.of(dataset("a").build(),
                dataset("b").prefix("a").build())).build()), "Test/Lustre", "datasets[1].prefix", "vision/a",
                "an S3 location no other dataset of the cache links (FSx allows one association per S3 bucket or prefix)");
    }

    @Test
    void rejectsNestedS3LocationsInOneBucket() {
        assertRule("DATASET_LOCATION_NESTING", () -> new LustreCache(stack, "Lustre", props().datasets(List.of(
                dataset("imagenet").prefix("imagenet").build(),
                dataset("train").prefix("imagenet/train").build())).build()), "Test/Lustre", "datasets[1].prefix",
                "vision/imagenet/train", "an S3 location that neither contains nor lies inside another dataset's in the "
                        + "same bucket (dataset 'imagenet' links s3://team-datasets/vision/imagenet/): nested "
                        + "locations would load the same objects into two directories and export the same keys from "
                        + "two associations; link one of them, or give each its own prefix");
    }

    @Test
    void rejectsNestedFileSystemPaths() {
        assertRule("DATASET_PATH_NESTING", () -> new LustreCache(stack, "Lustre", props().datasets(List.of(
                dataset("a").fileSystemPath("/datasets").build(),
                dataset("b").fileSystemPath("/datasets/b").build())).build()), "Test/Lustre",
                "datasets[1].fileSystemPath", "/datasets/b", "a file-system path that neither equals nor nests with "
                        + "another dataset's (/datasets): FSx allows no overlapping association paths");
    }

    @Test
    void rejectsTheRootPathBesideOtherDatasets() {
        assertRule("DATASET_PATH_ROOT_ALONE", () -> new LustreCache(stack, "Lustre", props().datasets(List.of(dataset("a").build(),
                dataset("b").fileSystemPath("/").build())).build()), "Test/Lustre", "datasets[1].fileSystemPath", "/",
                "a directory below '/' when the cache has more than one dataset ('/' links the whole file system and "
                        + "allows only one association)");
    }

    @Test
    void rejectsARelativeFileSystemPath() {
        assertRule("DATASET_PATH", () -> new LustreCache(stack, "Lustre", props().datasets(List.of(dataset("a").fileSystemPath("a/")
                .build())).build()), "Test/Lustre", "datasets[0].fileSystemPath", "a/", "'/' or an absolute path "
                + "/<segment>[/<segment>...] without a trailing '/', empty, '.' or '..' segments or control characters, "
                + "at most 4096 characters");
    }

    @Test
    void rejectsADatasetPrefixWithATrailingSlash() {
        assertRule("KEY_PREFIX_FORMAT", () -> new LustreCache(stack, "Lustre", props().datasets(List.of(dataset("a").prefix("a/").build()))
                .build()), "Test/Lustre", "datasets[0].prefix", "a/", "a key prefix of S3 safe characters "
                        + "[A-Za-z0-9!_.*'()/=+-], without leading or trailing '/' and without empty, '.' or '..' segments, at most 512 characters (empty for the root)");
    }

    @Test
    void rejectsAChunkSizeOutOfRange() {
        assertRule("DATASET_CHUNK_SIZE", () -> new LustreCache(stack, "Lustre", props().datasets(List.of(dataset("a")
                .importedFileChunkSizeMiB(512_001).build())).build()), "Test/Lustre",
                "datasets[0].importedFileChunkSizeMiB", 512001, "a whole number from 1 to 512000 MiB");
    }

    @Test
    void aChunkSizeMayBeADeployTimeNumber() {
        software.amazon.awscdk.CfnParameter chunk = software.amazon.awscdk.CfnParameter.Builder.create(stack, "Chunk")
                .type("Number").build();
        new LustreCache(stack, "Lustre", props().datasets(List.of(dataset("a")
                .importedFileChunkSizeMiB(chunk.getValueAsNumber()).build())).build());
        Template.fromStack(stack).hasResourceProperties("Custom::DataRepositoryAssociation", Match.objectLike(
                Map.of("ImportedFileChunkSize", Map.of("Ref", "Chunk"))));
    }

    @Test
    void rejectsAnEventTwice() {
        assertRule("DATASET_EVENTS", () -> new LustreCache(stack, "Lustre", props().datasets(List.of(dataset("a")
                .autoExport(List.of(DataRepositoryEvent.NEW, DataRepositoryEvent.NEW)).build())).build()), "Test/Lustre",
                "datasets[0].autoExport", "[NEW, NEW]", "each of NEW, CHANGED and DELETED at most once");
    }

    private ExistingLustreFileSystem existing() {
        return ExistingLustreFileSystem.builder()
                .fileSystemId("fs-0123456789abcdef0")
                .mountName("abcdefgh")
                .securityGroup(SecurityGroup.fromSecurityGroupId(stack, "SharedGroup", "sg-0123456789abcdef0"))
                .storageCapacityGiB(2400)
                .build();
    }

    @Test
    void existingFileSystemIsAdoptedWithItsMappingAndAdmitsTrainingOnTheLustrePorts() {
        LustreCache cache = new LustreCache(stack, "Lustre", props().existingFileSystem(existing()).build());
        Template t = Template.fromStack(stack);

        t.resourceCountIs("AWS::FSx::FileSystem", 0);
        t.resourceCountIs("Custom::DataRepositoryAssociation", 0);
        assertEquals(Map.of(), t.findResources("AWS::Lambda::Function", Match.objectLike(Map.of("Properties",
                Match.objectLike(Map.of("Handler", Match.stringLikeRegexp(".*DataRepositoryAssociationHandler.*")))))));
        assertEquals(List.of(), cache.getAssociations());
        assertEquals(true, cache.isExisting());
        assertEquals("fs-0123456789abcdef0", cache.getFileSystemId());
        assertEquals("/abcdefgh/imagenet/train", cache.location("imagenet", "train").getDirectoryPath());
        assertEquals(468.75, cache.getBaselineThroughputMBps(), 0.01);
        Object training = stack.resolve(network.getTrainingSecurityGroup().getSecurityGroupId());
        t.hasResourceProperties("AWS::EC2::SecurityGroupIngress", Map.of("GroupId", "sg-0123456789abcdef0",
                "SourceSecurityGroupId", training, "FromPort", 988, "ToPort", 988));
        t.hasResourceProperties("AWS::EC2::SecurityGroupIngress", Map.of("GroupId", "sg-0123456789abcdef0",
                "SourceSecurityGroupId", training, "FromPort", 1018, "ToPort", 1023));
    }

    @Test
    void anExistingPersistentFileSystemLoadsAtItsThroughputPerTiB() {
        LustreCache scratch = new LustreCache(stack, "Scratch", props().existingFileSystem(existing()).build());
        LustreCache persistent = new LustreCache(stack, "Persistent", props().existingFileSystem(ExistingLustreFileSystem
                .builder().fileSystemId("fs-0123456789abcdef1").mountName("abcdefgh")
                .securityGroup(SecurityGroup.fromSecurityGroupId(stack, "Group", "sg-0123456789abcdef1"))
                .storageCapacityGiB(28_800).perUnitStorageThroughput(200).build()).build());
        // Unknown deployment type: SCRATCH_2's 100 MB/s per TiB; PERSISTENT_1 at 200: 28.125 TiB x 200 = 5625 MB/s.
        assertEquals(new CacheThroughput(2400, 100), scratch.getLoadThroughput());
        assertEquals(5625, persistent.getLoadThroughput().mbps(), 1e-9);
        assertNull(persistent.getDataCompression(), "an existing file system's compression is unknown");
    }

    @Test
    void rejectsAPerUnitStorageThroughputFsxDoesNotOffer() {
        assertRule("LUSTRE_EXISTING_TIER", () -> new LustreCache(stack, "Lustre", props().existingFileSystem(ExistingLustreFileSystem.builder()
                        .fileSystemId("fs-0123456789abcdef0").mountName("abcdefgh")
                        .securityGroup(SecurityGroup.fromSecurityGroupId(stack, "G", "sg-0123456789abcdef0"))
                        .perUnitStorageThroughput(150).build()).build()), "Test/Lustre",
                "existingFileSystem.perUnitStorageThroughput", 150,
                "12, 40, 50, 100, 125, 200, 250, 500 or 1000 MB/s per TiB (PERSISTENT_1 or PERSISTENT_2)");
    }

    @Test
    void existingFileSystemWithoutCapacityHasNoThroughputFigures() {
        LustreCache cache = new LustreCache(stack, "Lustre", props().existingFileSystem(ExistingLustreFileSystem
                .builder().fileSystemId("fs-0123456789abcdef0").mountName("abcdefgh")
                .securityGroup(SecurityGroup.fromSecurityGroupId(stack, "SharedGroup", "sg-0123456789abcdef0"))
                .build()).build());
        assertNull(cache.getLoadThroughput());
        IllegalStateException e = assertThrows(IllegalStateException.class, cache::getBaselineThroughputMBps);
        assertEquals("Test/Lustre: the throughput is known at synth only for a literal storage capacity (not a "
                + "deploy-time value), and for an existing file system only when "
                + "ExistingLustreFileSystem.storageCapacityGiB is given", e.getMessage());
    }

    @Test
    void rejectsNewFileSystemSettingsWithAnExistingOne() {
        assertRule("STORE_EXISTING_OR_NEW", () -> new LustreCache(stack, "Lustre", props().existingFileSystem(existing()).storageCapacityGiB(2400)
                .lustreVersion(LustreVersion.V2_15).build()), "Test/Lustre", "lustreVersion",
                "set together with existingFileSystem", "either an existing file system or settings for a new one, not "
                        + "both (new-file-system settings given: lustreVersion, storageCapacityGiB)");
    }

    @Test
    void rejectsNewAssociationSettingsForAnExistingFileSystem() {
        assertRule("STORE_EXISTING_OR_NEW", () -> new LustreCache(stack, "Lustre", props().existingFileSystem(existing()).datasets(List.of(
                dataset("a").autoExport(List.of(DataRepositoryEvent.NEW)).build())).build()), "Test/Lustre",
                "datasets[0].autoExport", "set together with existingFileSystem", "either an existing file system's "
                        + "association or settings for a new one, not both (new-association settings given: "
                        + "datasets[0].autoExport)");
    }

    @Test
    void aKmsEncryptedBucketsKeyLetsTheFsxServiceLinkedRolesUseItThroughS3BeforeTheLinkIsMade() {
        TrainingDataBucket encrypted = new TrainingDataBucket(stack, "Encrypted", TrainingDataBucketProps.builder()
                .encryption(DataEncryption.KMS).build());
        new LustreCache(stack, "Lustre", LustreCacheProps.builder().network(network)
                .datasets(List.of(LustreDataset.builder("d").dataBucket(encrypted).build())).build());

        Object serviceLinkedRoles = Map.of("Fn::Join", List.of("", List.of("arn:", Map.of("Ref", "AWS::Partition"),
                ":iam::", Map.of("Ref", "AWS::AccountId"),
                ":role/aws-service-role/s3.data-source.lustre.fsx.amazonaws.com/AWSServiceRoleForFSxS3Access_*")));
        Object statement = Match.objectLike(Map.of(
                "Principal", Map.of("AWS", "*"),
                "Action", List.of("kms:Decrypt", "kms:DescribeKey", "kms:Encrypt", "kms:GenerateDataKey*",
                        "kms:ReEncrypt*"),
                "Condition", Match.objectLike(Map.of("ArnLike", Map.of("aws:PrincipalArn", serviceLinkedRoles)))));
        Template t = Template.fromStack(stack);
        t.hasResourceProperties("AWS::KMS::Key", Map.of("KeyPolicy",
                Match.objectLike(Map.of("Statement", Match.arrayWith(List.of(statement))))));
        t.hasResource("Custom::DataRepositoryAssociation", Map.of("DependsOn",
                Match.arrayWith(List.of(Match.stringLikeRegexp("EncryptedKey.*")))));
    }

    @Test
    void anImportedKeyOfTheBucketIsWarnedAbout() {
        TrainingDataBucket imported = new TrainingDataBucket(stack, "Imported", TrainingDataBucketProps.builder()
                .bucket(Bucket.fromBucketAttributes(stack, "ImportedBucket", software.amazon.awscdk.services.s3
                        .BucketAttributes.builder().bucketName("team-encrypted").encryptionKey(
                                software.amazon.awscdk.services.kms.Key.fromKeyArn(stack, "ImportedKey",
                                        "arn:aws:kms:us-east-1:123456789012:key/0123abcd-0123-4567-89ab-0123456789ab"))
                        .build())).build());
        new LustreCache(stack, "Lustre", LustreCacheProps.builder().network(network)
                .datasets(List.of(LustreDataset.builder("d").dataBucket(imported).build())).storageCapacityGiB(1200).build());

        Annotations.fromStack(stack).hasWarning("/Test/Lustre", Match.stringLikeRegexp("Test/Lustre: a dataset bucket's "
                + "KMS key is imported, so its key policy cannot be changed here; allow the FSx service-linked roles "
                + "AWSServiceRoleForFSxS3Access_\\* to use it through S3, or FSx cannot load the data.*"));
    }

    @Test
    void anExistingFileSystemInItsOwnZoneIsReportedThere() {
        LustreCache cache = new LustreCache(stack, "Lustre", props().existingFileSystem(ExistingLustreFileSystem
                .builder().fileSystemId("fs-0123456789abcdef0").mountName("abcdefgh").availabilityZone("us-east-1c")
                .securityGroup(SecurityGroup.fromSecurityGroupId(stack, "SharedGroup", "sg-0123456789abcdef0"))
                .build()).build());
        assertEquals("us-east-1c", cache.getAvailabilityZone());
        Annotations.fromStack(stack).hasNoWarning("/Test/Lustre", Match.anyValue());
    }

    @Test
    void anExistingFileSystemWithoutItsZoneIsWarnedAbout() {
        new LustreCache(stack, "Lustre", props().existingFileSystem(existing()).build());
        Annotations.fromStack(stack).hasWarning("/Test/Lustre", Match.stringLikeRegexp("Test/Lustre: the existing "
                + "file system's Availability Zone is not given, so it is assumed to be the data subnet's.*"));
    }

    @Test
    void rejectsAnExistingFileSystemIdThatIsNoFsxId() {
        assertRule("LUSTRE_EXISTING_ID", () -> new LustreCache(stack, "Lustre",
                props().existingFileSystem(ExistingLustreFileSystem.builder().fileSystemId("fsap-0123456789abcdef0")
                        .mountName("abcdefgh")
                        .securityGroup(SecurityGroup.fromSecurityGroupId(stack, "G", "sg-0123456789abcdef0"))
                        .build()).build()), "Test/Lustre", "existingFileSystem.fileSystemId", "fsap-0123456789abcdef0",
                "an FSx file-system id, 11 to 21 characters matching ^(fs-[0-9a-f]{8,})$");
    }

    @Test
    void rejectsAnExistingMountNameThatIsNoLustreMountName() {
        assertRule("LUSTRE_EXISTING_MOUNT_NAME", () -> new LustreCache(stack, "Lustre",
                props().existingFileSystem(ExistingLustreFileSystem.builder().fileSystemId("fs-0123456789abcdef0")
                        .mountName("/fsx")
                        .securityGroup(SecurityGroup.fromSecurityGroupId(stack, "G", "sg-0123456789abcdef0"))
                        .build()).build()), "Test/Lustre", "existingFileSystem.mountName", "/fsx",
                "the Lustre mount name, 1 to 8 characters matching ^([A-Za-z0-9_-]{1,8})$");
    }

    @Test
    void needsANetwork() {
        assertRule("LUSTRE_NETWORK", () -> new LustreCache(stack, "Lustre", props().network(null).build()), "Test/Lustre", "network", null,
                "the TrainingNetwork the file system lives in");
    }

    @Test
    void aDatasetNeedsItsBucket() {
        assertRule("DATASET_BUCKET", () -> new LustreCache(stack, "Lustre", props().datasets(List.of(LustreDataset.builder("imagenet")
                .build())).build()), "Test/Lustre", "datasets[0].dataBucket", null,
                "the TrainingDataBucket whose dataset prefix the association links");
    }

    @Test
    void anExistingFileSystemNeedsItsIdMountNameAndSecurityGroup() {
        assertRule("LUSTRE_EXISTING_ID", () -> new LustreCache(stack, "Lustre", props().existingFileSystem(ExistingLustreFileSystem.builder()
                .mountName("abcdefgh").build()).build()), "Test/Lustre", "existingFileSystem.fileSystemId", null,
                "an FSx file-system id, " + FsxLimits.FILE_SYSTEM_ID.allowed());
        assertRule("LUSTRE_EXISTING_MOUNT_NAME", () -> new LustreCache(stack, "Lustre2", props().existingFileSystem(ExistingLustreFileSystem.builder()
                .fileSystemId("fs-0123456789abcdef0").build()).build()), "Test/Lustre2", "existingFileSystem.mountName",
                null, "the Lustre mount name, " + FsxLimits.MOUNT_NAME.allowed());
        assertRule("LUSTRE_EXISTING_SECURITY_GROUP", () -> new LustreCache(stack, "Lustre3", props().existingFileSystem(ExistingLustreFileSystem.builder()
                .fileSystemId("fs-0123456789abcdef0").mountName("abcdefgh").build()).build()), "Test/Lustre3",
                "existingFileSystem.securityGroup", null, "the security group of the file system's network interfaces "
                        + "(training gets Lustre ports to it)");
    }
}
