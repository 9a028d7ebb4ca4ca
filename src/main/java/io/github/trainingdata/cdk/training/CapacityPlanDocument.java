package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.launch.CapacityPlan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.services.ec2.ISubnet;

/**
 * The capacity policy as the SDK launcher reads it ({@link CapacityPlan}): what the first job reads and where, each
 * attempt after it ({@link CapacityAttempts#of}) with its wait, instance type, data sources and Availability Zones,
 * and the S3 fallback's channels and subnets when the policy has one. Values may be tokens.
 */
final class CapacityPlanDocument {
    /** Where the document holds request members: each is bounded like the request member it is. */
    static final Map<String, String> REQUEST_MEMBERS = Map.of(
            CapacityPlan.ATTEMPTS + "[]." + CapacityPlan.INSTANCE_TYPE, "ResourceConfig.InstanceType",
            CapacityPlan.S3_FALLBACK + "." + CapacityPlan.INPUT_DATA_CONFIG, "InputDataConfig",
            CapacityPlan.S3_FALLBACK + "." + CapacityPlan.SUBNETS, "VpcConfig.Subnets");

    private CapacityPlanDocument() {
    }

    /** @return the document of {@code job}'s policy, which the caller has checked is set */
    static Map<String, Object> of(TrainingJobBlueprint job) {
        TrainingJobSpec spec = job.getSpec();
        List<TrainingChannel> fallbackChannels = CapacityAttempts.fallbackChannels(spec);
        List<ISubnet> fallbackSubnets = fallbackChannels.isEmpty() ? List.of() : CapacityAttempts.fallbackSubnets(job);
        Map<String, Object> first = new LinkedHashMap<>();
        first.put(CapacityPlan.DATA_SOURCES, CapacityAttempts.dataSources(spec.getChannels()));
        first.put(CapacityPlan.AVAILABILITY_ZONES, CapacityAttempts.zonesOf(job.getPlacement().subnets()));
        List<Map<String, Object>> attempts = new ArrayList<>();
        for (CapacityAttempts.Attempt attempt : CapacityAttempts.of(spec)) {
            Map<String, Object> next = new LinkedHashMap<>();
            next.put(CapacityPlan.WAIT_SECONDS, attempt.waitSeconds());
            next.put(CapacityPlan.INSTANCE_TYPE, attempt.instanceType());
            next.put(CapacityPlan.FROM_S3, attempt.fromS3());
            next.put(CapacityPlan.DATA_SOURCES,
                    CapacityAttempts.dataSources(attempt.fromS3() ? fallbackChannels : spec.getChannels()));
            next.put(CapacityPlan.AVAILABILITY_ZONES,
                    CapacityAttempts.zonesOf(attempt.fromS3() ? fallbackSubnets : job.getPlacement().subnets()));
            attempts.add(next);
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put(CapacityPlan.FIRST_ATTEMPT, first);
        document.put(CapacityPlan.ATTEMPTS, attempts);
        if (!fallbackChannels.isEmpty()) {
            Map<String, Object> fallback = new LinkedHashMap<>();
            fallback.put(CapacityPlan.INPUT_DATA_CONFIG, fallbackChannels.stream().map(TrainingChannel::render).toList());
            fallback.put(CapacityPlan.SUBNETS, fallbackSubnets.stream().map(ISubnet::getSubnetId).toList());
            document.put(CapacityPlan.S3_FALLBACK, fallback);
        }
        return document;
    }
}
