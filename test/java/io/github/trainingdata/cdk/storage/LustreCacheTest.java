package io.github.trainingdata.cdk.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.fsx.LustreAutoImportPolicy;
import software.amazon.awscdk.services.fsx.LustreDataCompressionType;
import software.amazon.awscdk.services.s3.Bucket;

class LustreCacheTest {
    private final Stack stack = TestApps.stack();
    private final TrainingNetwork network = new TrainingNetwork(stack, "Network");
    private final TrainingDataBucket data = new TrainingDataBucket(stack, "Data", TrainingDataBucketProps.builder()
            .bucket(Bucket.fromBucketName(stack, "Existing", "team-datasets")).datasetPrefix("imagenet").build());

    private LustreCacheProps.Builder props() {
        return LustreCacheProps.builder().network(network).dataBucket(data);
    }

    @Test
    void isScratch2InTheDataSubnetLinkedToTheDatasetAndRetained() {
        LustreCache cache = new LustreCache(stack, "Lustre", props().build());
        Template t = Template.fromStack(stack);

        t.hasResource("AWS::FSx::FileSystem", Map.of(
                "DeletionPolicy", "Retain",
                "Properties", Match.objectLike(Map.of(
                        "FileSystemType", "LUSTRE",
                        "StorageCapacity", 1200,
                        "SubnetIds", List.of(Map.of("Ref", Match.stringLikeRegexp("NetworkVpcDataSubnet1.*"))),
                        "LustreConfiguration", Map.of(
                                "DeploymentType", "SCRATCH_2",
                                "ImportPath", "s3://team-datasets/imagenet",
                                "AutoImportPolicy", "NEW_CHANGED_DELETED",
                                "DataCompressionType", "NONE")))));
        assertEquals(network.getDataAvailabilityZone(), cache.getAvailabilityZone());
        assertEquals(234.4, cache.getBaselineThroughputMBps(), 0.1);
        assertEquals(1523.4, cache.getBurstThroughputMBps(), 0.1);
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
        List<Map<String, Object>> toLustre = t.findResources("AWS::EC2::SecurityGroupIngress",
                Match.objectLike(Map.of("Properties", Match.objectLike(Map.of("GroupId", self))))).values()
                .stream().map(r -> r).toList().stream().map(r -> (Map<String, Object>) r).toList();
        assertEquals(4, toLustre.size(), "exactly the two port ranges from the two groups");
        t.hasResourceProperties("AWS::EC2::SecurityGroup", Map.of(
                "GroupDescription", "FSx for Lustre Test/Lustre: Lustre traffic from itself and training",
                "SecurityGroupIngress", Match.absent()));
    }

    @Test
    void capacityIsDerivedFromTheDatasetWithHeadroom() {
        new LustreCache(stack, "Lustre", props().datasetSizeBytes(3_000L * 1_073_741_824L).build());
        Template.fromStack(stack).hasResourceProperties("AWS::FSx::FileSystem",
                Map.of("StorageCapacity", 4800));
    }

    @Test
    void importAndExportPrefixesAndOptionsAreRendered() {
        LustreCache cache = new LustreCache(stack, "Lustre", props()
                .importPrefix("train")
                .exportPrefix("exports")
                .autoImportPolicy(LustreAutoImportPolicy.NEW)
                .importedFileChunkSizeMiB(512)
                .dataCompression(LustreDataCompressionType.LZ4)
                .storageCapacityGiB(2400)
                .build());
        Template.fromStack(stack).hasResourceProperties("AWS::FSx::FileSystem", Map.of(
                "StorageCapacity", 2400,
                "LustreConfiguration", Map.of(
                        "DeploymentType", "SCRATCH_2",
                        "ImportPath", "s3://team-datasets/imagenet/train",
                        "ExportPath", "s3://team-datasets/imagenet/train/exports",
                        "AutoImportPolicy", "NEW",
                        "ImportedFileChunkSize", 512,
                        "DataCompressionType", "LZ4")));
        assertEquals("imagenet/train", cache.getImportKeyPrefix());
    }

    @Test
    void directoryPathStartsWithTheMountName() {
        LustreCache cache = new LustreCache(stack, "Lustre", props().build());
        String path = cache.directoryPath("train/shards");
        assertEquals(Map.of("Fn::Join", List.of("", List.of("/",
                Map.of("Fn::GetAtt", List.of(stack.getLogicalId(cache.getResource()), "LustreMountName")),
                "/train/shards"))), stack.resolve(path));
    }

    @Test
    void rejectsAnInvalidScratch2Capacity() {
        ConfigurationError e = assertThrows(ConfigurationError.class,
                () -> new LustreCache(stack, "Lustre", props().storageCapacityGiB(3600).build()));
        assertEquals("Test/Lustre: invalid storageCapacityGiB '3600': 1200, 2400, or a multiple of 2400 GiB for "
                + "SCRATCH_2", e.getMessage());
    }

