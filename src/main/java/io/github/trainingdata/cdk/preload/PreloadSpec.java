package io.github.trainingdata.cdk.preload;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.internal.Deployments;
import io.github.trainingdata.cdk.performance.ByteSize;
import io.github.trainingdata.cdk.performance.CacheThroughput;
import io.github.trainingdata.cdk.performance.PreloadDefaults;
import io.github.trainingdata.cdk.performance.PreloadModel;
import io.github.trainingdata.cdk.performance.PreloadWorker;
import io.github.trainingdata.cdk.performance.Sizing;
import io.github.trainingdata.cdk.performance.WarmUpPath;
import io.github.trainingdata.cdk.limits.FsxLimits;
import io.github.trainingdata.cdk.limits.SageMakerLimits;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.LustreLocation;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.fsx.LustreDataCompressionType;
import software.constructs.IConstruct;

/**
 * A preload's settings with every default applied and every rule checked: the time limits, the warm-up's readers
 * and batch size, whether the deploy waits, the worker's image and job-name prefix, and the directories warmed.
 * Errors and the wait decision's note name the preload.
 */
final class PreloadSpec {
    private static final String WORKER_PREFIX = "warm-";
    private static final int ADDRESS_HEX_DIGITS = 8;

    private final IConstruct scope;
    private final LustreCache cache;
    final TrainingImage image;
    final Duration timeout;
    final Duration importTimeout;
    final int parallelism;
    final int batchSize;
    final boolean waitForCompletion;
    final List<LustreLocation> locations;
    final String workerPrefix;

    PreloadSpec(IConstruct scope, LustrePreloadProps props) {
        this.scope = scope;
        this.cache = props.getCache();
        if (cache == null) {
            throw ConfigurationError.of(PreloadRules.CACHE, scope, "cache", null, "the LustreCache to warm");
        }
        if (Deployments.separate(scope, cache) && Token.isUnresolved(cache.getFileSystemId())) {
            throw ConfigurationError.of(PreloadRules.CACHE_STACK, scope, "cache", cache.getNode().getPath(),
                    "a cache of the preload's stack: the worker mounts it by id and the warm key holds the id, which "
                            + "a replacement changes, and a value passed across stacks at deploy time is not updated "
                            + "then; create the preload in the stack that owns the cache");
        }
        TrainingJobDefinition definition = props.getDefinition();
        this.image = workerImage(props, definition);
        this.timeout = PreloadRules.timeout(scope, "timeout", props.getTimeout());
        this.importTimeout = PreloadRules.timeout(scope, "importTimeout", props.getImportTimeout());
        this.parallelism = PreloadRules.bounded(scope, "parallelism", props.getParallelism(), PreloadDefaults.DEFAULT_PARALLELISM, 1,
                PreloadDefaults.MAX_PARALLELISM);
        this.batchSize = PreloadRules.bounded(scope, "batchSize", props.getBatchSize(), PreloadDefaults.DEFAULT_BATCH_SIZE, 1,
                PreloadDefaults.MAX_BATCH_SIZE);
        PreloadRules.requireCounts(scope, props.getFileCount(), props.getTotalBytes());
        PreloadRules.checkWorkerInstanceType(scope, props.getWorkerInstanceType());
        this.waitForCompletion = waitForCompletion(props);
        checkCapacity(props.getTotalBytes());
        if (definition != null) {
            PreloadRules.requireReads(scope, cache, definition);
        }
        this.locations = locations(props, definition);
        this.workerPrefix = workerPrefix(scope);
    }

    /**
     * How long training waits for the preload's execution: the import and worker limits, the worker's retry
     * window, plus the state machine's margin for each.
     */
    Duration maxTrainingWait() {
        return Duration.seconds(importTimeout.toSeconds().longValue() + timeout.toSeconds().longValue()
                + PreloadStateMachine.RETRY_WINDOW.toSeconds().longValue()
                + PreloadStateMachine.MARGIN.toSeconds().longValue() * 2);
    }

