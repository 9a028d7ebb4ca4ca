package io.github.trainingdata.cdk.storage;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.efs.FileSystem;
import software.amazon.awscdk.services.efs.FileSystemAttributes;
import software.amazon.awscdk.services.efs.PerformanceMode;
import software.amazon.awscdk.services.efs.ThroughputMode;

class EfsStoreTest {
    private final Stack stack = TestApps.stack();
    private final TrainingNetwork network = new TrainingNetwork(stack, "Network");

    private EfsStoreProps.Builder props() {
        return EfsStoreProps.builder().network(network);
    }

    @Test
    void isEncryptedBackedUpRetainedWithExplicitModesAndNoFileSystemPolicy() {
        new EfsStore(stack, "Efs", props().performanceMode(PerformanceMode.MAX_IO)
                .throughputMode(ThroughputMode.PROVISIONED).provisionedThroughputMibps(256).build());
        Template t = Template.fromStack(stack);

        t.hasResource("AWS::EFS::FileSystem", Map.of(
                "DeletionPolicy", "RetainExceptOnCreate",
                "Properties", Match.objectLike(Map.of(
                        "Encrypted", true,
                        "PerformanceMode", "maxIO",
                        "ThroughputMode", "provisioned",
                        "ProvisionedThroughputInMibps", 256,
                        "BackupPolicy", Map.of("Status", "ENABLED"),
                        "FileSystemPolicy", Match.absent()))));
    }

    @Test
    void defaultsToGeneralPurposeAndBurstingWithAMountTargetPerAz() {
        new EfsStore(stack, "Efs", props().build());
        Template t = Template.fromStack(stack);

        t.hasResourceProperties("AWS::EFS::FileSystem", Map.of(
                "PerformanceMode", "generalPurpose", "ThroughputMode", "bursting",
                "AvailabilityZoneName", Match.absent()));
        t.resourceCountIs("AWS::EFS::MountTarget", 2);
    }

    @Test
    void admitsNfsFromTheTrainingGroupOnly() {
        EfsStore efs = new EfsStore(stack, "Efs", props().build());
        Template t = Template.fromStack(stack);
        Object group = stack.resolve(efs.getConnections().getSecurityGroups().get(0).getSecurityGroupId());

        t.hasResourceProperties("AWS::EC2::SecurityGroupIngress", Map.of("GroupId", group,
                "SourceSecurityGroupId", stack.resolve(network.getTrainingSecurityGroup().getSecurityGroupId()),
                "IpProtocol", "tcp", "FromPort", 2049, "ToPort", 2049));
        assertEquals(1, t.findResources("AWS::EC2::SecurityGroupIngress", Match.objectLike(Map.of(
                "Properties", Match.objectLike(Map.of("GroupId", group))))).size());
    }

    @Test
    void oneZoneLivesInTheDataAzWithOneMountTarget() {
        EfsStore efs = new EfsStore(stack, "Efs", props().oneZone(true).build());
        Template t = Template.fromStack(stack);

        t.hasResourceProperties("AWS::EFS::FileSystem", Map.of(
                "AvailabilityZoneName", stack.resolve(network.getDataAvailabilityZone())));
        t.resourceCountIs("AWS::EFS::MountTarget", 1);
        t.hasResourceProperties("AWS::EFS::MountTarget", Map.of(
                "SubnetId", stack.resolve(network.getDataSubnet().getSubnetId())));
        assertEquals(true, efs.isOneZone());
    }

    @Test
    void existingFileSystemAdmitsTrainingOnNfs() {
        SecurityGroup group = SecurityGroup.Builder.create(stack, "ExistingGroup").vpc(network.getVpc()).build();
        EfsStore efs = new EfsStore(stack, "Efs", props().fileSystem(FileSystem.fromFileSystemAttributes(stack,
                "Existing", FileSystemAttributes.builder().fileSystemId("fs-0123456789abcdef0")
                        .securityGroup(group).build())).build());
        Template t = Template.fromStack(stack);

        assertEquals("fs-0123456789abcdef0", efs.getFileSystemId());
        t.resourceCountIs("AWS::EFS::FileSystem", 0);
        t.hasResourceProperties("AWS::EC2::SecurityGroupIngress", Map.of(
                "GroupId", stack.resolve(group.getSecurityGroupId()), "FromPort", 2049));
    }

