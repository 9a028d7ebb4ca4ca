package io.github.trainingdata.cdk.platform;

import io.github.trainingdata.cdk.advisor.Advisor;
import io.github.trainingdata.cdk.performance.ByteSize;
import io.github.trainingdata.cdk.advisor.DataSourceOption;
import io.github.trainingdata.cdk.advisor.DatasetProfile;
import io.github.trainingdata.cdk.advisor.EstimateModel;
import io.github.trainingdata.cdk.advisor.LustreChoice;
import io.github.trainingdata.cdk.advisor.LustreSizing;
import io.github.trainingdata.cdk.performance.LustreTier;
import io.github.trainingdata.cdk.advisor.OptionEstimate;
import io.github.trainingdata.cdk.performance.PublishedFigures;
import io.github.trainingdata.cdk.advisor.Recommendation;
import io.github.trainingdata.cdk.advisor.StorageService;
import io.github.trainingdata.cdk.limits.FsxLimits;
import io.github.trainingdata.cdk.monitoring.TrainingDataDashboard;
import io.github.trainingdata.cdk.monitoring.TrainingDataDashboardProps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.network.TrainingNetworkProps;
import io.github.trainingdata.cdk.preload.LustrePreload;
import io.github.trainingdata.cdk.preload.LustrePreloadProps;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.EfsStoreProps;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.LustreDeploymentType;
import io.github.trainingdata.cdk.storage.LustreMetadataMode;
import io.github.trainingdata.cdk.storage.S3ExpressStore;
import io.github.trainingdata.cdk.storage.S3ExpressStoreProps;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import io.github.trainingdata.cdk.storage.TrainingDataStore;
import io.github.trainingdata.cdk.training.TrainingChannel;
import io.github.trainingdata.cdk.training.EfsChannel;
import io.github.trainingdata.cdk.training.DirectRead;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.S3Channel;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Names;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.UniqueResourceNameOptions;
import software.constructs.Construct;

/**
 * The one-call platform: from a dataset profile (or an explicit choice) it builds the network, the
 * training-data bucket, the store the advisor recommends — an FSx for Lustre cache with its preload, the
 * given EFS file system that holds the data, an S3 Express One Zone directory bucket in the network's data zone, or
 * nothing more for S3 File, FastFile or Pipe — and a training-job definition whose channel reads it in the right mode
 * (or, for training code that reads the store itself, whose direct read puts its location in
 * {@code <CHANNEL>_S3_URI}). The recommendation is reported at synth (an info annotation with
 * the reasons) and as a stack output, and a dashboard shows the data path. Every construct it creates
 * is reachable through a getter for further customisation.
 *
 * <p>With a profile, the advisor's estimate model also sizes what it builds: the Lustre cache's deployment type, tier
 * and capacity ({@link EstimateModel#lustreChoice(DatasetProfile)}: holds the data, feeds the instances, loads within
 * a deploy's wait, at the lowest monthly price of SCRATCH_2 and the PERSISTENT_2 tiers), the default maxRuntime (twice the estimated billable time of one job of the built
 * source) and a managed warm pool ({@code keepAlivePeriod}) when the estimate finds one pays for the
 * profile's repeated jobs.
 */
public class TrainingDataPlatform extends Construct {
    private static final double FILE_MODE_VOLUME_HEADROOM = 1.2;
    private static final int MIN_VOLUME_GIB = 50;
    /** The Lustre cache's one dataset: the bucket's dataset prefix, linked at {@code /dataset}. */
    static final String LUSTRE_DATASET = "dataset";
    /** What the platform builds for each storage service: the store, and the channel or direct read on it. */
    private static final Map<StorageService, PlatformSource<?>> SOURCES = new EnumMap<>(Map.of(
            StorageService.S3, new PlatformSource<>((platform, props, profile) -> platform.dataBucket,
                    (name, path, mode, bucket) -> S3Channel.builder(name).dataBucket(bucket).path(path).inputMode(mode)
                            .build(),
                    (variable, path, bucket) -> DirectRead.builder(variable).store(bucket).path(path).build()),
            StorageService.S3_EXPRESS, new PlatformSource<>(TrainingDataPlatform::s3ExpressStore,
                    (name, path, mode, express) -> S3Channel.builder(name).store(express).path(path).inputMode(mode)
                            .build(),
                    (variable, path, express) -> DirectRead.builder(variable).store(express).path(path).build()),
            StorageService.FSX_LUSTRE, new PlatformSource<>(TrainingDataPlatform::lustreCache,
                    (name, path, mode, cache) -> LustreChannel.builder(name).cache(cache).path(path).build(), null),
            StorageService.EFS, new PlatformSource<>(TrainingDataPlatform::efsStore,
                    (name, path, mode, efs) -> EfsChannel.builder(name).store(efs).directoryPath("/" + path).build(),
                    null)));

