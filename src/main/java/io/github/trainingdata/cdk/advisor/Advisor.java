package io.github.trainingdata.cdk.advisor;

import static io.github.trainingdata.cdk.performance.PublishedFigures.CONTAINER_STARTUP_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.IDEAL_SHARD_BYTES;
import static io.github.trainingdata.cdk.performance.PublishedFigures.SMALL_DATASET_BYTES;
import static io.github.trainingdata.cdk.performance.PublishedFigures.SMALL_FILE_BYTES;
import static io.github.trainingdata.cdk.performance.PublishedFigures.TIE_MARGIN;
import static io.github.trainingdata.cdk.performance.PublishedFigures.WARM_POOL_CONTAINER_STARTUP_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.WARM_POOL_GAP_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.WARM_POOL_KEEP_ALIVE_SECONDS;

import io.github.trainingdata.cdk.performance.PublishedFigures;
import io.github.trainingdata.cdk.performance.ByteSize;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Recommends a SageMaker data source by its own estimates ({@link EstimateModel}): the option with the lowest
 * estimated cost of the profile's jobs wins.
 * <ol>
 *   <li>Data already on EFS stays on EFS (guide step 1): copying it elsewhere is work the estimates do not see.</li>
 *   <li>Otherwise, among the options that fit, those within {@link PublishedFigures#TIE_MARGIN} (5%) of the
 *   cheapest are ties. Set-up effort breaks them ({@link StorageService}, then a channel before training code that
 *   reads the store itself): the S3 modes need no VPC and nothing provisioned, so a tied S3 mode goes before a
 *   directory bucket, FSx for Lustre and EFS; among the tied options of least set-up the lowest estimate wins, and the
 *   guide's flowchart settles estimates that are equal.</li>
 * </ol>
 * The guide's flowchart (data on EFS → EFS; under 100 GB → File; streamable small files → Pipe; large files →
 * FastFile; else FSx for Lustre) explains the choice when it agrees and is named and overruled, with the
 * numbers, when it does not. Every reason quotes the estimate or the published figure it rests on.
 */
public final class Advisor {

    /** Estimates closer than half a tenth of a cent are equal: the JSON's precision. */
    private static final double EQUAL_USD = 0.0005;

    private Advisor() {
    }

    /**
     * Chooses a data source for the profile and estimates every option.
     *
     * @param profile the dataset and job
     * @return the chosen option, the reasons and the estimates for every option
     */
    public static Recommendation recommend(DatasetProfile profile) {
        return recommend(profile, EnumSet.allOf(DataSourceOption.class));
    }

    /**
     * Chooses a data source for the profile among the given options (those a caller can build), and estimates every
     * option; the reasons name a cheaper option that was not among them.
     *
     * @param profile the dataset and job
     * @param candidates the options to choose from; one that fits at least (EFS for data on EFS)
     * @return the chosen option, the reasons and the estimates for every option
     * @throws IllegalArgumentException when no candidate fits the profile
     */
    public static Recommendation recommend(DatasetProfile profile, Set<DataSourceOption> candidates) {
        List<OptionEstimate> estimates = EstimateModel.estimateAll(profile);
        LustreChoice lustre = EstimateModel.lustreChoice(profile);
        S3Fallback fallback = EstimateModel.s3Fallback(profile, estimates);
        GuideStep guide = guideStep(profile);
        List<String> reasons = new ArrayList<>();
        OptionEstimate chosen;
        if (profile.dataLocation() == DataLocation.EFS) {
            chosen = estimates.get(DataSourceOption.EFS.ordinal());
            reasons.add("the data already lives on EFS: mount it where it is instead of copying it to S3 (guide step 1)");
            reasons.add(breakdown(chosen, profile));
        } else {
            chosen = choose(estimates, candidates, guide, profile, reasons);
        }
        addDetails(profile, chosen, estimates, lustre, reasons);
        if (chosen.option() == DataSourceOption.FSX_LUSTRE && fallback != null) {
            reasons.add(fallback.describe());
        }
        return new Recommendation(chosen.option(), reasons, estimates, lustre, fallback);
    }

