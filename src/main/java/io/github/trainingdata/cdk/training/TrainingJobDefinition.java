package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.KeyPrefix;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Duration;
import software.constructs.IDependable;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.ssm.ParameterTier;
import software.amazon.awscdk.services.ssm.StringParameter;
import software.amazon.awscdk.services.stepfunctions.IStateMachine;
import software.constructs.Construct;

/**
 * A SageMaker training job, defined once and launched many times: the channels wired to the data
 * stores, the instances, the stopping condition, the VPC placement and a least-privilege execution role,
 * all checked against the CreateTrainingJob rules at synth.
 *
 * <p>The definition renders one canonical CreateTrainingJob request (without the job name) and
 * deploys it two ways: a Step Functions state machine whose task is
 * {@code sagemaker:createTrainingJob.sync} (each execution trains under a unique name) and an SSM
 * parameter holding the request as JSON, which {@code io.github.trainingdata.cdk.launch} turns into an
 * SDK call. When any file-system channel is present, the job runs in the training security group and in
 * subnets of the file system's Availability Zone.
 */
public class TrainingJobDefinition extends Construct {
    /** Most channels a job may have. */
    public static final int MAX_CHANNELS = 20;
    /** Longest job-name prefix: leaves room for a unique 37-character suffix within the 63-character limit. */
    public static final int MAX_JOB_NAME_PREFIX = 26;
    /** Longest training time SageMaker allows: 28 days. */
    public static final Duration MAX_RUNTIME = Duration.days(28);
    /** How long {@link #waitForTrainingJob(String)} waits at most: the longest a job may run, 28 days. */
    public static final Duration MAX_PREREQUISITE_WAIT = MAX_RUNTIME;
    private static final Duration MAX_WAIT_LIMIT = Duration.days(365);
    /**
     * Instance families with local NVMe storage, which take no EBS volume key (SageMaker developer guide,
     * "Instance storage volumes").
     */
    static final Set<String> LOCAL_STORAGE_FAMILIES = Set.of("c5d", "c6id", "g4dn", "g5", "g6", "g6e", "m5d",
            "m6id", "p3dn", "p4d", "p4de", "p5", "p5e", "p5en", "p6-b200", "p6-b300", "p6e-gb200", "r5d", "r6id", "trn1",
            "trn1n", "trn2");

    /** The longest warm-pool keep-alive (SageMaker guide, "Managed warm pools": 3600 s; the API model allows 21600). */
    private static final long MAX_KEEP_ALIVE_SECONDS = 3600;
    private static final Pattern JOB_NAME_PREFIX = Pattern.compile("[a-zA-Z0-9](-*[a-zA-Z0-9])*");
    private static final Pattern CHANNEL_NAME = Pattern.compile("[A-Za-z0-9.\\-_]{1,64}");
    private static final Pattern ENV_KEY = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Pattern INSTANCE_TYPE = Pattern.compile("ml\\.([a-z0-9-]+)\\.[a-z0-9]+");
    private static final Pattern ROLE_ARN = Pattern.compile("arn:aws[a-z-]*:iam::\\d{12}:role/?[a-zA-Z_0-9+=,.@\\-_/]+");

    private final TrainingJobDefinitionProps props;
    private final String jobNamePrefix;
    private final InputMode defaultInputMode;
    private final List<Channel> channels;
    private final TrainingNetwork network;
    private final List<ISubnet> subnets;
    private final List<ISecurityGroup> securityGroups;
    private final IRole role;
    private final Map<String, Object> request;
    private final TrainingStateMachine stateMachine;
    private final StringParameter requestParameter;

