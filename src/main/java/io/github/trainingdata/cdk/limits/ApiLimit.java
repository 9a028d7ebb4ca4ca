package io.github.trainingdata.cdk.limits;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The constraint an AWS API model puts on one member: the length and pattern of a string, the range of a
 * number, or how many entries a list or map may have. A limit is either the model's own (its
 * {@link #getModelLimit()} is itself) or that constraint {@linkplain #narrowed narrowed} by a documented rule
 * of this library; a narrowed limit never admits what the model rejects.
 *
 * <p>Patterns are the model's text, unchanged, and always match the whole value (as the service does). Plain
 * JDK, so the CDK constructs and the SDK-only packages check values with the same objects. Tokens are the
 * caller's concern: check literal values only.
 */
public final class ApiLimit {
    /** What a limit's bounds measure. */
    public enum Kind {
        /** A string's length in characters (Unicode code points); a pattern may apply too. */
        LENGTH,
        /** A whole number's value. */
        VALUE,
        /** How many entries a list or map has. */
        COUNT
    }

    private final String member;
    private final Kind kind;
    private final Long min;
    private final Long max;
    private final String pattern;
    private final Pattern compiled;
    private final String unit;
    private final String note;
    private final ApiLimit modelLimit;

    private ApiLimit(String member, Kind kind, Long min, Long max, String pattern, String unit, String note,
            ApiLimit modelLimit) {
        this.member = Objects.requireNonNull(member, "member");
        this.kind = kind;
        this.min = min;
        this.max = max;
        this.pattern = pattern;
        this.compiled = pattern == null ? null : Pattern.compile(pattern);
        this.unit = unit;
        this.note = note;
        this.modelLimit = modelLimit == null ? this : modelLimit;
        if (min != null && max != null && min > max) {
            throw new IllegalArgumentException(member + ": min " + min + " is greater than max " + max);
        }
    }

    /**
     * A string member's constraint as the model states it.
     *
     * @param member  where the model defines the member, as a path from a structure: member names, {@code member}
     *                for a list's item, {@code key} or {@code value} for a map's (e.g. {@code Tag.Key},
     *                {@code CreateTrainingJobRequest.HyperParameters.value})
     * @param min     the model's min length, or null when it states none
     * @param max     the model's max length, or null when it states none
     * @param pattern the model's pattern, verbatim, or null when it states none
     * @return the limit
     */
    public static ApiLimit string(String member, Long min, Long max, String pattern) {
        return new ApiLimit(member, Kind.LENGTH, min, max, pattern, "characters", null, null);
    }

    /**
     * A number member's range as the model states it.
     *
     * @param member where the model defines the member (see {@link #string})
     * @param min    the model's min, or null when it states none
     * @param max    the model's max, or null when it states none
     * @param unit   the unit messages name, e.g. {@code seconds}; empty for none
     * @return the limit
     */
    public static ApiLimit number(String member, Long min, Long max, String unit) {
        return new ApiLimit(member, Kind.VALUE, min, max, null, unit, null, null);
    }

    /**
     * A list or map member's entry count as the model states it.
     *
     * @param member where the model defines the member (see {@link #string})
     * @param min    the model's min count, or null when it states none
     * @param max    the model's max count, or null when it states none
     * @param noun   what messages call the entries, e.g. {@code strings}
     * @return the limit
     */
    public static ApiLimit count(String member, Long min, Long max, String noun) {
        return new ApiLimit(member, Kind.COUNT, min, max, null, noun, null, null);
    }

    /**
     * The same constraint with tighter bounds, for a rule the model does not state (a guide's limit, or what
     * this library's requests need); the pattern stays the model's.
     *
     * @param newMin the tighter min, or null to keep this one's
     * @param newMax the tighter max, or null to keep this one's
     * @param why    appended to {@link #allowed()} after a comma, or null for nothing
     * @return the narrowed limit
     * @throws IllegalArgumentException when a new bound is looser than this one's
     */
    public ApiLimit narrowed(Long newMin, Long newMax, String why) {
        Long tighterMin = newMin != null ? newMin : min;
        Long tighterMax = newMax != null ? newMax : max;
        boolean looser = (min != null && (tighterMin == null || tighterMin < min))
                || (max != null && (tighterMax == null || tighterMax > max));
        if (looser) {
            throw new IllegalArgumentException(member + ": " + tighterMin + ".." + tighterMax + " does not narrow "
                    + min + ".." + max);
        }
        return new ApiLimit(member, kind, tighterMin, tighterMax, pattern, unit, why, modelLimit);
    }

    /**
     * Whether a string member accepts a literal value: its length is within the bounds and the pattern matches
     * the whole value.
     *
     * @param value the value, not a token; null is never accepted
     * @return true when the service would accept it
     */
    public boolean accepts(String value) {
        requireKind(Kind.LENGTH);
        if (value == null) {
            return false;
        }
        long length = value.codePointCount(0, value.length());
        return inBounds(length) && (compiled == null || compiled.matcher(value).matches());
    }

    /**
     * Whether a number member accepts a literal value, or a list or map member that many entries.
     *
     * @param value the value or the count
     * @return true when within the bounds
     */
    public boolean accepts(long value) {
        if (kind == Kind.LENGTH) {
            throw new IllegalStateException(member + " limits a string");
        }
        return inBounds(value);
    }

    /**
     * Whether a number member accepts a literal value given as any {@link Number}: a whole number within the
     * bounds.
     *
     * @param value the value, not a token; null is never accepted
     * @return true when the service would accept it
     */
    public boolean acceptsNumber(Number value) {
        requireKind(Kind.VALUE);
        if (value == null) {
            return false;
        }
        double d = value.doubleValue();
        return d == Math.rint(d) && !Double.isInfinite(d) && d >= Long.MIN_VALUE && d <= Long.MAX_VALUE
                && inBounds((long) d);
    }

    /**
     * What the limit allows, in words for an error message, e.g. {@code 1 to 64 characters matching
     * [A-Za-z0-9\.\-_]+}, {@code a whole number of at least 1}, {@code at most 100 entries}.
     *
     * @return the description
     */
    public String allowed() {
        String bounds = bounds();
        String text = switch (kind) {
            case LENGTH -> bounds + " characters" + patternWords();
            case VALUE -> "a whole number " + (min != null && max != null ? "from " : "of ") + bounds
                    + (unit.isEmpty() ? "" : " " + unit);
            case COUNT -> bounds + " " + unit;
        };
        return note == null ? text : text + ", " + note;
    }

    private String bounds() {
        boolean hasMin = min != null && (min > 0 || kind == Kind.VALUE);
        if (hasMin && max != null) {
            return min.equals(max) ? "exactly " + min : min + " to " + max;
        }
        if (hasMin) {
            return "at least " + min;
        }
        return max != null ? "at most " + max : "any number of";
    }

    private String patternWords() {
        if (pattern == null || pattern.equals("[\\S\\s]*")) {
            return "";
        }
        if (pattern.equals(".*") || pattern.equals(".+")) {
            return " without line breaks";
        }
        return " matching " + pattern;
    }

    private boolean inBounds(long value) {
        return (min == null || value >= min) && (max == null || value <= max);
    }

    private void requireKind(Kind expected) {
        if (kind != expected) {
            throw new IllegalStateException(member + " limits a " + kind + ", not a " + expected);
        }
    }

    /** @return where the model defines the member, e.g. {@code Channel.ChannelName} */
    public String getMember() {
        return member;
    }

    /** @return what the bounds measure */
    public Kind getKind() {
        return kind;
    }

    /** @return the least length, value or count, or null for none */
    public Long getMin() {
        return min;
    }

    /** @return the greatest length, value or count, or null for none */
    public Long getMax() {
        return max;
    }

    /** @return what the bounds count: {@code characters}, a number's unit, or what a list's entries are called */
    public String getUnit() {
        return unit;
    }

    /** @return the model's pattern, verbatim (it must match the whole value), or null for none */
    public String getPattern() {
        return pattern;
    }

    /** @return the constraint exactly as the model states it: this limit, or the one it narrows */
    public ApiLimit getModelLimit() {
        return modelLimit;
    }

    @Override
    public String toString() {
        return member + ": " + allowed();
    }
}
