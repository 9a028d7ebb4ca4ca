package io.github.trainingdata.cdk.training;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.amazon.awscdk.services.kms.IKey;

/**
 * Renders a validated {@link TrainingJobDefinition} as the CreateTrainingJob request body without
 * {@code TrainingJobName}: API member names, a fixed member order, optional members left out.
 */
final class TrainingJobRequest {
    private final TrainingJobDefinition definition;
    private final TrainingJobDefinitionProps props;

    TrainingJobRequest(TrainingJobDefinition definition) {
        this.definition = definition;
        this.props = definition.props();
    }

    Map<String, Object> render() {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("AlgorithmSpecification", algorithm());
        request.put("RoleArn", definition.getRole().getRoleArn());
        if (!definition.getChannels().isEmpty()) {
            request.put("InputDataConfig", definition.getChannels().stream().map(Channel::render).toList());
        }
        request.put("OutputDataConfig", output());
        request.put("ResourceConfig", resources());
        request.put("StoppingCondition", stopping());
        if (definition.getNetwork() != null) {
            Map<String, Object> vpc = new LinkedHashMap<>();
            vpc.put("SecurityGroupIds", definition.vpcSecurityGroups().stream().map(ISecurityGroup::getSecurityGroupId).toList());
            vpc.put("Subnets", definition.vpcSubnets().stream().map(ISubnet::getSubnetId).toList());
            request.put("VpcConfig", vpc);
        }
        putIfPresent(request, "HyperParameters", props.getHyperParameters());
        putIfPresent(request, "Environment", props.getEnvironment());
        if (definition.isSpot()) {
            request.put("EnableManagedSpotTraining", true);
        }
        if (props.getCheckpointPrefix() != null) {
            Map<String, Object> checkpoint = new LinkedHashMap<>();
            checkpoint.put("S3Uri", s3Uri(props.getCheckpointPrefix()));
            if (props.getCheckpointLocalPath() != null) {
                checkpoint.put("LocalPath", props.getCheckpointLocalPath());
            }
            request.put("CheckpointConfig", checkpoint);
        }
        if (Boolean.TRUE.equals(props.getNetworkIsolation())) {
            request.put("EnableNetworkIsolation", true);
        }
        if (Boolean.TRUE.equals(props.getInterContainerTrafficEncryption())) {
            request.put("EnableInterContainerTrafficEncryption", true);
        }
        if (props.getTags() != null && !props.getTags().isEmpty()) {
            List<Map<String, Object>> tags = new ArrayList<>();
            props.getTags().forEach((k, v) -> tags.add(pair("Key", k, "Value", v)));
            request.put("Tags", tags);
        }
        return request;
    }

    private Map<String, Object> algorithm() {
        Map<String, Object> algorithm = new LinkedHashMap<>();
        if (props.getTrainingImage() != null) {
            algorithm.put("TrainingImage", props.getTrainingImage().getUri());
        } else {
            algorithm.put("AlgorithmName", props.getAlgorithmName());
        }
        algorithm.put("TrainingInputMode", definition.defaultInputMode().apiValue());
        if (props.getMetricDefinitions() != null && !props.getMetricDefinitions().isEmpty()) {
            List<Map<String, Object>> metrics = new ArrayList<>();
            props.getMetricDefinitions().forEach((name, regex) -> metrics.add(pair("Name", name, "Regex", regex)));
            algorithm.put("MetricDefinitions", metrics);
        }
        if (props.getContainerEntrypoint() != null) {
            algorithm.put("ContainerEntrypoint", props.getContainerEntrypoint());
        }
        if (props.getContainerArguments() != null) {
            algorithm.put("ContainerArguments", props.getContainerArguments());
        }
        return algorithm;
    }

    private Map<String, Object> output() {
        Map<String, Object> output = new LinkedHashMap<>();
        output.put("S3OutputPath", s3Uri(definition.outputPrefix()));
        IKey key = props.getDataBucket().getBucket().getEncryptionKey();
        if (key != null) {
            output.put("KmsKeyId", key.getKeyArn());
        }
        return output;
    }

    private Map<String, Object> resources() {
        Map<String, Object> resources = new LinkedHashMap<>();
        resources.put("InstanceType", props.getInstanceType());
        resources.put("InstanceCount", props.getInstanceCount() != null ? props.getInstanceCount() : 1);
        resources.put("VolumeSizeInGB", props.getVolumeSizeGiB() != null ? props.getVolumeSizeGiB() : 50);
        if (props.getVolumeKey() != null) {
            resources.put("VolumeKmsKeyId", props.getVolumeKey().getKeyArn());
        }
        if (props.getKeepAlivePeriod() != null) {
            resources.put("KeepAlivePeriodInSeconds", props.getKeepAlivePeriod().toSeconds());
        }
        return resources;
    }

    private Map<String, Object> stopping() {
        Map<String, Object> stopping = new LinkedHashMap<>();
        stopping.put("MaxRuntimeInSeconds", definition.maxRuntime().toSeconds());
        if (definition.isSpot()) {
            stopping.put("MaxWaitTimeInSeconds", props.getMaxWait() != null
                    ? props.getMaxWait().toSeconds() : definition.maxRuntime().toSeconds());
        }
        return stopping;
    }

    private String s3Uri(String keyPrefix) {
        return props.getDataBucket().uri(keyPrefix) + "/";
    }

    private static void putIfPresent(Map<String, Object> request, String member, Map<String, String> values) {
        if (values != null && !values.isEmpty()) {
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
