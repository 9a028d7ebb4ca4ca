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

    private LustreCacheProps(Builder b) {
        this.network = b.network;
        this.datasets = b.datasets == null ? null : List.copyOf(b.datasets);
        this.lustreVersion = b.lustreVersion;
        this.dataCompression = b.dataCompression;
        this.storageCapacityGiB = b.storageCapacityGiB;
        this.datasetSizeBytes = b.datasetSizeBytes;
        this.removalPolicy = b.removalPolicy;
        this.existingFileSystem = b.existingFileSystem;
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
         * Storage capacity: 1200, 2400, or a multiple of 2400 GiB. Not together with datasetSizeBytes. FSx
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
         * What happens to the file system (and its associations) when the stack is deleted. Unless it is DESTROY,
         * its security group and, when the network created them, the data subnet and VPC get the same policy.
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
         * (capacity, dataset size, version, compression, removal policy) may be given.
         *
         * @default a new SCRATCH_2 file system
         */
        public Builder existingFileSystem(ExistingLustreFileSystem existingFileSystem) {
            this.existingFileSystem = existingFileSystem;
            return this;
        }

        /** @return the props */
        public LustreCacheProps build() {
            return new LustreCacheProps(this);
        }
    }
}
