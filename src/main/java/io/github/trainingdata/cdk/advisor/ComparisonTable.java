package io.github.trainingdata.cdk.advisor;

import java.util.Locale;

/**
 * Renders a {@link Recommendation} for people: the profile in one line, one row per option (the
 * recommended one starred), the recommendation with its reasons, then each option's notes.
 */
final class ComparisonTable {

    private static final String ROW = "%-2s%-14s%-12s%10s%14s%18s%17s%15s%n";

    private ComparisonTable() {
    }

    static String render(DatasetProfile profile, Recommendation recommendation) {
        StringBuilder text = new StringBuilder();
        text.append("dataset: ").append(describe(profile)).append(System.lineSeparator()).append(System.lineSeparator());
        text.append(String.format(Locale.ROOT, ROW, "", "source", "input mode", "start-up", "throughput",
                "storage $/month", "start-up cost $", "S3 GETs $/job"));
        for (OptionEstimate estimate : recommendation.estimates()) {
            text.append(String.format(Locale.ROOT, ROW, estimate.option() == recommendation.option() ? "*" : "",
                    estimate.option().name(), estimate.option().inputMode(),
                    HumanReadable.duration(estimate.startupSeconds()), HumanReadable.rate(estimate.throughputMBps()),
                    HumanReadable.usd(estimate.monthlyStorageUsd()), HumanReadable.usd(estimate.startupCostUsd()),
                    HumanReadable.usd(estimate.s3RequestUsdPerJob())));
        }
        text.append(System.lineSeparator()).append("recommendation: ").append(recommendation.option().name())
                .append(" (input mode ").append(recommendation.inputMode()).append(')').append(System.lineSeparator());
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

    private static String describe(DatasetProfile profile) {
        return ByteSize.format(profile.totalBytes()) + " in " + HumanReadable.count(profile.fileCount()) + " files (average "
                + ByteSize.format(Math.round(profile.averageFileBytes())) + "), "
                + profile.accessPattern().name().toLowerCase(Locale.ROOT) + " reads, " + profile.epochs()
                + (profile.epochs() == 1 ? " epoch" : " epochs") + ", data on " + profile.dataLocation()
                + (profile.streamable() ? ", streamable format" : "") + "; " + profile.instanceCount() + " x "
                + profile.instanceType() + " at " + HumanReadable.price(profile.hourlyPriceUsd()) + "/h, "
                + HumanReadable.duration(profile.trainingTime()) + " of training";
    }
}
