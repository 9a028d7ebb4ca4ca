package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import io.github.trainingdata.cdk.performance.Sizing;
import io.github.trainingdata.cdk.limits.FsxLimits;
import java.util.Set;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Token;
import software.constructs.IConstruct;

/**
 * The file-system settings a {@link LustreCache} accepts ({@link FsxLimits}), resolved once into a
 * {@link LustreFileSystemSpec}: the deployment type; an SSD capacity given or derived from the dataset size; PERSISTENT_2's
 * throughput tier (required, and only with it); a metadata configuration only on PERSISTENT_2 with Lustre 2.15 (where it
 * is always set, since FSx cannot add one later, and its mode always stated), with valid metadata IOPS; a weekly
 * maintenance window in the API's format; a removal policy CloudFormation can apply (no SNAPSHOT). For an adopted file
 * system: a valid id and mount name and none of the settings only a new one takes. Tokens are never rejected.
 */
final class LustreFileSystemRules {
    static final SynthRule NETWORK = SynthRule.of("LUSTRE_NETWORK", "LustreCache", "network",
            "the TrainingNetwork the file system lives in",
            "library");
    static final SynthRule MAINTENANCE_WINDOW = SynthRule.of("LUSTRE_MAINTENANCE_WINDOW", "LustreCache",
            "weeklyMaintenanceStartTime",
            "d:HH:MM in UTC, d from 1 to 7",
            "FSx API model (botocore fsx/2018-03-01), CreateFileSystem (WeeklyMaintenanceStartTime)");
    static final SynthRule TIER_SCRATCH = SynthRule.of("LUSTRE_TIER_SCRATCH", "LustreCache", "perUnitStorageThroughput",
            "unset with SCRATCH_2",
            "Amazon FSx for Lustre User Guide, deployment types");
    static final SynthRule TIER_REQUIRED = SynthRule.of("LUSTRE_TIER_REQUIRED", "LustreCache",
            "perUnitStorageThroughput",
            "125, 250, 500 or 1000 with PERSISTENT_2 (required)",
            "FSx API model (botocore fsx/2018-03-01), CreateFileSystem (PerUnitStorageThroughput)");
    static final SynthRule TIER_VALUES = SynthRule.of("LUSTRE_TIER_VALUES", "LustreCache", "perUnitStorageThroughput",
            "125, 250, 500 or 1000 for PERSISTENT_2",
            "FSx API model (botocore fsx/2018-03-01), CreateFileSystem (PerUnitStorageThroughput)");
    static final SynthRule METADATA_DEPLOYMENT = SynthRule.of("LUSTRE_METADATA_DEPLOYMENT", "LustreCache",
            "metadataIops",
            "unset unless PERSISTENT_2",
            "FSx API model (botocore fsx/2018-03-01), CreateFileSystem (MetadataConfiguration)");
    static final SynthRule METADATA_VERSION = SynthRule.of("LUSTRE_METADATA_VERSION", "LustreCache", "metadataIops",
            "unset unless Lustre 2.15",
            "Amazon FSx for Lustre User Guide, metadata performance");
    static final SynthRule METADATA_IOPS = SynthRule.of("LUSTRE_METADATA_IOPS", "LustreCache", "metadataIops",
            "1500, 3000, 6000, 12000 or a multiple of 12000 up to 192000",
            "FSx API model (botocore fsx/2018-03-01), CreateFileSystem (MetadataConfiguration.Iops)");
    static final SynthRule METADATA_MODE_REQUIRED = SynthRule.of("LUSTRE_METADATA_MODE_REQUIRED", "LustreCache",
            "metadataMode",
            "metadataIops, or metadataMode AUTOMATIC, with PERSISTENT_2 on Lustre 2.15 (stated, never defaulted)",
            "FSx API reference, UpdateFileSystemLustreMetadataConfiguration (Mode): a switch from USER_PROVISIONED to "
                    + "AUTOMATIC is rejected when the IOPS exceed the automatic default");
    static final SynthRule METADATA_MODE_SETTINGS = SynthRule.of("LUSTRE_METADATA_MODE_SETTINGS", "LustreCache",
            "metadataMode",
            "unset unless PERSISTENT_2 on Lustre 2.15",
            "FSx API model (botocore fsx/2018-03-01), CreateFileSystem (MetadataConfiguration)");
    static final SynthRule METADATA_MODE_IOPS = SynthRule.of("LUSTRE_METADATA_MODE_IOPS", "LustreCache",
            "metadataIops",
            "none with AUTOMATIC; required with USER_PROVISIONED",
            "FSx API model (botocore fsx/2018-03-01), CreateFileSystemLustreMetadataConfiguration (Iops)");
    static final SynthRule REMOVAL_POLICY = SynthRule.of("LUSTRE_REMOVAL_POLICY", "LustreCache", "removalPolicy",
            "DESTROY, RETAIN or RETAIN_ON_UPDATE_OR_DELETE (no SNAPSHOT)",
            "CloudFormation DeletionPolicy (Snapshot only for resource types that take snapshots, e.g. "
                    + "AWS::EC2::Volume, AWS::RDS::DBInstance)");
    static final SynthRule CAPACITY_OR_DATASET_SIZE = SynthRule.of("LUSTRE_CAPACITY_OR_DATASET_SIZE", "LustreCache",
            "storageCapacityGiB",
            "either storageCapacityGiB or datasetSizeBytes, not both",
            "library");
    static final SynthRule DATASET_SIZE = SynthRule.of("LUSTRE_DATASET_SIZE", "LustreCache", "datasetSizeBytes",
            "0 bytes or more",
            "library");
    static final SynthRule CAPACITY = SynthRule.of("LUSTRE_CAPACITY", "LustreCache", "storageCapacityGiB",
            "1200, 2400 or a multiple of 2400 GiB (SCRATCH_2; PERSISTENT_2 steps by tier)",
            "FSx API model (botocore fsx/2018-03-01), CreateFileSystem (StorageCapacity)");
    static final SynthRule EXISTING_ID = SynthRule.of("LUSTRE_EXISTING_ID", "LustreCache",
            "existingFileSystem.fileSystemId",
            "fs- and at least 8 hex digits, 11 to 21 characters",
            "FSx API model (botocore fsx/2018-03-01), FileSystemId");
    static final SynthRule EXISTING_MOUNT_NAME = SynthRule.of("LUSTRE_EXISTING_MOUNT_NAME", "LustreCache",
            "existingFileSystem.mountName",
            "1 to 8 of [A-Za-z0-9_-]",
            "FSx API model (botocore fsx/2018-03-01), LustreFileSystemMountName");
    static final SynthRule EXISTING_SECURITY_GROUP = SynthRule.of("LUSTRE_EXISTING_SECURITY_GROUP", "LustreCache",
            "existingFileSystem.securityGroup",
            "the file system's security group",
            "library (training gets the Lustre ports)");
    static final SynthRule EXISTING_TIER = SynthRule.of("LUSTRE_EXISTING_TIER", "LustreCache",
            "existingFileSystem.perUnitStorageThroughput",
            "12, 40, 50, 100, 125, 200, 250, 500 or 1000",
            "FSx API model (botocore fsx/2018-03-01), CreateFileSystem (PerUnitStorageThroughput)");

