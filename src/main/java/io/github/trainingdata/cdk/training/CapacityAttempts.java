package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.internal.KeyPrefix;
import io.github.trainingdata.cdk.limits.SageMakerLimits;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.StoreZone;
import io.github.trainingdata.cdk.storage.LustreLocation;
import io.github.trainingdata.cdk.storage.TrainingDataStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import software.amazon.awscdk.services.ec2.ISubnet;

/**
 * The attempts a {@link CapacityPolicy} adds after the first job, in order: for each, the wait before it, the
 * instance type and whether it reads the Lustre channels' S3 locations instead; and those S3 channels.
 */
final class CapacityAttempts {
    /** One attempt after the first. */
    record Attempt(long waitSeconds, String instanceType, boolean fromS3) {
    }

    private CapacityAttempts() {
    }

    /** @return the attempts of the spec's policy (empty without one); the policy is checked already */
    static List<Attempt> of(TrainingJobSpec spec) {
        List<Attempt> attempts = new ArrayList<>();
        if (spec.getCapacityPolicy() == null) {
            return attempts;
        }
        String type = spec.getInstanceType();
        boolean fromS3 = false;
        for (CapacityStep step : spec.getCapacityPolicy().getSteps()) {
            switch (step.getKind()) {
                case WAIT_AND_RETRY -> {
                    long wait = step.getWait().toSeconds().longValue();
                    for (int i = 0; i < step.getAttempts().intValue(); i++) {
                        attempts.add(new Attempt(wait, type, fromS3));
                    }
                }
                case INSTANCE_TYPES -> {
                    for (String next : step.getInstanceTypes()) {
                        type = next;
                        attempts.add(new Attempt(0, type, fromS3));
                    }
                }
                case S3_FALLBACK -> {
                    fromS3 = true;
                    attempts.add(new Attempt(0, type, true));
                }
            }
        }
        return attempts;
    }

    /** @return the S3 fallback step of the spec's policy, or null */
    static CapacityStep s3Fallback(TrainingJobSpec spec) {
        if (spec.getCapacityPolicy() == null) {
            return null;
        }
        return spec.getCapacityPolicy().getSteps().stream()
                .filter(s -> s.getKind() == CapacityStep.Kind.S3_FALLBACK).findFirst().orElse(null);
    }

    /** Adds the grants the S3 fallback's channels need (each reads its dataset's prefix only). */
    static void addFallbackPermissions(ExecutionPermissions permissions, TrainingJobSpec spec) {
        List<TrainingChannel> given = spec.getChannels();
        for (TrainingChannel channel : fallbackChannels(spec)) {
            if (!given.contains(channel)) {
                channel.getStore().grantTraining(permissions, channel.storeAccess(), channel.grantedPath());
            }
        }
    }

    /**
     * The job's channels with each Lustre channel replaced by an S3 channel of the same name reading the S3
     * location its dataset mirrors, in the fallback's input mode; empty when the policy has no S3 fallback.
     */
    static List<TrainingChannel> fallbackChannels(TrainingJobSpec spec) {
        CapacityStep fallback = s3Fallback(spec);
        if (fallback == null) {
            return List.of();
        }
        List<TrainingChannel> channels = new ArrayList<>();
        for (TrainingChannel channel : spec.getChannels()) {
            if (channel instanceof LustreChannel lustre) {
                LustreLocation location = lustre.location();
                channels.add(S3Channel.builder(lustre.getName())
                        .dataBucket(location.getDataset().getDataBucket())
                        .path(KeyPrefix.join(location.getDataset().getPrefix(), location.getPath()))
                        .inputMode(fallback.getInputMode())
                        .build());
            } else {
                channels.add(channel);
            }
        }
        return channels;
    }

    /**
     * Where the S3 fallback may run: a storage subnet of the job's network in each Availability Zone that every
     * channel the fallback keeps and every direct read can be reached from (anywhere for a store that only prefers a
     * zone) (an EFS file system where it has a mount target; one whose mount
     * targets are unknown, an existing one, only in the job's own zones), at most 16 (VpcConfig's limit).
     */
    static List<ISubnet> fallbackSubnets(TrainingJobBlueprint job) {
        return fallbackSubnets(job.getSpec(), job.getPlacement());
    }

    /** @return the S3 fallback's subnets of {@code spec} placed in {@code placement}, see above */
    static List<ISubnet> fallbackSubnets(TrainingJobSpec spec, JobPlacement placement) {
        TrainingNetwork network = placement.network();
        List<String> ownZones = zonesOf(placement.subnets());
        List<TrainingDataStore> stores = new ArrayList<>(fallbackChannels(spec).stream()
                .map(TrainingChannel::getStore).toList());
        spec.getDirectReads().forEach(read -> stores.add(read.getStore()));
        List<ISubnet> subnets = new ArrayList<>();
        for (ISubnet subnet : network.getVpc().selectSubnets(network.getStorageSubnets()).getSubnets()) {
            String zone = subnet.getAvailabilityZone();
            boolean reachable = stores.stream().allMatch(store -> reaches(store, zone, ownZones));
            if (reachable && subnets.size() < SageMakerLimits.SUBNETS.getMax().intValue()) {
                subnets.add(subnet);
            }
        }
        return subnets;
    }

    /** @return whether a job in {@code zone} reaches {@code store} ({@code ownZones}: where it is known to) */
    private static boolean reaches(TrainingDataStore store, String zone, List<String> ownZones) {
        if (store.getNetwork() == null) {
            return true;
        }
        StoreZone own = store.getZone();
        if (own != null && !own.isRequired()) {
            return true;
        }
        if (own != null && own.getZoneName() != null) {
            return own.getZoneName().equals(zone);
        }
        List<String> zones = store.getReachableZones();
        return zones != null ? zones.contains(zone) : ownZones.contains(zone);
    }

    /** @return the channels an attempt reads: the job's own, or (from S3) the S3 fallback's */
    static List<TrainingChannel> channelsOf(TrainingJobBlueprint job, boolean fromS3) {
        return fromS3 ? fallbackChannels(job.getSpec()) : job.getSpec().getChannels();
    }

    /** @return the subnets an attempt runs in: the job's own, or (from S3) the S3 fallback's */
    static List<ISubnet> subnetsOf(TrainingJobBlueprint job, boolean fromS3) {
        return fromS3 ? fallbackSubnets(job) : job.getPlacement().subnets();
    }

    /** @return the Availability Zones of {@code subnets}, each once, in order */
    static List<String> zonesOf(List<ISubnet> subnets) {
        return subnets.stream().map(ISubnet::getAvailabilityZone).distinct().toList();
    }

    /**
     * @return the kinds of data source {@code channels} read, each once in the order met, joined by '+': {@code S3},
     *     {@code FSxLustre}, {@code EFS} (SageMaker's names)
     */
    static String dataSources(List<TrainingChannel> channels) {
        return channels.stream().map(channel -> {
            Map<?, ?> source = (Map<?, ?>) channel.render().get("DataSource");
            Map<?, ?> fileSystem = (Map<?, ?>) source.get("FileSystemDataSource");
            return fileSystem != null ? String.valueOf(fileSystem.get("FileSystemType")) : "S3";
        }).distinct().collect(Collectors.joining("+"));
    }
}
