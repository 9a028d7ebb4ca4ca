package io.github.trainingdata.cdk.performance;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Every number of the advisor's estimate model, each with its source.
 *
 * <ul>
 *   <li>"Guide" means the SageMaker developer guide and AWS ML blog posts as summarised in the project's
 *   {@code data-sources.md}.</li>
 *   <li>"Case study" means the twelve published end-to-end runs behind AWS's "Choose the best data source for
 *   your Amazon SageMaker training job" (aws-samples/sagemaker-bencher: TensorFlow ResNet-50, one epoch, batch
 *   64, one ml.p3.2xlarge, Caltech-256 as ~1 GB and ~54 GB of JPEG or of TFRecord; {@code data-sources.md},
 *   "Calibration"). The figures marked "fitted" were chosen so that the advisor's {@code EstimateModel} reproduces every one
 *   of those billable times within 8% (within 30% is the test's bar) and picks the published winner of each
 *   of the four scenarios.</li>
 *   <li>"Assumption" means no published figure exists; the Javadoc gives the reasoning.</li>
 * </ul>
 * Prices are us-east-1 and for estimates only.
 *
 * <p>The class is longer than our usual ~300 lines because it is a data table: one documented constant per
 * published figure or assumption, and one row per instance type, kept together so each figure's source sits
 * beside it.
 */
public final class PublishedFigures {

    // ---- The job around the data (fitted to the case study) ---------------------------------

    /**
     * Fitted: 160 s of container start-up (training image pull, framework start) that runs alongside the data
     * start-up, so a job's start-up bills the longer of the two. The 1 GB runs, whose data start-up is 10–22 s
     * (FastFile, FSx, TFRecord File), bill 152–176 s besides their epoch and {@link #JOB_TAIL_SECONDS}; the
     * File-mode runs, whose download is longer, bill no extra start-up at all. SageMaker bills from
     * TrainingStartTime, which includes downloading the data and the container (DescribeTrainingJob API).
     * A preload worker that runs the training image pays it too.
     */
    public static final double CONTAINER_STARTUP_SECONDS = 160.0;

    /**
     * Fitted: 50 s at the end of every job (writing and uploading the model, stopping). The File-mode runs
     * bill 46 s (1 GB JPEG), 57 s (54 GB JPEG) and 49 s (54 GB TFRecord) beyond their download and epoch.
     */
    public static final double JOB_TAIL_SECONDS = 50.0;

    /**
     * Assumption: a data loader keeps about 16 file reads in flight per instance (e.g. 8 workers with 2 files
     * prefetched each, or tf.data's parallel reads). It turns a per-file latency into a per-instance file rate.
     */
    public static final int DATA_LOADER_CONCURRENCY = 16;

    /**
     * Assumption: a random read fetches about 1 MiB, so random reads on FastFile pay the per-file cost every
     * MiB (the guide only says random reads are slower).
     */
    public static final long RANDOM_READ_BYTES = ByteSize.MIB;

    // ---- S3 input modes ---------------------------------------------------------------------

    /**
     * Fitted: 15 s to set up an S3 channel before the first byte or listing (the 1 GB TFRecord runs: File
     * starts in 22 s of which 7 s copy the bytes, FastFile in 16 s for 9 objects).
     */
    public static final double S3_CHANNEL_SETUP_SECONDS = 15.0;

    /**
     * Fitted: File mode copies bytes from S3 to an EBS instance volume at 150 MB/s (case study: 54 GB of
     * TFRecord in 357 s ≈ 158 MB/s, 1 GB in 22 s). The guide's "50 GB in about 5 minutes" is ~170 MB/s.
     */
    public static final double FILE_MODE_DOWNLOAD_MBPS = 150.0;

    /**
     * Assumption: on instances with local NVMe, File mode copies at 1000 MB/s (capped by the network). The
     * guide says NVMe instances "go much higher" than the EBS 250 MB/s without a figure; we take the highest
     * per-instance S3 rate it quotes, FastFile's sequential 1 GB/s.
     */
    public static final double FILE_MODE_NVME_DOWNLOAD_MBPS = 1_000.0;

    /**
     * Fitted: File mode pays 7 ms per S3 object on top of the bytes (case study: 1.53 M JPEGs of ~35 KB
     * download in 10,955 s ≈ 6.9 ms each, 30,607 in 255 s ≈ 7.6 ms each: about 140 objects/s).
     */
    public static final double FILE_MODE_SECONDS_PER_OBJECT = 0.007;

    /** EBS-only instances cap the instance volume at about 250 MB/s (guide). */
    public static final double EBS_VOLUME_MBPS = 250.0;

    /**
     * Assumption: local NVMe reads and writes File-mode copies at 2000 MB/s; the guide says only "much higher"
     * than EBS, and one NVMe drive of the g5/p4d generation reads a few GB/s.
     */
    public static final double NVME_VOLUME_MBPS = 2_000.0;

    /**
     * Fitted: FastFile lists 10,000 objects per second at start-up (case study: 1.53 M objects in 169 s, less
     * {@link #S3_CHANNEL_SETUP_SECONDS}). The guide quotes about 5,500 per second.
     */
    public static final double FASTFILE_LISTING_OBJECTS_PER_SECOND = 10_000.0;

    /**
     * Fitted: FastFile spends 6 ms per file per instance (one GET each, at the data loader's concurrency):
     * the case study's JPEG runs read 166–168 images/s where the GPU takes ~330, on 1 GB and on 54 GB.
     */
    public static final double FASTFILE_SECONDS_PER_FILE = 0.006;

    /**
     * FastFile reads large files sequentially at over 1 GB/s with several workers (guide); we use 1000 MB/s,
     * capped by the instance's network.
     */
    public static final double FASTFILE_SEQUENTIAL_MBPS = 1_000.0;

    /**
     * Assumption: Pipe mode starts streaming in about 10 seconds; the guide says its start-up does not depend
     * on the dataset size (up to 87% faster start measured on 78 GB) but gives no figure.
     */
    public static final double PIPE_STARTUP_SECONDS = 10.0;

    /**
     * Assumption: Pipe mode prefetches at high concurrency (guide) with File mode's machinery, so it streams
     * at FastFile's sequential 1000 MB/s and pays File mode's {@link #FILE_MODE_SECONDS_PER_OBJECT} per object.
     */
    public static final double PIPE_MBPS = FASTFILE_SEQUENTIAL_MBPS;

    // ---- S3 Express One Zone (directory buckets) ---------------------------------------------

    /**
     * S3 Express One Zone serves "consistent single-digit millisecond first-byte read and write request latencies—up to
     * 10x faster than S3 Standard" (S3 guide, "Optimizing S3 Express One Zone performance"); we take the upper bound,
     * 10 ms, so the estimate counts the least gain the guide allows.
     */
    public static final double S3_EXPRESS_FIRST_BYTE_SECONDS = 0.010;

    /**
     * Assumption: a GET's first byte from S3 Standard takes 30 ms. A small S3 GET "takes tens of ms" (aws-rules.md,
     * preload row) and {@link #LUSTRE_FIRST_READ_SECONDS} assumes 40 ms with the file server's part; the lower figure keeps
     * the gain counted for S3 Express small. Only the difference to {@link #S3_EXPRESS_FIRST_BYTE_SECONDS} is used: a
     * directory bucket saves 20 ms per file and reader, 3x and not the guide's "up to 10x".
     */
    public static final double S3_STANDARD_FIRST_BYTE_SECONDS = 0.030;

    /**
     * A directory bucket supports up to 200,000 reads per second by default (up to 2 million on request; S3 guide,
     * "Optimizing S3 Express One Zone performance"). The estimate caps the files all instances read per second at it.
     */
    public static final double S3_EXPRESS_READS_PER_SECOND = 200_000.0;

    /**
     * Assumption: SageMaker lists a directory bucket as fast as a general-purpose one
     * ({@link #FASTFILE_LISTING_OBJECTS_PER_SECOND}); no published figure exists.
     */
    public static final double S3_EXPRESS_LISTING_OBJECTS_PER_SECOND = FASTFILE_LISTING_OBJECTS_PER_SECOND;

    /**
     * Assumption: File mode copies each object of a directory bucket in {@link #FILE_MODE_SECONDS_PER_OBJECT}, as from a
     * general-purpose bucket: File mode's download concurrency, which would turn the first-byte saving into a
     * per-object one, is not published, so none is counted. The fill of a directory bucket from S3 before training is
     * estimated at File mode's rates too (an assumption: the fill's own rate depends on how it is made).
     */
    public static final double S3_EXPRESS_FILE_MODE_SECONDS_PER_OBJECT = FILE_MODE_SECONDS_PER_OBJECT;

    // ---- Training code that reads S3 itself (S3 Connector for PyTorch, Mountpoint) ------------------

    /**
     * Training code that reads S3 with the S3 Connector for PyTorch streams large objects at 920 MB/s per instance: AWS ML
     * blog, "Applying data loading best practices for ML training with Amazon S3 clients" (Dec 2025): over 8,000
     * samples/s from 256 MB tar shards on one g5.8xlarge with 8 workers; at the benchmark's ~115 KB JPEGs that is 920
     * MB/s. The samples are the benchmark's, so the rate is a floor of the client's, not its ceiling; capped by the
     * instance's network. Per object the client pays FastFile's fitted {@link #FASTFILE_SECONDS_PER_FILE} (166 objects/s
     * at {@link #DATA_LOADER_CONCURRENCY}): the same blog's ViT on ~115 KB JPEGs, one object per sample, saturates the
     * GPU at ~138 samples/s with 16 workers, which that does not contradict, and no published per-object figure sets
     * the client apart from FastFile.
     */
    public static final double S3_CLIENT_SHARD_MBPS = 8_000 * 115.0 / 1000;

    // ---- File systems -------------------------------------------------------------------------

    // ---- File systems -------------------------------------------------------------------------

    /**
     * Fitted: mounting FSx for Lustre at job start takes 12 s whatever the dataset size (case study: 10–14 s
     * in all four scenarios). Assumption: EFS mounts as fast (no published figure).
     */
    public static final double FILE_SYSTEM_MOUNT_SECONDS = 12.0;

    /**
     * Assumption: 40 ms before a file lazily loaded from S3 starts to arrive (the request to the file servers and
     * S3's first byte). FSx loads the whole file from S3 on its first read (FSx for Lustre guide, "lazy load"), and
     * a small S3 GET takes tens of milliseconds (aws-rules.md "preload" row; S3's performance guidance quotes
     * 100–200 ms for small objects at its slowest); 40 ms is the middle of deploy-lessons.md's 30–50 ms per file and
     * reader. A cold first epoch pays it at {@link #DATA_LOADER_CONCURRENCY} (400 files/s per instance), which the
     * case study's FSx runs do not contradict: they fed the GPU at 274–328 images/s. The preload estimate pays it
     * per file and reader ({@link PreloadModel}).
     */
    public static final double LUSTRE_FIRST_READ_SECONDS = 0.040;

    /**
     * Field figure: one file lazily loaded from S3 arrives at about 100 MB/s: the first read of a 455 MB file took
     * 4–5 s, its re-read 0.23 s (AWS HPC workshop, data-sources.md "Field reports"). The preload estimate loads each
     * file at this rate after {@link #LUSTRE_FIRST_READ_SECONDS}.
     */
    public static final double LUSTRE_FILE_LOAD_MBPS = 100.0;

    /**
     * Assumption: 1 ms per read of a file already on the Lustre cache (FSx: "sub-millisecond latencies"; we
     * add the open), at {@link #DATA_LOADER_CONCURRENCY}.
     */
    public static final double LUSTRE_WARM_READ_SECONDS = 0.001;

    /**
     * Assumption: 5 ms per small-file open and read on EFS General Purpose (NFS round trips; the guide says
     * General Purpose favours latency without a figure), at {@link #DATA_LOADER_CONCURRENCY}.
     */
    public static final double EFS_FILE_READ_SECONDS = 0.005;

    // ---- FSx for Lustre SCRATCH_2 ----------------------------------------------------------------

    /** SCRATCH_2 baseline throughput: 200 MB/s per TiB of storage capacity (guide). */
    public static final double LUSTRE_BASELINE_MBPS_PER_TIB = 200.0;

    /** SCRATCH_2 burst throughput: 1300 MB/s per TiB of storage capacity (guide). */
    public static final double LUSTRE_BURST_MBPS_PER_TIB = 1_300.0;

    /**
     * SCRATCH_2 loads data from S3 at 100 MB/s per TiB: its disk throughput is 200 MB/s per TiB for reads and 100
     * for writes (network 200), and writes run at "the lower of the network throughput and disk throughput" (FSx
     * for Lustre guide, "Amazon FSx for Lustre performance"). A preload writes every byte it loads.
     */
    public static final double SCRATCH_2_LOAD_MBPS_PER_TIB = 100.0;

    // ---- FSx for Lustre PERSISTENT_2 (SSD) -------------------------------------------------------

    /**
     * What a PERSISTENT_2 file system's reads reach at most, per TiB, by throughput tier (MB/s per TiB of
     * {@code PerUnitStorageThroughput}): the network throughput for reads served from the file servers' memory (FSx for
     * Lustre guide, "Performance characteristics of SSD and HDD storage classes", SSD table: PERSISTENT-125 and -250 burst
     * to 1300; PERSISTENT-500 has a network baseline of 1300 and PERSISTENT-1000 of 2600, without burst). Reads from disk
     * run at the tier itself: "file system performance is determined by the lower of the network throughput and disk
     * throughput", and the disk baseline is the tier (125, 250, 500, 1000; the table's disk burst of 500 for the two
     * lower tiers is not counted, as SCRATCH_2's estimate counts no burst either). The tier is also the rate at which the
     * file system writes what it loads from S3 ({@link CacheThroughput#persistent}).
     */
    public static final SortedMap<Integer, Double> PERSISTENT_2_PEAK_MBPS_PER_TIB = Collections.unmodifiableSortedMap(
            new TreeMap<>(Map.of(125, 1_300.0, 250, 1_300.0, 500, 1_300.0, 1000, 2_600.0)));

    /**
     * FSx for Lustre PERSISTENT_2 SSD storage, USD per TB-month of provisioned capacity in us-east-1, by throughput tier
     * (the throughput is billed with the storage; metadata IOPS in AUTOMATIC mode are assumed included, UNVERIFIED).
     * 125 MB/s per TiB: $145 (a third-party estimator quotes "~$0.145/GB-month (SSD, 125 MB/s/TiB)" and "1.2 TB at 125
     * MB/s/TiB is about $174/month", c3x.dev, 2026). 250: $210, 500: $340, 1000: $600 are estimates: AWS's us-east-1
     * price list as the team recalls it (2026-11-26), not re-checked against the live pricing page (no network). A
     * 2022 ap-northeast-1 table of hourly prices at 1.2 TiB (Classmethod, $0.31, $0.46, $0.77, $1.39) has the same order
     * and ratios within 10% (1 : 1.48 : 2.48 : 4.48 against 1 : 1.45 : 2.34 : 4.14). Billed, like SCRATCH_2, per GB of
     * the capacity in GiB.
     */
    public static final SortedMap<Integer, Double> PERSISTENT_2_USD_PER_TB_MONTH = Collections.unmodifiableSortedMap(
            new TreeMap<>(Map.of(125, 145.0, 250, 210.0, 500, 340.0, 1000, 600.0)));

    /** The PERSISTENT_2 prices above that are estimates rather than published or corroborated figures. */
    public static final Set<Integer> PERSISTENT_2_ESTIMATED_PRICES = Set.of(250, 500, 1000);

    /**
     * The share of a Lustre file system's storage capacity that holds file data, 11/12 (about 92%): the FSx guide's
     * storage-layout example ("File system storage layout") shows two OSTs of 1.1 TiB and a {@code filesystem_summary}
     * of 2.2 TiB, where the capacity steps (1.2 TiB, then 2.4 TiB) make that a 2.4 TiB file system (inferred: the
     * example does not state its capacity). The guide also says a preload can load "only as much actual file data as
     * will fit into the file system's remaining storage space" ("Preloading files into your file system").
     */
    public static final double LUSTRE_USABLE_FRACTION = 1.1 / 1.2;

    /**
     * Assumption: size a Lustre file system 20% above the dataset, for file-system metadata, files added
     * between deploys and the training job's own output if it writes there.
     */
    public static final double LUSTRE_CAPACITY_HEADROOM = 0.20;

    /**
     * Assumption: creating a Lustre file system linked to S3 indexes about 2 million objects per hour. The
     * guide gives no rate; a field report saw over 4 million objects take more than an hour
     * (aws-parallelcluster #4211).
     */
    public static final double LUSTRE_OBJECTS_INDEXED_PER_HOUR = 2_000_000.0;

    // ---- Preloading a Lustre cache (deploy time) ------------------------------------------------

    /**
     * Assumption: a preload worker (a SageMaker training job on ml.m5.xlarge) takes about 3 minutes from
     * CreateTrainingJob until its container starts: SageMaker's "Starting" phase provisions the instance
     * and attaches the VPC interfaces (the SageMaker guide names the phase but gives no duration).
     */
    public static final double WORKER_PROVISIONING_SECONDS = 180.0;

    /**
     * Fitted to the one public timing of {@code lfs hsm_restore} on FSx: 0.14 s per {@code lfs} call per issuer
     * (including the client's process start and its request to the metadata server). aws-parallelcluster issue
     * 6799 (2025): about 345 GB in about 37,000 objects warmed in 5–6 minutes by {@code find | xargs -0
     * --max-args=1 --max-procs=16 sudo lfs hsm_restore} from one c7a.8xlarge, on a 28,800 GiB PERSISTENT_1 file
     * system at 200 MB/s per TiB, which loads 345 GB in 61 s: the requests, not the file servers, took the time,
     * 16 × 330 s / 37,000 = 0.143 s each. Our worker sends up to 50 files per call and runs no {@code sudo}; the
     * same cost per call is assumed, which may be pessimistic. UNVERIFIED whether the cost is per call or per file.
     */
    public static final double HSM_REQUEST_SECONDS = 0.14;

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

    // ---- Managed warm pools -------------------------------------------------------------------

    /**
     * Assumption: the keep-alive the advisor recommends, 5 minutes: long enough to submit the next job, short
     * enough that the last job's idle pool costs little (the retained time is billed).
     */
    public static final double WARM_POOL_KEEP_ALIVE_SECONDS = 300.0;

    /**
     * Assumption: a job on a warm pool starts its container in 30 s instead of {@link #CONTAINER_STARTUP_SECONDS}:
     * the image is already on the retained instance (the guide says only that start-up is faster).
     */
    public static final double WARM_POOL_CONTAINER_STARTUP_SECONDS = 30.0;

    /** Assumption: consecutive jobs start about a minute apart; the warm pool bills that idle time. */
    public static final double WARM_POOL_GAP_SECONDS = 60.0;

    // ---- Deciding ------------------------------------------------------------------------------

    /**
     * Options whose estimated cost is within 5% of the cheapest are ties: the model reproduces the case
     * study within about that much, so closer estimates cannot be told apart.
     */
    public static final double TIE_MARGIN = 0.05;

    // ---- Prices (us-east-1, estimates) -----------------------------------------------------

    /** Hours in a billing month, as AWS prices monthly storage: 730. */
    public static final double HOURS_PER_MONTH = 730.0;

    /** S3 storage: $23 per TB-month (guide: S3 Intelligent-Tiering frequent access). */
    public static final double S3_USD_PER_TB_MONTH = 23.0;

    /** S3 GET requests: $0.4 per million (guide). */
    public static final double S3_USD_PER_MILLION_GETS = 0.4;

    /**
     * S3 Express One Zone storage: $0.11 per GB-month in us-east-1 (S3 FAQs, S3 Express One Zone billing example 1; its
     * example 2 bills 10,995,116,277,760 bytes as 10,240 GB, so a GB is 2^30 bytes). Prices of other Regions were not
     * found; like every price here, it is us-east-1's.
     */
    public static final double S3_EXPRESS_USD_PER_GIB_MONTH = 0.11;

    /** S3 Express One Zone PUT requests: $0.00113 per 1,000 in us-east-1 (S3 FAQs, billing example 1). */
    public static final double S3_EXPRESS_USD_PER_THOUSAND_PUTS = 0.00113;

    /** S3 Express One Zone GET requests: $0.00003 per 1,000 in us-east-1 (S3 FAQs, billing example 1). */
    public static final double S3_EXPRESS_USD_PER_THOUSAND_GETS = 0.00003;

    /**
     * S3 Express One Zone data upload: $0.0032 per GB (2^30 bytes) in us-east-1 (S3 FAQs, billing example 1, which bills
     * every byte of 10 KB requests; the estimate bills every byte too).
     */
    public static final double S3_EXPRESS_UPLOAD_USD_PER_GIB = 0.0032;

    /** S3 Express One Zone data retrieval: $0.0006 per GB (2^30 bytes) in us-east-1, every byte (as the upload). */
    public static final double S3_EXPRESS_RETRIEVAL_USD_PER_GIB = 0.0006;

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
     * Assumption: the network bandwidth of an instance type the table does not know, 10 Gbit/s, and it has an
     * EBS volume rather than NVMe (the slower File-mode case).
     */
    public static final double UNKNOWN_INSTANCE_NETWORK_GBPS = 10.0;

    /**
     * Known training instance types, sorted: on-demand SageMaker training price (USD per instance-hour,
     * us-east-1), network bandwidth and local NVMe.
     *
     * <p>Source and date: prices from AWS's SageMaker AI pricing page (on-demand, Training, US East (N.
     * Virginia)) as compiled by the team on 2026-11-23; ml.p3.2xlarge ($3.825) is also the guide's figure.
     * Not on that sheet and derived from EC2 on-demand prices times the family's SageMaker/EC2 ratio: ml.g6
     * (× 1.4, as ml.g5/g5), ml.trn1.2xlarge and ml.trn1n.32xlarge (× 1.15, as ml.trn1.32xlarge/trn1.32xlarge).
     * The ml.p4d and ml.p5 prices predate AWS's 2025 price reduction for P4 and P5 instances and may be high.
     * None could be re-checked against the live page when compiled (no network): give an hourly price to
     * override. Network bandwidth ("up to" figures at face value) and local NVMe: Amazon EC2 instance type
     * specifications of the same families.
     */
    public static final SortedMap<String, InstanceFacts> INSTANCES = Collections.unmodifiableSortedMap(instances());

    // ---- The guide's thresholds ------------------------------------------------------------

    /**
     * The guide's flowchart sends datasets under 100 GB to File mode. It says "under about 50–100 GB"; we
     * take the upper end. Used to explain a choice and to break exact ties, never to override the estimates.
     */
    public static final long SMALL_DATASET_BYTES = 100 * ByteSize.GB;

    /** Files under 50 MB are small: FastFile is best for files over 50 MB (guide). */
    public static final long SMALL_FILE_BYTES = 50 * ByteSize.MB;

    /** Pack small files into shards of about 150 MB; FastFile is ideally fed files over 150 MB (guide). */
    public static final long IDEAL_SHARD_BYTES = 150 * ByteSize.MB;

    private PublishedFigures() {
    }

    private static TreeMap<String, InstanceFacts> instances() {
        TreeMap<String, InstanceFacts> table = new TreeMap<>();
        table.put("ml.c5.xlarge", new InstanceFacts(0.204, 10, false));
        table.put("ml.m5.xlarge", new InstanceFacts(0.23, 10, false));
        table.put("ml.g4dn.xlarge", new InstanceFacts(0.736, 25, true));
        table.put("ml.g5.xlarge", new InstanceFacts(1.408, 10, true));
        table.put("ml.g5.2xlarge", new InstanceFacts(1.515, 10, true));
        table.put("ml.g5.4xlarge", new InstanceFacts(2.03, 25, true));
        table.put("ml.g5.8xlarge", new InstanceFacts(3.06, 25, true));
        table.put("ml.g5.12xlarge", new InstanceFacts(7.09, 40, true));
        table.put("ml.g5.16xlarge", new InstanceFacts(4.096, 25, true));
        table.put("ml.g5.24xlarge", new InstanceFacts(10.18, 50, true));
        table.put("ml.g5.48xlarge", new InstanceFacts(20.36, 100, true));
        table.put("ml.g6.xlarge", new InstanceFacts(1.127, 10, true));
        table.put("ml.g6.2xlarge", new InstanceFacts(1.369, 10, true));
        table.put("ml.g6.4xlarge", new InstanceFacts(1.852, 25, true));
        table.put("ml.g6.8xlarge", new InstanceFacts(2.82, 25, true));
        table.put("ml.g6.12xlarge", new InstanceFacts(6.442, 40, true));
        table.put("ml.g6.16xlarge", new InstanceFacts(4.756, 25, true));
        table.put("ml.g6.24xlarge", new InstanceFacts(9.345, 50, true));
        table.put("ml.g6.48xlarge", new InstanceFacts(18.691, 100, true));
        table.put(DEFAULT_INSTANCE_TYPE, new InstanceFacts(3.825, 10, false));
        table.put("ml.p3.8xlarge", new InstanceFacts(14.688, 10, false));
        table.put("ml.p3.16xlarge", new InstanceFacts(28.152, 25, false));
        table.put("ml.p4d.24xlarge", new InstanceFacts(37.688, 400, true));
        table.put("ml.p5.48xlarge", new InstanceFacts(113.068, 3_200, true));
        table.put("ml.trn1.2xlarge", new InstanceFacts(1.545, 12.5, true));
        table.put("ml.trn1.32xlarge", new InstanceFacts(24.725, 800, true));
        table.put("ml.trn1n.32xlarge", new InstanceFacts(28.497, 1_600, true));
        return table;
    }
}