    private final Recommendation recommendation;
    private final DataSourceOption source;
    private final TrainingNetwork network;
    private final TrainingDataBucket dataBucket;
    private final TrainingDataStore store;
    private final LustrePreload preload;
    private final TrainingJobDefinition definition;
    private final TrainingDataDashboard dashboard;

    /** Builds the platform. */
    public TrainingDataPlatform(Construct scope, String id, TrainingDataPlatformProps props) {
        super(scope, id);
        DatasetProfile profile = props.getProfile();
        PlatformRules.checkProfileOrSource(this, props);
        TrainingJobDefinitionProps job = props.getTrainingJob() != null ? props.getTrainingJob()
                : TrainingJobDefinitionProps.builder().build();
        this.recommendation = profile != null ? Advisor.recommend(profile) : null;
        this.source = props.getSource() != null ? props.getSource() : recommendation.option();
        PlatformRules.check(this, props, job, source);
        report();

        this.dataBucket = new TrainingDataBucket(this, "DataBucket", TrainingDataBucketProps.builder()
                .bucket(props.getBucket())
                .encryption(props.getEncryption())
                .datasetPrefix(props.getDatasetPrefix())
                .build());
        // One key choice covers the data and every log group: the bucket's key (if any) encrypts the flow logs.
        this.network = props.getNetwork() != null ? props.getNetwork() : new TrainingNetwork(this, "Network",
                TrainingNetworkProps.builder().flowLogsKey(dataBucket.getEncryptionKey())
                        .dataAvailabilityZone(props.getDataAvailabilityZone()).build());
        String channelName = props.getChannelName() != null ? props.getChannelName() : "train";
        String channelPath = props.getChannelPath() != null ? props.getChannelPath() : "train";

        OptionEstimate estimate = recommendation != null ? recommendation.estimateFor(source) : null;
        PlatformSource.Read read = SOURCES.get(source.storage()).build(this, props, profile, source, channelName,
                directReadVariable(channelName), channelPath);
        this.store = read.store();

        this.definition = new TrainingJobDefinition(this, "Training", withPlatformDefaults(job, read, profile,
                estimate));
        this.preload = getLustreCache() == null ? null : new LustrePreload(this, "Preload", LustrePreloadProps.builder()
                .cache(getLustreCache())
                .definition(definition)
                .waitForCompletion(props.getWaitForPreload())
                .fileCount(profile != null ? Long.valueOf(profile.fileCount()) : null)
                .totalBytes(profile != null ? Long.valueOf(profile.totalBytes()) : null)
                .build());
        this.dashboard = new TrainingDataDashboard(this, "Dashboard", TrainingDataDashboardProps.builder()
                .stores(Stream.of(dataBucket, store).distinct().toList())
                .preloads(preload == null ? List.of() : List.of(preload))
                .definitions(List.of(definition))
                .build());
    }

    /**
     * The user's job settings with what they left unset filled in: the platform's channel first, its bucket for
     * the output, its network, and from the profile's estimate the instances, the File-mode volume, the runtime and
     * a warm pool (never with spot, which cannot use one).
     */
    private TrainingJobDefinitionProps withPlatformDefaults(TrainingJobDefinitionProps job, PlatformSource.Read read,
            DatasetProfile profile, OptionEstimate estimate) {
        TrainingJobDefinitionProps.Builder filled = job.toBuilder();
        if (read.channel() != null) {
            List<TrainingChannel> channels = new ArrayList<>();
            channels.add(read.channel());
            if (job.getChannels() != null) {
                channels.addAll(job.getChannels());
            }
            filled.channels(channels);
        } else {
            List<DirectRead> directReads = new ArrayList<>();
            directReads.add(read.direct());
            if (job.getDirectReads() != null) {
                directReads.addAll(job.getDirectReads());
            }
            filled.directReads(directReads);
        }
        if (job.getOutputBucket() == null) {
            filled.outputBucket(dataBucket);
        }
        if (job.getNetwork() == null) {
            filled.network(network);
        }
        if (job.getInstanceType() == null && profile != null) {
            filled.instanceType(profile.instanceType());
        }
        if (job.getInstanceCount() == null && profile != null) {
            filled.instanceCount(profile.instanceCount());
        }
        if (job.getVolumeSizeGiB() == null) {
            filled.volumeSizeGiB(volumeSize(profile));
        }
        if (job.getMaxRuntime() == null) {
            filled.maxRuntime(maxRuntime(estimate, job.getMaxWait()));
        }
        if (job.getKeepAlivePeriod() == null && estimate != null && estimate.warmPool()
                && !Boolean.TRUE.equals(job.getManagedSpot())) {
            filled.keepAlivePeriod(Duration.seconds(PublishedFigures.WARM_POOL_KEEP_ALIVE_SECONDS));
        }
        return filled.build();
    }

