package io.github.trainingdata.cdk.preload.handler;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import io.github.trainingdata.cdk.handler.CustomResourceEvent;
import io.github.trainingdata.cdk.handler.SdkCalls;
import io.github.trainingdata.cdk.launch.TrainingJobNames;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.DescribeTrainingJobResponse;
import software.amazon.awssdk.services.sagemaker.model.MetricData;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Lambda handler of the preload custom resource (aws-cdk-lib Provider framework, onEvent + isComplete).
 *
 * <p>The work is done by the preload state machine (check the data, wait for FSx's metadata import, run the
 * worker); this handler only starts, watches and stops its executions. Create starts an execution named
 * {@code <WorkerJobNamePrefix>-<12 hex>} after the request, which is also the worker's name and the
 * resource's physical id, so a retried request starts nothing new. Update starts a new one only when
 * {@code WarmKey} changed. Delete stops a running execution and waits until its worker has stopped; it
 * never fails.
 *
 * <p>isComplete, when the deploy waits, reports {@value #STATUS} ({@link PreloadStatus}) with
 * {@value #FILES_WARMED}, {@value #BYTES_WARMED} and {@value #SECONDS} from the worker's metrics; it stops
 * waiting after {@code WaitSeconds} (status STARTED: the execution goes on). A failed execution fails a
 * create. Throttling, 5xx answers and timeouts mean "not complete yet".
 */
public final class PreloadHandler {
    /** Attribute: the worker job's name (the job exists only once the data is imported, and never when EMPTY). */
    public static final String WORKER_JOB_NAME = "WorkerJobName";
    /** Attribute: the preload execution's ARN. */
    public static final String EXECUTION_ARN = "ExecutionArn";
    /** Attribute: a {@link PreloadStatus} value. */
    public static final String STATUS = "Status";
    /** Attribute: how many files the worker warmed. */
    public static final String FILES_WARMED = "FilesWarmed";
    /** Attribute: how many bytes those files hold (SageMaker keeps metrics as 32-bit floats: about 7 digits). */
    public static final String BYTES_WARMED = "BytesWarmed";
    /** Attribute: how long the warm-up took, in whole seconds. */
    public static final String SECONDS = "Seconds";

    private static final int MAX_CAUSE_LENGTH = 2000;
    private static final Map<String, Object> NOT_COMPLETE = Map.of("IsComplete", false);

    private final SfnClient stepFunctions;
    private final SageMakerClient sageMaker;
    private final PreloadTeardown teardown;
    private final Clock clock;

    /** The handler Lambda instantiates: clients for the function's Region and role. */
    public PreloadHandler() {
        this(PreloadClients.stepFunctionsClientBuilder().build(), PreloadClients.sageMakerClientBuilder().build(),
                Clock.systemUTC());
    }

    /**
     * A handler with its clients and clock supplied.
     *
     * @param stepFunctions starts, describes and stops preload executions
     * @param sageMaker     describes (for its metrics) and stops the worker
     * @param clock         measures how long the deploy has waited
     */
    public PreloadHandler(SfnClient stepFunctions, SageMakerClient sageMaker, Clock clock) {
        this.stepFunctions = Objects.requireNonNull(stepFunctions, "stepFunctions");
        this.sageMaker = Objects.requireNonNull(sageMaker, "sageMaker");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.teardown = new PreloadTeardown(stepFunctions, sageMaker);
    }

    /**
     * Handles Create, Update and Delete.
     *
     * @param event   the Provider framework's event
     * @param context the Lambda context
     * @return {@code PhysicalResourceId} and, for Create and Update, {@code Data} with {@value #WORKER_JOB_NAME}
     *         and {@value #EXECUTION_ARN}
     */
    public Map<String, Object> onEvent(Map<String, Object> event, Context context) {
        CustomResourceEvent request = new CustomResourceEvent(event);
        LambdaLogger log = context.getLogger();
        switch (request.requestType()) {
            case "Create":
                return started(request, start(request, log));
            case "Update":
                if (keepsWarmUp(request)) {
                    log.log("WarmKey is unchanged: keeping preload " + request.physicalResourceId());
                    return started(request, request.physicalResourceId());
                }
                return started(request, start(request, log));
            case "Delete":
                teardown.stopExecution(request, log);
                return Map.of("PhysicalResourceId", request.physicalResourceId());
            default:
                throw new IllegalArgumentException("Unknown RequestType " + request.requestType());
        }
    }

    /**
     * Tells the Provider framework whether the preload is done with.
     *
     * @param event   the Provider framework's event, with the PhysicalResourceId and Data onEvent returned
     * @param context the Lambda context
     * @return {@code IsComplete} and, once complete, {@code Data}
     * @throws IllegalStateException if the execution of a create failed, timed out or was stopped
     */
    public Map<String, Object> isComplete(Map<String, Object> event, Context context) {
        CustomResourceEvent request = new CustomResourceEvent(event);
        LambdaLogger log = context.getLogger();
        if (request.requestType().equals("Delete")) {
            return teardown.deleted(request, log) ? complete(Map.of()) : NOT_COMPLETE;
        }
        PreloadProperties properties = PreloadProperties.from(request.resourceProperties());
        if (properties.waitSeconds() == 0) {
            return complete(Map.of(STATUS, PreloadStatus.STARTED));
        }
        String arn = executionArn(request, request.physicalResourceId());
        DescribeExecutionResponse execution;
        try {
            execution = stepFunctions.describeExecution(r -> r.executionArn(arn));
        } catch (ExecutionDoesNotExistException e) {
            if (keepsWarmUp(request)) {
                log.log("Preload execution " + arn + " is no longer kept by Step Functions: its result is unknown");
                return complete(unwarmed(PreloadStatus.UNKNOWN));
            }
            log.log("Preload execution " + arn + " is not visible yet (DescribeExecution is eventually consistent)");
            return NOT_COMPLETE;
        } catch (SdkException e) {
            return notCompleteIfTransient(e, "describe preload execution " + arn, log);
        }
        ExecutionStatus status = execution.status();
        if (status == ExecutionStatus.SUCCEEDED) {
            return succeeded(execution, request.physicalResourceId(), log);
        }
        if (status == ExecutionStatus.FAILED || status == ExecutionStatus.TIMED_OUT
                || status == ExecutionStatus.ABORTED) {
            String failure = failure(execution, request.physicalResourceId());
            if (request.requestType().equals("Create")) {
                throw new IllegalStateException(failure);
            }
            log.log(failure + " The update goes on: it may be the rollback of another update.");
            return complete(unwarmed(PreloadStatus.FAILED));
        }
        long waited = Duration.between(execution.startDate(), clock.instant()).toSeconds();
        if (waited >= properties.waitSeconds()) {
            log.log("Preload execution " + arn + " still runs after " + waited + " s: the deploy goes on without "
                    + "waiting, the execution goes on");
            return complete(unwarmed(PreloadStatus.STARTED));
        }
        log.log("Preload execution " + arn + ": " + execution.statusAsString() + ", waited " + waited + " of "
                + properties.waitSeconds() + " s");
        return NOT_COMPLETE;
    }

    /** Whether this Update keeps the warm-up of the current physical id: same WarmKey, same worker prefix. */
    private static boolean keepsWarmUp(CustomResourceEvent request) {
        if (!request.requestType().equals("Update")) {
            return false;
        }
        Map<?, ?> now = request.resourceProperties();
        Map<?, ?> before = request.oldResourceProperties();
        // A preload under another prefix is out of the handler's IAM scope: a new one starts under the new prefix.
        boolean samePrefix = request.physicalResourceId().startsWith(
                PreloadProperties.from(now).workerJobNamePrefix() + "-");
        return samePrefix && Objects.equals(now.get(PreloadProperties.WARM_KEY), before.get(PreloadProperties.WARM_KEY));
    }

    /** The execution named {@code name}: a kept warm-up's runs on the state machine it was started on. */
    private static String executionArn(CustomResourceEvent request, String name) {
        Map<?, ?> properties = keepsWarmUp(request) && request.oldResourceProperties()
                .get(PreloadProperties.STATE_MACHINE_ARN) != null
                ? request.oldResourceProperties() : request.resourceProperties();
        return PreloadExecution.arn(String.valueOf(properties.get(PreloadProperties.STATE_MACHINE_ARN)), name);
    }

    private String start(CustomResourceEvent request, LambdaLogger log) {
        PreloadProperties properties = PreloadProperties.from(request.resourceProperties());
        String name = TrainingJobNames.hashed(properties.workerJobNamePrefix(),
                request.stackId() + "|" + request.logicalResourceId() + "|" + request.requestId());
        String input = PreloadExecution.input(name, properties.fileSystemId(), properties.dataLocations());
        try {
            stepFunctions.startExecution(r -> r.stateMachineArn(properties.stateMachineArn()).name(name).input(input));
            log.log("Started preload execution " + name + " with input " + input);
        } catch (ExecutionAlreadyExistsException e) {
            log.log("Preload execution " + name + " already exists (the request was retried): not starting another");
        }
        return name;
    }

    private Map<String, Object> succeeded(DescribeExecutionResponse execution, String workerJobName, LambdaLogger log) {
        if (PreloadStatus.EMPTY.equals(PreloadExecution.status(execution.output()))) {
            log.log("Preload " + workerJobName + ": the data locations hold no object yet, nothing was warmed");
            return complete(unwarmed(PreloadStatus.EMPTY));
        }
        DescribeTrainingJobResponse job;
        try {
            job = sageMaker.describeTrainingJob(r -> r.trainingJobName(workerJobName));
        } catch (SdkException e) {
            return notCompleteIfTransient(e, "describe preload worker " + workerJobName, log);
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put(STATUS, PreloadStatus.WARMED);
        data.put(FILES_WARMED, metric(job, PreloadMetrics.FILES, log).orElse("0"));
        data.put(BYTES_WARMED, metric(job, PreloadMetrics.BYTES, log).orElse("0"));
        Optional<String> seconds = metric(job, PreloadMetrics.SECONDS, log);
        if (seconds.isEmpty() && job.trainingStartTime() != null && job.trainingEndTime() != null) {
            seconds = Optional.of(Long.toString(
                    Duration.between(job.trainingStartTime(), job.trainingEndTime()).toSeconds()));
        }
        data.put(SECONDS, seconds.orElse("0"));
        return complete(data);
    }

    private static String failure(DescribeExecutionResponse execution, String workerJobName) {
        String cause = execution.cause() == null ? "" : execution.cause();
        if (cause.length() > MAX_CAUSE_LENGTH) {
            cause = cause.substring(0, MAX_CAUSE_LENGTH) + "…";
        }
        return "Preload execution " + execution.executionArn() + " ended " + execution.statusAsString() + ": "
                + execution.error() + ": " + cause + ". Its history is in the Step Functions console; the worker's "
                + "log, if it started, is in CloudWatch Logs group /aws/sagemaker/TrainingJobs, stream "
                + workerJobName + "/algo-1-*.";
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

    /** The attributes of a preload that warmed nothing (yet): the status and zero counts. */
    private static Map<String, Object> unwarmed(String status) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put(STATUS, status);
        data.put(FILES_WARMED, "0");
        data.put(BYTES_WARMED, "0");
        data.put(SECONDS, "0");
        return data;
    }

    private static Map<String, Object> started(CustomResourceEvent request, String name) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put(WORKER_JOB_NAME, name);
        data.put(EXECUTION_ARN, executionArn(request, name));
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("PhysicalResourceId", name);
        response.put("Data", data);
        return response;
    }

    private static Map<String, Object> complete(Map<String, Object> data) {
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("IsComplete", true);
        response.put("Data", data);
        return response;
    }
}
