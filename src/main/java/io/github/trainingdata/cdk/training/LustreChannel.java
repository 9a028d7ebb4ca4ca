package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.KeyPrefix;
import io.github.trainingdata.cdk.storage.LustreCache;
import java.util.Objects;

/**
 * An FSx for Lustre channel (the SageMaker Python SDK's {@code FileSystemInput} with
 * {@code FSxLustre}): a directory of a {@link LustreCache}, mounted in File mode. The directory is
 * given as the path under the cache's S3 import prefix, so {@code s3://bucket/<import>/train} is
 * channel path {@code train}, rendered as {@code /<mountName>/train}. It pins training to the file
 * system's Availability Zone.
 */
public final class LustreChannel extends FileSystemChannel {
    private final LustreCache cache;
    private final String path;

    private LustreChannel(Builder b) {
        super(b.name, b.accessMode);
        this.cache = Objects.requireNonNull(b.cache, "LustreChannel.cache is required");
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

    /** @return the path under the cache's import prefix */
    public String getPath() {
        return path;
    }

    @Override
    TrainingNetwork network() {
        return cache.getNetwork();
    }

    @Override
    String pinnedAvailabilityZone() {
        return cache.getAvailabilityZone();
    }

    @Override
    void validate(ChannelRules rules, InputMode effectiveMode) {
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
        return cache.directoryPath(path);
    }

    @Override
    void addPermissions(ExecutionPermissions permissions) {
        permissions.lustre(cache);
    }

    /** Builder of {@link LustreChannel}. */
    public static final class Builder {
        private final String name;
        private LustreCache cache;
        private String path = "";
        private FileSystemAccessMode accessMode = FileSystemAccessMode.READ_ONLY;

        private Builder(String name) {
            this.name = name;
        }

        /** The Lustre cache to read. Required. */
        public Builder cache(LustreCache cache) {
            this.cache = cache;
            return this;
        }

        /**
         * The directory, as a path under the cache's S3 import prefix.
         *
         * @default "" (the file system root)
         */
        public Builder path(String path) {
            this.path = path;
            return this;
        }

        /**
         * How the file system is mounted.
         *
         * @default {@link FileSystemAccessMode#READ_ONLY}
         */
        public Builder accessMode(FileSystemAccessMode accessMode) {
            this.accessMode = Objects.requireNonNull(accessMode);
            return this;
        }

        /** @return the channel */
        public LustreChannel build() {
            return new LustreChannel(this);
        }
    }
}
