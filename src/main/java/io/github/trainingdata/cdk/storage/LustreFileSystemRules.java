package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.performance.Sizing;
import io.github.trainingdata.cdk.limits.FsxLimits;
import java.util.Set;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Token;
import software.constructs.IConstruct;

/**
 * The file-system settings a {@link LustreCache} accepts ({@link FsxLimits}), resolved once into a
 * {@link LustreFileSystemSpec}: the deployment type; an SSD capacity given or derived from the dataset size; PERSISTENT_2's
 * throughput tier (required, and only with it); a metadata configuration only on PERSISTENT_2 with Lustre 2.15 (where it
 * is always set, since FSx cannot add one later), with valid metadata IOPS; a weekly maintenance window in the API's
 * format. For an adopted file system: a valid id and mount name and none of the settings only a new one takes. Tokens
 * are never rejected.
 */
final class LustreFileSystemRules {
    static final int DEFAULT_CAPACITY_GIB = FsxLimits.SSD_MIN_CAPACITY_GIB;

    private final IConstruct scope;

    LustreFileSystemRules(IConstruct scope) {
        this.scope = scope;
    }

    /**
     * Checks a new file system's settings and applies the defaults: SCRATCH_2, Lustre 2.15, the capacity given or
     * derived (else 1200 GiB), PERSISTENT_2's tier, its metadata configuration (AUTOMATIC unless IOPS are given).
     *
     * @return the settings to render
     */
    LustreFileSystemSpec resolve(LustreCacheProps props) {
        LustreDeploymentType type = props.getDeploymentType() != null ? props.getDeploymentType()
                : LustreDeploymentType.SCRATCH_2;
        LustreVersion version = props.getLustreVersion() != null ? props.getLustreVersion() : LustreVersion.V2_15;
        Number capacity = capacity(props, type);
        Number perUnit = throughputTier(props.getPerUnitStorageThroughput(), type);
        Number iops = props.getMetadataIops();
        checkMetadataIops(iops, type, version);
        String mode = type == LustreDeploymentType.PERSISTENT_2 && version == LustreVersion.V2_15
                ? (iops != null ? "USER_PROVISIONED" : "AUTOMATIC") : null;
        String maintenance = props.getWeeklyMaintenanceStartTime();
        if (maintenance != null && !Token.isUnresolved(maintenance)
                && !FsxLimits.WEEKLY_MAINTENANCE_START_TIME.accepts(maintenance)) {
            throw ConfigurationError.of(scope, "weeklyMaintenanceStartTime", maintenance, "d:HH:MM in UTC, d from 1 "
                    + "(Monday) to 7 (Sunday), e.g. 7:03:00 (" + FsxLimits.WEEKLY_MAINTENANCE_START_TIME.allowed() + ")");
        }
        return new LustreFileSystemSpec(type, version, capacity, perUnit, mode, iops, maintenance);
    }

    private Number throughputTier(Number perUnit, LustreDeploymentType type) {
        if (type == LustreDeploymentType.SCRATCH_2) {
            if (perUnit != null) {
                throw ConfigurationError.of(scope, "perUnitStorageThroughput", perUnit, "unset with SCRATCH_2, whose "
                        + "throughput comes with its capacity (200 MB/s per TiB); a throughput tier needs deploymentType "
                        + "PERSISTENT_2");
            }
            return null;
        }
        String tiers = String.join(", ", FsxLimits.PERSISTENT_2_THROUGHPUTS.stream().map(String::valueOf).toList())
                .replaceFirst(", (\\d+)$", " or $1") + " MB/s per TiB";
        if (perUnit == null) {
            throw ConfigurationError.of(scope, "perUnitStorageThroughput", null, tiers + " with PERSISTENT_2 (its "
                    + "throughput tier, billed with the storage; required)");
        }
        if (!Token.isUnresolved(perUnit) && !(FsxLimits.PER_UNIT_STORAGE_THROUGHPUT.acceptsNumber(perUnit)
                && FsxLimits.PERSISTENT_2_THROUGHPUTS.contains(perUnit.intValue()))) {
            throw ConfigurationError.of(scope, "perUnitStorageThroughput", perUnit, tiers + " for PERSISTENT_2");
        }
        return perUnit;
    }

    private void checkMetadataIops(Number iops, LustreDeploymentType type, LustreVersion version) {
        if (iops == null) {
            return;
        }
        if (type != LustreDeploymentType.PERSISTENT_2) {
            throw ConfigurationError.of(scope, "metadataIops", iops, "unset with " + type + ": a metadata "
                    + "configuration is PERSISTENT_2's only");
        }
        if (version != LustreVersion.V2_15) {
            throw ConfigurationError.of(scope, "metadataIops", iops, "unset with Lustre " + version.apiValue() + ": a "
                    + "metadata configuration needs Lustre 2.15 (lustreVersion V2_15)");
        }
        if (!Token.isUnresolved(iops) && !(FsxLimits.METADATA_IOPS.acceptsNumber(iops)
                && FsxLimits.isValidSsdMetadataIops(iops.longValue()))) {
            throw ConfigurationError.of(scope, "metadataIops", iops, FsxLimits.SSD_METADATA_IOPS_VALUES
                    + " metadata IOPS");
        }
    }

    /**
     * The storage capacity to create: the one given, the one derived from the dataset size, or the default.
     *
     * @return GiB, or a token
     */
    private Number capacity(LustreCacheProps props, LustreDeploymentType type) {
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
                && FsxLimits.isValidSsdCapacityGiB(given.longValue()))) {
            throw ConfigurationError.of(scope, "storageCapacityGiB", given, FsxLimits.SSD_CAPACITIES + " for " + type);
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
