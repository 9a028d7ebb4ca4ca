package io.github.trainingdata.cdk.advisor;

import java.time.Duration;

/**
 * The facts about a training dataset and job that the {@link Advisor} needs: size, file count or
 * average file size, how the script reads, where the data lives, how fast the instances compute when data
 * is free, what they cost and how often the job runs. Immutable; build one with {@link #builder()}.
 *
 * <p>Compute speed comes from the user, as either the training time (the compute time of all epochs if
 * reading data took no time: measure it on a warm, local copy, or take it from a run whose GPUs were
 * busy) or a rate in samples per second with the samples per epoch. The model then adds what each data
 * source costs on top: start-up, and epochs that reading makes longer than the compute.
 */
public final class DatasetProfile {

    private final long totalBytes;
    private final long fileCount;
    private final double averageFileBytes;
    private final AccessPattern accessPattern;
    private final int epochs;
    private final DataLocation dataLocation;
    private final boolean streamable;
    private final String instanceType;
    private final int instanceCount;
    private final Duration trainingTime;
    private final long samples;
    private final InstanceFacts instance;
    private final int jobs;
    private final double spotInterruptions;

    private DatasetProfile(Builder builder, long fileCount, double averageFileBytes, Duration trainingTime,
            long samples, InstanceFacts instance) {
        this.totalBytes = builder.totalBytes;
        this.fileCount = fileCount;
        this.averageFileBytes = averageFileBytes;
        this.accessPattern = builder.accessPattern;
        this.epochs = builder.epochs;
        this.dataLocation = builder.dataLocation;
        this.streamable = builder.streamable;
        this.instanceType = builder.instanceType;
        this.instanceCount = builder.instanceCount;
        this.trainingTime = trainingTime;
        this.samples = samples;
        this.instance = instance;
        this.jobs = builder.jobs;
        this.spotInterruptions = builder.spotInterruptions;
    }

    private DatasetProfile(DatasetProfile other, long fileCount) {
        this.totalBytes = other.totalBytes;
        this.fileCount = fileCount;
        this.averageFileBytes = other.totalBytes / (double) fileCount;
        this.accessPattern = other.accessPattern;
        this.epochs = other.epochs;
        this.dataLocation = other.dataLocation;
        this.streamable = other.streamable;
        this.instanceType = other.instanceType;
        this.instanceCount = other.instanceCount;
        this.trainingTime = other.trainingTime;
        this.samples = other.samples;
        this.instance = other.instance;
        this.jobs = other.jobs;
        this.spotInterruptions = other.spotInterruptions;
    }

    /** The same dataset and job with the data packed into another number of files (samples and compute unchanged). */
    DatasetProfile withFileCount(long files) {
        if (files < 1) {
            throw new IllegalArgumentException("fileCount must be at least 1, was " + files);
        }
        return new DatasetProfile(this, files);
    }

    /**
     * Starts a profile; only the total size and one of file count or average file size are required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the dataset size in bytes, greater than 0 */
    public long totalBytes() {
        return totalBytes;
    }

    /** @return the number of files (S3 objects), given or derived from the average file size; at least 1 */
    public long fileCount() {
        return fileCount;
    }

    /** @return the average file size in bytes, given or derived from the file count */
    public double averageFileBytes() {
        return averageFileBytes;
    }

    /** @return how the script reads its files */
    public AccessPattern accessPattern() {
        return accessPattern;
    }

    /** @return how many passes over the dataset one training job makes, at least 1 */
    public int epochs() {
        return epochs;
    }

    /** @return where the dataset lives before training */
    public DataLocation dataLocation() {
        return dataLocation;
    }

    /** @return whether the files are in a streamable record format (TFRecord, RecordIO, text) */
    public boolean streamable() {
        return streamable;
    }

    /** @return the SageMaker training instance type, e.g. {@code ml.p3.2xlarge} */
    public String instanceType() {
        return instanceType;
    }

