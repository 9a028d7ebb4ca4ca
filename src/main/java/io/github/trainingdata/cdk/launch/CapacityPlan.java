package io.github.trainingdata.cdk.launch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.sagemaker.model.Channel;

/**
 * A definition's capacity policy as its SSM parameter holds it (the definition's output
 * {@code CapacityPolicyParameterName}): what the launcher does when a job fails because SageMaker could not provision
 * its instances. Each attempt after the first job is a new job of the same request with another instance type, or
 * reading the S3 fallback's channels in the fallback's subnets; see
 * {@link TrainingJobLauncher#runWithCapacityPlan}.
 *
 * <p>The JSON: {@code {"FirstAttempt": {"DataSources": …, "AvailabilityZones": […]}, "Attempts": [{"WaitSeconds": 600,
 * "InstanceType": "ml.p4d.24xlarge", "FromS3": false, "DataSources": "FSxLustre+S3", "AvailabilityZones":
 * ["us-east-1a"]}, …], "S3Fallback": {"InputDataConfig": […], "Subnets": ["subnet-…"]}}}, {@code S3Fallback} only
 * when an attempt reads it.
 */
public final class CapacityPlan {
    /**
     * How the FailureReason of a job SageMaker could not place starts (a regular expression, the same in Java and
     * JSONata, to anchor at the start): {@code CapacityError: Unable to provision requested ML compute capacity...} or
     * {@code EC2InsufficientCapacityError: Instance type ... is temporarily unavailable...}. A failed script whose
     * message merely mentions a capacity error (an {@code AlgorithmError}) is not one. The launcher, the training state
     * machine and the preload all decide with it.
     */
    public static final String CAPACITY_FAILURE = "(EC2)?(Insufficient)?CapacityError";
    /** What the first job (the request as it is) reads and where it may run. */
    public static final String FIRST_ATTEMPT = "FirstAttempt";
    /** The attempts after the first job, in order. */
    public static final String ATTEMPTS = "Attempts";
    /** An attempt's wait before it, in seconds. */
    public static final String WAIT_SECONDS = "WaitSeconds";
    /** An attempt's instance type. */
    public static final String INSTANCE_TYPE = "InstanceType";
    /** Whether an attempt reads the S3 fallback. */
    public static final String FROM_S3 = "FromS3";
    /** The kinds of data source an attempt reads, joined by {@code +}. */
    public static final String DATA_SOURCES = "DataSources";
    /** The Availability Zones an attempt may run in. */
    public static final String AVAILABILITY_ZONES = "AvailabilityZones";
    /** The S3 fallback: the channels and subnets of the attempts that read S3 instead of Lustre. */
    public static final String S3_FALLBACK = "S3Fallback";
    /** The S3 fallback's channels, as CreateTrainingJob's {@code InputDataConfig}. */
    public static final String INPUT_DATA_CONFIG = "InputDataConfig";
    /** The S3 fallback's subnets, as CreateTrainingJob's {@code VpcConfig.Subnets}. */
    public static final String SUBNETS = "Subnets";

    private final String firstDataSources;
    private final List<String> firstAvailabilityZones;
    private final List<CapacityPlanAttempt> attempts;
    private final List<Channel> s3FallbackInputDataConfig;
    private final List<String> s3FallbackSubnets;

    private CapacityPlan(String firstDataSources, List<String> firstAvailabilityZones,
            List<CapacityPlanAttempt> attempts, List<Channel> s3FallbackInputDataConfig, List<String> s3FallbackSubnets) {
        this.firstDataSources = firstDataSources;
        this.firstAvailabilityZones = List.copyOf(firstAvailabilityZones);
        this.attempts = List.copyOf(attempts);
        this.s3FallbackInputDataConfig = List.copyOf(s3FallbackInputDataConfig);
        this.s3FallbackSubnets = List.copyOf(s3FallbackSubnets);
    }

