package io.github.trainingdata.cdk.platform;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.internal.Deployments;
import io.github.trainingdata.cdk.SynthRule;
import io.github.trainingdata.cdk.advisor.DataSourceOption;
import io.github.trainingdata.cdk.advisor.StorageService;
import io.github.trainingdata.cdk.performance.ByteSize;
import io.github.trainingdata.cdk.performance.Sizing;
import io.github.trainingdata.cdk.storage.LustreDeploymentType;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.Locale;
import software.amazon.awscdk.Token;
import software.constructs.IConstruct;

/**
 * The synth-time rules of TrainingDataPlatform, one constant each (listed in docs/rules.md), and the checks that
 * apply them: the platform's props alone ({@link #check}), and a pinned capacity against the profile.
 */
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
    static final SynthRule EFS_STACK = SynthRule.of("PLATFORM_EFS_STACK", "TrainingDataPlatform",
            "efsFileSystem",
            "an EFS file system of the platform's stack (or one deployed with it), or one with a literal id",
            "library (the platform's store and job would read its id at deploy time: across stacks a replacement "
                    + "would not reach the platform's stack)");
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
    static final SynthRule LUSTRE_METADATA_IOPS = SynthRule.of("PLATFORM_LUSTRE_METADATA_IOPS",
            "TrainingDataPlatform", "lustreMetadataIops",
            "unset unless lustreDeploymentType is PERSISTENT_2",
            "FSx API model (botocore fsx/2018-03-01), CreateFileSystem (MetadataConfiguration)");
    static final SynthRule LUSTRE_CAPACITY = SynthRule.of("PLATFORM_LUSTRE_CAPACITY", "TrainingDataPlatform",
            "lustreCapacityGiB",
            "a capacity whose usable space (about 11/12) holds the profile's data",
            "Amazon FSx for Lustre User Guide, storage capacity; advisor Sizing");

    private PlatformRules() {
    }

    /** A profile (the advisor picks the source) or an explicit source: checked before the advisor runs. */
    static void checkProfileOrSource(IConstruct scope, TrainingDataPlatformProps props) {
        if (props.getProfile() == null && props.getSource() == null) {
            throw ConfigurationError.of(PROFILE_OR_SOURCE, scope, "profile", null,
                    "a dataset profile (the advisor picks the source) or an explicit source");
        }
    }

    /**
     * The props against the chosen {@code source}: the job runs in the platform's network (give an existing one as
     * the platform's {@code network}); with a Lustre cache its image also runs the preload's worker, so it must be an
     * image, not an algorithm name; a data AZ belongs to a network the platform creates; EFS needs its file system; a
     * throughput tier and metadata IOPS are PERSISTENT_2's.
     */
    static void check(IConstruct scope, TrainingDataPlatformProps props, TrainingJobDefinitionProps job,
            DataSourceOption source) {
        if (job.getNetwork() != null && job.getNetwork() != props.getNetwork()) {
            throw ConfigurationError.of(JOB_NETWORK, scope,
                    "trainingJob.network", job.getNetwork().getNode().getPath(),
                    "unset, or the platform's own network: give an existing network as TrainingDataPlatformProps."
                            + "network, so the stores and the job share it");
        }
        if (source.storage() == StorageService.FSX_LUSTRE && job.getTrainingImage() == null) {
            throw ConfigurationError.of(JOB_IMAGE, scope,
                    "trainingJob.trainingImage", null, "an image when the source is "
                    + "FSX_LUSTRE: the preload's worker runs the job's image to warm the cache (an algorithm name "
                    + "cannot)");
        }
        if (props.getNetwork() != null && props.getDataAvailabilityZone() != null) {
            throw ConfigurationError.of(DATA_AZ_WITH_NETWORK, scope,
                    "dataAvailabilityZone", props.getDataAvailabilityZone(), "unset with an "
                    + "existing network: give it to that TrainingNetwork (TrainingNetworkProps.dataAvailabilityZone, or "
                    + "its dataSubnet)");
        }
        if (source.storage() == StorageService.EFS && props.getEfsFileSystem() == null) {
            throw ConfigurationError.of(EFS_FILE_SYSTEM, scope, "efsFileSystem", null,
                    "the EFS file system that holds the data when the source is EFS (EFS is chosen because the data "
                            + "already lives there)");
        }
        if (source.storage() == StorageService.EFS && Deployments.separate(scope, props.getEfsFileSystem())
                && Token.isUnresolved(props.getEfsFileSystem().getFileSystemId())) {
            throw ConfigurationError.of(EFS_STACK, scope, "efsFileSystem", props.getEfsFileSystem().getNode().getPath(),
                    "an EFS file system of the platform's stack, or one adopted by its literal id: the platform's "
                            + "job would read the id of another stack's file system at deploy time, which a "
                            + "replacement changes without updating this stack. Read it from another stack with an "
                            + "EfsStore there and an EfsChannel here (bound at run time)");
        }
        Number perUnit = props.getLustrePerUnitStorageThroughput();
        if (source.storage() == StorageService.FSX_LUSTRE && perUnit != null
                && props.getLustreDeploymentType() != LustreDeploymentType.PERSISTENT_2) {
            throw ConfigurationError.of(LUSTRE_TIER, scope,
                    "lustrePerUnitStorageThroughput", perUnit, "unset unless "
                    + "lustreDeploymentType is PERSISTENT_2 (a throughput tier is PERSISTENT_2's)");
        }
        Number iops = props.getLustreMetadataIops();
        if (source.storage() == StorageService.FSX_LUSTRE && iops != null
                && props.getLustreDeploymentType() != LustreDeploymentType.PERSISTENT_2) {
            throw ConfigurationError.of(LUSTRE_METADATA_IOPS, scope, "lustreMetadataIops", iops, "unset unless "
                    + "lustreDeploymentType is PERSISTENT_2 (a metadata configuration is PERSISTENT_2's)");
        }
    }

    /**
     * A pinned capacity whose usable space cannot hold the profile's {@code bytes} is refused with the numbers and
     * the advisor's {@code advisedGiB} (growing it would silently change, and bill, a capacity fixed on purpose, and
     * FSx can never shrink it again).
     */
    static void checkPinnedCapacity(IConstruct scope, Number pinned, long bytes, int advisedGiB) {
        long usable = Sizing.lustreUsableBytes(pinned.intValue());
        if (bytes > usable) {
            throw ConfigurationError.of(LUSTRE_CAPACITY, scope,
                    "lustreCapacityGiB", pinned, String.format(Locale.ROOT, "at least %d GiB: "
                    + "the profile's %s (%,d bytes) do not fit the %s (%,d bytes) of file data %s GiB hold (FSx keeps "
                    + "file data in about 11/12 of the storage capacity); the advisor's capacity for the profile is %d GiB",
                    Sizing.lustreMinimumCapacityGiB(bytes), ByteSize.format(bytes), bytes, ByteSize.format(usable), usable,
                    pinned, advisedGiB));
        }
    }
}
