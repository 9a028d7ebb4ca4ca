package io.github.trainingdata.cdk.training;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.network.TrainingNetworkProps;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.EfsStoreProps;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.Subnet;
import software.amazon.awscdk.services.ec2.SubnetAttributes;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.ec2.SubnetType;
import software.amazon.awscdk.services.ec2.Vpc;
import software.amazon.awscdk.services.ec2.VpcAttributes;
import software.amazon.awscdk.services.iam.FromRoleArnOptions;
import software.amazon.awscdk.services.iam.Role;

/** Where the job runs: one network, subnets in the file systems' AZ, security groups, the role ARN. */
class NetworkPlacementTest {
    private final TrainingFixture f = new TrainingFixture();

    private SubnetSelection secondSubnet() {
        return SubnetSelection.builder().subnets(List.of(f.network().getVpc().getIsolatedSubnets().get(1))).build();
    }

    private List<ISecurityGroup> extraGroups(int count) {
        return IntStream.range(0, count).mapToObj(i -> (ISecurityGroup) SecurityGroup.Builder
                .create(f.stack, "Extra" + i).vpc(f.network().getVpc()).build()).toList();
    }

    @Test
    void rejectsChannelsFromTwoNetworks() {
        TrainingNetwork other = new TrainingNetwork(f.stack, "Other");
        EfsStore otherEfs = new EfsStore(f.stack, "OtherEfs", EfsStoreProps.builder().network(other).build());
        assertRule("TRAINING_ONE_NETWORK", () -> f.define(f.props().channels(List.of(
                f.lustreChannel("train", "train"),
                EfsChannel.builder("features").store(otherEfs).directoryPath("/features").build()))),
                "Test/Training", "channels[1]", "features",
                "a store in the job's network Test/Network (it is in Test/Other): a job runs in one VPC");
    }

    @Test
    void rejectsAChannelOutsideTheGivenNetwork() {
        TrainingNetwork other = new TrainingNetwork(f.stack, "Other");
        assertRule("TRAINING_ONE_NETWORK", () -> f.define(f.props().network(other)
                .channels(List.of(f.lustreChannel("train", "train")))),
                "Test/Training", "channels[0]", "train",
                "a store in the job's network Test/Other (it is in Test/Network): a job runs in one VPC");
    }

    @Test
    void rejectsSubnetsWithoutANetwork() {
        assertRule("TRAINING_SUBNETS_WITHOUT_NETWORK", () -> f.define(f.props()
                .channels(List.of(f.s3("train").build()))
                .vpcSubnets(SubnetSelection.builder().subnetType(SubnetType.PRIVATE_ISOLATED).build())),
                "Test/Training", "vpcSubnets", "set without a network",
                "unset unless a network is given or a file-system channel brings one");
    }

    @Test
    void rejectsMoreThanFiveSecurityGroups() {
        assertRule("TRAINING_SECURITY_GROUPS", () -> f.define(f.props().network(f.network())
                .securityGroups(extraGroups(5))),
                "Test/Training", "securityGroups", "6 groups with the training group",
                "at most 4 more than the network's training group (5 in all)");
    }

    @Test
    void acceptsFiveSecurityGroupsInAll() {
        TrainingJobDefinition job = f.define(f.props().network(f.network()).securityGroups(extraGroups(4)));
        List<?> groups = (List<?>) vpcConfig(job).get("SecurityGroupIds");
        assertEquals(5, groups.size());
        assertEquals(f.network().getTrainingSecurityGroup().getSecurityGroupId(), groups.get(0));
    }

    @Test
    void rejectsASubnetOutsideTheLustreZone() {
        assertRule("TRAINING_SUBNETS_IN_LUSTRE_AZ", () -> f.define(f.props().channels(List.of(f.lustreChannel("train", "train"))).vpcSubnets(secondSubnet())),
                "Test/Training", "vpcSubnets", "Test/Network/Vpc/DataSubnet2",
                "subnets in the Availability Zone of channel 'train' (its store keeps its data in one zone; "
                        + "SageMaker must run there to reach it)");
    }

    @Test
    void rejectsASubnetOutsideTheOneZoneEfsZone() {
        EfsStore oneZone = new EfsStore(f.stack, "OneZone", EfsStoreProps.builder().network(f.network()).oneZone(true)
                .build());
        assertRule("TRAINING_SUBNETS_IN_LUSTRE_AZ", () -> f.define(f.props().vpcSubnets(secondSubnet()).channels(List.of(
                EfsChannel.builder("features").store(oneZone).directoryPath("/features").build()))),
                "Test/Training", "vpcSubnets", "Test/Network/Vpc/DataSubnet2",
                "subnets in the Availability Zone of channel 'features' (its store keeps its data in one zone; "
                        + "SageMaker must run there to reach it)");
    }

    @Test
    void acceptsAnySubnetForARegionalEfs() {
        TrainingJobDefinition job = f.define(f.props().vpcSubnets(secondSubnet())
                .channels(List.of(f.efsChannel("features", "/features"))));
        assertEquals(List.of(f.network().getVpc().getIsolatedSubnets().get(1).getSubnetId()),
                vpcConfig(job).get("Subnets"));
    }

