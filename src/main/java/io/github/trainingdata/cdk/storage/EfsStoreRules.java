package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.SynthRule;

/** The synth-time rules of EfsStore, one constant each (listed in docs/rules.md). */
final class EfsStoreRules {
    static final SynthRule NETWORK = SynthRule.of("EFS_NETWORK", "EfsStore", "network",
            "the TrainingNetwork the file system is reached from",
            "library");
    static final SynthRule MAX_IO_ONE_ZONE = SynthRule.of("EFS_MAX_IO_ONE_ZONE", "EfsStore", "performanceMode",
            "GENERAL_PURPOSE for a One Zone file system",
            "Amazon EFS User Guide, performance and throughput modes");
    static final SynthRule MAX_IO_ELASTIC = SynthRule.of("EFS_MAX_IO_ELASTIC", "EfsStore", "throughputMode",
            "BURSTING or PROVISIONED with MAX_IO",
            "Amazon EFS User Guide, performance and throughput modes");
    static final SynthRule PROVISIONED_REQUIRED = SynthRule.of("EFS_PROVISIONED_REQUIRED", "EfsStore", "provisionedThroughputMibps",
            "a rate when throughputMode is PROVISIONED",
            "Amazon EFS User Guide, performance and throughput modes");
    static final SynthRule PROVISIONED_ONLY = SynthRule.of("EFS_PROVISIONED_ONLY", "EfsStore", "provisionedThroughputMibps",
            "unset unless throughputMode is PROVISIONED",
            "Amazon EFS User Guide, performance and throughput modes");
    static final SynthRule PROVISIONED_MIN = SynthRule.of("EFS_PROVISIONED_MIN", "EfsStore", "provisionedThroughputMibps",
            "at least 1 MiB/s",
            "Amazon EFS API reference, ProvisionedThroughputInMibps");

    private EfsStoreRules() {
    }
}
