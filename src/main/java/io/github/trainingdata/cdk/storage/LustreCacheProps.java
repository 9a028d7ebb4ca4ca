package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.List;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.fsx.LustreDataCompressionType;

/** Properties of a {@link LustreCache}. {@code network} and {@code datasets} are required. */
public final class LustreCacheProps {
    private final TrainingNetwork network;
    private final List<LustreDataset> datasets;
    private final LustreVersion lustreVersion;
    private final LustreDataCompressionType dataCompression;
    private final Number storageCapacityGiB;
    private final Long datasetSizeBytes;
    private final RemovalPolicy removalPolicy;
    private final ExistingLustreFileSystem existingFileSystem;
    private final LustreDeploymentType deploymentType;
    private final Number perUnitStorageThroughput;
    private final Number metadataIops;
    private final LustreMetadataMode metadataMode;
    private final String weeklyMaintenanceStartTime;

    private LustreCacheProps(Builder b) {
        this.network = b.network;
        this.datasets = b.datasets == null ? null : List.copyOf(b.datasets);
        this.lustreVersion = b.lustreVersion;
        this.dataCompression = b.dataCompression;
        this.storageCapacityGiB = b.storageCapacityGiB;
        this.datasetSizeBytes = b.datasetSizeBytes;
        this.removalPolicy = b.removalPolicy;
        this.existingFileSystem = b.existingFileSystem;
        this.deploymentType = b.deploymentType;
        this.perUnitStorageThroughput = b.perUnitStorageThroughput;
        this.metadataIops = b.metadataIops;
        this.metadataMode = b.metadataMode;
        this.weeklyMaintenanceStartTime = b.weeklyMaintenanceStartTime;
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the network whose data subnet holds the file system */
    public TrainingNetwork getNetwork() {
        return network;
    }

    /** @return the datasets linked to the file system, or null when not given */
    public List<LustreDataset> getDatasets() {
        return datasets;
    }

    /** @return the Lustre version, or null for the default */
    public LustreVersion getLustreVersion() {
        return lustreVersion;
    }

    /** @return the data compression, or null for the default */
    public LustreDataCompressionType getDataCompression() {
        return dataCompression;
    }

    /** @return the storage capacity in GiB (may be a number token), or null */
    public Number getStorageCapacityGiB() {
        return storageCapacityGiB;
    }

    /** @return the dataset size the capacity is derived from, or null */
    public Long getDatasetSizeBytes() {
        return datasetSizeBytes;
    }

    /** @return the removal policy, or null for the default */
    public RemovalPolicy getRemovalPolicy() {
        return removalPolicy;
    }

    /** @return the existing file system, or null for a new one */
    public ExistingLustreFileSystem getExistingFileSystem() {
        return existingFileSystem;
    }

    /** @return the deployment type, or null for the default */
    public LustreDeploymentType getDeploymentType() {
        return deploymentType;
    }

    /** @return PERSISTENT_2's throughput tier in MB/s per TiB (may be a number token), or null */
    public Number getPerUnitStorageThroughput() {
        return perUnitStorageThroughput;
    }

    /** @return PERSISTENT_2's provisioned metadata IOPS (may be a number token), or null when not given */
    public Number getMetadataIops() {
        return metadataIops;
    }

    /** @return PERSISTENT_2's metadata mode as given, or null (then {@code metadataIops} states USER_PROVISIONED) */
    public LustreMetadataMode getMetadataMode() {
        return metadataMode;
    }

    /** @return the weekly maintenance window's start, {@code d:HH:MM} in UTC, or null for FSx's choice */
    public String getWeeklyMaintenanceStartTime() {
        return weeklyMaintenanceStartTime;
    }

    /** Builder of {@link LustreCacheProps}. */
    public static final class Builder {
        private TrainingNetwork network;
        private List<LustreDataset> datasets;
        private LustreVersion lustreVersion;
        private LustreDataCompressionType dataCompression;
        private Number storageCapacityGiB;
        private Long datasetSizeBytes;
        private RemovalPolicy removalPolicy;
        private ExistingLustreFileSystem existingFileSystem;
        private LustreDeploymentType deploymentType;
        private Number perUnitStorageThroughput;
        private Number metadataIops;
        private LustreMetadataMode metadataMode;
        private String weeklyMaintenanceStartTime;

        private Builder() {
        }

        /** The network: the file system goes into its data subnet and admits its training group. Required. */
        public Builder network(TrainingNetwork network) {
            this.network = network;
            return this;
        }

        /**
         * The S3 datasets linked to the file system, 1 to 8, each by its own data repository association with
         * a unique file-system path and S3 location (for an existing file system: the associations it has).
         * A dataset's file-system path and S3 location are fixed once deployed: CloudFormation replaces an
         * association by creating the new one before deleting the old, and FSx refuses a second association on
         * the same path or location, so relink under a new name and path, then remove the old dataset.
         * Required.
         */
        public Builder datasets(List<LustreDataset> datasets) {
            this.datasets = datasets;
            return this;
        }

        /**
         * The Lustre version of a new file system.
         *
         * @default {@link LustreVersion#V2_15}
         */
        public Builder lustreVersion(LustreVersion lustreVersion) {
            this.lustreVersion = lustreVersion;
            return this;
        }

        /**
         * Data compression on the file system.
         *
         * @default {@link LustreDataCompressionType#NONE}
         */
        public Builder dataCompression(LustreDataCompressionType dataCompression) {
            this.dataCompression = dataCompression;
            return this;
        }

        /**
         * Storage capacity: 1200, 2400, or a multiple of 2400 GiB (SCRATCH_2 and PERSISTENT_2 alike). Not together with
         * datasetSizeBytes. FSx
         * only grows capacity, at most once every 6 hours. May be a deploy-time number (for example a
         * {@code CfnParameter}'s {@code getValueAsNumber()}), checked by FSx instead of at synth.
         *
         * @default derived from datasetSizeBytes, else 1200
         */
        public Builder storageCapacityGiB(Number storageCapacityGiB) {
            this.storageCapacityGiB = storageCapacityGiB;
            return this;
        }

        /**
         * The size of all datasets together: the capacity becomes the smallest valid one that holds them with
         * headroom. A warning reminds you to pin the derived capacity once deployed, since FSx cannot shrink it.
         *
         * @default unset (capacity given, or 1200 GiB)
         */
        public Builder datasetSizeBytes(Long datasetSizeBytes) {
            this.datasetSizeBytes = datasetSizeBytes;
            return this;
        }

        /**
         * What happens to the file system (and its associations) when the stack is deleted: DESTROY, RETAIN or
         * RETAIN_ON_UPDATE_OR_DELETE (SNAPSHOT is refused: CloudFormation takes no snapshot of an FSx file system).
         * Unless it is DESTROY, its security group with its Lustre rules from itself and, when the network created
         * them, the data subnet and VPC get the same policy.
         *
         * @default {@link RemovalPolicy#DESTROY} (S3 holds the data), or {@link RemovalPolicy#RETAIN_ON_UPDATE_OR_DELETE}
         *     when any dataset exports to S3 (kept when the stack is deleted, deleted when its creating deploy rolls back)
         */
        public Builder removalPolicy(RemovalPolicy removalPolicy) {
            this.removalPolicy = removalPolicy;
            return this;
        }

        /**
         * An existing file system to use instead of creating one; {@code datasets} then describe the
         * associations it already has (no new ones are created). None of the new-file-system settings
         * (capacity, dataset size, version, compression, removal policy, deployment type, throughput tier, metadata
         * IOPS and mode, maintenance window) may be given.
         *
         * @default a new SCRATCH_2 file system
         */
        public Builder existingFileSystem(ExistingLustreFileSystem existingFileSystem) {
            this.existingFileSystem = existingFileSystem;
            return this;
        }

        /**
         * The deployment type of a new file system. SCRATCH_2 is the cheapest per TiB; PERSISTENT_2 buys a throughput
         * tier ({@link #perUnitStorageThroughput}, required with it) for a cluster that reads faster than the capacity
         * holding its data gives on SCRATCH_2, is replicated in its AZ, and is encrypted at rest with the data layer's
         * KMS key when the first dataset's bucket has one. Fixed at creation: another type replaces the file system (a
         * new, cold cache, new associations, a new mount name).
         *
         * @default {@link LustreDeploymentType#SCRATCH_2}
         */
        public Builder deploymentType(LustreDeploymentType deploymentType) {
            this.deploymentType = deploymentType;
            return this;
        }

        /**
         * PERSISTENT_2's throughput tier ({@code PerUnitStorageThroughput}): 125, 250, 500 or 1000 MB/s per TiB of
         * storage, billed with the storage. Required with PERSISTENT_2, refused with SCRATCH_2. Changed in place (up or
         * down; FSx switches file servers, so the file system is unavailable for a few minutes). May be a deploy-time
         * number.
         *
         * @default none (required with PERSISTENT_2)
         */
        public Builder perUnitStorageThroughput(Number perUnitStorageThroughput) {
            this.perUnitStorageThroughput = perUnitStorageThroughput;
            return this;
        }

        /**
         * PERSISTENT_2 on Lustre 2.15: metadata IOPS to provision (mode {@code USER_PROVISIONED}): 1500, 3000, 6000,
         * 12000 or a multiple of 12000 up to 192000. FSx only raises provisioned IOPS (at most once every 6 hours):
         * once deployed, keep this at least at the deployed value. Removing it does not return the file system to
         * AUTOMATIC: a PERSISTENT_2 cache on 2.15 must then state {@link #metadataMode}, and FSx accepts AUTOMATIC on
         * a deployed USER_PROVISIONED file system only when its IOPS do not exceed what AUTOMATIC gives its capacity
         * (grow the capacity first). Refused with SCRATCH_2, with Lustre 2.12 and with {@code metadataMode(AUTOMATIC)}.
         * May be a deploy-time number.
         *
         * @default none: {@link #metadataMode} is then required with PERSISTENT_2 on 2.15
         */
        public Builder metadataIops(Number metadataIops) {
            this.metadataIops = metadataIops;
            return this;
        }

        /**
         * PERSISTENT_2 on Lustre 2.15: how metadata IOPS are provisioned. A PERSISTENT_2 cache on 2.15 always gets a
         * metadata configuration (FSx cannot add one later), and its mode is always stated: {@code metadataIops}
         * alone states USER_PROVISIONED; without them, {@link LustreMetadataMode#AUTOMATIC} must be given. So removing
         * {@code metadataIops} fails synth instead of asking FSx to switch a USER_PROVISIONED file system to AUTOMATIC,
         * which it rejects when the file system's IOPS exceed AUTOMATIC's for its capacity. Refused with SCRATCH_2 and
         * with Lustre 2.12.
         *
         * @default USER_PROVISIONED when {@code metadataIops} is given; required otherwise (PERSISTENT_2 on 2.15)
         */
        public Builder metadataMode(LustreMetadataMode metadataMode) {
            this.metadataMode = metadataMode;
            return this;
        }

        /**
         * When FSx may patch the file system each week, {@code d:HH:MM} in UTC (1 = Monday … 7 = Sunday), e.g.
         * {@code 7:03:00}; a window that falls outside training keeps jobs from meeting a pause of the file servers.
         * Updated in place.
         *
         * @default FSx's choice (a 30-minute window it assigns)
         */
        public Builder weeklyMaintenanceStartTime(String weeklyMaintenanceStartTime) {
            this.weeklyMaintenanceStartTime = weeklyMaintenanceStartTime;
            return this;
        }

        /** @return the props */
        public LustreCacheProps build() {
            return new LustreCacheProps(this);
        }
    }
}