    @Test
    void warnsWhenTheSubnetZoneIsUnknownAtSynth() {
        ISubnet imported = Subnet.fromSubnetAttributes(f.stack, "Imported", SubnetAttributes.builder()
                .subnetId("subnet-0123456789abcdef0").availabilityZone(Fn.importValue("TrainingAz")).build());
        f.define(f.props().channels(List.of(f.lustreChannel("train", "train")))
                .vpcSubnets(SubnetSelection.builder().subnets(List.of(imported)).build()));
        Annotations.fromStack(f.stack).hasWarning("/Test/Training", "Test/Training: cannot tell at synth whether "
                + "subnet Test/Imported is in the Availability Zone of channel 'train'; the job fails to mount it if "
                + "not [ack: @trainingdata/training:subnetZoneUnknown]");
    }

    @Test
    void rejectsAnEmptySubnetSelection() {
        assertRule("TRAINING_SUBNET_COUNT", () -> f.define(f.props()
                .network(f.network()).vpcSubnets(SubnetSelection.builder().subnets(List.of()).build())),
                "Test/Training", "vpcSubnets", "0 subnets", "1 to 16 subnets");
    }

    @Test
    void rejectsMoreThan16Subnets() {
        List<String> ids = IntStream.range(0, 17).mapToObj(i -> String.format("subnet-%017x", i)).toList();
        TrainingNetwork wide = new TrainingNetwork(f.stack, "Wide", TrainingNetworkProps.builder()
                .vpc(Vpc.fromVpcAttributes(f.stack, "WideVpc", VpcAttributes.builder().vpcId("vpc-0123456789abcdef0")
                        .availabilityZones(List.of("us-east-1a"))
                        .isolatedSubnetIds(ids)
                        .isolatedSubnetRouteTableIds(Collections.nCopies(17, "rtb-0123456789abcdef0"))
                        .build()))
                .build());
        assertRule("TRAINING_SUBNET_COUNT", () -> f.define(f.props()
                .network(wide).vpcSubnets(SubnetSelection.builder().subnetType(SubnetType.PRIVATE_ISOLATED).build())),
                "Test/Training", "vpcSubnets", "17 subnets", "1 to 16 subnets");
    }

