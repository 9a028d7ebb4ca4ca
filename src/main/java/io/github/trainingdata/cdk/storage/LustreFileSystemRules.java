package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.advisor.Sizing;
import io.github.trainingdata.cdk.limits.FsxLimits;
import java.util.Set;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Token;
import software.constructs.IConstruct;

/**
 * The file-system settings a {@link LustreCache} accepts: a SCRATCH_2 capacity given or derived from the
 * dataset size ({@link FsxLimits}), and for an adopted file system a valid id and mount name and none of the
 * settings only a new one takes. Tokens are never rejected.
 */
final class LustreFileSystemRules {
    static final int DEFAULT_CAPACITY_GIB = FsxLimits.SCRATCH_2_MIN_CAPACITY_GIB;

    private final IConstruct scope;

    LustreFileSystemRules(IConstruct scope) {
        this.scope = scope;
    }

    /**
     * The storage capacity to create: the one given, the one derived from the dataset size, or the default.
     *
     * @return GiB, or a token
     */
    Number capacity(LustreCacheProps props) {
        Number given = props.getStorageCapacityGiB();
        Long datasetBytes = props.getDatasetSizeBytes();
        if (given != null && datasetBytes != null) {
            throw ConfigurationError.of(scope, "storageCapacityGiB", given,
                    "either storageCapacityGiB or datasetSizeBytes (capacity derived from the dataset), not both");
        }
        if (datasetBytes != null) {
            if (datasetBytes < 0) {
                throw ConfigurationError.of(scope, "datasetSizeBytes", datasetBytes, "a size of 0 bytes or more");
            }
            int derived = Sizing.lustreCapacityGiB(datasetBytes);
            Annotations.of(scope).addWarningV2("@trainingdata/storage:derivedCapacity", scope.getNode().getPath()
                    + ": storage capacity " + derived + " GiB is derived from datasetSizeBytes. FSx only grows a file "
                    + "system's capacity (at most once every 6 hours), so a later, smaller dataset size would fail the "
                    + "update: once deployed, set storageCapacityGiB(" + derived + ") instead");
            return derived;
        }
        if (given == null) {
            return DEFAULT_CAPACITY_GIB;
        }
        if (!Token.isUnresolved(given) && !(FsxLimits.STORAGE_CAPACITY.acceptsNumber(given)
                && FsxLimits.isValidScratch2CapacityGiB(given.longValue()))) {
            throw ConfigurationError.of(scope, "storageCapacityGiB", given, FsxLimits.SCRATCH_2_CAPACITIES + " for SCRATCH_2");
        }
        return given;
    }

    /**
     * Checks an adopted file system's id, mount name, security group and throughput per TiB, and warns when its
     * Availability Zone is not given.
     */
    void checkExisting(ExistingLustreFileSystem existing) {
        String id = existing.getFileSystemId();
        if (id == null || (!Token.isUnresolved(id) && !FsxLimits.FILE_SYSTEM_ID.accepts(id))) {
            throw ConfigurationError.of(scope, "existingFileSystem.fileSystemId", id,
                    "an FSx file-system id, " + FsxLimits.FILE_SYSTEM_ID.allowed());
        }
        String mount = existing.getMountName();
        if (mount == null || (!Token.isUnresolved(mount) && !FsxLimits.MOUNT_NAME.accepts(mount))) {
            throw ConfigurationError.of(scope, "existingFileSystem.mountName", mount,
                    "the Lustre mount name, " + FsxLimits.MOUNT_NAME.allowed());
        }
        if (existing.getSecurityGroup() == null) {
            throw ConfigurationError.of(scope, "existingFileSystem.securityGroup", null, "the security group of the "
                    + "file system's network interfaces (training gets Lustre ports to it)");
        }
        Integer perUnit = existing.getPerUnitStorageThroughput();
        if (perUnit != null && !FsxLimits.PER_UNIT_STORAGE_THROUGHPUTS.contains(perUnit)) {
            throw ConfigurationError.of(scope, "existingFileSystem.perUnitStorageThroughput", perUnit,
                    "12, 40, 50, 100, 125, 200, 250, 500 or 1000 MB/s per TiB (PERSISTENT_1 or PERSISTENT_2)");
        }
        if (existing.getAvailabilityZone() == null) {
            Annotations.of(scope).addWarningV2("@trainingdata/storage:existingLustreZone", scope.getNode().getPath()
                    + ": the existing file system's Availability Zone is not given, so it is assumed to be the data "
                    + "subnet's; training cannot mount it from another AZ (set ExistingLustreFileSystem.availabilityZone)");
        }
    }

    /** Rejects the settings only a new file system takes, when an existing one is adopted. */
    void rejectNewFileSystemSettings(LustreCacheProps props) {
        NewResourceSettings.rejectWithExisting(scope, props, "", "existingFileSystem", "file system",
                "new-file-system", Set.of("existingFileSystem", "network", "datasets"));
    }
}
