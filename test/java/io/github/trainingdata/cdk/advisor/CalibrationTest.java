package io.github.trainingdata.cdk.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.performance.ByteSize;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The estimate model against the twelve published runs of AWS's "Choose the best data source for your Amazon
 * SageMaker training job" case study (aws-samples/sagemaker-bencher; data-sources.md, "Calibration"): TensorFlow
 * ResNet-50, one epoch, batch 64, one ml.p3.2xlarge, Caltech-256 as JPEG or TFRecord, ~1 GB or ~54 GB. Each run is
 * images/s · data start-up s · billable s, the mean of three runs.
 *
 * <p>The compute speed given to the model is what the user would give: the scenario's images per second when
 * data was not the bottleneck (its fastest run). The case study's FSx file systems were linked to S3 and not
 * preloaded, so FSx is estimated cold.
 */
class CalibrationTest {

    private static final double TOLERANCE = 0.30;

    /** One published run: the image rate, the data start-up and the billable seconds. */
    private record Run(double imagesPerSecond, double startupSeconds, double billableSeconds) {
    }

    /** One published scenario: the dataset, its three runs and the winner the case study names. */
    private record Scenario(String name, long bytes, long files, long images, Map<DataSourceOption, Run> runs,
            List<DataSourceOption> winners) {

        /** The profile a user would give: the dataset, and the image rate when data was no bottleneck (its fastest run). */
        DatasetProfile profile() {
            double dataFreeRate = runs.values().stream().mapToDouble(Run::imagesPerSecond).max().orElseThrow();
            return DatasetProfile.builder().totalBytes(bytes).fileCount(files).samples(images)
                    .samplesPerSecond(dataFreeRate).instanceType("ml.p3.2xlarge").build();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static final long GB = ByteSize.GB;
    private static final long IMAGES_X1 = 30_607;

    static Stream<Scenario> scenarios() {
        return Stream.of(
                scenario("JPEG x1 (30,607 files, ~1 GB)", GB, IMAGES_X1, IMAGES_X1,
                        new Run(269, 255, 415), new Run(168, 19, 413), new Run(274, 10, 338),
                        List.of(DataSourceOption.FSX_LUSTRE)),
                scenario("JPEG x50 (1.53 M files, ~54 GB)", 54 * GB, 50 * IMAGES_X1, 50 * IMAGES_X1,
                        new Run(329, 10_955, 15_663), new Run(166, 169, 9_773), new Run(328, 12, 5_118),
                        List.of(DataSourceOption.FSX_LUSTRE)),
                scenario("TFRecord x1 (~1 GB in ~110 MB files)", GB, 9, IMAGES_X1,
                        new Run(271, 22, 328), new Run(271, 16, 315), new Run(270, 14, 323),
                        List.of(DataSourceOption.S3_FILE, DataSourceOption.S3_FAST_FILE)),
                scenario("TFRecord x50 (~54 GB in ~110 MB files)", 54 * GB, 491, 50 * IMAGES_X1,
                        new Run(327, 357, 5_086), new Run(326, 17, 4_907), new Run(326, 12, 4_912),
                        List.of(DataSourceOption.S3_FAST_FILE)));
    }

    private static Scenario scenario(String name, long bytes, long files, long images, Run file, Run fastFile,
            Run lustre, List<DataSourceOption> winners) {
        return new Scenario(name, bytes, files, images, Map.of(DataSourceOption.S3_FILE, file,
                DataSourceOption.S3_FAST_FILE, fastFile, DataSourceOption.FSX_LUSTRE, lustre), winners);
    }

    private static OptionEstimate estimate(DatasetProfile profile, DataSourceOption option) {
        return EstimateModel.estimate(profile, option, false);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void estimatesEachPublishedBillableTimeWithin30Percent(Scenario scenario) {
        DatasetProfile profile = scenario.profile();
        scenario.runs().forEach((option, run) -> {
            double estimated = estimate(profile, option).billableSeconds();
            assertTrue(Math.abs(estimated / run.billableSeconds() - 1) <= TOLERANCE, scenario + ", " + option
                    + ": estimated " + Math.round(estimated) + " s billable, published " + run.billableSeconds() + " s");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void estimatesEachPublishedDataStartupWithin30Percent(Scenario scenario) {
        DatasetProfile profile = scenario.profile();
        scenario.runs().forEach((option, run) -> {
            double estimated = estimate(profile, option).startupSeconds();
            assertTrue(Math.abs(estimated / run.startupSeconds() - 1) <= TOLERANCE, scenario + ", " + option
                    + ": estimated " + Math.round(estimated) + " s of data start-up, published " + run.startupSeconds() + " s");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void picksThePublishedWinner(Scenario scenario) {
        DatasetProfile profile = scenario.profile();
        DataSourceOption fastestPublished = scenario.runs().entrySet().stream()
                .min(Comparator.comparingDouble(e -> e.getValue().billableSeconds())).orElseThrow().getKey();
        assertTrue(scenario.winners().contains(fastestPublished), "the published winner of " + scenario);
        Recommendation recommendation = Advisor.recommend(profile);
        assertTrue(scenario.winners().contains(recommendation.option()), scenario + ": recommended "
                + recommendation.option() + ", the case study picks " + scenario.winners() + "\n  "
                + String.join("\n  ", recommendation.reasons()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void aPreloadedCacheIsNeverSlowerThanACold(Scenario scenario) {
        DatasetProfile profile = scenario.profile();
        assertTrue(EstimateModel.estimate(profile, DataSourceOption.FSX_LUSTRE).billableSeconds()
                <= estimate(profile, DataSourceOption.FSX_LUSTRE).billableSeconds());
        assertEquals(0, estimate(profile, DataSourceOption.FSX_LUSTRE).preloadSeconds());
    }

    /**
     * AWS ML blog, "Applying data loading best practices for ML training with Amazon S3 clients" (Dec 2025), on one
     * g5.8xlarge: a ViT on ~115 KB JPEGs read one object per sample saturates the GPU at ~138 samples/s, and the S3
     * Connector for PyTorch reads over 8,000 samples/s from 256 MB tar shards with 8 workers.
     */
    @Test
    void trainingCodeThatReadsS3ItselfMatchesTheBlogsBenchmark() {
        long jpegs = 100_000;
        long bytes = jpegs * 115 * ByteSize.KB;
        DatasetProfile.Builder vit = DatasetProfile.builder().totalBytes(bytes).fileCount(jpegs).instanceType(
                "ml.g5.8xlarge").samplesPerSecond(138).samples(jpegs);
        // One object per sample: the reads keep up with a GPU that takes 138 samples/s (compute-bound).
        OptionEstimate objects = EstimateModel.estimate(vit.build(), DataSourceOption.S3_DIRECT);
        assertTrue(jpegs / objects.epochReadSeconds() >= 138, objects.epochReadSeconds() + " s per epoch");
        assertEquals(jpegs / 138.0, objects.epochSeconds(), 1e-6);
        // The same samples in 256 MB shards, read as fast as the client goes: "over 8,000" samples/s; the estimate,
        // which also charges each shard's GET, stays within 5% under it.
        long shards = (long) Math.ceil(bytes / (256.0 * ByteSize.MB));
        OptionEstimate sharded = EstimateModel.estimate(vit.fileCount(shards).build(), DataSourceOption.S3_DIRECT);
        double samplesPerSecond = jpegs / sharded.epochReadSeconds();
        assertTrue(samplesPerSecond > 8_000 * 0.95 && samplesPerSecond <= 8_000, samplesPerSecond + " samples/s");
    }
}
