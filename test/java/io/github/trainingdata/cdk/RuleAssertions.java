package io.github.trainingdata.cdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.function.Executable;

/**
 * Asserts a synth-time rule: the call fails with a {@link ConfigurationError} of the given rule id, naming the
 * construct path, the field, the bad value and what is allowed. The message format lives here once, so rule tests
 * state only those five facts. {@code RulesTableTest} reads the ids given here to prove every rule has a test.
 */
public final class RuleAssertions {
    private RuleAssertions() {
    }

    /**
     * Runs {@code call} and asserts the error it throws.
     *
     * @param ruleId the id of the rule broken, e.g. {@code LUSTRE_CAPACITY}
     * @param call what should fail
     * @param path the construct path named in the message
     * @param field the field named
     * @param value the bad value named
     * @param allowed what the message says is allowed
     * @return the error, for further checks
     */
    public static ConfigurationError assertRule(String ruleId, Executable call, String path, String field,
            Object value, String allowed) {
        ConfigurationError e = assertThrows(ConfigurationError.class, call);
        assertEquals(path + ": invalid " + field + " '" + value + "': " + allowed + " [" + ruleId + "]",
                e.getMessage());
        assertEquals(ruleId, e.getRuleId());
        return e;
    }
}
