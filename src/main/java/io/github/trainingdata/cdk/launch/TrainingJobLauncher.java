package io.github.trainingdata.cdk.launch;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.CheckpointConfig;
import software.amazon.awssdk.services.sagemaker.model.CreateTrainingJobRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeTrainingJobResponse;
import software.amazon.awssdk.services.sagemaker.model.ResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.ResourceLimitExceededException;
import software.amazon.awssdk.services.sagemaker.model.ResourceNotFoundException;
import software.amazon.awssdk.services.sagemaker.model.SageMakerException;
import software.amazon.awssdk.services.sagemaker.model.TrainingJobStatus;

/**
 * Starts SageMaker training jobs from a CreateTrainingJob request document, each with its own checkpoint
 * prefix unless it resumes an earlier run, and waits for them.
 */
public final class TrainingJobLauncher {
    /** A Step Functions execution name: 1 to 80 characters, none of the forbidden ones (nor control characters). */
    private static final Pattern RUN = Pattern.compile("[^\\s?*<>{}\\[\\]:;,\\\\|^~$#%&`\"\\p{Cntrl}]{1,80}");
    /**
     * Retries of a CreateTrainingJob call SageMaker refused because a quota is in use (ResourceLimitExceeded), as the
     * training state machine's: the waits double from {@link #FIRST_QUOTA_WAIT}, at most {@link #MAX_QUOTA_WAIT}.
     */
    static final int QUOTA_RETRIES = 8;
    static final Duration FIRST_QUOTA_WAIT = Duration.ofMinutes(1);
    static final Duration MAX_QUOTA_WAIT = Duration.ofMinutes(15);
    /** The status a {@link TrainingJobNotCompletedException} names when the job could not be described. */
    static final String UNKNOWN_STATUS = "Unknown";
    /** A FailureReason of a job SageMaker could not place: {@link CapacityPlan#CAPACITY_FAILURE}. */
    private static final Pattern CAPACITY_FAILURE = Pattern.compile("^" + CapacityPlan.CAPACITY_FAILURE);

    private final SageMakerClient sageMaker;
    private final Clock clock;
    private final Sleeper sleeper;
    private final RandomGenerator random;

    /**
     * A launcher on the real clock.
     *
     * @param sageMaker the client to call
     */
    public TrainingJobLauncher(SageMakerClient sageMaker) {
        this(sageMaker, Clock.systemUTC(), Sleeper.system(), new SecureRandom());
    }

    /**
     * A launcher with its time and randomness supplied.
     *
     * @param sageMaker the client to call
     * @param clock     gives job names their timestamp and bounds waits
     * @param sleeper   waits between polls
     * @param random    gives job names their 4 hex digits
     */
    public TrainingJobLauncher(SageMakerClient sageMaker, Clock clock, Sleeper sleeper, RandomGenerator random) {
        this.sageMaker = Objects.requireNonNull(sageMaker, "sageMaker");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.random = Objects.requireNonNull(random, "random");
    }

    /**
     * Starts a job under the name {@code <prefix>-<yyyyMMdd-HHmmss>-<4 hex>}, with fresh checkpoints: when the
     * document has a {@code CheckpointConfig}, its {@code S3Uri} is the base and the job syncs
     * {@code <base>/<job name>/}, so no job resumes another's checkpoints or deletes them.
     *
     * @param documentJson  the CreateTrainingJob request document, without {@code TrainingJobName}
     * @param jobNamePrefix 1 to {@link TrainingJobNames#MAX_PREFIX_LENGTH} (26) characters, see
     *                      {@link TrainingJobNames#requireValidPrefix(String)}
     * @return the name of the started job
     * @throws IllegalArgumentException for a bad prefix or document
     * @throws TrainingJobNotCompletedException ({@link TrainingErrors#TRAINING_JOB_UNREADABLE}) when the create was
     *                                          answered with an error and DescribeTrainingJob could not tell whether
     *                                          the job exists (a job that exists is adopted: its name is returned)
     */
    public String start(String documentJson, String jobNamePrefix) {
        return launch(documentJson, jobNamePrefix, null);
    }

