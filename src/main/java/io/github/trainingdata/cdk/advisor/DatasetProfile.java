package io.github.trainingdata.cdk.advisor;

import io.github.trainingdata.cdk.performance.PublishedFigures;
import io.github.trainingdata.cdk.performance.InstanceFacts;
import io.github.trainingdata.cdk.performance.ByteSize;
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

    private final ProfileValues values;

    private DatasetProfile(ProfileValues values) {
        this.values = values;
    }

    /** The same dataset and job with the data packed into another number of files (samples and compute unchanged). */
    DatasetProfile withFileCount(long files) {
        return new DatasetProfile(values.withFileCount(files));
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
        return values.totalBytes();
    }

    /** @return the number of files (S3 objects), given or derived from the average file size; at least 1 */
    public long fileCount() {
        return values.fileCount();
    }

    /** @return the average file size in bytes, given or derived from the file count */
    public double averageFileBytes() {
        return values.averageFileBytes();
    }

    /** @return how the script reads its files */
    public AccessPattern accessPattern() {
        return values.accessPattern();
    }

    /** @return how many passes over the dataset one training job makes, at least 1 */
    public int epochs() {
        return values.epochs();
    }

    /** @return where the dataset lives before training */
    public DataLocation dataLocation() {
        return values.dataLocation();
    }

    /** @return whether the files are in a streamable record format (TFRecord, RecordIO, text) */
    public boolean streamable() {
        return values.streamable();
    }

    /** @return the SageMaker training instance type, e.g. {@code ml.p3.2xlarge} */
    public String instanceType() {
        return values.instanceType();
    }

    /** @return the number of training instances, at least 1 */
    public int instanceCount() {
        return values.instanceCount();
    }

    /**
     * The compute time of all epochs of one job if reading data took no time: given, or derived as
     * epochs × samples / samples per second.
     *
     * @return a positive duration
     */
    public Duration trainingTime() {
        return values.trainingTime();
    }

    /** @return {@link #trainingTime()} in seconds */
    public double computeSeconds() {
        return values.trainingTime().toNanos() / 1e9;
    }

    /** @return the samples one epoch trains on: given, else one per file */
    public long samples() {
        return values.samples();
    }

    /** @return the price of one instance-hour in USD: the override, else the published figure for the type */
    public double hourlyPriceUsd() {
        return values.instance().hourlyUsd();
    }

    /** @return the instance type's price, network bandwidth and storage, as the model uses them */
    public InstanceFacts instance() {
        return values.instance();
    }

    /** @return how many times the job runs with this data (consecutively), at least 1 */
    public int jobs() {
        return values.jobs();
    }

    /** @return how many spot interruptions one job is expected to suffer, at least 0 */
    public double spotInterruptions() {
        return values.spotInterruptions();
    }

    /** @return whether the account has a warm-pool quota for the instance type (the default quota is 0) */
    public boolean warmPoolQuota() {
        return values.warmPoolQuota();
    }

    /** @return how long a job is expected to wait for capacity in the cache's Availability Zone, or null when not given */
    public Duration capacityWait() {
        return values.capacityWait();
    }

    /** Builds a {@link DatasetProfile}; {@link #build()} validates every field and names the bad one. */
    public static final class Builder {

        private final ProfileDraft draft = new ProfileDraft();

        private Builder() {
        }

        /**
         * The dataset size. Required.
         *
         * @param totalBytes bytes, greater than 0 ({@link ByteSize#parse(String)} reads sizes like {@code 54GB})
         * @return this builder
         */
        public Builder totalBytes(long totalBytes) {
            draft.totalBytes = totalBytes;
            return this;
        }

        /**
         * The number of files (S3 objects). Give this or {@link #averageFileBytes(long)}, not both.
         *
         * @param fileCount at least 1
         * @return this builder
         */
        public Builder fileCount(long fileCount) {
            draft.fileCount = fileCount;
            return this;
        }

        /**
         * The average file size. Give this or {@link #fileCount(long)}, not both.
         *
         * @param averageFileBytes bytes, at least 1 and at most the total size
         * @return this builder
         */
        public Builder averageFileBytes(long averageFileBytes) {
            draft.averageFileBytes = averageFileBytes;
            return this;
        }

        /**
         * How the script reads its files.
         *
         * @param accessPattern the access pattern; @default {@link AccessPattern#SEQUENTIAL}
         * @return this builder
         */
        public Builder accessPattern(AccessPattern accessPattern) {
            draft.accessPattern = accessPattern;
            return this;
        }

        /**
         * Passes over the dataset per training job.
         *
         * @param epochs at least 1; @default 1
         * @return this builder
         */
        public Builder epochs(int epochs) {
            draft.epochs = epochs;
            return this;
        }

        /**
         * Where the dataset lives before training.
         *
         * @param dataLocation the location; @default {@link DataLocation#S3}
         * @return this builder
         */
        public Builder dataLocation(DataLocation dataLocation) {
            draft.dataLocation = dataLocation;
            return this;
        }

        /**
         * Whether the files are in a streamable record format (TFRecord, RecordIO, text), as Pipe mode needs.
         *
         * @param streamable the flag; @default false
         * @return this builder
         */
        public Builder streamable(boolean streamable) {
            draft.streamable = streamable;
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
            draft.instanceType = instanceType;
            return this;
        }

        /**
         * The number of training instances.
         *
         * @param instanceCount at least 1; @default 1
         * @return this builder
         */
        public Builder instanceCount(int instanceCount) {
            draft.instanceCount = instanceCount;
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
            draft.trainingTime = trainingTime;
            draft.trainingTimeGiven = true;
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
            draft.samplesPerSecond = samplesPerSecond;
            return this;
        }

        /**
         * The samples one epoch trains on, for {@link #samplesPerSecond(double)}.
         *
         * @param samples at least 1; @default one per file
         * @return this builder
         */
        public Builder samples(long samples) {
            draft.samples = samples;
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
            draft.jobs = jobs;
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
            draft.spotInterruptions = spotInterruptions;
            return this;
        }

        /**
         * Whether the account has a managed warm-pool quota for the instance type. The default quota is 0, and
         * without one "a warm pool is not retained" (SageMaker guide, "Managed warm pools"): the estimates count a
         * warm pool's saving only with a quota, and without one say what it would save once granted.
         *
         * @param warmPoolQuota true when Service Quotas grants warm pools for the instance type; @default false
         * @return this builder
         */
        public Builder warmPoolQuota(boolean warmPoolQuota) {
            draft.warmPoolQuota = warmPoolQuota;
            return this;
        }

        /**
         * How long a job is expected to wait for capacity of its instance type in the cache's Availability Zone (from
         * experience, or the capacity reservations you hold). The advisor compares it with what a capacity fallback to
         * S3 adds to the job ({@link Recommendation#s3Fallback()}) and says whether falling back or waiting finishes
         * sooner.
         *
         * @param capacityWait 0 or more; @default unset (the advisor reports the wait at which a fallback pays off)
         * @return this builder
         */
        public Builder capacityWait(Duration capacityWait) {
            draft.capacityWait = capacityWait;
            return this;
        }

        /**
         * The price of one instance-hour, overriding the published figure for the instance type.
         *
         * @param hourlyPriceUsd USD, greater than 0; @default the type's price in {@link PublishedFigures#INSTANCES}
         * @return this builder
         */
        public Builder hourlyPriceUsd(double hourlyPriceUsd) {
            draft.hourlyPriceUsd = hourlyPriceUsd;
            return this;
        }

        /**
         * Validates the fields and derives the file count or the average file size from the other.
         *
         * @return the profile
         * @throws IllegalArgumentException naming the field, the bad value and what is allowed
         */
        public DatasetProfile build() {
            return new DatasetProfile(draft.validate());
        }
    }
}
