package io.github.trainingdata.cdk.storage;

import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.efs.PerformanceMode;
import software.amazon.awscdk.services.efs.ThroughputMode;
import software.amazon.awscdk.services.kms.IKey;

/**
 * An {@link EfsStore}'s settings with every default applied ({@link EfsStoreRules#resolve}); the file-system
 * settings matter only when the store creates the file system.
 *
 * @param existing whether the store adopts {@code EfsStoreProps.fileSystem}
 * @param oneZone whether a new file system is One Zone (default false)
 * @param createDirectories whether the deploy creates the channels' directories (default true)
 * @param logsKey the key of the directory creator's logs (default the file system's key), or null
 * @param performanceMode a new file system's performance mode (default GENERAL_PURPOSE)
 * @param throughputMode a new file system's throughput mode (default BURSTING)
 * @param provisionedThroughputMibps the provisioned rate with PROVISIONED, else null
 * @param removalPolicy a new file system's removal policy (default RETAIN_ON_UPDATE_OR_DELETE)
 */
record EfsStoreSpec(boolean existing, boolean oneZone, boolean createDirectories, IKey logsKey,
        PerformanceMode performanceMode, ThroughputMode throughputMode, Integer provisionedThroughputMibps,
        RemovalPolicy removalPolicy) {
}