    private static OptionEstimate choose(List<OptionEstimate> estimates, Set<DataSourceOption> candidates,
            GuideStep guide, DatasetProfile profile, List<String> reasons) {
        List<OptionEstimate> fitting = estimates.stream().filter(e -> e.fits() && candidates.contains(e.option()))
                .sorted(Comparator.comparingDouble(OptionEstimate::costUsd)).toList();
        if (fitting.isEmpty()) {
            throw new IllegalArgumentException("candidates must include an option that fits the profile, was "
                    + candidates);
        }
        OptionEstimate cheapest = fitting.get(0);
        double tieLimit = cheapest.costUsd() * (1 + TIE_MARGIN);
        List<OptionEstimate> tied = fitting.stream().filter(e -> e.costUsd() <= tieLimit).toList();
        int leastSetUp = tied.stream().mapToInt(e -> e.option().setUpRank()).min().orElseThrow();
        List<OptionEstimate> easiest = tied.stream().filter(e -> e.option().setUpRank() == leastSetUp).toList();
        OptionEstimate chosen = easiest.get(0);
        for (OptionEstimate other : easiest) {
            if (other.option() == guide.option() && other.costUsd() - chosen.costUsd() < EQUAL_USD) {
                chosen = other;
            }
        }

        reasons.add("estimated for " + jobs(profile) + ": " + fitting.stream()
                .map(e -> e.option() + " " + HumanReadable.usd(e.costUsd()) + " (" + HumanReadable.duration(e.billableSeconds())
                        + " billable)").collect(Collectors.joining(", "))
                + unfit(estimates));
        reasons.add(decision(chosen, cheapest, tied, easiest, fitting, guide));
        reasons.add(breakdown(chosen, profile));
        for (OptionEstimate other : fitting) {
            if (other != chosen) {
                reasons.add(breakdown(other, profile));
            }
        }
        double chosenUsd = chosen.costUsd();
        estimates.stream().filter(e -> e.fits() && !candidates.contains(e.option()) && e.costUsd() < chosenUsd)
                .forEach(e -> reasons.add(e.option() + " would cost " + HumanReadable.usd(e.costUsd()) + " (" + HumanReadable
                        .duration(e.billableSeconds()) + " billable), but it is not among the options chosen from here"));
        reasons.add(guide.option() == chosen.option()
                ? "the guide's flowchart agrees: " + guide.text()
                : "the guide's flowchart suggests " + guide.option() + " (" + guide.text() + "), but the estimates decide: "
                        + guide.option() + " costs " + HumanReadable.usd(estimates.get(guide.option().ordinal()).costUsd())
                        + " against " + HumanReadable.usd(chosen.costUsd()));
        return chosen;
    }

    private static String decision(OptionEstimate chosen, OptionEstimate cheapest, List<OptionEstimate> tied,
            List<OptionEstimate> easiest, List<OptionEstimate> fitting, GuideStep guide) {
        String margin = HumanReadable.percent(TIE_MARGIN) + " (the model's accuracy on the published runs)";
        if (tied.size() == 1) {
            return fitting.size() == 1 ? chosen.option() + " is the only option that fits"
                    : chosen.option() + " is the cheapest by more than " + margin + ": "
                            + HumanReadable.usd(chosen.costUsd()) + " against " + HumanReadable.usd(fitting.get(1).costUsd())
                            + " for " + fitting.get(1).option();
        }
        String others = tied.stream().filter(e -> e != chosen)
                .map(e -> e.option() + " (" + HumanReadable.usd(e.costUsd()) + ")").collect(Collectors.joining(", "));
        if (chosen != cheapest) {
            return chosen.option() + " (" + HumanReadable.usd(chosen.costUsd()) + ") is within " + margin + " of the "
                    + "cheapest, " + cheapest.option() + " (" + HumanReadable.usd(cheapest.costUsd()) + "): "
                    + (chosen.option().storage() == cheapest.option().storage() ? "a channel needs no change to the "
                            + "training code" : chosen.option().storage().setUp()) + ", so set-up effort breaks the tie";
        }
        OptionEstimate twin = easiest.stream().filter(e -> e != chosen
                && Math.abs(e.costUsd() - chosen.costUsd()) < EQUAL_USD).findFirst().orElse(null);
        return twin != null
                ? chosen.option() + " and " + twin.option() + " estimate the same, "
                        + HumanReadable.usd(chosen.costUsd()) + ": the guide's flowchart breaks the tie (" + guide.text() + ")"
                : chosen.option() + " has the lowest estimate, " + HumanReadable.usd(chosen.costUsd()) + "; " + others
                        + " within " + margin
                        + (chosen.option().setUpRank() == 0 ? ", and it needs no VPC or provisioned storage" : "");
    }

