package io.github.trainingdata.cdk.advisor;

import io.github.trainingdata.cdk.performance.ByteSize;
import java.util.Locale;

/**
 * Renders a {@link Recommendation} for people: the profile in one line, one row per option (the
 * recommended one starred, those that do not fit marked with a dash), the recommendation with its
 * reasons, then each option's notes.
 */
final class ComparisonTable {

    private static final String ROW = "%-2s%-22s%-10s%10s%12s%10s%12s%12s%14s%n";

    private ComparisonTable() {
    }

    static String render(DatasetProfile profile, Recommendation recommendation) {
        StringBuilder text = new StringBuilder();
        text.append("dataset: ").append(describe(profile)).append(System.lineSeparator()).append(System.lineSeparator());
        text.append(String.format(Locale.ROOT, ROW, "", "source", "mode", "start-up", "throughput", "billable",
                "cost $", "storage $", "storage $/mo"));
        for (OptionEstimate estimate : recommendation.estimates()) {
            text.append(String.format(Locale.ROOT, ROW, marker(recommendation, estimate),
                    estimate.option().name(), estimate.option().inputMode() == null ? "none" : estimate.option().inputMode(),
                    HumanReadable.duration(estimate.startupSeconds()), HumanReadable.rate(estimate.throughputMBps()),
                    HumanReadable.duration(estimate.billableSeconds()), HumanReadable.usd(estimate.costUsd()),
                    HumanReadable.usd(estimate.storageUsd()), HumanReadable.usd(estimate.monthlyStorageUsd())));
        }
        text.append("* recommended, - does not fit; billable time and cost cover ")
                .append(profile.jobs() == 1 ? "the job" : "all " + profile.jobs() + " jobs")
                .append(" (instances, storage while they run, S3 requests)").append(System.lineSeparator());
        text.append(System.lineSeparator()).append("recommendation: ").append(recommendation.option().name())
                .append(recommendation.inputMode() == null ? " (no channel: the training code reads the store)"
                        : " (input mode " + recommendation.inputMode() + ")").append(System.lineSeparator());
        for (String reason : recommendation.reasons()) {
            text.append("  - ").append(reason).append(System.lineSeparator());
        }
        text.append(System.lineSeparator()).append("notes:").append(System.lineSeparator());
        for (OptionEstimate estimate : recommendation.estimates()) {
            for (String note : estimate.notes()) {
                text.append("  ").append(estimate.option().name()).append(": ").append(note).append(System.lineSeparator());
            }
        }
        return text.toString();
    }

    private static String marker(Recommendation recommendation, OptionEstimate estimate) {
        return estimate.option() == recommendation.option() ? "*" : estimate.fits() ? "" : "-";
    }

    private static String describe(DatasetProfile profile) {
        return ByteSize.format(profile.totalBytes()) + " in " + HumanReadable.count(profile.fileCount()) + " files (average "
                + ByteSize.format(Math.round(profile.averageFileBytes())) + "), "
                + profile.accessPattern().name().toLowerCase(Locale.ROOT) + " reads, " + profile.epochs()
                + (profile.epochs() == 1 ? " epoch" : " epochs") + ", data on " + profile.dataLocation()
                + (profile.streamable() ? ", streamable format" : "") + "; " + profile.instanceCount() + " x "
                + profile.instanceType() + " at " + HumanReadable.price(profile.hourlyPriceUsd()) + "/h, "
                + HumanReadable.duration(profile.trainingTime()) + " of compute"
                + (profile.jobs() == 1 ? "" : ", " + profile.jobs() + " jobs")
                + (profile.spotInterruptions() == 0 ? ""
                        : ", " + HumanReadable.number(profile.spotInterruptions()) + " spot interruptions per job");
    }
}
