package io.github.trainingdata.cdk.advisor;

/**
 * What one job costs when its Lustre channel falls back to the S3 location the cache mirrors (a capacity fallback: the
 * job runs in any AZ instead of waiting for capacity in the cache's), against the same job on the preloaded cache. The
 * fallback reads with the faster of FastFile and File for this dataset ({@link EstimateModel}); waiting bills nothing
 * (SageMaker bills a job from its start), so waiting is the cheaper choice whenever it is not too long: a fallback
 * finishes the job sooner only when the wait for capacity would exceed {@link #breakEvenWaitSeconds()}.
 *
 * @param option {@link DataSourceOption#S3_FAST_FILE} or {@link DataSourceOption#S3_FILE}, the input mode the fallback
 *     uses
 * @param startupSeconds the fallback's data start-up (listing or download), beside the container start-up
 * @param throughputMBps the rate one instance reads the dataset at on S3, MB/s
 * @param jobSeconds billable seconds of one job on S3
 * @param cacheJobSeconds billable seconds of the same job on the preloaded cache
 * @param jobUsd instance and request cost of one job on S3
 * @param cacheJobUsd instance and request cost of the same job on the cache (its storage bills whether or not it runs)
 * @param expectedWaitSeconds the wait for capacity in the cache's AZ the profile expects, or null when not given
 */
public record S3Fallback(DataSourceOption option, double startupSeconds, double throughputMBps, double jobSeconds,
        double cacheJobSeconds, double jobUsd, double cacheJobUsd, Double expectedWaitSeconds) {

    /**
     * Validates the figures.
     *
     * @throws IllegalArgumentException when the option is not an S3 mode a fallback uses, or a figure is negative
     */
    public S3Fallback {
        if (option != DataSourceOption.S3_FAST_FILE && option != DataSourceOption.S3_FILE) {
            throw new IllegalArgumentException("option must be S3_FAST_FILE or S3_FILE, was " + option);
        }
        for (double value : new double[] {startupSeconds, throughputMBps, jobSeconds, cacheJobSeconds, jobUsd,
                cacheJobUsd, expectedWaitSeconds == null ? 0 : expectedWaitSeconds}) {
            if (!(value >= 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException("figures must be finite numbers of at least 0, was " + value);
            }
        }
    }

    /** @return how much longer one job bills on S3 than on the cache, seconds (negative: S3 is faster) */
    public double extraSeconds() {
        return jobSeconds - cacheJobSeconds;
    }

    /** @return how much more one job costs on S3 than on the cache, USD (negative: S3 is cheaper) */
    public double extraUsd() {
        return jobUsd - cacheJobUsd;
    }

    /**
     * The wait for capacity beyond which falling back finishes the job sooner: the time the fallback adds to the job.
     *
     * @return seconds, 0 when the fallback is no slower
     */
    public double breakEvenWaitSeconds() {
        return Math.max(0, extraSeconds());
    }

    /**
     * Whether falling back finishes the job sooner than waiting the expected time for capacity.
     *
     * @return true or false, or null when the profile gives no expected wait
     */
    public Boolean fallBackSooner() {
        return expectedWaitSeconds == null ? null : expectedWaitSeconds > breakEvenWaitSeconds();
    }

    /** @return the comparison in a sentence, e.g. for the advisor's reasons */
    public String describe() {
        String mode = option.inputMode();
        String head = "capacity fallback to S3 " + mode + " (a Lustre channel replaced by the S3 location it mirrors, "
                + "any AZ): one job bills " + HumanReadable.duration(jobSeconds) + " and costs " + HumanReadable.usd(jobUsd)
                + " against " + HumanReadable.duration(cacheJobSeconds) + " and " + HumanReadable.usd(cacheJobUsd)
                + " on the cache (start-up " + HumanReadable.duration(startupSeconds) + ", reads at "
                + HumanReadable.rate(throughputMBps) + " per instance)";
        String when = extraSeconds() <= 0
                ? "; it is no slower, so fall back rather than wait"
                : "; it adds " + HumanReadable.duration(extraSeconds()) + " and " + HumanReadable.usd(Math.max(0, extraUsd()))
                        + ", so it finishes sooner only when capacity in the cache's AZ would take longer than "
                        + HumanReadable.duration(breakEvenWaitSeconds());
        if (expectedWaitSeconds == null) {
            return head + when;
        }
        return head + when + ": with the expected wait of " + HumanReadable.duration(expectedWaitSeconds) + ", "
                + (fallBackSooner() ? "fall back" : "wait");
    }
}
