package io.github.trainingdata.cdk.training;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.amazon.awscdk.services.kms.IKey;

/**
 * Renders a {@link TrainingJobSpec}, placed and given its role, as the CreateTrainingJob request body without
 * {@code TrainingJobName}: API member names, a fixed member order, optional members left out. What a job reads of a
 * cache in another stack is a placeholder ({@link StoreBinding}).
 */
final class TrainingJobRequest {
    private final TrainingJobSpec spec;

    private TrainingJobRequest(TrainingJobSpec spec) {
        this.spec = spec;
    }

    /** @return the request of {@code spec} running in {@code placement} as {@code roleArn} */
    static Map<String, Object> render(TrainingJobSpec spec, JobPlacement placement, String roleArn,
            StoreBinding binding) {
        TrainingJobRequest renderer = new TrainingJobRequest(spec);
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("AlgorithmSpecification", renderer.algorithm());
        request.put("RoleArn", roleArn);
        if (!spec.getChannels().isEmpty()) {
            List<Object> channels = new ArrayList<>();
            for (int i = 0; i < spec.getChannels().size(); i++) {
                channels.add(binding.requestChannel(i, spec.getChannels().get(i)));
            }
            request.put("InputDataConfig", channels);
        }
        request.put("OutputDataConfig", renderer.output());
        request.put("ResourceConfig", renderer.resources());
        request.put("StoppingCondition", renderer.stopping());
        if (placement.network() != null) {
            Map<String, Object> vpc = new LinkedHashMap<>();
            List<String> groups = new ArrayList<>(placement.securityGroups().stream()
                    .map(ISecurityGroup::getSecurityGroupId).toList());
            if (binding.bindsSecurityGroup()) {
                groups.set(0, binding.requestSecurityGroup());
            }
            vpc.put("SecurityGroupIds", groups);
            vpc.put("Subnets", binding.bindsSubnets() ? binding.requestSubnets()
                    : placement.subnets().stream().map(ISubnet::getSubnetId).toList());
            request.put("VpcConfig", vpc);
        }
        putIfPresent(request, "HyperParameters", spec.getHyperParameters());
        putIfPresent(request, "Environment", spec.getEnvironment());
        if (spec.getMaximumRetryAttempts() != null) {
            request.put("RetryStrategy", Map.of("MaximumRetryAttempts", spec.getMaximumRetryAttempts()));
        }
        if (spec.isManagedSpot()) {
            request.put("EnableManagedSpotTraining", true);
        }
        if (spec.getCheckpointPrefix() != null) {
            Map<String, Object> checkpoint = new LinkedHashMap<>();
            checkpoint.put("S3Uri", renderer.s3Uri(spec.getCheckpointPrefix()));
            if (spec.getCheckpointLocalPath() != null) {
                checkpoint.put("LocalPath", spec.getCheckpointLocalPath());
            }
            request.put("CheckpointConfig", checkpoint);
        }
        if (spec.isNetworkIsolation()) {
            request.put("EnableNetworkIsolation", true);
        }
        if (spec.isInterContainerTrafficEncryption()) {
            request.put("EnableInterContainerTrafficEncryption", true);
        }
        if (!spec.getTags().isEmpty()) {
            List<Map<String, Object>> tags = new ArrayList<>();
            spec.getTags().forEach((k, v) -> tags.add(pair("Key", k, "Value", v)));
            request.put("Tags", tags);
        }
        return request;
    }

    private Map<String, Object> algorithm() {
        Map<String, Object> algorithm = new LinkedHashMap<>();
        if (spec.getTrainingImage() != null) {
            algorithm.put("TrainingImage", spec.getTrainingImage().getUri());
        } else {
            algorithm.put("AlgorithmName", spec.getAlgorithmName());
        }
        algorithm.put("TrainingInputMode", spec.getInputMode().apiValue());
        if (!spec.getMetricDefinitions().isEmpty()) {
            List<Map<String, Object>> metrics = new ArrayList<>();
            spec.getMetricDefinitions().forEach((name, regex) -> metrics.add(pair("Name", name, "Regex", regex)));
            algorithm.put("MetricDefinitions", metrics);
        }
        if (spec.getContainerEntrypoint() != null) {
            algorithm.put("ContainerEntrypoint", spec.getContainerEntrypoint());
        }
        if (spec.getContainerArguments() != null) {
            algorithm.put("ContainerArguments", spec.getContainerArguments());
        }
        return algorithm;
    }

    private Map<String, Object> output() {
        Map<String, Object> output = new LinkedHashMap<>();
        output.put("S3OutputPath", s3Uri(spec.getOutputPrefix()));
        IKey key = spec.getOutputBucket().getEncryptionKey();
        if (key != null) {
            output.put("KmsKeyId", key.getKeyArn());
        }
        return output;
    }

    private Map<String, Object> resources() {
        Map<String, Object> resources = new LinkedHashMap<>();
        resources.put("InstanceType", spec.getInstanceType());
        resources.put("InstanceCount", spec.getInstanceCount());
        resources.put("VolumeSizeInGB", spec.getVolumeSizeGiB());
        if (spec.getVolumeKey() != null) {
            resources.put("VolumeKmsKeyId", spec.getVolumeKey().getKeyArn());
        }
        if (spec.getKeepAlivePeriod() != null) {
            resources.put("KeepAlivePeriodInSeconds", spec.getKeepAlivePeriod().toSeconds());
        }
        return resources;
    }

    private Map<String, Object> stopping() {
        Map<String, Object> stopping = new LinkedHashMap<>();
        stopping.put("MaxRuntimeInSeconds", spec.getMaxRuntime().toSeconds());
        if (spec.isManagedSpot()) {
            stopping.put("MaxWaitTimeInSeconds", spec.getMaxWait().toSeconds());
        }
        return stopping;
    }

    private String s3Uri(String keyPrefix) {
        return spec.getOutputBucket().uri(keyPrefix) + "/";
    }

    private static void putIfPresent(Map<String, Object> request, String member, Map<String, String> values) {
        if (!values.isEmpty()) {
            request.put(member, new LinkedHashMap<>(values));
        }
    }

    private static Map<String, Object> pair(String k1, Object v1, String k2, Object v2) {
        Map<String, Object> pair = new LinkedHashMap<>();
        pair.put(k1, v1);
        pair.put(k2, v2);
        return pair;
    }
}
