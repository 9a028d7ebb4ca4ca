package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.S3Store;
import io.github.trainingdata.cdk.storage.TrainingDataStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.kms.IKey;
import software.constructs.IConstruct;

/**
 * A training job's settings with every default applied, checked against the CreateTrainingJob rules: what the
 * request renderer, the execution-role grants and the state machine read. Immutable; made by
 * {@link #resolve(IConstruct, TrainingJobDefinitionProps)}, which is the one place defaults are applied.
 */
public final class TrainingJobSpec {
    /** Where model artifacts go when no outputPrefix is given. */
    public static final String DEFAULT_OUTPUT_PREFIX = "training-output";
    /** The job's default input mode when none is given. */
    public static final ChannelInputMode DEFAULT_INPUT_MODE = ChannelInputMode.FILE;
    /** Instances per job when no instanceCount is given. */
    public static final int DEFAULT_INSTANCE_COUNT = 1;
    /** EBS volume per instance, in GiB, when no volumeSizeGiB is given. */
    public static final int DEFAULT_VOLUME_SIZE_GIB = 50;
    /** The longest a job may train when no maxRuntime is given. */
    public static final Duration DEFAULT_MAX_RUNTIME = Duration.days(1);

    private final String jobNamePrefix;
    private final TrainingImage trainingImage;
    private final String algorithmName;
    private final ChannelInputMode inputMode;
    private final List<TrainingChannel> channels;
    private final List<DirectRead> directReads;
    private final String instanceType;
    private final Number instanceCount;
    private final Number volumeSizeGiB;
    private final IKey volumeKey;
    private final S3Store outputBucket;
    private final String outputPrefix;
    private final String checkpointPrefix;
    private final String checkpointLocalPath;
    private final Duration maxRuntime;
    private final boolean managedSpot;
    private final Duration maxWait;
    private final Duration givenMaxWait;
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
    private final boolean networkIsolation;
    private final boolean interContainerTrafficEncryption;
    private final Number maximumRetryAttempts;
    private final CapacityPolicy capacityPolicy;

    private TrainingJobSpec(String id, TrainingJobDefinitionProps props) {
        this.jobNamePrefix = props.getJobNamePrefix() != null ? props.getJobNamePrefix() : prefixFromId(id);
        this.trainingImage = props.getTrainingImage();
        this.algorithmName = props.getAlgorithmName();
        this.inputMode = props.getInputMode() != null ? props.getInputMode() : DEFAULT_INPUT_MODE;
        this.channels = props.getChannels() != null ? props.getChannels() : List.of();
        this.directReads = props.getDirectReads() != null ? props.getDirectReads() : List.of();
        this.instanceType = props.getInstanceType();
        this.instanceCount = props.getInstanceCount() != null ? props.getInstanceCount() : DEFAULT_INSTANCE_COUNT;
        this.volumeSizeGiB = props.getVolumeSizeGiB() != null ? props.getVolumeSizeGiB() : DEFAULT_VOLUME_SIZE_GIB;
        this.volumeKey = props.getVolumeKey();
        this.outputBucket = props.getOutputBucket();
        this.outputPrefix = props.getOutputPrefix() != null ? props.getOutputPrefix() : DEFAULT_OUTPUT_PREFIX;
        this.checkpointPrefix = props.getCheckpointPrefix();
        this.checkpointLocalPath = props.getCheckpointLocalPath();
        this.maxRuntime = props.getMaxRuntime() != null ? props.getMaxRuntime() : DEFAULT_MAX_RUNTIME;
        this.managedSpot = Boolean.TRUE.equals(props.getManagedSpot());
        this.givenMaxWait = props.getMaxWait();
        this.maxWait = givenMaxWait != null || !managedSpot ? givenMaxWait : maxRuntime;
        this.keepAlivePeriod = props.getKeepAlivePeriod();
        this.containerEntrypoint = props.getContainerEntrypoint();
        this.containerArguments = props.getContainerArguments();
        this.hyperParameters = sorted(props.getHyperParameters());
        this.environment = sorted(props.getEnvironment());
        this.metricDefinitions = sorted(props.getMetricDefinitions());
        this.tags = sorted(props.getTags());
        this.network = props.getNetwork();
        this.vpcSubnets = props.getVpcSubnets();
        this.securityGroups = props.getSecurityGroups() != null ? props.getSecurityGroups() : List.of();
        this.role = props.getRole();
        this.networkIsolation = Boolean.TRUE.equals(props.getNetworkIsolation());
        this.interContainerTrafficEncryption = Boolean.TRUE.equals(props.getInterContainerTrafficEncryption());
        this.maximumRetryAttempts = props.getMaximumRetryAttempts();
        this.capacityPolicy = props.getCapacityPolicy();
    }

