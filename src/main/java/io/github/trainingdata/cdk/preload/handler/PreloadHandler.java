package io.github.trainingdata.cdk.preload.handler;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import io.github.trainingdata.cdk.launch.TrainingJobNames;
import io.github.trainingdata.cdk.launch.TrainingJobRequestJson;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.SageMakerClientBuilder;
import software.amazon.awssdk.services.sagemaker.model.DescribeTrainingJobResponse;
import software.amazon.awssdk.services.sagemaker.model.MetricData;
import software.amazon.awssdk.services.sagemaker.model.ResourceInUseException;
import software.amazon.awssdk.services.sagemaker.model.TrainingJobStatus;

/**
 * Lambda handler of the preload custom resource (aws-cdk-lib Provider framework, onEvent + isComplete).
 *
 * <p>Create starts a SageMaker training job, the worker, that mounts the FSx for Lustre file system and
 * runs the warm-up script; its name {@code <WorkerJobNamePrefix>-<12 hex>} is derived from the request, so a
 * retried request never starts a second worker, and it is the resource's physical id. Update starts a new
 * worker only when {@code WarmKey} changed (what is warmed), not for a new image or worker size. Delete
 * stops a worker that is still running and never fails. isComplete waits for the worker and returns its {@link PreloadMetrics} as attributes
 * {@value #WORKER_JOB_NAME}, {@value #FILES_WARMED}, {@value #BYTES_WARMED} and {@value #SECONDS}.
 */
public final class PreloadHandler {
    /** Attribute: the worker job's name. */
    public static final String WORKER_JOB_NAME = "WorkerJobName";
    /** Attribute: how many files the worker warmed. */
    public static final String FILES_WARMED = "FilesWarmed";
    /** Attribute: how many bytes those files hold (SageMaker keeps metrics as 32-bit floats: about 7 digits). */
    public static final String BYTES_WARMED = "BytesWarmed";
    /** Attribute: how long the warm-up took, in whole seconds. */
    public static final String SECONDS = "Seconds";

    private static final int MAX_ATTEMPTS = 5;

    private final SageMakerClient sageMaker;
    private final Clock clock;

    /** The handler Lambda instantiates: a SageMaker client for the function's Region and role. */
    public PreloadHandler() {
        this(sageMakerClientBuilder().build(), Clock.systemUTC());
    }