    private void report() {
        String summary = describe(source);
        String text = recommendation == null ? summary + ", chosen explicitly"
                : source == recommendation.option()
                        ? summary + ", recommended: " + String.join("; ", recommendation.reasons())
                        : summary + ", chosen explicitly; the advisor recommends " + recommendation.option()
                                + ": " + String.join("; ", recommendation.reasons());
        Annotations.of(this).addInfo("Training data source: " + text);
        CfnOutput.Builder.create(this, "DataSource").value(summary)
                .description(recommendation == null ? "Chosen explicitly"
                        : "Advisor recommends " + describe(recommendation.option()))
                .build();
    }

    /** An option and how the job reads it: {@code S3_FAST_FILE (FastFile)}, {@code S3_DIRECT (no channel)}. */
    private static String describe(DataSourceOption option) {
        return option + " (" + (option.inputMode() != null ? option.inputMode() : "no channel") + ")";
    }

    /**
     * The environment variable that carries a direct read's location to the training code: the channel name in upper
     * case, characters a variable cannot hold as {@code _}, then {@code _S3_URI} ({@code train}: {@code TRAIN_S3_URI}).
     */
    static String directReadVariable(String channelName) {
        String name = channelName.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9_]", "_") + "_S3_URI";
        return Character.isDigit(name.charAt(0)) ? "_" + name : name;
    }

    /**
     * A directory bucket in the network's data zone, under the data bucket's dataset prefix and with its key (SSE-KMS
     * with the data bucket's customer managed key, else SSE-S3). It starts empty: the library does not fill it
     * (docs/s3-express.md), so a warning says to copy the dataset in before training.
     */
    private S3ExpressStore s3ExpressStore(TrainingDataPlatformProps props, DatasetProfile profile) {
        String base = props.getS3ExpressBaseName() != null ? props.getS3ExpressBaseName()
                : Names.uniqueResourceName(this, UniqueResourceNameOptions.builder().maxLength(30).separator("-")
                        .build()).toLowerCase(Locale.ROOT);
        S3ExpressStore express = new S3ExpressStore(this, "Express", S3ExpressStoreProps.builder().network(network)
                .baseName(base).datasetPrefix(props.getDatasetPrefix()).encryptionKey(dataBucket.getEncryptionKey())
                .build());
        Annotations.of(this).addWarningV2("@trainingdata/platform:fillDirectoryBucket", getNode().getPath()
                + ": the directory bucket " + express.getNode().getPath() + " starts empty and nothing fills it at "
                + "deploy: copy the dataset prefix of the data bucket into it (S3 Batch Operations import, or aws s3 "
                + "sync) before the first training run (docs/s3-express.md)");
        return express;
    }

    /** The given EFS file system, which holds the data (EFS is chosen because the data already lives there). */
    private EfsStore efsStore(TrainingDataPlatformProps props, DatasetProfile profile) {
        return new EfsStore(this, "Efs", EfsStoreProps.builder().network(network).logsKey(dataBucket.getEncryptionKey())
                .fileSystem(props.getEfsFileSystem()).build());
    }

    private Integer volumeSize(DatasetProfile profile) {
        boolean objectStore = source.storage() == StorageService.S3 || source.storage() == StorageService.S3_EXPRESS;
        if (profile == null || !objectStore || !"File".equals(source.inputMode())) {
            return null;
        }
        long gib = (long) Math.ceil(profile.totalBytes() * FILE_MODE_VOLUME_HEADROOM / ByteSize.GIB);
        return (int) Math.max(MIN_VOLUME_GIB, gib);
    }

    /**
     * The cache, of the deployment type, tier and capacity given, else the advisor's for the profile
     * ({@link #lustreTier}, {@link #lustreCapacity}); without a profile, what is given (the cache's defaults otherwise).
     */
    private LustreCache lustreCache(TrainingDataPlatformProps props, DatasetProfile profile) {
        Number perUnit = props.getLustrePerUnitStorageThroughput();
        LustreCacheProps.Builder cache = LustreCacheProps.builder().network(network)
                .datasets(List.of(LustreDataset.builder(LUSTRE_DATASET).dataBucket(dataBucket).build()));
        if (profile == null) {
            return new LustreCache(this, "Lustre", metadata(cache.deploymentType(props.getLustreDeploymentType()),
                    props.getLustreDeploymentType() == LustreDeploymentType.PERSISTENT_2, props)
                    .perUnitStorageThroughput(perUnit).storageCapacityGiB(props.getLustreCapacityGiB()).build());
        }
        LustreChoice choice = recommendation.lustre();
        LustreTier tier = lustreTier(props, choice, profile);
        LustreSizing sizing = EstimateModel.lustreSizing(profile, tier);
        Number capacity = lustreCapacity(props, profile, sizing);
        if (props.getLustreDeploymentType() == null && props.getLustreCapacityGiB() == null) {
            String pins = (tier.persistent() ? "lustreDeploymentType(PERSISTENT_2), lustrePerUnitStorageThroughput("
                    + tier.perUnitStorageThroughput() + ") and " : "") + "lustreCapacityGiB(" + sizing.capacityGiB() + ")";
            Annotations.of(this).addWarningV2("@trainingdata/platform:derivedCapacity", getNode().getPath()
                    + ": the Lustre cache (" + tier + ", " + sizing.capacityGiB() + " GiB) is derived from the dataset "
                    + "profile. FSx only grows a file system's capacity (at most once every 6 hours) and fixes its "
                    + "deployment type at creation, so a later profile that derives less would fail the update, and one "
                    + "that derives another type would replace the cache: once deployed, pin it with " + pins);
        }
        return new LustreCache(this, "Lustre", metadata(cache.deploymentType(LustreDeploymentType.valueOf(
                tier.deploymentType())), tier.persistent(), props)
                .perUnitStorageThroughput(tier.persistent() ? perUnitOrTier(perUnit, tier) : null)
                .storageCapacityGiB(capacity).build());
    }

    /**
     * A PERSISTENT_2 cache's metadata configuration, always stated: the IOPS given (USER_PROVISIONED), else AUTOMATIC.
     */
    private static LustreCacheProps.Builder metadata(LustreCacheProps.Builder cache, boolean persistent,
            TrainingDataPlatformProps props) {
        if (!persistent) {
            return cache;
        }
        Number iops = props.getLustreMetadataIops();
        return iops != null ? cache.metadataIops(iops) : cache.metadataMode(LustreMetadataMode.AUTOMATIC);
    }

    /**
     * The tier to build: SCRATCH_2 when pinned, or when only the capacity is pinned (platforms built before PERSISTENT_2
     * existed pinned a SCRATCH_2 capacity; a warning names the advisor's tier when it differs); PERSISTENT_2 at the
     * given tier, or at the advisor's cheapest; else the advisor's choice.
     */
    private LustreTier lustreTier(TrainingDataPlatformProps props, LustreChoice choice, DatasetProfile profile) {
        LustreDeploymentType pinned = props.getLustreDeploymentType();
        Number perUnit = props.getLustrePerUnitStorageThroughput();
        if (pinned == LustreDeploymentType.PERSISTENT_2) {
            boolean literal = perUnit != null && !Token.isUnresolved(perUnit)
                    && FsxLimits.PERSISTENT_2_THROUGHPUTS.contains(perUnit.intValue()) && perUnit.doubleValue() % 1 == 0;
            return literal ? LustreTier.persistent2(perUnit.intValue()) : choice.candidates().stream()
                    .filter(s -> s.tier().persistent()).min(Comparator.comparingDouble(LustreSizing::monthlyUsd))
                    .orElseThrow().tier();
        }
        if (pinned == LustreDeploymentType.SCRATCH_2) {
            return LustreTier.scratch2();
        }
        if (props.getLustreCapacityGiB() != null) {
            if (choice.chosen().tier().persistent()) {
                Annotations.of(this).addWarningV2("@trainingdata/platform:scratchKept", getNode().getPath()
                        + ": lustreCapacityGiB is pinned without lustreDeploymentType, so the cache stays SCRATCH_2; the "
                        + "advisor prefers " + choice.chosen() + ": " + choice.reason(profile.totalBytes()) + ". Switching replaces the file system (a new, cold cache): set "
                        + "lustreDeploymentType(PERSISTENT_2) to do it, or lustreDeploymentType(SCRATCH_2) to keep it");
            }
            return LustreTier.scratch2();
        }
        return choice.chosen().tier();
    }

    /** The given tier (a deploy-time one passes through to the cache), else the sized tier's. */
    private static Number perUnitOrTier(Number given, LustreTier tier) {
        return given != null ? given : tier.perUnitStorageThroughput();
    }

    /**
     * The given capacity, else the sizing's for the profile. A pinned capacity whose usable space cannot hold the
     * profile's data is refused (growing it here would silently change, and bill, a capacity the user fixed on purpose,
     * and FSx can never shrink it again); one that holds the data with less than the advisor's capacity for the tier
     * gets a warning.
     */
    private Number lustreCapacity(TrainingDataPlatformProps props, DatasetProfile profile, LustreSizing sizing) {
        Number pinned = props.getLustreCapacityGiB();
        int capacity = sizing.capacityGiB();
        if (pinned == null) {
            return capacity;
        }
        if (Token.isUnresolved(pinned)) {
            return pinned;
        }
        long bytes = profile.totalBytes();
        if (pinned.doubleValue() < 1) {
            return pinned;   // not a capacity at all: the cache's own rule says what is allowed
        }
        PlatformRules.checkPinnedCapacity(this, pinned, bytes, capacity);
        if (pinned.intValue() < capacity) {
            Annotations.of(this).addWarningV2("@trainingdata/platform:smallCapacity", getNode().getPath()
                    + ": lustreCapacityGiB(" + pinned + ") holds the profile's " + ByteSize.format(bytes) + " but is below "
                    + "the advisor's " + capacity + " GiB for " + sizing.tier() + " (20% headroom, the throughput the "
                    + "instances read at, loading within a deploy's wait): the data may fill the cache or load and read "
                    + "slower than estimated");
        }
        return pinned;
    }

    /**
     * Twice the estimated billable time of one job, in whole minutes, at most 28 days, and at most the user's spot
     * {@code maxWait} (which must cover the runtime).
     */
    private static Duration maxRuntime(OptionEstimate estimate, Duration maxWait) {
        if (estimate == null) {
            return null;
        }
        long minutes = (long) Math.ceil(2 * estimate.jobSeconds() / 60);
        long seconds = Math.min(minutes * 60, TrainingJobDefinition.MAX_RUNTIME.toSeconds().longValue());
        Number waitSeconds = maxWait == null ? null : wholeSeconds(maxWait);
        if (waitSeconds != null && !Token.isUnresolved(waitSeconds)) {
            seconds = Math.min(seconds, waitSeconds.longValue());
        }
        return Duration.seconds(seconds);
    }

    /** @return the duration in seconds, or null when aws-cdk-lib cannot convert it (the definition reports that) */
    private static Number wholeSeconds(Duration duration) {
        try {
            return duration.toSeconds();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** @return the advisor's recommendation, or null when no profile was given */
    public Recommendation getRecommendation() {
        return recommendation;
    }

    /** @return the source that was built */
    public DataSourceOption getSource() {
        return source;
    }

    /** @return the network */
    public TrainingNetwork getNetwork() {
        return network;
    }

    /** @return the training-data bucket */
    public TrainingDataBucket getDataBucket() {
        return dataBucket;
    }

    /**
     * @return the store the platform's job reads (through its channel or a direct read): the data bucket, the Lustre
     *     cache, the EFS store or the directory bucket
     */
    public TrainingDataStore getStore() {
        return store;
    }

    /** @return the Lustre cache, or null unless the source is FSX_LUSTRE */
    public LustreCache getLustreCache() {
        return store instanceof LustreCache cache ? cache : null;
    }

    /** @return the preload, or null unless the source is FSX_LUSTRE */
    public LustrePreload getPreload() {
        return preload;
    }

    /** @return the directory bucket, or null unless the source is an S3 Express One Zone option */
    public S3ExpressStore getS3ExpressStore() {
        return store instanceof S3ExpressStore express ? express : null;
    }

    /** @return the EFS store, or null unless the source is EFS */
    public EfsStore getEfsStore() {
        return store instanceof EfsStore efs ? efs : null;
    }

    /** @return the training-job definition (its settings as resolved: {@code getDefinition().getSpec()}) */
    public TrainingJobDefinition getDefinition() {
        return definition;
    }

    /** @return the CloudWatch dashboard of the data path */
    public TrainingDataDashboard getDashboard() {
        return dashboard;
    }
}
