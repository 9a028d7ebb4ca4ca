package io.github.trainingdata.cdk.launch;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.CheckpointConfig;
import software.amazon.awssdk.services.sagemaker.model.CreateTrainingJobRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeTrainingJobResponse;
import software.amazon.awssdk.services.sagemaker.model.TrainingJobStatus;

/**
 * Starts SageMaker training jobs from a CreateTrainingJob request document, each with its own checkpoint
 * prefix unless it resumes an earlier run, and waits for them.
 */
public final class TrainingJobLauncher {
    /** A Step Functions execution name: 1 to 80 characters, none of the forbidden ones (nor control characters). */
    private static final Pattern RUN = Pattern.compile("[^\\s?*<>{}\\[\\]:;,\\\\|^~$#%&`\"\\p{Cntrl}]{1,80}");

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
        CreateTrainingJobRequest request = TrainingJobRequestJson.toRequest(documentJson, jobName);
        CheckpointConfig checkpoints = request.checkpointConfig();
        if (checkpoints == null) {
            if (resumeFrom != null) {
                throw new IllegalArgumentException("Cannot resume from " + resumeFrom + ": the document has no "
                        + "CheckpointConfig (the definition keeps no checkpoints)");
            }
        } else {
            String base = checkpoints.s3Uri().endsWith("/") ? checkpoints.s3Uri() : checkpoints.s3Uri() + "/";
            String run = resumeFrom != null ? resumeFrom : jobName;
            request = request.toBuilder().checkpointConfig(checkpoints.toBuilder().s3Uri(base + run + "/").build())
                    .build();
        }
        sageMaker.createTrainingJob(request);
        return jobName;
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
     *                                          or is still running at the timeout
     * @throws InterruptedException             if interrupted while waiting
     */
    public DescribeTrainingJobResponse waitForCompletion(String jobName, Duration pollInterval, Duration timeout,
            Consumer<String> progress) throws InterruptedException {
        Objects.requireNonNull(jobName, "jobName");
        Objects.requireNonNull(progress, "progress");
        if (pollInterval.isNegative() || pollInterval.isZero()) {
            throw new IllegalArgumentException("pollInterval must be positive, got " + pollInterval);
        }
        Instant deadline = clock.instant().plus(timeout);
        String reported = null;
        while (true) {
            DescribeTrainingJobResponse job = sageMaker.describeTrainingJob(r -> r.trainingJobName(jobName));
            String state = job.trainingJobStatusAsString() + " / " + job.secondaryStatusAsString();
            if (!state.equals(reported)) {
                progress.accept(jobName + ": " + state);
                reported = state;
            }
            TrainingJobStatus status = job.trainingJobStatus();
            if (status == TrainingJobStatus.COMPLETED) {
                return job;
            }
            if (status == TrainingJobStatus.FAILED) {
                throw new TrainingJobNotCompletedException(jobName, job.trainingJobStatusAsString(),
                        "Training job " + jobName + " failed: " + job.failureReason());
            }
            if (status == TrainingJobStatus.STOPPED) {
                throw new TrainingJobNotCompletedException(jobName, job.trainingJobStatusAsString(),
                        "Training job " + jobName + " was stopped before it completed");
            }
            Instant now = clock.instant();
            if (!now.isBefore(deadline)) {
                throw new TrainingJobNotCompletedException(jobName, job.trainingJobStatusAsString(),
                        "Training job " + jobName + " did not end within " + timeout + " (last status " + state
                                + "); it is still running: stop it with StopTrainingJob if it is not wanted");
            }
            Duration remaining = Duration.between(now, deadline);
            sleeper.sleep(remaining.compareTo(pollInterval) < 0 ? remaining : pollInterval);
        }
    }
}