    @Test
    void rejectsNewFileSystemSettingsWithAnExistingOne() {
        SecurityGroup group = SecurityGroup.Builder.create(stack, "ExistingGroup").vpc(network.getVpc()).build();
        assertRule("STORE_EXISTING_OR_NEW", () -> new EfsStore(stack, "Efs", props()
                .fileSystem(FileSystem.fromFileSystemAttributes(stack, "Existing", FileSystemAttributes.builder()
                        .fileSystemId("fs-0123456789abcdef0").securityGroup(group).build()))
                .throughputMode(ThroughputMode.ELASTIC).build()),
                "Test/Efs", "throughputMode", "set together with fileSystem",
                "either an existing fileSystem or settings for a new one, not both (new-file-system settings given: "
                        + "throughputMode)");
    }

    @Test
    void rejectsMaxIoOnOneZone() {
        assertRule("EFS_MAX_IO_ONE_ZONE", () -> new EfsStore(stack, "Efs",
                props().oneZone(true).performanceMode(PerformanceMode.MAX_IO).build()),
                "Test/Efs", "performanceMode", "MAX_IO",
                "GENERAL_PURPOSE for a One Zone file system (EFS offers Max I/O only on Regional file systems)");
    }

    @Test
    void rejectsMaxIoWithElasticThroughput() {
        assertRule("EFS_MAX_IO_ELASTIC", () -> new EfsStore(stack, "Efs",
                props().performanceMode(PerformanceMode.MAX_IO).throughputMode(ThroughputMode.ELASTIC).build()),
                "Test/Efs", "throughputMode", "ELASTIC",
                "BURSTING or PROVISIONED with MAX_IO (elastic throughput requires GENERAL_PURPOSE)");
    }

    @Test
    void rejectsProvisionedModeWithoutARate() {
        assertRule("EFS_PROVISIONED_REQUIRED", () -> new EfsStore(stack, "Efs",
                props().throughputMode(ThroughputMode.PROVISIONED).build()),
                "Test/Efs", "provisionedThroughputMibps", "null",
                "a rate of at least 1 MiB/s when throughputMode is PROVISIONED");
    }

    @Test
    void rejectsARateWithAnotherMode() {
        assertRule("EFS_PROVISIONED_ONLY", () -> new EfsStore(stack, "Efs",
                props().throughputMode(ThroughputMode.ELASTIC).provisionedThroughputMibps(100).build()),
                "Test/Efs", "provisionedThroughputMibps", "100",
                "unset unless throughputMode is PROVISIONED (it is ELASTIC)");
    }

    @Test
    void rejectsASnapshotRemovalPolicy() {
        // aws-cdk-lib's own error ("AWS::EFS::FileSystem does not support snapshot removal policy") names no construct.
        assertRule("EFS_REMOVAL_POLICY", () -> new EfsStore(stack, "Efs", props().removalPolicy(RemovalPolicy.SNAPSHOT)
                .build()), "Test/Efs", "removalPolicy", "SNAPSHOT", "DESTROY, RETAIN or RETAIN_ON_UPDATE_OR_DELETE: "
                        + "CloudFormation takes no snapshot of an EFS file system (use AWS Backup, on by default here)");
    }

    @Test
    void rejectsARateBelowOne() {
        assertRule("EFS_PROVISIONED_MIN", () -> new EfsStore(stack, "Efs",
                props().throughputMode(ThroughputMode.PROVISIONED).provisionedThroughputMibps(0).build()),
                "Test/Efs", "provisionedThroughputMibps", "0", "at least 1 MiB/s");
    }

    @Test
    void warnsAboveTheUsualRegionMaximum() {
        new EfsStore(stack, "Efs", props().throughputMode(ThroughputMode.PROVISIONED)
                .provisionedThroughputMibps(5000).build());
        Annotations.fromStack(stack).hasWarning("/Test/Efs", Match.stringLikeRegexp(
                ".*provisionedThroughputMibps 5000 is above 3414 MiB/s.*"));
    }

    @Test
    void needsANetwork() {
        assertRule("EFS_NETWORK", () -> new EfsStore(stack, "Efs", EfsStoreProps.builder().build()), "Test/Efs", "network", null,
                "the TrainingNetwork the file system is reached from");
    }
}
