package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.limits.SageMakerLimits;
import io.github.trainingdata.cdk.internal.KeyPrefix;
import io.github.trainingdata.cdk.storage.StoreAccess;
import io.github.trainingdata.cdk.storage.S3Store;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awscdk.Token;

/**
 * An S3 channel (the SageMaker Python SDK's {@code TrainingInput}): objects under a prefix of an {@link S3Store} (the
 * training-data bucket, an S3 Express One Zone directory bucket, or a bucket of your own), a manifest, or an augmented
 * manifest, read in File, FastFile or Pipe mode (those the store accepts). The execution role may read the channel's
 * prefix only (on a directory bucket: a read-only session on it).
 */
public final class S3Channel extends TrainingChannel {
    /** Most attribute names an augmented manifest channel may name (16): {@link SageMakerLimits#ATTRIBUTE_NAMES}. */
    public static final int MAX_ATTRIBUTE_NAMES = SageMakerLimits.ATTRIBUTE_NAMES.getMax().intValue();

    private final S3Store store;
    private final String path;
    private final S3ChannelDataType dataType;
    private final ChannelInputMode inputMode;
    private final S3ChannelDistribution distribution;
    private final Number shuffleSeed;
    private final Compression compression;
    private final ChannelRecordWrapper recordWrapper;
    private final String contentType;
    private final List<String> attributeNames;

