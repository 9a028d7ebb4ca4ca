package io.github.trainingdata.cdk.storage;

/**
 * A new {@link LustreCache}'s file-system settings with every default applied ({@link LustreFileSystemRules#resolve}):
 * what {@code LustreCache} renders into {@code AWS::FSx::FileSystem}.
 *
 * @param deploymentType SCRATCH_2 or PERSISTENT_2
 * @param version the Lustre version
 * @param capacityGiB the storage capacity, GiB, or a number token
 * @param perUnitStorageThroughput PERSISTENT_2's tier (MB/s per TiB, or a number token); null for SCRATCH_2
 * @param metadataMode {@code AUTOMATIC} or {@code USER_PROVISIONED} for PERSISTENT_2 on 2.15; null for none
 * @param metadataIops the provisioned metadata IOPS (or a number token) in {@code USER_PROVISIONED} mode; else null
 * @param weeklyMaintenanceStartTime {@code d:HH:MM} (or a token), or null for FSx's choice
 */
record LustreFileSystemSpec(LustreDeploymentType deploymentType, LustreVersion version, Number capacityGiB,
        Number perUnitStorageThroughput, String metadataMode, Number metadataIops, String weeklyMaintenanceStartTime) {

    /** @return whether the file system is PERSISTENT_2 */
    boolean persistent() {
        return deploymentType == LustreDeploymentType.PERSISTENT_2;
    }
}