    private static String unfit(List<OptionEstimate> estimates) {
        List<String> names = estimates.stream().filter(e -> !e.fits()).map(e -> e.option().name()).toList();
        return names.isEmpty() ? "" : "; " + String.join(" and ", names) + (names.size() == 1 ? " does" : " do")
                + " not fit (see notes)";
    }

    /** One option's estimate in a sentence: billable time, cost, start-up and what bounds the epochs. */
    static String breakdown(OptionEstimate e, DatasetProfile profile) {
        double compute = EstimateModel.computePerEpoch(profile);
        String startup = HumanReadable.duration(e.startupSeconds()) + " (" + e.option().startupWhat(profile) + ")"
                + (e.startupSeconds() < CONTAINER_STARTUP_SECONDS
                        ? " within the " + HumanReadable.duration(CONTAINER_STARTUP_SECONDS) + " container start-up" : "");
        String epochs = profile.epochs() == 1 ? "1 epoch" : profile.epochs() + " epochs";
        String reading = "reading " + (profile.epochs() == 1 ? "it" : "one") + " takes "
                + HumanReadable.duration(e.epochReadSeconds()) + " at " + HumanReadable.rate(e.throughputMBps())
                + (profile.instanceCount() > 1 ? " per instance" : "");
        String bound = e.epochSeconds() > compute * 1.0005
                ? epochs + ", read-bound: " + HumanReadable.duration(e.epochSeconds())
                        + (profile.epochs() == 1 ? "" : " each") + ", " + HumanReadable.percent(e.epochSeconds() / compute - 1)
                        + " longer than the " + HumanReadable.duration(compute) + " of compute (" + reading
                        + e.option().readWhy(profile) + ")"
                : epochs + " of " + HumanReadable.duration(compute) + ", compute-bound (" + reading + ")";
        return e.option() + ": " + HumanReadable.duration(e.billableSeconds()) + " billable, "
                + HumanReadable.usd(e.costUsd()) + " on " + profile.instanceCount() + " x " + profile.instanceType()
                + " at " + HumanReadable.price(profile.hourlyPriceUsd()) + "/h; start-up " + startup + "; " + bound;
    }

    private static void addDetails(DatasetProfile profile, OptionEstimate chosen, List<OptionEstimate> estimates,
            LustreChoice lustre, List<String> reasons) {
        if (chosen.option() == DataSourceOption.FSX_LUSTRE) {
            reasons.add(lustre.reason(profile.totalBytes()));
            reasons.add("preloading " + HumanReadable.count(profile.fileCount()) + " files takes about "
                    + Preloads.of(profile, lustre.chosen().loadThroughput()).describe() + ", at deploy time, billed to "
                    + "no job; without it the first epoch reads each file cold from S3");
        }
        if (profile.averageFileBytes() < SMALL_FILE_BYTES && profile.dataLocation() == DataLocation.S3) {
            long shards = Math.max(1, (long) Math.ceil(profile.totalBytes() / (double) IDEAL_SHARD_BYTES));
            DatasetProfile packed = profile.withFileCount(shards);
            reasons.add("files average " + ByteSize.format(Math.round(profile.averageFileBytes())) + ", under the "
                    + ByteSize.format(SMALL_FILE_BYTES) + " small-file threshold (guide): packing the "
                    + HumanReadable.count(profile.fileCount()) + " files into ~" + ByteSize.format(IDEAL_SHARD_BYTES)
                    + " shards (TFRecord, WebDataset, RecordIO) makes about " + HumanReadable.count(shards)
                    + " files and would cut File mode's start-up from "
                    + HumanReadable.duration(EstimateModel.fileModeStartupSeconds(profile)) + " to "
                    + HumanReadable.duration(EstimateModel.fileModeStartupSeconds(packed)) + " and FastFile's cost from "
                    + HumanReadable.usd(estimates.get(DataSourceOption.S3_FAST_FILE.ordinal()).costUsd()) + " to "
                    + HumanReadable.usd(EstimateModel.estimate(packed, DataSourceOption.S3_FAST_FILE).costUsd()));
        }
        if (profile.epochs() > 1) {
            reasons.add(chosen.option().epochs(profile, chosen));
        }
        if (profile.jobs() > 1) {
            reasons.add(warmPoolReason(profile, chosen));
        }
        if (profile.spotInterruptions() > 0) {
            OptionEstimate file = estimates.get(DataSourceOption.S3_FILE.ordinal());
            reasons.add("each of the " + HumanReadable.number(profile.spotInterruptions()) + " expected spot interruptions "
                    + "per job repeats the start-up: " + HumanReadable.duration(Math.max(CONTAINER_STARTUP_SECONDS,
                            chosen.startupSeconds())) + " for " + chosen.option() + ", "
                    + HumanReadable.duration(Math.max(CONTAINER_STARTUP_SECONDS, file.startupSeconds()))
                    + " for S3_FILE, which downloads the dataset again");
        }
    }

