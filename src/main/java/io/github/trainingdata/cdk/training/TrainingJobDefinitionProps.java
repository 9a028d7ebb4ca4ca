package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.kms.IKey;

/**
 * Properties of a {@link TrainingJobDefinition}. {@code instanceType}, {@code dataBucket} and one of
 * {@code trainingImage} / {@code algorithmName} are required; everything else has a documented default.
 */
public final class TrainingJobDefinitionProps {
    private final TrainingImage trainingImage;
    private final String algorithmName;
    private final String instanceType;
    private final Number instanceCount;
    private final Number volumeSizeGiB;
    private final IKey volumeKey;
    private final InputMode inputMode;
    private final List<Channel> channels;
    private final TrainingDataBucket dataBucket;
    private final String outputPrefix;
    private final String checkpointPrefix;
    private final String checkpointLocalPath;
    private final String jobNamePrefix;
    private final Duration maxRuntime;
    private final Boolean managedSpot;
    private final Duration maxWait;
    private final Duration keepAlivePeriod;
    private final List<String> containerEntrypoint;
    private final List<String> containerArguments;
    private final Map<String, String> hyperParameters;
    private final Map<String, String> environment;
    private final Map<String, String> metricDefinitions;
    private final Map<String, String> tags;
    private final TrainingNetwork network;
    private final SubnetSelection vpcSubnets;
    private final List<ISecurityGroup> securityGroups;
    private final IRole role;
    private final Boolean networkIsolation;
    private final Boolean interContainerTrafficEncryption;
    private final Boolean deploy;