    /**
     * Whether the deploy waits: as given, else by the estimated warm-up (FSx's metadata import of the files, then
     * the worker on the path its image takes, by the advisor's model) against what a deploy can wait. Waiting is
     * refused at synth when it is forced for a warm-up estimated beyond that.
     */
    private boolean waitForCompletion(LustrePreloadProps props) {
        Boolean given = props.getWaitForCompletion();
        Long files = props.getFileCount();
        Long bytes = props.getTotalBytes();
        if (files == null || bytes == null || Boolean.FALSE.equals(given)) {
            return !Boolean.FALSE.equals(given);
        }
        WarmUpPath path = Boolean.TRUE.equals(props.getWorkerImageHasLfs()) ? WarmUpPath.HSM_RESTORE : WarmUpPath.READ;
        String instanceType = props.getWorkerInstanceType() == null ? PreloadDefaults.DEFAULT_WORKER_INSTANCE_TYPE
                : Token.isUnresolved(props.getWorkerInstanceType()) ? null : props.getWorkerInstanceType();
        // An unknown capacity (a deploy-time value, an existing file system's not given) is taken at its smallest.
        CacheThroughput throughput = cache.getLoadThroughput() != null ? cache.getLoadThroughput()
                : CacheThroughput.scratch2(FsxLimits.SSD_MIN_CAPACITY_GIB);
        double seconds = PreloadModel.lustreIndexingSeconds(files) + PreloadModel.preloadSeconds(files, bytes,
                throughput, PreloadWorker.of(path, parallelism, batchSize, instanceType));
        long limit = LustrePreload.MAX_WAITING_TIMEOUT.toSeconds().longValue();
        if (seconds <= limit) {
            return true;
        }
        String estimate = String.format(Locale.ROOT, "%,d files (%s) are estimated to take %.1f h to import and warm "
                + "(advisor model: metadata import, then %s)", files, ByteSize.format(bytes), seconds / 3600,
                path == WarmUpPath.READ ? "the worker's read path, " + parallelism + " readers"
                        : "lfs hsm_restore, " + parallelism + " calls at once");
        if (Boolean.TRUE.equals(given)) {
            throw ConfigurationError.of(PreloadRules.WAIT_ESTIMATE, scope,
                    "waitForCompletion", true, "false: " + estimate + ", beyond the "
                    + LustrePreload.MAX_WAITING_TIMEOUT.toMinutes().longValue() + " minutes a deploy can wait");
        }
        Annotations.of(scope).addInfo(scope.getNode().getPath() + ": the deploy does not wait for the preload: " + estimate
                + ", beyond the " + LustrePreload.MAX_WAITING_TIMEOUT.toMinutes().longValue() + " minutes a deploy can wait; "
                + "training executions wait for it instead");
        return false;
    }

    /**
     * The warmed bytes must fit the cache's usable space: refused for an uncompressed cache created here, a warning
     * for a compressed or existing one (compression may make them fit; an existing one's setting is unknown).
     */
    private void checkCapacity(Long bytes) {
        Integer capacity = cache.getStorageCapacityGiB();
        if (bytes == null || capacity == null || bytes <= Sizing.lustreUsableBytes(capacity)) {
            return;
        }
        long usable = Sizing.lustreUsableBytes(capacity);
        String room = String.format(Locale.ROOT, "%,d bytes (%s), the file data %s's %d GiB hold (FSx keeps file data "
                + "in about 11/12 of the storage capacity)", usable, ByteSize.format(usable), cache.getNode().getPath(),
                capacity);
        if (cache.getDataCompression() == LustreDataCompressionType.NONE) {
            throw ConfigurationError.of(PreloadRules.TOTAL_BYTES_FIT, scope,
                    "totalBytes", bytes, "at most " + room + "; a cache of "
                    + Sizing.lustreMinimumCapacityGiB(bytes) + " GiB or more holds them");
        }
        Annotations.of(scope).addWarningV2("@trainingdata/preload:capacity", scope.getNode().getPath() + ": totalBytes "
                + String.format(Locale.ROOT, "%,d", bytes) + " is more than " + room + "; the preload loads only what "
                + "fits unless " + (cache.isExisting() ? "the file system compresses its data" : "compression makes it fit"));
    }

