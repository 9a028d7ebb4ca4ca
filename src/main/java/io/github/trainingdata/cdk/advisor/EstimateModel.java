package io.github.trainingdata.cdk.advisor;

import static io.github.trainingdata.cdk.advisor.PublishedFigures.CONTAINER_STARTUP_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.DATA_LOADER_CONCURRENCY;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.EBS_VOLUME_MBPS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.EFS_BURSTING_BASELINE_MIBPS_PER_TIB;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.EFS_BURST_MIBPS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.EFS_BURST_MIBPS_PER_TIB;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.EFS_FILE_READ_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.EFS_USD_PER_GB_MONTH;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.FASTFILE_LISTING_OBJECTS_PER_SECOND;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.FASTFILE_SECONDS_PER_FILE;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.FASTFILE_SEQUENTIAL_MBPS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.FILE_MODE_DOWNLOAD_MBPS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.FILE_MODE_NVME_DOWNLOAD_MBPS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.FILE_MODE_SECONDS_PER_OBJECT;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.FILE_SYSTEM_MOUNT_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.HOURS_PER_MONTH;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.JOB_TAIL_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.LUSTRE_FIRST_READ_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.LUSTRE_OBJECTS_INDEXED_PER_HOUR;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.LUSTRE_USD_PER_TB_MONTH;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.LUSTRE_WARM_READ_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.PIPE_MBPS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.PIPE_STARTUP_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.PRELOAD_DEADLINE_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.PRELOAD_READERS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.RANDOM_READ_BYTES;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.S3_CHANNEL_SETUP_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.S3_USD_PER_MILLION_GETS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.S3_USD_PER_TB_MONTH;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.SMALL_FILE_BYTES;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.WARM_POOL_CONTAINER_STARTUP_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.WARM_POOL_GAP_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.WARM_POOL_KEEP_ALIVE_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.WORKER_PROVISIONING_SECONDS;

import java.time.Duration;
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
 * so its first epoch is warm; the preload's own time runs at deploy and is reported apart.
 *
 * <p>Several jobs repeat this; when they run on demand, a managed warm pool lets each later job skip most of
 * the container start-up at the price of the retained time, and the estimate uses it when that is cheaper.
 * Cost is instance count × hourly price × billable time, plus storage for the period and S3 requests.
 */
public final class EstimateModel {