    /**
     * Starts a job like {@link #start(String, String)}, but on the checkpoints of an earlier run: the job syncs
     * {@code <base>/<earlierRun>/}, so SageMaker copies that run's checkpoints into the container first and the
     * job then keeps that prefix up to date (deletions included). Do not resume the same run twice at once.
     *
     * @param documentJson  the CreateTrainingJob request document, without {@code TrainingJobName}; it must have a
     *                      {@code CheckpointConfig}
     * @param jobNamePrefix the prefix of the new job's name
     * @param earlierRun    the run whose checkpoints to resume: the name of a job this launcher started, or of a
     *                      state-machine execution (1 to 80 characters, no whitespace and none of
     *                      {@code ? * < > { } [ ] : ; , \ | ^ ~ $ # % & ` "})
     * @return the name of the started job
     * @throws IllegalArgumentException for a bad prefix, run name or document, or a document without checkpoints
     */
    public String resume(String documentJson, String jobNamePrefix, String earlierRun) {
        return launch(documentJson, jobNamePrefix, requireValidRun(earlierRun));
    }

    private String launch(String documentJson, String jobNamePrefix, String resumeFrom) {
        String jobName = TrainingJobNames.timestamped(jobNamePrefix, clock.instant(), random);
        CreateTrainingJobRequest request = withCheckpoints(TrainingJobRequestJson.toRequest(documentJson, jobName),
                resumeFrom);
        try {
            sageMaker.createTrainingJob(request);
        } catch (SageMakerException e) {
            // ResourceInUse after the client retried a request SageMaker carried out, or a 5xx answer to one it did.
            if (!exists(jobName, e)) {
                throw e;
            }
        }
        return jobName;
    }

    /**
     * Whether a job of this name exists: after a create answered with an error (the SDK client retried a request
     * SageMaker had carried out, or refused it), the job is adopted when it exists; else the request was refused. Only
     * DescribeTrainingJob's "no such job" (ResourceNotFound, or ValidationException "Requested resource not found", as
     * the training state machine reads it) means none; any other error (access denied, throttling after the client's
     * retries) tells nothing, and the job may be running.
     *
     * @throws TrainingJobNotCompletedException ({@link TrainingErrors#TRAINING_JOB_UNREADABLE}) when it cannot be told
     */
    private boolean exists(String jobName, SageMakerException createError) {
        try {
            sageMaker.describeTrainingJob(r -> r.trainingJobName(jobName));
            return true;
        } catch (ResourceNotFoundException e) {
            return false;
        } catch (SageMakerException e) {
            if (e.awsErrorDetails() != null && "ValidationException".equals(e.awsErrorDetails().errorCode())) {
                return false;
            }
            throw new TrainingJobNotCompletedException(jobName, UNKNOWN_STATUS, TrainingErrors.TRAINING_JOB_UNREADABLE,
                    "SageMaker answered the create of training job " + jobName + " with " + errorCode(createError)
                    + ", and DescribeTrainingJob failed (" + e.getMessage() + "): the job may be running; look it up "
                    + "and stop it with StopTrainingJob if it is not wanted");
        }
    }

    private static String errorCode(SageMakerException e) {
        return e.awsErrorDetails() != null ? e.awsErrorDetails().errorCode() : e.getMessage();
    }

    /**
     * The request syncing {@code <base>/<run>/}, the run being {@code resumeFrom} or else the job itself; as it is
     * when the document keeps no checkpoints.
     */
    private static CreateTrainingJobRequest withCheckpoints(CreateTrainingJobRequest request, String resumeFrom) {
        CheckpointConfig checkpoints = request.checkpointConfig();
        if (checkpoints == null) {
            if (resumeFrom != null) {
                throw new IllegalArgumentException("Cannot resume from " + resumeFrom + ": the document has no "
                        + "CheckpointConfig (the definition keeps no checkpoints)");
            }
            return request;
        }
        String base = checkpoints.s3Uri().endsWith("/") ? checkpoints.s3Uri() : checkpoints.s3Uri() + "/";
        String run = resumeFrom != null ? resumeFrom : request.trainingJobName();
        return request.toBuilder().checkpointConfig(checkpoints.toBuilder().s3Uri(base + run + "/").build()).build();
    }

