package io.github.trainingdata.cdk.platform;

import io.github.trainingdata.cdk.advisor.DataSourceOption;
import io.github.trainingdata.cdk.advisor.DatasetProfile;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.DataEncryption;
import io.github.trainingdata.cdk.storage.LustreDeploymentType;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import software.amazon.awscdk.services.efs.IFileSystem;
import software.amazon.awscdk.services.s3.IBucket;

/**
 * Properties of a {@link TrainingDataPlatform}: a dataset profile (the advisor picks the source) and/or
 * an explicit source, plus the training job's settings (at least its image). Everything else has a documented
 * default.
 */
public final class TrainingDataPlatformProps {
    private final DatasetProfile profile;
    private final DataSourceOption source;
    private final TrainingJobDefinitionProps trainingJob;
    private final TrainingNetwork network;
    private final IBucket bucket;
    private final DataEncryption encryption;
    private final String datasetPrefix;
    private final String channelName;
    private final String channelPath;
    private final String s3ExpressBaseName;
    private final Boolean waitForPreload;
    private final Number lustreCapacityGiB;
    private final IFileSystem efsFileSystem;
    private final LustreDeploymentType lustreDeploymentType;
    private final Number lustrePerUnitStorageThroughput;
    private final Number lustreMetadataIops;
    private final String dataAvailabilityZone;

