package io.github.trainingdata.cdk;

import java.util.List;
import java.util.Map;
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

    /**
     * Throws when settings that only shape a new resource are given together with an existing one, naming
     * every such setting given (in the map's order).
     *
     * @param scope the construct whose props are wrong
     * @param existingField the prop that carries the existing resource
     * @param existingNoun how the message names the existing resource
     * @param settingsNoun how the message names the new-resource settings
     * @param newOnlySettings each new-resource setting's name and value (null when not given)
     */
    public static void rejectNewSettingsWithExisting(IConstruct scope, String existingField, String existingNoun,
            String settingsNoun, Map<String, ?> newOnlySettings) {
        List<String> given = newOnlySettings.entrySet().stream()
                .filter(e -> e.getValue() != null).map(Map.Entry::getKey).toList();
        if (!given.isEmpty()) {
            throw of(scope, given.get(0), "set together with " + existingField, "either an existing " + existingNoun
                    + " or settings for a new one, not both (" + settingsNoun + " settings given: "
                    + String.join(", ", given) + ")");
        }
    }
}