    /**
     * Starts the document's job and waits for it; while a job fails because SageMaker could not provision its
     * instances (its FailureReason starts as {@link CapacityPlan#CAPACITY_FAILURE} says, as {@code CapacityError:
     * Unable to provision requested ML compute capacity...} and {@code EC2InsufficientCapacityError: ...} do), goes on
     * to the plan's next attempt: waits its {@code WaitSeconds}, then starts a new job
     * ({@code <prefix>-<yyyyMMdd-HHmmss>-<4 hex>}) of the same request with the attempt's instance type and, for an
     * attempt from S3, the fallback's {@code InputDataConfig} and {@code VpcConfig.Subnets}. Every attempt syncs the
     * first job's checkpoint prefix (or {@code resumeFrom}'s), so a later attempt resumes what an earlier one saved.
     *
     * <p>As the training state machine does: a request refused for a quota (ResourceLimitExceeded) is asked again
     * {@link #QUOTA_RETRIES} times, then recorded as {@link AttemptOutcome#QUOTA_EXCEEDED} and the run goes on with the
     * next attempt on another instance type ({@link CapacityPlan#nextAfterQuota}); a request answered with an error
     * for which a job of that name exists (ResourceInUse after the SDK client's retry of a request SageMaker carried
     * out) follows that job; any other refusal ends the run with {@link TrainingErrors#REQUEST_REFUSED} and is not
     * recorded. Any other failure, a stop, a job still running after {@code timeout}, or a capacity failure of the
     * last attempt ends the run with the error {@link CapacityRun#error()} names.
     *
     * @param documentJson  the CreateTrainingJob request document, without {@code TrainingJobName}
     * @param plan          the definition's capacity plan
     * @param jobNamePrefix the prefix of every job's name
     * @param resumeFrom    the run whose checkpoints to resume (see {@link #resume}), or null for fresh ones
     * @param pollInterval  time between polls of a job, positive
     * @param timeout       how long to wait for each job at most
     * @param progress      receives a line when an attempt starts or ends and when a job's status changes
     * @return every attempt, with its outcome, the completed job's final description, or the error the run ended with
     * @throws IllegalArgumentException for a bad prefix, run name, document, or a plan reading S3 for a document
     *                                  without a {@code VpcConfig}, before any job starts
     * @throws InterruptedException     if interrupted while waiting
     */
    public CapacityRun runWithCapacityPlan(String documentJson, CapacityPlan plan, String jobNamePrefix,
            String resumeFrom, Duration pollInterval, Duration timeout, Consumer<String> progress)
            throws InterruptedException {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(progress, "progress");
        requirePositive(pollInterval);
        String firstName = TrainingJobNames.timestamped(jobNamePrefix, clock.instant(), random);
        CreateTrainingJobRequest first = withCheckpoints(TrainingJobRequestJson.toRequest(documentJson, firstName),
                resumeFrom == null ? null : requireValidRun(resumeFrom));
        if (first.vpcConfig() == null && plan.attempts().stream().anyMatch(CapacityPlanAttempt::fromS3)) {
            throw new IllegalArgumentException("The capacity plan reads S3 in the fallback's subnets, but the document "
                    + "has no VpcConfig: is the plan of another definition?");
        }
        int total = plan.attempts().size() + 1;
        List<String> instanceTypes = new ArrayList<>();
        instanceTypes.add(first.resourceConfig() == null ? "" : first.resourceConfig().instanceTypeAsString());
        plan.attempts().forEach(a -> instanceTypes.add(a.instanceType()));
        List<CapacityRunAttempt> attempts = new ArrayList<>();
        int index = 0;
        boolean afterQuota = false;
        while (true) {
            CreateTrainingJobRequest request = first;
            String dataSources = plan.firstDataSources();
            List<String> zones = plan.firstAvailabilityZones();
            if (index > 0) {
                CapacityPlanAttempt next = plan.attempts().get(index - 1);
                if (next.waitSeconds() > 0 && !afterQuota) {
                    progress.accept("Waiting " + next.waitSeconds() + " s for capacity before attempt " + (index + 1));
                    sleeper.sleep(Duration.ofSeconds(next.waitSeconds()));
                }
                request = attempt(first, plan, next, TrainingJobNames.timestamped(jobNamePrefix, clock.instant(), random));
                dataSources = next.dataSources();
                zones = next.availabilityZones();
            }
            String jobName = request.trainingJobName();
            String instanceType = request.resourceConfig() == null ? null : request.resourceConfig().instanceTypeAsString();
            progress.accept("Attempt " + (index + 1) + " of " + total + ": " + jobName + " on " + instanceType
                    + " reading " + dataSources + " in " + String.join(", ", zones));
            SageMakerException refused;
            try {
                refused = createWaitingForQuota(request, progress);
            } catch (TrainingJobNotCompletedException e) {
                progress.accept("Attempt " + (index + 1) + " of " + total + ": " + e.getMessage());
                return new CapacityRun(attempts, null, e.error(), e.getMessage());
            }
            if (refused instanceof ResourceLimitExceededException) {
                String reason = refused.awsErrorDetails().errorMessage();
                attempts.add(new CapacityRunAttempt(jobName, instanceType, dataSources, zones,
                        AttemptOutcome.QUOTA_EXCEEDED, reason));
                progress.accept("Attempt " + (index + 1) + " of " + total + ": " + jobName + " "
                        + AttemptOutcome.QUOTA_EXCEEDED + ": " + reason);
                index = CapacityPlan.nextAfterQuota(instanceTypes, index);
                afterQuota = true;
                if (index < 0) {
                    return new CapacityRun(attempts, null, TrainingErrors.QUOTA_EXHAUSTED, reason);
                }
                continue;
            }
            if (refused != null) {
                progress.accept("Attempt " + (index + 1) + " of " + total + ": SageMaker refused " + jobName + ": "
                        + refused.getMessage());
                return new CapacityRun(attempts, null, TrainingErrors.REQUEST_REFUSED, refused.getMessage());
            }
            DescribeTrainingJobResponse job;
            try {
                job = awaitEnd(jobName, pollInterval, timeout, progress);
            } catch (TrainingJobNotCompletedException e) {
                progress.accept("Attempt " + (index + 1) + " of " + total + ": " + e.getMessage());
                return new CapacityRun(attempts, null, e.error(), e.getMessage());
            }
            AttemptOutcome outcome = outcomeOf(job);
            attempts.add(new CapacityRunAttempt(jobName, instanceType, dataSources, zones, outcome, job.failureReason()));
            progress.accept("Attempt " + (index + 1) + " of " + total + ": " + jobName + " " + outcome
                    + (job.failureReason() != null ? ": " + job.failureReason() : ""));
            if (outcome == AttemptOutcome.COMPLETED) {
                return new CapacityRun(attempts, job, null, null);
            }
            if (outcome != AttemptOutcome.CAPACITY_ERROR || index + 1 == total) {
                return new CapacityRun(attempts, null, errorOf(outcome), job.failureReason() != null
                        ? job.failureReason() : jobName + ": " + state(job));
            }
            index++;
            afterQuota = false;
        }
    }

