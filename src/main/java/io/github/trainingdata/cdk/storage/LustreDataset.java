package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.internal.KeyPrefix;
import java.util.List;

/**
 * One dataset of a {@link LustreCache}: a data repository association (DRA) that links a directory of
 * the file system to an S3 location, so the object {@code s3://<bucket>/<dataset prefix>/<prefix>/x}
 * appears as the file {@code <fileSystemPath>/x}. This mapping is the one source of truth for where an
 * object appears: Lustre channels and the preload worker render their directories from it.
 *
 * <p>A new cache creates one association per dataset (a {@code Custom::DataRepositoryAssociation}), importing the
 * location's metadata on creation and following new, changed and deleted objects by default; a changed
 * {@code fileSystemPath} or location moves it in place on the next deploy. For an existing file system the
 * datasets describe the associations it already has.
 */
public final class LustreDataset {
    private final String name;
    private final TrainingDataBucket dataBucket;
    private final String prefix;
    private final String fileSystemPath;
    private final List<DataRepositoryEvent> autoImport;
    private final List<DataRepositoryEvent> autoExport;
    private final Number importedFileChunkSizeMiB;

    private LustreDataset(Builder b) {
        this.name = b.name;
        this.dataBucket = b.dataBucket;
        this.prefix = b.prefix != null ? b.prefix : "";
        this.fileSystemPath = b.fileSystemPath != null ? b.fileSystemPath : "/" + b.name;
        this.autoImport = b.autoImport == null ? null : List.copyOf(b.autoImport);
        this.autoExport = b.autoExport == null ? null : List.copyOf(b.autoExport);
        this.importedFileChunkSizeMiB = b.importedFileChunkSizeMiB;
    }

    /**
     * Starts a dataset.
     *
     * @param name the dataset's name, unique in its cache: 1–32 characters of {@code [A-Za-z0-9_-]}, starting
     *     with a letter or digit; channels name it, and it is part of the association's construct id
     * @return a builder
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** @return the dataset's name */
    public String getName() {
        return name;
    }

    /** @return the bucket that holds the dataset */
    public TrainingDataBucket getDataBucket() {
        return dataBucket;
    }

    /** @return the dataset's prefix relative to the bucket's dataset prefix (empty for the dataset prefix itself) */
    public String getPrefix() {
        return prefix;
    }

    /** @return the object-key prefix of the linked S3 location, from the bucket root */
    public String getKeyPrefix() {
        return KeyPrefix.join(dataBucket.getDatasetPrefix(), prefix);
    }

    /** @return the linked S3 location, {@code s3://bucket/prefix/} (the association's DataRepositoryPath) */
    public String getS3Uri() {
        return dataBucket.uri(getKeyPrefix()) + "/";
    }

    /** @return the linked directory of the file system, e.g. {@code /imagenet} ({@code /} for the root) */
    public String getFileSystemPath() {
        return fileSystemPath;
    }

    /** @return the S3 events imported automatically, or null for the default */
    public List<DataRepositoryEvent> getAutoImport() {
        return autoImport;
    }

    /** @return the file-system events exported automatically, or null for the default */
    public List<DataRepositoryEvent> getAutoExport() {
        return autoExport;
    }

    /** @return the imported file chunk size in MiB, or null for the service default */
    public Number getImportedFileChunkSizeMiB() {
        return importedFileChunkSizeMiB;
    }

    /** Builder of {@link LustreDataset}. */
    public static final class Builder {
        private final String name;
        private TrainingDataBucket dataBucket;
        private String prefix;
        private String fileSystemPath;
        private List<DataRepositoryEvent> autoImport;
        private List<DataRepositoryEvent> autoExport;
        private Number importedFileChunkSizeMiB;

        private Builder(String name) {
            this.name = name;
        }

        /** The bucket whose dataset prefix holds the data. Required. */
        public Builder dataBucket(TrainingDataBucket dataBucket) {
            this.dataBucket = dataBucket;
            return this;
        }

        /**
         * The dataset's location under the bucket's dataset prefix, e.g. {@code imagenet}.
         *
         * @default "" (the bucket's dataset prefix itself)
         */
        public Builder prefix(String prefix) {
            this.prefix = prefix;
            return this;
        }

        /**
         * The file-system directory the location appears in: {@code /} or {@code /<segment>[/<segment>…]}.
         * {@code /} links the whole file system and allows no other dataset.
         *
         * @default {@code /<name>}
         */
        public Builder fileSystemPath(String fileSystemPath) {
            this.fileSystemPath = fileSystemPath;
            return this;
        }

        /**
         * Which S3 changes reach the file system after the association is created (empty: none).
         *
         * @default NEW, CHANGED and DELETED
         */
        public Builder autoImport(List<DataRepositoryEvent> autoImport) {
            this.autoImport = autoImport;
            return this;
        }

        /**
         * Which file-system changes FSx writes back to S3 (empty: none). A cache that exports is retained when
         * its stack is deleted, since it may hold data that S3 does not have yet.
         *
         * @default none
         */
        public Builder autoExport(List<DataRepositoryEvent> autoExport) {
            this.autoExport = autoExport;
            return this;
        }

        /**
         * Stripe size of imported files, 1–512000 MiB (may be a deploy-time number).
         *
         * @default the service default, 1024 MiB
         */
        public Builder importedFileChunkSizeMiB(Number importedFileChunkSizeMiB) {
            this.importedFileChunkSizeMiB = importedFileChunkSizeMiB;
            return this;
        }

        /** @return the dataset */
        public LustreDataset build() {
            return new LustreDataset(this);
        }
    }
}
