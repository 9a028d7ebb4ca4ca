package io.github.trainingdata.cdk.storage;

/**
 * The FSx for Lustre deployment types a new {@link LustreCache} can have ({@code DeploymentType}, create-only: another
 * type is a new file system). Both are SSD, both take 1200, 2400 or a multiple of 2400 GiB and both link datasets by
 * data repository associations on Lustre 2.12 or 2.15.
 */
public enum LustreDeploymentType {
    /**
     * Scratch: 200 MB/s per TiB of baseline read throughput, bursting to 1300; no replication, the FSx service key at
     * rest. The cheapest per TiB when the capacity that holds the data also feeds the instances.
     */
    SCRATCH_2,
    /**
     * Persistent: a throughput tier of 125, 250, 500 or 1000 MB/s per TiB ({@code PerUnitStorageThroughput}, changed
     * in place), replicated within its Availability Zone, a metadata configuration on Lustre 2.15, and encryption at
     * rest with a customer-managed key. Cheaper than a larger SCRATCH_2 when the instances read faster than the data's
     * size buys on SCRATCH_2.
     */
    PERSISTENT_2;

    /** @return the {@code DeploymentType} value, e.g. {@code PERSISTENT_2} */
    public String apiValue() {
        return name();
    }
}
