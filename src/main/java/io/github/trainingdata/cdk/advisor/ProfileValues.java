package io.github.trainingdata.cdk.advisor;

import io.github.trainingdata.cdk.performance.InstanceFacts;
import java.time.Duration;

/**
 * The validated values a {@link DatasetProfile} holds, with the file count, average file size, training
 * time, samples and instance facts already derived ({@link ProfileDraft#validate()}).
 */
record ProfileValues(long totalBytes, long fileCount, double averageFileBytes, AccessPattern accessPattern,
        int epochs, DataLocation dataLocation, boolean streamable, String instanceType, int instanceCount,
        Duration trainingTime, long samples, InstanceFacts instance, int jobs, double spotInterruptions,
        boolean warmPoolQuota, Duration capacityWait) {

    /** The same values with the data packed into another number of files (samples and compute unchanged). */
    ProfileValues withFileCount(long files) {
        if (files < 1) {
            throw new IllegalArgumentException("fileCount must be at least 1, was " + files);
        }
        return new ProfileValues(totalBytes, files, totalBytes / (double) files, accessPattern, epochs, dataLocation,
                streamable, instanceType, instanceCount, trainingTime, samples, instance, jobs, spotInterruptions,
                warmPoolQuota, capacityWait);
    }
}