    /** The error a run or a wait ends with when its last job ended with {@code outcome}. */
    static String errorOf(AttemptOutcome outcome) {
        return switch (outcome) {
            case CAPACITY_ERROR -> TrainingErrors.CAPACITY_EXHAUSTED;
            case FAILED -> TrainingErrors.TRAINING_JOB_FAILED;
            case STOPPED -> TrainingErrors.TRAINING_JOB_STOPPED;
            case QUOTA_EXCEEDED -> TrainingErrors.QUOTA_EXHAUSTED;
            case STILL_RUNNING -> TrainingErrors.TRAINING_JOB_STILL_RUNNING;
            case COMPLETED -> throw new IllegalArgumentException("a completed job ends no run with an error");
        };
    }

    /**
     * Creates the job; while SageMaker refuses it because a quota is in use, waits and asks again, at most
     * {@link #QUOTA_RETRIES} times (the SDK client itself retries throttling and 5xx answers). After any other error,
     * a job of that name that exists is the one this request created (adopted); else the request was refused.
     *
     * @return null when the job exists, else SageMaker's refusal (a ResourceLimitExceeded after every retry)
     */
    private SageMakerException createWaitingForQuota(CreateTrainingJobRequest request, Consumer<String> progress)
            throws InterruptedException {
        Duration wait = FIRST_QUOTA_WAIT;
        for (int retry = 0; ; retry++) {
            try {
                sageMaker.createTrainingJob(request);
                return null;
            } catch (ResourceLimitExceededException e) {
                if (retry == QUOTA_RETRIES) {
                    return e;
                }
                progress.accept("A quota is in use (" + e.awsErrorDetails().errorMessage() + "): asking again for "
                        + request.trainingJobName() + " in " + wait.toSeconds() + " s");
                sleeper.sleep(wait);
                wait = wait.multipliedBy(2).compareTo(MAX_QUOTA_WAIT) < 0 ? wait.multipliedBy(2) : MAX_QUOTA_WAIT;
            } catch (SageMakerException e) {
                if (exists(request.trainingJobName(), e)) {
                    progress.accept(request.trainingJobName() + " exists although SageMaker answered "
                            + e.awsErrorDetails().errorCode() + ": following it");
                    return null;
                }
                return e;
            }
        }
    }

