package io.github.trainingdata.cdk.advisor;

import static io.github.trainingdata.cdk.advisor.PublishedFigures.EBS_VOLUME_MBPS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.EFS_BURSTING_BASELINE_MIBPS_PER_TIB;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.EFS_BURST_MIBPS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.EFS_BURST_MIBPS_PER_TIB;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.EFS_MAX_PROVISIONED_MIBPS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.EFS_USD_PER_GB_MONTH;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.FASTFILE_LISTING_OBJECTS_PER_SECOND;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.FASTFILE_SEQUENTIAL_MBPS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.FILE_MODE_DOWNLOAD_MBPS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.CONTAINER_STARTUP_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.FILE_SYSTEM_MOUNT_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.LUSTRE_FIRST_READ_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.LUSTRE_OBJECTS_INDEXED_PER_HOUR;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.LUSTRE_USD_PER_TB_MONTH;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.PIPE_MBPS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.PIPE_STARTUP_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.RANDOM_READ_BYTES;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.S3_PER_OBJECT_SECONDS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.S3_USD_PER_MILLION_GETS;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.S3_USD_PER_TB_MONTH;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.SMALL_FILE_BYTES;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.WORKER_PROVISIONING_SECONDS;

import java.util.ArrayList;
import java.util.List;

/**
 * The estimate model: start-up time, read ceiling and costs of each {@link DataSourceOption} for a
 * {@link DatasetProfile}, computed only from {@link PublishedFigures}.
 * <ul>
 *   <li>Start-up: File = objects × per-object overhead + bytes at 200 MB/s (capped by the 250 MB/s
 *   EBS volume); FastFile = objects listed at 5,500 per second; Pipe = a small constant; FSx and
 *   EFS = a mount constant. Creating and preloading a Lustre file system happen at deploy time and
 *   are noted, not counted.</li>
 *   <li>Read ceiling: File = the EBS volume (250 MB/s); FastFile = 1000 MB/s for sequential reads,
 *   less when every small file or random read pays a GET; Pipe = 1000 MB/s; FSx = the SCRATCH_2
 *   baseline of the capacity {@link Sizing#lustreCapacityGiB(long)} picks; EFS = the bursting
 *   baseline of the data stored.</li>
 *   <li>Monthly storage: S3 = size × $23/TB; FSx = capacity × $140/TB plus the S3 copy; EFS = size × $0.30/GB.</li>
 *   <li>S3 GETs per job: File and FSx fetch each object once; FastFile and Pipe once per epoch.</li>
 * </ul>
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
     * Estimates one option.
     *
     * @param profile the dataset and job
     * @param option the option to estimate
     * @return its start-up, read ceiling, costs and caveats
     */
    public static OptionEstimate estimate(DatasetProfile profile, DataSourceOption option) {
        List<String> notes = new ArrayList<>();
        if (profile.dataLocation() == DataLocation.EFS && option != DataSourceOption.EFS) {
            notes.add("the data is on EFS: copy it to S3 first");
        }
        return switch (option) {
            case S3_FILE -> fileMode(profile, notes);
            case S3_FAST_FILE -> fastFile(profile, notes);
            case S3_PIPE -> pipe(profile, notes);
            case FSX_LUSTRE -> lustre(profile, notes);
            case EFS -> efs(profile, notes);
        };
    }

    /**
     * File-mode start-up: every object fetched with its own GET, plus the bytes at the File-mode
     * download rate capped by the EBS volume.
     *
     * @param bytes dataset size in bytes
     * @param objects number of S3 objects
     * @return seconds before the script starts
     */
    public static double fileModeStartupSeconds(long bytes, long objects) {
        double copyMBps = Math.min(FILE_MODE_DOWNLOAD_MBPS, EBS_VOLUME_MBPS);
        return objects * S3_PER_OBJECT_SECONDS + megabytes(bytes) / copyMBps;
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
     * Seconds a preload worker needs to warm fileCount files holding totalBytes on a SCRATCH_2 cache of
     * capacityGiB, using {@code readers} concurrent readers on the read path (each first read loads a whole
     * file from S3: latency-bound for small files, bounded by the cache's throughput for large ones),
     * including the worker's start-up (instance + image pull).
     *
     * <p>The model: {@link PublishedFigures#WORKER_PROVISIONING_SECONDS} +
     * {@link PublishedFigures#CONTAINER_STARTUP_SECONDS} + fileCount × {@link PublishedFigures#LUSTRE_FIRST_READ_SECONDS}
     * / readers + totalBytes at the cache's baseline throughput ({@link Sizing#lustreBaselineMBps(int)}).
     * The baseline, not the burst, because a deploy that waits must not time out: a cache with burst credits
     * left finishes sooner.
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

    private static OptionEstimate fileMode(DatasetProfile profile, List<String> notes) {
        notes.add("the instance volume must hold all " + ByteSize.format(profile.totalBytes())
                + "; File mode copies it again after every spot interruption");
        return priced(profile, DataSourceOption.S3_FILE, fileModeStartupSeconds(profile.totalBytes(), profile.fileCount()),
                EBS_VOLUME_MBPS, s3MonthlyUsd(profile.totalBytes()), getsUsd(profile.fileCount()), notes);
    }

    private static OptionEstimate pipe(DatasetProfile profile, List<String> notes) {
        if (!profile.streamable()) {
            notes.add("does not fit: Pipe needs a streamable format (TFRecord, RecordIO, text)");
        }
        if (profile.accessPattern() == AccessPattern.RANDOM) {
            notes.add("does not fit: Pipe cannot seek, so random reads are impossible");
        }
        return priced(profile, DataSourceOption.S3_PIPE, PIPE_STARTUP_SECONDS, PIPE_MBPS,
                s3MonthlyUsd(profile.totalBytes()), getsUsd(profile.fileCount() * (double) profile.epochs()), notes);
    }

    private static OptionEstimate fastFile(DatasetProfile profile, List<String> notes) {
        boolean random = profile.accessPattern() == AccessPattern.RANDOM;
        double bytesPerGet = random ? Math.min(profile.averageFileBytes(), RANDOM_READ_BYTES)
                : profile.averageFileBytes();
        double throughput = Math.min(FASTFILE_SEQUENTIAL_MBPS, megabytes(bytesPerGet) / S3_PER_OBJECT_SECONDS);
        if (profile.averageFileBytes() < SMALL_FILE_BYTES) {
            notes.add("files average " + ByteSize.format(Math.round(profile.averageFileBytes()))
                    + ", under 50 MB: FastFile fetches each with its own GET, so reads are slower");
        }
        if (random) {
            notes.add("random reads: FastFile issues a GET per read, so reads are slower");
        }
        double getsPerEpoch = random ? Math.max(profile.fileCount(), Math.ceil(profile.totalBytes() / (double) RANDOM_READ_BYTES))
                : profile.fileCount();
        return priced(profile, DataSourceOption.S3_FAST_FILE,
                profile.fileCount() / FASTFILE_LISTING_OBJECTS_PER_SECOND, throughput,
                s3MonthlyUsd(profile.totalBytes()), getsUsd(getsPerEpoch * profile.epochs()), notes);
    }

    private static OptionEstimate lustre(DatasetProfile profile, List<String> notes) {
        int capacityGiB = Sizing.lustreCapacityGiB(profile.totalBytes());
        double baseline = Sizing.lustreBaselineMBps(capacityGiB);
        notes.add("SCRATCH_2 " + capacityGiB + " GiB: " + HumanReadable.rate(baseline) + " baseline, bursts to "
                + HumanReadable.rate(Sizing.lustreBurstMBps(capacityGiB)) + "; more capacity reads faster");
        notes.add("deploy-time, not in start-up: " + lustreCreation(profile.fileCount()));
        notes.add("needs a VPC and a training subnet in the file system's Availability Zone");
        double lustreMonthlyUsd = capacityGiB / GB_PER_TB * LUSTRE_USD_PER_TB_MONTH;
        return priced(profile, DataSourceOption.FSX_LUSTRE, FILE_SYSTEM_MOUNT_SECONDS, baseline,
                lustreMonthlyUsd + s3MonthlyUsd(profile.totalBytes()), getsUsd(profile.fileCount()), notes);
    }

    /** What creating a Lustre file system costs in time, for notes and reasons. */
    static String lustreCreation(long objects) {
        return "creating the file system indexes " + HumanReadable.count(objects) + " objects in about "
                + HumanReadable.duration(lustreIndexingSeconds(objects)) + " (" + HumanReadable.count((long) LUSTRE_OBJECTS_INDEXED_PER_HOUR)
                + " per hour); preload it to avoid a cold first epoch";
    }

    private static OptionEstimate efs(DatasetProfile profile, List<String> notes) {
        double tib = profile.totalBytes() / (double) ByteSize.TIB;
        double baselineMBps = mibpsToMBps(tib * EFS_BURSTING_BASELINE_MIBPS_PER_TIB);
        double burstMBps = mibpsToMBps(Math.max(EFS_BURST_MIBPS, tib * EFS_BURST_MIBPS_PER_TIB));
        if (profile.dataLocation() == DataLocation.S3) {
            notes.add("the data is in S3: copy it onto EFS first; EFS fits where tools already write there");
        }
        notes.add("bursting throughput: " + HumanReadable.rate(baselineMBps) + " baseline, bursts to "
                + HumanReadable.rate(burstMBps) + " while credits last; provisioned throughput up to "
                + (int) EFS_MAX_PROVISIONED_MIBPS + " MiB/s costs extra");
        notes.add("needs a VPC and a mount target in the training subnet's Availability Zone");
        double monthlyUsd = profile.totalBytes() / (double) ByteSize.GB * EFS_USD_PER_GB_MONTH;
        return priced(profile, DataSourceOption.EFS, FILE_SYSTEM_MOUNT_SECONDS, baselineMBps, monthlyUsd, 0, notes);
    }

    private static OptionEstimate priced(DatasetProfile profile, DataSourceOption option, double startupSeconds,
            double throughputMBps, double monthlyStorageUsd, double s3RequestUsdPerJob, List<String> notes) {
        double startupCostUsd = startupSeconds * profile.hourlyPriceUsd() * profile.instanceCount() / SECONDS_PER_HOUR;
        return new OptionEstimate(option, startupSeconds, throughputMBps, monthlyStorageUsd, startupCostUsd,
                s3RequestUsdPerJob, notes);
    }

    private static double s3MonthlyUsd(long bytes) {
        return bytes / (double) ByteSize.TB * S3_USD_PER_TB_MONTH;
    }

    private static double getsUsd(double gets) {
        return gets / 1e6 * S3_USD_PER_MILLION_GETS;
    }

    private static double megabytes(double bytes) {
        return bytes / ByteSize.MB;
    }

    private static double mibpsToMBps(double mibps) {
        return mibps * ByteSize.MIB / ByteSize.MB;
    }
}
