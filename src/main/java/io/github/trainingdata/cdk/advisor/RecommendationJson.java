package io.github.trainingdata.cdk.advisor;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Renders a {@link Recommendation} as one line of JSON in a fixed shape and order:
 * {@code {"recommendation": {"source", "inputMode", "reasons"}, "options": [{"source",
 * "startupSeconds", "throughputMBps", "monthlyStorageUsd", "startupCostUsd", "billableSeconds", "costUsd"}]}};
 * numbers are rounded to three decimals. {@code billableSeconds} and {@code costUsd} cover all the profile's
 * jobs (one by default).
 */
final class RecommendationJson {

    private RecommendationJson() {
    }

    static String render(Recommendation recommendation) {
        String reasons = recommendation.reasons().stream().map(RecommendationJson::string)
                .collect(Collectors.joining(", ", "[", "]"));
        return "{\"recommendation\": {\"source\": " + string(recommendation.option().name())
                + ", \"inputMode\": " + string(recommendation.inputMode())
                + ", \"reasons\": " + reasons + "}, \"options\": " + options(recommendation.estimates()) + "}";
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
