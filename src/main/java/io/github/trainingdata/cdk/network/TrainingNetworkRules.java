package io.github.trainingdata.cdk.network;

import io.github.trainingdata.cdk.SynthRule;

/** The synth-time rules of TrainingNetwork, one constant each (listed in docs/rules.md). */
final class TrainingNetworkRules {
    static final SynthRule MAX_AZS_NEW_VPC = SynthRule.of("NETWORK_MAX_AZS_NEW_VPC", "TrainingNetwork", "maxAzs",
            "only for a new VPC",
            "library");
    static final SynthRule MAX_AZS = SynthRule.of("NETWORK_MAX_AZS", "TrainingNetwork", "maxAzs",
            "at least 2",
            "library (resilience of SageMaker and EFS)");
    static final SynthRule SUBNETS_EXISTING_VPC = SynthRule.of("NETWORK_SUBNETS_EXISTING_VPC", "TrainingNetwork", "vpcSubnets, dataSubnet",
            "only with an existing vpc",
            "library");
    static final SynthRule DATA_AZ_WITH_SUBNET = SynthRule.of("NETWORK_DATA_AZ_WITH_SUBNET", "TrainingNetwork", "dataAvailabilityZone",
            "unset when a dataSubnet is given",
            "library");
    static final SynthRule DATA_AZ_NAME = SynthRule.of("NETWORK_DATA_AZ_NAME", "TrainingNetwork", "dataAvailabilityZone",
            "an AZ name such as us-east-1a, not an AZ id",
            "Amazon EC2 User Guide, AZ IDs");
    static final SynthRule FLOW_LOGS_NEW_VPC = SynthRule.of("NETWORK_FLOW_LOGS_NEW_VPC", "TrainingNetwork", "flowLogsKey",
            "only for a new VPC",
            "library");
    static final SynthRule DATA_AZ_REGION = SynthRule.of("NETWORK_DATA_AZ_REGION", "TrainingNetwork", "dataAvailabilityZone",
            "one of the Region's AZs the stack knows",
            "aws-cdk-lib Stack.availabilityZones");
    static final SynthRule DATA_AZ_IN_SUBNETS = SynthRule.of("NETWORK_DATA_AZ_IN_SUBNETS", "TrainingNetwork", "dataAvailabilityZone",
            "one of the AZs of the VPC's selected subnets",
            "library");
    static final SynthRule SUBNETS_SATISFIABLE = SynthRule.of("NETWORK_SUBNETS_SATISFIABLE", "TrainingNetwork", "vpcSubnets",
            "a selection that matches subnets of the VPC",
            "aws-cdk-lib Vpc.selectSubnets");
    static final SynthRule SUBNETS_NOT_EMPTY = SynthRule.of("NETWORK_SUBNETS_NOT_EMPTY", "TrainingNetwork", "vpcSubnets",
            "a selection of at least one subnet",
            "library");
    static final SynthRule PRIVATE_SUBNETS = SynthRule.of("NETWORK_PRIVATE_SUBNETS", "TrainingNetwork", "vpc",
            "a VPC with isolated or private subnets, or an explicit vpcSubnets",
            "library (training data never in public subnets)");

    private TrainingNetworkRules() {
    }
}
