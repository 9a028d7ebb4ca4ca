package io.github.trainingdata.cdk.preload;

import io.github.trainingdata.cdk.performance.PreloadDefaults;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreLocation;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import java.util.List;
import software.amazon.awscdk.Duration;

/** Properties of a {@link LustrePreload}. {@code cache} is required, and a definition or an image. */
public final class LustrePreloadProps {
    private final LustreCache cache;
    private final TrainingJobDefinition definition;
    private final TrainingImage image;
    private final List<LustreLocation> locations;
    private final String datasetVersion;
    private final Boolean waitForCompletion;
    private final Duration timeout;
    private final Duration importTimeout;
    private final String workerInstanceType;
    private final Boolean workerImageHasLfs;
    private final Integer parallelism;
    private final Integer batchSize;
    private final Long fileCount;
    private final Long totalBytes;

    private LustrePreloadProps(Builder b) {
        this.cache = b.cache;
        this.definition = b.definition;
        this.image = b.image;
        this.locations = b.locations == null ? null : List.copyOf(b.locations);
        this.datasetVersion = b.datasetVersion;
        this.waitForCompletion = b.waitForCompletion;
        this.timeout = b.timeout;
        this.importTimeout = b.importTimeout;
        this.workerInstanceType = b.workerInstanceType;
        this.workerImageHasLfs = b.workerImageHasLfs;
        this.parallelism = b.parallelism;
        this.batchSize = b.batchSize;
        this.fileCount = b.fileCount;
        this.totalBytes = b.totalBytes;
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the cache to warm */
    public LustreCache getCache() {
        return cache;
    }

    /** @return the definition the preload belongs to, or null */
    public TrainingJobDefinition getDefinition() {
        return definition;
    }

    /** @return the worker image, or null for the definition's */
    public TrainingImage getImage() {
        return image;
    }

    /** @return the directories to warm, or null for the default */
    public List<LustreLocation> getLocations() {
        return locations;
    }

    /** @return the dataset version, or null */
    public String getDatasetVersion() {
        return datasetVersion;
    }

    /** @return whether the deploy waits, or null for the default */
    public Boolean getWaitForCompletion() {
        return waitForCompletion;
    }

    /** @return the worker's time limit, or null for the default */
    public Duration getTimeout() {
        return timeout;
    }

    /** @return how long the preload waits for FSx's metadata import, or null for the default */
    public Duration getImportTimeout() {
        return importTimeout;
    }

    /** @return the worker instance type, or null for the default */
    public String getWorkerInstanceType() {
        return workerInstanceType;
    }

    /** @return whether the worker image has the Lustre client's lfs, or null for the default */
    public Boolean getWorkerImageHasLfs() {
        return workerImageHasLfs;
    }

    /** @return the worker's parallel reads, or null for the default */
    public Integer getParallelism() {
        return parallelism;
    }

    /** @return the files per hsm_restore batch, or null for the default */
    public Integer getBatchSize() {
        return batchSize;
    }

    /** @return how many files the warmed directories hold, or null when unknown */
    public Long getFileCount() {
        return fileCount;
    }

    /** @return how many bytes the warmed directories hold, or null when unknown */
    public Long getTotalBytes() {
        return totalBytes;
    }

    /** Builder of {@link LustrePreloadProps}. */
    public static final class Builder {
        private LustreCache cache;
        private TrainingJobDefinition definition;
        private TrainingImage image;
        private List<LustreLocation> locations;
        private String datasetVersion;
        private Boolean waitForCompletion;
        private Duration timeout;
        private Duration importTimeout;
        private String workerInstanceType;
        private Boolean workerImageHasLfs;
        private Integer parallelism;
        private Integer batchSize;
        private Long fileCount;
        private Long totalBytes;

        private Builder() {
        }

        /** The Lustre cache to warm. Required. */
        public Builder cache(LustreCache cache) {
            this.cache = cache;
            return this;
        }

        /**
         * The training definition that reads the cache: the worker uses its image, execution role and
         * output bucket, and the definition does not start training before the cache is warm.
         *
         * @default none (then {@code image} is required)
         */
        public Builder definition(TrainingJobDefinition definition) {
            this.definition = definition;
            return this;
        }

        /**
         * The worker's container image: a Linux image with /bin/sh and GNU coreutils and findutils (e.g.
         * the Ubuntu-based AWS Deep Learning Containers; not BusyBox/Alpine); {@code lfs} is used when present.
         *
         * @default the definition's training image
         */
        public Builder image(TrainingImage image) {
            this.image = image;
            return this;
        }

        /**
         * The directories to warm, from {@code cache.location(dataset, path)} (at most 20, one worker channel
         * each).
         *
         * @default what the definition's Lustre channels on the cache read; without a definition, every dataset
         *     of the cache
         */
        public Builder locations(List<LustreLocation> locations) {
            this.locations = locations;
            return this;
        }

        /**
         * A label of the dataset's contents: changing it re-warms the cache on the next deploy even when
         * the directories stay the same (new objects under the same prefix).
         *
         * @default none (re-warm only when the file system, the datasets' links or the directories change)
         */
        public Builder datasetVersion(String datasetVersion) {
            this.datasetVersion = datasetVersion;
            return this;
        }

        /**
         * Whether {@code cdk deploy} waits for the warm-up, at most {@link LustrePreload#MAX_WAITING_TIMEOUT}
         * (a custom resource may take one hour). A warm-up still running then (a large dataset, or FSx still
         * importing metadata) no longer holds the deploy: the preload completes with status STARTED and goes on.
         * When false the deploy returns at once. Either way every training execution of the definition first
         * waits for the preload's execution. Forcing true for a warm-up estimated (from fileCount and totalBytes)
         * beyond {@link LustrePreload#MAX_WAITING_TIMEOUT} is an error at synth.
         *
         * @default true, unless fileCount and totalBytes are given and the estimated warm-up (metadata import and
         *     worker, by the advisor's model) exceeds {@link LustrePreload#MAX_WAITING_TIMEOUT}: then false, with an
         *     info annotation
         */
        public Builder waitForCompletion(Boolean waitForCompletion) {
            this.waitForCompletion = waitForCompletion;
            return this;
        }

        /**
         * How long the worker may run (1 minute to 28 days); it is stopped and the preload fails after it.
         *
         * @default 12 hours
         */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /**
         * How long the preload waits, before it starts the worker, for FSx to finish importing file metadata
         * from S3 (1 minute to 28 days; a data repository association created with BatchImportMetaDataOnCreate
         * imports for hours when the bucket holds millions of objects); the preload fails after it.
         *
         * @default 12 hours
         */
        public Builder importTimeout(Duration importTimeout) {
            this.importTimeout = importTimeout;
            return this;
        }

        /**
         * The worker's instance type (it only reads files; network bandwidth matters most).
         *
         * @default ml.m5.xlarge ({@link PreloadDefaults#DEFAULT_WORKER_INSTANCE_TYPE})
         */
        public Builder workerInstanceType(String workerInstanceType) {
            this.workerInstanceType = workerInstanceType;
            return this;
        }

        /**
         * Whether the worker image has the Lustre client's {@code lfs} (as {@code examples/worker-image/Dockerfile.lustre}
         * has): then {@code warm-cache.sh} restores with {@code lfs hsm_restore}, which the file servers run without
         * the worker's network in the way. The script decides by itself at run time; this only tells the estimate
         * that decides whether the deploy waits which path to model.
         *
         * @default false: the estimate models the read path, the slower one, so the deploy never waits on a warm-up
         *     estimated too short
         */
        public Builder workerImageHasLfs(Boolean workerImageHasLfs) {
            this.workerImageHasLfs = workerImageHasLfs;
            return this;
        }

        /**
         * How many files the worker loads at once (1–512). Each first read loads a whole file from S3 and waits
         * tens of milliseconds, so the read path is latency-bound: 128 readers load about 3,000 small files a second
         * where 8 load 200; above 512, S3's per-prefix request rate is the limit.
         *
         * @default 128 ({@link PreloadDefaults#DEFAULT_PARALLELISM})
         */
        public Builder parallelism(Integer parallelism) {
            this.parallelism = parallelism;
            return this;
        }

        /**
         * Files per reader process or per {@code lfs} poll call (1–10000); {@code lfs hsm_restore} takes at most 50
         * files per call (Lustre's request-size limit), whatever this says.
         *
         * @default 256 ({@link PreloadDefaults#DEFAULT_BATCH_SIZE})
         */
        public Builder batchSize(Integer batchSize) {
            this.batchSize = batchSize;
            return this;
        }

        /**
         * How many files the warmed directories hold: with totalBytes, the warm-up is estimated by the advisor's
         * model (FSx's metadata import, then {@code PreloadModel.preloadSeconds} for the worker's path, readers,
         * instance type and the cache's capacity) to decide whether the deploy waits.
         *
         * @default unknown (the deploy waits unless waitForCompletion is false)
         */
        public Builder fileCount(Long fileCount) {
            this.fileCount = fileCount;
            return this;
        }

        /**
         * How many bytes the warmed directories hold (see fileCount). More than the cache's usable space (about 92%
         * of its storage capacity) is refused at synth for an uncompressed cache created here, and a warning for an
         * existing or compressed one.
         *
         * @default unknown
         */
        public Builder totalBytes(Long totalBytes) {
            this.totalBytes = totalBytes;
            return this;
        }

        /** @return the props */
        public LustrePreloadProps build() {
            return new LustrePreloadProps(this);
        }
    }
}
