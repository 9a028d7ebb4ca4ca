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
import software.amazon.awscdk.assertions.Annotations;
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
        assertEquals(4, t.findResources("AWS::EC2::SecurityGroupIngress", Match.objectLike(Map.of("Properties",
                Match.objectLike(Map.of("GroupId", self))))).size(), "exactly the two port ranges from the two groups");
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

    @Test
    void aKmsEncryptedBucketsKeyLetsTheFsxServiceLinkedRolesUseItThroughS3() {
        TrainingDataBucket encrypted = new TrainingDataBucket(stack, "Encrypted", TrainingDataBucketProps.builder()
                .encryption(DataEncryption.KMS).build());
        new LustreCache(stack, "Lustre", LustreCacheProps.builder().network(network).dataBucket(encrypted).build());

        Object serviceLinkedRoles = Map.of("Fn::Join", List.of("", List.of("arn:", Map.of("Ref", "AWS::Partition"),
                ":iam::", Map.of("Ref", "AWS::AccountId"),
                ":role/aws-service-role/s3.data-source.lustre.fsx.amazonaws.com/AWSServiceRoleForFSxS3Access_*")));
        Object statement = Match.objectLike(Map.of(
                "Principal", Map.of("AWS", "*"),
                "Action", List.of("kms:Decrypt", "kms:DescribeKey", "kms:Encrypt", "kms:GenerateDataKey*",
                        "kms:ReEncrypt*"),
                "Condition", Match.objectLike(Map.of("ArnLike", Map.of("aws:PrincipalArn", serviceLinkedRoles)))));
        Template.fromStack(stack).hasResourceProperties("AWS::KMS::Key", Map.of("KeyPolicy",
                Match.objectLike(Map.of("Statement", Match.arrayWith(List.of(statement))))));
    }

    @Test
    void anImportedKeyOfTheBucketIsWarnedAbout() {
        TrainingDataBucket imported = new TrainingDataBucket(stack, "Imported", TrainingDataBucketProps.builder()
                .bucket(Bucket.fromBucketAttributes(stack, "ImportedBucket", software.amazon.awscdk.services.s3
                        .BucketAttributes.builder().bucketName("team-encrypted").encryptionKey(
                                software.amazon.awscdk.services.kms.Key.fromKeyArn(stack, "ImportedKey",
                                        "arn:aws:kms:us-east-1:123456789012:key/0123abcd-0123-4567-89ab-0123456789ab"))
                        .build())).build());
        new LustreCache(stack, "Lustre", LustreCacheProps.builder().network(network).dataBucket(imported).build());

        Annotations.fromStack(stack).hasWarning("/Test/Lustre", Match.stringLikeRegexp("Test/Lustre: the bucket's KMS "
                + "key is imported, so its key policy cannot be changed here; allow the FSx service-linked roles "
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
        ConfigurationError e = assertThrows(ConfigurationError.class, () -> new LustreCache(stack, "Lustre",
                props().existingFileSystem(ExistingLustreFileSystem.builder().fileSystemId("fsap-0123456789abcdef0")
                        .mountName("abcdefgh")
                        .securityGroup(SecurityGroup.fromSecurityGroupId(stack, "G", "sg-0123456789abcdef0"))
                        .build()).build()));
        assertEquals("Test/Lustre: invalid existingFileSystem.fileSystemId 'fsap-0123456789abcdef0': an FSx file-system "
                + "id fs-[0-9a-f]{8,} of 11–21 characters", e.getMessage());
    }

    @Test
    void rejectsAnExistingMountNameThatIsNoLustreMountName() {
        ConfigurationError e = assertThrows(ConfigurationError.class, () -> new LustreCache(stack, "Lustre",
                props().existingFileSystem(ExistingLustreFileSystem.builder().fileSystemId("fs-0123456789abcdef0")
                        .mountName("/fsx")
                        .securityGroup(SecurityGroup.fromSecurityGroupId(stack, "G", "sg-0123456789abcdef0"))
                        .build()).build()));
        assertEquals("Test/Lustre: invalid existingFileSystem.mountName '/fsx': the Lustre mount name: 1–8 characters "
                + "of [A-Za-z0-9_-]", e.getMessage());
    }
}
