package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.Objects;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.fsx.LustreAutoImportPolicy;
import software.amazon.awscdk.services.fsx.LustreDataCompressionType;

/** Properties of a {@link LustreCache}. {@code network} and {@code dataBucket} are required. */
public final class LustreCacheProps {
    private final TrainingNetwork network;
    private final TrainingDataBucket dataBucket;
    private final String importPrefix;
    private final String exportPrefix;
    private final LustreAutoImportPolicy autoImportPolicy;
    private final Integer importedFileChunkSizeMiB;
    private final LustreDataCompressionType dataCompression;
    private final Integer storageCapacityGiB;
    private final Long datasetSizeBytes;
    private final RemovalPolicy removalPolicy;
    private final ExistingLustreFileSystem existingFileSystem;

    private LustreCacheProps(Builder b) {
        this.network = Objects.requireNonNull(b.network, "LustreCacheProps.network is required");
        this.dataBucket = Objects.requireNonNull(b.dataBucket, "LustreCacheProps.dataBucket is required");
        this.importPrefix = b.importPrefix;
        this.exportPrefix = b.exportPrefix;
        this.autoImportPolicy = b.autoImportPolicy;
        this.importedFileChunkSizeMiB = b.importedFileChunkSizeMiB;
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

    /** @return the bucket the file system is linked to */
    public TrainingDataBucket getDataBucket() {
        return dataBucket;
    }

    /** @return the import prefix relative to the dataset prefix, or null for the dataset prefix itself */
    public String getImportPrefix() {
        return importPrefix;
    }

    /** @return the export prefix relative to the import prefix, or null for no explicit export path */
    public String getExportPrefix() {
        return exportPrefix;
    }

    /** @return the auto-import policy, or null for the default */
    public LustreAutoImportPolicy getAutoImportPolicy() {
        return autoImportPolicy;
    }

    /** @return the imported file chunk size in MiB, or null for the service default */
    public Integer getImportedFileChunkSizeMiB() {
        return importedFileChunkSizeMiB;
    }

    /** @return the data compression, or null for the default */
    public LustreDataCompressionType getDataCompression() {
        return dataCompression;
    }

    /** @return the storage capacity in GiB, or null */
    public Integer getStorageCapacityGiB() {
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
        private TrainingDataBucket dataBucket;
        private String importPrefix;
        private String exportPrefix;
        private LustreAutoImportPolicy autoImportPolicy;
        private Integer importedFileChunkSizeMiB;
        private LustreDataCompressionType dataCompression;
        private Integer storageCapacityGiB;
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

        /** The bucket whose dataset the file system is linked to (ImportPath). Required. */
        public Builder dataBucket(TrainingDataBucket dataBucket) {
            this.dataBucket = dataBucket;
            return this;
        }

        /**
         * The part of the dataset to link, relative to the bucket's dataset prefix; it becomes the file
         * system's root.
         *
         * @default "" (the whole dataset prefix)
         */
        public Builder importPrefix(String importPrefix) {
            this.importPrefix = importPrefix;
            return this;
        }

        /**
         * Where {@code hsm_archive} exports go, relative to the import prefix (never the import prefix
         * itself: that would overwrite the source data).
         *
         * @default no explicit export path (FSx picks {@code s3://bucket/FSxLustre<timestamp>})
         */
        public Builder exportPrefix(String exportPrefix) {
            this.exportPrefix = exportPrefix;
            return this;
        }

        /**
         * How the file system follows changes in the bucket after creation.
         *
         * @default {@link LustreAutoImportPolicy#NEW_CHANGED_DELETED}
         */
        public Builder autoImportPolicy(LustreAutoImportPolicy autoImportPolicy) {
            this.autoImportPolicy = autoImportPolicy;
            return this;
        }

        /**
         * Stripe size of imported files, 1–512000 MiB.
         *
         * @default the service default, 1024 MiB
         */
        public Builder importedFileChunkSizeMiB(Integer importedFileChunkSizeMiB) {
            this.importedFileChunkSizeMiB = importedFileChunkSizeMiB;
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
         * Storage capacity: 1200, 2400, or a multiple of 2400 GiB. Not together with datasetSizeBytes.
         *
         * @default derived from datasetSizeBytes, else 1200
         */
        public Builder storageCapacityGiB(Integer storageCapacityGiB) {
            this.storageCapacityGiB = storageCapacityGiB;
            return this;
        }

        /**
         * The dataset's size: the capacity becomes the smallest valid one that holds it with headroom.
         *
         * @default unset (capacity given, or 1200 GiB)
         */
        public Builder datasetSizeBytes(Long datasetSizeBytes) {
            this.datasetSizeBytes = datasetSizeBytes;
            return this;
        }

        /**
         * What happens to the file system when the stack is deleted.
         *
         * @default {@link RemovalPolicy#RETAIN}
         */
        public Builder removalPolicy(RemovalPolicy removalPolicy) {
            this.removalPolicy = removalPolicy;
            return this;
        }

        /**
         * An existing file system to use instead of creating one; {@code dataBucket} and
         * {@code importPrefix} must then describe its ImportPath. None of the new-file-system settings
         * (capacity, dataset size, export prefix, auto-import, chunk size, compression, removal policy)
         * may be given.
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
