package io.github.trainingdata.cdk.launch;

import io.github.trainingdata.cdk.limits.SageMakerLimits;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Objects;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;

/**
 * SageMaker training job names: the prefix rule and the two ways this library makes a unique name
 * from a prefix (a timestamp for launches, a hash for custom-resource workers).
 */
public final class TrainingJobNames {
    /**
     * Longest prefix accepted (26): leaves room for the longest suffix within SageMaker's 63 characters
     * ({@link SageMakerLimits#JOB_NAME_PREFIX}).
     */
    public static final int MAX_PREFIX_LENGTH = SageMakerLimits.JOB_NAME_PREFIX.getMax().intValue();

    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    private static final int HASH_HEX_DIGITS = 12;
    /**
     * What follows {@code <prefix>} in the name of a job this library started for a definition: {@code -<UUID>}
     * (an execution of its state machine, {@code States.UUID()}) or {@link #timestamped} (the launcher).
     */
    private static final Pattern STARTED_SUFFIX = Pattern.compile("-(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}"
            + "-[0-9a-f]{12}|[0-9]{8}-[0-9]{6}-[0-9a-f]{4})", Pattern.CASE_INSENSITIVE);

    private TrainingJobNames() {
    }

    /**
     * Checks a job name prefix.
     *
     * @param prefix the prefix
     * @return the prefix
     * @throws IllegalArgumentException unless {@link SageMakerLimits#JOB_NAME_PREFIX} accepts it: 1 to 26
     *                                  characters matching {@code [a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}}
     */
    public static String requireValidPrefix(String prefix) {
        if (!SageMakerLimits.JOB_NAME_PREFIX.accepts(prefix)) {
            throw new IllegalArgumentException("Invalid training job name prefix '" + prefix
                    + "': use " + SageMakerLimits.JOB_NAME_PREFIX.allowed()
                    + " (letters, digits and inner hyphens, starting and ending with a letter or digit)");
        }
        return prefix;
    }

    /**
     * Tells whether a string is a valid SageMaker training job name.
     *
     * @param name the candidate, may be null
     * @return true if {@link SageMakerLimits#TRAINING_JOB_NAME} accepts it: 1 to 63 characters matching
     *     {@code [a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}}
     */
    public static boolean isValidName(String name) {
        return SageMakerLimits.TRAINING_JOB_NAME.accepts(name);
    }

    /**
     * Makes a launch name {@code <prefix>-<yyyyMMdd-HHmmss>-<4 hex>} (UTC).
     *
     * @param prefix a valid prefix
     * @param now    the launch time
     * @param random the source of the 4 hex digits that separate launches within one second
     * @return the job name
     */
    public static String timestamped(String prefix, Instant now, RandomGenerator random) {
        return requireValidPrefix(prefix) + "-" + TIMESTAMP.format(now)
                + "-" + String.format("%04x", random.nextInt(0x10000));
    }

    /**
     * Tells whether a job is one that a definition with this prefix started: {@code <prefix>-<UUID>} (an execution
     * of its state machine) or {@code <prefix>-<yyyyMMdd-HHmmss>-<4 hex>} (the launcher). The prefix is compared
     * ignoring case (SageMaker has shown job names lowercase in ARNs). A job of another definition whose prefix
     * merely starts the same ({@code train} and {@code trainer}, or {@code train} and {@code train-big}) is not.
     *
     * @param name   a training job's name
     * @param prefix the definition's job-name prefix
     * @return whether the job was started under the prefix
     */
    public static boolean isStartedUnder(String name, String prefix) {
        return name.length() > prefix.length() && name.regionMatches(true, 0, prefix, 0, prefix.length())
                && STARTED_SUFFIX.matcher(name).region(prefix.length(), name.length()).matches();
    }

    /**
     * Makes a deterministic name {@code <prefix>-<12 hex of sha256(seed)>}: the same seed always gives
     * the same name, so a retried request cannot start a second job.
     *
     * @param prefix a valid prefix
     * @param seed   what identifies the request
     * @return the job name
     */
    public static String hashed(String prefix, String seed) {
        Objects.requireNonNull(seed, "seed");
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8));
            return requireValidPrefix(prefix) + "-" + HexFormat.of().formatHex(digest).substring(0, HASH_HEX_DIGITS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("This JVM has no SHA-256", e);
        }
    }
}
