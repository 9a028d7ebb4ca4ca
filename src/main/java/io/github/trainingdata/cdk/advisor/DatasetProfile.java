package io.github.trainingdata.cdk.advisor;

import java.time.Duration;

/**
 * The facts about a training dataset and job that the {@link Advisor} needs: size, file count or
 * average file size, how the script reads, where the data lives and what the instances cost.
 * Immutable; build one with {@link #builder()}.
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
    private final double hourlyPriceUsd;

    private DatasetProfile(Builder builder, long fileCount, double averageFileBytes, double hourlyPriceUsd) {
        this.totalBytes = builder.totalBytes;
        this.fileCount = fileCount;
        this.averageFileBytes = averageFileBytes;
        this.accessPattern = builder.accessPattern;
        this.epochs = builder.epochs;
        this.dataLocation = builder.dataLocation;
        this.streamable = builder.streamable;
        this.instanceType = builder.instanceType;
        this.instanceCount = builder.instanceCount;
        this.trainingTime = builder.trainingTime;
        this.hourlyPriceUsd = hourlyPriceUsd;
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

    /** @return the expected training time of one job, positive */
    public Duration trainingTime() {
        return trainingTime;
    }

    /** @return the price of one instance-hour in USD: the override, else the published figure for the type */
    public double hourlyPriceUsd() {
        return hourlyPriceUsd;
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
        private Duration trainingTime = Duration.ofHours(1);
        private Double hourlyPriceUsd;

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
         * {@link PublishedFigures#INSTANCE_HOURLY_USD}.
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
         * The expected training time of one job, against which start-up overhead is weighed.
         *
         * @param trainingTime positive; @default 1 hour
         * @return this builder
         */
        public Builder trainingTime(Duration trainingTime) {
            this.trainingTime = trainingTime;
            return this;
        }

        /**
         * The price of one instance-hour, overriding the published figure for the instance type.
         *
         * @param hourlyPriceUsd USD, greater than 0; @default the type's price in {@link PublishedFigures#INSTANCE_HOURLY_USD}
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
            requireNonNull(trainingTime, "trainingTime", "a positive duration");
            requireAtLeastOne(epochs, "epochs");
            requireAtLeastOne(instanceCount, "instanceCount");
            if (trainingTime.isNegative() || trainingTime.isZero()) {
                throw new IllegalArgumentException("trainingTime must be a positive duration, was " + trainingTime);
            }
            if (instanceType == null || instanceType.isBlank()) {
                throw new IllegalArgumentException("instanceType must be a SageMaker instance type such as "
                        + PublishedFigures.DEFAULT_INSTANCE_TYPE + ", was '" + instanceType + "'");
            }
            long files = resolveFileCount();
            double average = averageFileBytes != null ? averageFileBytes : totalBytes / (double) files;
            return new DatasetProfile(this, files, average, resolveHourlyPrice());
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

        private double resolveHourlyPrice() {
            if (hourlyPriceUsd != null) {
                if (!(hourlyPriceUsd > 0) || hourlyPriceUsd.isInfinite()) {
                    throw new IllegalArgumentException(
                            "hourlyPriceUsd must be a finite number greater than 0, was " + hourlyPriceUsd);
                }
                return hourlyPriceUsd;
            }
            Double published = PublishedFigures.INSTANCE_HOURLY_USD.get(instanceType);
            if (published == null) {
                throw new IllegalArgumentException("instanceType '" + instanceType + "' has no published hourly price: "
                        + "set hourlyPriceUsd, or use one of " + String.join(", ",
                        PublishedFigures.INSTANCE_HOURLY_USD.keySet()));
            }
            return published;
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