    @Test
    void rejectsCapacityTogetherWithDatasetSize() {
        ConfigurationError e = assertThrows(ConfigurationError.class, () -> new LustreCache(stack, "Lustre",
                props().storageCapacityGiB(2400).datasetSizeBytes(1L).build()));
        assertEquals("Test/Lustre: invalid storageCapacityGiB '2400': either storageCapacityGiB or datasetSizeBytes "
                + "(capacity derived from the dataset), not both", e.getMessage());
    }

    @Test
    void rejectsANegativeDatasetSize() {
        ConfigurationError e = assertThrows(ConfigurationError.class,
                () -> new LustreCache(stack, "Lustre", props().datasetSizeBytes(-1L).build()));
        assertEquals("Test/Lustre: invalid datasetSizeBytes '-1': a size of 0 bytes or more", e.getMessage());
    }

    @Test
    void rejectsAChunkSizeOutOfRange() {
        ConfigurationError e = assertThrows(ConfigurationError.class,
                () -> new LustreCache(stack, "Lustre", props().importedFileChunkSizeMiB(512_001).build()));
        assertEquals("Test/Lustre: invalid importedFileChunkSizeMiB '512001': 1 to 512000 MiB", e.getMessage());
    }

    @Test
    void rejectsExportingOverTheImportPath() {
        ConfigurationError e = assertThrows(ConfigurationError.class,
                () -> new LustreCache(stack, "Lustre", props().exportPrefix("").build()));
        assertEquals("Test/Lustre: invalid exportPrefix '': a non-empty path under the import prefix (exporting to "
                + "the import path itself overwrites the source data)", e.getMessage());
    }

    @Test
    void rejectsAnImportPrefixWithATrailingSlash() {
        ConfigurationError e = assertThrows(ConfigurationError.class,
                () -> new LustreCache(stack, "Lustre", props().importPrefix("train/").build()));
        assertEquals(true, e.getMessage().startsWith("Test/Lustre: invalid importPrefix 'train/': a key prefix"));
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
    void existingFileSystemIsAdoptedAndAdmitsTrainingOnTheLustrePorts() {
        LustreCache cache = new LustreCache(stack, "Lustre", props().existingFileSystem(existing()).build());
        Template t = Template.fromStack(stack);

        t.resourceCountIs("AWS::FSx::FileSystem", 0);
        assertEquals(true, cache.isExisting());
        assertEquals("fs-0123456789abcdef0", cache.getFileSystemId());
        assertEquals("/abcdefgh/train", cache.directoryPath("train"));
        assertEquals(468.75, cache.getBaselineThroughputMBps(), 0.01);
        Object training = stack.resolve(network.getTrainingSecurityGroup().getSecurityGroupId());
        t.hasResourceProperties("AWS::EC2::SecurityGroupIngress", Map.of("GroupId", "sg-0123456789abcdef0",
                "SourceSecurityGroupId", training, "FromPort", 988, "ToPort", 988));
        t.hasResourceProperties("AWS::EC2::SecurityGroupIngress", Map.of("GroupId", "sg-0123456789abcdef0",
                "SourceSecurityGroupId", training, "FromPort", 1018, "ToPort", 1023));
    }

    @Test
    void existingFileSystemWithoutCapacityHasNoThroughputFigures() {
        LustreCache cache = new LustreCache(stack, "Lustre", props().existingFileSystem(ExistingLustreFileSystem
                .builder().fileSystemId("fs-0123456789abcdef0").mountName("abcdefgh")
                .securityGroup(SecurityGroup.fromSecurityGroupId(stack, "SharedGroup", "sg-0123456789abcdef0"))
                .build()).build());
        IllegalStateException e = assertThrows(IllegalStateException.class, cache::getBaselineThroughputMBps);
        assertEquals("Test/Lustre: the throughput of an existing file system is known only when "
                + "ExistingLustreFileSystem.storageCapacityGiB is given", e.getMessage());
    }

    @Test
    void rejectsNewFileSystemSettingsWithAnExistingOne() {
        ConfigurationError e = assertThrows(ConfigurationError.class, () -> new LustreCache(stack, "Lustre",
                props().existingFileSystem(existing()).storageCapacityGiB(2400).exportPrefix("out").build()));
        assertEquals("Test/Lustre: invalid storageCapacityGiB 'set together with existingFileSystem': either an "
                + "existing file system or settings for a new one, not both (new-file-system settings given: "
                + "storageCapacityGiB, exportPrefix)", e.getMessage());
    }
}
