package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.limits.SageMakerLimits;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.constructs.IConstruct;

/**
 * Where a job runs: the network (given, or brought by its file-system channels), the security groups (the
 * network's training group first) and the subnets (the network's data subnet, or the given selection), checked so
 * that every file system the job mounts can be reached from every subnet. A job without a network runs outside
 * any VPC: no groups, no subnets.
 *
 * @param network the network, or null outside a VPC
 * @param securityGroups the groups of VpcConfig, in order
 * @param subnets the subnets of VpcConfig, in order
 */
record JobPlacement(TrainingNetwork network, List<ISecurityGroup> securityGroups, List<ISubnet> subnets) {
    private static final JobPlacement OUTSIDE_VPC = new JobPlacement(null, List.of(), List.of());

    /** Places the job of {@code spec}; errors and warnings name {@code scope}. */
    static JobPlacement of(IConstruct scope, TrainingJobSpec spec) {
        TrainingNetwork network = network(scope, spec);
        if (network == null) {
            return OUTSIDE_VPC;
        }
        List<ISecurityGroup> groups = securityGroups(scope, spec, network);
        return new JobPlacement(network, groups, subnets(scope, spec, network));
    }

    private static TrainingNetwork network(IConstruct scope, TrainingJobSpec spec) {
        TrainingNetwork chosen = spec.getGivenNetwork();
        List<TrainingChannel> channels = spec.getChannels();
        for (int i = 0; i < channels.size(); i++) {
            TrainingNetwork own = channels.get(i).getStore().getNetwork();
            if (own == null) {
                continue;
            }
            if (chosen == null) {
                chosen = own;
            } else if (chosen != own) {
                throw ConfigurationError.of(TrainingJobRules.ONE_NETWORK, scope,
                        "channels[" + i + "]", channels.get(i).getName(),
                        "a store in the job's network " + chosen.getNode().getPath() + " (it is in "
                                + own.getNode().getPath() + "): a job runs in one VPC");
            }
        }
        if (chosen == null && spec.getVpcSubnets() != null) {
            throw ConfigurationError.of(TrainingJobRules.SUBNETS_WITHOUT_NETWORK, scope,
                    "vpcSubnets", "set without a network",
                    "unset unless a network is given or a file-system channel brings one");
        }
        return chosen;
    }

    private static List<ISecurityGroup> securityGroups(IConstruct scope, TrainingJobSpec spec, TrainingNetwork network) {
        List<ISecurityGroup> groups = new ArrayList<>();
        groups.add(network.getTrainingSecurityGroup());
        groups.addAll(spec.getSecurityGroups());
        long most = SageMakerLimits.SECURITY_GROUP_IDS.getMax();
        if (!SageMakerLimits.SECURITY_GROUP_IDS.accepts(groups.size())) {
            throw ConfigurationError.of(TrainingJobRules.SECURITY_GROUPS, scope,
                    "securityGroups", groups.size() + " groups with the training group",
                    "at most " + (most - 1) + " more than the network's training group (" + most + " in all)");
        }
        for (int i = 1; i < groups.size(); i++) {
            TrainingJobRules.literal(scope, "securityGroups[" + (i - 1) + "]", groups.get(i).getSecurityGroupId(),
                    SageMakerLimits.SECURITY_GROUP_ID, "a security group id of ");
        }
        return List.copyOf(groups);
    }

    private static List<ISubnet> subnets(IConstruct scope, TrainingJobSpec spec, TrainingNetwork network) {
        List<ISubnet> chosen = spec.getVpcSubnets() != null ? select(scope, spec, network)
                : List.of(network.getDataSubnet());
        if (!SageMakerLimits.SUBNETS.accepts(chosen.size())) {
            throw ConfigurationError.of(TrainingJobRules.SUBNET_COUNT, scope,
                    "vpcSubnets", chosen.size() + " subnets", SageMakerLimits.SUBNETS.allowed());
        }
        for (ISubnet subnet : chosen) {
            TrainingJobRules.literal(scope, "vpcSubnets", subnet.getSubnetId(), SageMakerLimits.SUBNET_ID, "a subnet id of ");
        }
        for (TrainingChannel channel : spec.getChannels()) {
            String zone = channel.getStore().getPinnedAvailabilityZone();
            if (zone != null) {
                checkPinnedZone(scope, chosen, channel.getName(), zone);
            }
        }
        for (TrainingChannel channel : spec.getChannels()) {
            List<String> zones = channel.getStore().getReachableZones();
            if (zones != null) {
                checkMountTargets(scope, chosen, channel.getName(), zones);
            }
        }
        return List.copyOf(chosen);
    }

    /** The subnets {@code vpcSubnets} selects; aws-cdk-lib's rejection of the selection becomes a ConfigurationError. */
    private static List<ISubnet> select(IConstruct scope, TrainingJobSpec spec, TrainingNetwork network) {
        try {
            return network.getVpc().selectSubnets(spec.getVpcSubnets()).getSubnets();
        } catch (RuntimeException e) {
            throw ConfigurationError.of(TrainingJobRules.SUBNETS_IN_VPC, scope,
                    "vpcSubnets", "a selection in " + network.getVpc().getNode().getPath(),
                    "a selection of subnets the network's VPC has (" + TrainingJobRules.cdkMessage(e) + ")");
        }
    }

    /** Every training subnet must be in the one AZ of a file system that lives in one (FSx for Lustre). */
    private static void checkPinnedZone(IConstruct scope, List<ISubnet> chosen, String channel, String zone) {
        for (ISubnet subnet : chosen) {
            AvailabilityZones.Match match = AvailabilityZones.compare(scope, subnet.getAvailabilityZone(), zone);
            if (match == AvailabilityZones.Match.DIFFERENT) {
                throw ConfigurationError.of(TrainingJobRules.SUBNETS_IN_LUSTRE_AZ, scope,
                        "vpcSubnets", subnet.getNode().getPath(),
                        "subnets in the Availability Zone of channel '" + channel
                                + "' (its file system lives in one AZ; SageMaker must run there to mount it)");
            }
            if (match == AvailabilityZones.Match.UNKNOWN) {
                Annotations.of(scope).addWarningV2("@trainingdata/training:subnetZoneUnknown",
                        scope.getNode().getPath() + ": cannot tell at synth whether subnet " + subnet.getNode().getPath()
                                + " is in the Availability Zone of channel '" + channel
                                + "'; the job fails to mount it if not");
            }
        }
    }

    /** Every training subnet must be in an AZ where the regional EFS file system has a mount target. */
    private static void checkMountTargets(IConstruct scope, List<ISubnet> chosen, String channel, List<String> zones) {
        for (ISubnet subnet : chosen) {
            List<AvailabilityZones.Match> matches = zones.stream()
                    .map(zone -> AvailabilityZones.compare(scope, subnet.getAvailabilityZone(), zone)).toList();
            if (matches.stream().allMatch(m -> m == AvailabilityZones.Match.DIFFERENT)) {
                throw ConfigurationError.of(TrainingJobRules.SUBNETS_IN_EFS_AZ, scope,
                        "vpcSubnets", subnet.getNode().getPath(),
                        "subnets in an Availability Zone where the EFS file system of channel '" + channel
                                + "' has a mount target (the zones of its network's storage subnets)");
            }
            if (!matches.contains(AvailabilityZones.Match.SAME)) {
                Annotations.of(scope).addWarningV2("@trainingdata/training:mountTargetZoneUnknown",
                        scope.getNode().getPath() + ": cannot tell at synth whether subnet " + subnet.getNode().getPath()
                                + " is in an Availability Zone with a mount target of channel '" + channel + "'");
            }
        }
    }
}
