package io.github.trainingdata.cdk.training.handler;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import io.github.trainingdata.cdk.launch.TrainingJobNames;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BooleanSupplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ListTrainingJobsResponse;
import software.amazon.awssdk.services.sagemaker.model.SortBy;
import software.amazon.awssdk.services.sagemaker.model.SortOrder;
import software.amazon.awssdk.services.sagemaker.model.TrainingJobStatus;
import software.amazon.awssdk.services.sagemaker.model.TrainingJobSummary;
import software.amazon.awssdk.services.sagemaker.model.WarmPoolResourceStatus;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.ListExecutionsResponse;
import software.amazon.awssdk.services.sfn.model.StateMachineDoesNotExistException;

/**
 * One look at what a deleted definition still runs, stopping what it finds: its state machine's running
 * executions, its training jobs in progress (those {@link TrainingJobNames#isStartedUnder started under its
 * prefix}), their retained warm pools; and, once all of those have ended, the network interfaces still in any
 * subnet its jobs may use with its training security group, when one of its jobs ran within the last
 * {@link #RECENT} (older ones are not its jobs': SageMaker created them for something else).
 *
 * <p>Jobs are listed newest first and only as far back as the definition's {@link TeardownProperties#jobLifetime job
 * lifetime}: a job created earlier has ended. The listing does not filter by status: SageMaker applies
 * {@code StatusEquals} after it has taken a page of jobs of any status (API reference, ListTrainingJobs), so it would
 * still page through every job ever created under the prefix, while a page of unfiltered jobs shows when to stop.
 *
 * <p>Each interface found is given its {@link InterfaceOwner owner}: the definition's are waited for, another job's
 * (another definition's, a preload worker's) are logged and not waited for, and one that names no job is waited for
 * (it may be the definition's; the wait is bounded as above).
 *
 * <p>Never throws for an AWS error: throttling, 5xx answers, timeouts and network errors leave the item
 * {@link Leftovers#unseen unseen} (the next look tries again); any other error (access denied, a job that has
 * ended meanwhile) is logged and ends the wait for that item.
 */
final class TeardownPass {
    /** How long after a job of the definition ended its network interfaces may still be held (bounded wait). */
    static final Duration RECENT = Duration.ofHours(1);
    static final String STOP_ERROR = "TrainingDefinitionDeleted";
    static final String STOP_CAUSE = "CloudFormation deleted the training definition (its teardown stops what it started)";
    private static final int PAGE_SIZE = 100;

    private final SfnClient stepFunctions;
    private final SageMakerClient sageMaker;
    private final NetworkInterfaces networkInterfaces;
    private final TeardownProperties properties;
    private final BooleanSupplier timeForACall;
    private final LambdaLogger log;
    private final Instant now;
    private final Leftovers left = new Leftovers();

    /**
     * @param timeForACall whether this invocation has time left for one more call with its retries
     * @param now          when the look is taken
     */
    TeardownPass(SfnClient stepFunctions, SageMakerClient sageMaker, NetworkInterfaces networkInterfaces,
            TeardownProperties properties, BooleanSupplier timeForACall, LambdaLogger log, Instant now) {
        this.stepFunctions = stepFunctions;
        this.sageMaker = sageMaker;
        this.networkInterfaces = networkInterfaces;
        this.properties = properties;
        this.timeForACall = timeForACall;
        this.log = log;
        this.now = now;
    }

    /** @return what is left after stopping what runs */
    Leftovers run() {
        stopExecutions();
        stopJobs();
        if (left.jobsEnded() && properties.inVpc() && left.hasRecentJob()) {
            findNetworkInterfaces();
        }
        return left;
    }

    private void stopExecutions() {
        String token = null;
        do {
            if (!timeForACall.getAsBoolean()) {
                left.unseen("executions (no time left in this invocation)");
                return;
            }
            String page = token;
            ListExecutionsResponse response;
            try {
                response = stepFunctions.listExecutions(r -> r.stateMachineArn(properties.stateMachineArn())
                        .statusFilter(ExecutionStatus.RUNNING).maxResults(PAGE_SIZE).nextToken(page));
            } catch (StateMachineDoesNotExistException e) {
                log.log("State machine " + properties.stateMachineArn() + " does not exist: no execution to stop");
                return;
            } catch (SdkException e) {
                failed(e, "list the running executions of " + properties.stateMachineArn(), "executions");
                return;
            }
            for (ExecutionListItem execution : response.executions()) {
                stopExecution(execution.executionArn());
            }
            token = response.nextToken();
        } while (token != null);
    }

    private void stopExecution(String arn) {
        if (attempt("stop execution " + arn, () -> stepFunctions.stopExecution(r -> r.executionArn(arn)
                .error(STOP_ERROR).cause(STOP_CAUSE)))) {
            left.execution(arn);
        }
    }

