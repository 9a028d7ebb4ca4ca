package io.github.trainingdata.cdk;

import com.dashjoin.jsonata.Jsonata;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSONata templates as Step Functions evaluates them in a state's Arguments, Output, Assign, Condition, Error and
 * Cause: with a Java JSONata ({@code com.dashjoin:jsonata}), each expression compiled once. Used by both state
 * machine simulators ({@link JsonataAslSimulator}, and the JSONata states of {@code training.AslSimulator}).
 */
public final class JsonataTemplates {
    private final Map<String, Jsonata> compiled = new HashMap<>();

    /**
     * Evaluates every {@code "{% ... %}"} string of a JSON template (plain Java values) with the variables and the
     * reserved {@code $states}; undefined object fields are dropped. An expression that cannot be evaluated fails the
     * test as {@code States.QueryEvaluationError}.
     *
     * @param template  the template
     * @param states    the value of {@code $states}
     * @param variables the workflow variables
     * @return the evaluated template, as JSON values
     */
    public Object evaluate(Object template, Map<String, Object> states, Map<String, Object> variables) {
        if (template instanceof String text && text.startsWith("{%") && text.endsWith("%}")) {
            return expression(text.substring(2, text.length() - 2).trim(), states, variables);
        }
        if (template instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            for (Object item : list) {
                out.add(evaluate(item, states, variables));
            }
            return out;
        }
        if (template instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((key, value) -> {
                Object evaluated = evaluate(value, states, variables);
                if (evaluated != null) {
                    out.put((String) key, evaluated);
                }
            });
            return out;
        }
        return template;
    }

    private Object expression(String expression, Map<String, Object> states, Map<String, Object> variables) {
        try {
            Jsonata jsonata = compiled.computeIfAbsent(expression, Jsonata::jsonata);
            Jsonata.Frame frame = jsonata.createFrame();
            variables.forEach(frame::bind);
            frame.bind("states", states);
            return normalize(jsonata.evaluate(null, frame));
        } catch (RuntimeException e) {
            throw new AssertionError("States.QueryEvaluationError: " + expression + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param value a JSONata result
     * @return it as a JSON value: whole doubles as longs, sequences as lists
     */
    private static Object normalize(Object value) {
        if (value instanceof Double d && d == Math.rint(d) && !d.isInfinite() && Math.abs(d) < 1e15) {
            return d.longValue();
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            list.forEach(item -> out.add(normalize(item)));
            return out;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), normalize(v)));
            return out;
        }
        return value;
    }
}
