package io.github.trainingdata.cdk.training;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Amazon States Language pieces the training state machine is built from: Fail states, Choice rules and their
 * conditions, and the retrier for transient failures of SDK calls.
 */
final class AslStates {
    /** Retries of a describe (or list) call that failed transiently. */
    static final int RETRY_ATTEMPTS = 5;
    /** How long one SDK call of a task may take. */
    static final int CALL_TIMEOUT_SECONDS = 60;

    private AslStates() {
    }

    /** Throttling, 5xx and timeouts of an SDK call: every task failure but the ones a retrier before this one takes. */
    static Map<String, Object> transientErrors() {
        Map<String, Object> retry = new LinkedHashMap<>();
        retry.put("ErrorEquals", List.of("States.TaskFailed", "States.Timeout"));
        retry.put("IntervalSeconds", 4);
        retry.put("MaxAttempts", RETRY_ATTEMPTS);
        retry.put("BackoffRate", 2);
        retry.put("MaxDelaySeconds", 60);
        retry.put("JitterStrategy", "FULL");
        return retry;
    }

    static Map<String, Object> fail(String error, String cause) {
        Map<String, Object> fail = new LinkedHashMap<>();
        fail.put("Type", "Fail");
        fail.put("Error", error);
        fail.put("Cause", cause);
        return fail;
    }

    /** A Choice state: its rules in order, {@code otherwise} when none matches; {@code comment} may be null. */
    static Map<String, Object> choice(String comment, List<Map<String, Object>> rules, String otherwise) {
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("Type", "Choice");
        if (comment != null) {
            choice.put("Comment", comment);
        }
        choice.put("Choices", rules);
        choice.put("Default", otherwise);
        return choice;
    }

    /** A JSONata Pass state that only assigns variables, then goes on to {@code next}. */
    static Map<String, Object> assignPass(String comment, Map<String, Object> assign, String next) {
        Map<String, Object> pass = new LinkedHashMap<>();
        pass.put("Type", "Pass");
        pass.put("QueryLanguage", "JSONata");
        pass.put("Comment", comment);
        pass.put("Assign", assign);
        pass.put("Next", next);
        return pass;
    }

    static Map<String, Object> rule(Map<String, Object> condition, String next) {
        Map<String, Object> rule = new LinkedHashMap<>(condition);
        rule.put("Next", next);
        return rule;
    }

    static Map<String, Object> variable(String path, String operator, Object value) {
        Map<String, Object> comparison = new LinkedHashMap<>();
        comparison.put("Variable", "$." + path);
        comparison.put(operator, value);
        return comparison;
    }

    static Map<String, Object> isPresent(String path) {
        return variable(path, "IsPresent", true);
    }

    static Map<String, Object> not(Map<String, Object> condition) {
        return Map.of("Not", condition);
    }

    static Map<String, Object> and(List<Map<String, Object>> conditions) {
        return Map.of("And", conditions);
    }

    static Map<String, Object> or(List<Map<String, Object>> conditions) {
        return Map.of("Or", conditions);
    }
}