    static final int DEFAULT_CAPACITY_GIB = FsxLimits.SSD_MIN_CAPACITY_GIB;

    private final IConstruct scope;

    LustreFileSystemRules(IConstruct scope) {
        this.scope = scope;
    }

    /**
     * Checks a new file system's settings and applies the defaults: SCRATCH_2, Lustre 2.15, the capacity given or
     * derived (else 1200 GiB), PERSISTENT_2's tier, its metadata configuration (USER_PROVISIONED with the IOPS given,
     * or the mode stated: never a default, since a default of AUTOMATIC would turn a removed {@code metadataIops} into
     * a switch FSx rejects).
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
        LustreMetadataMode mode = metadataMode(props.getMetadataMode(), iops, type, version);
        if (props.getRemovalPolicy() == RemovalPolicy.SNAPSHOT) {
            throw ConfigurationError.of(REMOVAL_POLICY, scope, "removalPolicy", RemovalPolicy.SNAPSHOT, "DESTROY, "
                    + "RETAIN or RETAIN_ON_UPDATE_OR_DELETE: CloudFormation takes no snapshot of an FSx file system, "
                    + "nor of the security group, subnet and VPC a retained cache keeps");
        }
        String maintenance = props.getWeeklyMaintenanceStartTime();
        if (maintenance != null && !Token.isUnresolved(maintenance)
                && !FsxLimits.WEEKLY_MAINTENANCE_START_TIME.accepts(maintenance)) {
            throw ConfigurationError.of(MAINTENANCE_WINDOW, scope,
                    "weeklyMaintenanceStartTime", maintenance, "d:HH:MM in UTC, d from 1 "
                    + "(Monday) to 7 (Sunday), e.g. 7:03:00 (" + FsxLimits.WEEKLY_MAINTENANCE_START_TIME.allowed() + ")");
        }
        return new LustreFileSystemSpec(type, version, capacity, perUnit, mode == null ? null : mode.apiValue(), iops,
                maintenance);
    }

    private Number throughputTier(Number perUnit, LustreDeploymentType type) {
        if (type == LustreDeploymentType.SCRATCH_2) {
            if (perUnit != null) {
                throw ConfigurationError.of(TIER_SCRATCH, scope,
                        "perUnitStorageThroughput", perUnit, "unset with SCRATCH_2, whose "
                        + "throughput comes with its capacity (200 MB/s per TiB); a throughput tier needs deploymentType "
                        + "PERSISTENT_2");
            }
            return null;
        }
        String tiers = String.join(", ", FsxLimits.PERSISTENT_2_THROUGHPUTS.stream().map(String::valueOf).toList())
                .replaceFirst(", (\\d+)$", " or $1") + " MB/s per TiB";
        if (perUnit == null) {
            throw ConfigurationError.of(TIER_REQUIRED, scope,
                    "perUnitStorageThroughput", null, tiers + " with PERSISTENT_2 (its "
                    + "throughput tier, billed with the storage; required)");
        }
        if (!Token.isUnresolved(perUnit) && !(FsxLimits.PER_UNIT_STORAGE_THROUGHPUT.acceptsNumber(perUnit)
                && FsxLimits.PERSISTENT_2_THROUGHPUTS.contains(perUnit.intValue()))) {
            throw ConfigurationError.of(TIER_VALUES, scope,
                    "perUnitStorageThroughput", perUnit, tiers + " for PERSISTENT_2");
        }
        return perUnit;
    }

    private void checkMetadataIops(Number iops, LustreDeploymentType type, LustreVersion version) {
        if (iops == null) {
            return;
        }
        if (type != LustreDeploymentType.PERSISTENT_2) {
            throw ConfigurationError.of(METADATA_DEPLOYMENT, scope,
                    "metadataIops", iops, "unset with " + type + ": a metadata "
                    + "configuration is PERSISTENT_2's only");
        }
        if (version != LustreVersion.V2_15) {
            throw ConfigurationError.of(METADATA_VERSION, scope,
                    "metadataIops", iops, "unset with Lustre " + version.apiValue() + ": a "
                    + "metadata configuration needs Lustre 2.15 (lustreVersion V2_15)");
        }
        if (!Token.isUnresolved(iops) && !(FsxLimits.METADATA_IOPS.acceptsNumber(iops)
                && FsxLimits.isValidSsdMetadataIops(iops.longValue()))) {
            throw ConfigurationError.of(METADATA_IOPS, scope, "metadataIops", iops, FsxLimits.SSD_METADATA_IOPS_VALUES
                    + " metadata IOPS");
        }
    }

    /**
     * The metadata mode of a PERSISTENT_2 file system on 2.15, as stated: USER_PROVISIONED by its IOPS, or the mode
     * given. Null for other file systems, which take none.
     */
    private LustreMetadataMode metadataMode(LustreMetadataMode given, Number iops, LustreDeploymentType type,
            LustreVersion version) {
        boolean configurable = type == LustreDeploymentType.PERSISTENT_2 && version == LustreVersion.V2_15;
        if (!configurable) {
            if (given != null) {
                throw ConfigurationError.of(METADATA_MODE_SETTINGS, scope, "metadataMode", given, "unset with " + type
                        + " on Lustre " + version.apiValue() + ": a metadata configuration is PERSISTENT_2's on "
                        + "Lustre 2.15 only");
            }
            return null;
        }
        if (given == null && iops == null) {
            throw ConfigurationError.of(METADATA_MODE_REQUIRED, scope, "metadataMode", null, "stated for PERSISTENT_2 "
                    + "on Lustre 2.15: metadataIops (USER_PROVISIONED; once deployed, keep them at least at the deployed "
                    + "value, FSx never lowers them) or metadataMode AUTOMATIC (FSx scales them with the capacity). A "
                    + "deployed USER_PROVISIONED file system switches to AUTOMATIC only when its IOPS do not exceed "
                    + "AUTOMATIC's for its capacity, else FSx rejects the update: grow the capacity first");
        }
        if (given == LustreMetadataMode.AUTOMATIC && iops != null) {
            throw ConfigurationError.of(METADATA_MODE_IOPS, scope, "metadataIops", iops, "none with metadataMode "
                    + "AUTOMATIC, whose IOPS FSx sets from the storage capacity");
        }
        if (given == LustreMetadataMode.USER_PROVISIONED && iops == null) {
            throw ConfigurationError.of(METADATA_MODE_IOPS, scope, "metadataIops", null, "the IOPS to provision with "
                    + "metadataMode USER_PROVISIONED, " + FsxLimits.SSD_METADATA_IOPS_VALUES);
        }
        return given != null ? given : LustreMetadataMode.USER_PROVISIONED;
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
            throw ConfigurationError.of(CAPACITY_OR_DATASET_SIZE, scope, "storageCapacityGiB", given,
                    "either storageCapacityGiB or datasetSizeBytes (capacity derived from the dataset), not both");
        }
        if (datasetBytes != null) {
            if (datasetBytes < 0) {
                throw ConfigurationError.of(DATASET_SIZE, scope,
                        "datasetSizeBytes", datasetBytes, "a size of 0 bytes or more");
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
            throw ConfigurationError.of(CAPACITY, scope,
                    "storageCapacityGiB", given, FsxLimits.SSD_CAPACITIES + " for " + type);
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
            throw ConfigurationError.of(EXISTING_ID, scope, "existingFileSystem.fileSystemId", id,
                    "an FSx file-system id, " + FsxLimits.FILE_SYSTEM_ID.allowed());
        }
        String mount = existing.getMountName();
        if (mount == null || (!Token.isUnresolved(mount) && !FsxLimits.MOUNT_NAME.accepts(mount))) {
            throw ConfigurationError.of(EXISTING_MOUNT_NAME, scope, "existingFileSystem.mountName", mount,
                    "the Lustre mount name, " + FsxLimits.MOUNT_NAME.allowed());
        }
        if (existing.getSecurityGroup() == null) {
            throw ConfigurationError.of(EXISTING_SECURITY_GROUP, scope,
                    "existingFileSystem.securityGroup", null, "the security group of the "
                    + "file system's network interfaces (training gets Lustre ports to it)");
        }
        Integer perUnit = existing.getPerUnitStorageThroughput();
        if (perUnit != null && !FsxLimits.PER_UNIT_STORAGE_THROUGHPUTS.contains(perUnit)) {
            throw ConfigurationError.of(EXISTING_TIER, scope, "existingFileSystem.perUnitStorageThroughput", perUnit,
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
