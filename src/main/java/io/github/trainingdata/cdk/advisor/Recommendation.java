package io.github.trainingdata.cdk.advisor;

import java.util.List;

/**
 * The {@link Advisor}'s answer: the data source to use, why, and the estimates for every option so
 * the choice can be compared.
 *
 * @param option the recommended data source
 * @param reasons why, each quoting the estimate or published figure it rests on; at least one
 * @param estimates one estimate per {@link DataSourceOption}, in declaration order
 * @param lustre the FSx for Lustre cache sized for the profile (SCRATCH_2 or a PERSISTENT_2 tier, every tier
 *     compared), whatever the option: a platform that builds a cache builds this one
 * @param s3Fallback what a capacity fallback of the cache's channel to S3 does to one job, or null when the data is
 *     not in S3
 */
public record Recommendation(DataSourceOption option, List<String> reasons, List<OptionEstimate> estimates,
        LustreChoice lustre, S3Fallback s3Fallback) {

    /**
     * Validates the recommendation and copies the lists.
     *
     * @throws IllegalArgumentException when the option is missing, there is no reason, the estimates are not one
     *     per option in declaration order, or the Lustre sizing is missing
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
        if (lustre == null) {
            throw new IllegalArgumentException("lustre must be the profile's Lustre sizing, was null");
        }
        reasons = List.copyOf(reasons);
        estimates = List.copyOf(estimates);
    }

    /**
     * The SageMaker input mode of the recommended option.
     *
     * @return {@code File}, {@code FastFile} or {@code Pipe}; null when the training code reads the store itself
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
