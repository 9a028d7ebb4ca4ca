package io.github.trainingdata.cdk.performance;

import static io.github.trainingdata.cdk.performance.PublishedFigures.CONTAINER_STARTUP_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.HSM_REQUEST_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.LUSTRE_FILE_LOAD_MBPS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.LUSTRE_FIRST_READ_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.LUSTRE_OBJECTS_INDEXED_PER_HOUR;
import static io.github.trainingdata.cdk.performance.PublishedFigures.WORKER_PROVISIONING_SECONDS;

/**
 * How long the preload worker takes to warm a Lustre cache, on the path its image makes {@code warm-cache.sh} take
 * ({@link WarmUpPath}); every constant is in {@link PublishedFigures} with its source. Sizes in MB (10^6 bytes),
 * times in seconds; {@code L} is {@link PublishedFigures#LUSTRE_FIRST_READ_SECONDS}, {@code r}
 * {@link PublishedFigures#LUSTRE_FILE_LOAD_MBPS}, {@code t} {@link PublishedFigures#HSM_REQUEST_SECONDS}.
 *
 * <p><b>Read path</b> (no {@code lfs}): {@code R} readers read the first byte of one file after another; a first
 * read waits while FSx loads the whole file from S3, and what the worker reads crosses its network:
 * <pre>
 *   readers = (files × L + MB / r) / R          each file: its first-byte latency, then the file at r
 *   bytes   = MB / min(cache load rate, worker network)
 *   warm    = max(readers, bytes)
 * </pre>
 * <b>Restore path</b> ({@code lfs}): {@code lfs hsm_restore} calls of up to 50 files, {@code R} at once; the file
 * servers load the files asynchronously, so the cache's load rate bounds the bytes and the worker's network does
 * not; then the worker polls ({@code lfs hsm_action} and {@code hsm_state}, a call per batch each) until it sees
 * every file loaded:
 * <pre>
 *   issue   = ⌈files / filesPerCall⌉ × t / R
 *   restore = max(issue, MB / cache load rate) + L + (MB / files) / r    the last file's own load
 *   verify  = poll interval + 2 × ⌈files / batch⌉ × t / R
 *   warm    = restore + verify
 * </pre>
 * A preload adds the worker's start: {@link PublishedFigures#WORKER_PROVISIONING_SECONDS} +
 * {@link PublishedFigures#CONTAINER_STARTUP_SECONDS}. Not modelled: listing the files ({@code find}, one walk of the
 * metadata) and FSx's metadata import before the worker starts ({@link #lustreIndexingSeconds(long)}).
 */
public final class PreloadModel {
    private static final double SECONDS_PER_HOUR = 3600;

    /**
     * How long a new Lustre file system linked to S3 spends indexing its objects: a deploy-time
     * cost, not part of any job's start-up.
     *
     * @param objects number of S3 objects under the linked prefix
     * @return seconds, at about 2 million objects per hour
     */
    public static double lustreIndexingSeconds(long objects) {
        return objects / LUSTRE_OBJECTS_INDEXED_PER_HOUR * SECONDS_PER_HOUR;
    }

    private PreloadModel() {
    }

    /**
     * Seconds from starting the worker until every file is loaded: the worker's start, then {@link #warmSeconds}.
     *
     * @param fileCount files to warm, at least 0
     * @param totalBytes bytes they hold, at least 0
     * @param cache how fast the cache takes in data
     * @param worker the worker and its path
     * @return seconds
     * @throws IllegalArgumentException when a count is negative
     */
    public static double preloadSeconds(long fileCount, long totalBytes, CacheThroughput cache, PreloadWorker worker) {
        return WORKER_PROVISIONING_SECONDS + CONTAINER_STARTUP_SECONDS + warmSeconds(fileCount, totalBytes, cache, worker);
    }

    /**
     * Seconds the warm-up itself takes, once the worker's script runs: the read path, or the restore path with its
     * verifying polls.
     *
     * @param fileCount files to warm, at least 0
     * @param totalBytes bytes they hold, at least 0
     * @param cache how fast the cache takes in data
     * @param worker the worker and its path
     * @return seconds
     * @throws IllegalArgumentException when a count is negative
     */
    public static double warmSeconds(long fileCount, long totalBytes, CacheThroughput cache, PreloadWorker worker) {
        return worker.path() == WarmUpPath.READ
                ? readSeconds(fileCount, totalBytes, cache, worker.parallelism(), worker.networkMBps())
                : restoreSeconds(fileCount, totalBytes, cache, worker.parallelism(), worker.filesPerRestore())
                        + verifySeconds(fileCount, worker);
    }