    /**
     * Reads a plan.
     *
     * @param json the parameter's value
     * @return the plan
     * @throws IllegalArgumentException if the JSON is not a plan (the message names the JSON path): a member missing,
     *                                  unknown or of the wrong type, or an attempt reading an S3 fallback the plan
     *                                  does not have
     */
    public static CapacityPlan fromJson(String json) {
        JsonNode root;
        try {
            root = JsonNode.parser().parse(json);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("The capacity plan is not valid JSON: " + e.getMessage(), e);
        }
        Map<String, JsonNode> plan = object(root, "", Set.of(FIRST_ATTEMPT, ATTEMPTS, S3_FALLBACK));
        Map<String, JsonNode> first = object(required(plan, FIRST_ATTEMPT, ""), FIRST_ATTEMPT,
                Set.of(DATA_SOURCES, AVAILABILITY_ZONES));
        List<Channel> channels = List.of();
        List<String> subnets = List.of();
        JsonNode fallback = plan.get(S3_FALLBACK);
        if (fallback != null) {
            Map<String, JsonNode> members = object(fallback, S3_FALLBACK, Set.of(INPUT_DATA_CONFIG, SUBNETS));
            Map<String, JsonNode> request = new LinkedHashMap<>();
            request.put(INPUT_DATA_CONFIG, required(members, INPUT_DATA_CONFIG, S3_FALLBACK));
            channels = TrainingJobRequestJson.members(request, S3_FALLBACK).inputDataConfig();
            subnets = strings(required(members, SUBNETS, S3_FALLBACK), S3_FALLBACK + "." + SUBNETS);
        }
        List<CapacityPlanAttempt> attempts = new ArrayList<>();
        List<JsonNode> items = array(required(plan, ATTEMPTS, ""), ATTEMPTS);
        for (int i = 0; i < items.size(); i++) {
            String path = ATTEMPTS + "[" + i + "]";
            Map<String, JsonNode> attempt = object(items.get(i), path,
                    Set.of(WAIT_SECONDS, INSTANCE_TYPE, FROM_S3, DATA_SOURCES, AVAILABILITY_ZONES));
            JsonNode wait = required(attempt, WAIT_SECONDS, path);
            JsonNode fromS3 = required(attempt, FROM_S3, path);
            if (!wait.isNumber() || !wait.asNumber().matches("[0-9]{1,18}")) {
                throw new IllegalArgumentException(path + "." + WAIT_SECONDS + ": expected a whole number of seconds, "
                        + "got " + wait);
            }
            if (!fromS3.isBoolean()) {
                throw new IllegalArgumentException(path + "." + FROM_S3 + ": expected true or false, got " + fromS3);
            }
            if (fromS3.asBoolean() && fallback == null) {
                throw new IllegalArgumentException(path + "." + FROM_S3 + " is true, but the plan has no " + S3_FALLBACK);
            }
            attempts.add(new CapacityPlanAttempt(Long.parseLong(wait.asNumber()),
                    string(required(attempt, INSTANCE_TYPE, path), path + "." + INSTANCE_TYPE), fromS3.asBoolean(),
                    string(required(attempt, DATA_SOURCES, path), path + "." + DATA_SOURCES),
                    strings(required(attempt, AVAILABILITY_ZONES, path), path + "." + AVAILABILITY_ZONES)));
        }
        return new CapacityPlan(
                string(required(first, DATA_SOURCES, FIRST_ATTEMPT), FIRST_ATTEMPT + "." + DATA_SOURCES),
                strings(required(first, AVAILABILITY_ZONES, FIRST_ATTEMPT), FIRST_ATTEMPT + "." + AVAILABILITY_ZONES),
                attempts, channels, subnets);
    }

    /**
     * Where a policy goes on after SageMaker refused attempt {@code index} for a quota (ResourceLimitExceeded, after
     * every retry): the next attempt on another instance type, since the attempts on the same type would meet the same
     * quota. The training state machine and the launcher both decide with it.
     *
     * @param instanceTypes the instance type of every attempt, the first job's first
     * @param index         the refused attempt (0 for the first job)
     * @return the index of the next attempt whose instance type differs, or -1 when there is none
     */
    public static int nextAfterQuota(List<String> instanceTypes, int index) {
        for (int next = index + 1; next < instanceTypes.size(); next++) {
            if (!instanceTypes.get(next).equals(instanceTypes.get(index))) {
                return next;
            }
        }
        return -1;
    }

    /** @return the kinds of data source the first job reads, e.g. {@code FSxLustre+S3} */
    public String firstDataSources() {
        return firstDataSources;
    }

    /** @return the Availability Zones the first job may run in */
    public List<String> firstAvailabilityZones() {
        return firstAvailabilityZones;
    }

    /** @return the attempts after the first job, in order */
    public List<CapacityPlanAttempt> attempts() {
        return attempts;
    }

    /** @return the channels of the attempts that read S3 (empty without an S3 fallback) */
    public List<Channel> s3FallbackInputDataConfig() {
        return s3FallbackInputDataConfig;
    }

    /** @return the subnets of the attempts that read S3 (empty without an S3 fallback) */
    public List<String> s3FallbackSubnets() {
        return s3FallbackSubnets;
    }

    private static Map<String, JsonNode> object(JsonNode node, String path, Set<String> allowed) {
        if (!node.isObject()) {
            throw new IllegalArgumentException((path.isEmpty() ? "The capacity plan" : path) + ": expected an object");
        }
        for (String member : node.asObject().keySet()) {
            if (!allowed.contains(member)) {
                throw new IllegalArgumentException("Unknown member " + (path.isEmpty() ? member : path + "." + member)
                        + " in the capacity plan; allowed here: " + new TreeSet<>(allowed));
            }
        }
        return node.asObject();
    }

    private static JsonNode required(Map<String, JsonNode> members, String name, String path) {
        JsonNode value = members.get(name);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("The capacity plan has no " + (path.isEmpty() ? name : path + "." + name));
        }
        return value;
    }

    private static List<JsonNode> array(JsonNode node, String path) {
        if (!node.isArray()) {
            throw new IllegalArgumentException(path + ": expected an array");
        }
        return node.asArray();
    }

    private static String string(JsonNode node, String path) {
        if (!node.isString()) {
            throw new IllegalArgumentException(path + ": expected a string");
        }
        return node.asString();
    }

    private static List<String> strings(JsonNode node, String path) {
        List<JsonNode> items = array(node, path);
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            strings.add(string(items.get(i), path + "[" + i + "]"));
        }
        return strings;
    }
}
