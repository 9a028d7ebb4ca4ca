package io.github.trainingdata.cdk.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertIterableEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class AdvisorTest {

    private static DatasetProfile.Builder dataset(String size, String averageFile) {
        return DatasetProfile.builder().totalBytes(ByteSize.parse(size)).averageFileBytes(ByteSize.parse(averageFile));
    }

    private static Recommendation recommend(DatasetProfile.Builder profile) {
        return Advisor.recommend(profile.build());
    }

    private static void assertReason(Recommendation recommendation, String expected) {
        assertTrue(recommendation.reasons().contains(expected),
                "no reason\n  " + expected + "\nin\n  " + String.join("\n  ", recommendation.reasons()));
    }

    private static boolean anyReasonContains(Recommendation recommendation, String text) {
        return recommendation.reasons().stream().anyMatch(reason -> reason.contains(text));
    }

    @Test
    void smallDatasetInS3UsesFileMode() {
        Recommendation recommendation = recommend(dataset("54GB", "200MB"));
        assertEquals(DataSourceOption.S3_FILE, recommendation.option());
        assertEquals("File", recommendation.inputMode());
        assertReason(recommendation, "dataset 54 GB is under the 100 GB File-mode threshold (the top of the guide's "
                + "50 GB to 100 GB range): File mode copies it to the instance volume once per job (guide step 2)");
        assertReason(recommendation, "at 54 GB it is past the 50 GB lower end of that range: once it grows past 100 GB, "
                + "move to FastFile or FSx for Lustre");
        assertFalse(anyReasonContains(recommendation, "packing"));
    }

    @Test
    void datasetsUnderTheLowerEndGetNoRangeWarning() {
        Recommendation recommendation = recommend(dataset("20GB", "200MB"));
        assertEquals(DataSourceOption.S3_FILE, recommendation.option());
        assertFalse(anyReasonContains(recommendation, "lower end"));
    }

    @Test
    void smallDatasetOfSmallFilesSuggestsPackingIntoShards() {
        Recommendation recommendation = recommend(DatasetProfile.builder().totalBytes(54 * ByteSize.GB)
                .fileCount(1_500_000));
        assertEquals(DataSourceOption.S3_FILE, recommendation.option());
        assertReason(recommendation, "files average 36 KB, under the 50 MB small-file threshold: packing the 1,500,000 "
                + "files into ~150 MB shards (TFRecord, WebDataset, RecordIO) makes about 360 files and cuts File-mode "
                + "start-up from 4.2 h to 4.6 min");
    }

    @Test
    void smallDatasetWithRandomReadsStillUsesTheLocalCopy() {
        Recommendation recommendation = recommend(dataset("30GB", "1GB").accessPattern(AccessPattern.RANDOM));
        assertEquals(DataSourceOption.S3_FILE, recommendation.option());
        assertReason(recommendation, "random reads are served from the local copy on the instance volume");
    }

    @Test
    void theFileModeThresholdIs100GbExclusive() {
        long justUnder = 100 * ByteSize.GB - 1;
        assertEquals(DataSourceOption.S3_FILE, recommend(DatasetProfile.builder().totalBytes(justUnder)
                .averageFileBytes(200 * ByteSize.MB)).option());
        assertEquals(DataSourceOption.S3_FAST_FILE, recommend(dataset("100GB", "200MB")).option());
    }

    @Test
    void largeDatasetOfLargeFilesUsesFastFile() {
        Recommendation recommendation = recommend(dataset("2TB", "200MB"));
        assertEquals(DataSourceOption.S3_FAST_FILE, recommendation.option());
        assertEquals("FastFile", recommendation.inputMode());
        assertReason(recommendation, "dataset 2 TB is over the 100 GB File-mode threshold: copying it before every job "
                + "would take about 2.8 h");
        assertReason(recommendation, "files average 200 MB, over the 50 MB FastFile threshold, read sequentially: "
                + "FastFile lists the 10,000 objects in about 1.8 s and streams sequential reads at over 1,000 MB/s "
                + "(guide step 3)");
        assertFalse(anyReasonContains(recommendation, "ideal"));
    }

    @Test
    void fastFileWithFilesUnderTheIdealShardSizeSuggestsLargerShards() {
        Recommendation recommendation = recommend(dataset("2TB", "80MB"));
        assertEquals(DataSourceOption.S3_FAST_FILE, recommendation.option());
        assertReason(recommendation, "files under the ideal 150 MB: packing them into larger shards makes FastFile "
                + "reads more efficient");
    }

    @Test
    void theSmallFileThresholdIs50MbExclusive() {
        assertEquals(DataSourceOption.S3_FAST_FILE, recommend(dataset("2TB", "50MB")).option());
        assertEquals(DataSourceOption.FSX_LUSTRE, recommend(dataset("2TB", "49999999")).option());
    }

    @Test
    void largeDatasetOfManySmallFilesUsesLustre() {
        Recommendation recommendation = recommend(dataset("2TB", "100KB"));
        assertEquals(DataSourceOption.FSX_LUSTRE, recommendation.option());
        assertEquals("File", recommendation.inputMode());
        assertReason(recommendation, "files average 100 KB, under the 50 MB small-file threshold: FastFile would fetch "
                + "each with its own GET; FSx for Lustre serves many small files with low latency (guide step 4)");
        assertReason(recommendation, "not a streamable format, so Pipe mode does not fit");
        assertReason(recommendation, "creating the file system indexes 20,000,000 objects in about 10 h "
                + "(2,000,000 per hour); preload it to avoid a cold first epoch");
    }

    @Test
    void largeDatasetWithRandomReadsUsesLustreEvenForLargeFiles() {
        Recommendation recommendation = recommend(dataset("2TB", "500MB").accessPattern(AccessPattern.RANDOM));
        assertEquals(DataSourceOption.FSX_LUSTRE, recommendation.option());
        assertReason(recommendation, "random reads: FastFile issues a GET per read and Pipe cannot seek; FSx for Lustre "
                + "serves random reads with low latency (guide step 4)");
        assertFalse(anyReasonContains(recommendation, "small-file threshold"));
    }

    @ParameterizedTest
    @EnumSource(AccessPattern.class)
    void dataAlreadyOnEfsStaysOnEfs(AccessPattern pattern) {
        for (String size : List.of("5GB", "2TB")) {
            for (String averageFile : List.of("100KB", "500MB")) {
                Recommendation recommendation = recommend(dataset(size, averageFile).accessPattern(pattern)
                        .streamable(true).dataLocation(DataLocation.EFS));
                assertEquals(DataSourceOption.EFS, recommendation.option(), size + " of " + averageFile);
                assertEquals("File", recommendation.inputMode());
                assertEquals("the data already lives on EFS: mount it where it is instead of copying it (guide step 1)",
                        recommendation.reasons().get(0));
            }
        }
    }

    @Test
    void pipeOnlyForAStreamableFormatReadSequentiallyInSmallFilesOfALargeDataset() {
        Recommendation pipe = recommend(dataset("2TB", "100KB").streamable(true));
        assertEquals(DataSourceOption.S3_PIPE, pipe.option());
        assertEquals("Pipe", pipe.inputMode());
        assertReason(pipe, "a streamable format read sequentially, and files average 100 KB, under the 50 MB "
                + "small-file threshold: Pipe prefetches the files at high concurrency, starts in about 10 s whatever "
                + "the dataset size and needs no VPC or Lustre capacity (guide step 5)");

        assertEquals(DataSourceOption.FSX_LUSTRE,
                recommend(dataset("2TB", "100KB").streamable(true).accessPattern(AccessPattern.RANDOM)).option());
        assertEquals(DataSourceOption.S3_FAST_FILE, recommend(dataset("2TB", "200MB").streamable(true)).option());
        assertEquals(DataSourceOption.S3_FILE, recommend(dataset("54GB", "100KB").streamable(true)).option());
        assertEquals(DataSourceOption.FSX_LUSTRE, recommend(dataset("2TB", "100KB")).option());
    }

    @Test
    void epochsFavourCopiesOverStreamingFromS3() {
        assertReason(recommend(dataset("54GB", "200MB").epochs(3)), "3 epochs all read the copy loaded once; "
                + "more epochs favour File mode and FSx for Lustre over streaming from S3");
        assertReason(recommend(dataset("2TB", "100KB").epochs(5)), "5 epochs all read the copy loaded once; "
                + "more epochs favour File mode and FSx for Lustre over streaming from S3");
        assertReason(recommend(dataset("2TB", "200MB").epochs(10)), "each of the 10 epochs streams the dataset from "
                + "S3 again ($0.040 of GETs per job); more epochs favour File mode and FSx for Lustre");
        assertReason(recommend(dataset("2TB", "200MB").epochs(10).dataLocation(DataLocation.EFS)),
                "10 epochs all read from EFS, no S3 requests involved");
        assertFalse(anyReasonContains(recommend(dataset("2TB", "200MB")), "epochs"));
    }

    @Test
    void startupIsWeighedAgainstTheTrainingTime() {
        assertReason(recommend(dataset("54GB", "200MB")), "start-up of about 4.5 min is 7.6% of the 1 h of training "
                + "and costs $0.29 on 1 x ml.p3.2xlarge at $3.825/h");
        assertReason(recommend(dataset("54GB", "200MB").trainingTime(Duration.ofHours(10)).instanceCount(4)),
                "start-up of about 4.5 min is 0.8% of the 10 h of training and costs $1.16 on 4 x ml.p3.2xlarge "
                        + "at $3.825/h");
    }

    @Test
    void recommendationCarriesTheEstimateOfEveryOption() {
        DatasetProfile profile = dataset("2TB", "200MB").build();
        Recommendation recommendation = Advisor.recommend(profile);
        assertIterableEquals(EstimateModel.estimateAll(profile), recommendation.estimates());
        for (DataSourceOption option : DataSourceOption.values()) {
            assertSame(option, recommendation.estimateFor(option).option());
        }
    }

    @Test
    void recommendationRejectsIncompleteContents() {
        List<OptionEstimate> estimates = EstimateModel.estimateAll(dataset("2TB", "200MB").build());
        assertEquals("reasons must hold at least one reason, was []", assertThrows(IllegalArgumentException.class,
                () -> new Recommendation(DataSourceOption.S3_FILE, List.of(), estimates)).getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> new Recommendation(DataSourceOption.S3_FILE, List.of("why"), estimates.subList(0, 4)));
        assertTrue(missing.getMessage().startsWith("estimates must hold one estimate per option in the order "
                + "[S3_FILE, S3_FAST_FILE, S3_PIPE, FSX_LUSTRE, EFS], was "), missing.getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new Recommendation(null, List.of("why"), estimates)).getMessage().startsWith("option must be one of"));
    }

    @Test
    void optionsKnowTheirSageMakerInputMode() {
        assertEquals(List.of("File", "FastFile", "Pipe", "File", "File"),
                List.of(DataSourceOption.values()).stream().map(DataSourceOption::inputMode).toList());
    }
}
