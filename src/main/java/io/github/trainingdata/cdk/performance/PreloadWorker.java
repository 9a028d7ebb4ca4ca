package io.github.trainingdata.cdk.performance;

/**
 * The preload worker as the estimate sees it: the path {@code warm-cache.sh} takes, how many readers or {@code lfs}
 * calls run at once, how many files one reader or {@code lfs} poll call takes, and the instance's network.
 *
 * @param path the path the script takes (it depends on the image: {@code lfs} or not)
 * @param parallelism readers or {@code lfs} calls at once, at least 1
 * @param batchSize files per reader process or {@code lfs hsm_action}/{@code hsm_state} call, at least 1
 * @param networkMBps the worker instance's network bandwidth in MB/s, greater than 0
 */
public record PreloadWorker(WarmUpPath path, int parallelism, int batchSize, double networkMBps) {

    /**
     * Validates the worker.
     *
     * @throws IllegalArgumentException naming the bad field, its value and what is allowed
     */
    public PreloadWorker {
        if (path == null) {
            throw new IllegalArgumentException("path must be READ or HSM_RESTORE, was null");
        }
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, was " + parallelism);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be at least 1, was " + batchSize);
        }
        if (!(networkMBps > 0) || Double.isInfinite(networkMBps)) {
            throw new IllegalArgumentException("networkMBps must be a finite number greater than 0, was " + networkMBps);
        }
    }

    /**
     * A worker on a SageMaker instance type: its network from {@link PublishedFigures#INSTANCES} ("up to" figures at
     * face value), {@link PublishedFigures#UNKNOWN_INSTANCE_NETWORK_GBPS} for a type the table does not know.
     *
     * @param path the path the script takes
     * @param parallelism readers or {@code lfs} calls at once
     * @param batchSize files per reader or {@code lfs} poll call
     * @param instanceType e.g. {@code ml.m5.xlarge}; null for an unknown one
     * @return the worker
     */
    public static PreloadWorker of(WarmUpPath path, int parallelism, int batchSize, String instanceType) {
        InstanceFacts known = instanceType == null ? null : PublishedFigures.INSTANCES.get(instanceType);
        double gbps = known != null ? known.networkGbps() : PublishedFigures.UNKNOWN_INSTANCE_NETWORK_GBPS;
        return new PreloadWorker(path, parallelism, batchSize, gbps * InstanceFacts.MBPS_PER_GBPS);
    }

    /**
     * The worker {@code LustrePreload} runs by default, on the given path: {@link PreloadDefaults}' readers, batch
     * size and instance type.
     *
     * @param path the path the script takes
     * @return the worker
     */
    public static PreloadWorker defaults(WarmUpPath path) {
        return of(path, PreloadDefaults.DEFAULT_PARALLELISM, PreloadDefaults.DEFAULT_BATCH_SIZE,
                PreloadDefaults.DEFAULT_WORKER_INSTANCE_TYPE);
    }

    /** @return files per {@code lfs hsm_restore} call: the batch size, at most {@link PreloadDefaults#MAX_RESTORE_BATCH} */
    public int filesPerRestore() {
        return Math.min(batchSize, PreloadDefaults.MAX_RESTORE_BATCH);
    }
}
