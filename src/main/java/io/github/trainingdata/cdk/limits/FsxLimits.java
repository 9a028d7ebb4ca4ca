package io.github.trainingdata.cdk.limits;

import java.util.List;

/**
 * The FSx for Lustre constraints the storage constructs check, taken from the FSx API model
 * ({@code fsx/2018-03-01}, botocore 1.43.11), and the SCRATCH_2 storage capacities, which the model states
 * in the documentation of {@code CreateFileSystemRequest.StorageCapacity} ("For SCRATCH_2 … the valid values
 * are 1200 GiB, 2400 GiB, and increments of 2400 GiB").
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
    /** The smallest SCRATCH_2 capacity, in GiB. */
    public static final int SCRATCH_2_MIN_CAPACITY_GIB = 1_200;
    /** SCRATCH_2 capacities above {@link #SCRATCH_2_MIN_CAPACITY_GIB} are multiples of this many GiB. */
    public static final int SCRATCH_2_CAPACITY_STEP_GIB = 2_400;
    /** The SCRATCH_2 capacities, in words for messages. */
    public static final String SCRATCH_2_CAPACITIES = "1200, 2400, or a multiple of 2400 GiB";
    /**
     * The PerUnitStorageThroughput values (MB/s per TiB) of persistent file systems, as the model states them in
     * the documentation of {@code CreateFileSystemLustreConfiguration.PerUnitStorageThroughput}: PERSISTENT_1 SSD
     * 50, 100, 200; PERSISTENT_1 HDD 12, 40; PERSISTENT_2 125, 250, 500, 1000 (the shape bounds them 12–1000).
     */
    public static final List<Integer> PER_UNIT_STORAGE_THROUGHPUTS = List.of(12, 40, 50, 100, 125, 200, 250, 500, 1000);

    private FsxLimits() {
    }

    /**
     * Whether SCRATCH_2 accepts a storage capacity.
     *
     * @param gib a capacity in GiB
     * @return true for 1200, 2400 or a positive multiple of 2400 within {@link #STORAGE_CAPACITY}
     */
    public static boolean isValidScratch2CapacityGiB(long gib) {
        return STORAGE_CAPACITY.accepts(gib)
                && (gib == SCRATCH_2_MIN_CAPACITY_GIB || (gib > 0 && gib % SCRATCH_2_CAPACITY_STEP_GIB == 0));
    }
}
