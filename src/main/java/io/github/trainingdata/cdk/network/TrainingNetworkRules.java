package io.github.trainingdata.cdk.network;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import java.util.regex.Pattern;
import software.amazon.awscdk.Token;
import software.constructs.IConstruct;

/**
 * The synth-time rules of {@link TrainingNetwork}, one constant each (listed in docs/rules.md). {@link #check} holds
 * those decided by the props alone (maxAzs and flow logs only for a new VPC, subnets only for an existing one, a data
 * AZ given by name and not with a data subnet); the network checks the rest where it selects subnets and zones.
 */
final class TrainingNetworkRules {
    /** An AZ id, e.g. {@code use1-az4}, {@code apne1-az1}. */
    private static final Pattern AZ_ID = Pattern.compile("[a-z]{2,5}[0-9]+-az[0-9]+");
    static final SynthRule MAX_AZS_NEW_VPC = SynthRule.of("NETWORK_MAX_AZS_NEW_VPC", "TrainingNetwork", "maxAzs",
            "only for a new VPC",
            "library");
    static final SynthRule MAX_AZS = SynthRule.of("NETWORK_MAX_AZS", "TrainingNetwork", "maxAzs",
            "at least 2",
            "library (resilience of SageMaker and EFS)");
    static final SynthRule SUBNETS_EXISTING_VPC = SynthRule.of("NETWORK_SUBNETS_EXISTING_VPC", "TrainingNetwork",
            "vpcSubnets, dataSubnet",
            "only with an existing vpc",
            "library");
    static final SynthRule DATA_AZ_WITH_SUBNET = SynthRule.of("NETWORK_DATA_AZ_WITH_SUBNET", "TrainingNetwork",
            "dataAvailabilityZone",
            "unset when a dataSubnet is given",
            "library");
    static final SynthRule DATA_AZ_NAME = SynthRule.of("NETWORK_DATA_AZ_NAME", "TrainingNetwork",
            "dataAvailabilityZone",
            "an AZ name such as us-east-1a, not an AZ id",
            "Amazon EC2 User Guide, AZ IDs");
    static final SynthRule FLOW_LOGS_NEW_VPC = SynthRule.of("NETWORK_FLOW_LOGS_NEW_VPC", "TrainingNetwork",
            "flowLogsKey",
            "only for a new VPC",
            "library");
    static final SynthRule DATA_AZ_REGION = SynthRule.of("NETWORK_DATA_AZ_REGION", "TrainingNetwork",
            "dataAvailabilityZone",
            "one of the Region's AZs the stack knows",
            "aws-cdk-lib Stack.availabilityZones");
    static final SynthRule DATA_AZ_IN_SUBNETS = SynthRule.of("NETWORK_DATA_AZ_IN_SUBNETS", "TrainingNetwork",
            "dataAvailabilityZone",
            "one of the AZs of the VPC's selected subnets",
            "library");
    static final SynthRule SUBNETS_SATISFIABLE = SynthRule.of("NETWORK_SUBNETS_SATISFIABLE", "TrainingNetwork",
            "vpcSubnets",
            "a selection that matches subnets of the VPC",
            "aws-cdk-lib Vpc.selectSubnets");
    static final SynthRule SUBNETS_NOT_EMPTY = SynthRule.of("NETWORK_SUBNETS_NOT_EMPTY", "TrainingNetwork",
            "vpcSubnets",
            "a selection of at least one subnet",
            "library");
    static final SynthRule PRIVATE_SUBNETS = SynthRule.of("NETWORK_PRIVATE_SUBNETS", "TrainingNetwork", "vpc",
            "a VPC with isolated or private subnets, or an explicit vpcSubnets",
            "library (training data never in public subnets)");

    private TrainingNetworkRules() {
    }

    /** Checks the props of the network {@code scope} that need no VPC to decide. */
    static void check(IConstruct scope, TrainingNetworkProps props) {
        if (props.getVpc() != null && props.getMaxAzs() != null) {
            throw ConfigurationError.of(MAX_AZS_NEW_VPC, scope, "maxAzs", props.getMaxAzs(),
                    "only for a new VPC; leave it unset when an existing vpc is given");
        }
        if (props.getMaxAzs() != null && props.getMaxAzs() < 2) {
            throw ConfigurationError.of(MAX_AZS, scope, "maxAzs", props.getMaxAzs(),
                    "at least 2 (SageMaker and EFS need subnets in more than one AZ to be resilient)");
        }
        if (props.getVpc() == null && (props.getVpcSubnets() != null || props.getDataSubnet() != null)) {
            throw ConfigurationError.of(SUBNETS_EXISTING_VPC, scope,
                    props.getVpcSubnets() != null ? "vpcSubnets" : "dataSubnet",
                    "set", "only with an existing vpc; a new VPC chooses its own isolated subnets");
        }
        String zone = props.getDataAvailabilityZone();
        if (zone != null && props.getDataSubnet() != null) {
            throw ConfigurationError.of(DATA_AZ_WITH_SUBNET, scope,
                    "dataAvailabilityZone", zone, "unset when a dataSubnet is given (the "
                    + "data subnet fixes the data AZ)");
        }
        if (zone != null && !Token.isUnresolved(zone) && AZ_ID.matcher(zone).matches()) {
            throw ConfigurationError.of(DATA_AZ_NAME, scope,
                    "dataAvailabilityZone", zone, "an Availability Zone name such as "
                    + "us-east-1a, not an AZ id: ids name the same physical AZ in every account, names are mapped per "
                    + "account (aws ec2 describe-availability-zones --zone-ids " + zone + " gives this account's name)");
        }
        if (props.getVpc() != null && props.getFlowLogsKey() != null) {
            throw ConfigurationError.of(FLOW_LOGS_NEW_VPC, scope, "flowLogsKey", "set",
                    "only for a new VPC; this construct adds no flow logs to an existing vpc");
        }
    }
}
