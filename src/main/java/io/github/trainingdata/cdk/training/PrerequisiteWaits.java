package io.github.trainingdata.cdk.training;

import static io.github.trainingdata.cdk.training.AslStates.and;
import static io.github.trainingdata.cdk.training.AslStates.choice;
import static io.github.trainingdata.cdk.training.AslStates.fail;
import static io.github.trainingdata.cdk.training.AslStates.or;
import static io.github.trainingdata.cdk.training.AslStates.rule;
import static io.github.trainingdata.cdk.training.AslStates.transientErrors;
import static io.github.trainingdata.cdk.training.AslStates.variable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The waits a training execution makes before it trains: for training jobs and Step Functions executions (such as
 * a cache preload's) to succeed. Each is polled with a doubling interval, so that even a year of waiting stays far
 * below the 25,000-event history limit; throttling, server errors and timeouts of a poll are retried.
 */
final class PrerequisiteWaits {
    /** First poll interval of a prerequisite wait. */
    private static final int FIRST_POLL_SECONDS = 60;
    /** The interval doubles each time the time waited reaches this many intervals. */
    private static final int POLLS_PER_INTERVAL = 20;
    /**
     * What a describe of a missing job raises: the API reference names ResourceNotFound, the service answers
     * ValidationException ("Requested resource not found"); neither is ever worth retrying.
     */
    private static final List<String> JOB_NOT_FOUND = List.of("SageMaker.ResourceNotFoundException",
            "SageMaker.ValidationException");
    private static final String WAITED = "prerequisiteWaitedSeconds";
    private static final String POLL = "prerequisitePollSeconds";
    private static final String BACKOFF_AT = "prerequisiteBackoffAtSeconds";
    private static final String START_WAITING = "StartWaitingForPrerequisites";
    private static final String DESCRIBE = "DescribePrerequisite";
    private static final String FIND = "FindPrerequisite";
    private static final String EXECUTION_ARN = "ExecutionArn";
    private static final String PARAMETER_NOT_FOUND = "Ssm.ParameterNotFoundException";

    private final String partition;
    private final List<Prerequisite> prerequisites = new ArrayList<>();

    /** @param partition the stack's partition, for the SDK-integration ARNs */
    PrerequisiteWaits(String partition) {
        this.partition = partition;
    }

    /** Adds a wait until training job {@code jobName} has completed, for at most {@code maxWaitSeconds}. */
    void trainingJob(String jobName, long maxWaitSeconds) {
        prerequisites.add(new Prerequisite(PrerequisiteKind.TRAINING_JOB, jobName, null, maxWaitSeconds));
    }

    /** Adds a wait until execution {@code executionArn} has succeeded, for at most {@code maxWaitSeconds}. */
    void execution(String executionArn, long maxWaitSeconds) {
        prerequisites.add(new Prerequisite(PrerequisiteKind.EXECUTION, executionArn, null, maxWaitSeconds));
    }

    /**
     * Adds a wait until the execution whose ARN the SSM parameter {@code parameterName} holds when the wait starts has
     * succeeded, for at most {@code maxWaitSeconds}.
     */
    void currentExecution(String parameterName, long maxWaitSeconds) {
        prerequisites.add(new Prerequisite(PrerequisiteKind.EXECUTION, null, parameterName, maxWaitSeconds));
    }

    /**
     * Adds the waiting states to {@code states}, going on to {@code next} once every prerequisite has succeeded.
     *
     * @return the first waiting state, or {@code next} when there is nothing to wait for
     */
    String addStates(Map<String, Object> states, String next) {
        if (prerequisites.isEmpty()) {
            return next;
        }
        states.put(START_WAITING, startWaiting(firstState(0)));
        for (int i = 0; i < prerequisites.size(); i++) {
            String after = i + 1 < prerequisites.size() ? firstState(i + 1) : next;
            Prerequisite prerequisite = prerequisites.get(i);
            if (prerequisite.parameterName() != null) {
                states.put(FIND + i, findExecution(i, prerequisite.parameterName()));
            }
            states.putAll(waitStates(i, prerequisite, after));
        }
        return START_WAITING;
    }

    /** The first state of prerequisite {@code index}: reading its parameter, or describing it. */
    private String firstState(int index) {
        return (prerequisites.get(index).parameterName() != null ? FIND : DESCRIBE) + index;
    }

    /**
     * Reads the ARN of the execution to wait for from the SSM parameter, once, when waiting starts: the execution
     * that is current then (a stack that warms its cache again writes the new execution's ARN there). A missing
     * parameter fails at once; throttling and other errors of the call are retried.
     */
    private Map<String, Object> findExecution(int index, String parameterName) {
        Map<String, Object> missing = new LinkedHashMap<>();
        missing.put("ErrorEquals", List.of(PARAMETER_NOT_FOUND));
        missing.put("Next", "PrerequisiteParameterNotFound" + index);
        Map<String, Object> find = new LinkedHashMap<>();
        find.put("Type", "Task");
        find.put("Comment", "Look up the execution to wait for: the one current when waiting starts");
        find.put("Resource", "arn:" + partition + ":states:::aws-sdk:ssm:getParameter");
        find.put("Parameters", Map.of("Name", parameterName));
        find.put("ResultSelector", Map.of(EXECUTION_ARN + ".$", "$.Parameter.Value"));
        find.put("ResultPath", "$.prerequisite" + index + "Execution");
        find.put("TimeoutSeconds", AslStates.CALL_TIMEOUT_SECONDS);
        Map<String, Object> noRetry = new LinkedHashMap<>();
        noRetry.put("ErrorEquals", List.of(PARAMETER_NOT_FOUND));
        noRetry.put("MaxAttempts", 0);
        find.put("Retry", List.of(noRetry, transientErrors()));
        find.put("Catch", List.of(missing));
        find.put("Next", DESCRIBE + index);
        return find;
    }

    /** Sets the poll interval, its next doubling point and the time waited, shared by all prerequisites. */
    private static Map<String, Object> startWaiting(String first) {
        Map<String, Object> assign = new LinkedHashMap<>();
        assign.put(WAITED, 0);
        assign.put(POLL, FIRST_POLL_SECONDS);
        assign.put(BACKOFF_AT, FIRST_POLL_SECONDS * POLLS_PER_INTERVAL);
        Map<String, Object> pass = new LinkedHashMap<>();
        pass.put("Type", "Pass");
        pass.put("Comment", "Poll every " + FIRST_POLL_SECONDS + " s; double the interval each time the time waited "
                + "reaches " + POLLS_PER_INTERVAL + " intervals");
        pass.put("Assign", assign);
        pass.put("Next", first);
        return pass;
    }

    /**
     * Describe the job; Completed goes on, InProgress/Stopping waits (with backoff) and looks again until
     * {@code maxWait} has been waited, anything else fails. Transient errors of the describe call are retried;
     * a job that does not exist fails at once.
     */
    private Map<String, Object> waitStates(int index, Prerequisite prerequisite, String next) {
        String describe = DESCRIBE + index;
        String check = "CheckPrerequisite" + index;
        String wait = "WaitForPrerequisite" + index;
        String failed = "PrerequisiteFailed" + index;
        String timedOut = "PrerequisiteTimedOut" + index;
        String notFound = "PrerequisiteNotFound" + index;
        String status = "prerequisite" + index + ".Status";

        PrerequisiteKind kind = prerequisite.kind();
        Map<String, Object> notFoundRetry = new LinkedHashMap<>();
        notFoundRetry.put("ErrorEquals", kind.notFoundErrors);
        if (kind.notFoundGoesOn) {
            // DescribeExecution is eventually consistent: look again a few times before trusting "gone".
            notFoundRetry.put("IntervalSeconds", 5);
            notFoundRetry.put("MaxAttempts", 3);
            notFoundRetry.put("BackoffRate", 2);
        } else {
            notFoundRetry.put("MaxAttempts", 0);
        }
        Map<String, Object> notFoundCatch = new LinkedHashMap<>();
        notFoundCatch.put("ErrorEquals", kind.notFoundErrors);
        notFoundCatch.put("ResultPath", "$.prerequisite" + index + ".NotFound"); // keep the execution's input
        notFoundCatch.put("Next", kind.notFoundGoesOn ? next : notFound);
        Map<String, Object> describeState = new LinkedHashMap<>();
        describeState.put("Type", "Task");
        describeState.put("Resource", "arn:" + partition + ":states:::aws-sdk:" + kind.describeAction);
        describeState.put("Parameters", prerequisite.parameterName() != null
                ? Map.of(kind.nameParameter + ".$", "$.prerequisite" + index + "Execution." + EXECUTION_ARN)
                : Map.of(kind.nameParameter, prerequisite.name()));
        describeState.put("ResultSelector", Map.of("Status.$", "$." + kind.statusMember));
        describeState.put("ResultPath", "$.prerequisite" + index);
        describeState.put("TimeoutSeconds", AslStates.CALL_TIMEOUT_SECONDS);
        describeState.put("Retry", List.of(notFoundRetry, transientErrors()));
        describeState.put("Catch", List.of(notFoundCatch));
        describeState.put("Next", check);

        Map<String, Object> running = or(kind.runningStatuses.stream()
                .map(value -> variable(status, "StringEquals", value)).toList());
        Map<String, Object> waitedEnough = new LinkedHashMap<>();
        waitedEnough.put("Variable", "$" + WAITED);
        waitedEnough.put("NumericGreaterThanEquals", prerequisite.maxWaitSeconds());
        Map<String, Object> backoffDue = new LinkedHashMap<>();
        backoffDue.put("Variable", "$" + WAITED);
        backoffDue.put("NumericGreaterThanEqualsPath", "$" + BACKOFF_AT);
        // The time waited is assigned first: it adds the doubled interval computed from the current one.
        Map<String, Object> doubled = new LinkedHashMap<>();
        doubled.put(WAITED + ".$", "States.MathAdd($" + WAITED + ", States.MathAdd($" + POLL + ", $" + POLL + "))");
        doubled.put(POLL + ".$", "States.MathAdd($" + POLL + ", $" + POLL + ")");
        doubled.put(BACKOFF_AT + ".$", "States.MathAdd($" + BACKOFF_AT + ", $" + BACKOFF_AT + ")");
        Map<String, Object> backoff = rule(and(List.of(running, backoffDue)), wait);
        backoff.put("Assign", doubled);
        Map<String, Object> poll = rule(running, wait);
        poll.put("Assign", Map.of(WAITED + ".$", "States.MathAdd($" + WAITED + ", $" + POLL + ")"));
        Map<String, Object> checkState = choice(null, List.of(
                rule(variable(status, "StringEquals", kind.successStatus), next),
                rule(and(List.of(running, waitedEnough)), timedOut),
                backoff,
                poll), failed);

        Map<String, Object> waitState = new LinkedHashMap<>();
        waitState.put("Type", "Wait");
        waitState.put("SecondsPath", "$" + POLL);
        waitState.put("Next", describe);

        Map<String, Object> states = new LinkedHashMap<>();
        states.put(describe, describeState);
        states.put(check, checkState);
        states.put(wait, waitState);
        states.put(failed, fail(kind.failedError, kind.failedCause));
        states.put(timedOut, fail(kind.timedOutError, kind.what + " was still running after "
                + prerequisite.maxWaitSeconds() + " seconds of waiting"));
        if (!kind.notFoundGoesOn) {
            states.put(notFound, fail("PrerequisiteJobNotFound", kind.what + " does not exist, or its name is not a "
                    + "valid training job name"));
        }
        if (prerequisite.parameterName() != null) {
            states.put("PrerequisiteParameterNotFound" + index, fail("PrerequisiteParameterNotFound", "The SSM "
                    + "parameter that names the execution to wait for does not exist: deploy the stack that owns it "
                    + "(for example the data stack with the cache preload) first"));
        }
        return states;
    }

    /** What training can wait for, and how each is described and judged. */
    private enum PrerequisiteKind {
        /** A SageMaker training job; one that does not exist fails the wait. */
        TRAINING_JOB("sagemaker:describeTrainingJob", "TrainingJobName", "TrainingJobStatus", "Completed",
                List.of("InProgress", "Stopping"), JOB_NOT_FOUND, false, "PrerequisiteJobNotCompleted",
                "PrerequisiteJobTimedOut", "A training job this one waits for (for example the cache preload)"),
        /**
         * A Step Functions execution, such as a cache preload's (SUCCEEDED: warmed, or nothing to warm). One whose
         * record is gone (Step Functions keeps them 90 days after they end) is over: training goes on.
         */
        EXECUTION("sfn:describeExecution", "ExecutionArn", "Status", "SUCCEEDED", List.of("RUNNING", "PENDING_REDRIVE"),
                List.of("Sfn.ExecutionDoesNotExistException"), true, "PreloadFailed", "PreloadTimedOut",
                "An execution this job waits for (the cache preload)");

        private final String describeAction;
        private final String nameParameter;
        private final String statusMember;
        private final String successStatus;
        private final List<String> runningStatuses;
        private final List<String> notFoundErrors;
        private final boolean notFoundGoesOn;
        private final String failedError;
        private final String timedOutError;
        private final String what;
        private final String failedCause;

        PrerequisiteKind(String describeAction, String nameParameter, String statusMember, String successStatus,
                List<String> runningStatuses, List<String> notFoundErrors, boolean notFoundGoesOn, String failedError,
                String timedOutError, String what) {
            this.describeAction = describeAction;
            this.nameParameter = nameParameter;
            this.statusMember = statusMember;
            this.successStatus = successStatus;
            this.runningStatuses = runningStatuses;
            this.notFoundErrors = notFoundErrors;
            this.notFoundGoesOn = notFoundGoesOn;
            this.failedError = failedError;
            this.timedOutError = timedOutError;
            this.what = what;
            this.failedCause = what + (notFoundGoesOn ? " failed, timed out or was aborted; see its execution in Step "
                    + "Functions" : " failed or was stopped; see its FailureReason in SageMaker");
        }
    }

    /** One prerequisite: named directly ({@code name}), or by the SSM parameter that holds its name when waiting starts. */
    private record Prerequisite(PrerequisiteKind kind, String name, String parameterName, long maxWaitSeconds) {
    }
}