    private S3Channel(Builder b) {
        super(b.name);
        this.store = b.store;
        this.path = b.path;
        this.dataType = b.dataType;
        this.inputMode = b.inputMode;
        this.distribution = b.distribution;
        this.shuffleSeed = b.shuffleSeed;
        this.compression = b.compression;
        this.recordWrapper = b.recordWrapper;
        this.contentType = b.contentType;
        this.attributeNames = List.copyOf(b.attributeNames);
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

    @Override
    public ChannelInputMode getInputMode() {
        return inputMode;
    }

    /** @return what the URI points at */
    public S3ChannelDataType getDataType() {
        return dataType;
    }

    /** @return the channel's {@code s3://} URI (a directory with trailing {@code /}, or a manifest object) */
    public String getS3Uri() {
        return dataType == S3ChannelDataType.S3_PREFIX ? store.s3Uri(path) : store.uri(store.keyPrefix(path));
    }

    /** @return the S3 store the channel reads */
    @Override
    public S3Store getStore() {
        return store;
    }

    /** S3 channels only read. */
    @Override
    protected StoreAccess storeAccess() {
        return StoreAccess.READ;
    }

    @Override
    protected void validate(ChannelRules rules, ChannelInputMode mode) {
        if (store == null) {
            throw rules.error(ChannelRules.DATA_BUCKET, "store", null,
                    "the S3 store the channel reads (a TrainingDataBucket, an S3ExpressStore or an S3Store of your own)");
        }
        if (!store.getInputModes().contains(mode.apiValue())) {
            throw rules.error(ChannelRules.STORE_INPUT_MODE, "inputMode", mode.apiValue(),
                    "an input mode the store " + store.getNode().getPath() + " accepts: "
                            + String.join(", ", store.getInputModes()));
        }
        KeyPrefix.check(rules.scope(), rules.field("path"), path);
        if (dataType != S3ChannelDataType.S3_PREFIX && path.isEmpty()) {
            throw rules.error(ChannelRules.MANIFEST_PATH,
                    "path", path, "the key of the manifest object, relative to the dataset prefix");
        }
        if (mode == ChannelInputMode.FAST_FILE && dataType != S3ChannelDataType.S3_PREFIX) {
            throw rules.error(ChannelRules.FAST_FILE_PREFIX, "inputMode", "FastFile",
                    "File or Pipe for " + dataType.apiValue() + " (FastFile reads S3 prefixes only)");
        }
        if (compression == Compression.GZIP && mode != ChannelInputMode.PIPE) {
            throw rules.error(ChannelRules.GZIP_PIPE,
                    "compression", "Gzip", "None unless the channel runs in Pipe mode (it runs in "
                    + mode.apiValue() + ")");
        }
        if (recordWrapper == ChannelRecordWrapper.RECORD_IO && mode == ChannelInputMode.FILE) {
            throw rules.error(ChannelRules.RECORDIO_FILE,
                    "recordWrapper", "RecordIO", "None in File mode (RecordIO wrapping needs Pipe or FastFile)");
        }
        if (dataType == S3ChannelDataType.AUGMENTED_MANIFEST_FILE && mode != ChannelInputMode.PIPE) {
            throw rules.error(ChannelRules.AUGMENTED_PIPE,
                    "inputMode", mode.apiValue(), "Pipe for an AugmentedManifestFile channel");
        }
        if (!attributeNames.isEmpty() && dataType != S3ChannelDataType.AUGMENTED_MANIFEST_FILE) {
            throw rules.error(ChannelRules.ATTRIBUTES_AUGMENTED,
                    "attributeNames", attributeNames, "empty unless dataType is AugmentedManifestFile");
        }
        if (!SageMakerLimits.ATTRIBUTE_NAMES.accepts(attributeNames.size())) {
            throw rules.error(ChannelRules.ATTRIBUTE_COUNT,
                    "attributeNames", attributeNames.size() + " names", SageMakerLimits.ATTRIBUTE_NAMES.allowed());
        }
        for (int i = 0; i < attributeNames.size(); i++) {
            String name = attributeNames.get(i);
            if (!Token.isUnresolved(name) && !SageMakerLimits.ATTRIBUTE_NAME.accepts(name)) {
                throw rules.error(ChannelRules.ATTRIBUTE_NAME,
                        "attributeNames[" + i + "]", name, SageMakerLimits.ATTRIBUTE_NAME.allowed());
            }
        }
        if (contentType != null && !Token.isUnresolved(contentType) && !SageMakerLimits.CONTENT_TYPE.accepts(contentType)) {
            throw rules.error(ChannelRules.CONTENT_TYPE,
                    "contentType", contentType, "a MIME type of " + SageMakerLimits.CONTENT_TYPE.allowed());
        }
        String uri = getS3Uri();
        if (!Token.isUnresolved(uri) && !SageMakerLimits.S3_URI.accepts(uri)) {
            throw rules.error(ChannelRules.S3_URI, "path", path, "a path whose s3:// URI has " + SageMakerLimits.S3_URI.allowed());
        }
    }

    @Override
    protected Map<String, Object> render() {
        Map<String, Object> s3 = new LinkedHashMap<>();
        s3.put("S3DataType", dataType.apiValue());
        s3.put("S3Uri", getS3Uri());
        s3.put("S3DataDistributionType", distribution.apiValue());
        if (!attributeNames.isEmpty()) {
            s3.put("AttributeNames", attributeNames);
        }
        Map<String, Object> channel = new LinkedHashMap<>();
        channel.put("ChannelName", getName());
        channel.put("DataSource", Map.of("S3DataSource", s3));
        if (contentType != null) {
            channel.put("ContentType", contentType);
        }
        if (compression != null) {
            channel.put("CompressionType", compression.apiValue());
        }
        if (recordWrapper != null) {
            channel.put("RecordWrapperType", recordWrapper.apiValue());
        }
        if (inputMode != null) {
            channel.put("InputMode", inputMode.apiValue());
        }
        if (shuffleSeed != null) {
            channel.put("ShuffleConfig", Map.of("Seed", shuffleSeed));
        }
        return channel;
    }

    /** The key prefix read; a manifest may list any object of the dataset, so for one the dataset prefix. */
    @Override
    protected String grantedPath() {
        return dataType == S3ChannelDataType.S3_PREFIX ? store.keyPrefix(path) : store.getDatasetPrefix();
    }

    /** Builder of {@link S3Channel}. */
    public static final class Builder {
        private final String name;
        private S3Store store;
        private String path = "";
        private S3ChannelDataType dataType = S3ChannelDataType.S3_PREFIX;
        private ChannelInputMode inputMode;
        private S3ChannelDistribution distribution = S3ChannelDistribution.FULLY_REPLICATED;
        private Number shuffleSeed;
        private Compression compression;
        private ChannelRecordWrapper recordWrapper;
        private String contentType;
        private final List<String> attributeNames = new ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        /** The bucket holding the data: the same as {@link #store}. */
        public Builder dataBucket(TrainingDataBucket dataBucket) {
            return store(dataBucket);
        }

        /**
         * The S3 store holding the data: a {@link TrainingDataBucket}, an S3 Express One Zone directory bucket
         * ({@code S3ExpressStore}) or an {@link S3Store} of your own, new or existing. Required.
         */
        public Builder store(S3Store store) {
            this.store = store;
            return this;
        }

        /**
         * The prefix (or, for manifests, the object key) relative to the bucket's dataset prefix.
         *
         * @default "" (the whole dataset prefix)
         */
        public Builder path(String path) {
            this.path = path;
            return this;
        }

        /**
         * What the URI points at.
         *
         * @default {@link S3ChannelDataType#S3_PREFIX}
         */
        public Builder dataType(S3ChannelDataType dataType) {
            this.dataType = Objects.requireNonNull(dataType);
            return this;
        }

        /**
         * The channel's input mode.
         *
         * @default the job's default input mode
         */
        public Builder inputMode(ChannelInputMode inputMode) {
            this.inputMode = inputMode;
            return this;
        }

        /**
         * How objects are spread over instances.
         *
         * @default {@link S3ChannelDistribution#FULLY_REPLICATED}
         */
        public Builder distribution(S3ChannelDistribution distribution) {
            this.distribution = Objects.requireNonNull(distribution);
            return this;
        }

        /**
         * Shuffles the object order each epoch with this seed (ShuffleConfig).
         *
         * @default no shuffling
         */
        public Builder shuffleSeed(Number shuffleSeed) {
            this.shuffleSeed = shuffleSeed;
            return this;
        }

        /**
         * Compression of the objects ({@code GZIP} needs Pipe mode).
         *
         * @default unset (uncompressed)
         */
        public Builder compression(Compression compression) {
            this.compression = compression;
            return this;
        }

        /**
         * Record wrapping ({@code RECORD_IO} not in File mode).
         *
         * @default unset (none)
         */
        public Builder recordWrapper(ChannelRecordWrapper recordWrapper) {
            this.recordWrapper = recordWrapper;
            return this;
        }

        /**
         * The MIME type of the data, passed to the algorithm.
         *
         * @default unset
         */
        public Builder contentType(String contentType) {
            this.contentType = contentType;
            return this;
        }

        /**
         * The attributes of an augmented manifest to stream, in order (at most 16).
         *
         * @default none
         */
        public Builder attributeNames(List<String> attributeNames) {
            this.attributeNames.clear();
            this.attributeNames.addAll(attributeNames);
            return this;
        }

        /** @return the channel */
        public S3Channel build() {
            return new S3Channel(this);
        }
    }
}
