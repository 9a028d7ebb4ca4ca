package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.internal.DurationSeconds;
import io.github.trainingdata.cdk.limits.SageMakerLimits;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.launch.DeployedTrainingJobDefinition;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.ssm.IStringParameter;
import software.amazon.awscdk.services.ssm.ParameterTier;
import software.amazon.awscdk.services.ssm.StringParameter;
import software.amazon.awscdk.services.stepfunctions.IStateMachine;
import software.constructs.Construct;
import software.constructs.IDependable;

/**
 * A SageMaker training job, defined once and launched many times: the channels wired to the data
 * stores, the instances, the stopping condition, the VPC placement and a least-privilege execution role,
 * all checked against the CreateTrainingJob rules at synth.
 *
 * <p>The definition resolves its props into a {@link TrainingJobBlueprint} (spec, placement, role and the one
 * canonical CreateTrainingJob request, without the job name) and deploys it two ways: a Step Functions state
 * machine whose task is {@code sagemaker:createTrainingJob.sync} (each execution trains under a unique name) and
 * an SSM parameter holding the request as JSON, which {@code io.github.trainingdata.cdk.launch} turns into an
 * SDK call (with a capacity policy, a second parameter holds the policy for the launcher). When any file-system
 * channel is present, the job runs in the training security group and in subnets of the file system's Availability
 * Zone.
 */
public class TrainingJobDefinition extends Construct {
    /** Most channels a job may have (20): {@link SageMakerLimits#INPUT_DATA_CONFIG}. */
    public static final int MAX_CHANNELS = SageMakerLimits.INPUT_DATA_CONFIG.getMax().intValue();
    /**
     * Longest job-name prefix (26): leaves room for a unique 37-character suffix within the 63-character limit
     * ({@link SageMakerLimits#JOB_NAME_PREFIX}).
     */
    public static final int MAX_JOB_NAME_PREFIX = SageMakerLimits.JOB_NAME_PREFIX.getMax().intValue();
    /** Longest training time SageMaker allows, 28 days: {@link SageMakerLimits#MAX_RUNTIME_IN_SECONDS}. */
    public static final Duration MAX_RUNTIME = Duration.seconds(SageMakerLimits.MAX_RUNTIME_IN_SECONDS.getMax());
    /** How long {@link #waitForTrainingJob(String)} waits at most: the longest a job may run, 28 days. */
    public static final Duration MAX_PREREQUISITE_WAIT = MAX_RUNTIME;
    private static final Duration MAX_WAIT_LIMIT = Duration.days(365);
    /**
     * The largest request document the SSM parameter holds itself: 8 KB, the most an Advanced-tier parameter value may
     * have (SSM API reference, PutParameter {@code Value}: "Standard parameters have a value limit of 4 KB. Advanced
     * parameters have a value limit of 8 KB"; the parameter's Intelligent-Tiering picks the tier).
     */
    public static final int MAX_PARAMETER_DOCUMENT_BYTES = 8192;
    /** The first part of the name of every parameter holding a part of a split request. */
    public static final String REQUEST_PARTS_NAME_PREFIX = "/training-data/requests/";

    private final TrainingJobBlueprint job;
    private final TrainingStateMachine stateMachine;
    private final List<StringParameter> requestParts = new ArrayList<>();
    private final StringParameter requestParameter;
    private final StringParameter capacityPolicyParameter;
    private final CustomResource teardown;

    /** Defines the training job and deploys its state machine and request parameter. */
    public TrainingJobDefinition(Construct scope, String id, TrainingJobDefinitionProps props) {
        super(scope, id);
        this.job = TrainingJobBlueprint.create(this, props);
        CapacityPolicyRules.checkFallbackZones(this, job);
        this.stateMachine = new TrainingStateMachine(this, "StateMachine", job);
        this.teardown = TrainingTeardown.create(this, job, stateMachine);
        this.requestParameter = StringParameter.Builder.create(this, "Request")
                .description("CreateTrainingJob request (without TrainingJobName) of " + getNode().getPath())
                .stringValue(Stack.of(this).toJsonString(storedRequest()))
                .tier(ParameterTier.INTELLIGENT_TIERING)
                .build();
        // The pointer is written after its parts, so that a launch never reads one whose parts are not there yet.
        requestParts.forEach(part -> requestParameter.getNode().addDependency(part));
        this.capacityPolicyParameter = job.getSpec().getCapacityPolicy() == null ? null : capacityPolicyParameter();
        CfnOutput.Builder.create(this, "StateMachineArn").value(stateMachine.getStateMachine().getStateMachineArn())
                .description("Start an execution to train: each execution runs one job").build();
        CfnOutput.Builder.create(this, "RequestParameterName").value(requestParameter.getParameterName())
                .description("SSM parameter with the CreateTrainingJob request JSON (for the SDK launcher)").build();
        if (capacityPolicyParameter != null) {
            CfnOutput.Builder.create(this, "CapacityPolicyParameterName")
                    .value(capacityPolicyParameter.getParameterName())
                    .description("SSM parameter with the capacity policy JSON (for the SDK launcher's --capacity-policy)")
                    .build();
        }
    }