    private TrainingImage workerImage(LustrePreloadProps props, TrainingJobDefinition definition) {
        if (props.getImage() != null) {
            return props.getImage();
        }
        if (definition != null && definition.getSpec().getTrainingImage() != null) {
            String uri = definition.getSpec().getTrainingImage().getUri();
            if (Token.isUnresolved(uri) && Stack.of(definition) != Stack.of(scope)) {
                throw ConfigurationError.of(PreloadRules.IMAGE_CROSS_STACK, scope,
                        "image", null, "a worker image given here: the definition "
                        + definition.getNode().getPath() + " is in another stack and its image is a deploy-time value "
                        + "of that stack, which this stack cannot reference without a dependency cycle");
            }
            return definition.getSpec().getTrainingImage();
        }
        throw ConfigurationError.of(PreloadRules.IMAGE_REQUIRED, scope, "image", null, definition == null
                ? "a worker image when the preload belongs to no definition (a Linux image with /bin/sh and GNU coreutils "
                        + "and findutils)"
                : "a worker image: the definition " + definition.getNode().getPath()
                        + " uses an algorithm name, not an image the worker could run");
    }

    /**
     * What is warmed: the given locations, else what the definition's channels on this cache read, else the
     * root of every dataset of the cache. One worker channel each.
     */
    private List<LustreLocation> locations(LustrePreloadProps props, TrainingJobDefinition definition) {
        List<LustreLocation> locations = props.getLocations() != null ? props.getLocations()
                : definition != null ? definition.getSpec().getChannels().stream()
                        .filter(c -> c instanceof LustreChannel l && l.getCache() == cache)
                        .map(c -> ((LustreChannel) c).location()).toList()
                : cache.getDatasets().stream().map(d -> cache.location(d.getName(), "")).toList();
        PreloadRules.checkLocations(scope, cache, locations);
        return locations;
    }

    /**
     * What decides re-warming: the file system (a replaced cache is cold), each warmed dataset's link
     * (file-system path to S3 location), the warmed directories, and the dataset version.
     */
    List<Object> warmKey(String datasetVersion) {
        List<Object> warmed = new ArrayList<>();
        for (LustreLocation location : locations) {
            LustreDataset dataset = location.getDataset();
            warmed.add(List.of(dataset.getFileSystemPath(), dataset.getS3Uri(), location.getPath()));
        }
        return List.of(cache.getFileSystemId(), warmed, datasetVersion != null ? datasetVersion : "");
    }

    /**
     * {@code warm-<preload construct id>-<8 hex of the preload's address>}, at most
     * {@link SageMakerLimits#JOB_NAME_PREFIX} characters: the id lower-cased (SageMaker writes names lowercase in
     * ARNs, and the IAM policies match them), every character outside {@code [a-z0-9-]} a hyphen, runs of hyphens
     * one, cut to fit and trimmed of hyphens; the 8 hex digits are those after the {@code c8} version marker of
     * {@code node.addr} (a hash of the construct path), so that two preloads never share workers. It depends on
     * nothing a user renames in place (a definition's job-name prefix, for one), so the handler's IAM scope always
     * covers the workers still running, and the prefix stays outside every definition's own {@code <prefix>-*} jobs.
     */
    static String workerPrefix(IConstruct preload) {
        String hash = preload.getNode().getAddr().substring(2, 2 + ADDRESS_HEX_DIGITS);
        int room = SageMakerLimits.JOB_NAME_PREFIX.getMax().intValue() - WORKER_PREFIX.length() - 1 - hash.length();
        String id = preload.getNode().getId().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-")
                .replaceAll("-+", "-").replaceAll("^-|-$", "");
        id = id.length() > room ? id.substring(0, room).replaceAll("-+$", "") : id;
        return WORKER_PREFIX + (id.isEmpty() ? "" : id + "-") + hash;
    }
}
