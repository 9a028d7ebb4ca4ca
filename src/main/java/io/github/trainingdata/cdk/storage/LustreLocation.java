package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.internal.KeyPrefix;
/**
 * A directory of a {@link LustreCache} inside one of its {@link LustreDataset}s, with both of its names:
 * where a training job mounts it ({@code /<mountName><fileSystemPath>/<path>}) and where its objects live
 * in S3 ({@code s3://<bucket>/<dataset key prefix>/<path>/}). Obtained from {@link LustreCache#location}.
 */
public final class LustreLocation {
    private final LustreCache cache;
    private final LustreDataset dataset;
    private final String path;

    LustreLocation(LustreCache cache, LustreDataset dataset, String path) {
        this.cache = cache;
        this.dataset = dataset;
        this.path = path;
    }

    /** @return the cache */
    public LustreCache getCache() {
        return cache;
    }

    /** @return the dataset the directory belongs to */
    public LustreDataset getDataset() {
        return dataset;
    }

    /** @return the path inside the dataset, without leading or trailing {@code /} (empty for the dataset's root) */
    public String getPath() {
        return path;
    }

    /**
     * The directory as a channel's {@code DirectoryPath}: {@code /<mountName><fileSystemPath>/<path>}.
     *
     * @return e.g. {@code /abcdefgh/imagenet/train} (contains the deploy-time mount-name token)
     */
    public String getDirectoryPath() {
        return "/" + KeyPrefix.join(cache.getMountName(), getPathBelowMount());
    }

    /**
     * The directory below the mount name: {@code <fileSystemPath>/<path>} without the leading {@code /}.
     *
     * @return e.g. {@code imagenet/train}; empty for a dataset at {@code /} read at its root
     */
    public String getPathBelowMount() {
        return KeyPrefix.join(dataset.getFileSystemPath().substring(1), path);
    }

    /** @return the object-key prefix the directory's files come from, from the bucket root */
    public String getKeyPrefix() {
        return KeyPrefix.join(dataset.getKeyPrefix(), path);
    }

    /** @return the S3 location the directory's files come from, {@code s3://bucket/prefix/} */
    public String getS3Uri() {
        return dataset.getDataBucket().uri(getKeyPrefix()) + "/";
    }
}
