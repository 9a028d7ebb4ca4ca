package io.github.trainingdata.cdk.advisor;

import static io.github.trainingdata.cdk.performance.PublishedFigures.CONTAINER_STARTUP_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.EBS_VOLUME_MBPS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.FILE_MODE_DOWNLOAD_MBPS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.FILE_MODE_NVME_DOWNLOAD_MBPS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.FILE_MODE_SECONDS_PER_OBJECT;
import static io.github.trainingdata.cdk.performance.PublishedFigures.HOURS_PER_MONTH;
import static io.github.trainingdata.cdk.performance.PublishedFigures.JOB_TAIL_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.LUSTRE_OBJECTS_INDEXED_PER_HOUR;
import static io.github.trainingdata.cdk.performance.PublishedFigures.S3_CHANNEL_SETUP_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.WARM_POOL_CONTAINER_STARTUP_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.WARM_POOL_GAP_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.WARM_POOL_KEEP_ALIVE_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.WORKER_PROVISIONING_SECONDS;

import io.github.trainingdata.cdk.performance.PublishedFigures;
import io.github.trainingdata.cdk.performance.InstanceFacts;
import io.github.trainingdata.cdk.performance.ByteSize;
import io.github.trainingdata.cdk.performance.LustreTier;
import io.github.trainingdata.cdk.performance.Sizing;
import io.github.trainingdata.cdk.performance.PreloadDefaults;
import io.github.trainingdata.cdk.performance.PreloadModel;
import io.github.trainingdata.cdk.performance.PreloadWorker;
import io.github.trainingdata.cdk.performance.WarmUpPath;
import java.util.ArrayList;
import java.util.List;

/**
 * The estimate model: what each {@link DataSourceOption} makes one training job, and the profile's series of
 * jobs, take and cost, computed only from {@link PublishedFigures} and calibrated on the case study's twelve
 * published runs.
 *
 * <p>One job bills, in wall-clock seconds:
 * <pre>
 *   max(data start-up, container start-up)          download / listing / Pipe start / mount, beside ~160 s
 * + first epoch + (epochs - 1) × later epoch          each epoch: max(compute, read its bytes at the option's rate)
 * + job tail                                          ~50 s: model upload, stop
 * + spot interruptions × the start-up again           File mode downloads the dataset again
 * </pre>
 * Compute per epoch is the profile's training time (compute with free data) over its epochs. Reading an epoch
 * takes, per instance, its share of the files × the option's per-file cost (at the data loader's concurrency)
 * plus its share of the bytes at the option's rate for this instance: File reads its local copy (EBS ≈ 250 MB/s,
 * NVMe faster); FastFile and Pipe stream from S3 (≤ 1000 MB/s and the instance's network); FSx reads the cache
 * at its baseline throughput shared by the instances; EFS at its burst throughput. FSx is estimated preloaded,
 * so its first epoch is warm; the preload's own time ({@link PreloadModel}) runs at deploy and is reported apart.
 *
 * <p>Several jobs repeat this; when they run on demand, a managed warm pool lets each later job skip most of
 * the container start-up at the price of the retained time, and the estimate uses it when that is cheaper.
 * Cost is instance count × hourly price × billable time, plus storage for the period and S3 requests.
 */
public final class EstimateModel {

    private static final double SECONDS_PER_HOUR = 3600;

    private EstimateModel() {
    }

    /**
     * Estimates every option, in {@link DataSourceOption} declaration order.
     *
     * @param profile the dataset and job
     * @return one estimate per option
     */
    public static List<OptionEstimate> estimateAll(DatasetProfile profile) {
        List<OptionEstimate> estimates = new ArrayList<>();
        for (DataSourceOption option : DataSourceOption.values()) {
            estimates.add(estimate(profile, option));
        }
        return List.copyOf(estimates);
    }

    /**
     * Estimates one option; FSx for Lustre is estimated preloaded.
     *
     * @param profile the dataset and job
     * @param option the option to estimate
     * @return its times, costs and caveats
     */
    public static OptionEstimate estimate(DatasetProfile profile, DataSourceOption option) {
        return estimate(profile, option, true);
    }

    /**
     * Estimates one option, with an FSx for Lustre cache preloaded or not (a cold cache loads each file from S3
     * on its first read).
     */
    static OptionEstimate estimate(DatasetProfile profile, DataSourceOption option, boolean lustrePreloaded) {
        List<String> notes = new ArrayList<>();
        DataPath path = option.path(profile, lustrePreloaded, notes);
        if (profile.dataLocation() == DataLocation.EFS && option.storage() != StorageService.EFS) {
            notes.add(0, "does not fit: the data is on EFS; copy it to S3 first");
        }
        return priced(profile, option, path, notes);
    }

