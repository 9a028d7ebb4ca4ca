package io.github.trainingdata.cdk;

import software.constructs.IConstruct;

/**
 * A construct was configured with a value AWS would reject (or that cannot work), detected at synth.
 *
 * <p>The message always names the construct path, the field, the bad value and what is allowed, so the
 * error points at the line to fix instead of surfacing an hour into a deploy.
 */
public final class ConfigurationError extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private ConfigurationError(String message) {
        super(message);
    }

    /**
     * Builds the error for {@code field} of {@code scope}.
     *
     * @param scope the construct whose props are wrong
     * @param field the prop (or rendered API field) name
     * @param value the rejected value, rendered with {@link String#valueOf(Object)}
     * @param allowed what would be accepted, in words
     * @return the error, ready to throw
     */
    public static ConfigurationError of(IConstruct scope, String field, Object value, String allowed) {
        return new ConfigurationError(
                scope.getNode().getPath() + ": invalid " + field + " '" + value + "': " + allowed);
    }
}