    /** Defines the training job and deploys its state machine and request parameter. */
    public TrainingJobDefinition(Construct scope, String id, TrainingJobDefinitionProps props) {
        super(scope, id);
        this.props = props;
        this.jobNamePrefix = props.getJobNamePrefix() != null ? props.getJobNamePrefix() : prefixFromId(id);
        this.defaultInputMode = props.getInputMode() != null ? props.getInputMode() : InputMode.FILE;
        this.channels = props.getChannels() != null ? props.getChannels() : List.of();
        if (props.getDataBucket() == null) {
            throw ConfigurationError.of(this, "dataBucket", null, "the bucket that receives model artifacts");
        }
        validateAlgorithm();
        validateResources();
        validateStopping();
        validateMaps();
        validateChannels();
        this.network = resolveNetwork();
        this.securityGroups = network == null ? List.of() : securityGroups();
        this.subnets = network == null ? List.of() : subnets();

        this.role = props.getRole() != null ? props.getRole() : Role.Builder.create(this, "ExecutionRole")
                .assumedBy(new ServicePrincipal("sagemaker.amazonaws.com"))
                .description("Execution role of SageMaker training jobs defined by " + getNode().getPath())
                .build();
        validateRoleArn();
        grantExecutionRole();

        this.request = Collections.unmodifiableMap(new TrainingJobRequest(this).render());
        if (Boolean.FALSE.equals(props.getDeploy())) {
            this.stateMachine = null;
            this.requestParameter = null;
            return;
        }
        this.stateMachine = new TrainingStateMachine(this, "StateMachine", this);
        this.requestParameter = StringParameter.Builder.create(this, "Request")
                .description("CreateTrainingJob request (without TrainingJobName) of " + getNode().getPath())
                .stringValue(Stack.of(this).toJsonString(request))
                .tier(ParameterTier.INTELLIGENT_TIERING)
                .build();
        CfnOutput.Builder.create(this, "StateMachineArn").value(stateMachine.getStateMachine().getStateMachineArn())
                .description("Start an execution to train: each execution runs one job").build();
        CfnOutput.Builder.create(this, "RequestParameterName").value(requestParameter.getParameterName())
                .description("SSM parameter with the CreateTrainingJob request JSON (for the SDK launcher)").build();
    }

    /**
     * Makes every execution wait, before training, until the named SageMaker training job has completed, for at
     * most {@link #MAX_PREREQUISITE_WAIT} (28 days, the longest a job may run); see
     * {@link #waitForTrainingJob(String, Duration)}.
     *
     * @param trainingJobName the job to wait for (may be a deploy-time token)
     */
    public void waitForTrainingJob(String trainingJobName) {
        waitForTrainingJob(trainingJobName, MAX_PREREQUISITE_WAIT);
    }

    /**
     * Makes every execution wait, before training, until the named SageMaker training job has completed, and
     * fail if it failed, was stopped, does not exist, or is still running after {@code maxWait} (counted from
     * the start of waiting, shared by all jobs waited for). The preload uses this so that no job starts on a
     * cold cache when the deploy did not wait for the warm-up.
     *
     * <p>The execution polls the job every minute for the first 20 minutes, then doubles the interval each time
     * the time waited reaches 20 intervals, so a completion is noticed within about a tenth of the time already
     * waited and a year of waiting takes fewer than 200 polls (under 10,000 of Step Functions' 25,000 history
     * events even if every poll needs all its retries). Throttling, server errors and timeouts of a poll are
     * retried with backoff.
     *
     * @param trainingJobName the job to wait for (may be a deploy-time token)
     * @param maxWait how long to wait at most: from 1 minute to 365 days (a standard execution runs for at most
     *                a year); for example the job's maximum runtime plus its start-up
     */
    public void waitForTrainingJob(String trainingJobName, Duration maxWait) {
        requireDeployed("waitForTrainingJob");
        long seconds = maxWait.toSeconds().longValue();
        if (seconds < 60 || seconds > MAX_WAIT_LIMIT.toSeconds().longValue()) {
            throw ConfigurationError.of(this, "maxWait (waitForTrainingJob)", maxWait.toHumanString(),
                    "1 minute to 365 days (a standard Step Functions execution runs for at most a year)");
        }
        stateMachine.waitFor(trainingJobName, seconds);
    }

    /**
     * Deploys the state machine and the request parameter only after {@code dependable} (for example a
     * preload that must finish first).
     *
     * @param dependable what must be deployed first
     */
    public void deployAfter(IDependable dependable) {
        requireDeployed("deployAfter");
        stateMachine.getNode().addDependency(dependable);
        requestParameter.getNode().addDependency(dependable);
    }

    private void requireDeployed(String method) {
        if (stateMachine == null) {
            throw new IllegalStateException(getNode().getPath() + ": " + method
                    + " needs a deployed definition (deploy is false)");
        }
    }

