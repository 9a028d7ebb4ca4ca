package io.github.trainingdata.cdk.advisor;

import io.github.trainingdata.cdk.limits.FsxLimits;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Every number of the advisor's estimate model, each with its source. "Guide" means the SageMaker
 * developer guide and AWS ML blog posts as summarised in the project's {@code data-sources.md};
 * prices are us-east-1 and for estimates only. Where no published figure exists the Javadoc says
 * "assumption" and gives the reasoning.
 */
public final class PublishedFigures {

    // ---- S3 input modes -------------------------------------------------------------------

    /** File mode copies large files from S3 to the instance volume at about 200 MB/s (guide: 50 GB ≈ 5 min in 100 MB files). */
    public static final double FILE_MODE_DOWNLOAD_MBPS = 200.0;

    /** EBS-only instances cap the instance volume at about 250 MB/s (guide); NVMe instances go much higher. */
    public static final double EBS_VOLUME_MBPS = 250.0;

    /**
     * Assumption: 10 ms of effective overhead per S3 object fetched with its own GET (File-mode copy,
     * FastFile reads of small files). AWS's S3 performance whitepaper puts the median latency of small
     * GETs in the tens of milliseconds; we assume a few downloads overlap. Cross-check: the guide's
     * "50 GB ≈ 5 min in 100 MB files" leaves room for up to 0.1 s per object on top of 200 MB/s, so
     * this is on the optimistic side, yet a million small files still add almost 3 hours.
     */
    public static final double S3_PER_OBJECT_SECONDS = 0.010;

    /** FastFile start-up lists S3 metadata at about 5,500 objects per second whatever their size (guide). */
    public static final double FASTFILE_LISTING_OBJECTS_PER_SECOND = 5_500.0;

    /** FastFile reads large files sequentially at over 1 GB/s with several workers (guide); we use 1000 MB/s. */
    public static final double FASTFILE_SEQUENTIAL_MBPS = 1_000.0;

    /**
     * Assumption: a random read fetches about 1 MiB per GET, so random reads on FastFile pay the
     * per-object overhead every MiB (the guide only says random reads are slower).
     */
    public static final long RANDOM_READ_BYTES = ByteSize.MIB;

    /**
     * Assumption: Pipe mode starts streaming in about 10 seconds; the guide says its start-up does
     * not depend on dataset size (up to 87% faster start measured on 78 GB) but gives no figure.
     */
    public static final double PIPE_STARTUP_SECONDS = 10.0;

    /**
     * Assumption: Pipe mode prefetches at high concurrency (guide), so it streams even small files at
     * the FastFile sequential rate of 1000 MB/s.
     */
    public static final double PIPE_MBPS = FASTFILE_SEQUENTIAL_MBPS;

    /**
     * Assumption: about 60 seconds to mount an FSx for Lustre or EFS file system at job start. The
     * guide says mounting does not depend on dataset size but gives no figure, and none that tells
     * the two services apart.
     */
    public static final double FILE_SYSTEM_MOUNT_SECONDS = 60.0;

    // ---- FSx for Lustre SCRATCH_2 ---------------------------------------------------------

    /** SCRATCH_2 baseline throughput: 200 MB/s per TiB of storage capacity (guide). */
    public static final double LUSTRE_BASELINE_MBPS_PER_TIB = 200.0;

    /** SCRATCH_2 burst throughput: 1300 MB/s per TiB of storage capacity (guide). */
    public static final double LUSTRE_BURST_MBPS_PER_TIB = 1_300.0;

    /** Smallest SCRATCH_2 storage capacity, 1200 GiB: {@link FsxLimits#SCRATCH_2_MIN_CAPACITY_GIB}. */
    public static final int LUSTRE_MIN_CAPACITY_GIB = FsxLimits.SCRATCH_2_MIN_CAPACITY_GIB;

    /** SCRATCH_2 capacities above the minimum are multiples of 2400 GiB: {@link FsxLimits#SCRATCH_2_CAPACITY_STEP_GIB}. */
    public static final int LUSTRE_CAPACITY_STEP_GIB = FsxLimits.SCRATCH_2_CAPACITY_STEP_GIB;

    /**
     * Assumption: size a Lustre file system 20% above the dataset, for file-system metadata, files
     * added between deploys and the training job's own output if it writes there.
     */
    public static final double LUSTRE_CAPACITY_HEADROOM = 0.20;