    /**
     * Applies every default to {@code props} and checks the result against the CreateTrainingJob rules.
     *
     * @param scope the construct the job belongs to: its id is the default job-name prefix, and its path names
     *              the job in every error
     * @param props the settings as given
     * @return the resolved settings
     * @throws io.github.trainingdata.cdk.ConfigurationError when a setting breaks a rule
     */
    public static TrainingJobSpec resolve(IConstruct scope, TrainingJobDefinitionProps props) {
        TrainingJobSpec spec = new TrainingJobSpec(scope.getNode().getId(), props);
        TrainingJobRules.check(scope, spec);
        return spec;
    }

    private static String prefixFromId(String id) {
        int most = TrainingJobDefinition.MAX_JOB_NAME_PREFIX;
        String cleaned = id.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        cleaned = cleaned.length() > most ? cleaned.substring(0, most) : cleaned;
        cleaned = cleaned.replaceAll("-+$", "");
        return cleaned.isEmpty() ? "training" : cleaned;
    }

    private static Map<String, String> sorted(Map<String, String> given) {
        return given == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(given));
    }

    /** @return the input mode {@code channel} runs in: its own, else the job's */
    public ChannelInputMode modeOf(TrainingChannel channel) {
        return channel.getInputMode() != null ? channel.getInputMode() : inputMode;
    }

    /** @return the job-name prefix; each job is named {@code <prefix>-<unique suffix>} */
    public String getJobNamePrefix() {
        return jobNamePrefix;
    }

    /** @return the training image, or null when the job uses an algorithm name */
    public TrainingImage getTrainingImage() {
        return trainingImage;
    }

    /** @return the algorithm name, or null when the job uses a training image */
    public String getAlgorithmName() {
        return algorithmName;
    }

    /** @return the job's default input mode */
    public ChannelInputMode getInputMode() {
        return inputMode;
    }

    /** @return the channels, in order (empty when none) */
    public List<TrainingChannel> getChannels() {
        return channels;
    }

    /** @return the instance type */
    public String getInstanceType() {
        return instanceType;
    }

    /** @return the instance count (may be a number token) */
    public Number getInstanceCount() {
        return instanceCount;
    }

    /** @return the EBS volume per instance in GiB (may be a number token) */
    public Number getVolumeSizeGiB() {
        return volumeSizeGiB;
    }

    /** @return the volume key, or null for the AWS managed key */
    public IKey getVolumeKey() {
        return volumeKey;
    }

    /** @return the bucket that receives model artifacts and checkpoints */
    public S3Store getOutputBucket() {
        return outputBucket;
    }

    /** @return the key prefix, from the bucket root, under which model artifacts go */
    public String getOutputPrefix() {
        return outputPrefix;
    }

    /** @return the checkpoint key prefix, or null when the job keeps no checkpoints */
    public String getCheckpointPrefix() {
        return checkpointPrefix;
    }

    /** @return the container's checkpoint directory, or null for SageMaker's default */
    public String getCheckpointLocalPath() {
        return checkpointLocalPath;
    }

    /** @return the longest a job may train */
    public Duration getMaxRuntime() {
        return maxRuntime;
    }

    /** @return whether jobs run on managed spot capacity */
    public boolean isManagedSpot() {
        return managedSpot;
    }

    /** @return the longest a spot job may take, waiting included: as given, else (spot) the maxRuntime, else null */
    public Duration getMaxWait() {
        return maxWait;
    }

    /** @return the maxWait as given (null when unset) */
    Duration getGivenMaxWait() {
        return givenMaxWait;
    }

    /** @return the warm-pool keep-alive, or null for none */
    public Duration getKeepAlivePeriod() {
        return keepAlivePeriod;
    }

    /** @return the container entrypoint, or null for the image's */
    public List<String> getContainerEntrypoint() {
        return containerEntrypoint;
    }

    /** @return the container arguments, or null for the image's */
    public List<String> getContainerArguments() {
        return containerArguments;
    }

    /** @return the hyperparameters, sorted by key (empty when none) */
    public Map<String, String> getHyperParameters() {
        return hyperParameters;
    }

    /** @return the direct reads, in order (empty when none) */
    public List<DirectRead> getDirectReads() {
        return directReads;
    }

    /** @return the environment given, sorted by name (empty when none) */
    Map<String, String> getGivenEnvironment() {
        return environment;
    }

    /**
     * @return the container's environment: the one given and each direct read's variable with its location, sorted
     *     by name (empty when none)
     */
    public Map<String, String> getEnvironment() {
        if (directReads.isEmpty()) {
            return environment;
        }
        Map<String, String> all = new TreeMap<>(environment);
        for (DirectRead read : directReads) {
            all.put(read.getEnvironmentVariable(), read.getS3Uri());
        }
        return Collections.unmodifiableMap(all);
    }

    /**
     * @return every store the job reads, with the name it reads it by (a channel's name, a direct read's variable),
     *     channels first, in order
     */
    List<StoreRead> storeReads() {
        List<StoreRead> reads = new ArrayList<>();
        for (TrainingChannel channel : channels) {
            reads.add(new StoreRead("channel '" + channel.getName() + "'", channel.getStore()));
        }
        for (DirectRead read : directReads) {
            reads.add(new StoreRead("direct read " + read.getEnvironmentVariable(), read.getStore()));
        }
        return reads;
    }

    /** A store the job reads, and how an error names the read (a channel or a direct read). */
    record StoreRead(String name, TrainingDataStore store) {
    }

    /** @return the metric definitions, name to regex, sorted by name (empty when none) */
    public Map<String, String> getMetricDefinitions() {
        return metricDefinitions;
    }

    /** @return the job tags, sorted by key (empty when none) */
    public Map<String, String> getTags() {
        return tags;
    }

    /** @return the network as given (a file-system channel may bring one instead: see the job's placement) */
    TrainingNetwork getGivenNetwork() {
        return network;
    }

    /** @return the subnet selection as given, or null for the network's data subnet */
    SubnetSelection getVpcSubnets() {
        return vpcSubnets;
    }

    /** @return the security groups given beyond the network's training group (empty when none) */
    List<ISecurityGroup> getSecurityGroups() {
        return securityGroups;
    }

    /** @return the execution role as given, or null when the job gets a new one */
    public IRole getRole() {
        return role;
    }

    /** @return whether the container is cut off from the network */
    public boolean isNetworkIsolation() {
        return networkIsolation;
    }

    /** @return whether traffic between the instances is encrypted */
    public boolean isInterContainerTrafficEncryption() {
        return interContainerTrafficEncryption;
    }

    /** @return how many times SageMaker retries a job after an InternalServerError, or null for no RetryStrategy */
    public Number getMaximumRetryAttempts() {
        return maximumRetryAttempts;
    }

    /** @return what to try when a job fails for capacity, or null for nothing */
    public CapacityPolicy getCapacityPolicy() {
        return capacityPolicy;
    }
}
