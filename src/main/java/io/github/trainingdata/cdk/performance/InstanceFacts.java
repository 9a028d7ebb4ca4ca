package io.github.trainingdata.cdk.performance;

/**
 * What the estimate model needs to know about a SageMaker training instance type: its price and the two
 * limits on how fast it takes in data (see {@link PublishedFigures#INSTANCES} for the known types).
 *
 * @param hourlyUsd on-demand SageMaker training price of one instance-hour in USD, greater than 0
 * @param networkGbps the instance's network bandwidth in Gbit/s ("up to" figures taken at face value), greater than 0
 * @param localNvme whether the instance has local NVMe storage for File-mode copies; false means an EBS
 *     volume, which caps File-mode writes and reads at {@link PublishedFigures#EBS_VOLUME_MBPS}
 */
public record InstanceFacts(double hourlyUsd, double networkGbps, boolean localNvme) {

    /** MB/s in one Gbit/s. */
    static final double MBPS_PER_GBPS = 125;

    /**
     * Validates the facts.
     *
     * @throws IllegalArgumentException when the price or the bandwidth is not a positive finite number
     */
    public InstanceFacts {
        if (!(hourlyUsd > 0) || Double.isInfinite(hourlyUsd)) {
            throw new IllegalArgumentException("hourlyUsd must be a finite number greater than 0, was " + hourlyUsd);
        }
        if (!(networkGbps > 0) || Double.isInfinite(networkGbps)) {
            throw new IllegalArgumentException("networkGbps must be a finite number greater than 0, was " + networkGbps);
        }
    }

    /**
     * The network bandwidth in MB/s (1 Gbit/s = 125 MB/s).
     *
     * @return MB/s
     */
    public double networkMBps() {
        return networkGbps * MBPS_PER_GBPS;
    }

    /**
     * How fast the instance's File-mode volume reads and writes.
     *
     * @return {@link PublishedFigures#NVME_VOLUME_MBPS} with local NVMe, else {@link PublishedFigures#EBS_VOLUME_MBPS}
     */
    public double volumeMBps() {
        return localNvme ? PublishedFigures.NVME_VOLUME_MBPS : PublishedFigures.EBS_VOLUME_MBPS;
    }
}
