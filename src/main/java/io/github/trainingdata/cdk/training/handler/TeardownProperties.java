package io.github.trainingdata.cdk.training.handler;

import io.github.trainingdata.cdk.launch.TrainingJobNames;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one training definition runs, and where its jobs hold network interfaces: one entry of the stack's teardown
 * custom resource's {@value #DEFINITIONS} ({@link #definitions}).
 *
 * @param stateMachineArn  the definition's state machine
 * @param jobNamePrefix    the prefix of the definition's job names
 * @param securityGroupIds the job's security groups, the network's training group first (empty outside a VPC)
 * @param subnetIds        every subnet the definition's jobs may run in: the job's own and, with a capacity policy's S3
 *                         fallback, the fallback's (empty outside a VPC, or when they are read at run time: any subnet)
 * @param jobLifetime      the longest a job of the definition may run or keep its warm pool after it was created: a
 *                         job created longer ago has ended and released its pool
 * @param roleArn          the definition's TeardownRole, whose credentials its calls use (every entry names one)
 */
record TeardownProperties(String stateMachineArn, String jobNamePrefix, List<String> securityGroupIds,
        List<String> subnetIds, Duration jobLifetime, String roleArn) {
    static final String DEFINITIONS = "Definitions";
    static final String ID = "Id";
    static final String STATE_MACHINE_ARN = "StateMachineArn";
    static final String JOB_NAME_PREFIX = "JobNamePrefix";
    static final String SECURITY_GROUP_IDS = "SecurityGroupIds";
    static final String SUBNET_IDS = "SubnetIds";
    static final String JOB_LIFETIME_SECONDS = "JobLifetimeSeconds";
    static final String ROLE_ARN = "RoleArn";
    /**
     * The lifetime assumed when an entry does not state it (a duration given as a deploy-time value): SageMaker's
     * longest runtime ("The maximum value is 28 days", API model, StoppingCondition), its longest keep-alive (21,600 s,
     * API model) and the day {@code TrainingTeardown} allows for a job's start and stop.
     */
    static final Duration LONGEST_LIFETIME = Duration.ofDays(28).plusSeconds(21_600).plusDays(1);

    /**
     * Reads and checks every definition of the stack's teardown.
     *
     * @param properties the custom resource's ResourceProperties
     * @return each definition by its {@value #ID} (its construct path), in the order given
     * @throws IllegalArgumentException naming the property that is missing or malformed
     */
    static Map<String, TeardownProperties> definitions(Map<?, ?> properties) {
        Object value = properties.get(DEFINITIONS);
        if (!(value instanceof List<?> list)) {
            throw new IllegalArgumentException("ResourceProperties." + DEFINITIONS + " must be a list of definitions, got '"
                    + value + "'");
        }
        Map<String, TeardownProperties> definitions = new LinkedHashMap<>();
        for (int i = 0; i < list.size(); i++) {
            String where = "ResourceProperties." + DEFINITIONS + "[" + i + "].";
            if (!(list.get(i) instanceof Map<?, ?> entry) || !(entry.get(ID) instanceof String id) || id.isEmpty()) {
                throw new IllegalArgumentException(where + ID + " must name the definition, got '" + list.get(i) + "'");
            }
            if (definitions.put(id, from(entry, where)) != null) {
                throw new IllegalArgumentException(where + ID + " '" + id + "' names a definition twice");
            }
        }
        return definitions;
    }

    /**
     * Reads and checks one definition.
     *
     * @param properties the definition's entry
     * @param where      how errors name the entry, e.g. {@code ResourceProperties.Definitions[0].}
     * @return the properties
     * @throws IllegalArgumentException naming the property that is missing or malformed
     */
    private static TeardownProperties from(Map<?, ?> properties, String where) {
        Object arn = properties.get(STATE_MACHINE_ARN);
        if (!(arn instanceof String text) || !text.startsWith("arn:") || !text.contains(":stateMachine:")) {
            throw new IllegalArgumentException(where + STATE_MACHINE_ARN
                    + " must be a state machine ARN, got '" + arn + "'");
        }
        Object prefix = properties.get(JOB_NAME_PREFIX);
        try {
            TrainingJobNames.requireValidPrefix(prefix instanceof String name ? name : null);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + JOB_NAME_PREFIX + ": " + e.getMessage(), e);
        }
        List<String> groups = ids(properties, SECURITY_GROUP_IDS, where);
        List<String> subnets = ids(properties, SUBNET_IDS, where);
        if (groups.isEmpty() && !subnets.isEmpty()) {
            throw new IllegalArgumentException(where + SECURITY_GROUP_IDS + " must be set with "
                    + SUBNET_IDS + " (both empty: a job outside a VPC; groups alone: jobs in subnets read at run time)");
        }
        Object role = properties.get(ROLE_ARN);
        if (!(role instanceof String roleArn && roleArn.startsWith("arn:") && roleArn.contains(":role/"))) {
            throw new IllegalArgumentException(where + ROLE_ARN + " must be an IAM role ARN, got '" + role + "'");
        }
        return new TeardownProperties(text, (String) prefix, groups, subnets, lifetime(properties, where), roleArn);
    }

    /** CloudFormation hands a custom resource's numbers over as strings: either is read. */
    private static Duration lifetime(Map<?, ?> properties, String where) {
        Object value = properties.get(JOB_LIFETIME_SECONDS);
        if (value == null) {
            return LONGEST_LIFETIME;
        }
        String text = String.valueOf(value);
        if (!text.matches("[1-9][0-9]{0,11}")) {
            throw new IllegalArgumentException(where + JOB_LIFETIME_SECONDS
                    + " must be a positive whole number of seconds, got '" + value + "'");
        }
        return Duration.ofSeconds(Long.parseLong(text));
    }

    private static List<String> ids(Map<?, ?> properties, String name, String where) {
        Object value = properties.get(name);
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list) || !list.stream().allMatch(id -> id instanceof String s && !s.isEmpty())) {
            throw new IllegalArgumentException(where + name + " must be a list of ids, got '"
                    + value + "'");
        }
        return list.stream().map(String.class::cast).toList();
    }

    /** @return whether the jobs run in a VPC (and so hold network interfaces there) */
    boolean inVpc() {
        return !securityGroupIds.isEmpty();
    }
}