    /** The parameter holding the capacity policy as the SDK launcher reads it, refused if it could be too large. */
    private StringParameter capacityPolicyParameter() {
        Map<String, Object> document = CapacityPlanDocument.of(job);
        CapacityPolicyRules.checkPolicyInParameter(this,
                RequestDocumentBound.of(Stack.of(this), document, CapacityPlanDocument.REQUEST_MEMBERS));
        return StringParameter.Builder.create(this, "CapacityPolicy")
                .description("Capacity policy (the attempts after a job fails for capacity) of " + getNode().getPath())
                .stringValue(Stack.of(this).toJsonString(document))
                .tier(ParameterTier.INTELLIGENT_TIERING)
                .build();
    }

    /**
     * What the SSM parameter holds: the request, when it fits ({@link #MAX_PARAMETER_DOCUMENT_BYTES}) whatever its
     * deploy-time values resolve to; otherwise a pointer to the state machine's training state, whose Parameters are
     * the same request (the SDK launcher follows it), or, when the state machine renders the request at run time (it
     * binds a store or network of another stack) or changes it per attempt (a capacity policy), a pointer to the parts
     * the request is split into.
     */
    private Map<String, Object> storedRequest() {
        long bound = RequestDocumentBound.of(Stack.of(this), job.getRequest());
        if (bound <= MAX_PARAMETER_DOCUMENT_BYTES) {
            return job.getRequest();
        }
        if (!job.getBinding().isEmpty() || job.getSpec().getCapacityPolicy() != null) {
            return requestParts(bound);
        }
        Map<String, Object> source = new LinkedHashMap<>();
        source.put(DeployedTrainingJobDefinition.STATE_MACHINE_ARN, stateMachine.getStateMachine().getStateMachineArn());
        source.put(DeployedTrainingJobDefinition.STATE_NAME, TrainingStateMachine.TRAIN_STATE);
        if (job.getRequest().get("CheckpointConfig") instanceof Map<?, ?> checkpoints) {
            source.put(DeployedTrainingJobDefinition.CHECKPOINT_S3_URI, checkpoints.get("S3Uri"));
        }
        Annotations.of(this).addInfo(getNode().getPath() + ": the request document may have up to "
                + (bound >= RequestDocumentBound.UNBOUNDED ? "an unknown number of" : Long.toString(bound))
                + " bytes, more than an SSM parameter value may (" + MAX_PARAMETER_DOCUMENT_BYTES + "): the parameter "
                + "points at the state machine's training state, which holds the same request (the SDK launcher reads "
                + "it there with states:DescribeStateMachine)");
        return Map.of(DeployedTrainingJobDefinition.REQUEST_IN_STATE_MACHINE, source);
    }

    /**
     * Splits the request across parameters {@code /training-data/requests/<path>/<hash>/part-<n>}, each within
     * {@link #MAX_PARAMETER_DOCUMENT_BYTES}, and returns the pointer to them. The hash is that of the parts as the
     * template renders them: a changed request gets new parameters (their name is create-only, so CloudFormation
     * creates them, then updates the pointer, and deletes the old ones in its cleanup).
     */
    private Map<String, Object> requestParts(long bound) {
        Stack stack = Stack.of(this);
        RequestSplit split = RequestDocumentBound.split(stack, job.getRequest(), MAX_PARAMETER_DOCUMENT_BYTES);
        job.getBinding().checkRequestSplit(this, split);
        CapacityPolicyRules.checkRequestSplit(this, job.getSpec(), split);
        List<String> parts = split.parts();
        String prefix = REQUEST_PARTS_NAME_PREFIX + String.join(".", getNode().getScopes().stream()
                .map(scope -> scope.getNode().getId()).filter(id -> !id.isEmpty())
                .map(id -> id.replaceAll("[^A-Za-z0-9_.-]", "-")).toList())
                + "/" + renderedHash(stack, parts) + "/part-";
        for (int i = 0; i < parts.size(); i++) {
            requestParts.add(StringParameter.Builder.create(this, "RequestPart" + (i + 1))
                    .parameterName(prefix + (i + 1))
                    .description("Part " + (i + 1) + " of " + parts.size() + " of the CreateTrainingJob request of "
                            + getNode().getPath())
                    .stringValue(parts.get(i))
                    .tier(ParameterTier.INTELLIGENT_TIERING)
                    .build());
        }
        Annotations.of(this).addInfo(getNode().getPath() + ": the request document may have up to " + bound
                + " bytes, more than an SSM parameter value may (" + MAX_PARAMETER_DOCUMENT_BYTES + "), and the state "
                + "machine renders it at run time or changes it per capacity attempt: it is split across " + parts.size() + " parameters " + prefix
                + "<n>, which the SDK launcher joins");
        Map<String, Object> pointer = new LinkedHashMap<>();
        pointer.put(DeployedTrainingJobDefinition.PARTS_PREFIX, prefix);
        pointer.put(DeployedTrainingJobDefinition.PARTS_COUNT, parts.size());
        return Map.of(DeployedTrainingJobDefinition.REQUEST_PARTS, pointer);
    }