    private static String prefixFromId(String id) {
        String cleaned = id.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        cleaned = cleaned.length() > MAX_JOB_NAME_PREFIX ? cleaned.substring(0, MAX_JOB_NAME_PREFIX) : cleaned;
        cleaned = cleaned.replaceAll("-+$", "");
        return cleaned.isEmpty() ? "training" : cleaned;
    }

    private void validateAlgorithm() {
        TrainingImage image = props.getTrainingImage();
        String algorithm = props.getAlgorithmName();
        if ((image == null) == (algorithm == null)) {
            throw ConfigurationError.of(this, "trainingImage", image == null ? "unset (and algorithmName unset)"
                    : "set together with algorithmName", "exactly one of trainingImage and algorithmName");
        }
        if (image != null && !Token.isUnresolved(image.getUri())) {
            if (image.getUri().length() > TrainingImage.MAX_LENGTH) {
                throw ConfigurationError.of(this, "trainingImage", image.getUri(),
                        "an image URI of at most " + TrainingImage.MAX_LENGTH + " characters");
            }
            if (image.getRepository() == null && image.parseUri() == null) {
                throw ConfigurationError.of(this, "trainingImage", image.getUri(),
                        "an Amazon ECR image URI <account>.dkr.ecr.<region>.amazonaws.com/<repository>[:<tag> or "
                                + "@sha256:<digest>]");
            }
        }
        checkStrings("containerEntrypoint", props.getContainerEntrypoint());
        checkStrings("containerArguments", props.getContainerArguments());
    }

    private void checkStrings(String field, List<String> values) {
        if (values == null) {
            return;
        }
        if (values.isEmpty() || values.size() > 100) {
            throw ConfigurationError.of(this, field, values.size() + " strings", "1 to 100 strings");
        }
        for (int i = 0; i < values.size(); i++) {
            String v = values.get(i);
            if (!Token.isUnresolved(v) && v.length() > 256) {
                throw ConfigurationError.of(this, field + "[" + i + "]", v, "a string of at most 256 characters");
            }
        }
    }

    private void validateResources() {
        String type = props.getInstanceType();
        if (type == null) {
            throw ConfigurationError.of(this, "instanceType", null, "an instance type such as ml.p3.2xlarge");
        }
        var typeMatch = INSTANCE_TYPE.matcher(type);
        if (!Token.isUnresolved(type) && !typeMatch.matches()) {
            throw ConfigurationError.of(this, "instanceType", type, "a SageMaker instance type ml.<family>.<size>");
        }
        if (props.getInstanceCount() != null && props.getInstanceCount() < 1) {
            throw ConfigurationError.of(this, "instanceCount", props.getInstanceCount(), "at least 1");
        }
        if (props.getVolumeSizeGiB() != null && props.getVolumeSizeGiB() < 1) {
            throw ConfigurationError.of(this, "volumeSizeGiB", props.getVolumeSizeGiB(), "at least 1 GiB");
        }
        if (props.getVolumeKey() != null && !Token.isUnresolved(type) && LOCAL_STORAGE_FAMILIES.contains(typeMatch.group(1))) {
            throw ConfigurationError.of(this, "volumeKey", "set for " + type, "unset for instance families with "
                    + "local NVMe storage (" + String.join(", ", new java.util.TreeSet<>(LOCAL_STORAGE_FAMILIES))
                    + "): their volumes are encrypted by the instance hardware");
        }
        if (!Token.isUnresolved(jobNamePrefix) && (jobNamePrefix.length() > MAX_JOB_NAME_PREFIX
                || !JOB_NAME_PREFIX.matcher(jobNamePrefix).matches())) {
            throw ConfigurationError.of(this, "jobNamePrefix", jobNamePrefix, "1 to " + MAX_JOB_NAME_PREFIX
                    + " characters matching [a-zA-Z0-9](-*[a-zA-Z0-9])*, leaving room for a unique suffix");
        }
        checkPrefix("outputPrefix", outputPrefix());
        if (props.getCheckpointPrefix() != null) {
            checkPrefix("checkpointPrefix", props.getCheckpointPrefix());
        } else if (props.getCheckpointLocalPath() != null) {
            throw ConfigurationError.of(this, "checkpointLocalPath", props.getCheckpointLocalPath(),
                    "unset unless checkpointPrefix is set (CheckpointConfig needs its S3 location)");
        }
    }

