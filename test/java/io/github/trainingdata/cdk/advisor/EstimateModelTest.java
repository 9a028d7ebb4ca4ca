package io.github.trainingdata.cdk.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertIterableEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EstimateModelTest {

    private static final double DELTA = 1e-9;

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
    void fileModeStartupMatchesTheGuidesExample() {
        // The guide: 50 GB sharded in 100 MB files copies in about 5 minutes.
        double seconds = EstimateModel.fileModeStartupSeconds(50 * ByteSize.GB, 500);
        assertEquals(500 * 0.01 + 250, seconds, DELTA);
        assertTrue(seconds > 4 * 60 && seconds < 6 * 60);
    }

    @Test
    void manySmallFilesStartMarkedlySlowerInFileMode() {
        double sharded = EstimateModel.fileModeStartupSeconds(54 * ByteSize.GB, 360);
        double smallFiles = EstimateModel.fileModeStartupSeconds(54 * ByteSize.GB, 1_500_000);
        assertEquals(15_000 + 270, smallFiles, DELTA);
        assertTrue(smallFiles > 10 * sharded, sharded + " vs " + smallFiles);
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
    void fastFileStartupListsObjectsAt5500PerSecond() {
        assertEquals(1.0, estimate(dataset(ByteSize.TB, 5500), DataSourceOption.S3_FAST_FILE).startupSeconds(), DELTA);
        assertEquals(1_500_000 / 5500.0,
                estimate(dataset(54 * ByteSize.GB, 1_500_000), DataSourceOption.S3_FAST_FILE).startupSeconds(), DELTA);
    }

    @Test
    void pipeAndMountsStartInConstantTimeWhateverTheSize() {
        for (long bytes : new long[] {ByteSize.GB, 78 * ByteSize.GB, 50 * ByteSize.TB}) {
            assertEquals(10, estimate(dataset(bytes, 1000), DataSourceOption.S3_PIPE).startupSeconds(), DELTA);
            assertEquals(60, estimate(dataset(bytes, 1000), DataSourceOption.FSX_LUSTRE).startupSeconds(), DELTA);
            assertEquals(60, estimate(dataset(bytes, 1000), DataSourceOption.EFS).startupSeconds(), DELTA);
        }
    }

    @Test
    void startupCostIsSecondsTimesHourlyPriceTimesInstances() {
        DatasetProfile.Builder profile = dataset(54 * ByteSize.GB, 270).instanceCount(2);
        double seconds = 270 * 0.01 + 270;
        assertEquals(seconds * 3.825 * 2 / 3600, estimate(profile, DataSourceOption.S3_FILE).startupCostUsd(), DELTA);
        assertEquals(seconds * 10.0 * 2 / 3600,
                estimate(profile.hourlyPriceUsd(10), DataSourceOption.S3_FILE).startupCostUsd(), DELTA);
        assertEquals(60 * 10.0 * 2 / 3600, estimate(profile, DataSourceOption.FSX_LUSTRE).startupCostUsd(), DELTA);
    }

    @Test
    void readCeilingsComeFromThePublishedFigures() {
        DatasetProfile.Builder largeFiles = dataset(2 * ByteSize.TB, 10_000);
        assertEquals(250, estimate(largeFiles, DataSourceOption.S3_FILE).throughputMBps(), DELTA);
        assertEquals(1000, estimate(largeFiles, DataSourceOption.S3_FAST_FILE).throughputMBps(), DELTA);
        assertEquals(1000, estimate(largeFiles, DataSourceOption.S3_PIPE).throughputMBps(), DELTA);
        // 2 TB + 20% needs 2400 GiB: 2400 / 1024 TiB x 200 MB/s.
        assertEquals(468.75, estimate(largeFiles, DataSourceOption.FSX_LUSTRE).throughputMBps(), DELTA);
        // 2 TB is 1.819 TiB: 50 MiB/s per TiB, in MB/s.
        assertEquals(2e12 / Math.pow(2, 40) * 50 * 1.048576, estimate(largeFiles, DataSourceOption.EFS).throughputMBps(),
                DELTA);
    }

    @Test
    void fastFileSlowsDownForSmallFilesAndRandomReads() {
        // 1 MB files: one GET of 10 ms per MB.
        assertEquals(100, estimate(dataset(ByteSize.TB, 1_000_000), DataSourceOption.S3_FAST_FILE).throughputMBps(), DELTA);
        // Random reads of 200 MB files: one GET per MiB read.
        assertEquals(104.8576, estimate(dataset(2 * ByteSize.TB, 10_000).accessPattern(AccessPattern.RANDOM),
                DataSourceOption.S3_FAST_FILE).throughputMBps(), DELTA);
        OptionEstimate smallFiles = estimate(dataset(ByteSize.TB, 10_000_000), DataSourceOption.S3_FAST_FILE);
        assertEquals(10, smallFiles.throughputMBps(), DELTA);
        assertEquals(List.of("files average 100 KB, under 50 MB: FastFile fetches each with its own GET, so reads are slower"),
                smallFiles.notes());
    }

    @Test
    void moreLustreCapacityNeverReadsSlower() {
        double smallest = estimate(dataset(ByteSize.GB, 1000), DataSourceOption.FSX_LUSTRE).throughputMBps();
        double previous = smallest;
        for (long bytes = ByteSize.GB; bytes < 500 * ByteSize.TB; bytes *= 2) {
            double throughput = estimate(dataset(bytes, 1000), DataSourceOption.FSX_LUSTRE).throughputMBps();
            assertTrue(throughput >= previous, bytes + " bytes");
            previous = throughput;
        }
        // 1 GB gets the 1200 GiB minimum; the last, 262 TB, gets 295200 GiB: 246 times as much capacity.
        assertEquals(246 * smallest, previous, DELTA);
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
    }

    @ParameterizedTest
    @EnumSource(DataSourceOption.class)
    void biggerDatasetsNeverCostLessStorage(DataSourceOption option) {
        double previous = -1;
        for (long bytes = ByteSize.MB; bytes < 900 * ByteSize.TB; bytes = bytes * 3 / 2) {
            double monthly = estimate(dataset(bytes, 1000), option).monthlyStorageUsd();
            assertTrue(monthly >= previous, option + " at " + bytes + " bytes");
            previous = monthly;
        }
    }

    @Test
    void streamingOptionsPayGetsEveryEpochWhileCopiesPayOnce() {
        DatasetProfile.Builder profile = dataset(ByteSize.TB, 5_000_000).epochs(4);
        assertEquals(2.0, estimate(profile, DataSourceOption.S3_FILE).s3RequestUsdPerJob(), DELTA);
        assertEquals(2.0, estimate(profile, DataSourceOption.FSX_LUSTRE).s3RequestUsdPerJob(), DELTA);
        assertEquals(8.0, estimate(profile, DataSourceOption.S3_FAST_FILE).s3RequestUsdPerJob(), DELTA);
        assertEquals(8.0, estimate(profile, DataSourceOption.S3_PIPE).s3RequestUsdPerJob(), DELTA);
        assertEquals(0.0, estimate(profile, DataSourceOption.EFS).s3RequestUsdPerJob(), DELTA);
    }

    @Test
    void pipeNotesSayWhenItDoesNotFit() {
        DatasetProfile.Builder profile = dataset(ByteSize.TB, 1000);
        assertEquals(List.of("does not fit: Pipe needs a streamable format (TFRecord, RecordIO, text)"),
                estimate(profile, DataSourceOption.S3_PIPE).notes());
        assertEquals(List.of(), estimate(profile.streamable(true), DataSourceOption.S3_PIPE).notes());
        assertEquals(List.of("does not fit: Pipe cannot seek, so random reads are impossible"),
                estimate(profile.accessPattern(AccessPattern.RANDOM), DataSourceOption.S3_PIPE).notes());
    }

    @Test
    void notesSayWhichOptionsNeedACopyOfTheData() {
        DatasetProfile.Builder inS3 = dataset(ByteSize.TB, 1000);
        assertTrue(estimate(inS3, DataSourceOption.EFS).notes()
                .contains("the data is in S3: copy it onto EFS first; EFS fits where tools already write there"));
        DatasetProfile.Builder onEfs = dataset(ByteSize.TB, 1000).dataLocation(DataLocation.EFS);
        for (DataSourceOption option : DataSourceOption.values()) {
            boolean needsCopy = estimate(onEfs, option).notes().contains("the data is on EFS: copy it to S3 first");
            assertEquals(option != DataSourceOption.EFS, needsCopy, option.name());
        }
    }

    @Test
    void lustreNotesGiveCapacityCreationTimeAndNetwork() {
        assertEquals(List.of(
                        "SCRATCH_2 2400 GiB: 469 MB/s baseline, bursts to 3,047 MB/s; more capacity reads faster",
                        "deploy-time, not in start-up: creating the file system indexes 3,000,000 objects in about 1.5 h "
                                + "(2,000,000 per hour); preload it to avoid a cold first epoch",
                        "needs a VPC and a training subnet in the file system's Availability Zone"),
                estimate(dataset(2 * ByteSize.TB, 3_000_000), DataSourceOption.FSX_LUSTRE).notes());
    }

    @Test
    void lustreIndexesTwoMillionObjectsPerHour() {
        assertEquals(3600, EstimateModel.lustreIndexingSeconds(2_000_000), DELTA);
        assertEquals(0, EstimateModel.lustreIndexingSeconds(0), DELTA);
    }

    @Test
    void preloadIsLatencyBoundForSmallFilesAndThroughputBoundForLargeOnes() {
        double workerStart = 180 + 160;
        // 1.5 million small files, 8 readers: 40 ms each per reader, plus 54 GB at the 1200 GiB baseline.
        double smallFiles = EstimateModel.preloadSeconds(1_500_000, 54 * ByteSize.GB, 1200, 8);
        assertEquals(workerStart + 1_500_000 * 0.04 / 8 + 54_000 / 234.375, smallFiles, DELTA);
        // deploy-lessons.md: at 8 readers ~160–270 files/s, 1.5 M files take about 1.5–2.6 h.
        assertTrue(smallFiles > 1.5 * 3600 && smallFiles < 2.6 * 3600, smallFiles + " s");
        // Twice the readers halve the latency-bound part only.
        double sixteen = EstimateModel.preloadSeconds(1_500_000, 54 * ByteSize.GB, 1200, 16);
        assertEquals(1_500_000 * 0.04 / 16, smallFiles - sixteen, DELTA);
        // 2 TB in 1,000 files of 2 GB: the cache's throughput decides, and more capacity loads faster.
        double large2400 = EstimateModel.preloadSeconds(1000, 2 * ByteSize.TB, 2400, 8);
        double large4800 = EstimateModel.preloadSeconds(1000, 2 * ByteSize.TB, 4800, 8);
        assertEquals(workerStart + 5 + 2_000_000 / 468.75, large2400, DELTA);
        assertEquals(2_000_000 / 468.75 / 2, large2400 - large4800, DELTA);
        assertEquals(workerStart, EstimateModel.preloadSeconds(0, 0, 1200, 1), DELTA);
    }

    @Test
    void preloadRejectsImpossibleArguments() {
        assertEquals("fileCount must be at least 0, was -1", assertThrows(IllegalArgumentException.class,
                () -> EstimateModel.preloadSeconds(-1, 0, 1200, 8)).getMessage());
        assertEquals("totalBytes must be at least 0, was -5", assertThrows(IllegalArgumentException.class,
                () -> EstimateModel.preloadSeconds(1, -5, 1200, 8)).getMessage());
        assertEquals("readers must be at least 1, was 0", assertThrows(IllegalArgumentException.class,
                () -> EstimateModel.preloadSeconds(1, 1, 1200, 0)).getMessage());
        assertEquals("capacityGiB must be 1200, 2400 or a multiple of 2400 GiB (SCRATCH_2), was 1800",
                assertThrows(IllegalArgumentException.class,
                        () -> EstimateModel.preloadSeconds(1, 1, 1800, 8)).getMessage());
    }

    @Test
    void estimatesRejectNegativeOrMissingValues() {
        assertEquals("startupCostUsd must be a finite number of at least 0, was -1.0",
                assertThrows(IllegalArgumentException.class,
                        () -> new OptionEstimate(DataSourceOption.EFS, 1, 1, 1, -1, 0, List.of())).getMessage());
        assertEquals("throughputMBps must be a finite number of at least 0, was Infinity",
                assertThrows(IllegalArgumentException.class, () -> new OptionEstimate(DataSourceOption.EFS, 1,
                        Double.POSITIVE_INFINITY, 1, 1, 0, List.of())).getMessage());
        assertEquals("notes must be a list (empty when there is nothing to say), was null",
                assertThrows(IllegalArgumentException.class,
                        () -> new OptionEstimate(DataSourceOption.EFS, 1, 1, 1, 1, 0, null)).getMessage());
    }
}
