package io.github.trainingdata.cdk.network;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.github.trainingdata.cdk.TestApps;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.SubnetConfiguration;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.ec2.SubnetType;
import software.amazon.awscdk.services.ec2.Vpc;
import software.amazon.awscdk.services.kms.Key;

class TrainingNetworkTest {

    @Test
    void newVpcHasIsolatedSubnetsInTwoAzsNoNatAnS3EndpointAndFlowLogs() {
        Stack stack = TestApps.stack();
        new TrainingNetwork(stack, "Network");
        Template t = Template.fromStack(stack);

        t.resourceCountIs("AWS::EC2::VPC", 1);
        t.resourceCountIs("AWS::EC2::Subnet", 2);
        t.resourceCountIs("AWS::EC2::NatGateway", 0);
        t.resourceCountIs("AWS::EC2::InternetGateway", 0);
        t.allResourcesProperties("AWS::EC2::Subnet", Map.of("MapPublicIpOnLaunch", false));
        t.hasResourceProperties("AWS::EC2::VPCEndpoint", Map.of(
                "VpcEndpointType", "Gateway",
                "ServiceName", Match.objectLike(Map.of("Fn::Join", Match.arrayWith(List.of(
                        Match.arrayWith(List.of(".s3"))))))));
        t.hasResourceProperties("AWS::EC2::FlowLog", Map.of("TrafficType", "ALL", "ResourceType", "VPC"));
    }

    @Test
    void flowLogsUseTheDataKeyAndTheDefaultSecurityGroupIsRestricted() {
        Stack stack = TestApps.stack();
        Key key = Key.Builder.create(stack, "DataKey").enableKeyRotation(true).build();
        new TrainingNetwork(stack, "Network", TrainingNetworkProps.builder().flowLogsKey(key).build());
        Template t = Template.fromStack(stack);

        t.hasResourceProperties("AWS::Logs::LogGroup", Map.of("RetentionInDays", 365, "KmsKeyId", Map.of(
                "Fn::GetAtt", List.of(stack.getLogicalId((CfnElement) key.getNode().getDefaultChild()), "Arn"))));
        t.resourceCountIs("Custom::VpcRestrictDefaultSG", 1);
    }

    @Test
    void rejectsAFlowLogsKeyWithAnExistingVpc() {
        Stack stack = TestApps.stack();
        Vpc vpc = Vpc.Builder.create(stack, "Platform").build();
        Key key = Key.Builder.create(stack, "DataKey").enableKeyRotation(true).build();
        assertRule(() -> new TrainingNetwork(stack, "Network",
                TrainingNetworkProps.builder().vpc(vpc).flowLogsKey(key).build()),
                "Test/Network", "flowLogsKey", "set",
                "only for a new VPC; this construct adds no flow logs to an existing vpc");
    }

    @Test
    void trainingSecurityGroupAdmitsItselfForDistributedTraining() {
        Stack stack = TestApps.stack();
        TrainingNetwork network = new TrainingNetwork(stack, "Network");
        Template t = Template.fromStack(stack);

        t.hasResourceProperties("AWS::EC2::SecurityGroupIngress", Map.of(
                "IpProtocol", "-1",
                "GroupId", Match.objectLike(Map.of("Fn::GetAtt", Match.arrayWith(List.of(
                        Match.stringLikeRegexp("NetworkTrainingSecurityGroup.*"))))),
                "SourceSecurityGroupId", Match.objectLike(Map.of("Fn::GetAtt", Match.arrayWith(List.of(
                        Match.stringLikeRegexp("NetworkTrainingSecurityGroup.*")))))));
        t.hasResourceProperties("AWS::EC2::SecurityGroup", Map.of(
                "SecurityGroupIngress", Match.absent(),
                "SecurityGroupEgress", List.of(Map.of("CidrIp", "0.0.0.0/0", "IpProtocol", "-1",
                        "Description", "Allow all outbound traffic by default"))));
    }

    @Test
    void dataSubnetIsTheFirstIsolatedSubnetAndFixesTheDataAz() {
        Stack stack = TestApps.stack();
        TrainingNetwork network = new TrainingNetwork(stack, "Network");
        IVpc vpc = network.getVpc();

        assertSame(vpc.getIsolatedSubnets().get(0), network.getDataSubnet());
        assertEquals(vpc.getIsolatedSubnets().get(0).getAvailabilityZone(), network.getDataAvailabilityZone());
        assertEquals(List.of(network.getDataSubnet()), network.getTrainingSubnets().getSubnets());
        assertEquals(2, network.getStorageSubnets().getSubnets().size());
    }