    /** The first 8 hex digits of the SHA-256 of the parts as the template renders them (deploy-time values unresolved). */
    private static String renderedHash(Stack stack, List<String> parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (String part : parts) {
                digest.update(canonical(stack.resolve(part)).getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
            }
            return HexFormat.of().formatHex(digest.digest()).substring(0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    /** A resolved template value as text, map keys sorted: the same whatever map type the resolver returns. */
    private static String canonical(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, String> sorted = new TreeMap<>();
            map.forEach((key, member) -> sorted.put(String.valueOf(key), canonical(member)));
            return sorted.toString();
        }
        if (value instanceof List<?> list) {
            return list.stream().map(TrainingJobDefinition::canonical).toList().toString();
        }
        return String.valueOf(value);
    }

    /**
     * Makes every execution wait, before training, until the named SageMaker training job has completed, for at
     * most {@link #MAX_PREREQUISITE_WAIT} (28 days, the longest a job may run); see
     * {@link #waitForTrainingJob(String, Duration)}.
     *
     * @param trainingJobName the job to wait for (may be a deploy-time token)
     */
    public void waitForTrainingJob(String trainingJobName) {
        waitForTrainingJob(trainingJobName, MAX_PREREQUISITE_WAIT);
    }

    /**
     * Makes every execution wait, before training, until the named SageMaker training job has completed, and
     * fail if it failed, was stopped, does not exist, or is still running after {@code maxWait} (counted from
     * the start of waiting, shared by all jobs waited for). The preload uses this so that no job starts on a
     * cold cache when the deploy did not wait for the warm-up.
     *
     * <p>The execution polls the job every minute for the first 20 minutes, then doubles the interval each time
     * the time waited reaches 20 intervals, so a completion is noticed within about a tenth of the time already
     * waited and a year of waiting takes fewer than 200 polls (under 10,000 of Step Functions' 25,000 history
     * events even if every poll needs all its retries). Throttling, server errors and timeouts of a poll are
     * retried with backoff.
     *
     * @param trainingJobName the job to wait for (may be a deploy-time token)
     * @param maxWait how long to wait at most: from 1 minute to 365 days (a standard execution runs for at most
     *                a year); for example the job's maximum runtime plus its start-up
     */
    public void waitForTrainingJob(String trainingJobName, Duration maxWait) {
        stateMachine.waitFor(trainingJobName, maxWaitSeconds("waitForTrainingJob", maxWait));
    }

    /**
     * The wait in seconds: literal (it sizes the waiting states), a whole number of seconds, 1 minute to 365 days;
     * aws-cdk-lib's own conversion error (a fractional second, a deploy-time value) becomes a ConfigurationError.
     */
    private long maxWaitSeconds(String method, Duration maxWait) {
        Long seconds = DurationSeconds.literal(maxWait);
        if (seconds == null) {
            throw ConfigurationError.of(TrainingJobRules.MAX_WAIT_EXECUTION, this,
                    "maxWait (" + method + ")", maxWait.toHumanString(), "a literal whole number of seconds from 1 "
                    + "minute to 365 days (it sizes the waiting states, so it cannot be a deploy-time value)");
        }
        if (seconds < 60 || seconds > MAX_WAIT_LIMIT.toSeconds().longValue()) {
            throw ConfigurationError.of(TrainingJobRules.MAX_WAIT_EXECUTION, this,
                    "maxWait (" + method + ")", maxWait.toHumanString(),
                    "1 minute to 365 days (a standard Step Functions execution runs for at most a year)");
        }
        return seconds;
    }

    /**
     * Makes every execution wait, before training, until the Step Functions execution {@code executionArn} has
     * succeeded (polling with the same history-safe backoff and retries as {@link #waitForTrainingJob(String,
     * Duration)}), and fail with {@code PreloadFailed} if it failed, timed out or was aborted. An execution whose
     * record is gone (Step Functions keeps them 90 days after they end) counts as over. The Lustre preload uses this
     * so that no job reads a cache still importing or warming, whether or not the deploy waited.
     *
     * @param executionArn the execution to wait for (may be a deploy-time token)
     * @param maxWait how long to wait at most, 1 minute to 365 days
     */
    public void waitForExecution(String executionArn, Duration maxWait) {
        stateMachine.waitForExecution(executionArn, maxWaitSeconds("waitForExecution", maxWait));
    }

    /**
     * Makes every execution wait, before training, until the execution of {@code machine} that is current when
     * it starts has succeeded: the one whose ARN the SSM parameter {@code currentExecution} holds then (polling, retries
     * and outcomes as {@link #waitForExecution(String, Duration)}; a missing parameter fails with
     * {@code PrerequisiteParameterNotFound}). Only the parameter's name and the state machine's name are referenced, so
     * the definition may live in another stack than the state machine and the parameter, under strong or weak
     * cross-stack references: a new execution (the cache preload warming again) changes the parameter's value, never
     * a value this stack imports. {@code LustrePreload.holdBack} uses this.
     *
     * @param currentExecution the parameter whose value is the ARN of the execution to wait for
     * @param machine the state machine whose executions the parameter names
     * @param maxWait how long to wait at most, 1 minute to 365 days
     */
    public void waitForCurrentExecution(IStringParameter currentExecution, IStateMachine machine, Duration maxWait) {
        stateMachine.waitForCurrentExecution(currentExecution, machine,
                maxWaitSeconds("waitForCurrentExecution", maxWait));
    }

    /**
     * Deploys the state machine, the request parameter and the capacity policy parameter only after
     * {@code dependable} (for example a preload that must finish first).
     *
     * @param dependable what must be deployed first
     */
    public void deployAfter(IDependable dependable) {
        stateMachine.getNode().addDependency(dependable);
        requestParameter.getNode().addDependency(dependable);
        requestParts.forEach(part -> part.getNode().addDependency(dependable));
        if (capacityPolicyParameter != null) {
            capacityPolicyParameter.getNode().addDependency(dependable);
        }
    }

    /** @return the job's resolved settings */
    public TrainingJobSpec getSpec() {
        return job.getSpec();
    }

    /** @return the job-name prefix; each job is named {@code <prefix>-<unique suffix>} */
    public String getJobNamePrefix() {
        return job.getJobNamePrefix();
    }

    /** @return the network the job runs in, or null when it runs without a VPC */
    public TrainingNetwork getNetwork() {
        return job.getNetwork();
    }

    /** @return the execution role */
    public IRole getRole() {
        return job.getRole();
    }

    /**
     * The canonical CreateTrainingJob request without {@code TrainingJobName}: PascalCase API members in
     * a fixed order, values may be tokens. Every output of the definition renders this one document.
     *
     * @return the request (unmodifiable)
     */
    public Map<String, Object> getRequest() {
        return job.getRequest();
    }

    /** @return the state machine that runs one training job per execution */
    public IStateMachine getStateMachine() {
        return stateMachine.getStateMachine();
    }

    /**
     * The custom resource that, when the definition is removed from the stack or the stack is deleted, stops what it
     * started (its state machine's running executions, its jobs and their warm pools) and waits until they and their
     * network interfaces are gone, so that CloudFormation can delete the state machine, the roles and the network
     * next. One per stack serves every definition in it (issue 27). It depends on what a stopping job holds or needs
     * in the same stack (the state machine, the execution role, the output bucket, the security groups, subnets and
     * VPC); add a dependency on anything else a job holds that this stack deletes.
     *
     * @return the stack's teardown custom resource ({@code Custom::TrainingTeardown})
     */
    public CustomResource getTeardown() {
        return teardown;
    }

    /**
     * The parameters holding the parts of a request split because the state machine renders it at run time and it
     * may not fit {@link #getRequestParameter()} (which then points at them).
     *
     * @return the parts in order, empty when the request is not split
     */
    public List<StringParameter> getRequestParts() {
        return Collections.unmodifiableList(requestParts);
    }

    /** @return the SSM parameter holding the request as JSON */
    public StringParameter getRequestParameter() {
        return requestParameter;
    }

    /**
     * The SSM parameter holding the capacity policy as JSON, which the SDK launcher reads
     * ({@code io.github.trainingdata.cdk.launch.CapacityPlan}).
     *
     * @return the parameter, or null when the definition has no capacity policy
     */
    public StringParameter getCapacityPolicyParameter() {
        return capacityPolicyParameter;
    }
}