    /**
     * The read path: readers that each wait for one whole file's load at a time, and the bytes through the slower of
     * the cache's load rate and the worker's network.
     *
     * @param fileCount files to read, at least 0
     * @param totalBytes bytes they hold, at least 0
     * @param cache how fast the cache takes in data
     * @param readers readers at once, at least 1
     * @param networkMBps the worker's network, MB/s
     * @return seconds
     * @throws IllegalArgumentException when a count is negative
     */
    public static double readSeconds(long fileCount, long totalBytes, CacheThroughput cache, int readers,
            double networkMBps) {
        requireCounts(fileCount, totalBytes);
        double megabytes = megabytes(totalBytes);
        return Math.max(readersSeconds(fileCount, megabytes, readers), megabytes / Math.min(cache.mbps(), networkMBps));
    }

    /**
     * The restore phase of the {@code lfs} path: the requests, {@code issuers} calls at once, while the file servers
     * load at the cache's rate, then the last file's own load. The polls that verify it are not included, so this is
     * also the time of a bare {@code xargs ... lfs hsm_restore} run.
     *
     * @param fileCount files to restore, at least 0
     * @param totalBytes bytes they hold, at least 0
     * @param cache how fast the cache takes in data
     * @param issuers {@code lfs hsm_restore} calls at once, at least 1
     * @param filesPerCall files per call, at least 1
     * @return seconds
     * @throws IllegalArgumentException when a count is negative or issuers or filesPerCall below 1
     */
    public static double restoreSeconds(long fileCount, long totalBytes, CacheThroughput cache, int issuers,
            int filesPerCall) {
        requireCounts(fileCount, totalBytes);
        if (issuers < 1 || filesPerCall < 1) {
            throw new IllegalArgumentException("issuers and filesPerCall must be at least 1, were " + issuers + " and "
                    + filesPerCall);
        }
        if (fileCount == 0) {
            return 0;
        }
        return Math.max(issueSeconds(fileCount, filesPerCall, issuers), megabytes(totalBytes) / cache.mbps())
                + lastFileSeconds(fileCount, totalBytes);
    }

    /**
     * The cache load rate (MB/s) at which the worker warms the files within {@code seconds} of its script's start;
     * on the read path at most the worker's network, which carries the reads (a faster cache would not be the bound).
     * Infinity when no load rate is enough: the readers' latency or the {@code lfs} requests alone take longer.
     *
     * @param fileCount files to warm, at least 0
     * @param totalBytes bytes they hold, at least 0
     * @param worker the worker and its path
     * @param seconds the time available, greater than 0
     * @return MB/s, 0 for no bytes
     */
    public static double loadRateNeededMBps(long fileCount, long totalBytes, PreloadWorker worker, double seconds) {
        requireCounts(fileCount, totalBytes);
        double megabytes = megabytes(totalBytes);
        if (worker.path() == WarmUpPath.READ) {
            return readersSeconds(fileCount, megabytes, worker.parallelism()) > seconds ? Double.POSITIVE_INFINITY
                    : Math.min(megabytes / seconds, worker.networkMBps());
        }
        if (fileCount == 0) {
            return 0;
        }
        double forLoading = seconds - lastFileSeconds(fileCount, totalBytes) - verifySeconds(fileCount, worker);
        double issue = issueSeconds(fileCount, worker.filesPerRestore(), worker.parallelism());
        return forLoading <= 0 || issue > forLoading ? Double.POSITIVE_INFINITY : megabytes / forLoading;
    }

    /** The polls after the restores: at most one interval until the next poll, and a poll's two calls per batch. */
    private static double verifySeconds(long fileCount, PreloadWorker worker) {
        if (fileCount == 0) {
            return 0;
        }
        return PreloadDefaults.DEFAULT_POLL_SECONDS + 2 * issueSeconds(fileCount, worker.batchSize(), worker.parallelism());
    }

    /** Readers that each wait for one file's whole load at a time. */
    private static double readersSeconds(long fileCount, double megabytes, int readers) {
        return (fileCount * LUSTRE_FIRST_READ_SECONDS + megabytes / LUSTRE_FILE_LOAD_MBPS) / readers;
    }

    /** {@code lfs} calls of {@code filesPerCall} files each, {@code issuers} at once. */
    private static double issueSeconds(long fileCount, int filesPerCall, int issuers) {
        return Math.ceil(fileCount / (double) filesPerCall) * HSM_REQUEST_SECONDS / issuers;
    }

    /** The last file requested still loads after its request: its first-byte latency and its bytes. */
    private static double lastFileSeconds(long fileCount, long totalBytes) {
        return LUSTRE_FIRST_READ_SECONDS + megabytes(totalBytes) / fileCount / LUSTRE_FILE_LOAD_MBPS;
    }

    private static void requireCounts(long fileCount, long totalBytes) {
        if (fileCount < 0) {
            throw new IllegalArgumentException("fileCount must be at least 0, was " + fileCount);
        }
        if (totalBytes < 0) {
            throw new IllegalArgumentException("totalBytes must be at least 0, was " + totalBytes);
        }
    }

    private static double megabytes(double bytes) {
        return bytes / ByteSize.MB;
    }
}
