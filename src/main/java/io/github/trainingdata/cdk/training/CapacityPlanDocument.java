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
 * and the S3 fallback's channels and subnets when the policy has one. Values may be tokens; what a bound definition
 * reads of another stack when it starts (the data zone, the fallback's subnets and zones) is a placeholder that
 * {@code DeployedTrainingJobDefinition.capacityPlan} fills in from the publication.
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
        List<Map<String, Object>> attempts = new ArrayList<>();
        for (CapacityAttempts.Attempt attempt : CapacityAttempts.of(job.getSpec())) {
            Map<String, Object> next = new LinkedHashMap<>();
            next.put(CapacityPlan.WAIT_SECONDS, attempt.waitSeconds());
            next.put(CapacityPlan.INSTANCE_TYPE, attempt.instanceType());
            next.put(CapacityPlan.FROM_S3, attempt.fromS3());
            next.putAll(sourcesAndZones(job, attempt.fromS3()));
            attempts.add(next);
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put(CapacityPlan.FIRST_ATTEMPT, sourcesAndZones(job, false));
        document.put(CapacityPlan.ATTEMPTS, attempts);
        if (CapacityAttempts.s3Fallback(job.getSpec()) != null) {
            Map<String, Object> fallback = new LinkedHashMap<>();
            fallback.put(CapacityPlan.INPUT_DATA_CONFIG, CapacityAttempts.channelsOf(job, true).stream()
                    .map(TrainingChannel::render).toList());
            // A network of another stack gives them when the launch starts ({@code DataStoreBindings}).
            fallback.put(CapacityPlan.SUBNETS, job.getBinding().bindsFallbackSubnets()
                    ? job.getBinding().requestFallbackSubnets()
                    : CapacityAttempts.subnetsOf(job, true).stream().map(ISubnet::getSubnetId).toList());
            document.put(CapacityPlan.S3_FALLBACK, fallback);
        }
        return document;
    }

    /**
     * @return what an attempt reads ({@link CapacityPlan#DATA_SOURCES}) and where
     *     ({@link CapacityPlan#AVAILABILITY_ZONES})
     */
    private static Map<String, Object> sourcesAndZones(TrainingJobBlueprint job, boolean fromS3) {
        Map<String, Object> members = new LinkedHashMap<>();
        members.put(CapacityPlan.DATA_SOURCES, CapacityAttempts.dataSources(CapacityAttempts.channelsOf(job, fromS3)));
        // Subnets read at run time come with their zone: the launcher fills it in, as the state machine reads it.
        StoreBinding binding = job.getBinding();
        members.put(CapacityPlan.AVAILABILITY_ZONES, fromS3 && binding.bindsFallbackSubnets()
                ? binding.requestFallbackZones()
                : !fromS3 && binding.bindsSubnets() ? binding.requestZones()
                : CapacityAttempts.zonesOf(CapacityAttempts.subnetsOf(job, fromS3)));
        return members;
    }
}
