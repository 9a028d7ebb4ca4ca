package io.github.trainingdata.cdk.limits;

import java.util.List;

/**
 * The FSx for Lustre constraints the storage constructs check, taken from the FSx API model
 * ({@code fsx/2018-03-01}, botocore 1.43.11): the bounds and patterns of its shapes, and the values its
 * documentation states where the shape bounds them more loosely (SSD storage capacities in
 * {@code CreateFileSystemRequest.StorageCapacity}: "For SCRATCH_2, PERSISTENT_2, and PERSISTENT_1 deployment types
 * using SSD storage type, the valid values are 1200 GiB, 2400 GiB, and increments of 2400 GiB"; PERSISTENT_2 throughput
 * tiers in {@code CreateFileSystemLustreConfiguration.PerUnitStorageThroughput}; SSD metadata IOPS in
 * {@code CreateFileSystemLustreMetadataConfiguration.Iops}). {@code ApiModelLimitsTest} checks both against the model.
 */
public final class FsxLimits {
    /** A file system id: {@code fs-} and at least 8 hex digits, 11–21 characters in all. */
    public static final ApiLimit FILE_SYSTEM_ID = ApiLimit.string("CreateDataRepositoryAssociationRequest.FileSystemId",
            11L, 21L, "^(fs-[0-9a-f]{8,})$");
    /** A Lustre mount name: 1–8 characters of {@code [A-Za-z0-9_-]}. */
    public static final ApiLimit MOUNT_NAME = ApiLimit.string("LustreFileSystemConfiguration.MountName", 1L, 8L,
            "^([A-Za-z0-9_-]{1,8})$");
    /** A data repository association's file-system path: 1–4096 characters without line breaks or NUL. */
    public static final ApiLimit FILE_SYSTEM_PATH = ApiLimit.string(
            "CreateDataRepositoryAssociationRequest.FileSystemPath", 1L, 4096L,
            "^[^\\u0000\\u0085\\u2028\\u2029\\r\\n]{1,4096}$");
    /** ImportedFileChunkSize of an association: 1–512000 MiB. */
    public static final ApiLimit IMPORTED_FILE_CHUNK_SIZE = ApiLimit.number(
            "CreateDataRepositoryAssociationRequest.ImportedFileChunkSize", 1L, 512_000L, "MiB");
    /** StorageCapacity as the model bounds it, for every deployment type: 0 to 2147483647 GiB. */
    public static final ApiLimit STORAGE_CAPACITY = ApiLimit.number("CreateFileSystemRequest.StorageCapacity",
            0L, (long) Integer.MAX_VALUE, "GiB");
    /** The smallest SSD capacity (SCRATCH_2 and PERSISTENT_2), in GiB. */
    public static final int SSD_MIN_CAPACITY_GIB = 1_200;
    /** SSD capacities (SCRATCH_2 and PERSISTENT_2) above {@link #SSD_MIN_CAPACITY_GIB} are multiples of this many GiB. */
    public static final int SSD_CAPACITY_STEP_GIB = 2_400;
    /** The SSD capacities (SCRATCH_2 and PERSISTENT_2), in words for messages. */
    public static final String SSD_CAPACITIES = "1200, 2400, or a multiple of 2400 GiB";
    /**
     * The PerUnitStorageThroughput values (MB/s per TiB) of persistent file systems, as the model states them in
     * the documentation of {@code CreateFileSystemLustreConfiguration.PerUnitStorageThroughput}: PERSISTENT_1 SSD
     * 50, 100, 200; PERSISTENT_1 HDD 12, 40; PERSISTENT_2 125, 250, 500, 1000 (the shape bounds them 12–1000).
     */
    public static final List<Integer> PER_UNIT_STORAGE_THROUGHPUTS = List.of(12, 40, 50, 100, 125, 200, 250, 500, 1000);
    /** PerUnitStorageThroughput as the model bounds it: 12 to 1000 MB/s per TiB. */
    public static final ApiLimit PER_UNIT_STORAGE_THROUGHPUT = ApiLimit.number(
            "CreateFileSystemLustreConfiguration.PerUnitStorageThroughput", 12L, 1_000L, "MB/s per TiB");
    /**
     * The PERSISTENT_2 SSD throughput tiers in MB/s per TiB ("For PERSISTENT_2 SSD storage: 125, 250, 500, 1000
     * MB/s/TiB"); UpdateFileSystem changes a tier in place, up or down (its
     * {@code UpdateFileSystemLustreConfiguration.PerUnitStorageThroughput}).
     */
    public static final List<Integer> PERSISTENT_2_THROUGHPUTS = List.of(125, 250, 500, 1000);
    /** Metadata IOPS of a PERSISTENT_2 metadata configuration, as the model bounds them: 1500 to 192000. */
    public static final ApiLimit METADATA_IOPS = ApiLimit.number("CreateFileSystemLustreMetadataConfiguration.Iops",
            1_500L, 192_000L, "metadata IOPS");
    /** The SSD metadata IOPS values, in words ("For SSD file systems, valid values are ..."). */
    public static final String SSD_METADATA_IOPS_VALUES = "1500, 3000, 6000, 12000, or a multiple of 12000 up to 192000";
    /** The smaller SSD metadata IOPS values; above them, multiples of {@link #METADATA_IOPS_STEP}. */
    public static final List<Integer> SSD_METADATA_IOPS_BELOW_STEP = List.of(1_500, 3_000, 6_000);
    /** SSD metadata IOPS from this value up are its multiples. */
    public static final int METADATA_IOPS_STEP = 12_000;
    /** The metadata configuration modes ({@code MetadataConfigurationMode}). */
    public static final List<String> METADATA_CONFIGURATION_MODES = List.of("AUTOMATIC", "USER_PROVISIONED");
    /** A weekly maintenance start time, {@code d:HH:MM} in UTC, Monday (1) to Sunday (7). */
    public static final ApiLimit WEEKLY_MAINTENANCE_START_TIME = ApiLimit.string(
            "CreateFileSystemLustreConfiguration.WeeklyMaintenanceStartTime", 7L, 7L,
            "^[1-7]:([01]\\d|2[0-3]):?([0-5]\\d)$");

    private FsxLimits() {
    }

    /**
     * Whether an SSD deployment type (SCRATCH_2, PERSISTENT_2) accepts a storage capacity.
     *
     * @param gib a capacity in GiB
     * @return true for 1200, 2400 or a positive multiple of 2400 within {@link #STORAGE_CAPACITY}
     */
    public static boolean isValidSsdCapacityGiB(long gib) {
        return STORAGE_CAPACITY.accepts(gib)
                && (gib == SSD_MIN_CAPACITY_GIB || (gib > 0 && gib % SSD_CAPACITY_STEP_GIB == 0));
    }

    /**
     * Whether an SSD file system's metadata configuration accepts a number of metadata IOPS.
     *
     * @param iops metadata IOPS
     * @return true for 1500, 3000, 6000, or a multiple of 12000 within {@link #METADATA_IOPS}
     */
    public static boolean isValidSsdMetadataIops(long iops) {
        return METADATA_IOPS.accepts(iops)
                && (SSD_METADATA_IOPS_BELOW_STEP.contains((int) iops) || iops % METADATA_IOPS_STEP == 0);
    }
}
