package io.github.trainingdata.cdk.advisor;

import static io.github.trainingdata.cdk.advisor.EstimateModel.computePerEpoch;
import static io.github.trainingdata.cdk.advisor.EstimateModel.fileModeStartupSeconds;
import static io.github.trainingdata.cdk.advisor.EstimateModel.lustreChoice;
import static io.github.trainingdata.cdk.advisor.EstimateModel.lustreCreation;
import static io.github.trainingdata.cdk.advisor.EstimateModel.megabytes;
import static io.github.trainingdata.cdk.advisor.EstimateModel.share;
import static io.github.trainingdata.cdk.performance.PublishedFigures.DATA_LOADER_CONCURRENCY;
import static io.github.trainingdata.cdk.performance.PublishedFigures.EBS_VOLUME_MBPS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.EFS_BURSTING_BASELINE_MIBPS_PER_TIB;
import static io.github.trainingdata.cdk.performance.PublishedFigures.EFS_BURST_MIBPS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.EFS_BURST_MIBPS_PER_TIB;
import static io.github.trainingdata.cdk.performance.PublishedFigures.EFS_FILE_READ_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.EFS_USD_PER_GB_MONTH;
import static io.github.trainingdata.cdk.performance.PublishedFigures.FASTFILE_SEQUENTIAL_MBPS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.FILE_MODE_SECONDS_PER_OBJECT;
import static io.github.trainingdata.cdk.performance.PublishedFigures.FILE_SYSTEM_MOUNT_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.LUSTRE_FIRST_READ_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.LUSTRE_WARM_READ_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.PIPE_MBPS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.PIPE_STARTUP_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.RANDOM_READ_BYTES;
import static io.github.trainingdata.cdk.performance.PublishedFigures.S3_CHANNEL_SETUP_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.S3_CLIENT_SHARD_MBPS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.SMALL_FILE_BYTES;

import io.github.trainingdata.cdk.performance.ByteSize;
import java.util.List;

/**
 * What a {@link DataSourceOption} does with the data, before {@link EstimateModel} prices the job around it:
 * whether it fits, its start-up (and again after a spot interruption), how long an instance reads the first
 * and a later epoch, its requests in USD (and a directory bucket's fill), monthly storage and a deploy-time preload
 * or fill. One factory per kind of option; the S3 ones take the {@link ObjectStore} they read.
 */
