package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.S3Store;
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
 * Properties of a {@link TrainingJobDefinition}. {@code instanceType}, {@code outputBucket} and one of
 * {@code trainingImage} / {@code algorithmName} are required; everything else has a documented default,
 * applied in one place when the definition resolves them into a {@link TrainingJobSpec}.
 *
 * <p>It is longer than our other classes because it is the builder of the job's ~30 settings, each with its
 * documented setter and getter; every setting is declared once, in {@code Settings}, which props and builder
 * share (so {@link #toBuilder()} copies them all without a list to keep in step).
 */
public final class TrainingJobDefinitionProps {
    private final Settings settings;

    private TrainingJobDefinitionProps(Settings settings) {
        this.settings = settings;
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder(new Settings());
    }

    /** @return trainingImage, or null when not set */
    public TrainingImage getTrainingImage() {
        return settings.trainingImage;
    }

    /** @return algorithmName, or null when not set */
    public String getAlgorithmName() {
        return settings.algorithmName;
    }

    /** @return instanceType, or null when not set */
    public String getInstanceType() {
        return settings.instanceType;
    }

    /** @return instanceCount (may be a number token), or null when not set */
    public Number getInstanceCount() {
        return settings.instanceCount;
    }

    /** @return volumeSizeGiB (may be a number token), or null when not set */
    public Number getVolumeSizeGiB() {
        return settings.volumeSizeGiB;
    }

    /** @return volumeKey, or null when not set */
    public IKey getVolumeKey() {
        return settings.volumeKey;
    }

    /** @return inputMode, or null when not set */
    public ChannelInputMode getInputMode() {
        return settings.inputMode;
    }

    /** @return channels, or null when not set */
    public List<TrainingChannel> getChannels() {
        return settings.channels;
    }

    /** @return directReads, or null when not set */
    public List<DirectRead> getDirectReads() {
        return settings.directReads;
    }

    /** @return outputBucket, or null when not set */
    public S3Store getOutputBucket() {
        return settings.outputBucket;
    }

    /** @return outputPrefix, or null when not set */
    public String getOutputPrefix() {
        return settings.outputPrefix;
    }

    /** @return checkpointPrefix, or null when not set */
    public String getCheckpointPrefix() {
        return settings.checkpointPrefix;
    }

    /** @return checkpointLocalPath, or null when not set */
    public String getCheckpointLocalPath() {
        return settings.checkpointLocalPath;
    }

    /** @return jobNamePrefix, or null when not set */
    public String getJobNamePrefix() {
        return settings.jobNamePrefix;
    }

    /** @return maxRuntime, or null when not set */
    public Duration getMaxRuntime() {
        return settings.maxRuntime;
    }

    /** @return managedSpot, or null when not set */
    public Boolean getManagedSpot() {
        return settings.managedSpot;
    }

    /** @return maxWait, or null when not set */
    public Duration getMaxWait() {
        return settings.maxWait;
    }

    /** @return keepAlivePeriod, or null when not set */
    public Duration getKeepAlivePeriod() {
        return settings.keepAlivePeriod;
    }

    /** @return containerEntrypoint, or null when not set */
    public List<String> getContainerEntrypoint() {
        return settings.containerEntrypoint;
    }

    /** @return containerArguments, or null when not set */
    public List<String> getContainerArguments() {
        return settings.containerArguments;
    }

    /** @return hyperParameters, or null when not set */
    public Map<String, String> getHyperParameters() {
        return settings.hyperParameters;
    }

    /** @return environment, or null when not set */
    public Map<String, String> getEnvironment() {
        return settings.environment;
    }

    /** @return metricDefinitions, or null when not set */
    public Map<String, String> getMetricDefinitions() {
        return settings.metricDefinitions;
    }

    /** @return tags, or null when not set */
    public Map<String, String> getTags() {
        return settings.tags;
    }

    /** @return network, or null when not set */
    public TrainingNetwork getNetwork() {
        return settings.network;
    }

    /** @return vpcSubnets, or null when not set */
    public SubnetSelection getVpcSubnets() {
        return settings.vpcSubnets;
    }

    /** @return securityGroups, or null when not set */
    public List<ISecurityGroup> getSecurityGroups() {
        return settings.securityGroups;
    }

    /** @return role, or null when not set */
    public IRole getRole() {
        return settings.role;
    }

    /** @return networkIsolation, or null when not set */
    public Boolean getNetworkIsolation() {
        return settings.networkIsolation;
    }

    /** @return interContainerTrafficEncryption, or null when not set */
    public Boolean getInterContainerTrafficEncryption() {
        return settings.interContainerTrafficEncryption;
    }

    /** @return capacityPolicy, or null when not set */
    public CapacityPolicy getCapacityPolicy() {
        return settings.capacityPolicy;
    }

    /** @return maximumRetryAttempts (may be a number token), or null when not set */
    public Number getMaximumRetryAttempts() {
        return settings.maximumRetryAttempts;
    }


    /**
     * A builder that starts from these props, for a caller that adjusts a copy (for example a platform that
     * fills in what the user left unset).
     *
     * @return a builder holding a copy of every setting
     */
    public Builder toBuilder() {
        return new Builder(settings.copy());
    }

    /** Every setting, held once: the props keep a copy, a builder the one it edits. */
    private static final class Settings implements Cloneable {
        private TrainingImage trainingImage;
        private String algorithmName;
        private String instanceType;
        private Number instanceCount;
        private Number volumeSizeGiB;
        private IKey volumeKey;
        private ChannelInputMode inputMode;
        private List<TrainingChannel> channels;
        private List<DirectRead> directReads;
        private S3Store outputBucket;
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
        private Number maximumRetryAttempts;
        private CapacityPolicy capacityPolicy;

        Settings copy() {
            try {
                return (Settings) clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
    }

    /** Builder of {@link TrainingJobDefinitionProps}. */
    public static final class Builder {
        private final Settings settings;

        private Builder(Settings settings) {
            this.settings = settings;
        }

        /**
         * The container image to train with. Exactly one of trainingImage and algorithmName.
         *
         * @default none
         */
        public Builder trainingImage(TrainingImage trainingImage) {
            settings.trainingImage = trainingImage;
            return this;
        }

        /**
         * A SageMaker built-in algorithm or Marketplace algorithm name or ARN. Exactly one of trainingImage and algorithmName.
         *
         * @default none
         */
        public Builder algorithmName(String algorithmName) {
            settings.algorithmName = algorithmName;
            return this;
        }

        /**
         * The training instance type, e.g. {@code ml.p3.2xlarge}. Required.
         */
        public Builder instanceType(String instanceType) {
            settings.instanceType = instanceType;
            return this;
        }

        /**
         * How many instances train: a whole number, at least 1, or a deploy-time number (for example a
         * {@code CfnParameter}'s {@code getValueAsNumber()}).
         *
         * @default 1
         */
        public Builder instanceCount(Number instanceCount) {
            settings.instanceCount = instanceCount;
            return this;
        }

        /**
         * The EBS volume per instance in GiB: a whole number, at least 1, or a deploy-time number; File-mode
         * channels are copied onto it.
         *
         * @default 50
         */
        public Builder volumeSizeGiB(Number volumeSizeGiB) {
            settings.volumeSizeGiB = volumeSizeGiB;
            return this;
        }

        /**
         * A KMS key for the instances' EBS volumes (not for instance families with local NVMe storage).
         *
         * @default the AWS managed key
         */
        public Builder volumeKey(IKey volumeKey) {
            settings.volumeKey = volumeKey;
            return this;
        }

        /**
         * The job's default input mode, for S3 channels that set none.
         *
         * @default {@link ChannelInputMode#FILE}
         */
        public Builder inputMode(ChannelInputMode inputMode) {
            settings.inputMode = inputMode;
            return this;
        }

        /**
         * The input channels (at most 20, unique names).
         *
         * @default none
         */
        public Builder channels(List<TrainingChannel> channels) {
            settings.channels = channels == null ? null : List.copyOf(channels);
            return this;
        }

        /**
         * Stores the training code reads itself, without a channel (the S3 Connector for PyTorch, Mountpoint for
         * Amazon S3, boto3): each grants the role a read of its prefix, puts the prefix's {@code s3://} URI in its
         * environment variable and places the job where its store wants it.
         *
         * @default none
         */
        public Builder directReads(List<DirectRead> directReads) {
            settings.directReads = directReads == null ? null : List.copyOf(directReads);
            return this;
        }

        /**
         * The bucket that receives the model artifacts (and checkpoints): a {@link TrainingDataBucket}, an
         * {@code S3ExpressStore} encrypted with SSE-S3 (SageMaker writes output to a directory bucket with SSE-S3
         * only; no checkpoints there), or an S3Store of your own. Required.
         */
        public Builder outputBucket(S3Store outputBucket) {
            settings.outputBucket = outputBucket;
            return this;
        }

        /**
         * Where model artifacts go: a key prefix from the bucket root.
         *
         * @default "training-output"
         */
        public Builder outputPrefix(String outputPrefix) {
            settings.outputPrefix = outputPrefix;
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
            settings.checkpointPrefix = checkpointPrefix;
            return this;
        }

        /**
         * Where the container writes checkpoints.
         *
         * @default {@code /opt/ml/checkpoints/} (SageMaker's default)
         */
        public Builder checkpointLocalPath(String checkpointLocalPath) {
            settings.checkpointLocalPath = checkpointLocalPath;
            return this;
        }

        /**
         * The prefix of every job name (1–26 characters, {@code [a-zA-Z0-9](-*[a-zA-Z0-9])*}); a unique suffix is added per job.
         *
         * @default the construct id, made valid
         */
        public Builder jobNamePrefix(String jobNamePrefix) {
            settings.jobNamePrefix = jobNamePrefix;
            return this;
        }

        /**
         * The longest a job may train (1 second to 28 days, in whole seconds). A deploy-time value must be given
         * as {@code Duration.seconds(...)}, the unit the request takes.
         *
         * @default 1 day
         */
        public Builder maxRuntime(Duration maxRuntime) {
            settings.maxRuntime = maxRuntime;
            return this;
        }

        /**
         * Whether to train on managed spot capacity.
         *
         * @default false
         */
        public Builder managedSpot(Boolean managedSpot) {
            settings.managedSpot = managedSpot;
            return this;
        }

        /**
         * With managed spot: the longest a job may wait for and run on spot capacity (at least maxRuntime, in
         * whole seconds; a deploy-time value as {@code Duration.seconds(...)}).
         *
         * @default maxRuntime
         */
        public Builder maxWait(Duration maxWait) {
            settings.maxWait = maxWait;
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
            settings.keepAlivePeriod = keepAlivePeriod;
            return this;
        }

        /**
         * Overrides the image's entrypoint (1–100 strings of at most 256 characters).
         *
         * @default the image's
         */
        public Builder containerEntrypoint(List<String> containerEntrypoint) {
            settings.containerEntrypoint = containerEntrypoint == null ? null : List.copyOf(containerEntrypoint);
            return this;
        }

        /**
         * Arguments to the entrypoint (1–100 strings of at most 256 characters).
         *
         * @default none
         */
        public Builder containerArguments(List<String> containerArguments) {
            settings.containerArguments = containerArguments == null ? null : List.copyOf(containerArguments);
            return this;
        }

        /**
         * Hyperparameters, rendered in key order (at most 100; keys ≤ 256, values ≤ 2500 characters).
         *
         * @default none
         */
        public Builder hyperParameters(Map<String, String> hyperParameters) {
            settings.hyperParameters = hyperParameters == null ? null : new TreeMap<>(hyperParameters);
            return this;
        }

        /**
         * Container environment variables, rendered in key order (at most 100; keys {@code [a-zA-Z_][a-zA-Z0-9_]*} ≤ 512, values ≤ 512 characters).
         *
         * @default none
         */
        public Builder environment(Map<String, String> environment) {
            settings.environment = environment == null ? null : new TreeMap<>(environment);
            return this;
        }

        /**
         * Metrics to scrape from the logs: name to regex, in name order (at most 40).
         *
         * @default none
         */
        public Builder metricDefinitions(Map<String, String> metricDefinitions) {
            settings.metricDefinitions = metricDefinitions == null ? null : new TreeMap<>(metricDefinitions);
            return this;
        }

        /**
         * Tags of each job, in key order (at most 50).
         *
         * @default none
         */
        public Builder tags(Map<String, String> tags) {
            settings.tags = tags == null ? null : new TreeMap<>(tags);
            return this;
        }

        /**
         * The network to train in. Needed only for S3-only jobs that should run in the VPC; file-system channels bring theirs.
         *
         * @default the file-system channels' network; none (no VPC) for S3-only jobs
         */
        public Builder network(TrainingNetwork network) {
            settings.network = network;
            return this;
        }

        /**
         * The subnets to train in (1–16, all in the Availability Zone of any Lustre or One Zone EFS channel).
         *
         * @default the network's data subnet
         */
        public Builder vpcSubnets(SubnetSelection vpcSubnets) {
            settings.vpcSubnets = vpcSubnets;
            return this;
        }

        /**
         * Security groups added to the network's training group (at most 5 in all).
         *
         * @default none
         */
        public Builder securityGroups(List<ISecurityGroup> securityGroups) {
            settings.securityGroups = securityGroups == null ? null : List.copyOf(securityGroups);
            return this;
        }

        /**
         * An existing execution role; it is granted what the channels, outputs and image need.
         *
         * @default a new least-privilege role
         */
        public Builder role(IRole role) {
            settings.role = role;
            return this;
        }

        /**
         * Cut the container off from the network (channels still load).
         *
         * @default false
         */
        public Builder networkIsolation(Boolean networkIsolation) {
            settings.networkIsolation = networkIsolation;
            return this;
        }

        /**
         * Encrypt traffic between the instances of a distributed job.
         *
         * @default false
         */
        public Builder interContainerTrafficEncryption(Boolean interContainerTrafficEncryption) {
            settings.interContainerTrafficEncryption = interContainerTrafficEncryption;
            return this;
        }

        /**
         * How many times SageMaker itself retries a job that fails with an {@code InternalServerError}
         * (rendered as {@code RetryStrategy.MaximumRetryAttempts}; 1 to 30, or a deploy-time number). A retried
         * job keeps its name and returns to {@code SecondaryStatus} STARTING; its {@code maxRuntime} bounds the
         * attempts together.
         *
         * @default no RetryStrategy (SageMaker does not retry)
         */
        public Builder maximumRetryAttempts(Number maximumRetryAttempts) {
            settings.maximumRetryAttempts = maximumRetryAttempts;
            return this;
        }

        /**
         * What the state machine tries when a job fails for capacity: wait and retry, other instance types, or
         * the S3 locations the Lustre channels' datasets mirror, in the order given (see {@link CapacityStep}).
         *
         * @default none: a capacity failure fails the execution
         */
        public Builder capacityPolicy(CapacityPolicy capacityPolicy) {
            settings.capacityPolicy = capacityPolicy;
            return this;
        }

        /** @return the props */
        public TrainingJobDefinitionProps build() {
            return new TrainingJobDefinitionProps(settings.copy());
        }
    }
}
