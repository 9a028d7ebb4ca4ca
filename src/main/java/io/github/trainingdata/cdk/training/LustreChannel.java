package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.internal.KeyPrefix;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.LustreLocation;
import java.util.Objects;

/**
 * An FSx for Lustre channel (the SageMaker Python SDK's {@code FileSystemInput} with
 * {@code FSxLustre}): a directory inside one dataset of a {@link LustreCache}, mounted in File mode. The
 * dataset's data repository association decides where its objects appear, so the channel for dataset
 * {@code imagenet} (linked at {@code /imagenet} to {@code s3://bucket/datasets/imagenet/}) and path
 * {@code train} reads {@code s3://bucket/datasets/imagenet/train/} at {@code /<mountName>/imagenet/train}.
 * It pins training to the file system's Availability Zone.
 */
public final class LustreChannel extends FileSystemChannel {
    private final LustreCache cache;
    private final String dataset;
    private final String path;

    private LustreChannel(Builder b) {
        super(b.name, b.accessMode);
        this.cache = b.cache;
        this.dataset = b.dataset;
        this.path = b.path;
    }

    /**
     * Starts a channel.
     *
     * @param name the channel name: 1–64 characters of {@code [A-Za-z0-9.\-_]}
     * @return a builder
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** @return the cache the channel reads */
    public LustreCache getCache() {
        return cache;
    }

    /** @return the name of the dataset the channel reads, or null for the cache's only dataset */
    public String getDataset() {
        return dataset;
    }

    /** @return the path inside the dataset */
    public String getPath() {
        return path;
    }

    /**
     * The directory the channel mounts, resolved through the cache's datasets.
     *
     * @return the location: mount path and S3 location
     */
    public LustreLocation location() {
        return cache.location(datasetName(), path);
    }

    private String datasetName() {
        return dataset != null ? dataset : cache.getDatasets().get(0).getName();
    }

    /** @return the cache the channel reads */
    @Override
    public LustreCache getStore() {
        return cache;
    }

    @Override
    protected void validate(ChannelRules rules, ChannelInputMode effectiveMode) {
        if (cache == null) {
            throw rules.error(ChannelRules.LUSTRE_CACHE, "cache", null, "the LustreCache the channel reads");
        }
        if (dataset == null && cache.getDatasets().size() > 1) {
            throw rules.error(ChannelRules.LUSTRE_DATASET_REQUIRED,
                    "dataset", null, "the dataset to read: " + cache.datasetNames()
                    + " (the cache has several)");
        }
        if (dataset != null && cache.getDatasets().stream().map(LustreDataset::getName).noneMatch(dataset::equals)) {
            throw rules.error(ChannelRules.LUSTRE_DATASET,
                    "dataset", dataset, cache.datasetNames() + " of " + cache.getNode().getPath());
        }
        KeyPrefix.check(rules.scope(), rules.field("path"), path);
    }

    @Override
    String fileSystemType() {
        return "FSxLustre";
    }

    @Override
    String fileSystemId() {
        return cache.getFileSystemId();
    }

    @Override
    String directoryPathOnFileSystem() {
        return location().getDirectoryPath();
    }

    /** Builder of {@link LustreChannel}. */
    public static final class Builder {
        private final String name;
        private LustreCache cache;
        private String dataset;
        private String path = "";
        private ChannelAccessMode accessMode = ChannelAccessMode.READ_ONLY;

        private Builder(String name) {
            this.name = name;
        }

        /** The Lustre cache to read. Required. */
        public Builder cache(LustreCache cache) {
            this.cache = cache;
            return this;
        }

        /**
         * The name of the cache's dataset to read.
         *
         * @default the cache's only dataset (required when it has several)
         */
        public Builder dataset(String dataset) {
            this.dataset = dataset;
            return this;
        }

        /**
         * The directory inside the dataset, as a path under the dataset's S3 location.
         *
         * @default "" (the dataset's root)
         */
        public Builder path(String path) {
            this.path = path;
            return this;
        }

        /**
         * How the file system is mounted.
         *
         * @default {@link ChannelAccessMode#READ_ONLY}
         */
        public Builder accessMode(ChannelAccessMode accessMode) {
            this.accessMode = Objects.requireNonNull(accessMode);
            return this;
        }

        /** @return the channel */
        public LustreChannel build() {
            return new LustreChannel(this);
        }
    }
}