    @Test
    void rejectsAMalformedRoleArn() {
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().role(Role.fromRoleArn(f.stack,
                "Given", "arn:aws:iam::12345:role/training", FromRoleArnOptions.builder().mutable(true).build()))),
                "Test/Training", "role", "arn:aws:iam::12345:role/training",
                "an IAM role ARN arn:aws:iam::<12-digit account>:role/<name>, 20 to 2048 characters matching "
                        + "arn:aws[a-z\\-]*:iam::\\d{12}:role/?[a-zA-Z_0-9+=,.@\\-_/]+");
    }

    @Test
    void acceptsARoleArnWithAPath() {
        TrainingJobDefinition job = f.define(f.props().role(Role.fromRoleArn(f.stack, "Given",
                "arn:aws-us-gov:iam::123456789012:role/service-role/training")));
        assertEquals("arn:aws-us-gov:iam::123456789012:role/service-role/training", job.getRequest().get("RoleArn"));
    }

    @Test
    void acceptsLustreAndOneZoneEfsInTheDataSubnetWithoutWarnings() {
        EfsStore oneZone = new EfsStore(f.stack, "OneZone", EfsStoreProps.builder().network(f.network()).oneZone(true)
                .build());
        TrainingJobDefinition job = f.define(f.props().channels(List.of(f.lustreChannel("train", "train"),
                EfsChannel.builder("features").store(oneZone).directoryPath("/features").build())));
        assertEquals(ids(List.of(f.network().getDataSubnet())), subnetIds(job));
        Annotations.fromStack(f.stack).hasNoWarning("/Test/Training", Match.anyValue());
    }

    @Test
    void comparesLiteralZonesOfAnExistingVpc() {
        List<String> ids = IntStream.range(0, 4).mapToObj(i -> String.format("subnet-%017x", i)).toList();
        TrainingNetwork adopted = new TrainingNetwork(f.stack, "Adopted", TrainingNetworkProps.builder()
                .vpc(Vpc.fromVpcAttributes(f.stack, "AdoptedVpc", VpcAttributes.builder()
                        .vpcId("vpc-0123456789abcdef0")
                        .availabilityZones(List.of("us-east-1a", "us-east-1b"))
                        .isolatedSubnetIds(ids)
                        .isolatedSubnetRouteTableIds(Collections.nCopies(4, "rtb-0123456789abcdef0"))
                        .build()))
                .build());
        LustreChannel train = LustreChannel.builder("train").cache(new LustreCache(f.stack, "AdoptedLustre",
                LustreCacheProps.builder().network(adopted)
                        .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(f.data).build())).build())).path("train").build();
        List<ISubnet> subnets = adopted.getVpc().getIsolatedSubnets();
        assertEquals(List.of("us-east-1a", "us-east-1b", "us-east-1a", "us-east-1b"),
                subnets.stream().map(ISubnet::getAvailabilityZone).toList());

        assertRule("TRAINING_SUBNETS_IN_LUSTRE_AZ", () -> f.define(f.props().channels(List.of(train)).vpcSubnets(SubnetSelection.builder()
                .subnets(List.of(subnets.get(0), subnets.get(1))).build())),
                "Test/Training", "vpcSubnets", "Test/AdoptedVpc/IsolatedSubnet2",
                "subnets in the Availability Zone of channel 'train' (its store keeps its data in one zone; "
                        + "SageMaker must run there to reach it)");
        TrainingJobDefinition job = new TrainingJobDefinition(f.stack, "SameZone", f.props().channels(List.of(train))
                .vpcSubnets(SubnetSelection.builder().subnets(List.of(subnets.get(0), subnets.get(2))).build())
                .build());
        assertEquals(ids(List.of(subnets.get(0), subnets.get(2))), subnetIds(job));
    }

    @Test
    void rejectsASubnetInAZoneWithoutAMountTargetOfARegionalEfs() {
        List<String> ids = IntStream.range(0, 4).mapToObj(i -> String.format("subnet-%017x", i)).toList();
        TrainingNetwork oneAz = new TrainingNetwork(f.stack, "OneAz", TrainingNetworkProps.builder()
                .vpc(Vpc.fromVpcAttributes(f.stack, "OneAzVpc", VpcAttributes.builder()
                        .vpcId("vpc-0123456789abcdef0")
                        .availabilityZones(List.of("us-east-1a", "us-east-1b"))
                        .isolatedSubnetIds(ids)
                        .isolatedSubnetRouteTableIds(Collections.nCopies(4, "rtb-0123456789abcdef0"))
                        .build()))
                .vpcSubnets(SubnetSelection.builder().availabilityZones(List.of("us-east-1a")).build())
                .build());
        EfsChannel features = EfsChannel.builder("features").directoryPath("/features")
                .store(new EfsStore(f.stack, "Regional", EfsStoreProps.builder().network(oneAz).build())).build();
        List<ISubnet> subnets = oneAz.getVpc().getIsolatedSubnets();

        assertRule("TRAINING_SUBNETS_IN_EFS_AZ", () -> f.define(f.props().channels(List.of(features))
                .vpcSubnets(SubnetSelection.builder().subnets(List.of(subnets.get(1))).build())),
                "Test/Training", "vpcSubnets", "Test/OneAzVpc/IsolatedSubnet2",
                "subnets in an Availability Zone where the EFS file system of channel 'features' has a mount target "
                        + "(the zones of its network's storage subnets)");
        TrainingJobDefinition job = new TrainingJobDefinition(f.stack, "MountTargetZone", f.props()
                .channels(List.of(features))
                .vpcSubnets(SubnetSelection.builder().subnets(List.of(subnets.get(2))).build()).build());
        assertEquals(ids(List.of(subnets.get(2))), subnetIds(job));
    }

    @Test
    void rejectsAGivenSecurityGroupWhoseIdTheApiRejects() {
        ISecurityGroup given = SecurityGroup.fromSecurityGroupId(f.stack, "Given", "sg_0123456789abcdef0");
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().network(f.network()).securityGroups(List.of(given))), "Test/Training",
                "securityGroups[0]", "sg_0123456789abcdef0", "a security group id of at most 32 characters matching "
                        + "[-0-9a-zA-Z]+");
    }

    @Test
    void rejectsAGivenSubnetWhoseIdTheApiRejects() {
        String id = "subnet-" + "0".repeat(26);
        ISubnet imported = Subnet.fromSubnetAttributes(f.stack, "Imported", SubnetAttributes.builder()
                .subnetId(id).availabilityZone("us-east-1a").build());
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().network(f.network())
                        .vpcSubnets(SubnetSelection.builder().subnets(List.of(imported)).build())),
                "Test/Training", "vpcSubnets", id, "a subnet id of at most 32 characters matching [-0-9a-zA-Z]+");
    }

    @Test
    void namesTheVpcWhenAwsCdkLibRejectsTheSubnetSelection() {
        assertRule("TRAINING_SUBNETS_IN_VPC", () -> f.define(f.props().network(f.network())
                        .vpcSubnets(SubnetSelection.builder().subnetType(SubnetType.PUBLIC).build())),
                "Test/Training", "vpcSubnets", "a selection in Test/Network/Vpc", "a selection of subnets the "
                        + "network's VPC has (There are no 'Public' subnet groups in this VPC. Available types: "
                        + "Isolated,Deprecated_Isolated)");
    }

    private static Map<?, ?> vpcConfig(TrainingJobDefinition job) {
        return (Map<?, ?>) job.getRequest().get("VpcConfig");
    }

    private static Object subnetIds(TrainingJobDefinition job) {
        return vpcConfig(job).get("Subnets");
    }

    private static List<String> ids(List<ISubnet> subnets) {
        return subnets.stream().map(ISubnet::getSubnetId).toList();
    }
}
