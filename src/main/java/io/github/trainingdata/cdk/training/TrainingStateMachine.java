package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.internal.SyncTrainingPermissions;
import static io.github.trainingdata.cdk.training.AslStates.and;
import static io.github.trainingdata.cdk.training.AslStates.assignPass;
import static io.github.trainingdata.cdk.training.AslStates.choice;
import static io.github.trainingdata.cdk.training.AslStates.fail;
import static io.github.trainingdata.cdk.training.AslStates.isPresent;
import static io.github.trainingdata.cdk.training.AslStates.not;
import static io.github.trainingdata.cdk.training.AslStates.rule;
import static io.github.trainingdata.cdk.training.AslStates.transientErrors;
import static io.github.trainingdata.cdk.training.AslStates.variable;

import io.github.trainingdata.cdk.internal.InlinePolicy;
import io.github.trainingdata.cdk.internal.WildcardFindings;
import io.github.trainingdata.cdk.launch.CapacityPlan;
import io.github.trainingdata.cdk.launch.TrainingErrors;
import io.github.trainingdata.cdk.internal.LogGroups;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awscdk.Arn;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.IStableStringProducer;
import software.amazon.awscdk.Lazy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.ssm.IStringParameter;
import software.amazon.awscdk.services.stepfunctions.IStateMachine;
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
 * the input says {@code {"resumeFrom": "<execution name>"}}) and waits for its prerequisites
 * ({@link PrerequisiteWaits}).
 *
 * <p>After any error of the Train task, DescribeTrainingJob reads the job's status and FailureReason (never the
 * task's cause): no job of that name means the request was refused; a job still running (created by a request that
 * SageMaker answered with an error) is followed to its end. Every Fail state reports one of {@link TrainingErrors},
 * never a {@code States.} name, with a JSON cause carrying the task's error and cause.
 *
 * <p>With a {@link CapacityPolicy}, a job that fails for capacity leads to the policy's next attempt, a request
 * refused for a quota to the next attempt on another instance type, and every attempt that ends is recorded and
 * counted in CloudWatch by JSONata states (the rest is JSONPath, but the Fail states): the execution's output, or its
 * failure's cause, lists them.
 */
final class TrainingStateMachine extends Construct {
    static final String TRAIN_STATE = "Train";
    /** The state that names the job once per execution, so that a retried request cannot start a second job. */
    static final String NAME_JOB_STATE = "NameTrainingJob";
    static final String CHECK_TRAIN_ERROR = "CheckTrainError";
    static final String WAIT_TO_RETRY_TRAIN = "WaitToRetryTrain";
    /**
     * The Step Functions error of a CreateTrainingJob call that SageMaker refused because a quota is used up; its
     * own retrier waits for the quota to free up. Name as the Step Functions developer guide's training-job example
     * retries it ("Create and manage Amazon SageMaker AI jobs with Step Functions").
     */
    static final String RESOURCE_LIMIT_EXCEEDED = "SageMaker.ResourceLimitExceededException";
    /**
     * The Step Functions error of every other SageMaker API error (same guide): throttling and service errors, but
     * also user errors such as ValidationException, so it is caught and only its transient causes are retried.
     */
    static final String SAGEMAKER_EXCEPTION = "SageMaker.AmazonSageMakerException";
    /**
     * What DescribeTrainingJob (an AWS SDK integration: {@code SageMaker.<error>Exception}) raises for a name with no
     * job: the API reference names ResourceNotFound, the service has answered ValidationException ("Requested resource
     * not found"). Either means the request was refused: no job to record.
     */
    static final List<String> JOB_NOT_FOUND = List.of("SageMaker.ResourceNotFoundException",
            "SageMaker.ValidationException");
    /**
     * The causes of a {@link #SAGEMAKER_EXCEPTION} that are retried: the SDK's message ends {@code (Service:
     * AmazonSageMaker; Status Code: <n>; Error Code: <code>; Request ID: ...)}; throttling and 5xx are transient.
     */
    static final List<String> TRANSIENT_CAUSES = List.of("*Error Code: ThrottlingException*", "*Status Code: 50*");
    /** Retries of a throttled or failed (5xx) CreateTrainingJob call; the waits double from the first. */
    static final int TRANSIENT_RETRIES = 5;
    static final int FIRST_TRANSIENT_WAIT_SECONDS = 10;
    /** Retries of a CreateTrainingJob call refused for a quota, waiting 1, 2, 4, ... up to 15 minutes between. */
    static final int QUOTA_RETRIES = 8;
    static final int QUOTA_RETRY_INTERVAL_SECONDS = 60;
    static final int QUOTA_RETRY_MAX_DELAY_SECONDS = 900;
    /** Reads the job's status and FailureReason after any error of the Train task, or while following a job. */
    static final String DESCRIBE_JOB = "DescribeTrainingJob";
    static final String CHECK_JOB = "CheckTrainingJob";
    static final String WAIT_FOR_JOB = "WaitForTrainingJob";
    static final String JOB_COMPLETED = "TrainingJobCompleted";
    /** Polls of a job the execution follows (adopted after ResourceInUse) start 1 minute apart and double. */
    static final int FIRST_JOB_POLL_SECONDS = 60;
    /** The polls stop doubling at twice this (32 minutes): a 28-day job then takes about 1,300 polls. */
    static final int JOB_POLL_DOUBLING_BELOW = 1800;
    static final String CLASSIFY_FAILED_JOB = "ClassifyFailedJob";
    static final String CHOOSE_FAILURE = "ChooseFailure";
    static final String CHECK_CAPACITY_ERROR = "CheckCapacityError";
    static final String RECORD_FAILED_JOB = "RecordFailedJob";
    static final String RECORD_REFUSED_REQUEST = "RecordRefusedRequest";
    static final String COUNT_FAILED_JOB = "CountFailedJob";
    static final String RECORD_COMPLETED_JOB = "RecordCompletedJob";
    static final String COUNT_COMPLETED_JOB = "CountCompletedJob";
    static final String REPORT_ATTEMPTS = "ReportCapacityAttempts";
    /** The Fail states, named after their errors ({@link TrainingErrors}). */
    static final String TRAINING_JOB_FAILED = "TrainingJobFailed";
    static final String TRAINING_JOB_STOPPED = "TrainingJobStopped";
    static final String CAPACITY_EXHAUSTED = "CapacityExhausted";
    static final String QUOTA_EXHAUSTED = "QuotaExhausted";
    static final String REQUEST_REFUSED = "RequestRefused";
    static final String TRAINING_JOB_UNREADABLE = "TrainingJobUnreadable";
    /**
     * The longest failure reason an attempt's record keeps (SageMaker's has up to 1,024): with the cause cut to
     * {@value #MAX_FAILED_CAUSE}, the largest policy's failure cause stays below Step Functions' 32,768 characters.
     */
    static final int MAX_RECORDED_REASON = 512;
    /** The longest part of the Train task's error cause that a failed execution's cause keeps. */
    static final int MAX_FAILED_CAUSE = 4096;
    private static final String CAPACITY_ATTEMPT = "capacityAttempt";
    private static final String CAPACITY_ATTEMPTS = "capacityAttempts";
    private static final String ATTEMPT_OUTCOME = "attemptOutcome";
    private static final String DATA_SOURCES = "dataSources";
    private static final String AVAILABILITY_ZONES = "availabilityZones";
    private static final String INSTANCE_TYPE = "instanceType";
    private static final String INPUT_DATA_CONFIG = "inputDataConfig";
    private static final String SUBNETS = "subnets";
    private static final String SECURITY_GROUP_IDS = "securityGroupIds";
    /** The S3 fallback's subnets and zones, as the network read at run time gives them (kept as bound*). */
    private static final String FALLBACK_SUBNETS = "fallbackSubnets";
    private static final String FALLBACK_ZONES = "fallbackAvailabilityZones";
    private static final String TRAINING_JOB_NAME = "trainingJobName";

