package io.github.trainingdata.cdk;

import java.util.regex.Pattern;
import software.amazon.awscdk.Token;
import software.constructs.IConstruct;

/**
 * A construct was configured with a value AWS would reject (or that cannot work), detected at synth.
 *
 * <p>The message always names the construct path, the field, the bad value, what is allowed and the id of the
 * {@link SynthRule} broken, so the error points at the line to fix instead of surfacing an hour into a deploy.
 */
public final class ConfigurationError extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** How a message shows a deploy-time number (a number token, which Java sees as a huge negative double). */
    public static final String DEPLOY_TIME_NUMBER = "<deploy-time number>";
    /** How a message shows a deploy-time string (a string token, {@code ${Token[...]}} in Java). */
    public static final String DEPLOY_TIME_VALUE = "<deploy-time value>";

    /** A string token as Java sees it, e.g. {@code ${Token[TOKEN.12]}}. */
    private static final Pattern STRING_TOKEN = Pattern.compile("\\$\\{Token\\[[^\\]]*\\]\\}");

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
     * @param value the rejected value, rendered with {@link String#valueOf(Object)}; a deploy-time number as
     *     {@value #DEPLOY_TIME_NUMBER}, each deploy-time string in it as {@value #DEPLOY_TIME_VALUE}, never as the number
     *     or text that encodes it
     * @param allowed what would be accepted, in words
     * @return the error, ready to throw
     */
    public static ConfigurationError of(SynthRule rule, IConstruct scope, String field, Object value, String allowed) {
        return new ConfigurationError(rule.getId(), scope.getNode().getPath() + ": invalid " + field + " '"
                + render(value) + "': " + allowed + " [" + rule.getId() + "]");
    }

    private static String render(Object value) {
        if (value instanceof Number number && Token.isUnresolved(number)) {
            return DEPLOY_TIME_NUMBER;
        }
        String text = String.valueOf(value);
        return Token.isUnresolved(text) ? STRING_TOKEN.matcher(text).replaceAll(DEPLOY_TIME_VALUE) : text;
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