    /**
     * File-mode data start-up on one instance: channel set-up, 7 ms per object and the bytes at 150 MB/s on an
     * EBS volume (1000 MB/s with NVMe, at most the instance's network).
     *
     * @param profile the dataset and instance
     * @return seconds before the script can read
     */
    public static double fileModeStartupSeconds(DatasetProfile profile) {
        return fileModeStartupSeconds(profile.totalBytes(), profile.fileCount(), profile.instance());
    }

    private static double fileModeStartupSeconds(long bytes, long objects, InstanceFacts instance) {
        return S3_CHANNEL_SETUP_SECONDS + objects * FILE_MODE_SECONDS_PER_OBJECT
                + megabytes(bytes) / fileModeDownloadMBps(instance);
    }

    /**
     * The rate File mode copies bytes at on one instance.
     *
     * @param instance the instance
     * @return MB/s: 150 on an EBS volume, 1000 with NVMe, at most the network
     */
    public static double fileModeDownloadMBps(InstanceFacts instance) {
        double rate = instance.localNvme() ? FILE_MODE_NVME_DOWNLOAD_MBPS : Math.min(FILE_MODE_DOWNLOAD_MBPS, EBS_VOLUME_MBPS);
        return Math.min(rate, instance.networkMBps());
    }

    /**
     * The Lustre cache for a profile: each tier ({@link LustreTier#all()}) sized by {@link #lustreSizing}, and the
     * cheapest per month chosen ({@link LustreChoice#choose}).
     *
     * @param profile the dataset and job
     * @return the choice, with every tier's sizing
     */
    public static LustreChoice lustreChoice(DatasetProfile profile) {
        double read = lustreReadMBps(profile);
        double load = lustreLoadMBps(profile);
        List<LustreSizing> candidates = LustreTier.all().stream().map(t -> sized(profile, t, read, load)).toList();
        return LustreChoice.choose(candidates, Sizing.lustreCapacityGiB(profile.totalBytes()), read,
                Double.isFinite(load) ? load : 0);
    }

    /**
     * The capacity of one tier for a profile: the largest of the capacity that holds the dataset with headroom, the one
     * whose baseline throughput feeds what the instances consume (the dataset once per epoch of compute, at most what
     * their network takes in), and the one that loads the bytes within a deploy's wait
     * ({@link PreloadDefaults#MAX_DEPLOY_WAIT_SECONDS}, the limit the preload's wait decision uses) when the rest of the
     * warm-up leaves time for them: FSx's metadata import, the default worker's start and its readers' latency on the
     * read path ({@link PreloadModel}). Never faster than the worker's network carries the reads.
     *
     * @param profile the dataset and job
     * @param tier SCRATCH_2 or a PERSISTENT_2 tier
     * @return the sizing: 1200, 2400 or a multiple of 2400 GiB of the tier
     */
    public static LustreSizing lustreSizing(DatasetProfile profile, LustreTier tier) {
        return sized(profile, tier, lustreReadMBps(profile), lustreLoadMBps(profile));
    }

    private static LustreSizing sized(DatasetProfile profile, LustreTier tier, double readMBps, double loadMBps) {
        int holding = Sizing.lustreCapacityGiB(profile.totalBytes());
        int feeding = Sizing.lustreCapacityForThroughputGiB(readMBps, tier);
        int loading = Double.isFinite(loadMBps) && loadMBps > 0 ? Sizing.lustreCapacityForLoadGiB(loadMBps, tier)
                : holding;
        return new LustreSizing(tier, Math.max(holding, Math.max(feeding, loading)));
    }

    /** What the instances read from a cache: the dataset once per epoch of compute, at most their network. */
    private static double lustreReadMBps(DatasetProfile profile) {
        return Math.min(megabytes(profile.totalBytes()) / computePerEpoch(profile),
                profile.instanceCount() * profile.instance().networkMBps());
    }

    /** What a cache must load to finish within a deploy's wait; infinite when no rate can. */
    private static double lustreLoadMBps(DatasetProfile profile) {
        double window = PreloadDefaults.MAX_DEPLOY_WAIT_SECONDS - PreloadModel.lustreIndexingSeconds(profile.fileCount())
                - WORKER_PROVISIONING_SECONDS - CONTAINER_STARTUP_SECONDS;
        return window > 0 ? PreloadModel.loadRateNeededMBps(profile.fileCount(), profile.totalBytes(),
                PreloadWorker.defaults(WarmUpPath.READ), window) : Double.POSITIVE_INFINITY;
    }

