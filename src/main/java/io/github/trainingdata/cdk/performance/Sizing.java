package io.github.trainingdata.cdk.performance;

import static io.github.trainingdata.cdk.performance.PublishedFigures.EFS_MAX_PROVISIONED_MIBPS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.EFS_MIN_PROVISIONED_MIBPS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.LUSTRE_CAPACITY_HEADROOM;
import static io.github.trainingdata.cdk.performance.PublishedFigures.LUSTRE_USABLE_FRACTION;
import static io.github.trainingdata.cdk.limits.FsxLimits.SSD_CAPACITIES;
import static io.github.trainingdata.cdk.limits.FsxLimits.SSD_CAPACITY_STEP_GIB;
import static io.github.trainingdata.cdk.limits.FsxLimits.SSD_MIN_CAPACITY_GIB;

import io.github.trainingdata.cdk.limits.FsxLimits;

/**
 * Sizes FSx for Lustre SSD file systems (SCRATCH_2, PERSISTENT_2 at a throughput tier: {@link LustreTier}) and EFS
 * provisioned throughput from dataset facts, using the figures in {@link PublishedFigures}. Both Lustre deployment
 * types take the same capacities: 1200, 2400 or a multiple of 2400 GiB. Capacities are GiB, as the FSx API takes them;
 * throughput is MB/s (10^6 bytes per second) for Lustre and MiB/s for EFS, as each service quotes it.
 */
public final class Sizing {

    private static final double GIB_PER_TIB = 1024.0;

    private Sizing() {
    }

    /**
     * The smallest valid SSD capacity (SCRATCH_2 or PERSISTENT_2) that holds the dataset plus
     * {@link PublishedFigures#LUSTRE_CAPACITY_HEADROOM} headroom.
     *
     * @param datasetBytes the dataset size in bytes, at least 0
     * @return 1200, 2400 or a multiple of 2400 GiB
     * @throws IllegalArgumentException when datasetBytes is negative or needs more capacity than an int holds
     */
    public static int lustreCapacityGiB(long datasetBytes) {
        if (datasetBytes < 0) {
            throw new IllegalArgumentException("datasetBytes must be at least 0, was " + datasetBytes);
        }
        double neededGiB = (double) datasetBytes / ByteSize.GIB * (1 + LUSTRE_CAPACITY_HEADROOM);
        return smallestCapacityHolding(neededGiB, "datasetBytes", Long.toString(datasetBytes));
    }

    /**
     * The baseline throughput of a SCRATCH_2 file system: 200 MB/s per TiB.
     *
     * @param capacityGiB a valid SCRATCH_2 capacity
     * @return the baseline in MB/s
     * @throws IllegalArgumentException when the capacity is not a valid SCRATCH_2 capacity
     */
    public static double lustreBaselineMBps(int capacityGiB) {
        return lustreBaselineMBps(capacityGiB, LustreTier.scratch2());
    }

    /**
     * What reads of a Lustre file system sustain: its capacity times {@link LustreTier#baselineMBpsPerTib()}.
     *
     * @param capacityGiB a valid SSD capacity
     * @param tier SCRATCH_2 or a PERSISTENT_2 tier
     * @return MB/s
     * @throws IllegalArgumentException when the capacity is not a valid SSD capacity
     */
    public static double lustreBaselineMBps(int capacityGiB, LustreTier tier) {
        return tib(capacityGiB) * tier.baselineMBpsPerTib();
    }

    /**
     * The burst throughput of a SCRATCH_2 file system: 1300 MB/s per TiB.
     *
     * @param capacityGiB a valid SCRATCH_2 capacity
     * @return the burst rate in MB/s
     * @throws IllegalArgumentException when the capacity is not a valid SCRATCH_2 capacity
     */
    public static double lustreBurstMBps(int capacityGiB) {
        return lustrePeakMBps(capacityGiB, LustreTier.scratch2());
    }

    /**
     * What reads of a Lustre file system served from its file servers' memory reach: its capacity times
     * {@link LustreTier#peakMBpsPerTib()} (SCRATCH_2's burst, PERSISTENT_2's network throughput).
     *
     * @param capacityGiB a valid SSD capacity
     * @param tier SCRATCH_2 or a PERSISTENT_2 tier
     * @return MB/s
     * @throws IllegalArgumentException when the capacity is not a valid SSD capacity
     */
    public static double lustrePeakMBps(int capacityGiB, LustreTier tier) {
        return tib(capacityGiB) * tier.peakMBpsPerTib();
    }

    /**
     * The smallest valid SCRATCH_2 capacity whose baseline throughput reaches a target.
     *
     * @param targetMBps the sustained read rate wanted, in MB/s, greater than 0
     * @return 1200, 2400 or a multiple of 2400 GiB
     * @throws IllegalArgumentException when the target is not a positive finite number or needs too much capacity
     */
    public static int lustreCapacityForThroughputGiB(double targetMBps) {
        return lustreCapacityForThroughputGiB(targetMBps, LustreTier.scratch2());
    }

    /**
     * The smallest valid capacity of a tier whose baseline throughput reaches a target.
     *
     * @param targetMBps the sustained read rate wanted, in MB/s, greater than 0
     * @param tier SCRATCH_2 or a PERSISTENT_2 tier
     * @return 1200, 2400 or a multiple of 2400 GiB
     * @throws IllegalArgumentException when the target is not a positive finite number or needs too much capacity
     */
    public static int lustreCapacityForThroughputGiB(double targetMBps, LustreTier tier) {
        requirePositive(targetMBps);
        return smallestCapacityHolding(targetMBps / tier.baselineMBpsPerTib() * GIB_PER_TIB, "targetMBps",
                Double.toString(targetMBps));
    }