    /** The request of a capacity attempt: the first job's, named anew, with the attempt's changes. */
    private static CreateTrainingJobRequest attempt(CreateTrainingJobRequest first, CapacityPlan plan,
            CapacityPlanAttempt attempt, String jobName) {
        ResourceConfig resources = first.resourceConfig() == null ? ResourceConfig.builder().build()
                : first.resourceConfig();
        CreateTrainingJobRequest.Builder request = first.toBuilder().trainingJobName(jobName)
                .resourceConfig(resources.toBuilder().instanceType(attempt.instanceType()).build());
        if (attempt.fromS3()) {
            request.inputDataConfig(plan.s3FallbackInputDataConfig())
                    .vpcConfig(first.vpcConfig().toBuilder().subnets(plan.s3FallbackSubnets()).build());
        }
        return request.build();
    }

    private static AttemptOutcome outcomeOf(DescribeTrainingJobResponse job) {
        TrainingJobStatus status = job.trainingJobStatus();
        if (status == TrainingJobStatus.COMPLETED) {
            return AttemptOutcome.COMPLETED;
        }
        if (status == TrainingJobStatus.FAILED) {
            return job.failureReason() != null && CAPACITY_FAILURE.matcher(job.failureReason()).find()
                    ? AttemptOutcome.CAPACITY_ERROR : AttemptOutcome.FAILED;
        }
        return status == TrainingJobStatus.STOPPED ? AttemptOutcome.STOPPED : AttemptOutcome.STILL_RUNNING;
    }

    /**
     * Checks the name of a run to resume: a Step Functions execution name, which every job name also is.
     *
     * @param run the name
     * @return the name
     * @throws IllegalArgumentException unless it has 1 to 80 characters and none that execution names forbid
     */
    static String requireValidRun(String run) {
        if (run == null || !RUN.matcher(run).matches()) {
            throw new IllegalArgumentException("Invalid run to resume from '" + run + "': use the name of an earlier "
                    + "job or execution, 1 to 80 characters without whitespace or any of ? * < > { } [ ] : ; , \\ | "
                    + "^ ~ $ # % & ` \"");
        }
        return run;
    }

