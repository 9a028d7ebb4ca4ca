package io.github.trainingdata.cdk.training;

import java.util.List;
import software.amazon.awscdk.Duration;

/**
 * One step of a {@link CapacityPolicy}: what the training state machine tries next when a job fails because
 * SageMaker could not provision its instances (a {@code FailureReason} such as {@code CapacityError: Unable to
 * provision requested ML compute capacity} or {@code EC2InsufficientCapacityError: Instance type ... is temporarily
 * unavailable}). Each attempt is a new job named {@code <prefix>-<UUID>}.
 */
public final class CapacityStep {
    /** What a step changes. */
    enum Kind {
        WAIT_AND_RETRY, INSTANCE_TYPES, S3_FALLBACK
    }

    private final Kind kind;
    private final Duration wait;
    private final Number attempts;
    private final List<String> instanceTypes;
    private final ChannelInputMode inputMode;

    private CapacityStep(Kind kind, Duration wait, Number attempts, List<String> instanceTypes,
            ChannelInputMode inputMode) {
        this.kind = kind;
        this.wait = wait;
        this.attempts = attempts;
        this.instanceTypes = instanceTypes;
        this.inputMode = inputMode;
    }

    /**
     * Waits, then runs the same job again (same instance type, same Availability Zone), {@code attempts} times.
     *
     * @param wait     how long to wait before each attempt (whole seconds, at least 1 second)
     * @param attempts how many attempts (1 to {@link CapacityPolicy#MAX_ATTEMPTS})
     * @return the step
     */
    public static CapacityStep waitAndRetry(Duration wait, Number attempts) {
        return new CapacityStep(Kind.WAIT_AND_RETRY, wait, attempts, null, null);
    }

    /**
     * Runs the job on each of {@code instanceTypes} in turn (same count, volume and runtime); later steps keep the
     * last of them.
     *
     * @param instanceTypes SageMaker instance types, {@code ml.<family>.<size>}, in the order to try
     * @return the step
     */
    public static CapacityStep instanceTypes(List<String> instanceTypes) {
        return new CapacityStep(Kind.INSTANCE_TYPES, null, null,
                instanceTypes == null ? null : List.copyOf(instanceTypes), null);
    }

    /**
     * Runs the job once with each Lustre channel replaced by the S3 location its cache dataset mirrors, in
     * FastFile mode, in any training subnet of the network, so that any Availability Zone with capacity can take it.
     *
     * @return the step
     */
    public static CapacityStep s3Fallback() {
        return s3Fallback(ChannelInputMode.FAST_FILE);
    }

    /**
     * As {@link #s3Fallback()}, in the given input mode.
     *
     * @param inputMode {@link ChannelInputMode#FAST_FILE} or {@link ChannelInputMode#FILE}
     * @return the step
     */
    public static CapacityStep s3Fallback(ChannelInputMode inputMode) {
        return new CapacityStep(Kind.S3_FALLBACK, null, null, null, inputMode);
    }

    Kind getKind() {
        return kind;
    }

    /** @return the wait before each attempt (waitAndRetry), else null */
    public Duration getWait() {
        return wait;
    }

    /** @return the attempts (waitAndRetry), else null */
    public Number getAttempts() {
        return attempts;
    }

    /** @return the instance types in order (instanceTypes), else null */
    public List<String> getInstanceTypes() {
        return instanceTypes;
    }

    /** @return the input mode of the S3 channels (s3Fallback), else null */
    public ChannelInputMode getInputMode() {
        return inputMode;
    }
}
