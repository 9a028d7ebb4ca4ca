package io.github.trainingdata.cdk.network;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.internal.LogGroups;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.CfnCondition;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.ICfnConditionExpression;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.ec2.FlowLogDestination;
import software.amazon.awscdk.services.ec2.FlowLogOptions;
import software.amazon.awscdk.services.ec2.FlowLogTrafficType;
import software.amazon.awscdk.services.ec2.GatewayVpcEndpointAwsService;
import software.amazon.awscdk.services.ec2.GatewayVpcEndpointOptions;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.Port;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.SelectedSubnets;
import software.amazon.awscdk.services.ec2.SubnetConfiguration;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.ec2.SubnetType;
import software.amazon.awscdk.services.ec2.Vpc;
import software.amazon.awscdk.services.logs.LogGroup;
import software.constructs.Construct;

/**
 * The network that training jobs and their data stores share: a VPC, the one <em>data subnet</em> that
 * fixes the data Availability Zone (FSx for Lustre lives in exactly one subnet, and SageMaker must run
 * in that AZ to mount it; {@code dataAvailabilityZone} chooses it), and the security group training jobs use.
 *
 * <p>By default it creates a VPC with isolated subnets in two AZs, no NAT gateway, an S3 gateway
 * endpoint (training in isolated subnets reads S3 through it), a default security group without rules, and
 * flow logs to CloudWatch Logs (encrypted with {@code flowLogsKey} when given). Given an existing
 * {@link IVpc}, it creates nothing in it but the training security group (unless one is given).
 */
public class TrainingNetwork extends Construct {
    private static final int DEFAULT_MAX_AZS = 2;
    /** What aws-cdk-lib answers for a Region's AZs before its context lookup ran: as unknown as a token. */
    private static final List<String> DUMMY_AZS = List.of("dummy1a", "dummy1b", "dummy1c");

    private final IVpc vpc;
    private final SubnetSelection storageSubnets;
    private final ISubnet dataSubnet;
    private final ISecurityGroup trainingSecurityGroup;

    /** Creates the network (or adopts an existing VPC) with default props. */
    public TrainingNetwork(Construct scope, String id) {
        this(scope, id, TrainingNetworkProps.builder().build());
    }

    /** Creates the network (or adopts an existing VPC). */
    public TrainingNetwork(Construct scope, String id, TrainingNetworkProps props) {
        super(scope, id);
        TrainingNetworkRules.check(this, props);
        this.vpc = props.getVpc() != null ? props.getVpc() : createVpc(props);
        if (props.getVpc() != null) {
            Annotations.of(this).addInfo(getNode().getPath() + ": an existing VPC: training in private subnets "
                    + "without NAT reaches S3 only through an S3 gateway endpoint on their route tables; make sure the "
                    + "VPC has one");
        }
        List<ISubnet> selected = selectStorageSubnets(props);
        this.storageSubnets = SubnetSelection.builder().subnets(selected).build();
        this.dataSubnet = props.getDataSubnet() != null ? props.getDataSubnet()
                : props.getDataAvailabilityZone() != null ? subnetIn(props.getDataAvailabilityZone(), selected)
                : selected.get(0);
        this.trainingSecurityGroup = props.getTrainingSecurityGroup() != null
                ? props.getTrainingSecurityGroup()
                : createTrainingSecurityGroup();
    }

    private IVpc createVpc(TrainingNetworkProps props) {
        LogGroup flowLogs = LogGroups.create(this, "FlowLogs", props.getFlowLogsKey());
        int maxAzs = props.getMaxAzs() != null ? props.getMaxAzs() : DEFAULT_MAX_AZS;
        Vpc.Builder vpcBuilder = Vpc.Builder.create(this, "Vpc");
        if (props.getDataAvailabilityZone() == null) {
            vpcBuilder.maxAzs(maxAzs);
        } else {
            vpcBuilder.availabilityZones(availabilityZonesWith(props.getDataAvailabilityZone(), maxAzs));
        }
        return vpcBuilder
                .natGateways(0)
                // Explicit, not left to the app's feature flags: the default group admits nothing.
                .restrictDefaultSecurityGroup(true)
                .subnetConfiguration(List.of(SubnetConfiguration.builder()
                        .name("Data")
                        .subnetType(SubnetType.PRIVATE_ISOLATED)
                        .cidrMask(20)
                        .build()))
                .gatewayEndpoints(Map.of("S3", GatewayVpcEndpointOptions.builder()
                        .service(GatewayVpcEndpointAwsService.S3)
                        .build()))
                .flowLogs(Map.of("FlowLog", FlowLogOptions.builder()
                        .destination(FlowLogDestination.toCloudWatchLogs(flowLogs))
                        .trafficType(FlowLogTrafficType.ALL)
                        .build()))
                .build();
    }

