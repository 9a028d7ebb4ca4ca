package io.github.trainingdata.cdk.benchmark;

import java.util.List;

/** The statistics the benchmark reports: the median and quartiles of samples and a least-squares slope. */
final class Stats {
    private Stats() {
    }

    /** @return the median of {@code values} (mean of the middle two for an even count) */
    static double median(List<Long> values) {
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
    }

    /**
     * @param values the samples (not empty)
     * @param q      the quantile, 0 to 1
     * @return the {@code q} quantile of {@code values}, interpolated linearly between the two nearest order
     *     statistics (position {@code q * (n - 1)}; 0.5 is the median)
     */
    static double quantile(List<Double> values, double q) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double position = q * (sorted.length - 1);
        int below = (int) Math.floor(position);
        int above = Math.min(below + 1, sorted.length - 1);
        return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
    }

    /** @return the least-squares slope of {@code y} over {@code x} (y's unit per unit of x) */
    static double slope(double[] x, double[] y) {
        double mx = 0;
        double my = 0;
        for (int i = 0; i < x.length; i++) {
            mx += x[i] / x.length;
            my += y[i] / y.length;
        }
        double covariance = 0;
        double variance = 0;
        for (int i = 0; i < x.length; i++) {
            covariance += (x[i] - mx) * (y[i] - my);
            variance += (x[i] - mx) * (x[i] - mx);
        }
        return covariance / variance;
    }
}