    /**
     * Lists the definition's jobs created within its lifetime (by the prefix as given and, if it has capitals, in
     * lowercase), newest first, and acts on each; the first older job ends the listing.
     */
    private void stopJobs() {
        Instant oldest = now.minus(properties.jobLifetime());
        Set<String> seen = new LinkedHashSet<>();
        String prefix = properties.jobNamePrefix();
        String lower = prefix.toLowerCase(Locale.ROOT);
        for (String contains : lower.equals(prefix) ? List.of(prefix) : List.of(prefix, lower)) {
            String token = null;
            do {
                if (!timeForACall.getAsBoolean()) {
                    left.unseen("training jobs (no time left in this invocation)");
                    return;
                }
                String page = token;
                ListTrainingJobsResponse response;
                try {
                    response = sageMaker.listTrainingJobs(r -> r.nameContains(contains).creationTimeAfter(oldest)
                            .maxResults(PAGE_SIZE).sortBy(SortBy.CREATION_TIME).sortOrder(SortOrder.DESCENDING)
                            .nextToken(page));
                } catch (SdkException e) {
                    failed(e, "list the training jobs named '" + contains + "…' created since " + oldest,
                            "training jobs");
                    return;
                }
                token = response.nextToken();
                for (TrainingJobSummary job : response.trainingJobSummaries()) {
                    if (job.creationTime() != null && job.creationTime().isBefore(oldest)) {
                        token = null;
                        break;
                    }
                    if (TrainingJobNames.isStartedUnder(job.trainingJobName(), prefix) && seen.add(job.trainingJobName())) {
                        settle(job);
                    }
                }
            } while (token != null);
        }
    }

    /** Stops a job in progress, releases its warm pool, and notes what is still running. */
    private void settle(TrainingJobSummary job) {
        String name = job.trainingJobName();
        TrainingJobStatus status = job.trainingJobStatus();
        WarmPoolResourceStatus pool = job.warmPoolStatus() == null ? null : job.warmPoolStatus().status();
        Instant ended = job.trainingEndTime() != null ? job.trainingEndTime() : job.lastModifiedTime();
        if (status == TrainingJobStatus.IN_PROGRESS || status == TrainingJobStatus.STOPPING
                || pool == WarmPoolResourceStatus.AVAILABLE || pool == WarmPoolResourceStatus.IN_USE
                || ended == null || ended.isAfter(now.minus(RECENT))) {
            left.recentJob();
        }
        if (status == TrainingJobStatus.IN_PROGRESS
                && attempt("stop training job " + name, () -> sageMaker.stopTrainingJob(r -> r.trainingJobName(name)))) {
            left.job(name + " (InProgress)");
        } else if (status == TrainingJobStatus.STOPPING) {
            left.job(name + " (Stopping)");
        }
        if (pool == WarmPoolResourceStatus.AVAILABLE && attempt("release the warm pool of " + name,
                () -> sageMaker.updateTrainingJob(r -> r.trainingJobName(name)
                        .resourceConfig(c -> c.keepAlivePeriodInSeconds(0))))) {
            left.warmPool(name + " (Available)");
        } else if (pool == WarmPoolResourceStatus.IN_USE) {
            left.warmPool(name + " (InUse)");
        }
    }

    /**
     * Makes one stopping call and tells whether its item is still to be waited for: yes after the call succeeded
     * (it takes effect later), after a transient error, or when this invocation has no time left for the call; no
     * when it failed for good (logged: the delete does not wait for what it cannot stop).
     */
    private boolean attempt(String what, Runnable call) {
        if (!timeForACall.getAsBoolean()) {
            return true;
        }
        try {
            call.run();
            log.log("Asked to " + what);
            return true;
        } catch (SdkException e) {
            return failed(e, what, null);
        }
    }

    private void findNetworkInterfaces() {
        if (!timeForACall.getAsBoolean()) {
            left.unseen("network interfaces (no time left in this invocation)");
            return;
        }
        String group = properties.securityGroupIds().get(0);
        try {
            for (NetworkInterface eni : networkInterfaces.holding(group, properties.subnetIds())) {
                InterfaceOwner owner = InterfaceOwner.of(eni, properties.jobNamePrefix());
                switch (owner.kind()) {
                    case DEFINITION -> left.networkInterface(eni + " of " + owner.job());
                    case OTHER_JOB -> left.otherInterface(eni + " of " + owner.job());
                    case UNKNOWN -> left.networkInterface(eni.toString());
                }
            }
        } catch (SdkException e) {
            failed(e, "describe the network interfaces with security group " + group + " in subnets "
                    + properties.subnetIds(), "network interfaces");
        }
    }

    /**
     * Logs a failed call. A transient error leaves {@code unseen} unseen (when given) and returns true: try again
     * later. Any other error is logged as ignored and returns false: the delete does not wait for it.
     */
    private boolean failed(SdkException e, String what, String unseen) {
        if (SdkCalls.isTransient(e)) {
            log.log("Could not " + what + " (transient, will look again): " + e.getMessage());
            if (unseen != null) {
                left.unseen(unseen);
            }
            return true;
        }
        log.log("Could not " + what + " (ignored, the delete does not wait for it): " + e.getMessage());
        return false;
    }
}