    /**
     * The AZs of a new VPC that spans {@code zone}: as without it when the Region's AZs are known at synth and the
     * first {@code maxAzs} include it (the VPC stays as it was); else {@code zone} and the first {@code maxAzs - 1}
     * other AZs of the Region. With the Region's AZs known, {@code zone} must be one of them; otherwise (an
     * environment-agnostic stack, or a deploy-time zone) the others are chosen at deploy time: the k-th is the Region's
     * k-th AZ when {@code zone} is not among the first k, else the (k+1)-th ({@code Fn::If} on {@code Fn::Equals}).
     */
    private List<String> availabilityZonesWith(String zone, int maxAzs) {
        List<String> region = Stack.of(this).getAvailabilityZones();
        boolean known = region.stream().noneMatch(az -> Token.isUnresolved(az) || DUMMY_AZS.contains(az));
        int count = Math.min(maxAzs, region.size());
        if (known && !Token.isUnresolved(zone)) {
            if (!region.contains(zone)) {
                throw ConfigurationError.of(TrainingNetworkRules.DATA_AZ_REGION, this,
                        "dataAvailabilityZone", zone, "one of the Region's Availability Zones "
                        + "the stack knows: " + String.join(", ", region));
            }
            List<String> first = region.subList(0, count);
            if (first.contains(zone)) {
                return first;
            }
            List<String> spanned = new ArrayList<>(region.subList(0, count - 1));
            spanned.add(zone);
            return spanned;
        }
        List<String> spanned = new ArrayList<>(List.of(zone));
        List<ICfnConditionExpression> equalsEarlier = new ArrayList<>();
        for (int k = 1; k < count; k++) {
            equalsEarlier.add(Fn.conditionEquals(zone, region.get(k - 1)));
            ICfnConditionExpression among = equalsEarlier.size() == 1 ? equalsEarlier.get(0)
                    : Fn.conditionOr(equalsEarlier.toArray(ICfnConditionExpression[]::new));
            CfnCondition condition = CfnCondition.Builder.create(this, "DataZoneAmongFirst" + k).expression(among).build();
            spanned.add(Fn.conditionIf(condition.getLogicalId(), region.get(k), region.get(k - 1)).toString());
        }
        return spanned;
    }

    /** The selected subnet in {@code zone}: compared as written (a new VPC's subnets carry the zone as given). */
    private ISubnet subnetIn(String zone, List<ISubnet> selected) {
        List<String> zones = selected.stream().map(ISubnet::getAvailabilityZone).toList();
        for (ISubnet subnet : selected) {
            if (subnet.getAvailabilityZone().equals(zone)) {
                return subnet;
            }
        }
        if (Token.isUnresolved(zone) || zones.stream().anyMatch(Token::isUnresolved)) {
            throw ConfigurationError.of(TrainingNetworkRules.DATA_AZ_IN_SUBNETS, this,
                    "dataAvailabilityZone", zone, "a zone that matches one of the VPC's "
                    + "selected subnets at synth; with deploy-time zones give the dataSubnet instead");
        }
        throw ConfigurationError.of(TrainingNetworkRules.DATA_AZ_IN_SUBNETS, this,
                "dataAvailabilityZone", zone, "one of the AZs of the VPC's selected subnets: "
                + String.join(", ", zones));
    }

