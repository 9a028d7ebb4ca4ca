package io.github.trainingdata.cdk.advisor;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Renders a {@link Recommendation} as one line of JSON in a fixed shape and order:
 * {@code {"recommendation": {"source", "inputMode", "reasons"}, "options": [{"source",
 * "startupSeconds", "throughputMBps", "monthlyStorageUsd", "startupCostUsd", "billableSeconds", "costUsd"}],
 * "lustre": {"deploymentType", "perUnitStorageThroughput", "capacityGiB", "baselineMBps", "monthlyUsd",
 * "readMBps", "candidates": [{"deploymentType", "perUnitStorageThroughput", "capacityGiB", "baselineMBps",
 * "monthlyUsd", "estimatedPrice"}]}, "s3Fallback": {"inputMode", "startupSeconds", "throughputMBps", "jobSeconds",
 * "cacheJobSeconds", "jobUsd", "cacheJobUsd", "breakEvenWaitSeconds", "expectedWaitSeconds", "fallBackSooner"}}};
 * numbers are rounded to three decimals; {@code inputMode} is null when the training code reads the store itself
 * (no channel); {@code perUnitStorageThroughput} is null for SCRATCH_2, {@code s3Fallback}
 * null when the data is not in S3, and its expected wait and verdict null when the profile gives no wait.
 * {@code billableSeconds} and {@code costUsd} cover all the profile's jobs (one by default); the fallback's figures are
 * for one job.
 */
final class RecommendationJson {

    private RecommendationJson() {
    }

    static String render(Recommendation recommendation) {
        String reasons = recommendation.reasons().stream().map(RecommendationJson::string)
                .collect(Collectors.joining(", ", "[", "]"));
        return "{\"recommendation\": {\"source\": " + string(recommendation.option().name())
                + ", \"inputMode\": " + (recommendation.inputMode() == null ? "null" : string(recommendation.inputMode()))
                + ", \"reasons\": " + reasons + "}, \"options\": " + options(recommendation.estimates())
                + ", \"lustre\": " + lustre(recommendation.lustre())
                + ", \"s3Fallback\": " + fallback(recommendation.s3Fallback()) + "}";
    }

    private static String lustre(LustreChoice choice) {
        LustreSizing chosen = choice.chosen();
        String candidates = choice.candidates().stream().map(s -> "{" + tier(s)
                        + ", \"estimatedPrice\": " + s.tier().estimatedPrice() + "}")
                .collect(Collectors.joining(", ", "[", "]"));
        return "{" + tier(chosen) + ", \"readMBps\": " + number(choice.readMBps()) + ", \"candidates\": " + candidates
                + "}";
    }

    private static String tier(LustreSizing sizing) {
        Integer perUnit = sizing.tier().perUnitStorageThroughput();
        return "\"deploymentType\": " + string(sizing.tier().deploymentType())
                + ", \"perUnitStorageThroughput\": " + (perUnit == null ? "null" : perUnit.toString())
                + ", \"capacityGiB\": " + sizing.capacityGiB()
                + ", \"baselineMBps\": " + number(sizing.baselineMBps())
                + ", \"monthlyUsd\": " + number(sizing.monthlyUsd());
    }

    private static String fallback(S3Fallback fallback) {
        if (fallback == null) {
            return "null";
        }
        return "{\"inputMode\": " + string(fallback.option().inputMode())
                + ", \"startupSeconds\": " + number(fallback.startupSeconds())
                + ", \"throughputMBps\": " + number(fallback.throughputMBps())
                + ", \"jobSeconds\": " + number(fallback.jobSeconds())
                + ", \"cacheJobSeconds\": " + number(fallback.cacheJobSeconds())
                + ", \"jobUsd\": " + number(fallback.jobUsd())
                + ", \"cacheJobUsd\": " + number(fallback.cacheJobUsd())
                + ", \"breakEvenWaitSeconds\": " + number(fallback.breakEvenWaitSeconds())
                + ", \"expectedWaitSeconds\": " + (fallback.expectedWaitSeconds() == null ? "null"
                        : number(fallback.expectedWaitSeconds()))
                + ", \"fallBackSooner\": " + fallback.fallBackSooner() + "}";
    }

    private static String options(List<OptionEstimate> estimates) {
        return estimates.stream().map(estimate -> "{\"source\": " + string(estimate.option().name())
                        + ", \"startupSeconds\": " + number(estimate.startupSeconds())
                        + ", \"throughputMBps\": " + number(estimate.throughputMBps())
                        + ", \"monthlyStorageUsd\": " + number(estimate.monthlyStorageUsd())
                        + ", \"startupCostUsd\": " + number(estimate.startupCostUsd())
                        + ", \"billableSeconds\": " + number(estimate.billableSeconds())
                        + ", \"costUsd\": " + number(estimate.costUsd()) + "}")
                .collect(Collectors.joining(", ", "[", "]"));
    }

    /** A finite number with at most three decimals and at least one, e.g. {@code 200.0}, {@code 1.24}. */
    static String number(double value) {
        BigDecimal rounded = BigDecimal.valueOf(value).setScale(3, RoundingMode.HALF_UP).stripTrailingZeros();
        return (rounded.scale() < 1 ? rounded.setScale(1) : rounded).toPlainString();
    }

    /** A JSON string literal, escaping quotes, backslashes and control characters. */
    static String string(String value) {
        StringBuilder json = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"').toString();
    }
}
