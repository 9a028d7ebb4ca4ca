package io.github.trainingdata.cdk.storage;

/**
 * How a PERSISTENT_2 {@link LustreCache} on Lustre 2.15 provisions metadata IOPS ({@code MetadataConfiguration.Mode}).
 * FSx only ever raises metadata IOPS: a file system switches from USER_PROVISIONED to AUTOMATIC only when its IOPS do
 * not exceed what AUTOMATIC gives its capacity ("If you request to switch from USER_PROVISIONED to AUTOMATIC mode and
 * the current Metadata IOPS value is greater than the automated default, FSx for Lustre rejects the request", FSx API
 * reference, UpdateFileSystemLustreMetadataConfiguration). So the mode is always stated, never a default: removing
 * {@code metadataIops} must not silently ask FSx for that switch.
 */
public enum LustreMetadataMode {
    /** FSx provisions and scales the metadata IOPS with the storage capacity; no {@code metadataIops}. */
    AUTOMATIC,
    /** The {@code metadataIops} given (required) are provisioned; FSx raises them, never lowers them. */
    USER_PROVISIONED;

    /** @return the {@code MetadataConfiguration.Mode} value, e.g. {@code AUTOMATIC} */
    public String apiValue() {
        return name();
    }
}
