package io.github.trainingdata.cdk.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertIterableEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.performance.ByteSize;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AdvisorCliTest {

    private static final String NL = System.lineSeparator();

    private record Result(int code, String out, String err) {
    }

    private static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = AdvisorCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static void assertUsageError(String message, String... args) {
        Result result = run(args);
        assertEquals(2, result.code(), "exit code for " + List.of(args));
        assertEquals("advise: " + message + NL + AdvisorCli.USAGE + NL, result.err());
        assertEquals("", result.out());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(String... args) {
        Result result = run(args);
        assertEquals(0, result.code(), result.err());
        assertEquals("", result.err());
        assertTrue(result.out().endsWith("}" + NL), result.out());
        return (Map<String, Object>) Json.value(result.out());
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonHasTheDocumentedShapeAndTheModelsNumbers() {
        Map<String, Object> json = json("advise", "--dataset-size", "54GB", "--file-count", "1500000", "--json");
        assertIterableEquals(List.of("recommendation", "options", "lustre", "s3Fallback"), json.keySet());

        Map<String, Object> recommendation = (Map<String, Object>) json.get("recommendation");
        assertIterableEquals(List.of("source", "inputMode", "reasons"), recommendation.keySet());
        assertEquals("FSX_LUSTRE", recommendation.get("source"));
        assertEquals("File", recommendation.get("inputMode"));
        List<Object> reasons = (List<Object>) recommendation.get("reasons");
        // FSx pays its storage ($169.24 a month) also while the preload runs: 813 s with the worker's 128 readers.
        assertTrue(((String) reasons.get(0)).startsWith("estimated for 1 job: FSX_LUSTRE $4.95 (1.1 h billable), "
                + "S3_EXPRESS_DIRECT $10.43 (2.1 h billable), S3_EXPRESS_FAST_FILE $10.43 (2.1 h billable), S3_DIRECT "
                + "$10.45 (2.6 h billable), S3_FAST_FILE $10.45 (2.6 h billable), S3_FILE $16.04 (4 h billable), "
                + "S3_EXPRESS_FILE $18.03 (4 h billable)"), reasons.get(0).toString());
        assertTrue(reasons.stream().anyMatch(reason -> ((String) reason).contains("~150 MB shards")), reasons.toString());

        List<Map<String, Object>> options = (List<Map<String, Object>>) json.get("options");
        assertEquals(List.of("S3_FILE", "S3_FAST_FILE", "S3_PIPE", "FSX_LUSTRE", "EFS", "S3_EXPRESS_FILE",
                "S3_EXPRESS_FAST_FILE", "S3_DIRECT", "S3_EXPRESS_DIRECT"), options.stream().map(option -> option.get("source")).toList());
        for (Map<String, Object> option : options) {
            assertIterableEquals(List.of("source", "startupSeconds", "throughputMBps", "monthlyStorageUsd",
                    "startupCostUsd", "billableSeconds", "costUsd"), option.keySet());
        }
        // File mode: 15 s + 1.5 million objects x 7 ms + 54 GB at 150 MB/s, then the hour of compute and the 50 s tail;
        // cost: that time at $3.825/h, S3 storage for it and 1.5 million GETs.
        double fileSeconds = 15 + 10_500 + 360;
        double fileBillable = fileSeconds + 3600 + 50;
        assertEquals(Map.of("source", "S3_FILE", "startupSeconds", fileSeconds, "throughputMBps", 250.0,
                "monthlyStorageUsd", 1.242, "startupCostUsd", 11.555, "billableSeconds", fileBillable,
                "costUsd", 16.04), options.get(0));
        assertEquals(fileBillable * 3.825 / 3600 + 1.242 / 730 * fileBillable / 3600 + 0.6, (Double) options.get(0)
                .get("costUsd"), 0.0005);
        // FSx: a 12 s mount within the 160 s container start-up, the hour of compute and the tail.
        assertEquals(160 + 3600 + 50.0, options.get(3).get("billableSeconds"));
        assertEquals(12.0, options.get(3).get("startupSeconds"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonHasTheLustreSizingAndTheS3FallbackWithTheExpectedWait() {
        // 2 TB of 66.7 KB files on 4 x ml.p3.2xlarge, 10 minutes of compute per epoch: the instances read
        // 2,000,000 MB / 600 s = 3333 MB/s (their network, 4 x 1250 MB/s, allows it). SCRATCH_2 needs
        // 3333 / 200 x 1024 = 17067 GiB, 19200 GiB ($2,688); PERSISTENT_2 at 500 needs 3333 / 500 x 1024 = 6827 GiB,
        // 7200 GiB: 7.2 x $340 = $2,448, 8.9% less (the cheapest tier).
        Map<String, Object> json = json("advise", "--dataset-size", "2TB", "--file-count", "30000000",
                "--instance-count", "4", "--training-hours", "0.1666666666666667", "--capacity-wait-hours", "0.5",
                "--json");
        Map<String, Object> lustre = (Map<String, Object>) json.get("lustre");
        assertIterableEquals(List.of("deploymentType", "perUnitStorageThroughput", "capacityGiB", "baselineMBps",
                "monthlyUsd", "readMBps", "candidates"), lustre.keySet());
        assertEquals("PERSISTENT_2", lustre.get("deploymentType"));
        assertEquals(500, ((Number) lustre.get("perUnitStorageThroughput")).intValue());
        assertEquals(7200, ((Number) lustre.get("capacityGiB")).intValue());
        assertEquals(2448.0, lustre.get("monthlyUsd"));
        assertEquals(3333.333, lustre.get("readMBps"));
        List<Map<String, Object>> candidates = (List<Map<String, Object>>) lustre.get("candidates");
        assertEquals(5, candidates.size());
        Map<String, Object> scratch = candidates.get(0);
        assertEquals("SCRATCH_2", scratch.get("deploymentType"));
        assertEquals(null, scratch.get("perUnitStorageThroughput"));
        assertEquals(19200, ((Number) scratch.get("capacityGiB")).intValue());
        assertEquals(2688.0, scratch.get("monthlyUsd"));
        assertEquals(false, scratch.get("estimatedPrice"));
        assertEquals(true, candidates.get(3).get("estimatedPrice"));

        Map<String, Object> fallback = (Map<String, Object>) json.get("s3Fallback");
        assertIterableEquals(List.of("inputMode", "startupSeconds", "throughputMBps", "jobSeconds", "cacheJobSeconds",
                "jobUsd", "cacheJobUsd", "breakEvenWaitSeconds", "expectedWaitSeconds", "fallBackSooner"),
                fallback.keySet());
        assertEquals("FastFile", fallback.get("inputMode"));
        assertEquals(1800.0, fallback.get("expectedWaitSeconds"));
        assertEquals(false, fallback.get("fallBackSooner"));
        assertEquals((Double) fallback.get("jobSeconds") - (Double) fallback.get("cacheJobSeconds"),
                (Double) fallback.get("breakEvenWaitSeconds"), 0.002);

        Map<String, Object> unknownWait = (Map<String, Object>) json("advise", "--dataset-size", "54GB",
                "--file-count", "1500000", "--json").get("s3Fallback");
        assertEquals(null, unknownWait.get("expectedWaitSeconds"));
        assertEquals(null, unknownWait.get("fallBackSooner"));
        assertEquals(null, json("advise", "--dataset-size", "500GiB", "--avg-file-size", "300MB", "--data-on", "EFS",
                "--json").get("s3Fallback"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonReflectsEveryFlag() {
        Map<String, Object> json = json("advise", "--dataset-size", "2TB", "--avg-file-size", "100KB", "--access",
                "sequential", "--epochs", "3", "--data-on", "s3", "--streamable", "--instance-type", "ml.g5.xlarge",
                "--instance-count", "2", "--training-hours", "10", "--jobs", "2", "--spot-interruptions", "0", "--json");
        Map<String, Object> recommendation = (Map<String, Object>) json.get("recommendation");
        assertEquals("FSX_LUSTRE", recommendation.get("source"));
        List<Object> reasons = (List<Object>) recommendation.get("reasons");
        assertTrue(((String) reasons.get(0)).startsWith("estimated for 2 jobs: FSX_LUSTRE "), reasons.get(0).toString());
        assertTrue(reasons.stream().anyMatch(reason -> ((String) reason).startsWith("FSX_LUSTRE: 20.1 h billable, ")
                && ((String) reason).contains(" on 2 x ml.g5.xlarge at $1.408/h; ")), reasons.toString());
        Map<String, Object> pipe = ((List<Map<String, Object>>) json.get("options")).get(2);
        assertEquals(10 * 1.408 * 2 / 3600, (Double) pipe.get("startupCostUsd"), 0.0005);

        // Ten jobs: the warm pool's saving is counted only with --warm-pool-quota (the default quota is 0).
        for (boolean quota : List.of(false, true)) {
            List<String> args = new java.util.ArrayList<>(List.of("advise", "--dataset-size", "54GB", "--file-count",
                    "1500000", "--jobs", "10", "--json"));
            if (quota) {
                args.add("--warm-pool-quota");
            }
            List<Object> why = (List<Object>) ((Map<String, Object>) json(args.toArray(String[]::new))
                    .get("recommendation")).get("reasons");
            assertEquals(quota, why.stream().anyMatch(r -> ((String) r).startsWith("10 jobs: a managed warm pool ")),
                    why.toString());
        }

        Map<String, Object> efs = (Map<String, Object>) json("advise", "--dataset-size", "500GiB", "--avg-file-size",
                "300MB", "--access", "RANDOM", "--data-on", "EFS", "--json").get("recommendation");
        assertEquals("EFS", efs.get("source"));
        assertEquals("File", efs.get("inputMode"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void computeSpeedCanBeASampleRate() {
        // The case study's 54 GB of TFRecord: 1.53 M images in 491 files at 327 images/s.
        Map<String, Object> json = json("advise", "--dataset-size", "54GB", "--file-count", "491", "--samples",
                "1530350", "--samples-per-second", "327", "--json");
        assertEquals("S3_FAST_FILE", ((Map<String, Object>) json.get("recommendation")).get("source"));
        Map<String, Object> fastFile = ((List<Map<String, Object>>) json.get("options")).get(1);
        assertEquals(160 + 1_530_350 / 327.0 + 50, (Double) fastFile.get("billableSeconds"), 0.0005);
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonEscapesTextFromTheCommandLine() {
        String type = "ml.\"odd\"\\type\t1";
        Map<String, Object> recommendation = (Map<String, Object>) json("advise", "--dataset-size", "2TB",
                "--avg-file-size", "200MB", "--instance-type", type, "--hourly-price", "2.5", "--json")
                .get("recommendation");
        List<Object> reasons = (List<Object>) recommendation.get("reasons");
        assertTrue(reasons.stream().anyMatch(reason -> ((String) reason).contains(" on 1 x " + type + " at $2.5/h")),
                reasons.toString());
    }

    @Test
    void jsonStringsAndNumbersAreWrittenStrictly() {
        String tricky = "quote \" backslash \\ newline \n return \r tab \t bell \u0007 end";
        assertEquals("\"quote \\\" backslash \\\\ newline \\n return \\r tab \\t bell \\u0007 end\"",
                RecommendationJson.string(tricky));
        assertEquals(tricky, Json.value(RecommendationJson.string(tricky)));
        assertEquals("200.0", RecommendationJson.number(200));
        assertEquals("1.24", RecommendationJson.number(1.24));
        assertEquals("1.235", RecommendationJson.number(1.2345));
        assertEquals("0.0", RecommendationJson.number(0.0004));
        assertEquals("15270.0", RecommendationJson.number(15270.000000001));
        assertEquals("123456789.5", RecommendationJson.number(123456789.5));
    }

    @Test
    void tableComparesEveryOptionAndExplainsTheChoice() {
        Result result = run("advise", "--dataset-size", "54GB", "--avg-file-size", "110MB");
        assertEquals(0, result.code());
        assertEquals("", result.err());
        List<String> lines = List.of(result.out().split(NL));
        assertEquals("dataset: 54 GB in 491 files (average 110 MB), sequential reads, 1 epoch, data on S3; "
                + "1 x ml.p3.2xlarge at $3.825/h, 1 h of compute", lines.get(0));
        assertEquals("", lines.get(1));
        assertEquals("  source                mode        start-up  throughput  billable      cost $   storage $  "
                + "storage $/mo", lines.get(2));
        assertEquals("  S3_FILE               File         6.3 min    250 MB/s     1.1 h       $4.28      $0.002         "
                + "$1.24", lines.get(3));
        assertEquals("* S3_FAST_FILE          FastFile        15 s    948 MB/s     1.1 h       $4.05      $0.002         "
                + "$1.24", lines.get(4));
        assertTrue(lines.get(5).startsWith("- S3_PIPE               Pipe            10 s"), lines.get(5));
        // The preload of 54 GB loads at 117 MB/s (1200 GiB x 100 MB/s per TiB): 461 s + 340 s of worker start.
        assertTrue(lines.get(6).startsWith("  FSX_LUSTRE            File            12 s    234 MB/s     1.1 h       "
                + "$4.35"), lines.get(6));
        assertTrue(lines.get(7).startsWith("- EFS                   File            12 s"), lines.get(7));
        // A directory bucket holds a second copy ($0.11 per GB-month) and is filled at deploy time; File mode gains
        // nothing on it in the estimate, FastFile 20 ms per file and reader.
        assertEquals("  S3_EXPRESS_FILE       File         6.3 min    250 MB/s     1.1 h       $4.48      $0.011         "
                + "$6.77", lines.get(8));
        assertEquals("  S3_EXPRESS_FAST_FILE  FastFile        15 s    959 MB/s     1.1 h       $4.25      $0.011         "
                + "$6.77", lines.get(9));
        // Training code that reads S3 itself: no channel, so no channel set-up; it lists the 491 objects itself.
        assertEquals("  S3_DIRECT             none          0.05 s    876 MB/s     1.1 h       $4.05      $0.002         "
                + "$1.24", lines.get(10));
        assertTrue(lines.get(11).startsWith("  S3_EXPRESS_DIRECT     none          0.05 s"), lines.get(11));
        assertEquals("* recommended, - does not fit; billable time and cost cover the job (instances, storage while they "
                + "run, S3 requests)", lines.get(12));
        assertEquals("recommendation: S3_FAST_FILE (input mode FastFile)", lines.get(14));
        assertTrue(lines.get(15).startsWith("  - estimated for 1 job: S3_FAST_FILE $4.05 (1.1 h billable)"), lines.get(15));
        assertTrue(lines.contains("notes:"), result.out());
        assertTrue(lines.contains("  S3_PIPE: does not fit: Pipe needs a streamable format (TFRecord, RecordIO, text)"),
                result.out());
    }

    @Test
    void aRecommendationWithoutAChannelHasNoInputMode() {
        DatasetProfile profile = DatasetProfile.builder().totalBytes(54 * ByteSize.GB).fileCount(491).build();
        Recommendation direct = Advisor.recommend(profile, EnumSet.of(DataSourceOption.S3_DIRECT));
        assertNull(direct.inputMode());
        String json = RecommendationJson.render(direct);
        assertTrue(json.startsWith("{\"recommendation\": {\"source\": \"S3_DIRECT\", \"inputMode\": null, "), json);
        assertTrue(ComparisonTable.render(profile, direct).contains(NL + "recommendation: S3_DIRECT (no channel: the "
                + "training code reads the store)" + NL), ComparisonTable.render(profile, direct));
    }

    @Test
    void helpPrintsTheUsageOnStdout() {
        for (String[] args : List.of(new String[] {"--help"}, new String[] {"advise", "--dataset-size", "1GB", "-h"})) {
            Result result = run(args);
            assertEquals(0, result.code());
            assertEquals("", result.err());
            assertTrue(result.out().startsWith(AdvisorCli.USAGE + NL), result.out());
            assertTrue(result.out().contains("ml.p3.2xlarge=3.825"), result.out());
            assertTrue(result.out().contains("--training-hours is the compute time of all epochs if reading data took "
                    + "no time"), result.out());
        }
    }

    @Test
    void usageNamesEveryFlag() {
        for (String flag : List.of("--dataset-size", "--file-count", "--avg-file-size", "--access", "--epochs",
                "--data-on", "--streamable", "--instance-type", "--instance-count", "--training-hours",
                "--hourly-price", "--samples-per-second", "--samples", "--jobs", "--spot-interruptions", "--json")) {
            assertTrue(AdvisorCli.USAGE.contains(flag), flag);
        }
    }

    @Test
    void rejectsAMissingOrUnknownSubcommand() {
        assertUsageError("missing subcommand: expected 'advise'");
        assertUsageError("missing subcommand: expected 'advise' before --dataset-size", "--dataset-size", "54GB",
                "--file-count", "3");
        assertUsageError("unknown subcommand 'train': expected 'advise'", "train", "--dataset-size", "54GB");
    }

    @Test
    void rejectsUnknownFlagsAndStrayArguments() {
        assertUsageError("unknown flag --size", "advise", "--size", "54GB");
        assertUsageError("unknown flag -v", "advise", "--dataset-size", "54GB", "--file-count", "3", "-v");
        assertUsageError("unexpected argument '54GB'", "advise", "54GB");
    }

    @Test
    void rejectsMissingAndRepeatedValues() {
        assertUsageError("missing value for --epochs", "advise", "--dataset-size", "54GB", "--file-count", "3",
                "--epochs");
        assertUsageError("missing value for --dataset-size", "advise", "--dataset-size", "--file-count", "3");
        assertUsageError("--epochs is given twice", "advise", "--epochs", "2", "--epochs", "3");
        assertUsageError("--json is given twice", "advise", "--json", "--json");
    }

    @Test
    void requiresTheSizeAndExactlyOneOfFileCountOrAverageSize() {
        assertUsageError("missing --dataset-size: the dataset size, e.g. 54GB", "advise", "--file-count", "3");
        assertUsageError("give exactly one of --file-count or --avg-file-size", "advise", "--dataset-size", "54GB");
        assertUsageError("give exactly one of --file-count or --avg-file-size", "advise", "--dataset-size", "54GB",
                "--file-count", "3", "--avg-file-size", "40MB");
    }

    @Test
    void rejectsBadSizes() {
        assertUsageError("--dataset-size: size '54XB' is not a size: expected a number with an optional unit: B, KB, "
                + "MB, GB, TB, PB (powers of 1000) or KiB, MiB, GiB, TiB, PiB (powers of 1024), e.g. 54GB, 1.5TB, "
                + "800MiB, 123", "advise", "--dataset-size", "54XB", "--file-count", "3");
        assertUsageError("--dataset-size must be at least 1 byte, was '0'", "advise", "--dataset-size", "0",
                "--file-count", "3");
        assertUsageError("--avg-file-size must be at least 1 byte, was '0.1'", "advise", "--dataset-size", "1GB",
                "--avg-file-size", "0.1");
        assertUsageError("averageFileBytes must be between 1 and totalBytes (1000000000), was 2000000000", "advise",
                "--dataset-size", "1GB", "--avg-file-size", "2GB");
    }

    @ParameterizedTest
    @CsvSource({
        "--file-count, abc, a whole number from 1 to 9223372036854775807",
        "--file-count, 0, a whole number from 1 to 9223372036854775807",
        "--epochs, 1.5, a whole number from 1 to 2147483647",
        "--epochs, 3000000000, a whole number from 1 to 2147483647",
        "--instance-count, -1, a whole number from 1 to 2147483647",
        "--training-hours, x, a number greater than 0",
        "--training-hours, -1, a number greater than 0",
        "--training-hours, 0, a number greater than 0",
        "--hourly-price, Infinity, a number greater than 0",
        "--hourly-price, 3d, a number greater than 0",
        "--jobs, 0, a whole number from 1 to 2147483647",
        "--samples-per-second, -3, a number greater than 0",
        "--spot-interruptions, -1, a number of at least 0",
        "--spot-interruptions, lots, a number of at least 0",
        "--capacity-wait-hours, -0.5, a number of at least 0",
        "--access, sideways, sequential or random",
        "--data-on, gcs, s3 or efs",
    })
    void rejectsBadValuesNamingTheFlag(String flag, String value, String allowed) {
        String[] args = flag.equals("--file-count")
                ? new String[] {"advise", "--dataset-size", "54GB", flag, value}
                : new String[] {"advise", "--dataset-size", "54GB", "--file-count", "3", flag, value};
        assertUsageError(flag + " must be " + allowed + ", was '" + value + "'", args);
    }

    @Test
    void rejectsAnInstanceTypeWithoutAKnownPrice() {
        Result result = run("advise", "--dataset-size", "54GB", "--file-count", "3", "--instance-type", "ml.x9.2xlarge");
        assertEquals(2, result.code());
        assertTrue(result.err().startsWith("advise: instanceType 'ml.x9.2xlarge' has no published hourly price: set "
                + "hourlyPriceUsd, or use one of ml.c5.xlarge, "), result.err());
        assertEquals(0, run("advise", "--dataset-size", "54GB", "--file-count", "3", "--instance-type",
                "ml.x9.2xlarge", "--hourly-price", "1.34").code());
    }

    @Test
    void rejectsTwoComputeSpeedsAndSamplesWithoutARate() {
        assertUsageError("give --training-hours or --samples-per-second, not both", "advise", "--dataset-size", "54GB",
                "--file-count", "3", "--training-hours", "2", "--samples-per-second", "300");
        assertUsageError("--samples needs --samples-per-second", "advise", "--dataset-size", "54GB", "--file-count", "3",
                "--samples", "1000");
    }

    @Test
    void theJsonReaderUsedHereRejectsMalformedJson() {
        for (String bad : List.of("{\"a\": 1,}", "{\"a\": 01}", "[1 2]", "{\"a\": \"x}", "{} {}", "{\"a\": 1, \"a\": 2}")) {
            assertThrows(IllegalArgumentException.class, () -> Json.value(bad), bad);
        }
    }
}