    private void checkPrefix(String field, String prefix) {
        KeyPrefix.check(this, field, prefix);
        if (!Token.isUnresolved(prefix) && prefix.isEmpty()) {
            throw ConfigurationError.of(this, field, prefix, "a non-empty key prefix (never the bucket root)");
        }
    }

    private void validateStopping() {
        Duration runtime = maxRuntime();
        long seconds = runtime.toSeconds().longValue();
        if (seconds < 1 || seconds > MAX_RUNTIME.toSeconds().longValue()) {
            throw ConfigurationError.of(this, "maxRuntime", runtime.toHumanString(), "1 second to 28 days");
        }
        if (props.getMaxWait() != null && !isSpot()) {
            throw ConfigurationError.of(this, "maxWait", props.getMaxWait().toHumanString(),
                    "unset unless managedSpot is true (it bounds waiting for spot capacity)");
        }
        if (props.getMaxWait() != null && props.getMaxWait().toSeconds().longValue() < seconds) {
            throw ConfigurationError.of(this, "maxWait", props.getMaxWait().toHumanString(),
                    "at least maxRuntime (" + runtime.toHumanString() + ")");
        }
        Duration keepAlive = props.getKeepAlivePeriod();
        if (keepAlive != null && !Token.isUnresolved(keepAlive.toSeconds())) {
            long keepAliveSeconds = keepAlive.toSeconds().longValue();
            if (keepAliveSeconds > MAX_KEEP_ALIVE_SECONDS) {
                throw ConfigurationError.of(this, "keepAlivePeriod", keepAlive.toHumanString(),
                        "0 to " + MAX_KEEP_ALIVE_SECONDS + " seconds (SageMaker managed warm pools)");
            }
        }
        if (keepAlive != null && isSpot()) {
            throw ConfigurationError.of(this, "keepAlivePeriod", keepAlive.toHumanString(),
                    "unset when managedSpot is true (managed warm pools cannot be used with spot instances)");
        }
        if (isSpot() && props.getCheckpointPrefix() == null) {
            Annotations.of(this).addWarningV2("@trainingdata/training:spotWithoutCheckpoints",
                    getNode().getPath() + ": managed spot without checkpointPrefix restarts from scratch after "
                            + "every interruption");
        }
    }

    private void validateMaps() {
        Map<String, String> hp = props.getHyperParameters();
        if (hp != null) {
            checkCount("hyperParameters", hp.size(), 100);
            hp.forEach((k, v) -> {
                checkLength("hyperParameters key", k, 1, 256);
                checkLength("hyperParameters['" + k + "']", v, 0, 2500);
            });
        }
        Map<String, String> env = props.getEnvironment();
        if (env != null) {
            checkCount("environment", env.size(), 100);
            env.forEach((k, v) -> {
                if (!ENV_KEY.matcher(k).matches() || k.length() > 512) {
                    throw ConfigurationError.of(this, "environment key", k,
                            "a name matching [a-zA-Z_][a-zA-Z0-9_]* of at most 512 characters");
                }
                checkLength("environment['" + k + "']", v, 0, 512);
            });
        }
        Map<String, String> tags = props.getTags();
        if (tags != null) {
            checkCount("tags", tags.size(), 50);
            tags.forEach((k, v) -> {
                checkLength("tags key", k, 1, 128);
                checkLength("tags['" + k + "']", v, 0, 256);
            });
        }
        Map<String, String> metrics = props.getMetricDefinitions();
        if (metrics != null) {
            checkCount("metricDefinitions", metrics.size(), 40);
            metrics.forEach((k, v) -> {
                checkLength("metricDefinitions name", k, 1, 255);
                checkLength("metricDefinitions['" + k + "']", v, 1, 500);
            });
        }
    }

    private void checkCount(String field, int count, int max) {
        if (count > max) {
            throw ConfigurationError.of(this, field, count + " entries", "at most " + max);
        }
    }

