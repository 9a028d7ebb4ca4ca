package io.github.trainingdata.cdk.platform;

import io.github.trainingdata.cdk.SynthRule;

/** The synth-time rules of TrainingDataPlatform, one constant each (listed in docs/rules.md). */
final class PlatformRules {
    static final SynthRule PROFILE_OR_SOURCE = SynthRule.of("PLATFORM_PROFILE_OR_SOURCE", "TrainingDataPlatform",
            "profile",
            "a dataset profile or an explicit source",
            "library");
    static final SynthRule DATA_AZ_WITH_NETWORK = SynthRule.of("PLATFORM_DATA_AZ_WITH_NETWORK", "TrainingDataPlatform",
            "dataAvailabilityZone",
            "unset with an existing network",
            "library");
    static final SynthRule EFS_FILE_SYSTEM = SynthRule.of("PLATFORM_EFS_FILE_SYSTEM", "TrainingDataPlatform",
            "efsFileSystem",
            "the EFS file system when the source is EFS",
            "library");
    static final SynthRule JOB_NETWORK = SynthRule.of("PLATFORM_JOB_NETWORK", "TrainingDataPlatform",
            "trainingJob.network",
            "unset, or the platform's own network",
            "library");
    static final SynthRule JOB_IMAGE = SynthRule.of("PLATFORM_JOB_IMAGE", "TrainingDataPlatform",
            "trainingJob.trainingImage",
            "an image when the source is FSX_LUSTRE (the preload runs it)",
            "library");
    static final SynthRule LUSTRE_TIER = SynthRule.of("PLATFORM_LUSTRE_TIER", "TrainingDataPlatform",
            "lustrePerUnitStorageThroughput",
            "unset unless lustreDeploymentType is PERSISTENT_2",
            "FSx API model (botocore fsx/2018-03-01), CreateFileSystem (PerUnitStorageThroughput)");
    static final SynthRule LUSTRE_CAPACITY = SynthRule.of("PLATFORM_LUSTRE_CAPACITY", "TrainingDataPlatform",
            "lustreCapacityGiB",
            "a capacity whose usable space (about 11/12) holds the profile's data",
            "Amazon FSx for Lustre User Guide, storage capacity; advisor Sizing");

    private PlatformRules() {
    }
}