    /** @return the number of training instances, at least 1 */
    public int instanceCount() {
        return instanceCount;
    }

    /**
     * The compute time of all epochs of one job if reading data took no time: given, or derived as
     * epochs × samples / samples per second.
     *
     * @return a positive duration
     */
    public Duration trainingTime() {
        return trainingTime;
    }

    /** @return {@link #trainingTime()} in seconds */
    public double computeSeconds() {
        return trainingTime.toNanos() / 1e9;
    }

    /** @return the samples one epoch trains on: given, else one per file */
    public long samples() {
        return samples;
    }

    /** @return the price of one instance-hour in USD: the override, else the published figure for the type */
    public double hourlyPriceUsd() {
        return instance.hourlyUsd();
    }

    /** @return the instance type's price, network bandwidth and storage, as the model uses them */
    public InstanceFacts instance() {
        return instance;
    }

    /** @return how many times the job runs with this data (consecutively), at least 1 */
    public int jobs() {
        return jobs;
    }

    /** @return how many spot interruptions one job is expected to suffer, at least 0 */
    public double spotInterruptions() {
        return spotInterruptions;
    }

    /** Builds a {@link DatasetProfile}; {@link #build()} validates every field and names the bad one. */
    public static final class Builder {

        private Long totalBytes;
        private Long fileCount;
        private Long averageFileBytes;
        private AccessPattern accessPattern = AccessPattern.SEQUENTIAL;
        private int epochs = 1;
        private DataLocation dataLocation = DataLocation.S3;
        private boolean streamable;
        private String instanceType = PublishedFigures.DEFAULT_INSTANCE_TYPE;
        private int instanceCount = 1;
        private Duration trainingTime;
        private boolean trainingTimeGiven;
        private Double samplesPerSecond;
        private Long samples;
        private Double hourlyPriceUsd;
        private int jobs = 1;
        private double spotInterruptions;

        private Builder() {
        }

        /**
         * The dataset size. Required.
         *
         * @param totalBytes bytes, greater than 0 ({@link ByteSize#parse(String)} reads sizes like {@code 54GB})
         * @return this builder
         */
        public Builder totalBytes(long totalBytes) {
            this.totalBytes = totalBytes;
            return this;
        }

        /**
         * The number of files (S3 objects). Give this or {@link #averageFileBytes(long)}, not both.
         *
         * @param fileCount at least 1
         * @return this builder
         */
        public Builder fileCount(long fileCount) {
            this.fileCount = fileCount;
            return this;
        }

        /**
         * The average file size. Give this or {@link #fileCount(long)}, not both.
         *
         * @param averageFileBytes bytes, at least 1 and at most the total size
         * @return this builder
         */
        public Builder averageFileBytes(long averageFileBytes) {
            this.averageFileBytes = averageFileBytes;
            return this;
        }

        /**
         * How the script reads its files.
         *
         * @param accessPattern the access pattern; @default {@link AccessPattern#SEQUENTIAL}
         * @return this builder
         */
        public Builder accessPattern(AccessPattern accessPattern) {
            this.accessPattern = accessPattern;
            return this;
        }

        /**
         * Passes over the dataset per training job.
         *
         * @param epochs at least 1; @default 1
         * @return this builder
         */
        public Builder epochs(int epochs) {
            this.epochs = epochs;
            return this;
        }

        /**
         * Where the dataset lives before training.
         *
         * @param dataLocation the location; @default {@link DataLocation#S3}
         * @return this builder
         */
        public Builder dataLocation(DataLocation dataLocation) {
            this.dataLocation = dataLocation;
            return this;
        }

        /**
         * Whether the files are in a streamable record format (TFRecord, RecordIO, text), as Pipe mode needs.
         *
         * @param streamable the flag; @default false
         * @return this builder
         */
        public Builder streamable(boolean streamable) {
            this.streamable = streamable;
            return this;
        }

