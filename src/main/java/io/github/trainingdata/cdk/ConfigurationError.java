package io.github.trainingdata.cdk;

import software.constructs.IConstruct;

/**
 * A construct was configured with a value AWS would reject (or that cannot work), detected at synth.
 *
 * <p>The message always names the construct path, the field, the bad value, what is allowed and the id of the
 * {@link SynthRule} broken, so the error points at the line to fix instead of surfacing an hour into a deploy.
 */
public final class ConfigurationError extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String ruleId;

    private ConfigurationError(String ruleId, String message) {
        super(message);
        this.ruleId = ruleId;
    }

    /**
     * Builds the error for a violation of {@code rule} by {@code field} of {@code scope}.
     *
     * @param rule the rule broken
     * @param scope the construct whose props are wrong
     * @param field the prop (or rendered API field) name, as precise as the call site knows it (e.g. with an index)
     * @param value the rejected value, rendered with {@link String#valueOf(Object)}
     * @param allowed what would be accepted, in words
     * @return the error, ready to throw
     */
    public static ConfigurationError of(SynthRule rule, IConstruct scope, String field, Object value, String allowed) {
        return new ConfigurationError(rule.getId(), scope.getNode().getPath() + ": invalid " + field + " '" + value
                + "': " + allowed + " [" + rule.getId() + "]");
    }

    /**
     * Builds the error for a violation of {@code rule} with the rule's own field and allowed values.
     *
     * @param rule the rule broken
     * @param scope the construct whose props are wrong
     * @param value the rejected value, rendered with {@link String#valueOf(Object)}
     * @return the error, ready to throw
     */
    public static ConfigurationError of(SynthRule rule, IConstruct scope, Object value) {
        return of(rule, scope, rule.getField(), value, rule.getAllowed());
    }

    /** @return the id of the rule broken, e.g. {@code LUSTRE_CAPACITY} */
    public String getRuleId() {
        return ruleId;
    }
}
