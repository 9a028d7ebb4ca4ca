package io.github.trainingdata.cdk.internal;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import java.util.Arrays;
import java.util.regex.Pattern;
import software.amazon.awscdk.Token;
import software.constructs.IConstruct;

/**
 * Checks S3 key prefixes and relative paths used by the constructs: S3 "safe" characters only, no
 * leading or trailing {@code /}, no empty, {@code .} or {@code ..} segment, at most 512 characters
 * (half of S3's 1024-character key limit, leaving room for object names). Empty means "the root".
 */
public final class KeyPrefix {
    public static final SynthRule REQUIRED = SynthRule.of("KEY_PREFIX_REQUIRED", "any key prefix (bucket, cache, channel, definition)",
            "prefix, path",
            "a key prefix (empty for the root)",
            "library");
    public static final SynthRule FORMAT = SynthRule.of("KEY_PREFIX_FORMAT", "any key prefix (bucket, cache, channel, definition)",
            "prefix, path",
            "S3 safe characters, no leading or trailing '/', no empty, '.' or '..' segments, at most 512",
            "Amazon S3 User Guide, object key naming");

    /** Longest prefix accepted. */
    public static final int MAX_LENGTH = 512;
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9!_.*'()/=+-]*");

    private KeyPrefix() {
    }

    /**
     * Returns {@code prefix} when valid (or an unresolved token), else throws.
     *
     * @param scope the construct whose prop it is, named in the error
     * @param field the prop's name, named in the error
     * @param prefix the prefix to check
     * @return the prefix
     * @throws ConfigurationError when the prefix is not valid
     */
    public static String check(IConstruct scope, String field, String prefix) {
        if (prefix == null) {
            throw ConfigurationError.of(REQUIRED, scope, field, null, "a key prefix (empty for the root)");
        }
        // Only a string holding a token marker (${Token[...]}) can be unresolved: no jsii call for the others.
        if (prefix.contains("${Token[") && Token.isUnresolved(prefix)) {
            return prefix;
        }
        boolean badSegment = !prefix.isEmpty() && Arrays.stream(prefix.split("/", -1))
                .anyMatch(s -> s.isEmpty() || s.equals(".") || s.equals(".."));
        if (!SAFE.matcher(prefix).matches() || badSegment || prefix.length() > MAX_LENGTH) {
            throw ConfigurationError.of(FORMAT, scope, field, prefix,
                    "a key prefix of S3 safe characters [A-Za-z0-9!_.*'()/=+-], without leading or trailing '/' "
                            + "and without empty, '.' or '..' segments, at most " + MAX_LENGTH
                            + " characters (empty for the root)");
        }
        return prefix;
    }

    /**
     * Joins two checked prefixes with {@code /}, leaving out empty ones.
     *
     * @param parent the outer prefix (may be empty)
     * @param child the inner prefix (may be empty)
     * @return {@code parent/child}, {@code parent}, {@code child} or empty
     */
    public static String join(String parent, String child) {
        if (parent.isEmpty()) {
            return child;
        }
        return child.isEmpty() ? parent : parent + "/" + child;
    }
}
