package io.github.trainingdata.cdk.advisor;

import static io.github.trainingdata.cdk.performance.PublishedFigures.TIE_MARGIN;

import io.github.trainingdata.cdk.performance.PublishedFigures;
import io.github.trainingdata.cdk.performance.ByteSize;
import io.github.trainingdata.cdk.performance.LustreTier;
import io.github.trainingdata.cdk.performance.Sizing;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The Lustre cache the advisor sizes for a profile. Every tier ({@link LustreTier#all()}) gets the smallest capacity
 * that holds the data with headroom, whose baseline feeds what the instances read, and that loads the data within a
 * deploy's wait ({@link EstimateModel#lustreChoice(DatasetProfile)}); the cheapest per month is chosen. SCRATCH_2 keeps
 * a tie: a PERSISTENT_2 tier must cost more than {@link PublishedFigures#TIE_MARGIN} less, since the estimates are no
 * more accurate than that and SCRATCH_2 is the simpler cache (no key at rest that is fixed at creation, the cheapest per
 * TB when it need not grow). When the capacity that holds the data feeds the instances, SCRATCH_2 always wins: every
 * PERSISTENT_2 tier costs more per TB.
 *
 * @param chosen the cache to build
 * @param candidates every tier sized for the profile, in {@link LustreTier#all()} order (SCRATCH_2 first)
 * @param holdingGiB the capacity that holds the data with headroom ({@link Sizing#lustreCapacityGiB(long)})
 * @param readMBps what the instances read from the cache, MB/s: the dataset once per epoch of compute, at most what
 *     their network takes in
 * @param loadMBps what the cache must load from S3 to finish within a deploy's wait, MB/s; 0 when no capacity can
 */
public record LustreChoice(LustreSizing chosen, List<LustreSizing> candidates, int holdingGiB, double readMBps,
        double loadMBps) {

    /**
     * Validates the choice and copies the candidates.
     *
     * @throws IllegalArgumentException when a sizing is missing or the chosen one is not a candidate
     */
    public LustreChoice {
        if (candidates == null || candidates.isEmpty() || !candidates.get(0).tier().equals(LustreTier.scratch2())) {
            throw new IllegalArgumentException("candidates must start with the SCRATCH_2 sizing, was " + candidates);
        }
        if (chosen == null || !candidates.contains(chosen)) {
            throw new IllegalArgumentException("chosen must be one of the candidates, was " + chosen);
        }
        candidates = List.copyOf(candidates);
    }

    /**
     * Chooses among the sizings: the cheapest PERSISTENT_2 when it costs more than {@link PublishedFigures#TIE_MARGIN}
     * less per month than SCRATCH_2, else SCRATCH_2.
     *
     * @param candidates every tier sized for the profile, SCRATCH_2 first
     * @param holdingGiB the capacity that holds the data with headroom
     * @param readMBps what the instances read, MB/s
     * @param loadMBps what the preload must load, MB/s, or 0
     * @return the choice
     */
    static LustreChoice choose(List<LustreSizing> candidates, int holdingGiB, double readMBps, double loadMBps) {
        LustreSizing scratch = candidates.get(0);
        LustreSizing persistent = candidates.stream().filter(s -> s.tier().persistent())
                .min(Comparator.comparingDouble(LustreSizing::monthlyUsd)).orElse(scratch);
        LustreSizing chosen = persistent.monthlyUsd() * (1 + TIE_MARGIN) < scratch.monthlyUsd() ? persistent : scratch;
        return new LustreChoice(chosen, candidates, holdingGiB, readMBps, loadMBps);
    }

    /** @return the SCRATCH_2 sizing */
    public LustreSizing scratch() {
        return candidates.get(0);
    }

    /**
     * Whether SCRATCH_2 must be larger than the capacity that holds the data, to feed the instances or to load within a
     * deploy's wait: then PERSISTENT_2 may be cheaper, and the reason compares them.
     *
     * @return true when the SCRATCH_2 sizing exceeds {@link #holdingGiB()}
     */
    public boolean throughputBound() {
        return scratch().capacityGiB() > holdingGiB;
    }

    /**
     * The choice in a sentence, with the figures it rests on.
     *
     * @param totalBytes the dataset's size, for the sentence
     * @return the reason
     */
    public String reason(long totalBytes) {
        String holds = holdingGiB + " GiB that holds " + ByteSize.format(totalBytes) + " with 20% headroom";
        String load = loadMBps > 0 ? HumanReadable.rate(loadMBps) + " the preload must load to finish within a deploy's "
                + "wait" : "";
        if (!throughputBound()) {
            return chosen + ": the " + holds + " also feeds the " + HumanReadable.rate(readMBps) + " the instances read"
                    + (load.isEmpty() ? "" : " and the " + load) + " (every PERSISTENT_2 tier costs more per TB: "
                    + persistentPrices() + ")";
        }
        LustreSizing scratch = scratch();
        String compared = candidates.stream().filter(s -> s.tier().persistent()).map(LustreChoice::shortText)
                .collect(Collectors.joining(", "));
        String verdict;
        if (chosen.tier().persistent()) {
            verdict = chosen.tier() + " is the cheapest, " + HumanReadable.percent(1 - chosen.monthlyUsd()
                    / scratch.monthlyUsd()) + " below the larger SCRATCH_2";
        } else {
            LustreSizing best = candidates.stream().filter(s -> s.tier().persistent())
                    .min(Comparator.comparingDouble(LustreSizing::monthlyUsd)).orElseThrow();
            verdict = best.monthlyUsd() < scratch.monthlyUsd()
                    ? "SCRATCH_2 stays: the cheapest PERSISTENT_2, " + best.tier() + ", is within "
                            + HumanReadable.percent(TIE_MARGIN) + " of it (the model's accuracy; SCRATCH_2 is the simpler cache)"
                    : "SCRATCH_2 stays the cheapest";
        }
        return "the instances read " + HumanReadable.rate(readMBps) + (load.isEmpty() ? "" : " and the " + load)
                + ", more than the "
                + HumanReadable.rate(Sizing.lustreBaselineMBps(holdingGiB)) + " baseline of the SCRATCH_2 " + holds
                + " gives: a larger SCRATCH_2 (" + scratch.capacityGiB() + " GiB, " + HumanReadable.usd(scratch.monthlyUsd())
                + "/month) against PERSISTENT_2 " + compared + ": " + verdict + " (us-east-1 prices per month"
                + (candidates.stream().anyMatch(s -> s.tier().estimatedPrice()) ? "; marked ones are estimates" : "")
                + ")";
    }

    private static String shortText(LustreSizing sizing) {
        return sizing.tier().perUnitStorageThroughput() + " MB/s per TiB " + sizing.capacityGiB() + " GiB "
                + HumanReadable.usd(sizing.monthlyUsd()) + (sizing.tier().estimatedPrice() ? " (estimate)" : "");
    }

    private String persistentPrices() {
        return candidates.stream().filter(s -> s.tier().persistent())
                .map(s -> s.tier().perUnitStorageThroughput() + ": " + HumanReadable.usd(s.tier().usdPerTbMonth())
                        + (s.tier().estimatedPrice() ? " (estimate)" : ""))
                .collect(Collectors.joining(", ")) + " per TB-month against SCRATCH_2's "
                + HumanReadable.usd(LustreTier.scratch2().usdPerTbMonth());
    }
}