    private void checkLength(String field, String value, int min, int max) {
        if (value == null || (!Token.isUnresolved(value) && (value.length() < min || value.length() > max))) {
            throw ConfigurationError.of(this, field, value, min + " to " + max + " characters");
        }
    }

    private void validateChannels() {
        if (channels.size() > MAX_CHANNELS) {
            throw ConfigurationError.of(this, "channels", channels.size() + " channels", "at most " + MAX_CHANNELS);
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < channels.size(); i++) {
            Channel channel = channels.get(i);
            ChannelRules rules = new ChannelRules(this, i);
            if (!CHANNEL_NAME.matcher(channel.getName()).matches()) {
                throw rules.error("name", channel.getName(), "1 to 64 characters of [A-Za-z0-9.-_]");
            }
            if (!names.add(channel.getName())) {
                throw rules.error("name", channel.getName(), "a name no other channel of the job uses");
            }
            channel.validate(rules, effectiveMode(channel));
        }
    }

    InputMode effectiveMode(Channel channel) {
        return channel.getInputMode() != null ? channel.getInputMode() : defaultInputMode;
    }

    private TrainingNetwork resolveNetwork() {
        TrainingNetwork chosen = props.getNetwork();
        for (int i = 0; i < channels.size(); i++) {
            TrainingNetwork own = channels.get(i).network();
            if (own == null) {
                continue;
            }
            if (chosen == null) {
                chosen = own;
            } else if (chosen != own) {
                throw ConfigurationError.of(this, "channels[" + i + "]", channels.get(i).getName(),
                        "a store in the job's network " + chosen.getNode().getPath() + " (it is in "
                                + own.getNode().getPath() + "): a job runs in one VPC");
            }
        }
        if (chosen == null && props.getVpcSubnets() != null) {
            throw ConfigurationError.of(this, "vpcSubnets", "set without a network",
                    "unset unless a network is given or a file-system channel brings one");
        }
        return chosen;
    }

    private List<ISecurityGroup> securityGroups() {
        List<ISecurityGroup> groups = new ArrayList<>();
        groups.add(network.getTrainingSecurityGroup());
        if (props.getSecurityGroups() != null) {
            groups.addAll(props.getSecurityGroups());
        }
        if (groups.size() > 5) {
            throw ConfigurationError.of(this, "securityGroups", groups.size() + " groups with the training group",
                    "at most 4 more than the network's training group (5 in all)");
        }
        return groups;
    }

    private List<ISubnet> subnets() {
        List<ISubnet> chosen = props.getVpcSubnets() != null
                ? network.getVpc().selectSubnets(props.getVpcSubnets()).getSubnets()
                : List.of(network.getDataSubnet());
        if (chosen.isEmpty() || chosen.size() > 16) {
            throw ConfigurationError.of(this, "vpcSubnets", chosen.size() + " subnets", "1 to 16 subnets");
        }
        for (int c = 0; c < channels.size(); c++) {
            String zone = channels.get(c).pinnedAvailabilityZone();
            if (zone == null) {
                continue;
            }
            for (ISubnet subnet : chosen) {
                AvailabilityZones.Match match = AvailabilityZones.compare(this, subnet.getAvailabilityZone(), zone);
                if (match == AvailabilityZones.Match.DIFFERENT) {
                    throw ConfigurationError.of(this, "vpcSubnets", subnet.getNode().getPath(),
                            "subnets in the Availability Zone of channel '" + channels.get(c).getName()
                                    + "' (its file system lives in one AZ; SageMaker must run there to mount it)");
                }
                if (match == AvailabilityZones.Match.UNKNOWN) {
                    Annotations.of(this).addWarningV2("@trainingdata/training:subnetZoneUnknown",
                            getNode().getPath() + ": cannot tell at synth whether subnet " + subnet.getNode().getPath()
                                    + " is in the Availability Zone of channel '" + channels.get(c).getName()
                                    + "'; the job fails to mount it if not");
                }
            }
        }
        for (int c = 0; c < channels.size(); c++) {
            List<String> zones = channels.get(c).reachableZones();
            if (zones != null) {
                checkMountTargets(chosen, channels.get(c).getName(), zones);
            }
        }
        return chosen;
    }

