package io.github.trainingdata.cdk.advisor;

import java.util.List;

/**
 * The {@link Advisor}'s answer: the data source to use, why, and the estimates for every option so
 * the choice can be compared.
 *
 * @param option the recommended data source
 * @param reasons why, each quoting the estimate or published figure it rests on; at least one
 * @param estimates one estimate per {@link DataSourceOption}, in declaration order
 */
public record Recommendation(DataSourceOption option, List<String> reasons, List<OptionEstimate> estimates) {

    /**
     * Validates the recommendation and copies the lists.
     *
     * @throws IllegalArgumentException when the option is missing, there is no reason, or the
     *     estimates are not one per option in declaration order
     */
    public Recommendation {
        if (option == null) {
            throw new IllegalArgumentException("option must be one of " + List.of(DataSourceOption.values()) + ", was null");
        }
        if (reasons == null || reasons.isEmpty()) {
            throw new IllegalArgumentException("reasons must hold at least one reason, was " + reasons);
        }
        if (estimates == null || !List.of(DataSourceOption.values())
                .equals(estimates.stream().map(e -> e == null ? null : e.option()).toList())) {
            throw new IllegalArgumentException("estimates must hold one estimate per option in the order "
                    + List.of(DataSourceOption.values()) + ", was " + estimates);
        }
        reasons = List.copyOf(reasons);
        estimates = List.copyOf(estimates);
    }

    /**
     * The SageMaker input mode of the recommended option.
     *
     * @return {@code File}, {@code FastFile} or {@code Pipe}
     */
    public String inputMode() {
        return option.inputMode();
    }

    /**
     * The estimate for one option.
     *
     * @param of the option
     * @return its estimate
     */
    public OptionEstimate estimateFor(DataSourceOption of) {
        return estimates.get(of.ordinal());
    }
}
