package io.github.trainingdata.cdk.advisor;

import java.util.List;

/**
 * What one {@link DataSourceOption} would cost and deliver for a {@link DatasetProfile}, from the
 * model in {@link EstimateModel}.
 *
 * @param option the data source and input mode estimated
 * @param startupSeconds seconds from job start until the script can read (copy, listing or mount);
 *     deploy-time work such as creating or preloading a Lustre file system is not included
 * @param throughputMBps the sustained read ceiling the option offers the job, in MB/s
 * @param monthlyStorageUsd USD per month for the storage this option reads from (for FSx, its
 *     provisioned capacity plus the durable S3 copy it is linked to)
 * @param startupCostUsd instance cost of the start-up: seconds × hourly price × instance count / 3600
 * @param s3RequestUsdPerJob USD of S3 GET requests one training job makes (all epochs)
 * @param notes caveats: what the option needs or why it does not fit this dataset; empty when none
 */
public record OptionEstimate(
        DataSourceOption option,
        double startupSeconds,
        double throughputMBps,
        double monthlyStorageUsd,
        double startupCostUsd,
        double s3RequestUsdPerJob,
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
        requireNonNegative("monthlyStorageUsd", monthlyStorageUsd);
        requireNonNegative("startupCostUsd", startupCostUsd);
        requireNonNegative("s3RequestUsdPerJob", s3RequestUsdPerJob);
        if (notes == null) {
            throw new IllegalArgumentException("notes must be a list (empty when there is nothing to say), was null");
        }
        notes = List.copyOf(notes);
    }

    private static void requireNonNegative(String field, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(field + " must be a finite number of at least 0, was " + value);
        }
    }
}
