package io.github.trainingdata.cdk.advisor;

import io.github.trainingdata.cdk.performance.CacheThroughput;
import io.github.trainingdata.cdk.performance.LustreTier;
import io.github.trainingdata.cdk.performance.Sizing;
import io.github.trainingdata.cdk.limits.FsxLimits;

/**
 * A Lustre cache of one {@link LustreTier} and capacity, with what it reads, loads and costs.
 *
 * @param tier SCRATCH_2 or a PERSISTENT_2 throughput tier
 * @param capacityGiB 1200, 2400 or a multiple of 2400 GiB
 */
public record LustreSizing(LustreTier tier, int capacityGiB) {
    private static final double GB_PER_TB = 1000.0;

    /**
     * Validates the sizing.
     *
     * @throws IllegalArgumentException when the tier is missing or the capacity is not a valid SSD capacity
     */
    public LustreSizing {
        if (tier == null) {
            throw new IllegalArgumentException("tier must be SCRATCH_2 or a PERSISTENT_2 tier, was null");
        }
        if (!FsxLimits.isValidSsdCapacityGiB(capacityGiB)) {
            throw new IllegalArgumentException("capacityGiB must be " + FsxLimits.SSD_CAPACITIES + ", was " + capacityGiB);
        }
    }

    /** @return what reads sustain, MB/s ({@link Sizing#lustreBaselineMBps(int, LustreTier)}) */
    public double baselineMBps() {
        return Sizing.lustreBaselineMBps(capacityGiB, tier);
    }

    /** @return what reads served from the file servers' memory reach, MB/s ({@link Sizing#lustrePeakMBps}) */
    public double peakMBps() {
        return Sizing.lustrePeakMBps(capacityGiB, tier);
    }

    /** @return how fast it loads data from S3, for the preload's estimate */
    public CacheThroughput loadThroughput() {
        return new CacheThroughput(capacityGiB, tier.loadMBpsPerTib());
    }

    /** @return USD per month: the capacity (GiB billed as GB, as AWS bills 1200 GiB as 1.2 TB) at the tier's price */
    public double monthlyUsd() {
        return capacityGiB / GB_PER_TB * tier.usdPerTbMonth();
    }

    /** @return e.g. {@code PERSISTENT_2 at 500 MB/s per TiB, 7200 GiB: 3516 MB/s, $2,448.00/month} */
    @Override
    public String toString() {
        return tier + ", " + capacityGiB + " GiB: " + HumanReadable.rate(baselineMBps()) + ", "
                + HumanReadable.usd(monthlyUsd()) + "/month" + (tier.estimatedPrice() ? " (estimated price)" : "");
    }
}
