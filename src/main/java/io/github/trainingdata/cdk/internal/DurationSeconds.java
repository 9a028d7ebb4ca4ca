package io.github.trainingdata.cdk.internal;

import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Token;

/**
 * A {@link Duration} in seconds without aws-cdk-lib's own error: {@code Duration.toSeconds()} throws for a fractional
 * second ("cannot be converted into a whole number of seconds") and for a deploy-time value given in another unit
 * ("Duration must be specified as 'Duration.seconds()' here"), an error that names neither the construct nor the
 * field. The constructs turn a null from here into a {@code ConfigurationError} of their own rule.
 */
@InternalApi
public final class DurationSeconds {
    private DurationSeconds() {
    }

    /**
     * @param duration a duration
     * @return its seconds (a number token for a deploy-time value given in seconds), or null when aws-cdk-lib cannot
     *     convert it
     */
    public static Number of(Duration duration) {
        try {
            return duration.toSeconds();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * @param duration a duration
     * @return its seconds as a literal whole number, or null when it is a deploy-time value or not whole seconds
     */
    public static Long literal(Duration duration) {
        Number seconds = of(duration);
        return seconds == null || Token.isUnresolved(seconds) ? null : seconds.longValue();
    }
}
