package io.github.trainingdata.cdk.storage;

/**
 * The Lustre version of a new {@link LustreCache} ({@code FileSystemTypeVersion}). Data repository
 * associations need 2.12 or 2.15; the API's default for SCRATCH_2, 2.10, cannot take them, so the
 * library always sets the version. "2.15 is supported by all Lustre deployment types and is recommended
 * for all new file systems" (FSx API reference, CreateFileSystem).
 */
public enum LustreVersion {
    /** Lustre 2.12: for clients that cannot run 2.15. */
    V2_12("2.12"),
    /** Lustre 2.15: the recommended version for new file systems. */
    V2_15("2.15");

    private final String apiValue;

    LustreVersion(String apiValue) {
        this.apiValue = apiValue;
    }

    /** @return the {@code FileSystemTypeVersion} value, e.g. {@code 2.15} */
    public String apiValue() {
        return apiValue;
    }
}
