package io.github.trainingdata.cdk.performance;

/**
 * The preload worker's defaults and bounds, in one place for everything that uses them: {@code LustrePreload}
 * (which checks the settings and puts them in the worker's environment), {@code warm-cache.sh} (whose own
 * defaults {@code WarmUpScript} fills in from here) and the advisor's preload estimate.
 * Plain Java in the advisor package, which the preload package already imports, so no cycle arises.
 */
public final class PreloadDefaults {
    /**
     * Readers (or {@code lfs} calls) at once by default. Without {@code lfs}, each first read of a file waits while
     * FSx loads the whole file from S3 (tens of ms for a small object), so a reader handles only ~10–50 files/s and
     * throughput is readers / latency (Little's law): 128 readers give ~2,500 files/s at 50 ms and ~1,300 at
     * 100 ms. Each is a {@code sh} and a {@code head} process, mostly asleep: a few hundred MB of memory in all.
     */
    public static final int DEFAULT_PARALLELISM = 128;

    /**
     * The most readers that make sense: S3 serves at least 5,500 GET requests per second per partitioned prefix,
     * which 512 readers reach at ~100 ms per load; more would mostly add throttling (503 Slow Down) and processes.
     */
    public static final int MAX_PARALLELISM = 512;

    /**
     * Files per reader process or per {@code lfs hsm_action}/{@code hsm_state} call by default (the script makes
     * batches smaller when there are too few files to give every reader one).
     */
    public static final int DEFAULT_BATCH_SIZE = 256;

    /** The largest batch size accepted. */
    public static final int MAX_BATCH_SIZE = 10_000;

    /**
     * The most files one {@code lfs hsm_restore} call gets, whatever the batch size: the Lustre client refuses an
     * HSM request of 1,706 bytes or more ({@code MDS_MAXREQSIZE / 3}; 24 bytes plus 32 per file) with E2BIG, i.e.
     * more than 52 files.
     */
    public static final int MAX_RESTORE_BATCH = 50;

    /** Seconds between two polls of {@code lfs hsm_action}, and between two progress lines while reading. */
    public static final int DEFAULT_POLL_SECONDS = 10;

    /** Polls before the script gives up on files still loading: 8,640 polls of 10 s are 24 hours. */
    public static final int DEFAULT_MAX_POLLS = 8_640;

    /** The worker's instance type by default: it only issues reads or requests, so a small general-purpose type. */
    public static final String DEFAULT_WORKER_INSTANCE_TYPE = "ml.m5.xlarge";

    /**
     * The longest a deploy waits for a preload, in seconds: 55 minutes, within the stack provider's 58 minutes and
     * a custom resource's hour. The wait decision and the advisor's capacity sizing both hold the estimated
     * metadata import and warm-up against it.
     */
    public static final int MAX_DEPLOY_WAIT_SECONDS = 55 * 60;

    private PreloadDefaults() {
    }
}
