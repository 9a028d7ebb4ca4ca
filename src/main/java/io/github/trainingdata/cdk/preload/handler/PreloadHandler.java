package io.github.trainingdata.cdk.preload.handler;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import io.github.trainingdata.cdk.internal.handler.CustomResourceEvent;
import io.github.trainingdata.cdk.internal.handler.ExecutionArns;
import io.github.trainingdata.cdk.internal.handler.OwnStack;
import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.DescribeTrainingJobResponse;
import software.amazon.awssdk.services.sagemaker.model.MetricData;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Handler of the preload custom resource (run by the stack's custom-resource dispatcher, onEvent + isComplete).
 *
 * <p>The work is done by the preload state machine (check each data location, import the metadata of the
 * non-empty ones, run the worker); this handler only starts, watches and stops its executions. Create starts an
 * execution named {@code <WorkerJobNamePrefix>-<8 hex of WarmKey>-<12 hex of the request>}
 * ({@link PreloadExecution}): the resource's physical id, and the first worker's name. A request delivered again
 * starts nothing new while its execution runs or once it succeeded; when CloudFormation sends it again after that
 * execution ended without success (a retried deployment keeps the RequestId), it starts the request's next attempt,
 * up to {@link PreloadExecution#MAX_ATTEMPTS}. Update starts a new one only when {@code WarmKey} changed (or the physical id predates WarmKey
 * digests); during a rollback ({@link PreloadRollback}) it starts nothing and restores the execution of the
 * configuration rolled back to (stopping the abandoned one and cancelling its FSx import task). Delete stops a running
 * execution, cancels its import task and waits until the task and the workers have stopped; it never fails.
 *
 * <p>isComplete, when the deploy waits, reports {@value #STATUS} ({@link PreloadStatus}) with {@value #FILES_WARMED},
 * {@value #BYTES_WARMED} and {@value #SECONDS} from the metrics of the worker the execution's output names, and
 * {@value #EMPTY_LOCATIONS}; it stops waiting after {@code WaitSeconds} (status STARTED: the execution goes on). A
 * failed execution fails a create. Throttling, 5xx answers and timeouts mean "not complete yet".
 */
public final class PreloadHandler {
    /** Attribute: the worker job's name: the last attempt's once the execution succeeded, else the first's. */
    public static final String WORKER_JOB_NAME = "WorkerJobName";
    /** Attribute: the ARN of the preload execution that is current for the resource's properties. */
    public static final String EXECUTION_ARN = "ExecutionArn";
    /** Attribute: a {@link PreloadStatus} value. */
    public static final String STATUS = "Status";
    /** Attribute: how many files the worker warmed. */
    public static final String FILES_WARMED = "FilesWarmed";
    /** Attribute: how many bytes those files hold (SageMaker keeps metrics as 32-bit floats: about 7 digits). */
    public static final String BYTES_WARMED = "BytesWarmed";
    /** Attribute: how long the warm-up took, in whole seconds. */
    public static final String SECONDS = "Seconds";
    /**
     * Attribute: the data locations ({@code s3://bucket/prefix/}) that held no object, comma-separated (S3 URIs of
     * this library hold no comma), empty when none (or not known). At most {@value #MAX_EMPTY_LOCATIONS_LENGTH}
     * characters: a custom resource's response may not exceed 4,096 bytes (CloudFormation User Guide, "Custom resource
     * response objects"), so a longer list ends in {@code ,+<n> more} (the execution's output has them all).
     */
    public static final String EMPTY_LOCATIONS = "EmptyLocations";
    /** The longest {@value #EMPTY_LOCATIONS} attribute. */
    public static final int MAX_EMPTY_LOCATIONS_LENGTH = 2048;
    /**
     * What onEvent did, handed to isComplete by the dispatcher (it passes onEvent's top-level fields on):
     * {@code STARTED} (a new execution to wait for), {@code KEPT} (the current one is kept) or {@code RESTORED} (a
     * rollback restored another one: never wait).
     */
    static final String ACTION = "PreloadAction";

    private static final int MAX_CAUSE_LENGTH = 2000;
    private static final Map<String, Object> NOT_COMPLETE = Map.of("IsComplete", false);

    /** What onEvent decided; see {@link #ACTION}. */
    private enum Action { STARTED, KEPT, RESTORED }

    private final SfnClient stepFunctions;
    private final SageMakerClient sageMaker;
    private final CloudFormationClient cloudFormation;
    private final PreloadTeardown teardown;
    private final PreloadRollback rollback;
    private final Clock clock;

    /**
     * The handler the provider's dispatcher makes for a request: clients for the function's Region that sign as the
     * preload's role.
     *
     * @param credentials the preload's role's credentials
     */
    public PreloadHandler(AwsCredentialsProvider credentials) {
        this(PreloadClients.stepFunctionsClientBuilder().credentialsProvider(credentials).build(),
                PreloadClients.sageMakerClientBuilder().credentialsProvider(credentials).build(),
                PreloadClients.cloudFormationClientBuilder().credentialsProvider(credentials).build(),
                PreloadClients.fsxClientBuilder().credentialsProvider(credentials).build(), Clock.systemUTC());
    }

    /**
     * A handler with its clients and clock supplied.
     *
     * @param stepFunctions  starts, lists, describes and stops preload executions
     * @param sageMaker      describes (for its metrics) and stops the workers
     * @param cloudFormation tells whether the stack is rolling back, or runs no operation at all
     * @param fsx            describes and cancels the import task of a stopped execution
     * @param clock          measures how long the deploy has waited
     */
    public PreloadHandler(SfnClient stepFunctions, SageMakerClient sageMaker, CloudFormationClient cloudFormation,
            FSxClient fsx, Clock clock) {
        this.stepFunctions = Objects.requireNonNull(stepFunctions, "stepFunctions");
        this.sageMaker = Objects.requireNonNull(sageMaker, "sageMaker");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.cloudFormation = Objects.requireNonNull(cloudFormation, "cloudFormation");
        this.teardown = new PreloadTeardown(stepFunctions, sageMaker, Objects.requireNonNull(fsx, "fsx"));
        this.rollback = new PreloadRollback(cloudFormation, stepFunctions, teardown);
    }

    /**
     * Handles Create, Update and Delete.
     *
     * @param event   the CloudFormation request
     * @param context the Lambda context
     * @return {@code PhysicalResourceId}, {@value #ACTION} and, for Create and Update, {@code Data} with
     *         {@value #WORKER_JOB_NAME} and {@value #EXECUTION_ARN}
     */
    public Map<String, Object> onEvent(Map<String, Object> event, Context context) {
        CustomResourceEvent request = new CustomResourceEvent(event);
        LambdaLogger log = context.getLogger();
        switch (request.requestType()) {
            case "Create":
                return started(request, start(request, log), Action.STARTED);
            case "Update":
                if (keepsWarmUp(request)) {
                    log.log("WarmKey is unchanged: keeping preload " + request.physicalResourceId());
                    return started(request, request.physicalResourceId(), Action.KEPT);
                }
                PreloadProperties properties = PreloadProperties.from(request.resourceProperties());
                if (rollback.inProgress(request, log)) {
                    return started(request, rollback.restore(request, properties, log), Action.RESTORED);
                }
                return started(request, start(request, log), Action.STARTED);
            case "Delete":
                teardown.stopExecution(request, log);
                return Map.of("PhysicalResourceId", request.physicalResourceId());
            default:
                throw new IllegalArgumentException("Unknown RequestType " + request.requestType());
        }
    }

    /**
     * Tells the dispatcher whether the preload is done with.
     *
     * @param event   the request, with the PhysicalResourceId, Data and {@value #ACTION} onEvent
     *                returned
     * @param context the Lambda context
     * @return {@code IsComplete} and, once complete, {@code Data}
     * @throws IllegalStateException if the execution a create started failed, timed out or was stopped
     */
    public Map<String, Object> isComplete(Map<String, Object> event, Context context) {
        CustomResourceEvent request = new CustomResourceEvent(event);
        LambdaLogger log = context.getLogger();
        if (request.requestType().equals("Delete")) {
            return teardown.deleted(request, log) ? complete(Map.of()) : NOT_COMPLETE;
        }
        PreloadProperties properties = PreloadProperties.from(request.resourceProperties());
        Action action = request.field(ACTION).map(Action::valueOf)
                .orElse(keepsWarmUp(request) ? Action.KEPT : Action.STARTED);
        if (properties.waitSeconds() == 0 && action != Action.RESTORED) {
            return complete(Map.of(STATUS, PreloadStatus.STARTED));
        }
        String arn = request.data(EXECUTION_ARN).orElseGet(() -> executionArn(request, request.physicalResourceId()));
        DescribeExecutionResponse execution;
        try {
            execution = stepFunctions.describeExecution(r -> r.executionArn(arn));
        } catch (ExecutionDoesNotExistException e) {
            if (action != Action.STARTED) {
                log.log("Preload execution " + arn + " does not exist (Step Functions keeps executions 90 days after "
                        + "they end; a rollback may have found none): its result is unknown");
                return complete(unwarmed(PreloadStatus.UNKNOWN, List.of()));
            }
            log.log("Preload execution " + arn + " is not visible yet (DescribeExecution is eventually consistent)");
            return NOT_COMPLETE;
        } catch (SdkException e) {
            if (action == Action.RESTORED && !SdkCalls.isTransient(e)) {
                log.log("Could not describe the restored preload execution " + arn + " (the rollback goes on): "
                        + e.getMessage());
                return complete(unwarmed(PreloadStatus.UNKNOWN, List.of()));
            }
            return notCompleteIfTransient(e, "describe preload execution " + arn, log);
        }
        ExecutionStatus status = execution.status();
        if (status == ExecutionStatus.SUCCEEDED) {
            return succeeded(execution, request.physicalResourceId(), log);
        }
        if (endedWithoutSuccess(status)) {
            String failure = failure(execution, request.physicalResourceId());
            if (request.requestType().equals("Create")) {
                throw new IllegalStateException(failure);
            }
            log.log(failure + " The update goes on: it may be the rollback of another update.");
            return complete(unwarmed(PreloadStatus.FAILED, List.of()));
        }
        if (action == Action.RESTORED) {
            log.log("Restored preload execution " + arn + " is " + execution.statusAsString() + ": a rollback never "
                    + "waits for it");
            return complete(unwarmed(PreloadStatus.STARTED, List.of()));
        }
        long waited = Duration.between(execution.startDate(), clock.instant()).toSeconds();
        if (waited >= properties.waitSeconds()) {
            log.log("Preload execution " + arn + " still runs after " + waited + " s: the deploy goes on without "
                    + "waiting, the execution goes on");
            return complete(unwarmed(PreloadStatus.STARTED, List.of()));
        }
        log.log("Preload execution " + arn + ": " + execution.statusAsString() + ", waited " + waited + " of "
                + properties.waitSeconds() + " s");
        return NOT_COMPLETE;
    }

    /**
     * Whether this Update keeps the warm-up of the current physical id: WarmKey is unchanged and the physical id is
     * an execution that warmed it (a physical id from before WarmKey digests were part of execution names is warmed
     * once more).
     */
    private static boolean keepsWarmUp(CustomResourceEvent request) {
        if (!request.requestType().equals("Update")) {
            return false;
        }
        PreloadProperties now = PreloadProperties.from(request.resourceProperties());
        return Objects.equals(now.warmKey(), request.oldResourceProperties().get(PreloadProperties.WARM_KEY))
                && PreloadExecution.warms(request.physicalResourceId(), now.workerJobNamePrefix(), now.warmKey());
    }

    /**
     * The execution named {@code name}: a kept warm-up's runs on the state machine it was started on, any other on
     * the state machine of the resource's properties.
     */
    private static String executionArn(CustomResourceEvent request, String name) {
        Map<?, ?> properties = keepsWarmUp(request) && request.oldResourceProperties()
                .get(PreloadProperties.STATE_MACHINE_ARN) != null
                ? request.oldResourceProperties() : request.resourceProperties();
        return ExecutionArns.of(String.valueOf(properties.get(PreloadProperties.STATE_MACHINE_ARN)), name);
    }

    /**
     * Starts the request's execution, or finds the one an earlier delivery of the request started: one that runs or
     * succeeded is kept (a repeated delivery, or an answer that was lost); one that ended without success (a retried
     * deployment, which sends the request again with the same RequestId) has its workers stopped if one still runs
     * and is followed by the next attempt, up to
     * {@link PreloadExecution#MAX_ATTEMPTS}, after which the last one is kept and isComplete reports its end.
     *
     * @return the execution's name (the physical id)
     */
    private String start(CustomResourceEvent request, LambdaLogger log) {
        PreloadProperties properties = PreloadProperties.from(request.resourceProperties());
        String requestKey = request.stackId() + "|" + request.logicalResourceId() + "|" + request.requestId();
        String input = PreloadExecution.input(properties.fileSystemId(), properties.dataLocations());
        for (int attempt = 1; ; attempt++) {
            String name = PreloadExecution.name(properties.workerJobNamePrefix(), properties.warmKey(), requestKey,
                    attempt);
            try {
                stepFunctions.startExecution(r -> r.stateMachineArn(properties.stateMachineArn()).name(name)
                        .input(input));
                log.log("Started preload execution " + name + " (attempt " + attempt + " of this request) with input "
                        + input);
                return name;
            } catch (ExecutionAlreadyExistsException e) {
                String arn = ExecutionArns.of(properties.stateMachineArn(), name);
                ExecutionStatus status;
                try {
                    status = stepFunctions.describeExecution(r -> r.executionArn(arn)).status();
                } catch (ExecutionDoesNotExistException notYet) {
                    log.log("Preload execution " + name + " already exists but is not visible yet (DescribeExecution "
                            + "is eventually consistent): keeping it");
                    return name;
                }
                if (!endedWithoutSuccess(status)) {
                    log.log("Preload execution " + name + " already exists (" + status + ": this request was "
                            + "delivered before): not starting another");
                    return name;
                }
                if (attempt == PreloadExecution.MAX_ATTEMPTS || OwnStack.idle(cloudFormation, request, log)) {
                    log.log("Preload execution " + name + " ended " + status + (attempt == PreloadExecution.MAX_ATTEMPTS
                            ? ", and this request has started " + attempt + " executions, the most it starts"
                            : ", and the stack runs no operation (this is a late duplicate of a request the stack is "
                            + "done with, which CloudFormation does not wait for)")
                            + ": not starting another (deploy again, a new request, once the cause is fixed)");
                    return name;
                }
                log.log("Preload execution " + name + " ended " + status + " (a retried deployment sends the same "
                        + "request again): starting attempt " + (attempt + 1));
                teardown.stopWorkers(name, log);
            }
        }
    }

    /** FAILED, TIMED_OUT or ABORTED: an execution that is over and warmed nothing it can report. */
    private static boolean endedWithoutSuccess(ExecutionStatus status) {
        return status == ExecutionStatus.FAILED || status == ExecutionStatus.TIMED_OUT
                || status == ExecutionStatus.ABORTED;
    }

    private Map<String, Object> succeeded(DescribeExecutionResponse execution, String physicalId, LambdaLogger log) {
        PreloadExecution.Output output = PreloadExecution.Output.parse(execution.output());
        if (PreloadStatus.EMPTY.equals(output.status())) {
            log.log("Preload " + physicalId + ": the data locations hold no object yet, nothing was warmed");
            return complete(unwarmed(PreloadStatus.EMPTY, output.emptyLocations()));
        }
        String status = PreloadStatus.PARTIAL.equals(output.status()) ? PreloadStatus.PARTIAL : PreloadStatus.WARMED;
        if (status.equals(PreloadStatus.PARTIAL)) {
            log.log("Preload " + physicalId + ": warmed the locations that hold data; no object yet at "
                    + String.join(", ", output.emptyLocations()));
        }
        String worker = output.workerJobName() != null ? output.workerJobName() : physicalId;
        Map<String, Object> data = new LinkedHashMap<>();
        data.put(STATUS, status);
        data.put(WORKER_JOB_NAME, worker);
        data.put(EMPTY_LOCATIONS, emptyLocations(output.emptyLocations()));
        DescribeTrainingJobResponse job;
        try {
            job = sageMaker.describeTrainingJob(r -> r.trainingJobName(worker));
        } catch (SdkException e) {
            if (SdkCalls.isTransient(e)) {
                return notCompleteIfTransient(e, "describe preload worker " + worker, log);
            }
            log.log("Could not read the metrics of preload worker " + worker + " (reported as 0): " + e.getMessage());
            data.putAll(counts(Optional.empty(), Optional.empty(), Optional.empty()));
            return complete(data);
        }
        Optional<String> files = metric(job, PreloadMetrics.FILES, log);
        Optional<String> bytes = metric(job, PreloadMetrics.BYTES, log);
        Optional<String> seconds = metric(job, PreloadMetrics.SECONDS, log);
        if (seconds.isEmpty() && job.trainingStartTime() != null && job.trainingEndTime() != null) {
            seconds = Optional.of(Long.toString(
                    Duration.between(job.trainingStartTime(), job.trainingEndTime()).toSeconds()));
        }
        data.putAll(counts(files, bytes, seconds));
        return complete(data);
    }

    private static Map<String, Object> counts(Optional<String> files, Optional<String> bytes, Optional<String> seconds) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put(FILES_WARMED, files.orElse("0"));
        data.put(BYTES_WARMED, bytes.orElse("0"));
        data.put(SECONDS, seconds.orElse("0"));
        return data;
    }

    private static String failure(DescribeExecutionResponse execution, String physicalId) {
        String cause = execution.cause() == null ? "" : execution.cause();
        if (cause.length() > MAX_CAUSE_LENGTH) {
            cause = cause.substring(0, MAX_CAUSE_LENGTH) + "…";
        }
        return "Preload execution " + execution.executionArn() + " ended " + execution.statusAsString() + ": "
                + execution.error() + ": " + cause + ". Its history is in the Step Functions console; the workers' "
                + "logs, if one started, are in CloudWatch Logs group /aws/sagemaker/TrainingJobs, streams "
                + physicalId + "[-<attempt>]/algo-1-*.";
    }

    private static Map<String, Object> notCompleteIfTransient(SdkException e, String what, LambdaLogger log) {
        if (!SdkCalls.isTransient(e)) {
            throw e;
        }
        log.log("Could not " + what + " (transient, not complete yet): " + e.getMessage());
        return NOT_COMPLETE;
    }

    private static Optional<String> metric(DescribeTrainingJobResponse job, String name, LambdaLogger log) {
        Optional<String> value = job.finalMetricDataList().stream()
                .filter(metric -> name.equals(metric.metricName()) && metric.value() != null)
                .map(MetricData::value)
                .map(number -> Long.toString(Math.round(number.doubleValue())))
                .reduce((first, last) -> last);
        if (value.isEmpty()) {
            log.log("Preload worker " + job.trainingJobName() + " reported no metric " + name
                    + ": check the worker's MetricDefinitions");
        }
        return value;
    }

    /** The attributes of a preload that warmed nothing (yet): the status, zero counts and the empty locations. */
    private static Map<String, Object> unwarmed(String status, List<String> emptyLocations) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put(STATUS, status);
        data.putAll(counts(Optional.empty(), Optional.empty(), Optional.empty()));
        data.put(EMPTY_LOCATIONS, emptyLocations(emptyLocations));
        return data;
    }

    /** The {@value #EMPTY_LOCATIONS} attribute: the locations, comma-separated, cut to fit a response. */
    static String emptyLocations(List<String> locations) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < locations.size(); i++) {
            String more = ",+" + (locations.size() - i) + " more";
            String next = (i == 0 ? "" : ",") + locations.get(i);
            boolean last = i == locations.size() - 1;
            if (text.length() + next.length() + (last ? 0 : more.length()) > MAX_EMPTY_LOCATIONS_LENGTH) {
                return text.append(i == 0 ? more.substring(1) : more).toString();
            }
            text.append(next);
        }
        return text.toString();
    }

    private static Map<String, Object> started(CustomResourceEvent request, String name, Action action) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put(WORKER_JOB_NAME, name);
        // A kept execution runs on the state machine it was started on; a new or restored one on the properties' one.
        data.put(EXECUTION_ARN, action == Action.KEPT ? executionArn(request, name)
                : ExecutionArns.of(PreloadProperties.from(request.resourceProperties()).stateMachineArn(), name));
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("PhysicalResourceId", name);
        response.put("Data", data);
        response.put(ACTION, action.name());
        return response;
    }

    private static Map<String, Object> complete(Map<String, Object> data) {
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("IsComplete", true);
        response.put("Data", data);
        return response;
    }
}