    /**
     * A handler with its client and clock supplied.
     *
     * @param sageMaker the client to call
     * @param clock     measures how long a worker has run
     */
    public PreloadHandler(SageMakerClient sageMaker, Clock clock) {
        this.sageMaker = Objects.requireNonNull(sageMaker, "sageMaker");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The client settings the handler runs with: the URL-connection HTTP client and the SDK's standard
     * retries (which absorb throttling) with {@value #MAX_ATTEMPTS} attempts. Region and credentials come
     * from the Lambda environment.
     */
    static SageMakerClientBuilder sageMakerClientBuilder() {
        return SageMakerClient.builder()
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(o -> o.retryStrategy(
                        AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(MAX_ATTEMPTS).build()));
    }

    /**
     * Handles Create, Update and Delete.
     *
     * @param event   the Provider framework's event
     * @param context the Lambda context
     * @return {@code PhysicalResourceId} and, for Create and Update, {@code Data} with {@value #WORKER_JOB_NAME}
     */
    public Map<String, Object> onEvent(Map<String, Object> event, Context context) {
        CustomResourceEvent request = new CustomResourceEvent(event);
        LambdaLogger log = context.getLogger();
        switch (request.requestType()) {
            case "Create":
                return started(startWorker(request, log));
            case "Update":
                Map<?, ?> now = request.resourceProperties();
                Map<?, ?> before = request.oldResourceProperties();
                // Re-warm only when what is warmed changes; a new image or worker size alone warms nothing new.
                // A worker under another prefix is out of this handler's IAM scope: start one under the new prefix.
                boolean samePrefix = request.physicalResourceId().startsWith(
                        PreloadProperties.from(now).workerJobNamePrefix() + "-");
                if (samePrefix && Objects.equals(now.get(PreloadProperties.WARM_KEY), before.get(PreloadProperties.WARM_KEY))) {
                    log.log("WarmKey is unchanged: keeping worker " + request.physicalResourceId());
                    return started(request.physicalResourceId());
                }
                return started(startWorker(request, log));
            case "Delete":
                stopIfRunning(request.physicalResourceId(), log);
                return Map.of("PhysicalResourceId", request.physicalResourceId());
            default:
                throw new IllegalArgumentException("Unknown RequestType " + request.requestType());
        }
    }

    /**
     * Tells the Provider framework whether the worker has finished.
     *
     * @param event   the Provider framework's event, with the PhysicalResourceId onEvent returned
     * @param context the Lambda context
     * @return {@code IsComplete} and, once complete, {@code Data}
     * @throws IllegalStateException if the worker failed, was stopped, or ran longer than TimeoutSeconds
     */
    public Map<String, Object> isComplete(Map<String, Object> event, Context context) {
        CustomResourceEvent request = new CustomResourceEvent(event);
        if (request.requestType().equals("Delete")) {
            return workerEnded(request.physicalResourceId(), context.getLogger()) ? complete(Map.of()) : NOT_COMPLETE;
        }
        String jobName = request.physicalResourceId();
        PreloadProperties properties = PreloadProperties.from(request.resourceProperties());
        if (!properties.waitForCompletion()) {
            return complete(Map.of(WORKER_JOB_NAME, jobName));
        }
        DescribeTrainingJobResponse job = sageMaker.describeTrainingJob(r -> r.trainingJobName(jobName));
        TrainingJobStatus status = job.trainingJobStatus();
        if (status == TrainingJobStatus.COMPLETED) {
            return complete(attributes(job, context.getLogger()));
        }
        if (status == TrainingJobStatus.FAILED) {
            throw new IllegalStateException("Preload worker " + jobName + " failed: " + job.failureReason()
                    + ". Its log is in CloudWatch Logs group /aws/sagemaker/TrainingJobs, stream " + jobName + "/algo-1-*");
        }
        if (status == TrainingJobStatus.STOPPED) {
            throw new IllegalStateException("Preload worker " + jobName
                    + " was stopped before it finished, so the cache is not fully warm; deploy again to retry");
        }
        long elapsed = job.creationTime() == null ? 0 : Duration.between(job.creationTime(), clock.instant()).toSeconds();
        context.getLogger().log("Preload worker " + jobName + ": " + job.trainingJobStatusAsString() + " / "
                + job.secondaryStatusAsString() + ", " + elapsed + " of " + properties.timeoutSeconds() + " s");
        if (status == TrainingJobStatus.IN_PROGRESS && elapsed > properties.timeoutSeconds()) {
            sageMaker.stopTrainingJob(r -> r.trainingJobName(jobName));
            throw new IllegalStateException("Preload worker " + jobName + " did not finish within "
                    + properties.timeoutSeconds() + " s; it was stopped. Raise TimeoutSeconds, or warm less data"
                    + " per deployment, and deploy again");
        }
        return NOT_COMPLETE;
    }

    /**
     * Whether a deleted worker has ended, so CloudFormation may go on to delete its role, security group and
     * subnets (a stopping job still holds its network interfaces). A job still running is stopped again.
     * Never fails: a missing job or any SDK error counts as ended.
     */
    private boolean workerEnded(String jobName, LambdaLogger log) {
        if (!TrainingJobNames.isValidName(jobName)) {
            return true;
        }
        try {
            TrainingJobStatus status = sageMaker.describeTrainingJob(r -> r.trainingJobName(jobName)).trainingJobStatus();
            if (status == TrainingJobStatus.IN_PROGRESS) {
                sageMaker.stopTrainingJob(r -> r.trainingJobName(jobName));
            }
            boolean ended = status != TrainingJobStatus.IN_PROGRESS && status != TrainingJobStatus.STOPPING;
            log.log("Preload worker " + jobName + " is " + status + (ended ? ": deleted" : ": waiting until it stops"));
            return ended;
        } catch (SdkException e) {
            log.log("Could not check preload worker " + jobName + " (ignored, the delete goes on): " + e.getMessage());
            return true;
        }
    }

    private String startWorker(CustomResourceEvent request, LambdaLogger log) {
        PreloadProperties properties = PreloadProperties.from(request.resourceProperties());
        String jobName = TrainingJobNames.hashed(properties.workerJobNamePrefix(),
                request.stackId() + "|" + request.logicalResourceId() + "|" + request.requestId());
        try {
            sageMaker.createTrainingJob(TrainingJobRequestJson.toRequest(properties.workerRequest(), jobName));
            log.log("Started preload worker " + jobName);
        } catch (ResourceInUseException e) {
            log.log("Preload worker " + jobName + " already exists (the request was retried): not starting another");
        }
        return jobName;
    }

    private void stopIfRunning(String jobName, LambdaLogger log) {
        if (!TrainingJobNames.isValidName(jobName)) {
            log.log("Physical id " + jobName + " is not a training job name: nothing to stop");
            return;
        }
        try {
            TrainingJobStatus status = sageMaker.describeTrainingJob(r -> r.trainingJobName(jobName)).trainingJobStatus();
            if (status == TrainingJobStatus.IN_PROGRESS) {
                sageMaker.stopTrainingJob(r -> r.trainingJobName(jobName));
                log.log("Stopped preload worker " + jobName);
            } else {
                log.log("Preload worker " + jobName + " is " + status + ": nothing to stop");
            }
        } catch (SdkException e) {
            log.log("Could not check or stop preload worker " + jobName + " (ignored, the delete goes on): "
                    + e.getMessage());
        }
    }

    private static Map<String, Object> attributes(DescribeTrainingJobResponse job, LambdaLogger log) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put(WORKER_JOB_NAME, job.trainingJobName());
        metric(job, PreloadMetrics.FILES, log).ifPresent(files -> data.put(FILES_WARMED, files));
        metric(job, PreloadMetrics.BYTES, log).ifPresent(bytes -> data.put(BYTES_WARMED, bytes));
        Optional<String> seconds = metric(job, PreloadMetrics.SECONDS, log);
        if (seconds.isEmpty() && job.trainingStartTime() != null && job.trainingEndTime() != null) {
            seconds = Optional.of(Long.toString(
                    Duration.between(job.trainingStartTime(), job.trainingEndTime()).toSeconds()));
        }
        seconds.ifPresent(value -> data.put(SECONDS, value));
        return data;
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

    private static Map<String, Object> started(String jobName) {
        return Map.of("PhysicalResourceId", jobName, "Data", Map.of(WORKER_JOB_NAME, jobName));
    }

    private static final Map<String, Object> NOT_COMPLETE = Map.of("IsComplete", false);

    private static Map<String, Object> complete(Map<String, Object> data) {
        return Map.of("IsComplete", true, "Data", data);
    }
}