        /**
         * The training instance type; without {@link #hourlyPriceUsd(double)} it must be one of
         * {@link PublishedFigures#INSTANCES}; an unknown type is assumed to have an EBS volume and 10 Gbit/s.
         *
         * @param instanceType e.g. {@code ml.g5.xlarge}; @default {@code ml.p3.2xlarge}
         * @return this builder
         */
        public Builder instanceType(String instanceType) {
            this.instanceType = instanceType;
            return this;
        }

        /**
         * The number of training instances.
         *
         * @param instanceCount at least 1; @default 1
         * @return this builder
         */
        public Builder instanceCount(int instanceCount) {
            this.instanceCount = instanceCount;
            return this;
        }

        /**
         * The compute time of all epochs of one job if reading data took no time (the GPUs never wait). Give
         * this or {@link #samplesPerSecond(double)}, not both.
         *
         * @param trainingTime positive; @default 1 hour
         * @return this builder
         */
        public Builder trainingTime(Duration trainingTime) {
            this.trainingTime = trainingTime;
            this.trainingTimeGiven = true;
            return this;
        }

        /**
         * How many samples per second all instances of the job train on when data is free (e.g. images/s
         * with a warm local copy). With {@link #samples(long)} it gives the compute time: epochs × samples /
         * samplesPerSecond. Give this or {@link #trainingTime(Duration)}, not both.
         *
         * @param samplesPerSecond greater than 0; @default unset (the training time decides)
         * @return this builder
         */
        public Builder samplesPerSecond(double samplesPerSecond) {
            this.samplesPerSecond = samplesPerSecond;
            return this;
        }

        /**
         * The samples one epoch trains on, for {@link #samplesPerSecond(double)}.
         *
         * @param samples at least 1; @default one per file
         * @return this builder
         */
        public Builder samples(long samples) {
            this.samples = samples;
            return this;
        }

        /**
         * How many times the job runs on this data, one after the other (experiments, retraining); more
         * jobs spread a cache's preload and storage, and may pay for a managed warm pool.
         *
         * @param jobs at least 1; @default 1
         * @return this builder
         */
        public Builder jobs(int jobs) {
            this.jobs = jobs;
            return this;
        }

        /**
         * How many managed-spot interruptions one job is expected to suffer; each one repeats the start-up
         * (File mode downloads the dataset again). Warm pools cannot be used with spot instances.
         *
         * @param spotInterruptions at least 0; @default 0 (on-demand)
         * @return this builder
         */
        public Builder spotInterruptions(double spotInterruptions) {
            this.spotInterruptions = spotInterruptions;
            return this;
        }

        /**
         * The price of one instance-hour, overriding the published figure for the instance type.
         *
         * @param hourlyPriceUsd USD, greater than 0; @default the type's price in {@link PublishedFigures#INSTANCES}
         * @return this builder
         */
        public Builder hourlyPriceUsd(double hourlyPriceUsd) {
            this.hourlyPriceUsd = hourlyPriceUsd;
            return this;
        }

        /**
         * Validates the fields and derives the file count or the average file size from the other.
         *
         * @return the profile
         * @throws IllegalArgumentException naming the field, the bad value and what is allowed
         */
        public DatasetProfile build() {
            if (totalBytes == null) {
                throw new IllegalArgumentException("totalBytes is required: the dataset size in bytes, greater than 0");
            }
            if (totalBytes <= 0) {
                throw new IllegalArgumentException("totalBytes must be greater than 0, was " + totalBytes);
            }
            requireNonNull(accessPattern, "accessPattern", "SEQUENTIAL or RANDOM");
            requireNonNull(dataLocation, "dataLocation", "S3 or EFS");
            requireAtLeastOne(epochs, "epochs");
            requireAtLeastOne(instanceCount, "instanceCount");
            requireAtLeastOne(jobs, "jobs");
            if (!(spotInterruptions >= 0) || Double.isInfinite(spotInterruptions)) {
                throw new IllegalArgumentException(
                        "spotInterruptions must be a finite number of at least 0, was " + spotInterruptions);
            }
            if (instanceType == null || instanceType.isBlank()) {
                throw new IllegalArgumentException("instanceType must be a SageMaker instance type such as "
                        + PublishedFigures.DEFAULT_INSTANCE_TYPE + ", was '" + instanceType + "'");
            }
            long files = resolveFileCount();
            double average = averageFileBytes != null ? averageFileBytes : totalBytes / (double) files;
            long epochSamples = samples != null ? samples : files;
            requireAtLeastOne(epochSamples, "samples");
            return new DatasetProfile(this, files, average, resolveTrainingTime(epochSamples), epochSamples,
                    resolveInstance());
        }

