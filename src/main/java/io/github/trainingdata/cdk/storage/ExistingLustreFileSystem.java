package io.github.trainingdata.cdk.storage;

import software.amazon.awscdk.services.ec2.ISecurityGroup;

/**
 * An FSx for Lustre file system that already exists (for example one a platform team shares), for
 * {@link LustreCacheProps.Builder#existingFileSystem}: its id, mount name and security group.
 */
public final class ExistingLustreFileSystem {
    private final String fileSystemId;
    private final String mountName;
    private final ISecurityGroup securityGroup;
    private final String dnsName;
    private final Integer storageCapacityGiB;
    private final Integer perUnitStorageThroughput;
    private final String availabilityZone;

    private ExistingLustreFileSystem(Builder b) {
        this.fileSystemId = b.fileSystemId;
        this.mountName = b.mountName;
        this.securityGroup = b.securityGroup;
        this.dnsName = b.dnsName;
        this.storageCapacityGiB = b.storageCapacityGiB;
        this.perUnitStorageThroughput = b.perUnitStorageThroughput;
        this.availabilityZone = b.availabilityZone;
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the file system id */
    public String getFileSystemId() {
        return fileSystemId;
    }

    /** @return the Lustre mount name */
    public String getMountName() {
        return mountName;
    }

    /** @return the file system's security group */
    public ISecurityGroup getSecurityGroup() {
        return securityGroup;
    }

    /** @return the DNS name, or null */
    public String getDnsName() {
        return dnsName;
    }

    /** @return the storage capacity in GiB, or null when not given */
    public Integer getStorageCapacityGiB() {
        return storageCapacityGiB;
    }

    /** @return the PerUnitStorageThroughput of a persistent file system in MB/s per TiB, or null when not given */
    public Integer getPerUnitStorageThroughput() {
        return perUnitStorageThroughput;
    }

    /** @return the file system's Availability Zone, or null when not given */
    public String getAvailabilityZone() {
        return availabilityZone;
    }

    /** Builder of {@link ExistingLustreFileSystem}. */
    public static final class Builder {
        private String fileSystemId;
        private String mountName;
        private ISecurityGroup securityGroup;
        private String dnsName;
        private Integer storageCapacityGiB;
        private Integer perUnitStorageThroughput;
        private String availabilityZone;

        private Builder() {
        }

        /** The file system id, e.g. {@code fs-0123456789abcdef0}. Required. */
        public Builder fileSystemId(String fileSystemId) {
            this.fileSystemId = fileSystemId;
            return this;
        }

        /** The Lustre mount name (FSx console: "Mount name"). Required. */
        public Builder mountName(String mountName) {
            this.mountName = mountName;
            return this;
        }

        /** The security group attached to the file system; training is admitted on the Lustre ports. Required. */
        public Builder securityGroup(ISecurityGroup securityGroup) {
            this.securityGroup = securityGroup;
            return this;
        }

        /**
         * The DNS name.
         *
         * @default {@code <fileSystemId>.fsx.<region>.amazonaws.com}
         */
        public Builder dnsName(String dnsName) {
            this.dnsName = dnsName;
            return this;
        }

        /**
         * The storage capacity, for the throughput figures.
         *
         * @default unknown (the throughput getters then fail)
         */
        public Builder storageCapacityGiB(Integer storageCapacityGiB) {
            this.storageCapacityGiB = storageCapacityGiB;
            return this;
        }

        /**
         * The {@code PerUnitStorageThroughput} of a PERSISTENT_1 or PERSISTENT_2 file system (MB/s per TiB: 12, 40,
         * 50, 100, 125, 200, 250, 500 or 1000): with the storage capacity, how fast a preload loads it from S3.
         *
         * @default unknown: a preload is estimated at SCRATCH_2's 100 MB/s per TiB of disk write throughput
         */
        public Builder perUnitStorageThroughput(Integer perUnitStorageThroughput) {
            this.perUnitStorageThroughput = perUnitStorageThroughput;
            return this;
        }

        /**
         * The file system's Availability Zone (the AZ of its subnet): training subnets are checked against it.
         *
         * @default assumed to be the network's data AZ (a warning says it cannot be checked)
         */
        public Builder availabilityZone(String availabilityZone) {
            this.availabilityZone = availabilityZone;
            return this;
        }

        /** @return the description */
        public ExistingLustreFileSystem build() {
            return new ExistingLustreFileSystem(this);
        }
    }
}
