package io.github.trainingdata.cdk.launch;

import java.util.List;
import java.util.Objects;

/**
 * One attempt of {@link TrainingJobLauncher#runWithCapacityPlan}: what it asked for and how it ended (a job, or a request
 * refused for a quota: {@link AttemptOutcome#QUOTA_EXCEEDED}, no job of that name).
 *
 * @param jobName           the training job's name
 * @param instanceType      its {@code ResourceConfig.InstanceType}
 * @param dataSources       the kinds of data source its channels read, e.g. {@code FSxLustre+S3}
 * @param availabilityZones the Availability Zones it could run in
 * @param outcome           how it ended
 * @param failureReason     SageMaker's {@code FailureReason} (for a quota, its refusal's message), or null
 */
public record CapacityRunAttempt(String jobName, String instanceType, String dataSources,
        List<String> availabilityZones, AttemptOutcome outcome, String failureReason) {
    /** Checks and copies the values. */
    public CapacityRunAttempt {
        Objects.requireNonNull(jobName, "jobName");
        Objects.requireNonNull(outcome, "outcome");
        availabilityZones = List.copyOf(availabilityZones);
    }
}