    private TrainingDataPlatformProps(Builder b) {
        this.profile = b.profile;
        this.source = b.source;
        this.trainingJob = b.trainingJob;
        this.network = b.network;
        this.bucket = b.bucket;
        this.encryption = b.encryption;
        this.datasetPrefix = b.datasetPrefix;
        this.channelName = b.channelName;
        this.channelPath = b.channelPath;
        this.s3ExpressBaseName = b.s3ExpressBaseName;
        this.waitForPreload = b.waitForPreload;
        this.lustreCapacityGiB = b.lustreCapacityGiB;
        this.efsFileSystem = b.efsFileSystem;
        this.lustreDeploymentType = b.lustreDeploymentType;
        this.lustrePerUnitStorageThroughput = b.lustrePerUnitStorageThroughput;
        this.lustreMetadataIops = b.lustreMetadataIops;
        this.dataAvailabilityZone = b.dataAvailabilityZone;
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the dataset profile, or null */
    public DatasetProfile getProfile() {
        return profile;
    }

    /** @return the explicit source, or null for the advisor's */
    public DataSourceOption getSource() {
        return source;
    }

    /** @return the training job's settings as given, or null */
    public TrainingJobDefinitionProps getTrainingJob() {
        return trainingJob;
    }

    /** @return the existing network, or null for a new one */
    public TrainingNetwork getNetwork() {
        return network;
    }

    /** @return the existing bucket, or null for a new one */
    public IBucket getBucket() {
        return bucket;
    }

    /** @return how a new bucket is encrypted, or null for the default */
    public DataEncryption getEncryption() {
        return encryption;
    }

    /** @return the dataset prefix, or null for the default */
    public String getDatasetPrefix() {
        return datasetPrefix;
    }

    /** @return the channel name, or null for the default */
    public String getChannelName() {
        return channelName;
    }

    /** @return the channel's path under the dataset prefix, or null for the default */
    public String getChannelPath() {
        return channelPath;
    }

    /** @return the directory bucket's base name, or null for the default */
    public String getS3ExpressBaseName() {
        return s3ExpressBaseName;
    }

    /** @return whether the deploy waits for the Lustre preload, or null for the default */
    public Boolean getWaitForPreload() {
        return waitForPreload;
    }

    /** @return the Lustre cache's capacity, or null to derive it from the profile */
    public Number getLustreCapacityGiB() {
        return lustreCapacityGiB;
    }

    /** @return the EFS file system holding the data, or null */
    public IFileSystem getEfsFileSystem() {
        return efsFileSystem;
    }

    /** @return the Lustre cache's deployment type as given, or null for the advisor's (or SCRATCH_2) */
    public LustreDeploymentType getLustreDeploymentType() {
        return lustreDeploymentType;
    }

    /** @return the PERSISTENT_2 cache's throughput tier as given, or null */
    public Number getLustrePerUnitStorageThroughput() {
        return lustrePerUnitStorageThroughput;
    }

    /** @return the PERSISTENT_2 cache's provisioned metadata IOPS as given, or null (AUTOMATIC) */
    public Number getLustreMetadataIops() {
        return lustreMetadataIops;
    }

    /** @return the data Availability Zone of the platform's new network, or null */
    public String getDataAvailabilityZone() {
        return dataAvailabilityZone;
    }

    /** Builder of {@link TrainingDataPlatformProps}. */
    public static final class Builder {
        private DatasetProfile profile;
        private DataSourceOption source;
        private TrainingJobDefinitionProps trainingJob;
        private TrainingNetwork network;
        private IBucket bucket;
        private DataEncryption encryption;
        private String datasetPrefix;
        private String channelName;
        private String channelPath;
        private String s3ExpressBaseName;
        private Boolean waitForPreload;
        private Number lustreCapacityGiB;
        private IFileSystem efsFileSystem;
        private LustreDeploymentType lustreDeploymentType;
        private Number lustrePerUnitStorageThroughput;
        private Number lustreMetadataIops;
        private String dataAvailabilityZone;

        private Builder() {
        }

        /**
         * The dataset's profile: the advisor recommends the source from it, and it sizes the Lustre cache,
         * the instances and the runtime.
         *
         * @default none (then {@code source} and the training job's {@code instanceType} are required)
         */
        public Builder profile(DatasetProfile profile) {
            this.profile = profile;
            return this;
        }

        /**
         * The data source to build, overriding the advisor (its recommendation is still reported).
         *
         * @default the advisor's recommendation for the profile
         */
        public Builder source(DataSourceOption source) {
            this.source = source;
            return this;
        }

        /**
         * The training job's settings, whole: image, hyperparameters, environment, spot, checkpoints, tags, job-name
         * prefix and every other {@link TrainingJobDefinitionProps} setting. The platform fills in only what is left
         * unset: its data channel goes first (channels given here follow it), the bucket receives the output, the
         * job runs in the platform's network, and with a profile the instance type and count, the File-mode volume,
         * the runtime (at most a spot maxWait given here) and (when the estimate finds it pays, without spot) a warm
         * pool come from the advisor. A trainingImage is required (an algorithmName serves only without a Lustre
         * cache, whose preload worker runs the image); a network here must be the platform's own.
         *
         * @default none (a trainingImage is required)
         */
        public Builder trainingJob(TrainingJobDefinitionProps trainingJob) {
            this.trainingJob = trainingJob;
            return this;
        }

        /**
         * An existing network to build in.
         *
         * @default a new {@link TrainingNetwork}
         */
        public Builder network(TrainingNetwork network) {
            this.network = network;
            return this;
        }

        /**
         * An existing bucket that holds the dataset.
         *
         * @default a new secure bucket
         */
        public Builder bucket(IBucket bucket) {
            this.bucket = bucket;
            return this;
        }

        /**
         * How a new bucket encrypts the data. {@link DataEncryption#KMS} makes the bucket's new key the data
         * layer's key: it also encrypts the new network's flow logs and every log group of the platform. Only for
         * a new bucket.
         *
         * @default {@link DataEncryption#S3_MANAGED}
         */
        public Builder encryption(DataEncryption encryption) {
            this.encryption = encryption;
            return this;
        }

        /**
         * The dataset prefix in the bucket.
         *
         * @default "datasets"
         */
        public Builder datasetPrefix(String datasetPrefix) {
            this.datasetPrefix = datasetPrefix;
            return this;
        }

        /**
         * The name of the training channel.
         *
         * @default "train"
         */
        public Builder channelName(String channelName) {
            this.channelName = channelName;
            return this;
        }

        /**
         * The directory the channel reads, under the dataset prefix (S3 and Lustre) or as {@code /<path>}
         * from the EFS root.
         *
         * @default "train"
         */
        public Builder channelPath(String channelPath) {
            this.channelPath = channelPath;
            return this;
        }

        /**
         * For S3 Express One Zone: the base name of the directory bucket the platform creates, named
         * {@code <base>--<zone-id>--x-s3} in the network's data zone (S3ExpressStore's naming rules apply).
         *
         * @default the platform's unique construct name in lower case, at most 30 characters
         */
        public Builder s3ExpressBaseName(String s3ExpressBaseName) {
            this.s3ExpressBaseName = s3ExpressBaseName;
            return this;
        }

        /**
         * For Lustre: whether {@code cdk deploy} waits for the cache to be warm (training executions wait for the
         * preload either way).
         *
         * @default true, unless the profile's warm-up is estimated beyond what a deploy can wait (55 minutes)
         */
        public Builder waitForPreload(Boolean waitForPreload) {
            this.waitForPreload = waitForPreload;
            return this;
        }

        /**
         * For Lustre: the cache's storage capacity (1200, 2400 or a multiple of 2400 GiB). Pin the derived value
         * once deployed: FSx only grows a file system's capacity. Pinned without {@link #lustreDeploymentType}, the
         * cache is SCRATCH_2 (what platforms built before PERSISTENT_2 existed), and a warning says so when the advisor
         * prefers PERSISTENT_2.
         *
         * @default derived from the profile by the advisor for its deployment type and tier (holds the data, feeds the
         *     instances, loads within the preload deadline), else 1200
         */
        public Builder lustreCapacityGiB(Number lustreCapacityGiB) {
            this.lustreCapacityGiB = lustreCapacityGiB;
            return this;
        }

        /**
         * The EFS file system that already holds the data (imported with its security group). Required when
         * the source is EFS: EFS is chosen because the data lives there, so the platform never creates an
         * empty one.
         *
         * @default none
         */
        public Builder efsFileSystem(IFileSystem efsFileSystem) {
            this.efsFileSystem = efsFileSystem;
            return this;
        }

        /**
         * For Lustre: the cache's deployment type. Fixed at creation (another replaces the cache): pin the advisor's
         * once deployed.
         *
         * @default the advisor's for the profile: PERSISTENT_2 when one of its tiers costs more than 5% less per month
         *     than the larger SCRATCH_2 the instances' read rate would need, else SCRATCH_2 (also without a profile, or
         *     with {@link #lustreCapacityGiB} pinned)
         */
        public Builder lustreDeploymentType(LustreDeploymentType lustreDeploymentType) {
            this.lustreDeploymentType = lustreDeploymentType;
            return this;
        }

        /**
         * For a PERSISTENT_2 cache: its throughput tier, 125, 250, 500 or 1000 MB/s per TiB (changed in place). Only
         * with {@code lustreDeploymentType(PERSISTENT_2)}.
         *
         * @default the advisor's cheapest tier for the profile (required without a profile)
         */
        public Builder lustrePerUnitStorageThroughput(Number lustrePerUnitStorageThroughput) {
            this.lustrePerUnitStorageThroughput = lustrePerUnitStorageThroughput;
            return this;
        }

        /**
         * For a PERSISTENT_2 cache: metadata IOPS to provision (USER_PROVISIONED; see
         * {@code LustreCacheProps.metadataIops}). Only with {@code lustreDeploymentType(PERSISTENT_2)}. FSx only raises
         * them: once deployed, keep this at least at the deployed value. Removing it asks FSx to switch the file system
         * to AUTOMATIC, which it rejects when the IOPS exceed AUTOMATIC's for the capacity (grow the capacity first).
         *
         * @default AUTOMATIC (FSx scales the metadata IOPS with the capacity)
         */
        public Builder lustreMetadataIops(Number lustreMetadataIops) {
            this.lustreMetadataIops = lustreMetadataIops;
            return this;
        }

        /**
         * The data Availability Zone of the new network (where the Lustre cache lives and training runs), e.g. an AZ
         * where the training instance type is offered; see {@code TrainingNetworkProps.dataAvailabilityZone}. Not with
         * an existing {@link #network} (give it to that network). Changing it later replaces the data subnet and the
         * Lustre cache.
         *
         * @default the new VPC's first AZ
         */
        public Builder dataAvailabilityZone(String dataAvailabilityZone) {
            this.dataAvailabilityZone = dataAvailabilityZone;
            return this;
        }

        /** @return the props */
        public TrainingDataPlatformProps build() {
            return new TrainingDataPlatformProps(this);
        }
    }
}