    /**
     * The storage subnets, one per AZ. A VPC created here has one subnet group, isolated, one subnet per AZ: its
     * isolated subnets are what {@code selectSubnets} would choose, in the same order, read without the selection.
     */
    private List<ISubnet> selectStorageSubnets(TrainingNetworkProps props) {
        if (props.getVpc() == null) {
            return vpc.getIsolatedSubnets();
        }
        if (props.getVpcSubnets() != null) {
            SelectedSubnets chosen;
            try {
                chosen = vpc.selectSubnets(onePerAz(props.getVpcSubnets()));
            } catch (RuntimeException e) {
                throw ConfigurationError.of(TrainingNetworkRules.SUBNETS_SATISFIABLE, this,
                        "vpcSubnets", "a selection " + vpcName() + " cannot satisfy",
                        "a selection that matches subnets of " + vpcName() + " ("
                                + String.valueOf(e.getMessage()).lines().findFirst().orElse("").strip()
                                .replaceFirst("^[A-Za-z]+: ", "") + ")");
            }
            if (chosen.getSubnets().isEmpty()) {
                throw ConfigurationError.of(TrainingNetworkRules.SUBNETS_NOT_EMPTY, this,
                        "vpcSubnets", "a selection of no subnets of " + vpcName(),
                        "a selection that matches at least one subnet of the VPC");
            }
            return chosen.getSubnets();
        }
        for (SubnetType type : List.of(SubnetType.PRIVATE_ISOLATED, SubnetType.PRIVATE_WITH_EGRESS)) {
            boolean present = type == SubnetType.PRIVATE_ISOLATED
                    ? !vpc.getIsolatedSubnets().isEmpty() : !vpc.getPrivateSubnets().isEmpty();
            if (present) {
                return vpc.selectSubnets(SubnetSelection.builder().subnetType(type).onePerAz(true).build()).getSubnets();
            }
        }
        throw ConfigurationError.of(TrainingNetworkRules.PRIVATE_SUBNETS, this, "vpc", vpcName() + ", without private subnets",
                "a VPC with isolated or private subnets (training data never sits in public subnets), "
                        + "or an explicit vpcSubnets selection");
    }

    /** @return the VPC as a message names it: its id when literal, else its construct path */
    private String vpcName() {
        return Token.isUnresolved(vpc.getVpcId()) ? vpc.getNode().getPath() : vpc.getVpcId();
    }

    private static SubnetSelection onePerAz(SubnetSelection selection) {
        return SubnetSelection.builder()
                .subnets(selection.getSubnets())
                .subnetType(selection.getSubnetType())
                .subnetGroupName(selection.getSubnetGroupName())
                .availabilityZones(selection.getAvailabilityZones())
                .subnetFilters(selection.getSubnetFilters())
                .onePerAz(true)
                .build();
    }

    private ISecurityGroup createTrainingSecurityGroup() {
        SecurityGroup group = SecurityGroup.Builder.create(this, "TrainingSecurityGroup")
                .vpc(vpc)
                .description("SageMaker training jobs that read the training data stores")
                .allowAllOutbound(true)
                .build();
        group.addIngressRule(group, Port.allTraffic(), "Distributed training: instances of one job talk to each other");
        return group;
    }

    /** @return the VPC (new or existing) */
    public IVpc getVpc() {
        return vpc;
    }

    /** @return whether this construct created the VPC (and so its subnets), rather than adopting one */
    public boolean isVpcCreated() {
        return vpc.getNode().getScope() == this;
    }

    /** @return the subnets the data stores use, one per AZ; it includes the data subnet's AZ */
    public SubnetSelection getStorageSubnets() {
        return storageSubnets;
    }

    /** @return the subnet that fixes the data AZ (Lustre lives here; training runs here) */
    public ISubnet getDataSubnet() {
        return dataSubnet;
    }

    /** @return the data subnet's Availability Zone (a token for environment-agnostic stacks) */
    public String getDataAvailabilityZone() {
        return dataSubnet.getAvailabilityZone();
    }

    /** @return the selection of just the data subnet, for training jobs */
    public SubnetSelection getTrainingSubnets() {
        return SubnetSelection.builder().subnets(List.of(dataSubnet)).build();
    }

    /** @return the security group training jobs run in; the data stores admit it */
    public ISecurityGroup getTrainingSecurityGroup() {
        return trainingSecurityGroup;
    }
}