    /** Every training subnet must be in an AZ where the regional EFS file system has a mount target. */
    private void checkMountTargets(List<ISubnet> chosen, String channel, List<String> zones) {
        for (ISubnet subnet : chosen) {
            List<AvailabilityZones.Match> matches = zones.stream()
                    .map(zone -> AvailabilityZones.compare(this, subnet.getAvailabilityZone(), zone)).toList();
            if (matches.stream().allMatch(m -> m == AvailabilityZones.Match.DIFFERENT)) {
                throw ConfigurationError.of(this, "vpcSubnets", subnet.getNode().getPath(),
                        "subnets in an Availability Zone where the EFS file system of channel '" + channel
                                + "' has a mount target (the zones of its network's storage subnets)");
            }
            if (!matches.contains(AvailabilityZones.Match.SAME)) {
                Annotations.of(this).addWarningV2("@trainingdata/training:mountTargetZoneUnknown",
                        getNode().getPath() + ": cannot tell at synth whether subnet " + subnet.getNode().getPath()
                                + " is in an Availability Zone with a mount target of channel '" + channel + "'");
            }
        }
    }

    private void validateRoleArn() {
        String arn = role.getRoleArn();
        if (!Token.isUnresolved(arn) && !ROLE_ARN.matcher(arn).matches()) {
            throw ConfigurationError.of(this, "role", arn, "an IAM role ARN arn:aws:iam::<12-digit account>:role/<name>");
        }
    }

    private void grantExecutionRole() {
        ExecutionPermissions permissions = new ExecutionPermissions();
        for (Channel channel : channels) {
            channel.addPermissions(permissions);
        }
        TrainingDataBucket out = props.getDataBucket();
        permissions.write(out.getBucket(), outputPrefix());
        if (props.getCheckpointPrefix() != null) {
            permissions.sync(out.getBucket(), props.getCheckpointPrefix());
        }
        if (props.getVolumeKey() != null) {
            permissions.volumeKey(props.getVolumeKey());
        }
        permissions.applyTo(this, role, props.getTrainingImage(), network != null);
    }

    String outputPrefix() {
        return props.getOutputPrefix() != null ? props.getOutputPrefix() : "training-output";
    }

    Duration maxRuntime() {
        return props.getMaxRuntime() != null ? props.getMaxRuntime() : Duration.days(1);
    }

    boolean isSpot() {
        return Boolean.TRUE.equals(props.getManagedSpot());
    }

    TrainingJobDefinitionProps props() {
        return props;
    }

    InputMode defaultInputMode() {
        return defaultInputMode;
    }

    List<ISubnet> vpcSubnets() {
        return subnets;
    }

    List<ISecurityGroup> vpcSecurityGroups() {
        return securityGroups;
    }

    /** @return the channels, in order */
    public List<Channel> getChannels() {
        return channels;
    }

    /** @return the job-name prefix; each job is named {@code <prefix>-<unique suffix>} */
    public String getJobNamePrefix() {
        return jobNamePrefix;
    }

    /** @return the network the job runs in, or null when it runs without a VPC */
    public TrainingNetwork getNetwork() {
        return network;
    }

    /** @return the execution role */
    public IRole getRole() {
        return role;
    }

    /**
     * The canonical CreateTrainingJob request without {@code TrainingJobName}: PascalCase API members in
     * a fixed order, values may be tokens. Every output of the definition renders this one document.
     *
     * @return the request (unmodifiable)
     */
    public Map<String, Object> getRequest() {
        return request;
    }

    /** @return the state machine that runs one training job per execution, or null when not deployed */
    public IStateMachine getStateMachine() {
        return stateMachine == null ? null : stateMachine.getStateMachine();
    }

    /** @return the training image, or null when the job uses an algorithm name */
    public TrainingImage getTrainingImage() {
        return props.getTrainingImage();
    }

    /** @return the bucket that receives the model artifacts */
    public TrainingDataBucket getDataBucket() {
        return props.getDataBucket();
    }

    /** @return the key prefix, from the bucket root, under which model artifacts go */
    public String getOutputPrefix() {
        return outputPrefix();
    }

    /** @return the SSM parameter holding the request as JSON, or null when not deployed */
    public StringParameter getRequestParameter() {
        return requestParameter;
    }
}