    private static final String TRAIN_RETRIES = "trainRetries";
    private static final String TRAIN_RETRY_WAIT = "trainRetryWaitSeconds";
    private static final String JOB_POLL = "trainingJobPollSeconds";
    private static final String TRAIN_ERROR = "trainError";
    /** Where the state input keeps the job's description (DescribeTrainingJob's answer). */
    private static final String TRAINING_JOB = "trainingJob";
    private static final String DESCRIBE_ERROR = "describeError";
    /**
     * A JSONata expression for how a job that ended without completing ended: {@value CapacityPolicy#STOPPED},
     * {@value CapacityPolicy#CAPACITY_ERROR} when the FailureReason DescribeTrainingJob returned starts as
     * {@link CapacityPlan#CAPACITY_FAILURE} says, else {@value CapacityPolicy#FAILED}.
     */
    static final String ENDED_JOB_OUTCOME = "($states.input." + TRAINING_JOB + ".TrainingJobStatus = 'Stopped' ? '"
            + CapacityPolicy.STOPPED + "' : ($exists($states.input." + TRAINING_JOB + ".FailureReason) and $contains("
            + "$states.input." + TRAINING_JOB + ".FailureReason, /^" + CapacityPlan.CAPACITY_FAILURE + "/) ? '"
            + CapacityPolicy.CAPACITY_ERROR + "' : '" + CapacityPolicy.FAILED + "'))";
    /** The execution input field that names an earlier execution whose checkpoints to resume from. */
    private static final String RESUME_FROM = "resumeFrom";
    private static final String CHECKPOINT_RUN = "checkpointRun";
    private static final String CHECKPOINTS_FOUND = "checkpointsToResume";
    private static final String REJECT_RESUME = "RejectResume";
    private static final String RESUME_WITHOUT_CHECKPOINTS = "ResumeWithoutCheckpoints";
    private static final String CHOOSE_CHECKPOINTS = "ChooseCheckpoints";
    private static final String FIND_CHECKPOINTS = "FindCheckpointsToResume";
    private static final String CHECK_CHECKPOINTS = "CheckCheckpointsToResume";
    private static final String INVALID_RESUME_FROM = "InvalidResumeFrom";
    private static final String NO_CHECKPOINTS_TO_RESUME = "NoCheckpointsToResume";

    private final TrainingJobBlueprint job;
    private final TrainingJobSpec spec;
    private final String comment;
    private final StateMachine stateMachine;
    private final PrerequisiteWaits prerequisites;

