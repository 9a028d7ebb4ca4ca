package io.github.trainingdata.cdk.network;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.github.trainingdata.cdk.TestApps;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.CfnParameter;
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
import software.amazon.awscdk.services.ec2.VpcAttributes;
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
        assertRule("NETWORK_FLOW_LOGS_NEW_VPC", () -> new TrainingNetwork(stack, "Network",
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
        assertRule("NETWORK_MAX_AZS_NEW_VPC", () -> new TrainingNetwork(stack, "Network",
                TrainingNetworkProps.builder().vpc(vpc).maxAzs(3).build()),
                "Test/Network", "maxAzs", "3", "only for a new VPC; leave it unset when an existing vpc is given");
    }

    @Test
    void rejectsFewerThanTwoAzs() {
        assertRule("NETWORK_MAX_AZS", () -> new TrainingNetwork(TestApps.stack(),
                "Network", TrainingNetworkProps.builder().maxAzs(1).build()),
                "Test/Network", "maxAzs", "1",
                "at least 2 (SageMaker and EFS need subnets in more than one AZ to be resilient)");
    }

    @Test
    void rejectsSubnetChoicesForANewVpc() {
        assertRule("NETWORK_SUBNETS_EXISTING_VPC", () -> new TrainingNetwork(TestApps.stack(),
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
        assertRule("NETWORK_PRIVATE_SUBNETS", () -> new TrainingNetwork(stack, "Network",
                TrainingNetworkProps.builder().vpc(vpc).build()),
                "Test/Network", "vpc", "Test/Public, without private subnets",
                "a VPC with isolated or private subnets (training data never sits in public subnets), or an explicit "
                        + "vpcSubnets selection");
    }

    @Test
    void rejectsASelectionTheVpcCannotSatisfy() {
        Stack stack = TestApps.stack();
        Vpc vpc = Vpc.Builder.create(stack, "Platform").natGateways(1).build();
        assertRule("NETWORK_SUBNETS_SATISFIABLE", () -> new TrainingNetwork(stack, "Network",
                TrainingNetworkProps.builder().vpc(vpc)
                        .vpcSubnets(SubnetSelection.builder().subnetGroupName("Storage").build())
                        .build()),
                "Test/Network", "vpcSubnets", "a selection Test/Platform cannot satisfy", "a selection that matches "
                        + "subnets of Test/Platform (There are no subnet groups with name 'Storage' in this VPC. "
                        + "Available names: Public,Private)");
    }

    @Test
    void rejectsASelectionOfNoSubnets() {
        Stack stack = TestApps.stack();
        Vpc vpc = Vpc.Builder.create(stack, "Platform").natGateways(1).build();
        assertRule("NETWORK_SUBNETS_NOT_EMPTY", () -> new TrainingNetwork(stack, "Network",
                TrainingNetworkProps.builder().vpc(vpc)
                        .vpcSubnets(SubnetSelection.builder().subnetGroupName("Private")
                                .availabilityZones(List.of("nowhere-1a")).build())
                        .build()),
                "Test/Network", "vpcSubnets", "a selection of no subnets of Test/Platform",
                "a selection that matches at least one subnet of the VPC");
    }

    @Test
    void namesAnExistingVpcWithoutPrivateSubnetsByItsId() {
        Stack stack = TestApps.stack();
        IVpc vpc = Vpc.fromVpcAttributes(stack, "Existing", VpcAttributes.builder().vpcId("vpc-0123456789abcdef0")
                .availabilityZones(List.of("us-east-1a")).publicSubnetIds(List.of("subnet-0123456789abcdef0")).build());
        assertRule("NETWORK_PRIVATE_SUBNETS", () -> new TrainingNetwork(stack, "Network",
                TrainingNetworkProps.builder().vpc(vpc).build()),
                "Test/Network", "vpc", "vpc-0123456789abcdef0, without private subnets",
                "a VPC with isolated or private subnets (training data never sits in public subnets), or an explicit "
                        + "vpcSubnets selection");
    }

    // ---- the data Availability Zone -------------------------------------------------------------

    /** A stack in us-east-1 whose AZs the context knows (as a CDK lookup writes them to cdk.context.json). */
    private static Stack inUsEast1() {
        Map<String, Object> context = TestApps.context();
        context.put("availability-zones:account=123456789012:region=us-east-1",
                List.of("us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d"));
        return new Stack(new App(AppProps.builder().context(context).build()), "Known", StackProps.builder()
                .env(Environment.builder().account("123456789012").region("us-east-1").build()).build());
    }

    /** The data subnets' AvailabilityZone properties, in the VPC's order. */
    private static List<Object> subnetZones(Stack stack) {
        return Template.fromStack(stack).findResources("AWS::EC2::Subnet").entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> ((Map<?, ?>) ((Map<?, ?>) e.getValue()).get("Properties")).get("AvailabilityZone"))
                .map(zone -> (Object) zone).toList();
    }

    @Test
    void aKnownRegionsZoneTheVpcSpansAnywayLeavesTheVpcAsItIsAndPicksItsSubnet() {
        Stack stack = inUsEast1();
        TrainingNetwork network = new TrainingNetwork(stack, "Network", TrainingNetworkProps.builder()
                .dataAvailabilityZone("us-east-1b").build());
        assertEquals(List.of("us-east-1a", "us-east-1b"), subnetZones(stack));
        assertEquals("us-east-1b", network.getDataAvailabilityZone());
        assertSame(network.getVpc().getIsolatedSubnets().get(1), network.getDataSubnet());
        Template.fromStack(stack).templateMatches(Map.of("Conditions", Match.absent()));
    }

    @Test
    void aKnownRegionsZoneBeyondTheFirstReplacesTheVpcsLastZone() {
        Stack stack = inUsEast1();
        TrainingNetwork network = new TrainingNetwork(stack, "Network", TrainingNetworkProps.builder()
                .dataAvailabilityZone("us-east-1d").build());
        assertEquals(List.of("us-east-1a", "us-east-1d"), subnetZones(stack));
        assertEquals("us-east-1d", network.getDataAvailabilityZone());
    }

    @Test
    void rejectsAZoneOutsideTheKnownRegion() {
        Stack stack = inUsEast1();
        assertRule("NETWORK_DATA_AZ_REGION", () -> new TrainingNetwork(stack, "Network", TrainingNetworkProps.builder()
                .dataAvailabilityZone("us-west-2a").build()), "Known/Network", "dataAvailabilityZone", "us-west-2a",
                "one of the Region's Availability Zones the stack knows: us-east-1a, us-east-1b, us-east-1c, us-east-1d");
    }

    @Test
    void inAnEnvironmentAgnosticStackTheZoneComesFirstAndTheOthersAreChosenAtDeploy() {
        Stack stack = TestApps.stack();
        TrainingNetwork network = new TrainingNetwork(stack, "Network", TrainingNetworkProps.builder()
                .dataAvailabilityZone("us-east-1d").build());
        Map<String, Object> first = Map.of("Fn::Select", List.of(0, Map.of("Fn::GetAZs", "")));
        Map<String, Object> second = Map.of("Fn::Select", List.of(1, Map.of("Fn::GetAZs", "")));
        // The second AZ is the Region's first unless that is the data AZ, then its second.
        assertEquals(List.of("us-east-1d", Map.of("Fn::If", List.of("NetworkDataZoneAmongFirst1C63CF486", second,
                first))), subnetZones(stack));
        Template.fromStack(stack).templateMatches(Map.of("Conditions", Map.of("NetworkDataZoneAmongFirst1C63CF486",
                Map.of("Fn::Equals", List.of("us-east-1d", first)))));
        assertEquals("us-east-1d", network.getDataAvailabilityZone());
        assertSame(network.getVpc().getIsolatedSubnets().get(0), network.getDataSubnet());
    }

    @Test
    void takesADeployTimeZone() {
        Stack stack = TestApps.stack();
        CfnParameter zone = CfnParameter.Builder.create(stack, "DataZone").type("AWS::EC2::AvailabilityZone::Name")
                .build();
        TrainingNetwork network = new TrainingNetwork(stack, "Network", TrainingNetworkProps.builder()
                .dataAvailabilityZone(zone.getValueAsString()).build());
        assertEquals(Map.of("Ref", "DataZone"), subnetZones(stack).get(0));
        assertEquals(Map.of("Ref", "DataZone"), stack.resolve(network.getDataAvailabilityZone()));
    }

    @Test
    void rejectsAnAvailabilityZoneId() {
        assertRule("NETWORK_DATA_AZ_NAME", () -> new TrainingNetwork(TestApps.stack(), "Network", TrainingNetworkProps.builder()
                .dataAvailabilityZone("use1-az4").build()), "Test/Network", "dataAvailabilityZone", "use1-az4",
                "an Availability Zone name such as us-east-1a, not an AZ id: ids name the same physical AZ in every "
                        + "account, names are mapped per account (aws ec2 describe-availability-zones --zone-ids use1-az4 "
                        + "gives this account's name)");
    }

    @Test
    void anExistingVpcsDataSubnetIsItsSubnetInTheZone() {
        Stack stack = new Stack(TestApps.app(), "Existing", StackProps.builder()
                .env(Environment.builder().account("123456789012").region("eu-west-1").build()).build());
        Vpc vpc = Vpc.Builder.create(stack, "Platform").maxAzs(3).natGateways(1).build();
        String zone = vpc.getPrivateSubnets().get(2).getAvailabilityZone();
        TrainingNetwork network = new TrainingNetwork(stack, "Network", TrainingNetworkProps.builder()
                .vpc(vpc).dataAvailabilityZone(zone).build());
        assertSame(vpc.getPrivateSubnets().get(2), network.getDataSubnet());
        assertRule("NETWORK_DATA_AZ_IN_SUBNETS", () -> new TrainingNetwork(stack, "Elsewhere", TrainingNetworkProps.builder()
                .vpc(vpc).dataAvailabilityZone("eu-west-1z").build()), "Existing/Elsewhere", "dataAvailabilityZone",
                "eu-west-1z", "one of the AZs of the VPC's selected subnets: " + String.join(", ",
                        vpc.getPrivateSubnets().stream().map(s -> s.getAvailabilityZone()).toList()));
    }

    @Test
    void rejectsAZoneTogetherWithADataSubnet() {
        Stack stack = TestApps.stack();
        Vpc vpc = Vpc.Builder.create(stack, "Platform").maxAzs(2).natGateways(1).build();
        assertRule("NETWORK_DATA_AZ_WITH_SUBNET", () -> new TrainingNetwork(stack, "Network", TrainingNetworkProps.builder().vpc(vpc)
                .dataSubnet(vpc.getPrivateSubnets().get(0)).dataAvailabilityZone("us-east-1a").build()), "Test/Network",
                "dataAvailabilityZone", "us-east-1a", "unset when a dataSubnet is given (the data subnet fixes the data AZ)");
    }

    @Test
    void aDeployTimeZoneInAKnownRegionSkipsItselfAmongTheOthers() {
        Stack stack = inUsEast1();
        CfnParameter zone = CfnParameter.Builder.create(stack, "DataZone").type("AWS::EC2::AvailabilityZone::Name")
                .build();
        new TrainingNetwork(stack, "Network", TrainingNetworkProps.builder().maxAzs(3)
                .dataAvailabilityZone(zone.getValueAsString()).build());
        List<Object> zones = subnetZones(stack);
        // The others are the first two of us-east-1a, b, c that are not the data AZ.
        assertEquals(Map.of("Ref", "DataZone"), zones.get(0));
        assertEquals(List.of("us-east-1b", "us-east-1a"), ((List<?>) ((Map<?, ?>) zones.get(1)).get("Fn::If")).subList(1, 3));
        assertEquals(List.of("us-east-1c", "us-east-1b"), ((List<?>) ((Map<?, ?>) zones.get(2)).get("Fn::If")).subList(1, 3));
        String second = (String) ((List<?>) ((Map<?, ?>) zones.get(2)).get("Fn::If")).get(0);
        Template.fromStack(stack).templateMatches(Map.of("Conditions", Match.objectLike(Map.of(second, Map.of("Fn::Or",
                List.of(Map.of("Fn::Equals", List.of(Map.of("Ref", "DataZone"), "us-east-1a")),
                        Map.of("Fn::Equals", List.of(Map.of("Ref", "DataZone"), "us-east-1b"))))))));
    }
}
