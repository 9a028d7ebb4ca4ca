package io.github.trainingdata.cdk.training;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.trainingdata.cdk.Intrinsics;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.JsonataTemplates;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;

/**
 * Runs a rendered Amazon States Language document on a simulated clock, with task results from a script, and
 * counts the execution-history events each state adds: enough of the language for what the training state
 * machine and the custom-resource waiter render (Task with Retry/Catch, Choice with Assign, Pass, Wait, Succeed, Fail
 * with Error or ErrorPath, JSONPath with
 * variables and the
 * intrinsics {@code States.Format}, {@code States.MathAdd}, {@code States.UUID}; and states with
 * {@code "QueryLanguage": "JSONata"}: Pass, Task and Fail with Arguments, Output, Assign and expressions over
 * {@code $states}). Anything else fails the test.
 *
 * <p>Event counts per state follow the Step Functions history: a Task adds TaskStateEntered, TaskScheduled,
 * TaskStarted, TaskSucceeded (or TaskFailed) and TaskStateExited, and each retried attempt TaskScheduled,
 * TaskStarted and TaskFailed; Choice, Pass and Wait add an entered and an exited event; a Fail state adds
 * FailStateEntered and ExecutionFailed. With {@code worstCaseRetries}, every task call first fails as often as
 * all its retriers allow.
 */
final class AslSimulator {
    /** An error a scripted task raises. */
    static final class TaskError extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String error;
        final String cause;

        TaskError(String error) {
            this(error, "");
        }

