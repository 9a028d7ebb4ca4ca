package io.github.trainingdata.cdk;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs a rendered JSONata Amazon States Language document as Step Functions does, on a simulated clock, with
 * scripted task outcomes: enough of the language for the preload state machine (Task with Arguments, Output,
 * Assign, Retry and Catch; Map with an INLINE processor; Choice with Condition and per-rule Assign; Wait with a
 * number or an expression; Pass; Succeed; Fail with expressions; the execution's TimeoutSeconds). Expressions
 * ({@code "{% ... %}"}) are evaluated with a Java JSONata ({@code com.dashjoin:jsonata}) and the reserved
 * {@code $states} variable ({@code input}, {@code result}, {@code errorOutput}, {@code context}). Anything else fails
 * the test, and so does an expression that cannot be evaluated: the state machine is broken, not the scenario.
 *
 * <p>As in Step Functions (guide, "Passing data between states with variables" and "Transforming data with
 * JSONata"): a state's Output and Assign see the variables as they were when the state was entered, its assignments
 * are visible from the next state on; a Map iteration sees the outer variables and assigns nothing outside;
 * undefined fields of an evaluated object are dropped. Retriers and catchers are the first whose {@code ErrorEquals}
 * names the error ({@code States.ALL} any, {@code States.TaskFailed} any but {@code States.Timeout});
 * {@code MaxAttempts} 0 never retries; a retry waits {@code IntervalSeconds × BackoffRate^n}, at most
 * {@code MaxDelaySeconds} (full jitter would wait a random part of that: the simulator takes all of it, the
 * slowest case).
 *
 * <p>History events are counted as for the JSONPath {@code training.AslSimulator}: ExecutionStarted; 5 per task
 * (entered, scheduled, started, succeeded or failed, exited) and 3 more per retry; 2 per Choice, Wait, Pass and
 * Succeed; a Map 4 plus 2 per iteration and its iteration's own; a Fail state 2 (entered, ExecutionFailed).
 */
public final class JsonataAslSimulator {
    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final int MAX_TRANSITIONS = 100_000;

    /** What a scripted task call does: returns a result or raises an error, after taking some simulated time. */
    public record Outcome(Object result, String error, String cause, Duration took) {
        /** @return a result, at once */
        public static Outcome result(Object result) {
            return new Outcome(result, null, null, Duration.ZERO);
        }

        /** @return a result after {@code took} */
        public static Outcome result(Object result, Duration took) {
            return new Outcome(result, null, null, took);
        }

        /** @return an error, at once */
        public static Outcome error(String error, String cause) {
            return new Outcome(null, error, cause, Duration.ZERO);
        }

        /** @return an error after {@code took} */
        public static Outcome error(String error, String cause, Duration took) {
            return new Outcome(null, error, cause, took);
        }
    }

    /** Answers the task calls. */
    @FunctionalInterface
    public interface Tasks {
        /**
         * @param call the call: the state, the resource, the evaluated arguments (plain Java values) and the time
         * @return what the call does
         */
        Outcome call(Call call);
    }

    /** One task call as the state machine made it. */
    public record Call(String state, String resource, Object arguments, Instant at) {
        /** @return the arguments as a map */
        @SuppressWarnings("unchecked")
        public Map<String, Object> argumentMap() {
            return (Map<String, Object>) arguments;
        }
    }

    /**
     * How an execution ended.
     *
     * @param status    SUCCEEDED, FAILED or TIMED_OUT
     * @param endState  the state it ended in
     * @param output    its output (SUCCEEDED only)
     * @param error     its error (FAILED, TIMED_OUT)
     * @param cause     its cause (FAILED)
     * @param calls     every task call, in order (retries included)
     * @param waits     the seconds of every Wait state passed, in order
     * @param events    the execution-history events it added
     * @param elapsed   the simulated time from start to end
     * @param variables the variables at the end
     */
    public record Run(String status, String endState, Object output, String error, String cause, List<Call> calls,
            List<Long> waits, long events, Duration elapsed, Map<String, Object> variables) {
        /** @return the calls to a resource ending in {@code suffix} (e.g. {@code createDataRepositoryTask}) */
        public List<Call> calls(String suffix) {
            return calls.stream().filter(c -> c.resource().endsWith(suffix)).toList();
        }
    }

    private final Map<String, Object> definition;
    private final JsonataTemplates templates = new JsonataTemplates();

    /** @param definition the state machine's definition, as plain Java values ({@link Json#value}) */
    public JsonataAslSimulator(Map<String, Object> definition) {
        if (!"JSONata".equals(definition.get("QueryLanguage"))) {
            throw new AssertionError("not a JSONata state machine: " + definition.get("QueryLanguage"));
        }
        this.definition = definition;
    }

    /**
     * Runs one execution.
     *
     * @param executionName its name
     * @param input         its input, as plain Java values
     * @param start         when it starts
     * @param tasks         the task outcomes
     * @return how it ended
     */
    public Run run(String executionName, Object input, Instant start, Tasks tasks) {
        Execution execution = new Execution(executionName, input, start, tasks);
        return execution.run();
    }

    /** The state an execution is in. */
    private final class Execution {
        private final String name;
        private final Object input;
        private final Instant start;
        private final Tasks tasks;
        private final List<Call> calls = new ArrayList<>();
        private final List<Long> waits = new ArrayList<>();
        private final Instant deadline;
        private Instant now;
        private long events = 1;

        Execution(String name, Object input, Instant start, Tasks tasks) {
            this.name = name;
            this.input = input;
            this.start = start;
            this.now = start;
            this.tasks = tasks;
            Object timeout = definition.get("TimeoutSeconds");
            this.deadline = timeout == null ? Instant.MAX : start.plusSeconds(((Number) timeout).longValue());
        }

        Run run() {
            Map<String, Object> variables = new TreeMap<>();
            Ending ending = machine(definition, input, variables);
            Duration elapsed = Duration.between(start, now);
            return new Run(ending.status, ending.state, ending.output, ending.error, ending.cause, calls, waits,
                    events, elapsed, variables);
        }

        /** Runs a (sub-)machine's states from StartAt; {@code variables} are its scope. */
        @SuppressWarnings("unchecked")
        private Ending machine(Map<String, Object> machine, Object stateInput, Map<String, Object> variables) {
            Map<String, Object> states = (Map<String, Object>) machine.get("States");
            String current = (String) machine.get("StartAt");
            Object data = stateInput;
            for (int transition = 0; transition < MAX_TRANSITIONS; transition++) {
                if (now.isAfter(deadline)) {
                    return new Ending("TIMED_OUT", current, null, "States.Timeout", null);
                }
                Map<String, Object> state = (Map<String, Object>) states.get(current);
                if (state == null) {
                    throw new AssertionError("no state " + current);
                }
                Step step = state(current, state, data, variables);
                if (step.ending != null) {
                    return step.ending;
                }
                current = step.next;
                data = step.output;
            }
            throw new AssertionError("no end after " + MAX_TRANSITIONS + " transitions");
        }

        @SuppressWarnings("unchecked")
        private Step state(String stateName, Map<String, Object> state, Object stateInput, Map<String, Object> variables) {
            Map<String, Object> context = context(stateName);
            String type = (String) state.get("Type");
            switch (type) {
                case "Pass", "Succeed" -> {
                    events += 2;
                    Object output = state.containsKey("Output")
                            ? template(state.get("Output"), states(stateInput, null, null, context), variables)
                            : stateInput;
                    assign(state.get("Assign"), states(stateInput, null, null, context), variables);
                    return type.equals("Succeed") ? Step.end(new Ending("SUCCEEDED", stateName, output, null, null))
                            : Step.next((String) state.get("Next"), output);
                }
                case "Fail" -> {
                    events += 2;
                    Map<String, Object> bound = states(stateInput, null, null, context);
                    return Step.end(new Ending("FAILED", stateName, null, text(state.get("Error"), bound, variables),
                            text(state.get("Cause"), bound, variables)));
                }
                case "Wait" -> {
                    events += 2;
                    Map<String, Object> bound = states(stateInput, null, null, context);
                    Object seconds = template(state.get("Seconds"), bound, variables);
                    if (!(seconds instanceof Number number) || number.doubleValue() != Math.rint(number.doubleValue())
                            || number.longValue() < 0 || number.longValue() > 99_999_999L) {
                        throw new AssertionError(stateName + ": Seconds must be an integer from 0 to 99999999, got "
                                + seconds);
                    }
                    waits.add(number.longValue());
                    now = now.plusSeconds(number.longValue());
                    Object output = state.containsKey("Output") ? template(state.get("Output"), bound, variables)
                            : stateInput;
                    assign(state.get("Assign"), bound, variables);
                    return Step.next((String) state.get("Next"), output);
                }
                case "Choice" -> {
                    events += 2;
                    Map<String, Object> bound = states(stateInput, null, null, context);
                    for (Object choice : (List<Object>) state.get("Choices")) {
                        Map<String, Object> rule = (Map<String, Object>) choice;
                        Object matched = template(rule.get("Condition"), bound, variables);
                        if (!(matched instanceof Boolean)) {
                            throw new AssertionError(stateName + ": a Condition must evaluate to a boolean, got "
                                    + matched + " from " + rule.get("Condition"));
                        }
                        if ((Boolean) matched) {
                            Object output = rule.containsKey("Output") ? template(rule.get("Output"), bound, variables)
                                    : stateInput;
                            assign(rule.get("Assign"), bound, variables);
                            return Step.next((String) rule.get("Next"), output);
                        }
                    }
                    if (!state.containsKey("Default")) {
                        throw new AssertionError(stateName + ": States.NoChoiceMatched");
                    }
                    assign(state.get("Assign"), bound, variables);
                    return Step.next((String) state.get("Default"), stateInput);
                }
                case "Task" -> {
                    return task(stateName, state, stateInput, variables, context);
                }
                case "Map" -> {
                    return map(stateName, state, stateInput, variables, context);
                }
                default -> throw new AssertionError("state type " + type + " is not simulated");
            }
        }

        @SuppressWarnings("unchecked")
        private Step map(String stateName, Map<String, Object> state, Object stateInput, Map<String, Object> variables,
                Map<String, Object> context) {
            events += 4;
            Map<String, Object> processor = (Map<String, Object>) state.get("ItemProcessor");
            Object mode = ((Map<String, Object>) processor.get("ProcessorConfig")).get("Mode");
            if (!"INLINE".equals(mode)) {
                throw new AssertionError(stateName + ": Map mode " + mode + " is not simulated");
            }
            Object items = template(state.get("Items"), states(stateInput, null, null, context), variables);
            if (!(items instanceof List<?> list)) {
                throw new AssertionError(stateName + ": Items must evaluate to an array, got " + items);
            }
            List<Object> results = new ArrayList<>();
            for (Object item : list) {
                events += 2;
                Ending iteration = machine(processor, item, new TreeMap<>(variables));
                if (!iteration.status.equals("SUCCEEDED")) {
                    return Step.end(iteration);
                }
                results.add(iteration.output);
            }
            return completed(stateName, state, stateInput, results, variables, context);
        }

        @SuppressWarnings("unchecked")
        private Step task(String stateName, Map<String, Object> state, Object stateInput, Map<String, Object> variables,
                Map<String, Object> context) {
            events += 5;
            String resource = (String) state.get("Resource");
            Map<Map<String, Object>, Integer> retried = new LinkedHashMap<>();
            while (true) {
                Object arguments = template(state.get("Arguments"), states(stateInput, null, null, context), variables);
                Call call = new Call(stateName, resource, arguments, now);
                calls.add(call);
                Outcome outcome = tasks.call(call);
                now = now.plus(outcome.took());
                if (outcome.error() == null) {
                    return completed(stateName, state, stateInput, outcome.result(), variables, context);
                }
                Map<String, Object> retrier = matching((List<Object>) state.get("Retry"), outcome.error());
                int count = retrier == null ? 0 : retried.merge(retrier, 1, Integer::sum);
                if (retrier != null && count <= ((Number) retrier.getOrDefault("MaxAttempts", 3)).intValue()) {
                    events += 3;
                    double delay = ((Number) retrier.getOrDefault("IntervalSeconds", 1)).doubleValue()
                            * Math.pow(((Number) retrier.getOrDefault("BackoffRate", 2.0)).doubleValue(), count - 1);
                    if (retrier.get("MaxDelaySeconds") instanceof Number max) {
                        delay = Math.min(delay, max.doubleValue());
                    }
                    now = now.plusMillis(Math.round(delay * 1000));
                    continue;
                }
                Map<String, Object> catcher = matching((List<Object>) state.get("Catch"), outcome.error());
                Map<String, Object> errorOutput = new LinkedHashMap<>();
                errorOutput.put("Error", outcome.error());
                errorOutput.put("Cause", outcome.cause());
                if (catcher == null) {
                    return Step.end(new Ending("FAILED", stateName, null, outcome.error(), outcome.cause()));
                }
                Map<String, Object> bound = states(stateInput, null, errorOutput, context);
                Object output = catcher.containsKey("Output") ? template(catcher.get("Output"), bound, variables)
                        : errorOutput;
                assign(catcher.get("Assign"), bound, variables);
                return Step.next((String) catcher.get("Next"), output);
            }
        }

        /** A task or Map that produced a result: Output and Assign, then Next or End. */
        private Step completed(String stateName, Map<String, Object> state, Object stateInput, Object result,
                Map<String, Object> variables, Map<String, Object> context) {
            Map<String, Object> bound = states(stateInput, result, null, context);
            Object output = state.containsKey("Output") ? template(state.get("Output"), bound, variables) : result;
            assign(state.get("Assign"), bound, variables);
            if (Boolean.TRUE.equals(state.get("End"))) {
                return Step.end(new Ending("SUCCEEDED", stateName, output, null, null));
            }
            return Step.next((String) state.get("Next"), output);
        }

        @SuppressWarnings("unchecked")
        private Map<String, Object> matching(List<Object> handlers, String error) {
            if (handlers == null) {
                return null;
            }
            for (Object handler : handlers) {
                for (Object name : (List<Object>) ((Map<String, Object>) handler).get("ErrorEquals")) {
                    if (name.equals(error) || name.equals("States.ALL")
                            || (name.equals("States.TaskFailed") && !error.equals("States.Timeout"))) {
                        return (Map<String, Object>) handler;
                    }
                }
            }
            return null;
        }

        private Map<String, Object> context(String stateName) {
            Map<String, Object> execution = new LinkedHashMap<>();
            execution.put("Id", "arn:aws:states:us-east-1:123456789012:execution:simulated:" + name);
            execution.put("Input", input);
            execution.put("Name", name);
            execution.put("StartTime", TIMESTAMP.format(start));
            Map<String, Object> state = new LinkedHashMap<>();
            state.put("EnteredTime", TIMESTAMP.format(now));
            state.put("Name", stateName);
            Map<String, Object> context = new LinkedHashMap<>();
            context.put("Execution", execution);
            context.put("State", state);
            return context;
        }

        /** The value of the reserved {@code $states} variable. */
        private Map<String, Object> states(Object stateInput, Object result, Object errorOutput,
                Map<String, Object> context) {
            Map<String, Object> states = new LinkedHashMap<>();
            states.put("input", stateInput);
            if (result != null) {
                states.put("result", result);
            }
            if (errorOutput != null) {
                states.put("errorOutput", errorOutput);
            }
            states.put("context", context);
            return states;
        }

        /** Evaluates an Assign block with the variables as they were, then assigns all of it. */
        @SuppressWarnings("unchecked")
        private void assign(Object assign, Map<String, Object> bound, Map<String, Object> variables) {
            if (assign == null) {
                return;
            }
            Object values = template(assign, bound, variables);
            if (!(values instanceof Map<?, ?> map)) {
                throw new AssertionError("Assign must evaluate to an object, got " + values);
            }
            variables.putAll((Map<String, Object>) map);
        }

        private String text(Object field, Map<String, Object> bound, Map<String, Object> variables) {
            Object value = template(field, bound, variables);
            if (value != null && !(value instanceof String)) {
                throw new AssertionError("Error and Cause must be strings, got " + value + " from " + field);
            }
            return (String) value;
        }
    }

    private Object template(Object template, Map<String, Object> states, Map<String, Object> variables) {
        return templates.evaluate(template, states, variables);
    }

    /** A state's outcome: the next state and the output, or how the execution ended. */
    private record Step(String next, Object output, Ending ending) {
        static Step next(String next, Object output) {
            if (next == null) {
                throw new AssertionError("a state without Next or End");
            }
            return new Step(next, output, null);
        }

        static Step end(Ending ending) {
            return new Step(null, null, ending);
        }
    }

    private record Ending(String status, String state, Object output, String error, String cause) {
    }
}
