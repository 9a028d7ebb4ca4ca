package io.github.trainingdata.cdk.performance;

import io.github.trainingdata.cdk.limits.FsxLimits;
import java.util.ArrayList;
import java.util.List;

/**
 * One FSx for Lustre SSD configuration as the estimates see it, per TiB of storage capacity: SCRATCH_2, or
 * PERSISTENT_2 at one of its throughput tiers. What reads sustain (the baseline), what reads served from the file
 * servers' memory reach (the peak), how fast it loads data from S3, and what it costs ({@link PublishedFigures}).
 *
 * @param deploymentType {@value #SCRATCH_2} or {@value #PERSISTENT_2}, the FSx API's {@code DeploymentType}
 * @param perUnitStorageThroughput PERSISTENT_2's {@code PerUnitStorageThroughput} (125, 250, 500 or 1000 MB/s per
 *     TiB); null for SCRATCH_2
 */
public record LustreTier(String deploymentType, Integer perUnitStorageThroughput) {
    /** The scratch deployment type. */
    public static final String SCRATCH_2 = "SCRATCH_2";
    /** The persistent deployment type with throughput tiers. */
    public static final String PERSISTENT_2 = "PERSISTENT_2";

    /**
     * Validates the pair.
     *
     * @throws IllegalArgumentException for another deployment type, a tier with SCRATCH_2, or a PERSISTENT_2 tier FSx
     *     does not offer
     */
    public LustreTier {
        if (SCRATCH_2.equals(deploymentType)) {
            if (perUnitStorageThroughput != null) {
                throw new IllegalArgumentException("perUnitStorageThroughput must be null for SCRATCH_2, was "
                        + perUnitStorageThroughput);
            }
        } else if (PERSISTENT_2.equals(deploymentType)) {
            if (perUnitStorageThroughput == null
                    || !FsxLimits.PERSISTENT_2_THROUGHPUTS.contains(perUnitStorageThroughput)) {
                throw new IllegalArgumentException("perUnitStorageThroughput must be one of "
                        + FsxLimits.PERSISTENT_2_THROUGHPUTS + " MB/s per TiB for PERSISTENT_2, was "
                        + perUnitStorageThroughput);
            }
        } else {
            throw new IllegalArgumentException("deploymentType must be " + SCRATCH_2 + " or " + PERSISTENT_2 + ", was "
                    + deploymentType);
        }
    }

    /** @return SCRATCH_2 */
    public static LustreTier scratch2() {
        return new LustreTier(SCRATCH_2, null);
    }

    /**
     * PERSISTENT_2 at a throughput tier.
     *
     * @param perUnitStorageThroughput 125, 250, 500 or 1000 MB/s per TiB
     * @return the tier
     */
    public static LustreTier persistent2(int perUnitStorageThroughput) {
        return new LustreTier(PERSISTENT_2, perUnitStorageThroughput);
    }

    /** @return SCRATCH_2, then PERSISTENT_2 at each tier from the lowest */
    public static List<LustreTier> all() {
        List<LustreTier> tiers = new ArrayList<>(List.of(scratch2()));
        FsxLimits.PERSISTENT_2_THROUGHPUTS.forEach(t -> tiers.add(persistent2(t)));
        return List.copyOf(tiers);
    }

    /** @return whether this is PERSISTENT_2 */
    public boolean persistent() {
        return perUnitStorageThroughput != null;
    }

    /**
     * What reads sustain per TiB: SCRATCH_2's 200 MB/s baseline, or PERSISTENT_2's tier (its disk throughput, below
     * its network throughput).
     *
     * @return MB/s per TiB
     */
    public double baselineMBpsPerTib() {
        return persistent() ? perUnitStorageThroughput : PublishedFigures.LUSTRE_BASELINE_MBPS_PER_TIB;
    }

    /**
     * What reads served from the file servers' memory reach per TiB: SCRATCH_2's 1300 MB/s burst, or PERSISTENT_2's
     * network throughput ({@link PublishedFigures#PERSISTENT_2_PEAK_MBPS_PER_TIB}).
     *
     * @return MB/s per TiB
     */
    public double peakMBpsPerTib() {
        return persistent() ? PublishedFigures.PERSISTENT_2_PEAK_MBPS_PER_TIB.get(perUnitStorageThroughput)
                : PublishedFigures.LUSTRE_BURST_MBPS_PER_TIB;
    }

    /**
     * How fast the file system writes what it loads from S3, per TiB: SCRATCH_2's disk write throughput
     * ({@link PublishedFigures#SCRATCH_2_LOAD_MBPS_PER_TIB}), or the PERSISTENT_2 tier.
     *
     * @return MB/s per TiB
     */
    public double loadMBpsPerTib() {
        return persistent() ? perUnitStorageThroughput : PublishedFigures.SCRATCH_2_LOAD_MBPS_PER_TIB;
    }

    /** @return USD per TB-month of capacity (us-east-1; see {@link PublishedFigures}) */
    public double usdPerTbMonth() {
        return persistent() ? PublishedFigures.PERSISTENT_2_USD_PER_TB_MONTH.get(perUnitStorageThroughput)
                : PublishedFigures.LUSTRE_USD_PER_TB_MONTH;
    }

    /** @return whether {@link #usdPerTbMonth()} is an estimate rather than a published or corroborated price */
    public boolean estimatedPrice() {
        return persistent() && PublishedFigures.PERSISTENT_2_ESTIMATED_PRICES.contains(perUnitStorageThroughput);
    }

    /** @return e.g. {@code SCRATCH_2} or {@code PERSISTENT_2 at 250 MB/s per TiB} */
    @Override
    public String toString() {
        return persistent() ? PERSISTENT_2 + " at " + perUnitStorageThroughput + " MB/s per TiB" : SCRATCH_2;
    }
}