    /**
     * The smallest valid SCRATCH_2 capacity that loads data from S3 at a target rate
     * ({@link PublishedFigures#SCRATCH_2_LOAD_MBPS_PER_TIB}, its disk write throughput).
     *
     * @param targetMBps the load rate wanted, in MB/s, greater than 0
     * @return 1200, 2400 or a multiple of 2400 GiB
     * @throws IllegalArgumentException when the target is not a positive finite number or needs too much capacity
     */
    public static int lustreCapacityForLoadGiB(double targetMBps) {
        return lustreCapacityForLoadGiB(targetMBps, LustreTier.scratch2());
    }

    /**
     * The smallest valid capacity of a tier that loads data from S3 at a target rate ({@link LustreTier#loadMBpsPerTib()}).
     *
     * @param targetMBps the load rate wanted, in MB/s, greater than 0
     * @param tier SCRATCH_2 or a PERSISTENT_2 tier
     * @return 1200, 2400 or a multiple of 2400 GiB
     * @throws IllegalArgumentException when the target is not a positive finite number or needs too much capacity
     */
    public static int lustreCapacityForLoadGiB(double targetMBps, LustreTier tier) {
        requirePositive(targetMBps);
        return smallestCapacityHolding(targetMBps / tier.loadMBpsPerTib() * GIB_PER_TIB, "targetMBps",
                Double.toString(targetMBps));
    }

    private static void requirePositive(double targetMBps) {
        if (!(targetMBps > 0) || Double.isInfinite(targetMBps)) {
            throw new IllegalArgumentException(
                    "targetMBps must be a finite number greater than 0, was " + targetMBps);
        }
    }

    /**
     * The file data a Lustre file system holds: {@link PublishedFigures#LUSTRE_USABLE_FRACTION} of its storage
     * capacity, any deployment type.
     *
     * @param capacityGiB the storage capacity, at least 1
     * @return bytes
     * @throws IllegalArgumentException when the capacity is below 1
     */
    public static long lustreUsableBytes(int capacityGiB) {
        if (capacityGiB < 1) {
            throw new IllegalArgumentException("capacityGiB must be at least 1, was " + capacityGiB);
        }
        return (long) Math.floor((double) capacityGiB * ByteSize.GIB * LUSTRE_USABLE_FRACTION);
    }

    /**
     * The smallest valid SSD capacity whose usable space ({@link #lustreUsableBytes(int)}) holds the bytes,
     * without headroom: less cannot hold them at all.
     *
     * @param datasetBytes the bytes to hold, at least 0
     * @return 1200, 2400 or a multiple of 2400 GiB
     * @throws IllegalArgumentException when datasetBytes is negative or needs more capacity than an int holds
     */
    public static int lustreMinimumCapacityGiB(long datasetBytes) {
        if (datasetBytes < 0) {
            throw new IllegalArgumentException("datasetBytes must be at least 0, was " + datasetBytes);
        }
        return smallestCapacityHolding((double) datasetBytes / ByteSize.GIB / LUSTRE_USABLE_FRACTION, "datasetBytes",
                Long.toString(datasetBytes));
    }

    /**
     * Validates an EFS provisioned throughput against the range the EFS API accepts.
     *
     * @param targetMiBps the provisioned throughput wanted, in MiB/s
     * @return the same throughput, between 1 and 3414 MiB/s
     * @throws IllegalArgumentException when the target is outside 1..3414 MiB/s or not a number
     */
    public static double efsProvisionedMibps(double targetMiBps) {
        if (!(targetMiBps >= EFS_MIN_PROVISIONED_MIBPS && targetMiBps <= EFS_MAX_PROVISIONED_MIBPS)) {
            throw new IllegalArgumentException("targetMiBps must be between " + EFS_MIN_PROVISIONED_MIBPS + " and "
                    + EFS_MAX_PROVISIONED_MIBPS + " MiB/s (EFS provisioned throughput), was " + targetMiBps);
        }
        return targetMiBps;
    }

    private static double tib(int capacityGiB) {
        if (!FsxLimits.isValidSsdCapacityGiB(capacityGiB)) {
            throw new IllegalArgumentException(
                    "capacityGiB must be " + SSD_CAPACITIES + " (SCRATCH_2 and PERSISTENT_2), was " + capacityGiB);
        }
        return capacityGiB / GIB_PER_TIB;
    }

    private static int smallestCapacityHolding(double neededGiB, String field, String value) {
        if (neededGiB <= SSD_MIN_CAPACITY_GIB) {
            return SSD_MIN_CAPACITY_GIB;
        }
        double steps = Math.ceil(neededGiB / SSD_CAPACITY_STEP_GIB);
        if (steps > Integer.MAX_VALUE / SSD_CAPACITY_STEP_GIB) {
            throw new IllegalArgumentException(field + " " + value + " needs " + (long) Math.ceil(neededGiB)
                    + " GiB of Lustre capacity; at most " + (Integer.MAX_VALUE / SSD_CAPACITY_STEP_GIB
                    * SSD_CAPACITY_STEP_GIB) + " GiB (" + SSD_CAPACITIES + ") is supported");
        }
        return (int) steps * SSD_CAPACITY_STEP_GIB;
    }
}
