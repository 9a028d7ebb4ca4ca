package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import java.util.Set;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.efs.PerformanceMode;
import software.amazon.awscdk.services.efs.ThroughputMode;
import software.constructs.IConstruct;

/**
 * The synth-time rules of {@link EfsStore}, one constant each (listed in docs/rules.md), and the resolution of its
 * props into an {@link EfsStoreSpec}: a network; an existing file system without new-file-system settings; for a new
 * one, Max I/O neither One Zone nor with elastic throughput, and a provisioned rate with and only with PROVISIONED,
 * at least 1 MiB/s (above the usual Region maximum: a warning).
 */
final class EfsStoreRules {
    static final SynthRule NETWORK = SynthRule.of("EFS_NETWORK", "EfsStore", "network",
            "the TrainingNetwork the file system is reached from",
            "library");
    static final SynthRule MAX_IO_ONE_ZONE = SynthRule.of("EFS_MAX_IO_ONE_ZONE", "EfsStore", "performanceMode",
            "GENERAL_PURPOSE for a One Zone file system",
            "Amazon EFS API reference, CreateFileSystem PerformanceMode (maxIO is not supported on One Zone)");
    static final SynthRule MAX_IO_ELASTIC = SynthRule.of("EFS_MAX_IO_ELASTIC", "EfsStore", "throughputMode",
            "BURSTING or PROVISIONED with MAX_IO",
            "Amazon EFS User Guide, performance and throughput modes");
    static final SynthRule PROVISIONED_REQUIRED = SynthRule.of("EFS_PROVISIONED_REQUIRED", "EfsStore",
            "provisionedThroughputMibps",
            "a rate when throughputMode is PROVISIONED",
            "Amazon EFS User Guide, performance and throughput modes");
    static final SynthRule PROVISIONED_ONLY = SynthRule.of("EFS_PROVISIONED_ONLY", "EfsStore",
            "provisionedThroughputMibps",
            "unset unless throughputMode is PROVISIONED",
            "Amazon EFS User Guide, performance and throughput modes");
    static final SynthRule PROVISIONED_MIN = SynthRule.of("EFS_PROVISIONED_MIN", "EfsStore",
            "provisionedThroughputMibps",
            "at least 1 MiB/s",
            "Amazon EFS API reference, ProvisionedThroughputInMibps");
    static final SynthRule REMOVAL_POLICY = SynthRule.of("EFS_REMOVAL_POLICY", "EfsStore", "removalPolicy",
            "DESTROY, RETAIN or RETAIN_ON_UPDATE_OR_DELETE (no SNAPSHOT)",
            "CloudFormation DeletionPolicy (Snapshot only for resource types that take snapshots, e.g. "
                    + "AWS::EC2::Volume, AWS::RDS::DBInstance)");

    private EfsStoreRules() {
    }

    /** Checks {@code props} of the store {@code scope} and applies the defaults. */
    static EfsStoreSpec resolve(IConstruct scope, EfsStoreProps props) {
        if (props.getNetwork() == null) {
            throw ConfigurationError.of(NETWORK, scope, "network", null,
                    "the TrainingNetwork the file system is reached from");
        }
        boolean existing = props.getFileSystem() != null;
        boolean oneZone = Boolean.TRUE.equals(props.getOneZone());
        PerformanceMode performance = props.getPerformanceMode() != null
                ? props.getPerformanceMode() : PerformanceMode.GENERAL_PURPOSE;
        ThroughputMode throughput = props.getThroughputMode() != null
                ? props.getThroughputMode() : ThroughputMode.BURSTING;
        Integer mibps = props.getProvisionedThroughputMibps();
        if (existing) {
            NewResourceSettings.rejectWithExisting(scope, props, "", "fileSystem", "fileSystem", "new-file-system",
                    Set.of("fileSystem", "network", "createDirectories", "logsKey"));
        } else {
            checkModes(scope, oneZone, performance, throughput, mibps);
            if (props.getRemovalPolicy() == RemovalPolicy.SNAPSHOT) {
                throw ConfigurationError.of(REMOVAL_POLICY, scope, "removalPolicy", RemovalPolicy.SNAPSHOT,
                        "DESTROY, RETAIN or RETAIN_ON_UPDATE_OR_DELETE: CloudFormation takes no snapshot of an EFS file "
                        + "system (use AWS Backup, on by default here)");
            }
        }
        return new EfsStoreSpec(existing, oneZone, !Boolean.FALSE.equals(props.getCreateDirectories()),
                props.getLogsKey() != null ? props.getLogsKey() : props.getEncryptionKey(), performance, throughput,
                mibps, props.getRemovalPolicy() != null ? props.getRemovalPolicy()
                        : RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);
    }

    private static void checkModes(IConstruct scope, boolean oneZone, PerformanceMode performance,
            ThroughputMode throughput, Integer mibps) {
        if (performance == PerformanceMode.MAX_IO && oneZone) {
            throw ConfigurationError.of(MAX_IO_ONE_ZONE, scope, "performanceMode", "MAX_IO",
                    "GENERAL_PURPOSE for a One Zone file system (EFS offers Max I/O only on Regional file systems)");
        }
        if (performance == PerformanceMode.MAX_IO && throughput == ThroughputMode.ELASTIC) {
            throw ConfigurationError.of(MAX_IO_ELASTIC, scope, "throughputMode", "ELASTIC",
                    "BURSTING or PROVISIONED with MAX_IO (elastic throughput requires GENERAL_PURPOSE)");
        }
        if (throughput == ThroughputMode.PROVISIONED && mibps == null) {
            throw ConfigurationError.of(PROVISIONED_REQUIRED, scope, "provisionedThroughputMibps", null,
                    "a rate of at least 1 MiB/s when throughputMode is PROVISIONED");
        }
        if (throughput != ThroughputMode.PROVISIONED && mibps != null) {
            throw ConfigurationError.of(PROVISIONED_ONLY, scope, "provisionedThroughputMibps", mibps,
                    "unset unless throughputMode is PROVISIONED (it is " + throughput + ")");
        }
        if (mibps != null && mibps < 1) {
            throw ConfigurationError.of(PROVISIONED_MIN, scope, "provisionedThroughputMibps", mibps,
                    "at least 1 MiB/s");
        }
        if (mibps != null && mibps > EfsStore.PROVISIONED_MIBPS_REGION_MAX) {
            Annotations.of(scope).addWarningV2("@trainingdata/efs:provisionedThroughputAboveRegionMax",
                    scope.getNode().getPath() + ": provisionedThroughputMibps " + mibps + " is above "
                            + EfsStore.PROVISIONED_MIBPS_REGION_MAX + " MiB/s, the maximum in most Regions; the "
                            + "deploy fails unless the account's limit was raised");
        }
    }
}
