package io.github.trainingdata.cdk.benchmark;

import java.util.List;

/** The two statistics the benchmark reports: the median of samples and a least-squares slope. */
final class Stats {
    private Stats() {
    }

    /** @return the median of {@code values} (mean of the middle two for an even count) */
    static double median(List<Long> values) {
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
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