    TrainingStateMachine(Construct scope, String id, TrainingJobBlueprint job) {
        super(scope, id);
        this.job = job;
        this.spec = job.getSpec();
        this.comment = "SageMaker training job " + scope.getNode().getPath();
        Stack stack = Stack.of(this);
        this.prerequisites = new PrerequisiteWaits(stack.getPartition());
        LogGroup logs = LogGroups.shared(this, spec.getOutputBucket().getEncryptionKey());
        this.stateMachine = StateMachine.Builder.create(this, "Resource")
                .definitionBody(DefinitionBody.fromString(
                        Lazy.string((IStableStringProducer) () -> stack.toJsonString(definitionJson()))))
                .logs(LogOptions.builder().destination(logs).level(LogLevel.ALL).includeExecutionData(true).build())
                .tracingEnabled(true)
                .build();
        InlinePolicy.of((Role) stateMachine.getRole());

        List<String> jobs = arnNames(job.getJobNamePrefix() + "-*").stream()
                .map(name -> stack.formatArn(ArnComponents.builder().service("sagemaker").resource("training-job")
                        .resourceName(name).arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build()))
                .toList();
        List<String> jobActions = new ArrayList<>(List.of("sagemaker:CreateTrainingJob",
                "sagemaker:DescribeTrainingJob", "sagemaker:StopTrainingJob", "sagemaker:ListTags"));
        if (!spec.getTags().isEmpty()) {
            jobActions.add("sagemaker:AddTags");
        }
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create().actions(jobActions).resources(jobs).build());
        SyncTrainingPermissions.grant(stateMachine, job.getRole());
        if (checkpointPrefix() != null) {
            // Only to check, before resuming, that the earlier execution left checkpoints.
            stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                    .actions(List.of("s3:ListBucket"))
                    .resources(List.of(spec.getOutputBucket().getBucketArn()))
                    .conditions(Map.of("StringLike", Map.of("s3:prefix", List.of(checkpointPrefix() + "/*"))))
                    .build());
        }
        WildcardFindings findings = new WildcardFindings(stateMachine.getRole());
        if (spec.getCapacityPolicy() != null) {
            stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                    .actions(List.of("cloudwatch:PutMetricData"))
                    .resources(List.of("*"))
                    .conditions(Map.of("StringEquals", Map.of("cloudwatch:namespace", CapacityPolicy.METRIC_NAMESPACE)))
                    .build());
        }
        findings.add(jobs, "Each execution creates one job named '" + job.getJobNamePrefix()
                + "-<UUID>'; the state machine may manage only jobs with that prefix.");
        findings.add(List.of("*"), "Added by aws-cdk-lib for X-Ray trace upload and CloudWatch Logs vended log "
                + "delivery, which support no resource-level permissions." + (spec.getCapacityPolicy() == null ? ""
                : " cloudwatch:PutMetricData supports none either: its statement's cloudwatch:namespace condition "
                        + "allows only the namespace '" + CapacityPolicy.METRIC_NAMESPACE + "'."));
        findings.acknowledge();
        List<String> publications = job.getBinding().publications().stream().map(p -> p.parameterArn(this)).toList();
        if (!publications.isEmpty()) {
            stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                    .actions(List.of("ssm:GetParameter"))
                    .resources(publications)
                    .build());
        }
    }

    StateMachine getStateMachine() {
        return stateMachine;
    }

    /** Adds a wait, before training, until {@code jobName} has completed, giving up after {@code maxWaitSeconds}. */
    void waitFor(String jobName, long maxWaitSeconds) {
        prerequisites.trainingJob(jobName, maxWaitSeconds);
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
        prerequisites.execution(executionArn, maxWaitSeconds);
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                .actions(List.of("states:DescribeExecution"))
                .resources(List.of(executionArn))
                .build());
    }

    /**
     * Adds a wait, before training, until the execution of {@code machine} whose ARN the SSM parameter
     * {@code currentExecution} holds when waiting starts has succeeded, giving up after {@code maxWaitSeconds}. Only
     * the parameter's name and the state machine's name are referenced, both stable while the stack that owns them
     * warms again and again.
     */
    void waitForCurrentExecution(IStringParameter currentExecution, IStateMachine machine, long maxWaitSeconds) {
        prerequisites.currentExecution(currentExecution.getParameterName(), maxWaitSeconds);
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                .actions(List.of("ssm:GetParameter"))
                .resources(List.of(currentExecution.getParameterArn()))
                .build());
        String executions = Stack.of(this).formatArn(ArnComponents.builder().service("states").resource("execution")
                .resourceName(stateMachineName(machine) + ":*").arnFormat(ArnFormat.COLON_RESOURCE_NAME).build());
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                .actions(List.of("states:DescribeExecution"))
                .resources(List.of(executions))
                .build());
        WildcardFindings findings = new WildcardFindings(stateMachine.getRole());
        findings.add(List.of(executions), "The training state machine may describe only executions of the state "
                + "machine it waits for (the cache preload's); which one is current is read at run time.");
        findings.acknowledge();
    }

    /** The name of {@code machine}: its own attribute when it is a construct of this app, else read from its ARN. */
    private static String stateMachineName(IStateMachine machine) {
        return machine instanceof StateMachine constructed ? constructed.getStateMachineName()
                : Arn.split(machine.getStateMachineArn(), ArnFormat.COLON_RESOURCE_NAME).getResourceName();
    }

    /** The Amazon States Language document, built when the template is resolved. */
    private Map<String, Object> definitionJson() {
        Map<String, Object> states = new LinkedHashMap<>();
        Map<String, Object> waits = new LinkedHashMap<>();
        Map<String, Object> binds = new LinkedHashMap<>();
        List<String> extraGroups = job.getPlacement().securityGroups().stream().skip(1)
                .map(ISecurityGroup::getSecurityGroupId).toList();
        String bindStores = job.getBinding().addStates(binds, NAME_JOB_STATE, Stack.of(this).getPartition(),
                spec.getChannels(), extraGroups);
        String afterCheckpoints = prerequisites.addStates(waits, bindStores);
        String start = checkpointPrefix() != null ? checkpointStates(states, afterCheckpoints)
                : rejectResume(states, afterCheckpoints);
        states.putAll(waits);
        states.putAll(binds);
        states.put(NAME_JOB_STATE, nameJob());
        states.put(TRAIN_STATE, train());
        states.put(CHECK_TRAIN_ERROR, checkTrainError());
        Map<String, Object> wait = new LinkedHashMap<>();
        wait.put("Type", "Wait");
        wait.put("Comment", "Back off before asking SageMaker again");
        wait.put("SecondsPath", "$" + TRAIN_RETRY_WAIT);
        wait.put("Next", TRAIN_STATE);
        states.put(WAIT_TO_RETRY_TRAIN, wait);
        states.put(DESCRIBE_JOB, describeJob());
        states.put(CHECK_JOB, checkJob());
        Map<String, Object> poll = new LinkedHashMap<>();
        poll.put("Type", "Wait");
        poll.put("Comment", "Follow the job: it ran on after an error of the request that created it");
        poll.put("SecondsPath", "$" + JOB_POLL);
        poll.put("Next", DESCRIBE_JOB);
        states.put(WAIT_FOR_JOB, poll);
        Map<String, Object> completed = new LinkedHashMap<>();
        completed.put("Type", "Pass");
        completed.put("Comment", "The job completed: its description, as the Train task's own output");
        completed.put("OutputPath", "$." + TRAINING_JOB);
        if (spec.getCapacityPolicy() == null) {
            completed.put("End", true);
        } else {
            completed.put("Next", RECORD_COMPLETED_JOB);
        }
        states.put(JOB_COMPLETED, completed);
        if (spec.getCapacityPolicy() == null) {
            states.put(CLASSIFY_FAILED_JOB, assignPass("How the job ended, from its FailureReason",
                    Map.of(ATTEMPT_OUTCOME, "{% " + ENDED_JOB_OUTCOME + " %}"), CHOOSE_FAILURE));
        } else {
            capacityStates(states);
        }
        states.put(CHOOSE_FAILURE, chooseFailure());
        states.put(TRAINING_JOB_FAILED, failWith(TrainingErrors.TRAINING_JOB_FAILED, FailureDetail.JOB,
                "The job failed for another reason than capacity"));
        states.put(TRAINING_JOB_STOPPED, failWith(TrainingErrors.TRAINING_JOB_STOPPED, FailureDetail.JOB,
                "The job was stopped before it completed"));
        states.put(CAPACITY_EXHAUSTED, failWith(TrainingErrors.CAPACITY_EXHAUSTED, FailureDetail.JOB, spec.getCapacityPolicy()
                == null ? "SageMaker could not provision the job's instances" : "Every capacity attempt failed"));
        states.put(QUOTA_EXHAUSTED, failWith(TrainingErrors.QUOTA_EXHAUSTED, FailureDetail.NONE, "SageMaker refused the request "
                + "for a quota after every retry" + (spec.getCapacityPolicy() == null ? ""
                : ", and no later attempt uses another instance type")));
        states.put(REQUEST_REFUSED, failWith(TrainingErrors.REQUEST_REFUSED, FailureDetail.DESCRIBE_ERROR,
                "SageMaker refused the request and no job of that name exists"));
        states.put(TRAINING_JOB_UNREADABLE, failWith(TrainingErrors.TRAINING_JOB_UNREADABLE, FailureDetail.DESCRIBE_ERROR,
                "DescribeTrainingJob kept failing: the job may still run"));
        Map<String, Object> asl = new LinkedHashMap<>();
        asl.put("Comment", comment);
        asl.put("StartAt", start);
        asl.put("States", states);
        return asl;
    }

    /** Names the job once, so that every retry of the request asks for the same job, and starts the retry count. */
    private Map<String, Object> nameJob() {
        Map<String, Object> assign = newJobVariables();
        if (spec.getCapacityPolicy() != null) {
            assign.putAll(attemptVariables(0, spec.getInstanceType(), false));
            assign.put(CAPACITY_ATTEMPTS, List.of());
        }
        if (!job.getBinding().isEmpty()) {
            // What the stores read at run time give, for this job and (as bound*) for the capacity policy's attempts.
            String binding = "$." + StoreBinding.BINDING + ".";
            boolean attempts = spec.getCapacityPolicy() != null;
            if (job.getBinding().bindsChannels()) {
                assignBound(assign, INPUT_DATA_CONFIG, binding + "InputDataConfig", attempts);
            }
            if (job.getBinding().bindsSubnets()) {
                assignBound(assign, SUBNETS, binding + "Subnets", attempts);
                if (attempts) {
                    assignBound(assign, AVAILABILITY_ZONES, binding + "AvailabilityZones", true);
                }
            }
            if (job.getBinding().bindsSecurityGroup()) {
                assign.put(SECURITY_GROUP_IDS + ".$", binding + "SecurityGroupIds");
            }
            if (attempts && job.getBinding().bindsFallbackSubnets()) {
                assign.put(bound(FALLBACK_SUBNETS) + ".$", binding + "FallbackSubnets");
                assign.put(bound(FALLBACK_ZONES) + ".$", binding + "FallbackAvailabilityZones");
            }
        }
        Map<String, Object> name = new LinkedHashMap<>();
        name.put("Type", "Pass");
        name.put("Comment", "Name the job '" + job.getJobNamePrefix() + "-<UUID>' once: a retried request that "
                + "SageMaker did carry out fails as ResourceInUse instead of starting a second job");
        name.put("Assign", assign);
        name.put("Next", TRAIN_STATE);
        return name;
    }

    /**
     * Throttling and 5xx answers are retried with doubling waits, at most {@link #TRANSIENT_RETRIES} times; after any
     * other SageMaker error (ValidationException, AccessDenied, ...), or the last retry, DescribeTrainingJob tells a
     * refused request (no job: {@value #REQUEST_REFUSED}) from one SageMaker carried out (a job to follow).
     */
    private Map<String, Object> checkTrainError() {
        List<Map<String, Object>> causes = TRANSIENT_CAUSES.stream()
                .map(pattern -> variable(TRAIN_ERROR + ".Cause", "StringMatches", pattern)).toList();
        Map<String, Object> retriesLeft = new LinkedHashMap<>();
        retriesLeft.put("Variable", "$" + TRAIN_RETRIES);
        retriesLeft.put("NumericLessThan", TRANSIENT_RETRIES);
        Map<String, Object> retry = rule(and(List.of(retriesLeft, AslStates.or(causes))), WAIT_TO_RETRY_TRAIN);
        Map<String, Object> assign = new LinkedHashMap<>();
        assign.put(TRAIN_RETRIES + ".$", "States.MathAdd($" + TRAIN_RETRIES + ", 1)");
        assign.put(TRAIN_RETRY_WAIT + ".$", "States.MathAdd($" + TRAIN_RETRY_WAIT + ", $" + TRAIN_RETRY_WAIT + ")");
        retry.put("Assign", assign);
        return choice("Retry a throttled or failed (5xx) request; else look for the job: a refused request has none, "
                + "a request that SageMaker carried out although it answered an error has one", List.of(retry),
                DESCRIBE_JOB);
    }

    /**
     * The variables that say what attempt {@code index} runs: its number, instance type, data sources and zones, and
     * (with an S3 fallback) its channels and subnets.
     */
    private Map<String, Object> attemptVariables(int index, String instanceType, boolean fromS3) {
        List<TrainingChannel> channels = CapacityAttempts.channelsOf(job, fromS3);
        List<ISubnet> subnets = CapacityAttempts.subnetsOf(job, fromS3);
        Map<String, Object> assign = new LinkedHashMap<>();
        assign.put(CAPACITY_ATTEMPT, index);
        assign.put(INSTANCE_TYPE, instanceType);
        assign.put(DATA_SOURCES, CapacityAttempts.dataSources(channels));
        StoreBinding binding = job.getBinding();
        boolean boundZones = index > 0 && !fromS3 && binding.bindsSubnets();
        boolean boundFallback = fromS3 && binding.bindsFallbackSubnets();
        if (boundZones || boundFallback) {
            assign.put(AVAILABILITY_ZONES + ".$", "$" + bound(boundFallback ? FALLBACK_ZONES : AVAILABILITY_ZONES));
        } else {
            assign.put(AVAILABILITY_ZONES, CapacityAttempts.zonesOf(subnets));
        }
        if (CapacityAttempts.s3Fallback(spec) != null) {
            // From the second job on, the stores read at run time give the job's own channels and subnets.
            boolean boundChannels = index > 0 && !fromS3 && binding.bindsChannels();
            boolean boundSubnets = index > 0 && !fromS3 && binding.bindsSubnets();
            assign.put(INPUT_DATA_CONFIG + (boundChannels ? ".$" : ""), boundChannels ? "$" + bound(INPUT_DATA_CONFIG)
                    : fromS3 ? channels.stream().map(TrainingChannel::render).toList()
                    : job.getRequest().get("InputDataConfig"));
            if (boundSubnets || boundFallback) {
                assign.put(SUBNETS + ".$", "$" + bound(boundFallback ? FALLBACK_SUBNETS : SUBNETS));
            } else {
                assign.put(SUBNETS, fromS3 ? subnets.stream().map(ISubnet::getSubnetId).toList()
                        : ((Map<?, ?>) job.getRequest().get("VpcConfig")).get("Subnets"));
            }
        }
        return assign;
    }

    /** With a capacity policy, what an attempt changes comes from the variables its Pass state assigns. */
    private void capacityVariablesIn(Map<String, Object> parameters) {
        Map<String, Object> resources = new LinkedHashMap<>((Map<String, Object>) parameters.get("ResourceConfig"));
        resources.remove("InstanceType");
        resources.put("InstanceType.$", "$" + INSTANCE_TYPE);
        parameters.put("ResourceConfig", resources);
        if (CapacityAttempts.s3Fallback(spec) != null) {
            parameters.remove("InputDataConfig");
            parameters.put("InputDataConfig.$", "$" + INPUT_DATA_CONFIG);
            Map<String, Object> vpc = new LinkedHashMap<>((Map<String, Object>) parameters.get("VpcConfig"));
            vpc.remove("Subnets");
            vpc.put("Subnets.$", "$" + SUBNETS);
            parameters.put("VpcConfig", vpc);
        }
    }

    /**
     * A job that failed for capacity goes on to the policy's next attempt (after its wait), as a new job; a request
     * refused for a quota after every retry goes on to the next attempt on another instance type
     * ({@link CapacityPlan#nextAfterQuota}); any other end, or one after the last attempt, fails the execution.
     */
    private void capacityStates(Map<String, Object> states) {
        List<CapacityAttempts.Attempt> attempts = CapacityAttempts.of(spec);
        List<String> instanceTypes = new ArrayList<>();
        instanceTypes.add(spec.getInstanceType());
        attempts.forEach(attempt -> instanceTypes.add(attempt.instanceType()));
        List<String> firstStates = new ArrayList<>();
        firstStates.add(null);
        List<Map<String, Object>> choices = new ArrayList<>();
        for (int i = 1; i <= attempts.size(); i++) {
            CapacityAttempts.Attempt attempt = attempts.get(i - 1);
            String pass = "CapacityAttempt" + i;
            String first = pass;
            if (attempt.waitSeconds() > 0) {
                first = "CapacityWait" + i;
                Map<String, Object> wait = new LinkedHashMap<>();
                wait.put("Type", "Wait");
                wait.put("Comment", "Wait for capacity in the same Availability Zone");
                wait.put("Seconds", attempt.waitSeconds());
                wait.put("Next", pass);
                states.put(first, wait);
            }
            firstStates.add(first);
            choices.add(rule(and(List.of(outcomeIs(CapacityPolicy.CAPACITY_ERROR), attemptIs(i - 1))), first));
            Map<String, Object> assign = newJobVariables();
            assign.putAll(attemptVariables(i, attempt.instanceType(), attempt.fromS3()));
            Map<String, Object> next = new LinkedHashMap<>();
            next.put("Type", "Pass");
            next.put("Comment", "Capacity attempt " + i + ": a new job on " + attempt.instanceType()
                    + (attempt.fromS3() ? ", reading S3 instead of Lustre, in any training subnet" : ""));
            next.put("Assign", assign);
            next.put("Next", TRAIN_STATE);
            states.put(pass, next);
        }
        for (int i = 0; i < attempts.size(); i++) {
            int next = CapacityPlan.nextAfterQuota(instanceTypes, i);
            if (next > 0) {
                choices.add(rule(and(List.of(outcomeIs(CapacityPolicy.QUOTA_EXCEEDED), attemptIs(i))),
                        firstStates.get(next)));
            }
        }
        states.put(CHECK_CAPACITY_ERROR, choice("A job that failed for capacity goes on to the capacity policy's next "
                + "attempt, a request refused for a quota to the next attempt on another instance type", choices,
                CHOOSE_FAILURE));
        states.put(RECORD_FAILED_JOB, recordJob(ENDED_JOB_OUTCOME, "$states.input." + TRAINING_JOB + ".FailureReason",
                COUNT_FAILED_JOB, "Record the job that just ended in the execution's list of jobs"));
        states.put(RECORD_REFUSED_REQUEST, recordJob("'" + CapacityPolicy.QUOTA_EXCEEDED + "'", "$string($states.input."
                + TRAIN_ERROR + ".Cause)", COUNT_FAILED_JOB, "Record the request SageMaker refused for a quota after "
                + "every retry (no job of that name exists)"));
        states.put(COUNT_FAILED_JOB, countJob(CHECK_CAPACITY_ERROR));
        states.put(RECORD_COMPLETED_JOB, recordJob("'" + CapacityPolicy.COMPLETED + "'", null, COUNT_COMPLETED_JOB,
                "Record the job that completed in the execution's list of jobs"));
        states.put(COUNT_COMPLETED_JOB, countJob(REPORT_ATTEMPTS));
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("Type", "Pass");
        report.put("QueryLanguage", "JSONata");
        report.put("Comment", "The completed job's description, with every job the execution ran");
        report.put("Output", "{% $merge([$states.input, {'CapacityAttempts': $" + CAPACITY_ATTEMPTS + "}]) %}");
        report.put("End", true);
        states.put(REPORT_ATTEMPTS, report);
    }

    private static Map<String, Object> outcomeIs(String outcome) {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("Variable", "$" + ATTEMPT_OUTCOME);
        condition.put("StringEquals", outcome);
        return condition;
    }

    private static Map<String, Object> attemptIs(int index) {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("Variable", "$" + CAPACITY_ATTEMPT);
        condition.put("NumericEquals", index);
        return condition;
    }

    /** The Fail state for how the last attempt ended. */
    private static Map<String, Object> chooseFailure() {
        return choice("Fail with the error that says how the last attempt ended",
                List.of(rule(outcomeIs(CapacityPolicy.CAPACITY_ERROR), CAPACITY_EXHAUSTED),
                        rule(outcomeIs(CapacityPolicy.QUOTA_EXCEEDED), QUOTA_EXHAUSTED),
                        rule(outcomeIs(CapacityPolicy.STOPPED), TRAINING_JOB_STOPPED)),
                TRAINING_JOB_FAILED);
    }

    /**
     * DescribeTrainingJob of the execution's job after any error of the Train task: the job's status and
     * FailureReason come from SageMaker, never from the error's cause. A name with no job means the request was
     * refused; transient errors of the call are retried.
     */
    private Map<String, Object> describeJob() {
        Map<String, Object> notFound = new LinkedHashMap<>();
        notFound.put("ErrorEquals", JOB_NOT_FOUND);
        notFound.put("MaxAttempts", 0);
        Map<String, Object> refused = new LinkedHashMap<>();
        refused.put("ErrorEquals", JOB_NOT_FOUND);
        refused.put("ResultPath", "$." + DESCRIBE_ERROR);
        refused.put("Next", REQUEST_REFUSED);
        Map<String, Object> unreadable = new LinkedHashMap<>();
        unreadable.put("ErrorEquals", List.of("States.ALL"));
        unreadable.put("ResultPath", "$." + DESCRIBE_ERROR);
        unreadable.put("Next", TRAINING_JOB_UNREADABLE);
        Map<String, Object> describe = new LinkedHashMap<>();
        describe.put("Type", "Task");
        describe.put("Comment", "Read the job's status and FailureReason; no job of that name: the request was refused");
        describe.put("Resource", "arn:" + Stack.of(this).getPartition() + ":states:::aws-sdk:sagemaker:describeTrainingJob");
        describe.put("Parameters", Map.of("TrainingJobName.$", "$" + TRAINING_JOB_NAME));
        describe.put("ResultPath", "$." + TRAINING_JOB);
        describe.put("TimeoutSeconds", AslStates.CALL_TIMEOUT_SECONDS);
        describe.put("Retry", List.of(notFound, transientErrors()));
        describe.put("Catch", List.of(refused, unreadable));
        describe.put("Next", CHECK_JOB);
        return describe;
    }

    /**
     * A job that completed succeeds as the Train task does; one that failed or was stopped is classified (and, with a
     * policy, recorded); one still running is followed, the polls doubling from {@value #FIRST_JOB_POLL_SECONDS} s.
     */
    private Map<String, Object> checkJob() {
        String ended = spec.getCapacityPolicy() == null ? CLASSIFY_FAILED_JOB : RECORD_FAILED_JOB;
        Map<String, Object> pollSooner = new LinkedHashMap<>();
        pollSooner.put("Variable", "$" + JOB_POLL);
        pollSooner.put("NumericLessThan", JOB_POLL_DOUBLING_BELOW);
        Map<String, Object> doubling = rule(pollSooner, WAIT_FOR_JOB);
        doubling.put("Assign", Map.of(JOB_POLL + ".$", "States.MathAdd($" + JOB_POLL + ", $" + JOB_POLL + ")"));
        return choice("Completed, Failed or Stopped: the job ended; InProgress or Stopping: follow it",
                List.of(rule(variable(TRAINING_JOB + ".TrainingJobStatus", "StringEquals", "Completed"), JOB_COMPLETED),
                        rule(variable(TRAINING_JOB + ".TrainingJobStatus", "StringEquals", "Failed"), ended),
                        rule(variable(TRAINING_JOB + ".TrainingJobStatus", "StringEquals", "Stopped"), ended),
                        doubling),
                WAIT_FOR_JOB);
    }

    /**
     * A JSONata Pass state that appends the attempt that just ended to the list of the execution's attempts: number,
     * name, instance type, data sources, Availability Zones, outcome and (unless it completed) the reason, at most
     * {@value #MAX_RECORDED_REASON} characters. It also sets the outcome that {@code CheckCapacityError} reads.
     */
    private static Map<String, Object> recordJob(String outcome, String reason, String next, String comment) {
        String record = "{'Attempt': $" + CAPACITY_ATTEMPT + ", 'TrainingJobName': $" + TRAINING_JOB_NAME
                + ", 'InstanceType': $" + INSTANCE_TYPE + ", 'DataSources': $" + DATA_SOURCES
                + ", 'AvailabilityZones': $" + AVAILABILITY_ZONES + ", 'Outcome': " + outcome;
        if (reason != null) {
            record += ", 'FailureReason': $substring(" + reason + ", 0, " + MAX_RECORDED_REASON + ")";
        }
        record += "}";
        Map<String, Object> assign = new LinkedHashMap<>();
        assign.put(ATTEMPT_OUTCOME, "{% " + outcome + " %}");
        assign.put(CAPACITY_ATTEMPTS, "{% $append($" + CAPACITY_ATTEMPTS + ", [" + record + "]) %}");
        return assignPass(comment, assign, next);
    }

    /**
     * A JSONata Task that counts the job that just ended in CloudWatch ({@link CapacityPolicy#ATTEMPTS_METRIC}); a
     * failure to count never fails the training, so every error goes on with the state's input.
     */
    private Map<String, Object> countJob(String next) {
        List<Map<String, Object>> byOutcome = List.of(
                dimension(CapacityPolicy.JOB_NAME_PREFIX_DIMENSION, job.getJobNamePrefix()),
                dimension(CapacityPolicy.OUTCOME_DIMENSION, "{% $" + ATTEMPT_OUTCOME + " %}"));
        List<Map<String, Object>> byJob = List.of(byOutcome.get(0),
                dimension(CapacityPolicy.INSTANCE_TYPE_DIMENSION, "{% $" + INSTANCE_TYPE + " %}"),
                dimension(CapacityPolicy.DATA_SOURCES_DIMENSION, "{% $" + DATA_SOURCES + " %}"), byOutcome.get(1));
        Map<String, Object> arguments = new LinkedHashMap<>();
        arguments.put("Namespace", CapacityPolicy.METRIC_NAMESPACE);
        arguments.put("MetricData", List.of(datum(byOutcome), datum(byJob)));
        Map<String, Object> goOn = new LinkedHashMap<>();
        goOn.put("ErrorEquals", List.of("States.ALL"));
        goOn.put("Output", "{% $states.input %}");
        goOn.put("Next", next);
        Map<String, Object> count = new LinkedHashMap<>();
        count.put("Type", "Task");
        count.put("QueryLanguage", "JSONata");
        count.put("Comment", "Count the job in CloudWatch by outcome (and instance type and data sources)");
        count.put("Resource", "arn:" + Stack.of(this).getPartition() + ":states:::aws-sdk:cloudwatch:putMetricData");
        count.put("Arguments", arguments);
        count.put("Output", "{% $states.input %}");
        count.put("TimeoutSeconds", AslStates.CALL_TIMEOUT_SECONDS);
        count.put("Retry", List.of(transientErrors()));
        count.put("Catch", List.of(goOn));
        count.put("Next", next);
        return count;
    }

    private static Map<String, Object> dimension(String name, String value) {
        Map<String, Object> dimension = new LinkedHashMap<>();
        dimension.put("Name", name);
        dimension.put("Value", value);
        return dimension;
    }

    private static Map<String, Object> datum(List<Map<String, Object>> dimensions) {
        Map<String, Object> datum = new LinkedHashMap<>();
        datum.put("MetricName", CapacityPolicy.ATTEMPTS_METRIC);
        datum.put("Dimensions", dimensions);
        datum.put("Value", 1);
        datum.put("Unit", "Count");
        return datum;
    }

    /**
     * A JSONata Fail state with our own {@code error} (never a {@code States.} name, which the States Language
     * reserves) and a JSON cause: the job's name, the Train task's error and cause (at most {@value #MAX_FAILED_CAUSE}
     * characters), the job's status and FailureReason or DescribeTrainingJob's error as {@code detail} says, and with
     * a policy its attempts.
     */
    /** What a failed execution's cause adds to the Train task's error. */
    private enum FailureDetail {
        /** The job's status and FailureReason (DescribeTrainingJob's answer). */
        JOB,
        /** DescribeTrainingJob's own error. */
        DESCRIBE_ERROR,
        /** Nothing. */
        NONE
    }

    private Map<String, Object> failWith(String error, FailureDetail detail, String comment) {
        String cause = "'TrainingJobName': $" + TRAINING_JOB_NAME + ", 'Error': $states.input." + TRAIN_ERROR
                + ".Error, 'Cause': $substring($string($states.input." + TRAIN_ERROR + ".Cause), 0, " + MAX_FAILED_CAUSE
                + ")";
        if (detail == FailureDetail.JOB) {
            cause += ", 'TrainingJobStatus': $states.input." + TRAINING_JOB + ".TrainingJobStatus, 'FailureReason': "
                    + "$states.input." + TRAINING_JOB + ".FailureReason";
        } else if (detail == FailureDetail.DESCRIBE_ERROR) {
            cause += ", 'DescribeError': $states.input." + DESCRIBE_ERROR;
        }
        if (spec.getCapacityPolicy() != null) {
            cause += ", 'CapacityAttempts': $" + CAPACITY_ATTEMPTS;
        }
        Map<String, Object> failed = new LinkedHashMap<>();
        failed.put("Type", "Fail");
        failed.put("QueryLanguage", "JSONata");
        failed.put("Comment", comment);
        failed.put("Error", error);
        failed.put("Cause", "{% $string({" + cause + "}) %}");
        return failed;
    }

    /** Assigns {@code variable} (and, for later capacity attempts, its bound copy) from {@code path} of the input. */
    private static void assignBound(Map<String, Object> assign, String variable, String path, boolean attempts) {
        assign.remove(variable);
        assign.put(variable + ".$", path);
        if (attempts) {
            assign.put(bound(variable) + ".$", path);
        }
    }

    /** @return {@code members} with {@code member} taken from {@code variable} at run time, in its place */
    private static Map<String, Object> fromVariable(Map<String, Object> members, String member, String variable) {
        Map<String, Object> replaced = new LinkedHashMap<>();
        members.forEach((name, value) -> {
            if (name.equals(member)) {
                replaced.put(member + ".$", "$" + variable);
            } else {
                replaced.put(name, value);
            }
        });
        return replaced;
    }

    /** @return the variable that keeps what the stores read at run time gave for {@code name}, for later attempts */
    private static String bound(String name) {
        return "bound" + Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    /** A new job name and a fresh count of transient retries, for each job an execution starts. */
    private Map<String, Object> newJobVariables() {
        Map<String, Object> assign = new LinkedHashMap<>();
        assign.put(TRAINING_JOB_NAME + ".$", "States.Format('" + job.getJobNamePrefix() + "-{}', States.UUID())");
        assign.put(TRAIN_RETRIES, 0);
        assign.put(TRAIN_RETRY_WAIT, FIRST_TRANSIENT_WAIT_SECONDS / 2);
        assign.put(JOB_POLL, FIRST_JOB_POLL_SECONDS / 2);
        return assign;
    }

    private Map<String, Object> train() {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("TrainingJobName.$", "$" + TRAINING_JOB_NAME);
        parameters.putAll(job.getRequest());
        if (job.getBinding().bindsChannels()) {
            parameters = fromVariable(parameters, "InputDataConfig", INPUT_DATA_CONFIG);
        }
        if (job.getBinding().bindsSubnets()) {
            parameters.put("VpcConfig", fromVariable((Map<String, Object>) parameters.get("VpcConfig"), "Subnets",
                    SUBNETS));
        }
        if (job.getBinding().bindsSecurityGroup()) {
            parameters.put("VpcConfig", fromVariable((Map<String, Object>) parameters.get("VpcConfig"),
                    "SecurityGroupIds", SECURITY_GROUP_IDS));
        }
        if (checkpointPrefix() != null) {
            Map<String, Object> checkpoint = new LinkedHashMap<>();
            // Bucket names hold no character special to States.Format; the prefix may hold an apostrophe.
            checkpoint.put("S3Uri.$", "States.Format('" + spec.getOutputBucket().uri(formatLiteral(checkpointPrefix()))
                    + "/{}/', $" + CHECKPOINT_RUN + ")");
            Object localPath = ((Map<?, ?>) job.getRequest().get("CheckpointConfig")).get("LocalPath");
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
        Map<String, Object> quota = new LinkedHashMap<>();
        quota.put("ErrorEquals", List.of(RESOURCE_LIMIT_EXCEEDED));
        quota.put("IntervalSeconds", QUOTA_RETRY_INTERVAL_SECONDS);
        quota.put("MaxAttempts", QUOTA_RETRIES);
        quota.put("BackoffRate", 2);
        quota.put("MaxDelaySeconds", QUOTA_RETRY_MAX_DELAY_SECONDS);
        quota.put("JitterStrategy", "FULL");
        train.put("Retry", List.of(quota));
        Map<String, Object> overQuota = new LinkedHashMap<>();
        overQuota.put("ErrorEquals", List.of(RESOURCE_LIMIT_EXCEEDED));
        overQuota.put("ResultPath", "$." + TRAIN_ERROR);
        overQuota.put("Next", spec.getCapacityPolicy() == null ? QUOTA_EXHAUSTED : RECORD_REFUSED_REQUEST);
        Map<String, Object> rejected = new LinkedHashMap<>();
        rejected.put("ErrorEquals", List.of(SAGEMAKER_EXCEPTION));
        rejected.put("ResultPath", "$." + TRAIN_ERROR);
        rejected.put("Next", CHECK_TRAIN_ERROR);
        // A job that ran and failed (States.TaskFailed), and every other refusal whatever its name (ResourceInUse,
        // ResourceNotFound, ...): DescribeTrainingJob tells them apart.
        Map<String, Object> other = new LinkedHashMap<>();
        other.put("ErrorEquals", List.of("States.ALL"));
        other.put("ResultPath", "$." + TRAIN_ERROR);
        other.put("Next", DESCRIBE_JOB);
        train.put("Catch", List.of(overQuota, rejected, other));
        if (spec.getCapacityPolicy() == null) {
            train.put("End", true);
        } else {
            capacityVariablesIn(parameters);
            train.put("Next", RECORD_COMPLETED_JOB);
        }
        return train;
    }

    /**
     * Without checkpoints: an input that asks to resume fails at once instead of silently training from scratch.
     *
     * @return the first state
     */
    private String rejectResume(Map<String, Object> states, String next) {
        states.put(REJECT_RESUME, choice("This definition keeps no checkpoints, so there is nothing to resume from",
                List.of(rule(isPresent(RESUME_FROM), RESUME_WITHOUT_CHECKPOINTS)), next));
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
        states.put(CHOOSE_CHECKPOINTS, choice("A fresh checkpoint prefix per execution, unless the input names an "
                + "earlier execution to resume from", List.of(fresh, resume), INVALID_RESUME_FROM));

        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("Bucket", spec.getOutputBucket().getBucketName());
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
        find.put("TimeoutSeconds", AslStates.CALL_TIMEOUT_SECONDS);
        find.put("Retry", List.of(transientErrors()));
        find.put("Next", CHECK_CHECKPOINTS);
        states.put(FIND_CHECKPOINTS, find);

        states.put(CHECK_CHECKPOINTS, choice(null,
                List.of(rule(variable(CHECKPOINTS_FOUND + ".KeyCount", "NumericGreaterThan", 0), next)),
                NO_CHECKPOINTS_TO_RESUME));

        states.put(INVALID_RESUME_FROM, fail(INVALID_RESUME_FROM, "'" + RESUME_FROM + "' must be the name of an "
                + "earlier execution of this state machine (a non-empty string)"));
        states.put(NO_CHECKPOINTS_TO_RESUME, fail(NO_CHECKPOINTS_TO_RESUME, "No checkpoints under the prefix of the "
                + "execution named by '" + RESUME_FROM + "': check the name, or start without it to train from scratch"));
        return CHOOSE_CHECKPOINTS;
    }

    private String checkpointPrefix() {
        return spec.getCheckpointPrefix();
    }

    /** Escapes the characters that are special in a {@code States.Format} template (not in tokens). */
    static String formatLiteral(String text) {
        return Token.isUnresolved(text) ? text : text.replaceAll("([{}'\\\\])", "\\\\$1");
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
