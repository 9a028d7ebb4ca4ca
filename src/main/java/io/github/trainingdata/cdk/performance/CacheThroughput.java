package io.github.trainingdata.cdk.performance;

import io.github.trainingdata.cdk.limits.FsxLimits;

/**
 * How fast a Lustre file system takes in data from its S3 data repository: its storage capacity times the
 * throughput per TiB at which its file servers write. FSx: "When you write data to your file system ... file system
 * performance is determined by the lower of the network throughput and disk throughput" (FSx for Lustre guide,
 * "How FSx for Lustre file systems work"); its performance tables give SCRATCH_2 a disk throughput of 200 MB/s per
 * TiB for reads and 100 for writes (network 200), and persistent SSD file systems a baseline disk throughput equal
 * to their {@code PerUnitStorageThroughput} (50, 100, 200; 125, 250, 500, 1000), below their network throughput.
 * Baselines, not bursts: a deploy that waits must not time out on burst credits that have run out.
 *
 * @param capacityGiB the storage capacity, greater than 0
 * @param mbpsPerTib MB/s per TiB at which the file system loads data, greater than 0
 */
public record CacheThroughput(int capacityGiB, double mbpsPerTib) {
    private static final double GIB_PER_TIB = 1024.0;

    /**
     * Validates the figures.
     *
     * @throws IllegalArgumentException when the capacity or the rate is not greater than 0
     */
    public CacheThroughput {
        if (capacityGiB < 1) {
            throw new IllegalArgumentException("capacityGiB must be at least 1, was " + capacityGiB);
        }
        if (!(mbpsPerTib > 0) || Double.isInfinite(mbpsPerTib)) {
            throw new IllegalArgumentException("mbpsPerTib must be a finite number greater than 0, was " + mbpsPerTib);
        }
    }

    /**
     * A SCRATCH_2 file system, which loads at its disk write throughput,
     * {@link PublishedFigures#SCRATCH_2_LOAD_MBPS_PER_TIB}.
     *
     * @param capacityGiB 1200, 2400 or a multiple of 2400
     * @return its load throughput
     * @throws IllegalArgumentException when the capacity is not a valid SCRATCH_2 capacity
     */
    public static CacheThroughput scratch2(int capacityGiB) {
        if (!FsxLimits.isValidSsdCapacityGiB(capacityGiB)) {
            throw new IllegalArgumentException("capacityGiB must be " + FsxLimits.SSD_CAPACITIES
                    + " (SCRATCH_2), was " + capacityGiB);
        }
        return new CacheThroughput(capacityGiB, PublishedFigures.SCRATCH_2_LOAD_MBPS_PER_TIB);
    }

    /**
     * A persistent file system (PERSISTENT_1 or PERSISTENT_2), which loads at its provisioned throughput per TiB.
     *
     * @param capacityGiB its storage capacity
     * @param perUnitStorageThroughput its {@code PerUnitStorageThroughput}, MB/s per TiB
     * @return its load throughput
     */
    public static CacheThroughput persistent(int capacityGiB, int perUnitStorageThroughput) {
        return new CacheThroughput(capacityGiB, perUnitStorageThroughput);
    }

    /** @return the whole file system's load throughput in MB/s */
    public double mbps() {
        return capacityGiB / GIB_PER_TIB * mbpsPerTib;
    }
}