record DataPath(boolean fits, double startupSeconds, double restartSeconds, double firstReadSeconds,
        double readSeconds, double requestUsd, double monthlyStorageUsd, double preloadSeconds) {

    /** How a {@link DataSourceOption} estimates its path: one of the factories below. */
    @FunctionalInterface
    interface Estimator {
        /**
         * @param lustrePreloaded whether an FSx for Lustre cache is estimated preloaded (the other options ignore it)
         * @param notes where the option's caveats go
         */
        DataPath estimate(DatasetProfile profile, boolean lustrePreloaded, List<String> notes);
    }

    static DataPath fileMode(DatasetProfile profile, ObjectStore store, List<String> notes) {
        double startup = fileModeStartupSeconds(profile);
        double read = megabytes(share(profile, profile.totalBytes())) / profile.instance().volumeMBps();
        notes.add("the instance volume must hold all " + ByteSize.format(profile.totalBytes())
                + " (" + (profile.instance().localNvme() ? "local NVMe" : "EBS, about " + HumanReadable.rate(EBS_VOLUME_MBPS))
                + "); each spot interruption downloads it again");
        double gets = (double) profile.instanceCount() * profile.fileCount() * profile.jobs()
                * (1 + profile.spotInterruptions());
        double bytes = (double) profile.instanceCount() * profile.totalBytes() * profile.jobs()
                * (1 + profile.spotInterruptions());
        if (store == ObjectStore.S3_EXPRESS) {
            notes.add("File mode is estimated to copy a directory bucket at its S3 rates (no published figure): the "
                    + "first byte's gain is not counted");
        }
        store.notes(profile, notes);
        return new DataPath(inS3(profile), startup, startup, read, read,
                store.requestUsd(gets, bytes) + store.fillUsd(profile),
                store.monthlyUsd(profile.totalBytes()), store.fillSeconds(profile));
    }

    static DataPath fastFile(DatasetProfile profile, ObjectStore store, List<String> notes) {
        boolean random = profile.accessPattern() == AccessPattern.RANDOM;
        double getsPerEpoch = getsPerEpoch(profile);
        double read = onDemandReadSeconds(profile, store, getsPerEpoch, FASTFILE_SEQUENTIAL_MBPS);
        if (profile.averageFileBytes() < SMALL_FILE_BYTES) {
            notes.add("files average " + ByteSize.format(Math.round(profile.averageFileBytes()))
                    + ", under 50 MB: FastFile fetches each with its own GET (" + store.perFile() + ")");
        }
        if (random) {
            notes.add("random reads: FastFile issues a GET per read of about " + RANDOM_READ_BYTES / ByteSize.MIB + " MiB");
        }
        store.notes(profile, notes);
        double startup = S3_CHANNEL_SETUP_SECONDS + profile.fileCount() / store.listingPerSecond();
        return new DataPath(inS3(profile), startup, startup, read, read,
                onDemandRequestUsd(profile, store, getsPerEpoch),
                store.monthlyUsd(profile.totalBytes()), store.fillSeconds(profile));
    }

    /**
     * Training code that reads the store itself (S3 Connector for PyTorch, Mountpoint): no channel, so no channel
     * set-up; a map-style dataset lists the prefix before it reads (at SageMaker's listing rate, assumed), then each
     * object costs the store's time per file and the bytes stream at the client's published rate.
     */
    static DataPath direct(DatasetProfile profile, ObjectStore store, List<String> notes) {
        double getsPerEpoch = getsPerEpoch(profile);
        double read = onDemandReadSeconds(profile, store, getsPerEpoch, S3_CLIENT_SHARD_MBPS);
        notes.add("needs training code that reads the store itself (S3 Connector for PyTorch, Mountpoint for Amazon S3) "
                + "from the location the job is given; no SageMaker channel");
        if (profile.averageFileBytes() < SMALL_FILE_BYTES) {
            notes.add("files average " + ByteSize.format(Math.round(profile.averageFileBytes())) + ", under 50 MB: one GET "
                    + "each (" + store.perFile() + "); the blog behind this option reads 256 MB tar shards at "
                    + HumanReadable.rate(S3_CLIENT_SHARD_MBPS));
        }
        store.notes(profile, notes);
        double startup = profile.fileCount() / store.listingPerSecond();
        return new DataPath(inS3(profile), startup, startup, read, read,
                onDemandRequestUsd(profile, store, getsPerEpoch),
                store.monthlyUsd(profile.totalBytes()), store.fillSeconds(profile));
    }

    static DataPath pipe(DatasetProfile profile, List<String> notes) {
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
                ObjectStore.S3.requestUsd((double) profile.fileCount() * profile.epochs() * profile.jobs(), 0),
                ObjectStore.S3.monthlyUsd(profile.totalBytes()), 0);
    }

    static DataPath lustre(DatasetProfile profile, boolean preloaded, List<String> notes) {
        LustreSizing cache = lustreChoice(profile).chosen();
        double baseline = cache.baselineMBps();
        double perInstance = Math.min(profile.instance().networkMBps(), baseline / profile.instanceCount());
        double bytesSeconds = megabytes(share(profile, profile.totalBytes())) / perInstance;
        double files = share(profile, profile.fileCount());
        double warm = files * LUSTRE_WARM_READ_SECONDS / DATA_LOADER_CONCURRENCY + bytesSeconds;
        double cold = files * LUSTRE_FIRST_READ_SECONDS / DATA_LOADER_CONCURRENCY + bytesSeconds;
        Preloads preloads = Preloads.of(profile, cache.loadThroughput());
        double preload = preloads.read();
        notes.add(cache.tier() + " " + cache.capacityGiB() + " GiB: " + HumanReadable.rate(baseline) + " baseline, "
                + (cache.tier().persistent() ? "up to " : "bursts to ") + HumanReadable.rate(cache.peakMBps())
                + (cache.tier().persistent() ? " from the file servers' memory" : "") + "; sized to hold the data, feed "
                + HumanReadable.rate(megabytes(profile.totalBytes()) / computePerEpoch(profile))
                + " of training reads and load the bytes within a deploy's wait");
        notes.add(preloaded
                ? "deploy-time, not billed to the job: preloading " + HumanReadable.count(profile.fileCount())
                        + " files takes about " + preloads.describe() + "; without it the first epoch reads cold "
                        + "in about " + HumanReadable.duration(cold) + " per instance"
                : "not preloaded: the first epoch loads each file from S3 on first read, in about "
                        + HumanReadable.duration(cold) + " per instance");
        notes.add("deploy-time: " + lustreCreation(profile.fileCount()));
        notes.add("needs a VPC and a training subnet in the file system's Availability Zone");
        double monthly = cache.monthlyUsd() + ObjectStore.S3.monthlyUsd(profile.totalBytes());
        return new DataPath(inS3(profile), FILE_SYSTEM_MOUNT_SECONDS, FILE_SYSTEM_MOUNT_SECONDS,
                preloaded ? warm : cold, warm, ObjectStore.S3.requestUsd(profile.fileCount(), 0), monthly,
                preloaded ? preload : 0);
    }

    static DataPath efs(DatasetProfile profile, List<String> notes) {
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

    /** GETs per epoch when files are read on demand: one per file, or per ~1 MiB read at random. */
    private static double getsPerEpoch(DatasetProfile profile) {
        return profile.accessPattern() == AccessPattern.RANDOM
                ? Math.max(profile.fileCount(), Math.ceil(profile.totalBytes() / (double) RANDOM_READ_BYTES))
                : profile.fileCount();
    }

    /** One instance's epoch read on demand: its GETs at the store's time per file, its bytes at {@code mbps}. */
    private static double onDemandReadSeconds(DatasetProfile profile, ObjectStore store, double getsPerEpoch,
            double mbps) {
        double rate = Math.min(mbps, profile.instance().networkMBps());
        return getsPerEpoch / profile.instanceCount() * store.perFileSeconds(profile)
                + megabytes(share(profile, profile.totalBytes())) / rate;
    }

    /** The requests of every epoch of every job read on demand, and the store's fill. */
    private static double onDemandRequestUsd(DatasetProfile profile, ObjectStore store, double getsPerEpoch) {
        return store.requestUsd(getsPerEpoch * profile.epochs() * profile.jobs(),
                (double) profile.totalBytes() * profile.epochs() * profile.jobs()) + store.fillUsd(profile);
    }

    private static boolean inS3(DatasetProfile profile) {
        return profile.dataLocation() == DataLocation.S3;
    }

    private static double mibpsToMBps(double mibps) {
        return mibps * ByteSize.MIB / ByteSize.MB;
    }
}