    @Test
    void existingVpcIsAdoptedWithItsNamedDataSubnet() {
        Stack stack = new Stack(TestApps.app(), "Existing", StackProps.builder()
                .env(Environment.builder().account("123456789012").region("eu-west-1").build()).build());
        Vpc vpc = Vpc.Builder.create(stack, "Platform").maxAzs(3).natGateways(1).build();
        TrainingNetwork network = new TrainingNetwork(stack, "Network", TrainingNetworkProps.builder()
                .vpc(vpc)
                .dataSubnet(vpc.getPrivateSubnets().get(1))
                .build());

        assertSame(vpc, network.getVpc());
        assertSame(vpc.getPrivateSubnets().get(1), network.getDataSubnet());
        assertEquals(vpc.getAvailabilityZones().get(1), network.getDataAvailabilityZone());
        Template.fromStack(stack).resourceCountIs("AWS::EC2::VPC", 1);
    }

    @Test
    void existingVpcDefaultsToItsPrivateSubnetsWithEgressWhenItHasNoIsolatedOnes() {
        Stack stack = TestApps.stack();
        Vpc vpc = Vpc.Builder.create(stack, "Platform").maxAzs(2).natGateways(1).build();
        TrainingNetwork network = new TrainingNetwork(stack, "Network", TrainingNetworkProps.builder()
                .vpc(vpc).build());

        assertSame(vpc.getPrivateSubnets().get(0), network.getDataSubnet());
        Annotations.fromStack(stack).hasInfo("/Test/Network", Match.stringLikeRegexp(
                "Test/Network: an existing VPC: training in private subnets without NAT reaches S3 only through an S3 "
                        + "gateway endpoint on their route tables; make sure the VPC has one.*"));
    }

    @Test
    void rejectsMaxAzsWithAnExistingVpc() {
        Stack stack = TestApps.stack();
        Vpc vpc = Vpc.Builder.create(stack, "Platform").build();
        assertRule(() -> new TrainingNetwork(stack, "Network",
                TrainingNetworkProps.builder().vpc(vpc).maxAzs(3).build()),
                "Test/Network", "maxAzs", "3", "only for a new VPC; leave it unset when an existing vpc is given");
    }

    @Test
    void rejectsFewerThanTwoAzs() {
        assertRule(() -> new TrainingNetwork(TestApps.stack(),
                "Network", TrainingNetworkProps.builder().maxAzs(1).build()),
                "Test/Network", "maxAzs", "1",
                "at least 2 (SageMaker and EFS need subnets in more than one AZ to be resilient)");
    }

    @Test
    void rejectsSubnetChoicesForANewVpc() {
        assertRule(() -> new TrainingNetwork(TestApps.stack(),
                "Network", TrainingNetworkProps.builder()
                        .vpcSubnets(SubnetSelection.builder().subnetType(SubnetType.PRIVATE_ISOLATED).build())
                        .build()),
                "Test/Network", "vpcSubnets", "set",
                "only with an existing vpc; a new VPC chooses its own isolated subnets");
    }

    @Test
    void rejectsAVpcWithOnlyPublicSubnets() {
        Stack stack = TestApps.stack();
        Vpc vpc = Vpc.Builder.create(stack, "Public").natGateways(0).subnetConfiguration(List.of(
                SubnetConfiguration.builder().name("Public").subnetType(SubnetType.PUBLIC).build())).build();
        assertRule(() -> new TrainingNetwork(stack, "Network",
                TrainingNetworkProps.builder().vpc(vpc).build()),
                "Test/Network", "vpc", "a VPC without private subnets",
                "a VPC with isolated or private subnets (training data never sits in public subnets), or an explicit "
                        + "vpcSubnets selection");
    }

    @Test
    void rejectsASelectionOfNoSubnets() {
        Stack stack = TestApps.stack();
        Vpc vpc = Vpc.Builder.create(stack, "Platform").natGateways(1).build();
        assertRule(() -> new TrainingNetwork(stack, "Network",
                TrainingNetworkProps.builder().vpc(vpc)
                        .vpcSubnets(SubnetSelection.builder().subnetGroupName("Private")
                                .availabilityZones(List.of("nowhere-1a")).build())
                        .build()),
                "Test/Network", "vpcSubnets", "a selection of no subnets",
                "a selection that matches at least one subnet of the VPC");
    }
}
