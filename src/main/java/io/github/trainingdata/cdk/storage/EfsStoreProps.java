package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.efs.IFileSystem;
import software.amazon.awscdk.services.efs.PerformanceMode;
import software.amazon.awscdk.services.efs.ThroughputMode;
import software.amazon.awscdk.services.kms.IKey;

/**
 * Properties of an {@link EfsStore}: {@code network} is required; then either an existing
 * {@code fileSystem} or settings for a new one (never both).
 */
public final class EfsStoreProps {
    private final TrainingNetwork network;
    private final IFileSystem fileSystem;
    private final PerformanceMode performanceMode;
    private final ThroughputMode throughputMode;
    private final Integer provisionedThroughputMibps;
    private final Boolean oneZone;
    private final IKey encryptionKey;
    private final RemovalPolicy removalPolicy;
    private final Boolean createDirectories;
    private final IKey logsKey;

    private EfsStoreProps(Builder b) {
        this.network = b.network;
        this.fileSystem = b.fileSystem;
        this.performanceMode = b.performanceMode;
        this.throughputMode = b.throughputMode;
        this.provisionedThroughputMibps = b.provisionedThroughputMibps;
        this.oneZone = b.oneZone;
        this.encryptionKey = b.encryptionKey;
        this.removalPolicy = b.removalPolicy;
        this.createDirectories = b.createDirectories;
        this.logsKey = b.logsKey;
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the network whose training group may mount the file system */
    public TrainingNetwork getNetwork() {
        return network;
    }

    /** @return the existing file system, or null for a new one */
    public IFileSystem getFileSystem() {
        return fileSystem;
    }

    /** @return the performance mode, or null for the default */
    public PerformanceMode getPerformanceMode() {
        return performanceMode;
    }

    /** @return the throughput mode, or null for the default */
    public ThroughputMode getThroughputMode() {
        return throughputMode;
    }

    /** @return the provisioned throughput in MiB/s, or null */
    public Integer getProvisionedThroughputMibps() {
        return provisionedThroughputMibps;
    }

    /** @return whether the file system is One Zone, or null for the default */
    public Boolean getOneZone() {
        return oneZone;
    }

    /** @return the KMS key, or null for the EFS-managed key */
    public IKey getEncryptionKey() {
        return encryptionKey;
    }

    /** @return the removal policy, or null for the default */
    public RemovalPolicy getRemovalPolicy() {
        return removalPolicy;
    }

    /** @return whether the deploy creates the channels' directories, or null for the default */
    public Boolean getCreateDirectories() {
        return createDirectories;
    }

    /** @return the key of the directory function's log groups, or null for the default */
    public IKey getLogsKey() {
        return logsKey;
    }

    /** Builder of {@link EfsStoreProps}. */
    public static final class Builder {
        private TrainingNetwork network;
        private IFileSystem fileSystem;
        private PerformanceMode performanceMode;
        private ThroughputMode throughputMode;
        private Integer provisionedThroughputMibps;
        private Boolean oneZone;
        private IKey encryptionKey;
        private RemovalPolicy removalPolicy;
        private Boolean createDirectories;
        private IKey logsKey;

        private Builder() {
        }

        /** The network: mount targets go into its storage subnets; its training group may mount. Required. */
        public Builder network(TrainingNetwork network) {
            this.network = network;
            return this;
        }

        /**
         * An existing file system (imported with a security group) that already holds the data; the
         * training group is admitted on NFS. Then none of the new-file-system settings may be given.
         *
         * @default a new file system
         */
        public Builder fileSystem(IFileSystem fileSystem) {
            this.fileSystem = fileSystem;
            return this;
        }

        /**
         * {@code GENERAL_PURPOSE} favours latency and small files; {@code MAX_IO} scales aggregate
         * throughput for many I/O workers (not with One Zone or elastic throughput). Immutable.
         *
         * @default {@link PerformanceMode#GENERAL_PURPOSE}
         */
        public Builder performanceMode(PerformanceMode performanceMode) {
            this.performanceMode = performanceMode;
            return this;
        }

        /**
         * {@code BURSTING} grows with size; {@code PROVISIONED} buys a fixed rate
         * (provisionedThroughputMibps); {@code ELASTIC} scales with demand.
         *
         * @default {@link ThroughputMode#BURSTING}
         */
        public Builder throughputMode(ThroughputMode throughputMode) {
            this.throughputMode = throughputMode;
            return this;
        }

        /**
         * Provisioned throughput in MiB/s (at least 1; the Region's maximum is about 3414). Required with
         * {@code PROVISIONED}, rejected with any other mode.
         *
         * @default none
         */
        public Builder provisionedThroughputMibps(Integer provisionedThroughputMibps) {
            this.provisionedThroughputMibps = provisionedThroughputMibps;
            return this;
        }

        /**
         * A One Zone file system in the network's data AZ (about half the storage price; one mount target).
         *
         * @default false (Regional, one mount target per AZ of the storage subnets)
         */
        public Builder oneZone(Boolean oneZone) {
            this.oneZone = oneZone;
            return this;
        }

        /**
         * A customer managed key for encryption at rest.
         *
         * @default the AWS managed key for EFS (the file system is always encrypted)
         */
        public Builder encryptionKey(IKey encryptionKey) {
            this.encryptionKey = encryptionKey;
            return this;
        }

        /**
         * What happens to a new file system when the stack is deleted: DESTROY, RETAIN or RETAIN_ON_UPDATE_OR_DELETE
         * (SNAPSHOT is refused: CloudFormation takes no snapshot of an EFS file system).
         *
         * @default {@link RemovalPolicy#RETAIN_ON_UPDATE_OR_DELETE} (CloudFormation's RetainExceptOnCreate: kept when the
         *     stack is deleted, deleted when the deploy that created it rolls back)
         */
        public Builder removalPolicy(RemovalPolicy removalPolicy) {
            this.removalPolicy = removalPolicy;
            return this;
        }

        /**
         * Whether the deploy creates every directory the store's EFS channels read (and {@code addDirectory}
         * adds): a custom resource whose function mounts the file system through an access point in the data
         * subnet and creates what is missing (mode 755, owned by root), never deleting anything. Also for an
         * existing file system, provided it has a mount target in the data subnet's AZ and its security group
         * accepts rules (the function's group is admitted on NFS). Set false where Lambda cannot mount EFS
         * (a few Regions) or may not run in the VPC: the directories are then listed in the stack output
         * {@code DirectoriesToCreate} and a synth warning, to be created before the first job.
         *
         * @default true
         */
        public Builder createDirectories(Boolean createDirectories) {
            this.createDirectories = createDirectories;
            return this;
        }

        /**
         * The data layer's KMS key (e.g. {@code TrainingDataBucket.getEncryptionKey()}) for the log groups of the
         * function that creates the directories, so one key covers every log group; also for an existing file
         * system.
         *
         * @default {@code encryptionKey}, else CloudWatch Logs' own encryption
         */
        public Builder logsKey(IKey logsKey) {
            this.logsKey = logsKey;
            return this;
        }

        /** @return the props */
        public EfsStoreProps build() {
            return new EfsStoreProps(this);
        }
    }
}
