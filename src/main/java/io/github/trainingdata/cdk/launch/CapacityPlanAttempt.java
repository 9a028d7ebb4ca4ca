package io.github.trainingdata.cdk.launch;

import java.util.List;
import java.util.Objects;

/**
 * One attempt of a {@link CapacityPlan} after the first job: how long to wait before it, the instance type it asks
 * for, whether it reads the S3 fallback's channels in the fallback's subnets, and what it reads where (for the
 * record of the attempt).
 *
 * @param waitSeconds       seconds to wait before starting it (0: none)
 * @param instanceType      its {@code ResourceConfig.InstanceType}
 * @param fromS3            whether it uses the plan's S3 fallback ({@code InputDataConfig} and subnets)
 * @param dataSources       the kinds of data source its channels read, e.g. {@code FSxLustre+S3}
 * @param availabilityZones the Availability Zones it may run in
 */
public record CapacityPlanAttempt(long waitSeconds, String instanceType, boolean fromS3, String dataSources,
        List<String> availabilityZones) {
    /** Checks and copies the values. */
    public CapacityPlanAttempt {
        if (waitSeconds < 0) {
            throw new IllegalArgumentException("waitSeconds must not be negative, got " + waitSeconds);
        }
        Objects.requireNonNull(instanceType, "instanceType");
        Objects.requireNonNull(dataSources, "dataSources");
        availabilityZones = List.copyOf(availabilityZones);
    }
}