    /**
     * Polls DescribeTrainingJob until the job ends.
     *
     * @param jobName      the job
     * @param pollInterval time between polls, positive
     * @param timeout      how long to wait at most
     * @param progress     receives a line each time the status or secondary status changes
     * @return the final description of the completed job
     * @throws TrainingJobNotCompletedException if the job failed (with SageMaker's FailureReason), was stopped,
     *                                          is still running at the timeout, or could not be described (it may
     *                                          still run: {@link TrainingErrors#TRAINING_JOB_UNREADABLE}); its
     *                                          {@code error()} is the
     *                                          training state machine's error for that end ({@link TrainingErrors})
     * @throws InterruptedException             if interrupted while waiting
     */
    public DescribeTrainingJobResponse waitForCompletion(String jobName, Duration pollInterval, Duration timeout,
            Consumer<String> progress) throws InterruptedException {
        Objects.requireNonNull(progress, "progress");
        requirePositive(pollInterval);
        DescribeTrainingJobResponse job = awaitEnd(jobName, pollInterval, timeout, progress);
        switch (outcomeOf(job)) {
            case COMPLETED:
                return job;
            case FAILED, CAPACITY_ERROR:
                throw new TrainingJobNotCompletedException(jobName, job.trainingJobStatusAsString(),
                        errorOf(outcomeOf(job)), "Training job " + jobName + " failed: " + job.failureReason());
            case STOPPED:
                throw new TrainingJobNotCompletedException(jobName, job.trainingJobStatusAsString(),
                        TrainingErrors.TRAINING_JOB_STOPPED, "Training job " + jobName + " was stopped before it "
                        + "completed");
            default:
                throw new TrainingJobNotCompletedException(jobName, job.trainingJobStatusAsString(),
                        TrainingErrors.TRAINING_JOB_STILL_RUNNING,
                        "Training job " + jobName + " did not end within " + timeout + " (last status " + state(job)
                                + "); it is still running: stop it with StopTrainingJob if it is not wanted");
        }
    }

    private static void requirePositive(Duration pollInterval) {
        if (pollInterval.isNegative() || pollInterval.isZero()) {
            throw new IllegalArgumentException("pollInterval must be positive, got " + pollInterval);
        }
    }

    private static String state(DescribeTrainingJobResponse job) {
        return job.trainingJobStatusAsString() + " / " + job.secondaryStatusAsString();
    }

    /**
     * Polls DescribeTrainingJob until the job ends or {@code timeout} has passed; returns its last description.
     *
     * @throws TrainingJobNotCompletedException ({@link TrainingErrors#TRAINING_JOB_UNREADABLE}) when DescribeTrainingJob
     *                                          fails (after the client's retries): the job may still run
     */
    private DescribeTrainingJobResponse awaitEnd(String jobName, Duration pollInterval, Duration timeout,
            Consumer<String> progress) throws InterruptedException {
        Objects.requireNonNull(jobName, "jobName");
        Instant deadline = clock.instant().plus(timeout);
        String reported = null;
        String lastStatus = UNKNOWN_STATUS;
        while (true) {
            DescribeTrainingJobResponse job;
            try {
                job = sageMaker.describeTrainingJob(r -> r.trainingJobName(jobName));
            } catch (SageMakerException e) {
                throw new TrainingJobNotCompletedException(jobName, lastStatus, TrainingErrors.TRAINING_JOB_UNREADABLE,
                        "Could not describe training job "
                        + jobName + " (" + e.getMessage() + "): it may still be running; look it up and stop it with "
                        + "StopTrainingJob if it is not wanted");
            }
            lastStatus = job.trainingJobStatusAsString();
            String state = state(job);
            if (!state.equals(reported)) {
                progress.accept(jobName + ": " + state);
                reported = state;
            }
            TrainingJobStatus status = job.trainingJobStatus();
            Instant now = clock.instant();
            if (status == TrainingJobStatus.COMPLETED || status == TrainingJobStatus.FAILED
                    || status == TrainingJobStatus.STOPPED || !now.isBefore(deadline)) {
                return job;
            }
            Duration remaining = Duration.between(now, deadline);
            sleeper.sleep(remaining.compareTo(pollInterval) < 0 ? remaining : pollInterval);
        }
    }
}