    private static String warmPoolReason(DatasetProfile profile, OptionEstimate chosen) {
        if (profile.spotInterruptions() > 0) {
            return profile.jobs() + " jobs on spot capacity: managed warm pools cannot be used with spot instances "
                    + "(SageMaker guide), so every job starts new instances";
        }
        double saved = Math.max(CONTAINER_STARTUP_SECONDS, chosen.startupSeconds())
                - Math.max(WARM_POOL_CONTAINER_STARTUP_SECONDS, chosen.startupSeconds());
        double retained = (profile.jobs() - 1) * WARM_POOL_GAP_SECONDS + WARM_POOL_KEEP_ALIVE_SECONDS;
        String figures = "each later job starts " + HumanReadable.duration(saved) + " sooner, the pool bills "
                + HumanReadable.duration(retained) + " of retained instances (" + HumanReadable.duration(WARM_POOL_GAP_SECONDS)
                + " between jobs, " + HumanReadable.duration(WARM_POOL_KEEP_ALIVE_SECONDS) + " after the last)";
        boolean pays = (profile.jobs() - 1) * saved > retained;
        if (!profile.warmPoolQuota()) {
            return profile.jobs() + " jobs: no warm pool counted, since the account's warm-pool quota is 0 by default and "
                    + "SageMaker then retains no pool" + (pays ? "; with a quota for " + profile.instanceType()
                    + " (Service Quotas, then warmPoolQuota) one would pay: " : "; one would not pay anyway: ") + figures;
        }
        return chosen.warmPool()
                ? profile.jobs() + " jobs: a managed warm pool (keepAlivePeriod "
                        + HumanReadable.duration(WARM_POOL_KEEP_ALIVE_SECONDS) + ", at most 1 h) is included: " + figures
                : profile.jobs() + " jobs: a managed warm pool would not pay: " + figures;
    }

    private static String jobs(DatasetProfile profile) {
        return profile.jobs() == 1 ? "1 job" : profile.jobs() + " jobs";
    }

    /** The guide's flowchart step for a profile: which option it names and why, in words. */
    private record GuideStep(DataSourceOption option, String text) {
    }

    private static GuideStep guideStep(DatasetProfile profile) {
        String size = ByteSize.format(profile.totalBytes());
        boolean smallFiles = profile.averageFileBytes() < SMALL_FILE_BYTES;
        boolean sequential = profile.accessPattern() == AccessPattern.SEQUENTIAL;
        if (profile.dataLocation() == DataLocation.EFS) {
            return new GuideStep(DataSourceOption.EFS, "step 1: data already on EFS → EFS");
        }
        if (profile.totalBytes() < SMALL_DATASET_BYTES) {
            return new GuideStep(DataSourceOption.S3_FILE, "step 2: " + size + " is under "
                    + ByteSize.format(SMALL_DATASET_BYTES) + " → File mode");
        }
        if (profile.streamable() && sequential && smallFiles) {
            return new GuideStep(DataSourceOption.S3_PIPE, "step 5: a streamable format of small files read "
                    + "sequentially → Pipe");
        }
        if (sequential && !smallFiles) {
            return new GuideStep(DataSourceOption.S3_FAST_FILE, "step 3: " + size + " of files over "
                    + ByteSize.format(SMALL_FILE_BYTES) + " → FastFile");
        }
        return new GuideStep(DataSourceOption.FSX_LUSTRE, "step 4: " + size + (sequential ? " of small files" : " read at random")
                + " → FSx for Lustre, preloaded");
    }
}
