package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import io.github.trainingdata.cdk.limits.ApiLimit;
import io.github.trainingdata.cdk.limits.SageMakerLimits;
import io.github.trainingdata.cdk.internal.KeyPrefix;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.kms.IKey;
import software.constructs.IConstruct;

/**
 * The CreateTrainingJob rules over a {@link TrainingJobSpec}: each a function of the spec that throws a
 * {@link ConfigurationError} naming the job's path, the field, the value and what is allowed, or adds a warning.
 * Deploy-time values pass every literal check. Where the job runs is checked by {@link JobPlacement}.
 */
final class TrainingJobRules {
    static final SynthRule OUTPUT_DIRECTORY_BUCKET_KMS = SynthRule.of("TRAINING_OUTPUT_DIRECTORY_BUCKET_KMS",
            "TrainingJobDefinition", "outputBucket.encryptionKey",
            "no KMS key when the output bucket is a directory bucket",
            "SageMaker API reference, OutputDataConfig.KmsKeyId (KMS key is not supported for Amazon S3 Express One "
                    + "Zone; output there is encrypted with SSE-S3)");
    static final SynthRule CHECKPOINT_DIRECTORY_BUCKET = SynthRule.of("TRAINING_CHECKPOINT_DIRECTORY_BUCKET",
            "TrainingJobDefinition", "checkpointPrefix",
            "unset when the output bucket is a directory bucket",
            "library (checkpoint resumption lists a general purpose bucket; SageMaker documents no checkpoint "
                    + "location in a directory bucket)");
    static final SynthRule OUTPUT_BUCKET = SynthRule.of("TRAINING_OUTPUT_BUCKET", "TrainingJobDefinition",
            "outputBucket",
            "the bucket that receives model artifacts",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (OutputDataConfig)");
    static final SynthRule IMAGE_OR_ALGORITHM = SynthRule.of("TRAINING_IMAGE_OR_ALGORITHM", "TrainingJobDefinition",
            "trainingImage",
            "exactly one of trainingImage and algorithmName",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (AlgorithmSpecification)");
    static final SynthRule IMAGE_URI = SynthRule.of("TRAINING_IMAGE_URI", "TrainingJobDefinition", "trainingImage",
            "an image URI of at most 255 characters on one line",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (TrainingImage)");
    static final SynthRule IMAGE_ECR = SynthRule.of("TRAINING_IMAGE_ECR", "TrainingJobDefinition", "trainingImage",
            "an Amazon ECR image URI",
            "library (grants ECR pull permissions)");
    static final SynthRule INSTANCE_TYPE_REQUIRED = SynthRule.of("TRAINING_INSTANCE_TYPE_REQUIRED", "TrainingJobDefinition",
            "instanceType",
            "an instance type such as ml.p3.2xlarge",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (ResourceConfig.InstanceType)");
    static final SynthRule INSTANCE_TYPE_FORMAT = SynthRule.of("TRAINING_INSTANCE_TYPE", "TrainingJobDefinition",
            "instanceType",
            "one of the model's TrainingInstanceType values",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (ResourceConfig.InstanceType)");
    static final SynthRule VOLUME_KEY_NVME = SynthRule.of("TRAINING_VOLUME_KEY_NVME", "TrainingJobDefinition",
            "volumeKey",
            "unset for instance families with local NVMe storage",
            "SageMaker API reference, ResourceConfig.VolumeKmsKeyId");
    static final SynthRule CHECKPOINT_LOCAL_PATH = SynthRule.of("TRAINING_CHECKPOINT_LOCAL_PATH", "TrainingJobDefinition",
            "checkpointLocalPath",
            "unset unless checkpointPrefix is set",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (CheckpointConfig)");
    static final SynthRule PREFIX_NOT_ROOT = SynthRule.of("TRAINING_PREFIX_NOT_ROOT", "TrainingJobDefinition",
            "outputPrefix, checkpointPrefix",
            "a non-empty key prefix",
            "library (least privilege below a prefix)");
    static final SynthRule MAX_WAIT_SPOT = SynthRule.of("TRAINING_MAX_WAIT_SPOT", "TrainingJobDefinition", "maxWait",
            "unset unless managedSpot is true",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (StoppingCondition.MaxWaitTimeInSeconds)");
    static final SynthRule MAX_WAIT_RUNTIME = SynthRule.of("TRAINING_MAX_WAIT_RUNTIME", "TrainingJobDefinition",
            "maxWait",
            "at least maxRuntime",
            "SageMaker API reference, StoppingCondition");
    static final SynthRule MAX_WAIT_EXECUTION = SynthRule.of("TRAINING_MAX_WAIT_EXECUTION", "TrainingJobDefinition",
            "maxWait (launch method)",
            "1 minute to 365 days",
            "Step Functions quotas (a standard execution runs at most a year)");
    static final SynthRule KEEP_ALIVE_RANGE = SynthRule.of("TRAINING_KEEP_ALIVE_RANGE", "TrainingJobDefinition",
            "keepAlivePeriod",
            "0 to 3600 seconds",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (ResourceConfig.KeepAlivePeriodInSeconds)");
    static final SynthRule KEEP_ALIVE_SPOT = SynthRule.of("TRAINING_KEEP_ALIVE_SPOT", "TrainingJobDefinition",
            "keepAlivePeriod",
            "unset with managedSpot",
            "SageMaker Developer Guide, managed warm pools");
    static final SynthRule DURATION_SECONDS = SynthRule.of("TRAINING_DURATION_SECONDS", "TrainingJobDefinition",
            "maxRuntime, maxWait, keepAlivePeriod",
            "a whole number of seconds (a token as Duration.seconds)",
            "aws-cdk-lib Duration.toSeconds");
    static final SynthRule DURATION_LIMIT = SynthRule.of("TRAINING_DURATION_LIMIT", "TrainingJobDefinition",
            "maxRuntime, maxWait",
            "the API model's range (maxRuntime 1 s to 28 days)",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (StoppingCondition)");
    static final SynthRule CHANNEL_COUNT = SynthRule.of("TRAINING_CHANNEL_COUNT", "TrainingJobDefinition", "channels",
            "at most 20 channels",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (InputDataConfig)");
    static final SynthRule CHANNEL_NAME = SynthRule.of("TRAINING_CHANNEL_NAME", "TrainingJobDefinition",
            "channels[i].name",
            "1 to 64 of [A-Za-z0-9.\\-_]",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (Channel.ChannelName)");
    static final SynthRule CHANNEL_NAME_UNIQUE = SynthRule.of("TRAINING_CHANNEL_NAME_UNIQUE", "TrainingJobDefinition",
            "channels[i].name",
            "a name no other channel of the job uses",
            "SageMaker API reference, InputDataConfig");
    static final SynthRule STRING_LIMIT = SynthRule.of("TRAINING_STRING_LIMIT", "TrainingJobDefinition",
            "entrypoint, arguments, hyperParameters, environment, tags, metricDefinitions, jobNamePrefix, keys, role, subnet and security-group ids",
            "the member's length and pattern",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (via limits.SageMakerLimits)");
    static final SynthRule NUMBER_LIMIT = SynthRule.of("TRAINING_NUMBER_LIMIT", "TrainingJobDefinition",
            "instanceCount, volumeSizeGiB",
            "the member's range (whole numbers, at least 1)",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (ResourceConfig)");
    static final SynthRule COUNT_LIMIT = SynthRule.of("TRAINING_COUNT_LIMIT", "TrainingJobDefinition",
            "entrypoint, arguments, hyperParameters, environment, tags, metricDefinitions",
            "the member's item count",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (via limits.SageMakerLimits)");
    static final SynthRule ONE_NETWORK = SynthRule.of("TRAINING_ONE_NETWORK", "TrainingJobDefinition", "channels[i]",
            "file-system channels in the job's one network",
            "SageMaker API reference, VpcConfig (a job runs in one VPC)");
    static final SynthRule SUBNETS_WITHOUT_NETWORK = SynthRule.of("TRAINING_SUBNETS_WITHOUT_NETWORK", "TrainingJobDefinition",
            "vpcSubnets",
            "unset unless a network is given or a channel brings one",
            "library");
    static final SynthRule SECURITY_GROUPS = SynthRule.of("TRAINING_SECURITY_GROUPS", "TrainingJobDefinition",
            "securityGroups",
            "at most 4 beside the training group (5 in all)",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (VpcConfig.SecurityGroupIds)");
    static final SynthRule SUBNET_COUNT = SynthRule.of("TRAINING_SUBNET_COUNT", "TrainingJobDefinition", "vpcSubnets",
            "1 to 16 subnets",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (VpcConfig.Subnets)");
    static final SynthRule SUBNETS_IN_VPC = SynthRule.of("TRAINING_SUBNETS_IN_VPC", "TrainingJobDefinition",
            "vpcSubnets",
            "a selection of subnets the network's VPC has",
            "aws-cdk-lib Vpc.selectSubnets");
    static final SynthRule SUBNETS_IN_LUSTRE_AZ = SynthRule.of("TRAINING_SUBNETS_IN_LUSTRE_AZ", "TrainingJobDefinition",
            "vpcSubnets",
            "subnets in the AZ a store requires (Lustre, One Zone EFS, a store of your own)",
            "SageMaker Developer Guide, FSx for Lustre and EFS as training data sources");
    static final SynthRule ZONE_WITHOUT_NETWORK = SynthRule.of("TRAINING_ZONE_WITHOUT_NETWORK", "TrainingJobDefinition",
            "network",
            "a network when a store the job reads requires one zone (a preferred zone only warns)",
            "library (a job without VpcConfig runs in a zone SageMaker picks)");
    static final SynthRule DIRECT_READ_STORE = SynthRule.of("TRAINING_DIRECT_READ_STORE", "TrainingJobDefinition",
            "directReads[i].store",
            "the S3 store the training code reads",
            "library");
    static final SynthRule DIRECT_READ_VARIABLE = SynthRule.of("TRAINING_DIRECT_READ_VARIABLE", "TrainingJobDefinition",
            "directReads[i].environmentVariable",
            "a variable neither the job's environment nor another direct read sets",
            "library");
    static final SynthRule SUBNETS_IN_EFS_AZ = SynthRule.of("TRAINING_SUBNETS_IN_EFS_AZ", "TrainingJobDefinition",
            "vpcSubnets",
            "subnets in an AZ with a mount target of a regional EFS channel",
            "Amazon EFS User Guide, mount targets");

    /**
     * Instance families with local NVMe storage, which take no EBS volume key (SageMaker developer guide,
     * "Instance storage volumes").
     */
    private static final Set<String> LOCAL_STORAGE_FAMILIES = Set.of("c5d", "c6id", "g4dn", "g5", "g6", "g6e", "m5d",
            "m6id", "p3dn", "p4d", "p4de", "p5", "p5e", "p5en", "p6-b200", "p6-b300", "p6e-gb200", "r5d", "r6id", "trn1",
            "trn1n", "trn2");
    private static final Pattern INSTANCE_TYPE = Pattern.compile("ml\\.([a-z0-9-]+)\\.[a-z0-9]+");

    private final IConstruct scope;
    private final TrainingJobSpec spec;

    private TrainingJobRules(IConstruct scope, TrainingJobSpec spec) {
        this.scope = scope;
        this.spec = spec;
    }

    /** Checks every rule of {@code spec} but the role's, in the order a reader meets the settings. */
    static void check(IConstruct scope, TrainingJobSpec spec) {
        TrainingJobRules rules = new TrainingJobRules(scope, spec);
        if (spec.getOutputBucket() == null) {
            throw ConfigurationError.of(OUTPUT_BUCKET, scope,
                    "outputBucket", null, "the bucket that receives model artifacts");
        }
        rules.algorithm();
        rules.resources();
        rules.storage();
        rules.stopping();
        rules.directReads();
        rules.maps();
        rules.channels();
        CapacityPolicyRules.check(scope, spec);
    }

    /** Checks the given execution role's ARN (a new role's is a token); checked once the job is placed. */
    static void checkRole(IConstruct scope, TrainingJobSpec spec) {
        if (spec.getRole() != null) {
            literal(scope, "role", spec.getRole().getRoleArn(), SageMakerLimits.ROLE_ARN,
                    "an IAM role ARN arn:aws:iam::<12-digit account>:role/<name>, ");
        }
    }

    private void algorithm() {
        TrainingImage image = spec.getTrainingImage();
        String algorithm = spec.getAlgorithmName();
        if ((image == null) == (algorithm == null)) {
            throw ConfigurationError.of(IMAGE_OR_ALGORITHM, scope,
                    "trainingImage", image == null ? "unset (and algorithmName unset)"
                    : "set together with algorithmName", "exactly one of trainingImage and algorithmName");
        }
        if (image != null && !Token.isUnresolved(image.getUri())) {
            if (!SageMakerLimits.TRAINING_IMAGE.accepts(image.getUri())) {
                throw ConfigurationError.of(IMAGE_URI, scope, "trainingImage", image.getUri(),
                        "an image URI of " + SageMakerLimits.TRAINING_IMAGE.allowed());
            }
            if (image.getRepository() == null && image.parseUri() == null) {
                throw ConfigurationError.of(IMAGE_ECR, scope, "trainingImage", image.getUri(),
                        "an Amazon ECR image URI <account>.dkr.ecr.<region>.amazonaws.com/<repository>[:<tag> or "
                                + "@sha256:<digest>]");
            }
        }
        if (algorithm != null) {
            string("algorithmName", algorithm, SageMakerLimits.ALGORITHM_NAME, "an algorithm name or ARN, ");
        }
        strings("containerEntrypoint", spec.getContainerEntrypoint(), SageMakerLimits.CONTAINER_ENTRYPOINT,
                SageMakerLimits.CONTAINER_ENTRYPOINT_STRING);
        strings("containerArguments", spec.getContainerArguments(), SageMakerLimits.CONTAINER_ARGUMENTS,
                SageMakerLimits.CONTAINER_ARGUMENT);
    }

    private void resources() {
        String type = spec.getInstanceType();
        if (type == null) {
            throw ConfigurationError.of(INSTANCE_TYPE_REQUIRED, scope,
                    "instanceType", null, "an instance type such as ml.p3.2xlarge");
        }
        Matcher typeMatch = INSTANCE_TYPE.matcher(type);
        if (!Token.isUnresolved(type) && !(SageMakerLimits.isTrainingInstanceType(type) && typeMatch.matches())) {
            throw ConfigurationError.of(INSTANCE_TYPE_FORMAT, scope,
                    "instanceType", type, SageMakerLimits.trainingInstanceTypesLike(type));
        }
        number("instanceCount", spec.getInstanceCount(), SageMakerLimits.INSTANCE_COUNT);
        number("volumeSizeGiB", spec.getVolumeSizeGiB(), SageMakerLimits.VOLUME_SIZE_IN_GB);
        number("maximumRetryAttempts", spec.getMaximumRetryAttempts(), SageMakerLimits.MAXIMUM_RETRY_ATTEMPTS);
        if (spec.getVolumeKey() != null) {
            string("volumeKey", spec.getVolumeKey().getKeyArn(), SageMakerLimits.KMS_KEY_ID, "a KMS key ARN of ");
        }
        IKey outputKey = spec.getOutputBucket().getEncryptionKey();
        if (outputKey != null && spec.getOutputBucket().isDirectoryBucket()) {
            throw ConfigurationError.of(OUTPUT_DIRECTORY_BUCKET_KMS, scope, "outputBucket.encryptionKey",
                    outputKey.getNode().getPath(), "none: SageMaker writes output to a directory bucket with SSE-S3 only "
                            + "(KMS keys are not supported for S3 Express One Zone)");
        }
        if (spec.getCheckpointPrefix() != null && spec.getOutputBucket().isDirectoryBucket()) {
            throw ConfigurationError.of(CHECKPOINT_DIRECTORY_BUCKET, scope, "checkpointPrefix",
                    spec.getCheckpointPrefix(), "unset when the output bucket is a directory bucket (the definition "
                            + "finds earlier checkpoints with s3:ListBucket on a general purpose bucket)");
        }
        if (outputKey != null) {
            string("outputBucket.encryptionKey", outputKey.getKeyArn(), SageMakerLimits.KMS_KEY_ID, "a KMS key ARN of ");
        }
        if (spec.getVolumeKey() != null && !Token.isUnresolved(type) && LOCAL_STORAGE_FAMILIES.contains(typeMatch.group(1))) {
            throw ConfigurationError.of(VOLUME_KEY_NVME, scope,
                    "volumeKey", "set for " + type, "unset for instance families with "
                    + "local NVMe storage (" + String.join(", ", new TreeSet<>(LOCAL_STORAGE_FAMILIES))
                    + "): their volumes are encrypted by the instance hardware");
        }
    }

    private void storage() {
        string("jobNamePrefix", spec.getJobNamePrefix(), SageMakerLimits.JOB_NAME_PREFIX, "");
        prefix("outputPrefix", spec.getOutputPrefix());
        if (spec.getCheckpointPrefix() != null) {
            prefix("checkpointPrefix", spec.getCheckpointPrefix());
            if (spec.getCheckpointLocalPath() != null) {
                string("checkpointLocalPath", spec.getCheckpointLocalPath(), SageMakerLimits.CHECKPOINT_LOCAL_PATH,
                        "a directory of ");
            }
        } else if (spec.getCheckpointLocalPath() != null) {
            throw ConfigurationError.of(CHECKPOINT_LOCAL_PATH, scope,
                    "checkpointLocalPath", spec.getCheckpointLocalPath(),
                    "unset unless checkpointPrefix is set (CheckpointConfig needs its S3 location)");
        }
    }

    private void prefix(String field, String prefix) {
        KeyPrefix.check(scope, field, prefix);
        if (!Token.isUnresolved(prefix) && prefix.isEmpty()) {
            throw ConfigurationError.of(PREFIX_NOT_ROOT, scope,
                    field, prefix, "a non-empty key prefix (never the bucket root)");
        }
    }

    private void stopping() {
        Duration runtime = spec.getMaxRuntime();
        Number seconds = seconds(scope, "maxRuntime", runtime, SageMakerLimits.MAX_RUNTIME_IN_SECONDS);
        Duration maxWait = spec.getGivenMaxWait();
        boolean spot = spec.isManagedSpot();
        if (maxWait != null && !spot) {
            throw ConfigurationError.of(MAX_WAIT_SPOT, scope, "maxWait", maxWait.toHumanString(),
                    "unset unless managedSpot is true (it bounds waiting for spot capacity)");
        }
        Number waitSeconds = maxWait == null ? null
                : seconds(scope, "maxWait", maxWait, SageMakerLimits.MAX_WAIT_TIME_IN_SECONDS);
        if (waitSeconds != null && !Token.isUnresolved(waitSeconds) && !Token.isUnresolved(seconds)
                && waitSeconds.longValue() < seconds.longValue()) {
            throw ConfigurationError.of(MAX_WAIT_RUNTIME, scope, "maxWait", maxWait.toHumanString(),
                    "at least maxRuntime (" + runtime.toHumanString() + ")");
        }
        Duration keepAlive = spec.getKeepAlivePeriod();
        Number keepAliveSeconds = keepAlive == null ? null : wholeSeconds(scope, "keepAlivePeriod", keepAlive);
        if (keepAliveSeconds != null && !Token.isUnresolved(keepAliveSeconds)
                && !SageMakerLimits.KEEP_ALIVE_PERIOD_IN_SECONDS.acceptsNumber(keepAliveSeconds)) {
            throw ConfigurationError.of(KEEP_ALIVE_RANGE, scope, "keepAlivePeriod", keepAlive.toHumanString(),
                    "0 to " + SageMakerLimits.KEEP_ALIVE_PERIOD_IN_SECONDS.getMax() + " seconds (SageMaker managed warm pools)");
        }
        if (keepAlive != null && spot) {
            throw ConfigurationError.of(KEEP_ALIVE_SPOT, scope, "keepAlivePeriod", keepAlive.toHumanString(),
                    "unset when managedSpot is true (managed warm pools cannot be used with spot instances)");
        }
        if (spot && spec.getCheckpointPrefix() == null) {
            Annotations.of(scope).addWarningV2("@trainingdata/training:spotWithoutCheckpoints",
                    scope.getNode().getPath() + ": managed spot without checkpointPrefix restarts from scratch after "
                            + "every interruption");
        }
    }

    /**
     * The duration in whole seconds, as the request renders it, checked against {@code limit} when literal.
     * aws-cdk-lib cannot convert a fractional second, nor a token given in another unit: either becomes a
     * ConfigurationError here.
     */
    static Number seconds(IConstruct scope, String field, Duration duration, ApiLimit limit) {
        Number seconds = wholeSeconds(scope, field, duration);
        if (!Token.isUnresolved(seconds) && !limit.acceptsNumber(seconds)) {
            throw ConfigurationError.of(DURATION_LIMIT, scope, field, duration.toHumanString(), limit.allowed());
        }
        return seconds;
    }

    /** The duration in whole seconds (a token for a deploy-time value in seconds), else a ConfigurationError. */
    static Number wholeSeconds(IConstruct scope, String field, Duration duration) {
        try {
            return duration.toSeconds();
        } catch (RuntimeException e) {
            throw ConfigurationError.of(DURATION_SECONDS, scope,
                    field, duration.toHumanString(), "a whole number of seconds; a "
                    + "deploy-time value must be given as Duration.seconds(...) (" + cdkMessage(e) + ")");
        }
    }

    /** The first line of an aws-cdk-lib error, without its error-code prefix such as {@code ThereSubnetGroups: }. */
    static String cdkMessage(RuntimeException e) {
        String first = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
        return first.replaceFirst("^[A-Za-z]+: ", "");
    }

    private void maps() {
        map("hyperParameters", "key", spec.getHyperParameters(), SageMakerLimits.HYPER_PARAMETERS,
                SageMakerLimits.HYPER_PARAMETER_KEY, SageMakerLimits.HYPER_PARAMETER_VALUE);
        map("environment", "key", spec.getEnvironment(), SageMakerLimits.ENVIRONMENT,
                SageMakerLimits.ENVIRONMENT_KEY, SageMakerLimits.ENVIRONMENT_VALUE);
        map("tags", "key", spec.getTags(), SageMakerLimits.TAGS, SageMakerLimits.TAG_KEY, SageMakerLimits.TAG_VALUE);
        map("metricDefinitions", "name", spec.getMetricDefinitions(), SageMakerLimits.METRIC_DEFINITIONS,
                SageMakerLimits.METRIC_NAME, SageMakerLimits.METRIC_REGEX);
    }

    private void map(String field, String keyNoun, Map<String, String> map, ApiLimit count, ApiLimit key,
            ApiLimit value) {
        count(field, map.size(), count);
        map.forEach((k, v) -> {
            string(field + " " + keyNoun, k, key, "");
            string(field + "['" + k + "']", v, value, "");
        });
    }

    private void directReads() {
        Set<String> taken = new HashSet<>(spec.getGivenEnvironment().keySet());
        List<DirectRead> reads = spec.getDirectReads();
        for (int i = 0; i < reads.size(); i++) {
            DirectRead read = reads.get(i);
            String field = "directReads[" + i + "]";
            if (read.getStore() == null) {
                throw ConfigurationError.of(DIRECT_READ_STORE, scope, field + ".store", null,
                        "the S3 store the training code reads (a TrainingDataBucket, an S3ExpressStore or an S3Store "
                                + "of your own)");
            }
            KeyPrefix.check(scope, field + ".path", read.getPath());
            if (!taken.add(read.getEnvironmentVariable())) {
                throw ConfigurationError.of(DIRECT_READ_VARIABLE, scope, field + ".environmentVariable",
                        read.getEnvironmentVariable(),
                        "a variable neither the job's environment nor another direct read sets");
            }
        }
    }

    private void channels() {
        List<TrainingChannel> channels = spec.getChannels();
        if (!SageMakerLimits.INPUT_DATA_CONFIG.accepts(channels.size()) && !channels.isEmpty()) {
            throw ConfigurationError.of(CHANNEL_COUNT, scope, "channels", channels.size() + " channels",
                    "at most " + TrainingJobDefinition.MAX_CHANNELS + " channels");
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < channels.size(); i++) {
            TrainingChannel channel = channels.get(i);
            ChannelRules rules = new ChannelRules(scope, i);
            if (channel.getName() == null || (!Token.isUnresolved(channel.getName())
                    && !SageMakerLimits.CHANNEL_NAME.accepts(channel.getName()))) {
                throw rules.error(CHANNEL_NAME, "name", channel.getName(), SageMakerLimits.CHANNEL_NAME.allowed());
            }
            if (!names.add(channel.getName())) {
                throw rules.error(CHANNEL_NAME_UNIQUE,
                        "name", channel.getName(), "a name no other channel of the job uses");
            }
            channel.validate(rules, spec.modeOf(channel));
        }
    }

    private void strings(String field, List<String> values, ApiLimit count, ApiLimit item) {
        if (values == null) {
            return;
        }
        count(field, values.size(), count);
        for (int i = 0; i < values.size(); i++) {
            string(field + "[" + i + "]", values.get(i), item, "a string of ");
        }
    }

    private void string(String field, String value, ApiLimit limit, String what) {
        literal(scope, field, value, limit, what);
    }

    /**
     * Rejects a literal value (null included) that {@code limit} does not accept; tokens pass. The limit is tried
     * first: most values are literals it accepts, which then cost no jsii round trip to ask whether they are tokens.
     */
    static void literal(IConstruct scope, String field, String value, ApiLimit limit, String what) {
        if (value == null || (!limit.accepts(value) && !Token.isUnresolved(value))) {
            throw ConfigurationError.of(STRING_LIMIT, scope, field, value, what + limit.allowed());
        }
    }

    /** Rejects a literal number that {@code limit} does not accept; unset values and number tokens pass. */
    private void number(String field, Number value, ApiLimit limit) {
        if (value != null && !Token.isUnresolved(value) && !limit.acceptsNumber(value)) {
            throw ConfigurationError.of(NUMBER_LIMIT, scope, field, value, limit.allowed());
        }
    }

    private void count(String field, int size, ApiLimit count) {
        if (!count.accepts(size)) {
            throw ConfigurationError.of(COUNT_LIMIT, scope, field, size + " " + count.getUnit(), count.allowed());
        }
    }
}
