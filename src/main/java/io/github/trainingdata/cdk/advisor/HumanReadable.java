package io.github.trainingdata.cdk.advisor;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;

/** Formats durations, rates, prices and counts for reasons and the CLI table; locale-independent. */
final class HumanReadable {

    private static final double MINUTE = 60;
    private static final double HOUR = 3600;

    private HumanReadable() {
    }

    /** Seconds as "0.05 s", "12 s", "4.5 min" or "4.2 h". */
    static String duration(double seconds) {
        if (seconds < 1) {
            return decimal(seconds, 2) + " s";
        }
        if (seconds < MINUTE) {
            return decimal(seconds, 1) + " s";
        }
        if (seconds < HOUR) {
            return decimal(seconds / MINUTE, 1) + " min";
        }
        return decimal(seconds / HOUR, 1) + " h";
    }

    /** Seconds as milliseconds, e.g. "7 ms", "0.5 ms". */
    static String millis(double seconds) {
        return decimal(seconds * 1000, seconds < 0.00995 ? 1 : 0) + " ms";
    }

    /** A duration as "12 s", "4.5 min" or "4.2 h". */
    static String duration(Duration duration) {
        return duration(duration.toNanos() / 1e9);
    }

    /** A rate in MB/s, e.g. "1000 MB/s", "3.6 MB/s". */
    static String rate(double mbps) {
        return decimal(mbps, mbps < 9.95 ? 1 : 0) + " MB/s";
    }

    /** An amount in USD with cents, or tenths of a cent under $0.10, e.g. "$1.24", "$0.011". */
    static String usd(double usd) {
        return "$" + String.format(Locale.ROOT, usd < 0.1 ? "%.3f" : "%,.2f", usd);
    }

    /** A unit price in USD exactly as published, e.g. "$3.825", "$0.23". */
    static String price(double usd) {
        return "$" + BigDecimal.valueOf(usd).stripTrailingZeros().toPlainString();
    }

    /** A number with up to two decimals, e.g. "2", "0.5". */
    static String number(double value) {
        return BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }

    /** A count with thousands separators, e.g. "1,500,000". */
    static String count(long count) {
        return String.format(Locale.ROOT, "%,d", count);
    }

    /** A percentage with one decimal place, e.g. "7.5%", or "under 0.1%". */
    static String percent(double fraction) {
        return fraction < 0.0005 ? "under 0.1%" : decimal(fraction * 100, 1) + "%";
    }

    private static String decimal(double value, int places) {
        String text = String.format(Locale.ROOT, "%,." + places + "f", value);
        return text.replaceFirst("\\.0+$", "");
    }
}
