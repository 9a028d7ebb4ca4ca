package io.github.trainingdata.cdk.launch;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.DescribeTrainingJobResponse;
import software.amazon.awssdk.services.sagemaker.model.TrainingJobStatus;

/** Starts SageMaker training jobs from a CreateTrainingJob request document and waits for them. */
public final class TrainingJobLauncher {
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
     * Starts a job under the name {@code <prefix>-<yyyyMMdd-HHmmss>-<4 hex>}.
     *
     * @param documentJson  the CreateTrainingJob request document, without {@code TrainingJobName}
     * @param jobNamePrefix 1 to {@link TrainingJobNames#MAX_PREFIX_LENGTH} (26) characters, see
     *                      {@link TrainingJobNames#requireValidPrefix(String)}
     * @return the name of the started job
     * @throws IllegalArgumentException for a bad prefix or document
     */
    public String start(String documentJson, String jobNamePrefix) {
        String jobName = TrainingJobNames.timestamped(jobNamePrefix, clock.instant(), random);
        sageMaker.createTrainingJob(TrainingJobRequestJson.toRequest(documentJson, jobName));
        return jobName;
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