        TaskError(String error, String cause) {
            super(error + ": " + cause);
            this.error = error;
            this.cause = cause;
        }
    }

    /** Answers the task calls: the resource, the evaluated parameters and the simulated time in seconds. */
    @FunctionalInterface
    interface Tasks {
        JsonNode call(String resource, JsonNode parameters, long nowSeconds);
    }

    /** One task call as the state machine made it. */
    record Call(String state, String resource, JsonNode parameters, long atSeconds) {
    }

    /** How an execution ended. */
    record Run(String endState, String error, String cause, JsonNode output, long events, long seconds,
            List<Call> calls, List<Long> waits, Map<String, JsonNode> variables) {
    }

    /** A task call's end: its result, or the catcher that caught its error (none: the execution fails). */
    private record TaskEnd(JsonNode result, JsonNode catcher, TaskError error, long retries) {
    }

    private static final ObjectMapper JSON = Json.MAPPER;
    private static final int MAX_TRANSITIONS = 1_000_000;

    private final JsonNode states;
    private final String startAt;
    private final JsonataTemplates templates = new JsonataTemplates();

    AslSimulator(JsonNode asl) {
        this.states = asl.get("States");
        this.startAt = asl.get("StartAt").asText();
    }

    /**
     * @return the definition of the one state machine in {@code stack} besides the waiters of aws-cdk-lib's Provider
     *     framework (a Lustre cache's associations have one), intrinsics evaluated by {@link Intrinsics}
     */
    static JsonNode definitionOf(Stack stack) {
        Map<String, Map<String, Object>> machines = trainingStateMachines(Template.fromStack(stack));
        if (machines.size() != 1) {
            throw new AssertionError(machines.size() + " state machines in " + stack.getNode().getPath());
        }
        Object definition = ((Map<?, ?>) machines.values().iterator().next().get("Properties"))
                .get("DefinitionString");
        try {
            return JSON.readTree(Intrinsics.string(definition));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The stack's state machines but the Provider framework's waiter (which the definitions' teardown brings).
     *
     * @param template the stack's template
     * @return the state machines by logical id
     */
    static Map<String, Map<String, Object>> trainingStateMachines(Template template) {
        Map<String, Map<String, Object>> machines = new LinkedHashMap<>(
                template.findResources("AWS::StepFunctions::StateMachine"));
        machines.keySet().removeIf(id -> id.contains("waiterstatemachine"));
        return machines;
    }

    Run run(String executionName, JsonNode input, Tasks tasks, boolean worstCaseRetries) {
        Map<String, JsonNode> variables = new TreeMap<>();
        List<Call> calls = new ArrayList<>();
        List<Long> waits = new ArrayList<>();
        Context context = new Context(executionName, variables);
        JsonNode data = input.deepCopy();
        long events = 1; // ExecutionStarted
        long now = 0;
        String name = startAt;
        for (int transition = 0; transition < MAX_TRANSITIONS; transition++) {
            JsonNode state = states.get(name);
            if (state == null) {
                throw new AssertionError("no state " + name);
            }
            String type = state.get("Type").asText();
            boolean jsonata = "JSONata".equals(state.path("QueryLanguage").asText());
            if (jsonata && type.equals("Choice")) {
                throw new AssertionError("JSONata Choice states are not simulated");
            }
            switch (type) {
                case "Fail" -> {
                    String error = jsonata ? jsonata(state.get("Error"), states(data, null, null, context), context)
                            .asText() : state.has("ErrorPath") ? evaluate(state.get("ErrorPath").asText(), data,
                            context).asText() : state.get("Error").asText();
                    JsonNode cause = jsonata ? jsonata(state.get("Cause"), states(data, null, null, context), context)
                            : state.has("CausePath") ? evaluate(state.get("CausePath").asText(), data, context)
                            : state.get("Cause");
                    return new Run(name, error, cause == null ? null : cause.asText(), null, events + 2, now, calls,
                            waits, variables);
                }
                case "Succeed" -> {
                    return new Run(name, null, null, data, events + 3, now, calls, waits, variables);
                }
                case "Pass" -> {
                    events += 2;
                    if (jsonata) {
                        Map<String, Object> in = states(data, null, null, context);
                        assignJsonata(state.get("Assign"), in, context);
                        data = state.has("Output") ? jsonata(state.get("Output"), in, context) : data;
                    } else {
                        assign(state.get("Assign"), data, context);
                    }
                    if (state.path("End").asBoolean()) {
                        return new Run(name, null, null, data, events + 1, now, calls, waits, variables);
                    }
                    name = next(state);
                }
                case "Wait" -> {
                    events += 2;
                    long seconds = state.has("Seconds") ? state.get("Seconds").asLong()
                            : evaluate(state.get("SecondsPath").asText(), data, context).asLong();
                    waits.add(seconds);
                    now += seconds;
                    name = next(state);
                }
                case "Choice" -> {
                    events += 2;
                    String chosen = null;
                    for (JsonNode rule : state.get("Choices")) {
                        if (matches(rule, data, context)) {
                            assign(rule.get("Assign"), data, context);
                            chosen = rule.get("Next").asText();
                            break;
                        }
                    }
                    if (chosen == null) {
                        assign(state.get("Assign"), data, context);
                        chosen = state.get("Default").asText();
                    }
                    name = chosen;
                }
                case "Task" -> {
                    events += 5;
                    String resource = state.get("Resource").asText();
                    JsonNode parameters = jsonata ? jsonata(state.get("Arguments"), states(data, null, null, context),
                            context) : template(state.get("Parameters"), data, context);
                    if (worstCaseRetries) {
                        for (JsonNode retrier : state.path("Retry")) {
                            events += 3L * retrier.path("MaxAttempts").asLong(3);
                        }
                    }
                    TaskEnd end = call(state, name, parameters, tasks, calls, now);
                    events += 3 * end.retries();
                    if (end.error() != null) {
                        if (end.catcher() == null) {
                            return new Run(name, end.error().error, end.error().cause, null, events + 1, now, calls,
                                    waits, variables);
                        }
                        ObjectNode errorOutput = JsonNodeFactory.instance.objectNode();
                        errorOutput.put("Error", end.error().error);
                        errorOutput.put("Cause", end.error().cause);
                        if (jsonata) {
                            Map<String, Object> in = states(data, null, errorOutput, context);
                            assignJsonata(end.catcher().get("Assign"), in, context);
                            data = end.catcher().has("Output") ? jsonata(end.catcher().get("Output"), in, context)
                                    : errorOutput;
                        } else {
                            data = place(data, end.catcher().has("ResultPath") ? end.catcher().get("ResultPath")
                                    : null, errorOutput);
                        }
                        name = end.catcher().get("Next").asText();
                        continue;
                    }
                    if (jsonata) {
                        Map<String, Object> in = states(data, end.result(), null, context);
                        assignJsonata(state.get("Assign"), in, context);
                        data = state.has("Output") ? jsonata(state.get("Output"), in, context) : end.result();
                    } else {
                        JsonNode selected = state.has("ResultSelector") ? template(state.get("ResultSelector"),
                                end.result(), context) : end.result();
                        data = place(data, state.has("ResultPath") ? state.get("ResultPath") : null, selected);
                    }
                    if (state.path("End").asBoolean()) {
                        return new Run(name, null, null, data, events + 1, now, calls, waits, variables);
                    }
                    name = next(state);
                }
                default -> throw new AssertionError("state type " + type + " is not simulated");
            }
        }
        throw new AssertionError("no end after " + MAX_TRANSITIONS + " transitions");
    }

    /** Calls a task, retrying as its retriers say; the first catcher that names a final error catches it. */
    private TaskEnd call(JsonNode state, String name, JsonNode parameters, Tasks tasks, List<Call> calls, long now) {
        String resource = state.get("Resource").asText();
        Map<JsonNode, Integer> attempts = new LinkedHashMap<>();
        long retries = 0;
        while (true) {
            calls.add(new Call(name, resource, parameters, now));
            try {
                return new TaskEnd(tasks.call(resource, parameters, now), null, null, retries);
            } catch (TaskError e) {
                JsonNode retrier = firstMatching(state.path("Retry"), e.error);
                int used = retrier == null ? 0 : attempts.merge(retrier, 1, Integer::sum);
                if (retrier != null && used <= retrier.path("MaxAttempts").asInt(3)) {
                    retries++;
                    continue;
                }
                return new TaskEnd(null, firstMatching(state.path("Catch"), e.error), e, retries);
            }
        }
    }

    /** The reserved {@code $states} variable of a JSONata state: its input, a task's result or error output. */
    private static Map<String, Object> states(JsonNode input, JsonNode result, JsonNode errorOutput, Context context) {
        Map<String, Object> states = new LinkedHashMap<>();
        states.put("input", JSON.convertValue(input, Object.class));
        if (result != null) {
            states.put("result", JSON.convertValue(result, Object.class));
        }
        if (errorOutput != null) {
            states.put("errorOutput", JSON.convertValue(errorOutput, Object.class));
        }
        states.put("context", Map.of("Execution", Map.of("Name", context.executionName)));
        return states;
    }

    /** A JSONata state's assignments, all evaluated with the variables as they were when the state was entered. */
    private void assignJsonata(JsonNode assign, Map<String, Object> states, Context context) {
        if (assign == null) {
            return;
        }
        Map<String, JsonNode> values = new LinkedHashMap<>();
        assign.fields().forEachRemaining(e -> values.put(e.getKey(), jsonata(e.getValue(), states, context)));
        context.variables.putAll(values);
    }

    /**
     * Evaluates a JSONata state's template ({@link JsonataTemplates}) with the variables and {@code $states}; undefined
     * fields are dropped.
     */
    private JsonNode jsonata(JsonNode template, Map<String, Object> states, Context context) {
        if (template == null) {
            return null;
        }
        Map<String, Object> variables = new LinkedHashMap<>();
        context.variables.forEach((key, value) -> variables.put(key, JSON.convertValue(value, Object.class)));
        Object value = templates.evaluate(JSON.convertValue(template, Object.class), states, variables);
        return value == null ? null : JSON.valueToTree(value);
    }

    private static String next(JsonNode state) {
        return state.get("Next").asText();
    }

    private static JsonNode firstMatching(JsonNode handlers, String error) {
        for (JsonNode handler : handlers) {
            for (JsonNode name : handler.get("ErrorEquals")) {
                String n = name.asText();
                if (n.equals(error) || n.equals("States.ALL")
                        || (n.equals("States.TaskFailed") && !error.equals("States.Timeout"))) {
                    return handler;
                }
            }
        }
        return null;
    }

    private void assign(JsonNode assign, JsonNode data, Context context) {
        if (assign == null) {
            return;
        }
        Map<String, JsonNode> values = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = assign.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().endsWith(".$")) {
                values.put(e.getKey().substring(0, e.getKey().length() - 2), evaluate(e.getValue().asText(), data,
                        context));
            } else {
                values.put(e.getKey(), e.getValue());
            }
        }
        context.variables.putAll(values);
    }

    private boolean matches(JsonNode rule, JsonNode data, Context context) {
        if (rule.has("And")) {
            for (JsonNode r : rule.get("And")) {
                if (!matches(r, data, context)) {
                    return false;
                }
            }
            return true;
        }
        if (rule.has("Or")) {
            for (JsonNode r : rule.get("Or")) {
                if (matches(r, data, context)) {
                    return true;
                }
            }
            return false;
        }
        if (rule.has("Not")) {
            return !matches(rule.get("Not"), data, context);
        }
        String path = rule.get("Variable").asText();
        JsonNode value = lookup(path, data, context);
        for (Iterator<Map.Entry<String, JsonNode>> it = rule.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode operand = e.getValue();
            switch (e.getKey()) {
                case "Variable", "Next", "Assign", "Comment" -> {
                }
                case "IsPresent" -> {
                    return (value != null) == operand.asBoolean();
                }
                case "BooleanEquals" -> {
                    return require(value, path).asBoolean() == operand.asBoolean()
                            && require(value, path).isBoolean();
                }
                case "IsString" -> {
                    return require(value, path).isTextual() == operand.asBoolean();
                }
                case "StringEquals" -> {
                    return require(value, path).isTextual() && value.asText().equals(operand.asText());
                }
                case "StringMatches" -> {
                    String glob = java.util.regex.Pattern.quote(operand.asText()).replace("*", "\\E.*\\Q");
                    return require(value, path).isTextual() && value.asText().matches(glob);
                }
                case "NumericEquals" -> {
                    return number(value, path) == operand.asDouble();
                }
                case "NumericLessThan" -> {
                    return number(value, path) < operand.asDouble();
                }
                case "NumericGreaterThan" -> {
                    return number(value, path) > operand.asDouble();
                }
                case "NumericGreaterThanEquals" -> {
                    return number(value, path) >= operand.asDouble();
                }
                case "NumericGreaterThanEqualsPath" -> {
                    return number(value, path) >= number(lookup(operand.asText(), data, context), operand.asText());
                }
                default -> throw new AssertionError("choice operator " + e.getKey() + " is not simulated");
            }
        }
        throw new AssertionError("no operator in " + rule);
    }

    private static JsonNode require(JsonNode value, String path) {
        if (value == null) {
            throw new AssertionError("States.Runtime: " + path + " is not present");
        }
        return value;
    }

    private static double number(JsonNode value, String path) {
        if (!require(value, path).isNumber()) {
            throw new AssertionError("States.Runtime: " + path + " is not a number: " + value);
        }
        return value.asDouble();
    }

    /** A payload template: keys ending in {@code .$} are evaluated, the rest copied. */
    private JsonNode template(JsonNode template, JsonNode data, Context context) {
        if (template == null) {
            return data;
        }
        if (template.isArray()) {
            List<JsonNode> items = new ArrayList<>();
            template.forEach(t -> items.add(template(t, data, context)));
            return JSON.valueToTree(items);
        }
        if (!template.isObject()) {
            return template;
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = template.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().endsWith(".$")) {
                out.set(e.getKey().substring(0, e.getKey().length() - 2),
                        evaluate(e.getValue().asText(), data, context));
            } else {
                out.set(e.getKey(), template(e.getValue(), data, context));
            }
        }
        return out;
    }

    private static JsonNode place(JsonNode data, JsonNode resultPath, JsonNode result) {
        if (resultPath == null || resultPath.asText().equals("$")) {
            return result;
        }
        if (resultPath.isNull()) {
            return data;
        }
        String path = resultPath.asText();
        if (!path.startsWith("$.") || !data.isObject()) {
            throw new AssertionError("ResultPath " + path + " is not simulated");
        }
        ObjectNode copy = data.deepCopy();
        String[] fields = path.substring(2).split("\\.");
        ObjectNode parent = copy;
        for (int i = 0; i < fields.length - 1; i++) {
            JsonNode child = parent.get(fields[i]);
            parent = child instanceof ObjectNode object ? object : parent.putObject(fields[i]);
        }
        parent.set(fields[fields.length - 1], result);
        return copy;
    }

    /** A path ({@code $.a.b}, {@code $$.Execution.Name}, {@code $var}) or an intrinsic function call. */
    private JsonNode evaluate(String expression, JsonNode data, Context context) {
        String e = expression.trim();
        if (e.startsWith("States.")) {
            String function = e.substring(0, e.indexOf('('));
            List<String> arguments = arguments(e.substring(e.indexOf('(') + 1, e.lastIndexOf(')')));
            return switch (function) {
                case "States.MathAdd" -> JSON.valueToTree(evaluate(arguments.get(0), data, context).asLong()
                        + evaluate(arguments.get(1), data, context).asLong());
                case "States.UUID" -> JSON.valueToTree("00000000-0000-4000-8000-000000000000");
                case "States.Format" -> JSON.valueToTree(format(arguments, data, context));
                default -> throw new AssertionError("intrinsic " + function + " is not simulated");
            };
        }
        if (e.matches("-?\\d+")) {
            return JSON.valueToTree(Long.parseLong(e));
        }
        JsonNode value = lookup(e, data, context);
        if (value == null) {
            throw new AssertionError("States.Runtime: " + e + " is not present");
        }
        return value;
    }

    private String format(List<String> arguments, JsonNode data, Context context) {
        String template = unquote(arguments.get(0));
        StringBuilder out = new StringBuilder();
        int argument = 1;
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            if (c == '\\') {
                out.append(template.charAt(++i));
            } else if (c == '{' && template.charAt(i + 1) == '}') {
                out.append(evaluate(arguments.get(argument++), data, context).asText());
                i++;
            } else if (c == '{' || c == '}' || c == '\'') {
                throw new AssertionError("unescaped " + c + " in States.Format template " + template);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String unquote(String literal) {
        if (!literal.startsWith("'") || !literal.endsWith("'")) {
            throw new AssertionError("not a string literal: " + literal);
        }
        return literal.substring(1, literal.length() - 1);
    }

    /** Splits top-level arguments, respecting nested calls and quoted strings with backslash escapes. */
    private static List<String> arguments(String text) {
        List<String> arguments = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '\'') {
                    quoted = false;
                }
            } else if (c == '\'') {
                quoted = true;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                arguments.add(text.substring(start, i).trim());
                start = i + 1;
            }
        }
        if (!text.isBlank()) {
            arguments.add(text.substring(start).trim());
        }
        return arguments;
    }

    private static JsonNode lookup(String path, JsonNode data, Context context) {
        if (path.equals("$$.Execution.Name")) {
            return JSON.valueToTree(context.executionName);
        }
        if (path.equals("$")) {
            return data;
        }
        if (path.startsWith("$.")) {
            JsonNode node = data;
            for (String field : path.substring(2).split("\\.")) {
                node = node == null ? null : node.get(field);
            }
            return node;
        }
        if (path.startsWith("$") && !path.startsWith("$$")) {
            JsonNode value = context.variables.get(path.substring(1));
            if (value == null) {
                throw new AssertionError("States.Runtime: variable " + path + " is read before it is assigned");
            }
            return value;
        }
        throw new AssertionError("path " + path + " is not simulated");
    }

    private record Context(String executionName, Map<String, JsonNode> variables) {
    }
}
