package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.WildcardFindings;
import io.github.trainingdata.cdk.storage.LogGroups;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.IStableStringProducer;
import software.amazon.awscdk.Lazy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.stepfunctions.DefinitionBody;
import software.amazon.awscdk.services.stepfunctions.LogLevel;
import software.amazon.awscdk.services.stepfunctions.LogOptions;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * The Step Functions state machine of a {@link TrainingJobDefinition}: one
 * {@code sagemaker:createTrainingJob.sync} task that trains under {@code <prefix>-<UUID>}, so every
 * execution is a new job, with logging (ALL) and X-Ray tracing, and exactly the IAM the .sync
 * integration needs. The definition is rendered at synth from the definition's canonical request
 * (aws-cdk-lib's {@code SageMakerCreateTrainingJob} task cannot express file-system channels).
 *
 * <p>Before training, the execution chooses its checkpoint prefix (its own, or an earlier execution's when
 * the input says {@code {"resumeFrom": "<execution name>"}}) and waits for the prerequisite jobs, polling
 * with a doubling interval so that even a year of waiting stays far below the 25,000-event history limit.
 */
final class TrainingStateMachine extends Construct {
    static final String TRAIN_STATE = "Train";
    /** The execution input field that names an earlier execution whose checkpoints to resume from. */
    static final String RESUME_FROM = "resumeFrom";
    /** First poll interval of a prerequisite wait. */
    static final int FIRST_POLL_SECONDS = 60;
    /** The interval doubles each time the time waited reaches this many intervals. */
    static final int POLLS_PER_INTERVAL = 20;
    /** Retries of a describe (or list) call that failed transiently. */
    static final int RETRY_ATTEMPTS = 5;
    private static final int CALL_TIMEOUT_SECONDS = 60;
    /**
     * What a describe of a missing job raises: the API reference names ResourceNotFound, the service answers
     * ValidationException ("Requested resource not found"); neither is ever worth retrying.
     */
    private static final List<String> JOB_NOT_FOUND = List.of("SageMaker.ResourceNotFoundException",
            "SageMaker.ValidationException");
    private static final String CHECKPOINT_RUN = "checkpointRun";
    private static final String CHECKPOINTS_FOUND = "checkpointsToResume";
    private static final String WAITED = "prerequisiteWaitedSeconds";
    private static final String POLL = "prerequisitePollSeconds";
    private static final String BACKOFF_AT = "prerequisiteBackoffAtSeconds";
    private static final String REJECT_RESUME = "RejectResume";
    private static final String RESUME_WITHOUT_CHECKPOINTS = "ResumeWithoutCheckpoints";
    private static final String CHOOSE_CHECKPOINTS = "ChooseCheckpoints";
    private static final String FIND_CHECKPOINTS = "FindCheckpointsToResume";
    private static final String CHECK_CHECKPOINTS = "CheckCheckpointsToResume";
    private static final String INVALID_RESUME_FROM = "InvalidResumeFrom";
    private static final String NO_CHECKPOINTS_TO_RESUME = "NoCheckpointsToResume";
    private static final String START_WAITING = "StartWaitingForPrerequisites";
    private static final String DESCRIBE = "DescribePrerequisite";

    private final TrainingJobDefinition definition;
    private final StateMachine stateMachine;
    private final List<Prerequisite> prerequisites = new ArrayList<>();

    TrainingStateMachine(Construct scope, String id, TrainingJobDefinition definition) {
        super(scope, id);
        this.definition = definition;
        Stack stack = Stack.of(this);
        LogGroup logs = LogGroups.create(this, "Logs", definition.getDataBucket().getEncryptionKey());
        this.stateMachine = StateMachine.Builder.create(this, "Resource")
                .definitionBody(DefinitionBody.fromString(
                        Lazy.string((IStableStringProducer) () -> stack.toJsonString(definitionJson()))))
                .logs(LogOptions.builder().destination(logs).level(LogLevel.ALL).includeExecutionData(true).build())
                .tracingEnabled(true)
                .build();

        List<String> jobs = arnNames(definition.getJobNamePrefix() + "-*").stream()
                .map(name -> stack.formatArn(ArnComponents.builder().service("sagemaker").resource("training-job")
                        .resourceName(name).arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build()))
                .toList();
        List<String> jobActions = new ArrayList<>(List.of("sagemaker:CreateTrainingJob",
                "sagemaker:DescribeTrainingJob", "sagemaker:StopTrainingJob", "sagemaker:ListTags"));
        if (definition.props().getTags() != null && !definition.props().getTags().isEmpty()) {
            jobActions.add("sagemaker:AddTags");
        }
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create().actions(jobActions).resources(jobs).build());
        SyncTrainingPermissions.grant(stateMachine, definition.getRole());
        if (checkpointPrefix() != null) {
            // Only to check, before resuming, that the earlier execution left checkpoints.
            stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                    .actions(List.of("s3:ListBucket"))
                    .resources(List.of(definition.getDataBucket().getBucket().getBucketArn()))
                    .conditions(Map.of("StringLike", Map.of("s3:prefix", List.of(checkpointPrefix() + "/*"))))
                    .build());
        }
        WildcardFindings findings = new WildcardFindings(stateMachine.getRole());
        findings.add(jobs, "Each execution creates one job named '" + definition.getJobNamePrefix()
                + "-<UUID>'; the state machine may manage only jobs with that prefix.");
        findings.add(List.of("*"), "Added by aws-cdk-lib for X-Ray trace upload and CloudWatch Logs vended log "
                + "delivery, which support no resource-level permissions.");
        findings.acknowledge();
    }

    StateMachine getStateMachine() {
        return stateMachine;
    }

    /** Adds a wait, before training, until {@code jobName} has completed, giving up after {@code maxWaitSeconds}. */
    void waitFor(String jobName, long maxWaitSeconds) {
        prerequisites.add(new Prerequisite(PrerequisiteKind.TRAINING_JOB, jobName, maxWaitSeconds));
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                .actions(List.of("sagemaker:DescribeTrainingJob"))
                .resources(List.of(Stack.of(this).formatArn(ArnComponents.builder().service("sagemaker")
                        .resource("training-job").resourceName(jobName).arnFormat(ArnFormat.SLASH_RESOURCE_NAME)
                        .build())))
                .build());
    }

    /**
     * Adds a wait, before training, until the Step Functions execution {@code executionArn} (for example a cache
     * preload) has succeeded, giving up after {@code maxWaitSeconds}.
     */
    void waitForExecution(String executionArn, long maxWaitSeconds) {
        prerequisites.add(new Prerequisite(PrerequisiteKind.EXECUTION, executionArn, maxWaitSeconds));
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                .actions(List.of("states:DescribeExecution"))
                .resources(List.of(executionArn))
                .build());
    }

    /** The Amazon States Language document, built when the template is resolved. */
    private Map<String, Object> definitionJson() {
        Map<String, Object> states = new LinkedHashMap<>();
        String afterCheckpoints = prerequisites.isEmpty() ? TRAIN_STATE : START_WAITING;
        String start = checkpointPrefix() != null ? checkpointStates(states, afterCheckpoints)
                : rejectResume(states, afterCheckpoints);
        if (!prerequisites.isEmpty()) {
            states.put(START_WAITING, startWaiting());
            for (int i = 0; i < prerequisites.size(); i++) {
                String next = i + 1 < prerequisites.size() ? DESCRIBE + (i + 1) : TRAIN_STATE;
                states.putAll(waitStates(i, prerequisites.get(i), next));
            }
        }
        states.put(TRAIN_STATE, train());
        Map<String, Object> asl = new LinkedHashMap<>();
        asl.put("Comment", "SageMaker training job " + definition.getNode().getPath());
        asl.put("StartAt", start);
        asl.put("States", states);
        return asl;
    }

    private Map<String, Object> train() {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("TrainingJobName.$", "States.Format('" + definition.getJobNamePrefix() + "-{}', States.UUID())");
        parameters.putAll(definition.getRequest());
        if (checkpointPrefix() != null) {
            Map<String, Object> checkpoint = new LinkedHashMap<>();
            // Bucket names hold no character special to States.Format; the prefix may hold an apostrophe.
            checkpoint.put("S3Uri.$", "States.Format('" + definition.getDataBucket().uri(formatLiteral(checkpointPrefix()))
                    + "/{}/', $" + CHECKPOINT_RUN + ")");
            Object localPath = ((Map<?, ?>) definition.getRequest().get("CheckpointConfig")).get("LocalPath");
            if (localPath != null) {
                checkpoint.put("LocalPath", localPath);
            }
            parameters.put("CheckpointConfig", checkpoint);
        }
        Map<String, Object> train = new LinkedHashMap<>();
        train.put("Type", "Task");
        train.put("Comment", "Train one job with the definition's request; waits until the job ends");
        train.put("Resource", "arn:" + Stack.of(this).getPartition() + ":states:::sagemaker:createTrainingJob.sync");
        train.put("Parameters", parameters);
        train.put("End", true);
        return train;
    }

    /**
     * Without checkpoints: an input that asks to resume fails at once instead of silently training from scratch.
     *
     * @return the first state
     */
    private String rejectResume(Map<String, Object> states, String next) {
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("Type", "Choice");
        choice.put("Comment", "This definition keeps no checkpoints, so there is nothing to resume from");
        choice.put("Choices", List.of(rule(isPresent(RESUME_FROM), RESUME_WITHOUT_CHECKPOINTS)));
        choice.put("Default", next);
        states.put(REJECT_RESUME, choice);
        states.put(RESUME_WITHOUT_CHECKPOINTS, fail(RESUME_WITHOUT_CHECKPOINTS, "The input names '"
                + RESUME_FROM + "', but the definition has no checkpointPrefix, so no run has checkpoints"));
        return REJECT_RESUME;
    }

    /**
     * With checkpoints: each execution syncs its own prefix {@code <checkpointPrefix>/<execution name>/}; an input
     * {@code {"resumeFrom": "<earlier execution name>"}} reuses that execution's prefix, after checking that it
     * holds at least one object.
     *
     * @return the first state
     */
    private String checkpointStates(Map<String, Object> states, String next) {
        Map<String, Object> fresh = rule(not(isPresent(RESUME_FROM)), next);
        fresh.put("Assign", Map.of(CHECKPOINT_RUN + ".$", "$$.Execution.Name"));
        Map<String, Object> resume = rule(and(List.of(
                variable(RESUME_FROM, "IsString", true),
                not(variable(RESUME_FROM, "StringEquals", "")))), FIND_CHECKPOINTS);
        resume.put("Assign", Map.of(CHECKPOINT_RUN + ".$", "$." + RESUME_FROM));
        Map<String, Object> choose = new LinkedHashMap<>();
        choose.put("Type", "Choice");
        choose.put("Comment", "A fresh checkpoint prefix per execution, unless the input names an earlier "
                + "execution to resume from");
        choose.put("Choices", List.of(fresh, resume));
        choose.put("Default", INVALID_RESUME_FROM);
        states.put(CHOOSE_CHECKPOINTS, choose);

        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("Bucket", definition.getDataBucket().getBucketName());
        parameters.put("Prefix.$", "States.Format('" + formatLiteral(checkpointPrefix()) + "/{}/', $"
                + CHECKPOINT_RUN + ")");
        parameters.put("MaxKeys", 1);
        Map<String, Object> find = new LinkedHashMap<>();
        find.put("Type", "Task");
        find.put("Comment", "Look for the checkpoints of the run to resume");
        find.put("Resource", "arn:" + Stack.of(this).getPartition() + ":states:::aws-sdk:s3:listObjectsV2");
        find.put("Parameters", parameters);
        find.put("ResultSelector", Map.of("KeyCount.$", "$.KeyCount"));
        find.put("ResultPath", "$." + CHECKPOINTS_FOUND);
        find.put("TimeoutSeconds", CALL_TIMEOUT_SECONDS);
        find.put("Retry", List.of(transientErrors()));
        find.put("Next", CHECK_CHECKPOINTS);
        states.put(FIND_CHECKPOINTS, find);

        Map<String, Object> check = new LinkedHashMap<>();
        check.put("Type", "Choice");
        check.put("Choices", List.of(rule(variable(CHECKPOINTS_FOUND + ".KeyCount", "NumericGreaterThan", 0), next)));
        check.put("Default", NO_CHECKPOINTS_TO_RESUME);
        states.put(CHECK_CHECKPOINTS, check);

        states.put(INVALID_RESUME_FROM, fail(INVALID_RESUME_FROM, "'" + RESUME_FROM + "' must be the name of an "
                + "earlier execution of this state machine (a non-empty string)"));
        states.put(NO_CHECKPOINTS_TO_RESUME, fail(NO_CHECKPOINTS_TO_RESUME, "No checkpoints under the prefix of the "
                + "execution named by '" + RESUME_FROM + "': check the name, or start without it to train from scratch"));
        return CHOOSE_CHECKPOINTS;
    }

    /** Sets the poll interval, its next doubling point and the time waited, shared by all prerequisites. */
    private static Map<String, Object> startWaiting() {
        Map<String, Object> assign = new LinkedHashMap<>();
        assign.put(WAITED, 0);
        assign.put(POLL, FIRST_POLL_SECONDS);
        assign.put(BACKOFF_AT, FIRST_POLL_SECONDS * POLLS_PER_INTERVAL);
        Map<String, Object> pass = new LinkedHashMap<>();
        pass.put("Type", "Pass");
        pass.put("Comment", "Poll every " + FIRST_POLL_SECONDS + " s; double the interval each time the time waited "
                + "reaches " + POLLS_PER_INTERVAL + " intervals");
        pass.put("Assign", assign);
        pass.put("Next", DESCRIBE + 0);
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
        describeState.put("Resource", "arn:" + Stack.of(this).getPartition() + ":states:::aws-sdk:" + kind.describeAction);
        describeState.put("Parameters", Map.of(kind.nameParameter, prerequisite.name()));
        describeState.put("ResultSelector", Map.of("Status.$", "$." + kind.statusMember));
        describeState.put("ResultPath", "$.prerequisite" + index);
        describeState.put("TimeoutSeconds", CALL_TIMEOUT_SECONDS);
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
        Map<String, Object> checkState = new LinkedHashMap<>();
        checkState.put("Type", "Choice");
        checkState.put("Choices", List.of(
                rule(variable(status, "StringEquals", kind.successStatus), next),
                rule(and(List.of(running, waitedEnough)), timedOut),
                backoff,
                poll));
        checkState.put("Default", failed);

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
        return states;
    }

    /** Throttling, 5xx and timeouts of an SDK call: every task failure but the ones a retrier before this one takes. */
    private static Map<String, Object> transientErrors() {
        Map<String, Object> retry = new LinkedHashMap<>();
        retry.put("ErrorEquals", List.of("States.TaskFailed", "States.Timeout"));
        retry.put("IntervalSeconds", 4);
        retry.put("MaxAttempts", RETRY_ATTEMPTS);
        retry.put("BackoffRate", 2);
        retry.put("MaxDelaySeconds", 60);
        retry.put("JitterStrategy", "FULL");
        return retry;
    }

    private String checkpointPrefix() {
        return definition.props().getCheckpointPrefix();
    }

    /** Escapes the characters that are special in a {@code States.Format} template (not in tokens). */
    static String formatLiteral(String text) {
        return Token.isUnresolved(text) ? text : text.replaceAll("([{}'\\\\])", "\\\\$1");
    }

    private static Map<String, Object> fail(String error, String cause) {
        Map<String, Object> fail = new LinkedHashMap<>();
        fail.put("Type", "Fail");
        fail.put("Error", error);
        fail.put("Cause", cause);
        return fail;
    }

    private static Map<String, Object> rule(Map<String, Object> condition, String next) {
        Map<String, Object> rule = new LinkedHashMap<>(condition);
        rule.put("Next", next);
        return rule;
    }

    private static Map<String, Object> variable(String path, String operator, Object value) {
        Map<String, Object> comparison = new LinkedHashMap<>();
        comparison.put("Variable", "$." + path);
        comparison.put(operator, value);
        return comparison;
    }

    private static Map<String, Object> isPresent(String path) {
        return variable(path, "IsPresent", true);
    }

    private static Map<String, Object> not(Map<String, Object> condition) {
        return Map.of("Not", condition);
    }

    private static Map<String, Object> and(List<Map<String, Object>> conditions) {
        return Map.of("And", conditions);
    }

    private static Map<String, Object> or(List<Map<String, Object>> conditions) {
        return Map.of("Or", conditions);
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

    private record Prerequisite(PrerequisiteKind kind, String name, long maxWaitSeconds) {
    }

    /**
     * The names under which IAM may see a job: as given and, when it has capitals, in lowercase, since
     * SageMaker has written names lowercase in training-job ARNs and IAM matches ARNs case-sensitively.
     */
    static List<String> arnNames(String name) {
        if (Token.isUnresolved(name)) {
            return List.of(name);
        }
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.equals(name) ? List.of(name) : List.of(name, lower);
    }
}
