package io.github.trainingdata.cdk.advisor;

import io.github.trainingdata.cdk.performance.PublishedFigures;
import io.github.trainingdata.cdk.performance.CacheThroughput;
import io.github.trainingdata.cdk.performance.PreloadModel;
import io.github.trainingdata.cdk.performance.PreloadWorker;
import java.util.List;

/**
 * What one {@link DataSourceOption} would cost and take for a {@link DatasetProfile}, from the whole-job
 * model in {@link EstimateModel}: the billable time and cost of all the profile's jobs, and the parts they
 * are made of.
 *
 * @param option the data source and input mode estimated
 * @param fits whether the option can serve this dataset as profiled (Pipe needs a streamable format read
 *     sequentially; EFS needs the data on EFS; the S3 options and FSx need it in S3); the notes say why not
 * @param startupSeconds data start-up of one job: File-mode download, FastFile listing, Pipe start or mount;
 *     it runs alongside {@link PublishedFigures#CONTAINER_STARTUP_SECONDS} of container start-up
 * @param throughputMBps the rate at which one instance reads this dataset from the option, in MB/s: its bytes
 *     per epoch over {@code epochReadSeconds}, so per-file costs for small files and random reads count
 * @param epochReadSeconds seconds one instance needs to read its share of an epoch once the data is in place
 *     (for FSx: from the warm cache)
 * @param firstEpochSeconds wall time of a job's first epoch: the longer of its compute and its reads (for FSx
 *     without preload: cold reads, each file loaded from S3 on first use)
 * @param epochSeconds wall time of each later epoch: the longer of compute and {@code epochReadSeconds}
 * @param jobSeconds billable seconds of one job started on new instances, without spot interruptions
 * @param billableSeconds billable wall-clock seconds of all the profile's jobs: each job's start-up (the
 *     longer of data and container start-up), epochs and {@link PublishedFigures#JOB_TAIL_SECONDS}, plus
 *     spot interruptions, less what a warm pool saves, plus the time the warm pool is retained
 * @param warmPool whether the estimate reuses the instances through a managed warm pool (only when it
 *     lowers the cost of several on-demand jobs)
 * @param preloadSeconds FSx: seconds to preload the cache at deploy time (reported, not billed to any job:
 *     {@link PreloadModel#preloadSeconds(long, long, CacheThroughput, PreloadWorker)}, the default worker on its
 *     read path); 0 for the other options
 * @param monthlyStorageUsd USD per month for the storage this option reads from (for FSx, its provisioned
 *     capacity plus the durable S3 copy it is linked to)
 * @param startupCostUsd instance cost of one job's data start-up: seconds × hourly price × instance count / 3600
 * @param instanceUsd instance cost of all jobs: instance count × hourly price × billable seconds / 3600
 * @param storageUsd storage billed while the jobs (and, for FSx, the preload) run: the monthly storage
 *     prorated over {@link PublishedFigures#HOURS_PER_MONTH}
 * @param requestUsd S3 GET requests of all jobs (File mode per instance and job, FastFile and Pipe per
 *     epoch, FSx once per cache)
 * @param notes caveats: what the option needs or why it does not fit this dataset; empty when none
 */
public record OptionEstimate(
        DataSourceOption option,
        boolean fits,
        double startupSeconds,
        double throughputMBps,
        double epochReadSeconds,
        double firstEpochSeconds,
        double epochSeconds,
        double jobSeconds,
        double billableSeconds,
        boolean warmPool,
        double preloadSeconds,
        double monthlyStorageUsd,
        double startupCostUsd,
        double instanceUsd,
        double storageUsd,
        double requestUsd,
        List<String> notes) {

    /**
     * Validates the estimate and copies the notes.
     *
     * @throws IllegalArgumentException when the option or notes are missing or a number is negative or not finite
     */
    public OptionEstimate {
        if (option == null) {
            throw new IllegalArgumentException("option must be one of " + List.of(DataSourceOption.values()) + ", was null");
        }
        requireNonNegative("startupSeconds", startupSeconds);
        requireNonNegative("throughputMBps", throughputMBps);
        requireNonNegative("epochReadSeconds", epochReadSeconds);
        requireNonNegative("firstEpochSeconds", firstEpochSeconds);
        requireNonNegative("epochSeconds", epochSeconds);
        requireNonNegative("jobSeconds", jobSeconds);
        requireNonNegative("billableSeconds", billableSeconds);
        requireNonNegative("preloadSeconds", preloadSeconds);
        requireNonNegative("monthlyStorageUsd", monthlyStorageUsd);
        requireNonNegative("startupCostUsd", startupCostUsd);
        requireNonNegative("instanceUsd", instanceUsd);
        requireNonNegative("storageUsd", storageUsd);
        requireNonNegative("requestUsd", requestUsd);
        if (notes == null) {
            throw new IllegalArgumentException("notes must be a list (empty when there is nothing to say), was null");
        }
        notes = List.copyOf(notes);
    }

    /**
     * The cost of all the profile's jobs with this option: instances, storage for the period and requests.
     *
     * @return {@code instanceUsd + storageUsd + requestUsd}
     */
    public double costUsd() {
        return instanceUsd + storageUsd + requestUsd;
    }

    private static void requireNonNegative(String field, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(field + " must be a finite number of at least 0, was " + value);
        }
    }
}
