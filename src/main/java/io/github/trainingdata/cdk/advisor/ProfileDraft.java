package io.github.trainingdata.cdk.advisor;

import io.github.trainingdata.cdk.performance.PublishedFigures;
import io.github.trainingdata.cdk.performance.InstanceFacts;
import java.time.Duration;

/**
 * What a {@link DatasetProfile.Builder} has been given so far, with the documented defaults, and the rules
 * that check it and derive the rest: the file count or the average file size from the other, the training
 * time from a sample rate, the instance's facts from its type or a price override.
 */
final class ProfileDraft {
    Long totalBytes;
    Long fileCount;
    Long averageFileBytes;
    AccessPattern accessPattern = AccessPattern.SEQUENTIAL;
    int epochs = 1;
    DataLocation dataLocation = DataLocation.S3;
    boolean streamable;
    String instanceType = PublishedFigures.DEFAULT_INSTANCE_TYPE;
    int instanceCount = 1;
    Duration trainingTime;
    boolean trainingTimeGiven;
    Double samplesPerSecond;
    Long samples;
    Double hourlyPriceUsd;
    int jobs = 1;
    double spotInterruptions;
    boolean warmPoolQuota;
    Duration capacityWait;

    /**
     * Checks every field and derives the rest.
     *
     * @return the profile's values
     * @throws IllegalArgumentException naming the field, the bad value and what is allowed
     */
    ProfileValues validate() {
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
        Duration compute = resolveTrainingTime(epochSamples);
        if (capacityWait != null && capacityWait.isNegative()) {
            throw new IllegalArgumentException("capacityWait must be a duration of 0 or more, was " + capacityWait);
        }
        return new ProfileValues(totalBytes, files, average, accessPattern, epochs, dataLocation, streamable,
                instanceType, instanceCount, compute, epochSamples, resolveInstance(), jobs, spotInterruptions,
                warmPoolQuota, capacityWait);
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