    private static final double SECONDS_PER_HOUR = 3600;
    private static final double GB_PER_TB = (double) ByteSize.TB / ByteSize.GB;

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
        DataPath path = switch (option) {
            case S3_FILE -> fileMode(profile, notes);
            case S3_FAST_FILE -> fastFile(profile, notes);
            case S3_PIPE -> pipe(profile, notes);
            case FSX_LUSTRE -> lustre(profile, lustrePreloaded, notes);
            case EFS -> efs(profile, notes);
        };
        if (profile.dataLocation() == DataLocation.EFS && option != DataSourceOption.EFS) {
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
     * How long a new Lustre file system linked to S3 spends indexing its objects: a deploy-time
     * cost, not part of any job's start-up.
     *
     * @param objects number of S3 objects under the linked prefix
     * @return seconds, at about 2 million objects per hour
     */
    public static double lustreIndexingSeconds(long objects) {
        return objects / LUSTRE_OBJECTS_INDEXED_PER_HOUR * SECONDS_PER_HOUR;
    }

    /**
     * The SCRATCH_2 capacity for a profile: the largest of the capacity that holds the dataset with headroom,
     * the one whose baseline throughput feeds what the instances consume (the dataset once per epoch of
     * compute, at most what their network takes in), and the one whose baseline loads the bytes within the deploy's preload deadline when the
     * files' first-read latency leaves time for them.
     *
     * @param profile the dataset and job
     * @return 1200, 2400 or a multiple of 2400 GiB
     */
    public static int lustreCapacityGiB(DatasetProfile profile) {
        int holding = Sizing.lustreCapacityGiB(profile.totalBytes());
        double consumedMBps = Math.min(megabytes(profile.totalBytes()) / computePerEpoch(profile),
                profile.instanceCount() * profile.instance().networkMBps());
        int feeding = Sizing.lustreCapacityForThroughputGiB(consumedMBps);
        double secondsForBytes = PRELOAD_DEADLINE_SECONDS - WORKER_PROVISIONING_SECONDS - CONTAINER_STARTUP_SECONDS
                - profile.fileCount() * LUSTRE_FIRST_READ_SECONDS / PRELOAD_READERS;
        int loading = secondsForBytes >= 1
                ? Sizing.lustreCapacityForPreloadGiB(profile.totalBytes(), Duration.ofSeconds((long) secondsForBytes))
                : holding;
        return Math.max(holding, Math.max(feeding, loading));
    }

    /**
     * Seconds a preload worker needs to warm fileCount files holding totalBytes on a SCRATCH_2 cache of
     * capacityGiB, using {@code readers} concurrent readers on the read path (each first read loads a whole
     * file from S3: latency-bound for small files, bounded by the cache's throughput for large ones),
     * including the worker's start-up (instance + image pull).
     *
     * <p>The model: {@link PublishedFigures#WORKER_PROVISIONING_SECONDS} +
     * {@link PublishedFigures#CONTAINER_STARTUP_SECONDS} + fileCount × {@link PublishedFigures#LUSTRE_FIRST_READ_SECONDS}
     * / readers + totalBytes at the cache's baseline throughput ({@link Sizing#lustreBaselineMBps(int)}).
     * The baseline, not the burst, because a deploy that waits must not time out: a cache with burst credits
     * left finishes sooner. The same first-read latency makes the cold first epoch of an unwarmed cache.
     *
     * @param fileCount files to warm, at least 0
     * @param totalBytes bytes they hold, at least 0
     * @param capacityGiB the cache's SCRATCH_2 capacity: 1200, 2400 or a multiple of 2400
     * @param readers concurrent readers, at least 1
     * @return seconds from starting the worker until every file is loaded
     * @throws IllegalArgumentException naming the bad argument, its value and what is allowed
     */
    public static double preloadSeconds(long fileCount, long totalBytes, int capacityGiB, int readers) {
        if (fileCount < 0) {
            throw new IllegalArgumentException("fileCount must be at least 0, was " + fileCount);
        }
        if (totalBytes < 0) {
            throw new IllegalArgumentException("totalBytes must be at least 0, was " + totalBytes);
        }
        if (readers < 1) {
            throw new IllegalArgumentException("readers must be at least 1, was " + readers);
        }
        double loadSeconds = megabytes(totalBytes) / Sizing.lustreBaselineMBps(capacityGiB);
        return WORKER_PROVISIONING_SECONDS + CONTAINER_STARTUP_SECONDS
                + fileCount * LUSTRE_FIRST_READ_SECONDS / readers + loadSeconds;
    }

    /** What an option does with the data, before the job around it is priced. */
    private record DataPath(boolean fits, double startupSeconds, double restartSeconds, double firstReadSeconds,
            double readSeconds, double gets, double monthlyStorageUsd, double preloadSeconds) {
    }

    private static DataPath fileMode(DatasetProfile profile, List<String> notes) {
        double startup = fileModeStartupSeconds(profile);
        double read = megabytes(share(profile, profile.totalBytes())) / profile.instance().volumeMBps();
        notes.add("the instance volume must hold all " + ByteSize.format(profile.totalBytes())
                + " (" + (profile.instance().localNvme() ? "local NVMe" : "EBS, about " + HumanReadable.rate(EBS_VOLUME_MBPS))
                + "); each spot interruption downloads it again");
        double gets = (double) profile.instanceCount() * profile.fileCount() * profile.jobs()
                * (1 + profile.spotInterruptions());
        return new DataPath(inS3(profile), startup, startup, read, read, gets, s3MonthlyUsd(profile.totalBytes()), 0);
    }

    private static DataPath fastFile(DatasetProfile profile, List<String> notes) {
        boolean random = profile.accessPattern() == AccessPattern.RANDOM;
        double getsPerEpoch = random
                ? Math.max(profile.fileCount(), Math.ceil(profile.totalBytes() / (double) RANDOM_READ_BYTES))
                : profile.fileCount();
        double rate = Math.min(FASTFILE_SEQUENTIAL_MBPS, profile.instance().networkMBps());
        double read = getsPerEpoch / profile.instanceCount() * FASTFILE_SECONDS_PER_FILE
                + megabytes(share(profile, profile.totalBytes())) / rate;
        if (profile.averageFileBytes() < SMALL_FILE_BYTES) {
            notes.add("files average " + ByteSize.format(Math.round(profile.averageFileBytes()))
                    + ", under 50 MB: FastFile fetches each with its own GET (" + millis(FASTFILE_SECONDS_PER_FILE)
                    + " per file, case study)");
        }
        if (random) {
            notes.add("random reads: FastFile issues a GET per read of about " + RANDOM_READ_BYTES / ByteSize.MIB + " MiB");
        }
        double startup = S3_CHANNEL_SETUP_SECONDS + profile.fileCount() / FASTFILE_LISTING_OBJECTS_PER_SECOND;
        return new DataPath(inS3(profile), startup, startup, read, read,
                getsPerEpoch * profile.epochs() * profile.jobs(), s3MonthlyUsd(profile.totalBytes()), 0);
    }

    private static DataPath pipe(DatasetProfile profile, List<String> notes) {
        boolean fits = inS3(profile);
        if (!profile.streamable()) {
            notes.add("does not fit: Pipe needs a streamable format (TFRecord, RecordIO, text)");
            fits = false;
        }
        if (profile.accessPattern() == AccessPattern.RANDOM) {
            notes.add("does not fit: Pipe cannot seek, so random reads are impossible");
            fits = false;
        }
        double rate = Math.min(PIPE_MBPS, profile.instance().networkMBps());
        double read = share(profile, profile.fileCount()) * FILE_MODE_SECONDS_PER_OBJECT
                + megabytes(share(profile, profile.totalBytes())) / rate;
        return new DataPath(fits, PIPE_STARTUP_SECONDS, PIPE_STARTUP_SECONDS, read, read,
                (double) profile.fileCount() * profile.epochs() * profile.jobs(), s3MonthlyUsd(profile.totalBytes()), 0);
    }

    private static DataPath lustre(DatasetProfile profile, boolean preloaded, List<String> notes) {
        int capacityGiB = lustreCapacityGiB(profile);
        double baseline = Sizing.lustreBaselineMBps(capacityGiB);
        double perInstance = Math.min(profile.instance().networkMBps(), baseline / profile.instanceCount());
        double bytesSeconds = megabytes(share(profile, profile.totalBytes())) / perInstance;
        double files = share(profile, profile.fileCount());
        double warm = files * LUSTRE_WARM_READ_SECONDS / DATA_LOADER_CONCURRENCY + bytesSeconds;
        double cold = files * LUSTRE_FIRST_READ_SECONDS / DATA_LOADER_CONCURRENCY + bytesSeconds;
        double preload = preloadSeconds(profile.fileCount(), profile.totalBytes(), capacityGiB, PRELOAD_READERS);
        notes.add("SCRATCH_2 " + capacityGiB + " GiB: " + HumanReadable.rate(baseline) + " baseline, bursts to "
                + HumanReadable.rate(Sizing.lustreBurstMBps(capacityGiB)) + "; sized to hold the data, feed "
                + HumanReadable.rate(megabytes(profile.totalBytes()) / computePerEpoch(profile))
                + " of training reads and load the bytes within a deploy's wait");
        notes.add(preloaded
                ? "deploy-time, not billed to the job: preloading " + HumanReadable.count(profile.fileCount())
                        + " files takes about " + HumanReadable.duration(preload) + " (" + PRELOAD_READERS + " readers, "
                        + millis(LUSTRE_FIRST_READ_SECONDS) + " per first read); without it the first epoch reads cold "
                        + "in about " + HumanReadable.duration(cold) + " per instance"
                : "not preloaded: the first epoch loads each file from S3 on first read, in about "
                        + HumanReadable.duration(cold) + " per instance");
        notes.add("deploy-time: " + lustreCreation(profile.fileCount()));
        notes.add("needs a VPC and a training subnet in the file system's Availability Zone");
        double monthly = capacityGiB / GB_PER_TB * LUSTRE_USD_PER_TB_MONTH + s3MonthlyUsd(profile.totalBytes());
        return new DataPath(inS3(profile), FILE_SYSTEM_MOUNT_SECONDS, FILE_SYSTEM_MOUNT_SECONDS,
                preloaded ? warm : cold, warm, profile.fileCount(), monthly, preloaded ? preload : 0);
    }

    /** What creating a Lustre file system costs in time, for notes and reasons. */
    static String lustreCreation(long objects) {
        return "creating the file system indexes " + HumanReadable.count(objects) + " objects in about "
                + HumanReadable.duration(lustreIndexingSeconds(objects)) + " (assumed "
                + HumanReadable.count((long) LUSTRE_OBJECTS_INDEXED_PER_HOUR) + " per hour)";
    }

    private static DataPath efs(DatasetProfile profile, List<String> notes) {
        double tib = profile.totalBytes() / (double) ByteSize.TIB;
        double baselineMBps = mibpsToMBps(tib * EFS_BURSTING_BASELINE_MIBPS_PER_TIB);
        double burstMBps = mibpsToMBps(Math.max(EFS_BURST_MIBPS, tib * EFS_BURST_MIBPS_PER_TIB));
        boolean fits = profile.dataLocation() == DataLocation.EFS;
        if (!fits) {
            notes.add("does not fit: the data is in S3; EFS fits where tools already write the data there");
        }
        notes.add("bursting throughput: " + HumanReadable.rate(burstMBps) + " while credits last (estimated), "
                + HumanReadable.rate(baselineMBps) + " baseline after; provisioned throughput costs extra");
        notes.add("needs a VPC and a mount target in the training subnet's Availability Zone");
        double perInstance = Math.min(profile.instance().networkMBps(), burstMBps / profile.instanceCount());
        double read = share(profile, profile.fileCount()) * EFS_FILE_READ_SECONDS / DATA_LOADER_CONCURRENCY
                + megabytes(share(profile, profile.totalBytes())) / perInstance;
        double monthly = profile.totalBytes() / (double) ByteSize.GB * EFS_USD_PER_GB_MONTH;
        return new DataPath(fits, FILE_SYSTEM_MOUNT_SECONDS, FILE_SYSTEM_MOUNT_SECONDS, read, read, 0, monthly, 0);
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
        if (profile.jobs() > 1 && profile.spotInterruptions() == 0) {
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
                path.gets() / 1e6 * S3_USD_PER_MILLION_GETS, notes);
    }

    /** Seconds of compute per epoch, all instances together, if data were free. */
    static double computePerEpoch(DatasetProfile profile) {
        return profile.computeSeconds() / profile.epochs();
    }

    private static boolean inS3(DatasetProfile profile) {
        return profile.dataLocation() == DataLocation.S3;
    }

    /** One instance's share of a per-epoch quantity: data-parallel instances each read their part. */
    private static double share(DatasetProfile profile, double total) {
        return total / profile.instanceCount();
    }

    private static double s3MonthlyUsd(long bytes) {
        return bytes / (double) ByteSize.TB * S3_USD_PER_TB_MONTH;
    }

    private static double megabytes(double bytes) {
        return bytes / ByteSize.MB;
    }

    private static double mibpsToMBps(double mibps) {
        return mibps * ByteSize.MIB / ByteSize.MB;
    }

    private static String millis(double seconds) {
        return HumanReadable.millis(seconds);
    }
}
