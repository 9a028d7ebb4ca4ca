package io.github.trainingdata.cdk.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertIterableEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.performance.InstanceFacts;
import io.github.trainingdata.cdk.performance.ByteSize;
import io.github.trainingdata.cdk.performance.LustreTier;
import io.github.trainingdata.cdk.performance.PreloadModel;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EstimateModelTest {

    private static final double DELTA = 1e-6;
    /** Container start-up and job tail: what every job bills besides its data start-up and epochs. */
    private static final double CONTAINER = 160;
    private static final double TAIL = 50;

    private static DatasetProfile.Builder dataset(long bytes, long files) {
        return DatasetProfile.builder().totalBytes(bytes).fileCount(files);
    }

    private static OptionEstimate estimate(DatasetProfile.Builder profile, DataSourceOption option) {
        return EstimateModel.estimate(profile.build(), option);
    }

    @Test
    void estimatesEveryOptionInDeclarationOrder() {
        List<OptionEstimate> estimates = EstimateModel.estimateAll(dataset(54 * ByteSize.GB, 1350).build());
        assertIterableEquals(List.of(DataSourceOption.values()), estimates.stream().map(OptionEstimate::option).toList());
    }

    @Test
    void fileModeStartupIsSetUpPerObjectCostAndBytesAtTheDownloadRate() {
        // 15 s set-up, 7 ms per object, 54 GB at 150 MB/s on the EBS volume of an ml.p3.2xlarge.
        assertEquals(15 + 1_500_000 * 0.007 + 360,
                EstimateModel.fileModeStartupSeconds(dataset(54 * ByteSize.GB, 1_500_000).build()), DELTA);
        // With local NVMe the copy runs at 1000 MB/s: ml.g5.xlarge.
        assertEquals(15 + 491 * 0.007 + 54,
                EstimateModel.fileModeStartupSeconds(dataset(54 * ByteSize.GB, 491).instanceType("ml.g5.xlarge").build()),
                DELTA);
        // The guide: 50 GB in 100 MB shards copies in about 5 minutes.
        double guide = EstimateModel.fileModeStartupSeconds(dataset(50 * ByteSize.GB, 500).build());
        assertTrue(guide > 4 * 60 && guide < 7 * 60, guide + " s");
    }

    @Test
    void fileModeDownloadIsCappedByTheVolumeAndTheNetwork() {
        assertEquals(150, EstimateModel.fileModeDownloadMBps(new InstanceFacts(1, 10, false)), DELTA);
        assertEquals(1000, EstimateModel.fileModeDownloadMBps(new InstanceFacts(1, 400, true)), DELTA);
        assertEquals(500, EstimateModel.fileModeDownloadMBps(new InstanceFacts(1, 4, true)), DELTA);
        assertEquals(62.5, EstimateModel.fileModeDownloadMBps(new InstanceFacts(1, 0.5, false)), DELTA);
    }

    @Test
    void moreFilesNeverStartFasterInFileMode() {
        double previous = -1;
        for (long files = 1; files < 100_000_000; files *= 3) {
            double seconds = estimate(dataset(200 * ByteSize.GB, files), DataSourceOption.S3_FILE).startupSeconds();
            assertTrue(seconds > previous, files + " files");
            previous = seconds;
        }
    }

    @Test
    void fastFileStartupListsObjectsAt10000PerSecond() {
        assertEquals(15 + 0.55, estimate(dataset(ByteSize.TB, 5500), DataSourceOption.S3_FAST_FILE).startupSeconds(), DELTA);
        assertEquals(15 + 150, estimate(dataset(54 * ByteSize.GB, 1_500_000), DataSourceOption.S3_FAST_FILE)
                .startupSeconds(), DELTA);
    }

    @Test
    void pipeAndMountsStartInConstantTimeWhateverTheSize() {
        for (long bytes : new long[] {ByteSize.GB, 78 * ByteSize.GB, 50 * ByteSize.TB}) {
            assertEquals(10, estimate(dataset(bytes, 1000), DataSourceOption.S3_PIPE).startupSeconds(), DELTA);
            assertEquals(12, estimate(dataset(bytes, 1000), DataSourceOption.FSX_LUSTRE).startupSeconds(), DELTA);
            assertEquals(12, estimate(dataset(bytes, 1000), DataSourceOption.EFS).startupSeconds(), DELTA);
        }
    }

    @Test
    void aComputeBoundJobBillsTheContainerStartupItsEpochsAndTheTail() {
        // 10 GB in 100 files over 4 epochs of 15 minutes: every option reads far faster than the GPU consumes.
        DatasetProfile.Builder profile = dataset(10 * ByteSize.GB, 100).epochs(4);
        for (DataSourceOption option : List.of(DataSourceOption.S3_FAST_FILE, DataSourceOption.FSX_LUSTRE)) {
            OptionEstimate estimate = estimate(profile, option);
            assertEquals(900, estimate.epochSeconds(), DELTA, option.name());
            assertEquals(CONTAINER + 3600 + TAIL, estimate.billableSeconds(), DELTA, option.name());
            assertEquals(estimate.jobSeconds(), estimate.billableSeconds(), DELTA, option.name());
        }
    }

    @Test
    void aLongDataStartupReplacesTheContainerStartup() {
        OptionEstimate file = estimate(dataset(54 * ByteSize.GB, 1_500_000), DataSourceOption.S3_FILE);
        assertEquals(file.startupSeconds() + 3600 + TAIL, file.billableSeconds(), DELTA);
    }

    @Test
    void epochsAreReadBoundWhenReadingTakesLongerThanTheCompute() {
        // FastFile: 6 ms per 36 KB file and the bytes at 1000 MB/s: 9054 s against 3600 s of compute.
        OptionEstimate fastFile = estimate(dataset(54 * ByteSize.GB, 1_500_000), DataSourceOption.S3_FAST_FILE);
        assertEquals(1_500_000 * 0.006 + 54, fastFile.epochReadSeconds(), DELTA);
        assertEquals(fastFile.epochReadSeconds(), fastFile.epochSeconds(), DELTA);
        assertEquals(54_000 / fastFile.epochReadSeconds(), fastFile.throughputMBps(), DELTA);
        // File mode reads its local copy: at 250 MB/s on EBS, at 2000 MB/s on NVMe.
        DatasetProfile.Builder shortEpochs = dataset(500 * ByteSize.GB, 5000).epochs(10).trainingTime(Duration.ofMinutes(10));
        assertEquals(2000, estimate(shortEpochs, DataSourceOption.S3_FILE).epochSeconds(), DELTA);
        assertEquals(250, estimate(shortEpochs.instanceType("ml.g5.xlarge"), DataSourceOption.S3_FILE).epochSeconds(),
                DELTA);
    }

    @Test
    void fastFileSlowsDownForSmallFilesAndRandomReads() {
        // 1 MB files: 6 ms per GET per MB read.
        assertEquals(1 / (0.006 + 0.001), estimate(dataset(ByteSize.TB, 1_000_000), DataSourceOption.S3_FAST_FILE)
                .throughputMBps(), 1e-6);
        // Random reads of 200 MB files: one GET per MiB read.
        OptionEstimate random = estimate(dataset(2 * ByteSize.TB, 10_000).accessPattern(AccessPattern.RANDOM),
                DataSourceOption.S3_FAST_FILE);
        assertEquals(Math.ceil(2e12 / ByteSize.MIB) * 0.006 + 2000, random.epochReadSeconds(), DELTA);
        assertEquals(List.of("random reads: FastFile issues a GET per read of about 1 MiB"), random.notes());
        assertEquals(List.of("files average 100 KB, under 50 MB: FastFile fetches each with its own GET (6 ms per file, "
                + "case study)"), estimate(dataset(ByteSize.TB, 10_000_000), DataSourceOption.S3_FAST_FILE).notes());
    }

    @Test
    void instancesShareTheEpochAndTheLustreThroughput() {
        // 2 TB per 1 h epoch on 4 instances: each reads a quarter, at a quarter of the cache's baseline.
        DatasetProfile.Builder profile = dataset(2 * ByteSize.TB, 10_000).instanceType("ml.p4d.24xlarge").instanceCount(4);
        OptionEstimate lustre = estimate(profile, DataSourceOption.FSX_LUSTRE);
        double perInstance = EstimateModel.lustreChoice(profile.build()).chosen().baselineMBps() / 4;
        assertEquals(2500 * 0.001 / 16 + 500_000 / perInstance, lustre.epochReadSeconds(), DELTA);
        OptionEstimate fastFile = estimate(profile, DataSourceOption.S3_FAST_FILE);
        assertEquals(2500 * 0.006 + 500, fastFile.epochReadSeconds(), DELTA);
    }

    private static int scratch2Capacity(DatasetProfile profile) {
        return EstimateModel.lustreSizing(profile, LustreTier.scratch2()).capacityGiB();
    }

    @Test
    void lustreCapacityHoldsFeedsAndLoads() {
        // Holds: 3000 GB + 20% needs 4800 GiB.
        assertEquals(4800, scratch2Capacity(dataset(3000 * ByteSize.GB, 30_000_000)
                .trainingTime(Duration.ofDays(10)).build()));
        // Feeds: 2 TB per 10-minute epoch on four instances is 3333 MB/s of baseline...
        assertEquals(19200, scratch2Capacity(dataset(2 * ByteSize.TB, 30_000_000).instanceCount(4)
                .trainingTime(Duration.ofMinutes(10)).build()));
        // ...but never more than the instances' network takes in: one ml.p3.2xlarge, 10 Gbit/s = 1250 MB/s.
        assertEquals(7200, scratch2Capacity(dataset(2 * ByteSize.TB, 30_000_000)
                .trainingTime(Duration.ofMinutes(10)).build()));
        // Loads: 2 TB in 1,000 files leave 3300 - 1.8 (import at 2 M/h) - 340 (worker start) = 2958.2 s of a deploy's
        // wait; the 128 readers need (1,000 x 0.04 + 2,000,000 / 100) / 128 = 156.6 s and the worker's network
        // 2,000,000 / 1250 = 1600 s, so the cache must load 2,000,000 / 2958.2 = 676.1 MB/s: 6.76 TiB at 100 MB/s per
        // TiB, 6923 GiB, 7200 GiB.
        assertEquals(7200, scratch2Capacity(dataset(2 * ByteSize.TB, 1000)
                .trainingTime(Duration.ofDays(10)).build()));
        // 54 GB in 1.5 M files: the import (2700 s) and the worker's start leave 260 s, less than the readers' 473 s,
        // so no capacity loads it within the wait: the holding capacity, the minimum.
        assertEquals(1200, scratch2Capacity(dataset(54 * ByteSize.GB, 1_500_000).build()));
    }

    @Test
    void aPreloadedCacheReadsItsFirstEpochWarmAndReportsThePreloadApart() {
        DatasetProfile profile = dataset(54 * ByteSize.GB, 1_500_000).build();
        OptionEstimate preloaded = EstimateModel.estimate(profile, DataSourceOption.FSX_LUSTRE);
        OptionEstimate cold = EstimateModel.estimate(profile, DataSourceOption.FSX_LUSTRE, false);
        assertEquals(preloaded.epochSeconds(), preloaded.firstEpochSeconds(), DELTA);
        // Cold: 40 ms per first read at 16 reads in flight, plus the bytes at the 234 MB/s baseline.
        assertEquals(1_500_000 * 0.04 / 16 + 54_000 / 234.375, cold.firstEpochSeconds(), DELTA);
        // The default worker's read path: 340 s to start, then (1.5 M x 0.04 + 54,000 / 100) / 128 = 472.97 s.
        assertEquals(340 + 60_540 / 128.0, preloaded.preloadSeconds(), DELTA);
        assertEquals(0, cold.preloadSeconds(), DELTA);
        assertEquals(cold.firstEpochSeconds() - preloaded.firstEpochSeconds(),
                cold.billableSeconds() - preloaded.billableSeconds(), DELTA);
    }

    @Test
    void spotInterruptionsRepeatTheStartupAndFileModeDownloadsAgain() {
        DatasetProfile.Builder profile = dataset(54 * ByteSize.GB, 1_500_000);
        OptionEstimate file = estimate(profile, DataSourceOption.S3_FILE);
        OptionEstimate lustre = estimate(profile, DataSourceOption.FSX_LUSTRE);
        profile.spotInterruptions(2);
        assertEquals(file.billableSeconds() + 2 * file.startupSeconds(),
                estimate(profile, DataSourceOption.S3_FILE).billableSeconds(), DELTA);
        assertEquals(lustre.billableSeconds() + 2 * CONTAINER,
                estimate(profile, DataSourceOption.FSX_LUSTRE).billableSeconds(), DELTA);
        assertEquals(3 * file.requestUsd(), estimate(profile, DataSourceOption.S3_FILE).requestUsd(), DELTA);
    }

    @Test
    void aWarmPoolServesRepeatedOnDemandJobsWhenItPays() {
        DatasetProfile.Builder profile = dataset(54 * ByteSize.GB, 1_500_000).warmPoolQuota(true);
        OptionEstimate one = estimate(profile, DataSourceOption.FSX_LUSTRE);
        profile.jobs(10);
        OptionEstimate ten = estimate(profile, DataSourceOption.FSX_LUSTRE);
        assertTrue(ten.warmPool());
        // Nine later jobs start their container in 30 s instead of 160 s; the pool bills 9 gaps of 60 s and 300 s.
        assertEquals(10 * one.billableSeconds() - 9 * (CONTAINER - 30) + 9 * 60 + 300, ten.billableSeconds(), DELTA);
        assertEquals(one.jobSeconds(), ten.jobSeconds(), DELTA);
        // File mode downloads in every job, longer than the container start-up: nothing to save.
        assertFalse(estimate(profile, DataSourceOption.S3_FILE).warmPool());
        // Two jobs save 130 s but would bill 360 s of retained instances.
        assertFalse(estimate(profile.jobs(2), DataSourceOption.FSX_LUSTRE).warmPool());
        // Warm pools cannot be used with spot instances.
        assertFalse(estimate(profile.jobs(10).spotInterruptions(0.5), DataSourceOption.FSX_LUSTRE).warmPool());
        // Without a warm-pool quota (0 by default) no pool is retained: nothing is saved.
        assertFalse(estimate(profile.spotInterruptions(0).warmPoolQuota(false), DataSourceOption.FSX_LUSTRE).warmPool());
    }

    @Test
    void costIsInstancesTimesPriceTimesBillablePlusStorageForThePeriodAndRequests() {
        DatasetProfile.Builder profile = dataset(54 * ByteSize.GB, 1_500_000).instanceCount(2).hourlyPriceUsd(10);
        OptionEstimate lustre = estimate(profile, DataSourceOption.FSX_LUSTRE);
        assertEquals(2 * 10 * lustre.billableSeconds() / 3600, lustre.instanceUsd(), DELTA);
        double hours = (lustre.billableSeconds() + lustre.preloadSeconds()) / 3600;
        assertEquals(lustre.monthlyStorageUsd() / 730 * hours, lustre.storageUsd(), DELTA);
        assertEquals(1.5 * 0.4, lustre.requestUsd(), DELTA);
        assertEquals(lustre.instanceUsd() + lustre.storageUsd() + lustre.requestUsd(), lustre.costUsd(), DELTA);
        assertEquals(12 * 2 * 10 / 3600.0, lustre.startupCostUsd(), DELTA);
    }

    @Test
    void monthlyStorageFollowsThePublishedPrices() {
        DatasetProfile.Builder profile = dataset(54 * ByteSize.GB, 1350);
        double s3 = 0.054 * 23;
        assertEquals(s3, estimate(profile, DataSourceOption.S3_FILE).monthlyStorageUsd(), DELTA);
        assertEquals(s3, estimate(profile, DataSourceOption.S3_FAST_FILE).monthlyStorageUsd(), DELTA);
        assertEquals(s3, estimate(profile, DataSourceOption.S3_PIPE).monthlyStorageUsd(), DELTA);
        // The 1.2 TB minimum is $168 a month, plus the S3 copy the file system is linked to.
        assertEquals(168 + s3, estimate(profile, DataSourceOption.FSX_LUSTRE).monthlyStorageUsd(), DELTA);
        assertEquals(54 * 0.30, estimate(profile, DataSourceOption.EFS).monthlyStorageUsd(), DELTA);
        double express = s3 + 54 * ByteSize.GB / (double) ByteSize.GIB * 0.11;
        assertEquals(express, estimate(profile, DataSourceOption.S3_EXPRESS_FILE).monthlyStorageUsd(), DELTA);
        assertEquals(express, estimate(profile, DataSourceOption.S3_EXPRESS_FAST_FILE).monthlyStorageUsd(), DELTA);
    }

    @Test
    void aDirectoryBucketSavesTheFirstBytesDifferenceOnEveryFileAndCostsASecondCopy() {
        DatasetProfile.Builder profile = dataset(ByteSize.TB, 1_000_000);
        OptionEstimate fastFile = estimate(profile, DataSourceOption.S3_FAST_FILE);
        OptionEstimate express = estimate(profile, DataSourceOption.S3_EXPRESS_FAST_FILE);
        // FastFile's 6 ms per file less (30 ms - 10 ms) / 16 reads in flight; the bytes at the same 1000 MB/s.
        assertEquals(1_000_000 * (0.006 - 0.020 / 16) + 1000, express.epochReadSeconds(), DELTA);
        assertEquals(1_000_000 * 0.006 + 1000, fastFile.epochReadSeconds(), DELTA);
        assertEquals(fastFile.startupSeconds(), express.startupSeconds(), DELTA);
        // The S3 copy stays; the directory bucket bills $0.11 per GB (2^30 bytes) a month on top.
        double gib = ByteSize.TB / (double) ByteSize.GIB;
        assertEquals(23 + gib * 0.11, express.monthlyStorageUsd(), DELTA);
        // File mode copies a directory bucket at S3's rates: same times, the directory bucket's prices.
        OptionEstimate file = estimate(profile, DataSourceOption.S3_FILE);
        OptionEstimate expressFile = estimate(profile, DataSourceOption.S3_EXPRESS_FILE);
        assertEquals(file.billableSeconds(), expressFile.billableSeconds(), DELTA);
        assertEquals(23 + gib * 0.11, expressFile.monthlyStorageUsd(), DELTA);
    }

    @Test
    void aDirectoryBucketPaysItsFillOnceAndItsRequestsAndRetrievalPerRead() {
        DatasetProfile.Builder profile = dataset(ByteSize.TB, 5_000_000).epochs(4).trainingTime(Duration.ofHours(40));
        double gib = ByteSize.TB / (double) ByteSize.GIB;
        // Filling: 5 M S3 GETs at $0.4 per million, 5 M PUTs at $0.00113 per 1,000, the bytes uploaded at $0.0032/GB.
        double fill = 5 * 0.4 + 5000 * 0.00113 + gib * 0.0032;
        // FastFile: 4 epochs of 5 M GETs at $0.00003 per 1,000, and 4 TB retrieved at $0.0006/GB.
        assertEquals(fill + 4 * 5000 * 0.00003 + 4 * gib * 0.0006,
                estimate(profile, DataSourceOption.S3_EXPRESS_FAST_FILE).requestUsd(), DELTA);
        // File mode: each instance of each job copies it once.
        profile.instanceCount(3).jobs(2);
        assertEquals(fill + 6 * (5000 * 0.00003 + gib * 0.0006),
                estimate(profile, DataSourceOption.S3_EXPRESS_FILE).requestUsd(), DELTA);
        // The fill runs at deploy time at File mode's rates, billed to no job.
        assertEquals(5_000_000 * 0.007 + 1_000_000 / 150.0,
                estimate(profile, DataSourceOption.S3_EXPRESS_FILE).preloadSeconds(), DELTA);
        assertEquals(0, estimate(profile, DataSourceOption.S3_FILE).preloadSeconds(), DELTA);
    }

    @Test
    void aDirectoryBucketCapsTheFilesAllInstancesReadAtItsDefaultReadRate() {
        // 2,000 instances at 4.75 ms per file would read 421,000 files/s; a directory bucket serves 200,000 reads/s.
        DatasetProfile.Builder profile = dataset(100 * ByteSize.TB, 100_000_000).instanceCount(2000)
                .trainingTime(Duration.ofHours(1));
        OptionEstimate express = estimate(profile, DataSourceOption.S3_EXPRESS_FAST_FILE);
        // Each instance reads 50,000 files at 10 ms (2,000 / 200,000 reads/s) and its 50 GB at 1000 MB/s.
        assertEquals(50_000 * 0.010 + 50_000 / 1000.0, express.epochReadSeconds(), DELTA);
        assertTrue(express.notes().stream().anyMatch(note -> note.startsWith("needs a VPC and a training subnet in the "
                + "directory bucket's Availability Zone (by zone ID)")), express.notes().toString());
    }

    @Test
    void trainingCodeThatReadsS3ItselfListsStreamsAtTheBlogsRateAndPaysFastFilesTimePerObject() {
        DatasetProfile.Builder profile = dataset(ByteSize.TB, 1_000_000).instanceType("ml.g5.8xlarge");
        OptionEstimate direct = estimate(profile, DataSourceOption.S3_DIRECT);
        // No channel to set up: the code lists the prefix at 10,000 objects/s before it reads.
        assertEquals(100, direct.startupSeconds(), DELTA);
        // 6 ms per object, then the bytes at the blog's 8,000 samples/s x 115 KB = 920 MB/s.
        assertEquals(1_000_000 * 0.006 + 1_000_000 / 920.0, direct.epochReadSeconds(), DELTA);
        assertEquals(estimate(profile, DataSourceOption.S3_FAST_FILE).requestUsd(), direct.requestUsd(), DELTA);
        assertEquals(estimate(profile, DataSourceOption.S3_FAST_FILE).monthlyStorageUsd(), direct.monthlyStorageUsd(),
                DELTA);
        assertTrue(direct.notes().contains("needs training code that reads the store itself (S3 Connector for PyTorch, "
                + "Mountpoint for Amazon S3) from the location the job is given; no SageMaker channel"), direct.notes()
                        .toString());
        // On a directory bucket: its time per object, prices and fill, as its FastFile option has.
        OptionEstimate express = estimate(profile, DataSourceOption.S3_EXPRESS_DIRECT);
        assertEquals(1_000_000 * (0.006 - 0.020 / 16) + 1_000_000 / 920.0, express.epochReadSeconds(), DELTA);
        assertEquals(estimate(profile, DataSourceOption.S3_EXPRESS_FAST_FILE).requestUsd(), express.requestUsd(), DELTA);
        assertEquals(estimate(profile, DataSourceOption.S3_EXPRESS_FAST_FILE).preloadSeconds(), express.preloadSeconds(),
                DELTA);
    }

    @ParameterizedTest
    @EnumSource(DataSourceOption.class)
    void biggerDatasetsNeverCostLessStorage(DataSourceOption option) {
        double previous = -1;
        for (long bytes = ByteSize.MB; bytes < 900 * ByteSize.TB; bytes = bytes * 3 / 2) {
            double monthly = estimate(dataset(bytes, 1000).trainingTime(Duration.ofDays(20)), option).monthlyStorageUsd();
            assertTrue(monthly >= previous, option + " at " + bytes + " bytes");
            previous = monthly;
        }
    }

    @Test
    void streamingOptionsPayGetsEveryEpochWhileCopiesPayOnce() {
        DatasetProfile.Builder profile = dataset(ByteSize.TB, 5_000_000).epochs(4).trainingTime(Duration.ofHours(40));
        assertEquals(2.0, estimate(profile, DataSourceOption.S3_FILE).requestUsd(), DELTA);
        assertEquals(2.0, estimate(profile, DataSourceOption.FSX_LUSTRE).requestUsd(), DELTA);
        assertEquals(8.0, estimate(profile, DataSourceOption.S3_FAST_FILE).requestUsd(), DELTA);
        assertEquals(8.0, estimate(profile, DataSourceOption.S3_PIPE).requestUsd(), DELTA);
        assertEquals(0.0, estimate(profile, DataSourceOption.EFS).requestUsd(), DELTA);
        // Every File-mode instance downloads the whole prefix; a FSx cache loads it once for all jobs.
        profile.instanceCount(3).jobs(2);
        assertEquals(12.0, estimate(profile, DataSourceOption.S3_FILE).requestUsd(), DELTA);
        assertEquals(2.0, estimate(profile, DataSourceOption.FSX_LUSTRE).requestUsd(), DELTA);
    }

    @Test
    void optionsSayWhenTheyDoNotFit() {
        DatasetProfile.Builder profile = dataset(ByteSize.TB, 1000);
        OptionEstimate pipe = estimate(profile, DataSourceOption.S3_PIPE);
        assertFalse(pipe.fits());
        assertEquals(List.of("does not fit: Pipe needs a streamable format (TFRecord, RecordIO, text)"), pipe.notes());
        assertTrue(estimate(profile.streamable(true), DataSourceOption.S3_PIPE).fits());
        OptionEstimate randomPipe = estimate(profile.accessPattern(AccessPattern.RANDOM), DataSourceOption.S3_PIPE);
        assertFalse(randomPipe.fits());
        assertEquals(List.of("does not fit: Pipe cannot seek, so random reads are impossible"), randomPipe.notes());
    }

    @Test
    void dataInS3FitsEverythingButEfsAndDataOnEfsOnlyEfs() {
        DatasetProfile.Builder inS3 = dataset(ByteSize.TB, 1000).streamable(true);
        DatasetProfile.Builder onEfs = dataset(ByteSize.TB, 1000).streamable(true).dataLocation(DataLocation.EFS);
        for (DataSourceOption option : DataSourceOption.values()) {
            boolean efs = option == DataSourceOption.EFS;
            assertEquals(!efs, estimate(inS3, option).fits(), option.name());
            assertEquals(efs, estimate(onEfs, option).fits(), option.name());
            assertEquals(!efs, estimate(onEfs, option).notes().contains("does not fit: the data is on EFS; copy it to S3 first"),
                    option.name());
        }
        assertTrue(estimate(inS3, DataSourceOption.EFS).notes()
                .contains("does not fit: the data is in S3; EFS fits where tools already write the data there"));
    }

    @Test
    void lustreNotesGiveCapacityPreloadCreationAndNetwork() {
        List<String> notes = estimate(dataset(2 * ByteSize.TB, 3_000_000).trainingTime(Duration.ofHours(20)),
                DataSourceOption.FSX_LUSTRE).notes();
        assertEquals("SCRATCH_2 2400 GiB: 469 MB/s baseline, bursts to 3,047 MB/s; sized to hold the data, feed 28 MB/s "
                + "of training reads and load the bytes within a deploy's wait", notes.get(0));
        // 2 TB on 2400 GiB (234.375 MB/s of loading): 8533 s of bytes on both paths, + 340 s of start = 2.5 h; the
        // lfs path adds 35.7 s of verifying polls (10 s + 2 x 11,719 calls x 0.14 / 128) and still reads 2.5 h.
        assertTrue(notes.get(1).startsWith("deploy-time, not billed to the job: preloading 3,000,000 files takes about "
                + "2.5 h on the worker's read path (128 readers, 40 ms per first read), 2.5 h with lfs in its image; "
                + "without it the first epoch reads cold in about "), notes.get(1));
        assertEquals("deploy-time: creating the file system indexes 3,000,000 objects in about 1.5 h (assumed 2,000,000 "
                + "per hour)", notes.get(2));
        assertEquals("needs a VPC and a training subnet in the file system's Availability Zone", notes.get(3));
    }

    @Test
    void lustreIndexesTwoMillionObjectsPerHour() {
        assertEquals(3600, PreloadModel.lustreIndexingSeconds(2_000_000), DELTA);
        assertEquals(0, PreloadModel.lustreIndexingSeconds(0), DELTA);
    }

    @Test
    void estimatesRejectNegativeOrMissingValues() {
        assertEquals("instanceUsd must be a finite number of at least 0, was -1.0",
                assertThrows(IllegalArgumentException.class, () -> new OptionEstimate(DataSourceOption.EFS, true, 1, 1, 1,
                        1, 1, 1, 1, false, 0, 1, 1, -1, 0, 0, List.of())).getMessage());
        assertEquals("throughputMBps must be a finite number of at least 0, was Infinity",
                assertThrows(IllegalArgumentException.class, () -> new OptionEstimate(DataSourceOption.EFS, true, 1,
                        Double.POSITIVE_INFINITY, 1, 1, 1, 1, 1, false, 0, 1, 1, 1, 0, 0, List.of())).getMessage());
        assertEquals("notes must be a list (empty when there is nothing to say), was null",
                assertThrows(IllegalArgumentException.class, () -> new OptionEstimate(DataSourceOption.EFS, true, 1, 1, 1,
                        1, 1, 1, 1, false, 0, 1, 1, 1, 0, 0, null)).getMessage());
        assertEquals("instanceUsd must be a finite number of at least 0, was NaN",
                assertThrows(IllegalArgumentException.class, () -> new OptionEstimate(DataSourceOption.EFS, true, 1, 1, 1,
                        1, 1, 1, 1, false, 0, 1, 1, Double.NaN, 0, 0, List.of())).getMessage());
    }
}