    /** Creating a Lustre file system linked to S3 indexes about 2 million objects per hour (guide). */
    public static final double LUSTRE_OBJECTS_INDEXED_PER_HOUR = 2_000_000.0;

    // ---- EFS ------------------------------------------------------------------------------

    /** EFS bursting throughput: 50 MiB/s per TiB stored as the baseline (guide, EFS user guide). */
    public static final double EFS_BURSTING_BASELINE_MIBPS_PER_TIB = 50.0;

    /** EFS bursting file systems burst to at least 100 MiB/s (guide, EFS user guide). */
    public static final double EFS_BURST_MIBPS = 100.0;

    /** EFS bursting file systems over 1 TiB burst to 100 MiB/s per TiB stored (EFS user guide). */
    public static final double EFS_BURST_MIBPS_PER_TIB = 100.0;

    /** Smallest EFS provisioned throughput, 1 MiB/s (EFS API ProvisionedThroughputInMibps). */
    public static final double EFS_MIN_PROVISIONED_MIBPS = 1.0;

    /**
     * Largest EFS provisioned throughput we accept, 3414 MiB/s: the EFS API's upper bound (Region
     * dependent), about the 3 GB/s of reads the guide quotes.
     */
    public static final double EFS_MAX_PROVISIONED_MIBPS = 3_414.0;

    // ---- Prices (us-east-1, estimates) -----------------------------------------------------

    /** S3 storage: $23 per TB-month (guide: S3 Intelligent-Tiering frequent access). */
    public static final double S3_USD_PER_TB_MONTH = 23.0;

    /** S3 GET requests: $0.4 per million (guide). */
    public static final double S3_USD_PER_MILLION_GETS = 0.4;

    /**
     * FSx for Lustre SCRATCH_2 SSD without compression: $140 per TB-month of provisioned capacity,
     * minimum 1.2 TB = $168/month (guide). AWS bills the 1200 GiB minimum as 1.2 TB, so the model
     * bills capacity GiB as GB.
     */
    public static final double LUSTRE_USD_PER_TB_MONTH = 140.0;

    /**
     * EFS Standard storage: $0.30 per GB-month, AWS's published us-east-1 price (the guide gives no
     * EFS price; we chose this one). Throughput beyond bursting is billed extra and not modelled.
     */
    public static final double EFS_USD_PER_GB_MONTH = 0.30;

    /** The instance type the advisor assumes when none is given: the guide's example, ml.p3.2xlarge. */
    public static final String DEFAULT_INSTANCE_TYPE = "ml.p3.2xlarge";

    /**
     * On-demand SageMaker training prices in USD per instance-hour, us-east-1, sorted by type.
     * ml.p3.2xlarge ($3.825) is quoted by the guide; the others are estimates taken from AWS's
     * SageMaker pricing page as we know it and may be out of date: pass an hourly price to override.
     */
    public static final SortedMap<String, Double> INSTANCE_HOURLY_USD = Collections.unmodifiableSortedMap(
            new TreeMap<>(Map.of(
                    "ml.m5.xlarge", 0.23,
                    "ml.c5.xlarge", 0.204,
                    "ml.g4dn.xlarge", 0.736,
                    "ml.g5.xlarge", 1.408,
                    DEFAULT_INSTANCE_TYPE, 3.825,
                    "ml.p3.8xlarge", 14.688,
                    "ml.p3.16xlarge", 28.152,
                    "ml.p4d.24xlarge", 37.688)));

    // ---- The guide's thresholds ------------------------------------------------------------

    /**
     * Datasets under 100 GB use File mode. The guide says "under about 50–100 GB"; we take the upper
     * end because File mode is the simplest option and at 200 MB/s 100 GB copies in about 8 minutes,
     * a small share of a job of an hour or more.
     */
    public static final long SMALL_DATASET_BYTES = 100 * ByteSize.GB;

    /** The lower end of the guide's 50–100 GB small-dataset range, quoted in reasons between the two. */
    public static final long SMALL_DATASET_LOWER_BYTES = 50 * ByteSize.GB;

    /** Files under 50 MB are small: FastFile is best for files over 50 MB (guide). */
    public static final long SMALL_FILE_BYTES = 50 * ByteSize.MB;

    /** Pack small files into shards of about 150 MB; FastFile is ideally fed files over 150 MB (guide). */
    public static final long IDEAL_SHARD_BYTES = 150 * ByteSize.MB;

    private PublishedFigures() {
    }
}