    /**
     * What a capacity fallback to S3 does to one job of the profile ({@link S3Fallback}): the faster of FastFile and
     * File (the one with the shorter job that fits) against the preloaded cache.
     *
     * @param profile the dataset and job
     * @param estimates the profile's estimates ({@link #estimateAll})
     * @return the fallback, or null when the data is not in S3 (nothing to fall back to)
     */
    static S3Fallback s3Fallback(DatasetProfile profile, List<OptionEstimate> estimates) {
        if (profile.dataLocation() != DataLocation.S3) {
            return null;
        }
        OptionEstimate cache = estimates.get(DataSourceOption.FSX_LUSTRE.ordinal());
        OptionEstimate fastFile = estimates.get(DataSourceOption.S3_FAST_FILE.ordinal());
        OptionEstimate file = estimates.get(DataSourceOption.S3_FILE.ordinal());
        OptionEstimate s3 = file.jobSeconds() < fastFile.jobSeconds() ? file : fastFile;
        Double wait = profile.capacityWait() == null ? null : profile.capacityWait().toNanos() / 1e9;
        return new S3Fallback(s3.option(), s3.startupSeconds(), s3.throughputMBps(), s3.jobSeconds(),
                cache.jobSeconds(), jobUsd(profile, s3), jobUsd(profile, cache), wait);
    }

    /** One job's instance cost (started on new instances, no interruptions) and its share of the S3 requests. */
    private static double jobUsd(DatasetProfile profile, OptionEstimate estimate) {
        return estimate.jobSeconds() * profile.hourlyPriceUsd() * profile.instanceCount() / SECONDS_PER_HOUR
                + estimate.requestUsd() / profile.jobs();
    }

    /** What creating a Lustre file system costs in time, for notes and reasons. */
    static String lustreCreation(long objects) {
        return "creating the file system indexes " + HumanReadable.count(objects) + " objects in about "
                + HumanReadable.duration(PreloadModel.lustreIndexingSeconds(objects)) + " (assumed "
                + HumanReadable.count((long) LUSTRE_OBJECTS_INDEXED_PER_HOUR) + " per hour)";
    }

    private static OptionEstimate priced(DatasetProfile profile, DataSourceOption option, DataPath path,
            List<String> notes) {
        double compute = computePerEpoch(profile);
        double firstEpoch = Math.max(compute, path.firstReadSeconds());
        double epoch = Math.max(compute, path.readSeconds());
        double rest = (profile.epochs() - 1) * epoch + JOB_TAIL_SECONDS;
        double coldStart = Math.max(CONTAINER_STARTUP_SECONDS, path.startupSeconds());
        double job = coldStart + firstEpoch + rest;
        // Later jobs find a cache already warm.
        double laterJob = coldStart + epoch + rest;
        double restarts = profile.spotInterruptions() * Math.max(CONTAINER_STARTUP_SECONDS, path.restartSeconds());
        double billable = job + restarts + (profile.jobs() - 1) * (laterJob + restarts);
        boolean warmPool = false;
        if (profile.jobs() > 1 && profile.spotInterruptions() == 0 && profile.warmPoolQuota()) {
            double saved = coldStart - Math.max(WARM_POOL_CONTAINER_STARTUP_SECONDS, path.startupSeconds());
            double retained = (profile.jobs() - 1) * WARM_POOL_GAP_SECONDS + WARM_POOL_KEEP_ALIVE_SECONDS;
            warmPool = (profile.jobs() - 1) * saved > retained;
            if (warmPool) {
                billable += retained - (profile.jobs() - 1) * saved;
                notes.add("warm pool: jobs 2–" + profile.jobs() + " reuse the instances (keep-alive "
                        + HumanReadable.duration(WARM_POOL_KEEP_ALIVE_SECONDS) + "), each starting "
                        + HumanReadable.duration(saved) + " sooner; the pool bills "
                        + HumanReadable.duration(retained) + " of retained time");
            }
        }
        double instanceHourUsd = profile.hourlyPriceUsd() * profile.instanceCount();
        double periodHours = (billable + path.preloadSeconds()) / SECONDS_PER_HOUR;
        return new OptionEstimate(option, path.fits(), path.startupSeconds(), megabytes(share(profile, profile.totalBytes())) / Math.max(path.readSeconds(), 1e-9),
                path.readSeconds(), firstEpoch, epoch, job, billable, warmPool, path.preloadSeconds(),
                path.monthlyStorageUsd(), path.startupSeconds() * instanceHourUsd / SECONDS_PER_HOUR,
                billable * instanceHourUsd / SECONDS_PER_HOUR,
                path.monthlyStorageUsd() / HOURS_PER_MONTH * periodHours,
                path.requestUsd(), notes);
    }

    /** Seconds of compute per epoch, all instances together, if data were free. */
    static double computePerEpoch(DatasetProfile profile) {
        return profile.computeSeconds() / profile.epochs();
    }

    /** One instance's share of a per-epoch quantity: data-parallel instances each read their part. */
    static double share(DatasetProfile profile, double total) {
        return total / profile.instanceCount();
    }

    static double megabytes(double bytes) {
        return bytes / ByteSize.MB;
    }
}
