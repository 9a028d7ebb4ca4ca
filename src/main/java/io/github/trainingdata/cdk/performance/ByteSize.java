package io.github.trainingdata.cdk.performance;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Byte-size units, and parsing and formatting of sizes such as {@code 54GB}, {@code 1.5TB},
 * {@code 800MiB} or {@code 123}. Decimal units are powers of 1000 (GB = 10^9 bytes), binary units
 * powers of 1024 (GiB = 2^30 bytes); a bare number is bytes. Units are case-insensitive.
 */
public final class ByteSize {

    /** One kilobyte, 10^3 bytes. */
    public static final long KB = 1_000L;
    /** One megabyte, 10^6 bytes. */
    public static final long MB = 1_000_000L;
    /** One gigabyte, 10^9 bytes. */
    public static final long GB = 1_000_000_000L;
    /** One terabyte, 10^12 bytes. */
    public static final long TB = 1_000_000_000_000L;
    /** One petabyte, 10^15 bytes. */
    public static final long PB = 1_000_000_000_000_000L;
    /** One kibibyte, 2^10 bytes. */
    public static final long KIB = 1L << 10;
    /** One mebibyte, 2^20 bytes. */
    public static final long MIB = 1L << 20;
    /** One gibibyte, 2^30 bytes. */
    public static final long GIB = 1L << 30;
    /** One tebibyte, 2^40 bytes. */
    public static final long TIB = 1L << 40;
    /** One pebibyte, 2^50 bytes. */
    public static final long PIB = 1L << 50;

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?|\\.\\d+)\\s*([A-Za-z]*)");
    private static final Map<String, Long> UNITS = Map.ofEntries(
            Map.entry("", 1L), Map.entry("b", 1L),
            Map.entry("kb", KB), Map.entry("mb", MB), Map.entry("gb", GB), Map.entry("tb", TB), Map.entry("pb", PB),
            Map.entry("kib", KIB), Map.entry("mib", MIB), Map.entry("gib", GIB), Map.entry("tib", TIB),
            Map.entry("pib", PIB));
    private static final String[] DECIMAL_UNIT_NAMES = {"B", "KB", "MB", "GB", "TB", "PB"};
    private static final String ALLOWED = "a number with an optional unit: B, KB, MB, GB, TB, PB (powers of 1000) "
            + "or KiB, MiB, GiB, TiB, PiB (powers of 1024), e.g. 54GB, 1.5TB, 800MiB, 123";

    private ByteSize() {
    }

    /**
     * Parses a size into bytes, rounding a fractional byte count to the nearest byte.
     *
     * @param text the size, e.g. {@code 54GB}, {@code 1.5 TB}, {@code 800MiB}, {@code 123}
     * @return the size in bytes, at least 0
     * @throws IllegalArgumentException when the text is not a size or the size does not fit a {@code long}
     */
    public static long parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("size is missing: expected " + ALLOWED);
        }
        Matcher matcher = SIZE.matcher(text.trim());
        Long unit = matcher.matches() ? UNITS.get(matcher.group(2).toLowerCase(Locale.ROOT)) : null;
        if (unit == null) {
            throw new IllegalArgumentException("size '" + text + "' is not a size: expected " + ALLOWED);
        }
        BigDecimal bytes = new BigDecimal(matcher.group(1)).multiply(BigDecimal.valueOf(unit))
                .setScale(0, RoundingMode.HALF_UP);
        if (bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("size '" + text + "' is too large: at most " + Long.MAX_VALUE + " bytes");
        }
        return bytes.longValueExact();
    }

    /**
     * Formats a byte count with the largest decimal unit that keeps the number at least 1 and at most
     * one decimal place, e.g. {@code 54 GB}, {@code 1.5 TB}, {@code 123 B}.
     *
     * @param bytes the size in bytes, at least 0
     * @return the readable size
     * @throws IllegalArgumentException when bytes is negative
     */
    public static String format(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be at least 0, was " + bytes);
        }
        int unitIndex = 0;
        long unit = 1;
        while (unitIndex < DECIMAL_UNIT_NAMES.length - 1 && bytes >= unit * KB) {
            unit *= KB;
            unitIndex++;
        }
        BigDecimal value = BigDecimal.valueOf(bytes).divide(BigDecimal.valueOf(unit), 1, RoundingMode.HALF_UP)
                .stripTrailingZeros();
        return value.toPlainString() + " " + DECIMAL_UNIT_NAMES[unitIndex];
    }
}