        private Duration resolveTrainingTime(long epochSamples) {
            if (samplesPerSecond == null) {
                if (!trainingTimeGiven) {
                    return Duration.ofHours(1);
                }
                if (trainingTime == null || trainingTime.isNegative() || trainingTime.isZero()) {
                    throw new IllegalArgumentException("trainingTime must be a positive duration, was " + trainingTime);
                }
                return trainingTime;
            }
            if (trainingTimeGiven) {
                throw new IllegalArgumentException("give trainingTime or samplesPerSecond, not both: trainingTime was "
                        + trainingTime + ", samplesPerSecond was " + samplesPerSecond);
            }
            if (!(samplesPerSecond > 0) || samplesPerSecond.isInfinite()) {
                throw new IllegalArgumentException(
                        "samplesPerSecond must be a finite number greater than 0, was " + samplesPerSecond);
            }
            double seconds = (double) epochs * epochSamples / samplesPerSecond;
            return Duration.ofNanos(Math.max(1, Math.round(Math.min(seconds, Long.MAX_VALUE / 1e9) * 1e9)));
        }

        private long resolveFileCount() {
            if (fileCount == null && averageFileBytes == null) {
                throw new IllegalArgumentException("one of fileCount or averageFileBytes is required");
            }
            if (fileCount != null && averageFileBytes != null) {
                throw new IllegalArgumentException("give fileCount or averageFileBytes, not both: fileCount was "
                        + fileCount + ", averageFileBytes was " + averageFileBytes);
            }
            if (fileCount != null) {
                requireAtLeastOne(fileCount, "fileCount");
                return fileCount;
            }
            if (averageFileBytes < 1 || averageFileBytes > totalBytes) {
                throw new IllegalArgumentException("averageFileBytes must be between 1 and totalBytes (" + totalBytes
                        + "), was " + averageFileBytes);
            }
            return Math.max(1, Math.round(totalBytes / (double) averageFileBytes));
        }

        private InstanceFacts resolveInstance() {
            InstanceFacts known = PublishedFigures.INSTANCES.get(instanceType);
            if (hourlyPriceUsd != null) {
                if (!(hourlyPriceUsd > 0) || hourlyPriceUsd.isInfinite()) {
                    throw new IllegalArgumentException(
                            "hourlyPriceUsd must be a finite number greater than 0, was " + hourlyPriceUsd);
                }
                return known != null ? new InstanceFacts(hourlyPriceUsd, known.networkGbps(), known.localNvme())
                        : new InstanceFacts(hourlyPriceUsd, PublishedFigures.UNKNOWN_INSTANCE_NETWORK_GBPS, false);
            }
            if (known == null) {
                throw new IllegalArgumentException("instanceType '" + instanceType + "' has no published hourly price: "
                        + "set hourlyPriceUsd, or use one of " + String.join(", ", PublishedFigures.INSTANCES.keySet()));
            }
            return known;
        }

        private static void requireNonNull(Object value, String field, String allowed) {
            if (value == null) {
                throw new IllegalArgumentException(field + " must be " + allowed + ", was null");
            }
        }

        private static void requireAtLeastOne(long value, String field) {
            if (value < 1) {
                throw new IllegalArgumentException(field + " must be at least 1, was " + value);
            }
        }
    }
}
