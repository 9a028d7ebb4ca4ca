package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.limits.SageMakerLimits;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.StoreZone;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.constructs.IConstruct;

/**
 * Where a job runs: the network (given, or brought by the stores it reads), the security groups (the
 * network's training group first) and the subnets (the network's data subnet, or the given selection), checked so
 * that every store the job reads is reached from every subnet: in the zone a store requires (an error), in the zone it
 * prefers (a warning), where it has mount targets. Every store is asked alike, whether a channel or a direct read
 * reads it. A job without a network runs outside any VPC: no groups, no subnets, and no store with a zone.
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
            for (TrainingJobSpec.StoreRead read : spec.storeReads()) {
                StoreZone zone = read.store().getZone();
                if (zone != null && zone.isRequired()) {
                    throw ConfigurationError.of(TrainingJobRules.ZONE_WITHOUT_NETWORK, scope, "network", null,
                            "a TrainingNetwork for the job: the " + read.name() + " reads "
                                    + read.store().getNode().getPath() + ", which keeps its data in one zone ("
                                    + zone + "), and a job outside a VPC runs in a zone SageMaker picks");
                }
                if (zone != null) {
                    // A preferred zone (a directory bucket) is read from any zone, across zones.
                    Annotations.of(scope).addWarningV2("@trainingdata/training:outsideVpcPreferredZone",
                            scope.getNode().getPath() + ": the " + read.name() + " reads "
                                    + read.store().getNode().getPath() + ", which keeps its data in one zone; a job "
                                    + "outside a VPC runs in a zone SageMaker picks and may read across zones (slower, "
                                    + "and billed for the transfer): give the job or the store a network to run it "
                                    + "there");
                }
            }
            return OUTSIDE_VPC;
        }
        List<ISecurityGroup> groups = securityGroups(scope, spec, network);
        return new JobPlacement(network, groups, subnets(scope, spec, network));
    }

    private static TrainingNetwork network(IConstruct scope, TrainingJobSpec spec) {
        TrainingNetwork chosen = spec.getGivenNetwork();
        List<TrainingJobSpec.StoreRead> reads = spec.storeReads();
        int channels = spec.getChannels().size();
        for (int i = 0; i < reads.size(); i++) {
            TrainingNetwork own = reads.get(i).store().getNetwork();
            if (own == null) {
                continue;
            }
            if (chosen == null) {
                chosen = own;
            } else if (chosen != own) {
                boolean channel = i < channels;
                throw ConfigurationError.of(TrainingJobRules.ONE_NETWORK, scope,
                        channel ? "channels[" + i + "]" : "directReads[" + (i - channels) + "]",
                        channel ? spec.getChannels().get(i).getName()
                                : spec.getDirectReads().get(i - channels).getEnvironmentVariable(),
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
        for (TrainingJobSpec.StoreRead read : spec.storeReads()) {
            StoreZone zone = read.store().getZone();
            if (zone != null) {
                checkZone(scope, chosen, read.name(), zone);
            }
        }
        for (TrainingJobSpec.StoreRead read : spec.storeReads()) {
            List<String> zones = read.store().getReachableZones();
            if (zones != null) {
                checkMountTargets(scope, chosen, read.name(), zones);
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

    /**
     * Every training subnet must be in the zone a store requires (a Lustre or One Zone EFS file system), and should be
     * in the zone it prefers (a directory bucket: reads from elsewhere cross zones).
     */
    private static void checkZone(IConstruct scope, List<ISubnet> chosen, String reader, StoreZone zone) {
        for (ISubnet subnet : chosen) {
            AvailabilityZones.Match match = AvailabilityZones.compare(scope, subnet, zone);
            if (match == AvailabilityZones.Match.DIFFERENT && zone.isRequired()) {
                throw ConfigurationError.of(TrainingJobRules.SUBNETS_IN_LUSTRE_AZ, scope,
                        "vpcSubnets", subnet.getNode().getPath(),
                        "subnets in the Availability Zone of " + reader
                                + " (its store keeps its data in one zone; SageMaker must run there to reach it)");
            }
            if (match == AvailabilityZones.Match.DIFFERENT) {
                Annotations.of(scope).addWarningV2("@trainingdata/training:subnetOutsidePreferredZone",
                        scope.getNode().getPath() + ": subnet " + subnet.getNode().getPath() + " is not in the zone "
                                + "where the store of " + reader + " keeps its data; a job there reads across zones "
                                + "(slower, and billed for the transfer)");
            }
            if (match == AvailabilityZones.Match.UNKNOWN) {
                Annotations.of(scope).addWarningV2("@trainingdata/training:subnetZoneUnknown",
                        scope.getNode().getPath() + ": cannot tell at synth whether subnet " + subnet.getNode().getPath()
                                + " is in the Availability Zone of " + reader + "; "
                                + (zone.isRequired() ? "the job fails to mount it if not" : "it reads across zones if not"));
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
                        "subnets in an Availability Zone where the EFS file system of " + channel
                                + " has a mount target (the zones of its network's storage subnets)");
            }
            if (!matches.contains(AvailabilityZones.Match.SAME)) {
                Annotations.of(scope).addWarningV2("@trainingdata/training:mountTargetZoneUnknown",
                        scope.getNode().getPath() + ": cannot tell at synth whether subnet " + subnet.getNode().getPath()
                                + " is in an Availability Zone with a mount target of " + channel);
            }
        }
    }
}