    private TrainingJobDefinitionProps(Builder b) {
        this.trainingImage = b.trainingImage;
        this.algorithmName = b.algorithmName;
        this.instanceType = b.instanceType;
        this.instanceCount = b.instanceCount;
        this.volumeSizeGiB = b.volumeSizeGiB;
        this.volumeKey = b.volumeKey;
        this.inputMode = b.inputMode;
        this.channels = b.channels == null ? null : List.copyOf(b.channels);
        this.dataBucket = b.dataBucket;
        this.outputPrefix = b.outputPrefix;
        this.checkpointPrefix = b.checkpointPrefix;
        this.checkpointLocalPath = b.checkpointLocalPath;
        this.jobNamePrefix = b.jobNamePrefix;
        this.maxRuntime = b.maxRuntime;
        this.managedSpot = b.managedSpot;
        this.maxWait = b.maxWait;
        this.keepAlivePeriod = b.keepAlivePeriod;
        this.containerEntrypoint = b.containerEntrypoint == null ? null : List.copyOf(b.containerEntrypoint);
        this.containerArguments = b.containerArguments == null ? null : List.copyOf(b.containerArguments);
        this.hyperParameters = b.hyperParameters == null ? null : new TreeMap<>(b.hyperParameters);
        this.environment = b.environment == null ? null : new TreeMap<>(b.environment);
        this.metricDefinitions = b.metricDefinitions == null ? null : new TreeMap<>(b.metricDefinitions);
        this.tags = b.tags == null ? null : new TreeMap<>(b.tags);
        this.network = b.network;
        this.vpcSubnets = b.vpcSubnets;
        this.securityGroups = b.securityGroups == null ? null : List.copyOf(b.securityGroups);
        this.role = b.role;
        this.networkIsolation = b.networkIsolation;
        this.interContainerTrafficEncryption = b.interContainerTrafficEncryption;
        this.deploy = b.deploy;
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return trainingImage, or null when not set */
    public TrainingImage getTrainingImage() {
        return trainingImage;
    }

    /** @return algorithmName, or null when not set */
    public String getAlgorithmName() {
        return algorithmName;
    }

    /** @return instanceType, or null when not set */
    public String getInstanceType() {
        return instanceType;
    }

    /** @return instanceCount (may be a number token), or null when not set */
    public Number getInstanceCount() {
        return instanceCount;
    }

    /** @return volumeSizeGiB (may be a number token), or null when not set */
    public Number getVolumeSizeGiB() {
        return volumeSizeGiB;
    }

    /** @return volumeKey, or null when not set */
    public IKey getVolumeKey() {
        return volumeKey;
    }

    /** @return inputMode, or null when not set */
    public InputMode getInputMode() {
        return inputMode;
    }

    /** @return channels, or null when not set */
    public List<Channel> getChannels() {
        return channels;
    }

    /** @return dataBucket, or null when not set */
    public TrainingDataBucket getDataBucket() {
        return dataBucket;
    }

    /** @return outputPrefix, or null when not set */
    public String getOutputPrefix() {
        return outputPrefix;
    }

    /** @return checkpointPrefix, or null when not set */
    public String getCheckpointPrefix() {
        return checkpointPrefix;
    }

    /** @return checkpointLocalPath, or null when not set */
    public String getCheckpointLocalPath() {
        return checkpointLocalPath;
    }

    /** @return jobNamePrefix, or null when not set */
    public String getJobNamePrefix() {
        return jobNamePrefix;
    }

    /** @return maxRuntime, or null when not set */
    public Duration getMaxRuntime() {
        return maxRuntime;
    }

    /** @return managedSpot, or null when not set */
    public Boolean getManagedSpot() {
        return managedSpot;
    }

    /** @return maxWait, or null when not set */
    public Duration getMaxWait() {
        return maxWait;
    }

    /** @return keepAlivePeriod, or null when not set */
    public Duration getKeepAlivePeriod() {
        return keepAlivePeriod;
    }

    /** @return containerEntrypoint, or null when not set */
    public List<String> getContainerEntrypoint() {
        return containerEntrypoint;
    }

    /** @return containerArguments, or null when not set */
    public List<String> getContainerArguments() {
        return containerArguments;
    }

    /** @return hyperParameters, or null when not set */
    public Map<String, String> getHyperParameters() {
        return hyperParameters;
    }

    /** @return environment, or null when not set */
    public Map<String, String> getEnvironment() {
        return environment;
    }

    /** @return metricDefinitions, or null when not set */
    public Map<String, String> getMetricDefinitions() {
        return metricDefinitions;
    }

    /** @return tags, or null when not set */
    public Map<String, String> getTags() {
        return tags;
    }

    /** @return network, or null when not set */
    public TrainingNetwork getNetwork() {
        return network;
    }

    /** @return vpcSubnets, or null when not set */
    public SubnetSelection getVpcSubnets() {
        return vpcSubnets;
    }

    /** @return securityGroups, or null when not set */
    public List<ISecurityGroup> getSecurityGroups() {
        return securityGroups;
    }

    /** @return role, or null when not set */
    public IRole getRole() {
        return role;
    }

    /** @return networkIsolation, or null when not set */
    public Boolean getNetworkIsolation() {
        return networkIsolation;
    }

    /** @return interContainerTrafficEncryption, or null when not set */
    public Boolean getInterContainerTrafficEncryption() {
        return interContainerTrafficEncryption;
    }

    /** @return deploy, or null when not set */
    public Boolean getDeploy() {
        return deploy;
    }

    /** Builder of {@link TrainingJobDefinitionProps}. */
    public static final class Builder {
        private TrainingImage trainingImage;
        private String algorithmName;
        private String instanceType;
        private Number instanceCount;
        private Number volumeSizeGiB;
        private IKey volumeKey;
        private InputMode inputMode;
        private List<Channel> channels;
        private TrainingDataBucket dataBucket;
        private String outputPrefix;
        private String checkpointPrefix;
        private String checkpointLocalPath;
        private String jobNamePrefix;
        private Duration maxRuntime;
        private Boolean managedSpot;
        private Duration maxWait;
        private Duration keepAlivePeriod;
        private List<String> containerEntrypoint;
        private List<String> containerArguments;
        private Map<String, String> hyperParameters;
        private Map<String, String> environment;
        private Map<String, String> metricDefinitions;
        private Map<String, String> tags;
        private TrainingNetwork network;
        private SubnetSelection vpcSubnets;
        private List<ISecurityGroup> securityGroups;
        private IRole role;
        private Boolean networkIsolation;
        private Boolean interContainerTrafficEncryption;
        private Boolean deploy;

        private Builder() {
        }

        /**
         * The container image to train with. Exactly one of trainingImage and algorithmName.
         *
         * @default none
         */
        public Builder trainingImage(TrainingImage trainingImage) {
            this.trainingImage = trainingImage;
            return this;
        }

        /**
         * A SageMaker built-in algorithm or Marketplace algorithm name or ARN. Exactly one of trainingImage and algorithmName.
         *
         * @default none
         */
        public Builder algorithmName(String algorithmName) {
            this.algorithmName = algorithmName;
            return this;
        }

        /**
         * The training instance type, e.g. {@code ml.p3.2xlarge}. Required.
         */
        public Builder instanceType(String instanceType) {
            this.instanceType = instanceType;
            return this;
        }

        /**
         * How many instances train: a whole number, at least 1, or a deploy-time number (for example a
         * {@code CfnParameter}'s {@code getValueAsNumber()}).
         *
         * @default 1
         */
        public Builder instanceCount(Number instanceCount) {
            this.instanceCount = instanceCount;
            return this;
        }

        /**
         * The EBS volume per instance in GiB: a whole number, at least 1, or a deploy-time number; File-mode
         * channels are copied onto it.
         *
         * @default 50
         */
        public Builder volumeSizeGiB(Number volumeSizeGiB) {
            this.volumeSizeGiB = volumeSizeGiB;
            return this;
        }

        /**
         * A KMS key for the instances' EBS volumes (not for instance families with local NVMe storage).
         *
         * @default the AWS managed key
         */
        public Builder volumeKey(IKey volumeKey) {
            this.volumeKey = volumeKey;
            return this;
        }

        /**
         * The job's default input mode, for S3 channels that set none.
         *
         * @default {@link InputMode#FILE}
         */
        public Builder inputMode(InputMode inputMode) {
            this.inputMode = inputMode;
            return this;
        }

        /**
         * The input channels (at most 20, unique names).
         *
         * @default none
         */
        public Builder channels(List<Channel> channels) {
            this.channels = channels;
            return this;
        }

        /**
         * The bucket that receives the model artifacts (and checkpoints). Required.
         */
        public Builder dataBucket(TrainingDataBucket dataBucket) {
            this.dataBucket = dataBucket;
            return this;
        }

        /**
         * Where model artifacts go: a key prefix from the bucket root.
         *
         * @default "training-output"
         */
        public Builder outputPrefix(String outputPrefix) {
            this.outputPrefix = outputPrefix;
            return this;
        }

        /**
         * Where checkpoints sync to: a key prefix from the bucket root, under which each run gets its own prefix
         * ({@code <checkpointPrefix>/<execution name>/} from the state machine, {@code <checkpointPrefix>/<job
         * name>/} from the SDK launcher) unless it resumes an earlier run's.
         *
         * @default no checkpointing
         */
        public Builder checkpointPrefix(String checkpointPrefix) {
            this.checkpointPrefix = checkpointPrefix;
            return this;
        }

        /**
         * Where the container writes checkpoints.
         *
         * @default {@code /opt/ml/checkpoints/} (SageMaker's default)
         */
        public Builder checkpointLocalPath(String checkpointLocalPath) {
            this.checkpointLocalPath = checkpointLocalPath;
            return this;
        }

        /**
         * The prefix of every job name (1–26 characters, {@code [a-zA-Z0-9](-*[a-zA-Z0-9])*}); a unique suffix is added per job.
         *
         * @default the construct id, made valid
         */
        public Builder jobNamePrefix(String jobNamePrefix) {
            this.jobNamePrefix = jobNamePrefix;
            return this;
        }

        /**
         * The longest a job may train (1 second to 28 days, in whole seconds). A deploy-time value must be given
         * as {@code Duration.seconds(...)}, the unit the request takes.
         *
         * @default 1 day
         */
        public Builder maxRuntime(Duration maxRuntime) {
            this.maxRuntime = maxRuntime;
            return this;
        }

        /**
         * Whether to train on managed spot capacity.
         *
         * @default false
         */
        public Builder managedSpot(Boolean managedSpot) {
            this.managedSpot = managedSpot;
            return this;
        }

        /**
         * With managed spot: the longest a job may wait for and run on spot capacity (at least maxRuntime, in
         * whole seconds; a deploy-time value as {@code Duration.seconds(...)}).
         *
         * @default maxRuntime
         */
        public Builder maxWait(Duration maxWait) {
            this.maxWait = maxWait;
            return this;
        }

        /**
         * SageMaker managed warm pool: how long the instances stay provisioned after a job ends, so that the
         * next matching job (same role, instance type and count, volume, VPC) starts on them without waiting
         * for new instances (rendered as {@code ResourceConfig.KeepAlivePeriodInSeconds}; 0 to 3600 seconds;
         * not with managed spot). The retained time is billed, and the account needs a warm-pool quota
         * (0 by default), else no pool is kept.
         *
         * @default no warm pool
         */
        public Builder keepAlivePeriod(Duration keepAlivePeriod) {
            this.keepAlivePeriod = keepAlivePeriod;
            return this;
        }

        /**
         * Overrides the image's entrypoint (1–100 strings of at most 256 characters).
         *
         * @default the image's
         */
        public Builder containerEntrypoint(List<String> containerEntrypoint) {
            this.containerEntrypoint = containerEntrypoint;
            return this;
        }

        /**
         * Arguments to the entrypoint (1–100 strings of at most 256 characters).
         *
         * @default none
         */
        public Builder containerArguments(List<String> containerArguments) {
            this.containerArguments = containerArguments;
            return this;
        }

        /**
         * Hyperparameters, rendered in key order (at most 100; keys ≤ 256, values ≤ 2500 characters).
         *
         * @default none
         */
        public Builder hyperParameters(Map<String, String> hyperParameters) {
            this.hyperParameters = hyperParameters;
            return this;
        }

        /**
         * Container environment variables, rendered in key order (at most 100; keys {@code [a-zA-Z_][a-zA-Z0-9_]*} ≤ 512, values ≤ 512 characters).
         *
         * @default none
         */
        public Builder environment(Map<String, String> environment) {
            this.environment = environment;
            return this;
        }

        /**
         * Metrics to scrape from the logs: name to regex, in name order (at most 40).
         *
         * @default none
         */
        public Builder metricDefinitions(Map<String, String> metricDefinitions) {
            this.metricDefinitions = metricDefinitions;
            return this;
        }

        /**
         * Tags of each job, in key order (at most 50).
         *
         * @default none
         */
        public Builder tags(Map<String, String> tags) {
            this.tags = tags;
            return this;
        }

        /**
         * The network to train in. Needed only for S3-only jobs that should run in the VPC; file-system channels bring theirs.
         *
         * @default the file-system channels' network; none (no VPC) for S3-only jobs
         */
        public Builder network(TrainingNetwork network) {
            this.network = network;
            return this;
        }

        /**
         * The subnets to train in (1–16, all in the Availability Zone of any Lustre or One Zone EFS channel).
         *
         * @default the network's data subnet
         */
        public Builder vpcSubnets(SubnetSelection vpcSubnets) {
            this.vpcSubnets = vpcSubnets;
            return this;
        }

        /**
         * Security groups added to the network's training group (at most 5 in all).
         *
         * @default none
         */
        public Builder securityGroups(List<ISecurityGroup> securityGroups) {
            this.securityGroups = securityGroups;
            return this;
        }

        /**
         * An existing execution role; it is granted what the channels, outputs and image need.
         *
         * @default a new least-privilege role
         */
        public Builder role(IRole role) {
            this.role = role;
            return this;
        }

        /**
         * Cut the container off from the network (channels still load).
         *
         * @default false
         */
        public Builder networkIsolation(Boolean networkIsolation) {
            this.networkIsolation = networkIsolation;
            return this;
        }

        /**
         * Encrypt traffic between the instances of a distributed job.
         *
         * @default false
         */
        public Builder interContainerTrafficEncryption(Boolean interContainerTrafficEncryption) {
            this.interContainerTrafficEncryption = interContainerTrafficEncryption;
            return this;
        }

        /**
         * Whether to deploy the state machine and the request parameter. False keeps only the validated
         * request and the execution role, for constructs that start the job themselves (the preload worker).
         *
         * @default true
         */
        public Builder deploy(Boolean deploy) {
            this.deploy = deploy;
            return this;
        }

        /** @return the props */
        public TrainingJobDefinitionProps build() {
            return new TrainingJobDefinitionProps(this);
        }
    }
}
