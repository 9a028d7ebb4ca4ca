package io.github.trainingdata.cdk.preload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.performance.PreloadDefaults;
import io.github.trainingdata.cdk.preload.handler.PreloadMetrics;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WarmUpScriptTest {
    private final WarmUpScript warmUp = WarmUpScript.load();

    @TempDir
    Path dir;

    @Test
    void theEntrypointRebuildsTheScriptByteForByteAndRunsIt() throws Exception {
        Path data = Files.createDirectories(dir.resolve("cache/images"));
        Files.writeString(data.resolve("a.jpg"), "abc");
        Files.writeString(data.resolve("b c.jpg"), "defgh");
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Map<String, String> environment = new LinkedHashMap<>(warmUp.environment());
        environment.put("PATH", "/usr/bin:/bin");
        environment.put("TMPDIR", tmp.toString());
        environment.put(WarmUpScript.ROOT_VARIABLE, dir.resolve("cache").toString());

        ShellRun run = ShellRun.run(warmUp.containerEntrypoint(), environment, dir);

        assertEquals(0, run.exitCode(), run.stderr());
        byte[] rebuilt = Files.readAllBytes(tmp.resolve("warm-cache.sh"));
        try (InputStream in = WarmUpScript.class.getResourceAsStream("warm-cache.sh")) {
            assertArrayEquals(WarmUpScript.withDefaults(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                    .getBytes(StandardCharsets.UTF_8), rebuilt);
        }
        assertEquals(warmUp.script(), new String(rebuilt, StandardCharsets.UTF_8));
        assertTrue(run.lastLine().matches("preload done: files=2 bytes=8 seconds=\\d+"), run.stdout());
        assertEquals(List.of("2", "8"), metricValues(run.lastLine()).subList(0, 2));
        String first = run.stdout().lines().findFirst().orElseThrow();
        assertEquals("preload locations: warmed=1", first, "one channel directory under the root");
        Matcher locations = Pattern.compile(WarmUpScript.metricDefinitions().get(PreloadMetrics.LOCATIONS)).matcher(first);
        assertTrue(locations.find());
        assertEquals("1", locations.group(1));
    }

    /** The values of the files, bytes and seconds metrics in a progress or done line. */
    private static List<String> metricValues(String line) {
        List<String> values = new ArrayList<>();
        for (String regex : List.of(WarmUpScript.FILES_REGEX, WarmUpScript.BYTES_REGEX, WarmUpScript.SECONDS_REGEX)) {
            Matcher matcher = Pattern.compile(regex).matcher(line);
            assertTrue(matcher.find(), regex + " in " + line);
            values.add(matcher.group(1));
        }
        return values;
    }

    @Test
    void thePiecesFitSageMakersLimits() {
        assertTrue(warmUp.containerEntrypoint().stream().allMatch(s -> s.length() <= 256), warmUp.containerEntrypoint().toString());
        List<String> names = new ArrayList<>(warmUp.environment().keySet());
        assertTrue(names.size() >= 2 && names.size() <= WarmUpScript.MAX_SCRIPT_VARIABLES, names.toString());
        for (int i = 0; i < names.size(); i++) {
            assertEquals("PRELOAD_SCRIPT_" + (10 + i), names.get(i));
        }
        assertTrue(warmUp.environment().values().stream().allMatch(v -> v.length() <= 512));
    }

    @Test
    void linesArePackedWholeUpToTheValueLimit() {
        String line511 = "#" + "x".repeat(510);
        String script = "a\n\n" + line511 + "\n" + "y".repeat(512) + "\nb\n";

        Map<String, String> environment = new WarmUpScript(script).environment();

        assertEquals(List.of("a\n", line511, "y".repeat(512), "b"), List.copyOf(environment.values()));
        StringBuilder printed = new StringBuilder();
        environment.values().forEach(value -> printed.append(value).append('\n'));
        assertEquals(script, printed.toString());
    }

    @Test
    void aScriptThatCannotFitIsRejected() {
        String line = "x".repeat(300) + "\n";
        IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class,
                () -> new WarmUpScript(line.repeat(91)));
        assertEquals("The warm-up script (27391 characters) needs 91 Environment entries of at most 512 characters;"
                + " at most 90 fit beside the worker's settings in SageMaker's 100", tooBig.getMessage());
        assertEquals(90, new WarmUpScript(line.repeat(90)).environment().size());

        assertEquals("Line 2 of the warm-up script has 513 characters; an Environment value holds at most 512",
                assertThrows(IllegalArgumentException.class,
                        () -> new WarmUpScript("a\n" + "x".repeat(513) + "\n")).getMessage());
        assertEquals("The warm-up script must end with a newline",
                assertThrows(IllegalArgumentException.class, () -> new WarmUpScript("echo hi")).getMessage());
    }

    @Test
    void theMetricDefinitionsReadTheScriptsFinalLine() {
        Map<String, String> definitions = WarmUpScript.metricDefinitions();
        assertEquals(List.of(PreloadMetrics.FILES, PreloadMetrics.BYTES, PreloadMetrics.SECONDS,
                PreloadMetrics.LOCATIONS), List.copyOf(definitions.keySet()));

        assertEquals(List.of("1200", "53687091200", "731"),
                metricValues("preload progress: files=1200 bytes=53687091200 seconds=731"));
        assertTrue(definitions.values().stream().noneMatch(regex -> Pattern.compile(regex).matcher(
                "preload: reading the first byte of 3 files (13 bytes) under /data, batches of 256, 8 at a time").find()));
    }

    @Test
    void theScriptReadsTheDocumentedVariables() {
        for (String variable : List.of(WarmUpScript.ROOT_VARIABLE, WarmUpScript.PARALLELISM_VARIABLE,
                WarmUpScript.BATCH_SIZE_VARIABLE, WarmUpScript.POLL_SECONDS_VARIABLE, WarmUpScript.MAX_POLLS_VARIABLE)) {
            assertTrue(warmUp.script().contains("${" + variable + ":-"), variable);
        }
    }

    @Test
    void theScriptsDefaultsAreFilledInFromPreloadDefaults() {
        String script = warmUp.script();
        assertTrue(script.contains("\npar=${PRELOAD_PARALLELISM:-" + PreloadDefaults.DEFAULT_PARALLELISM + "}\n"));
        assertTrue(script.contains("\nbatch=${PRELOAD_BATCH_SIZE:-" + PreloadDefaults.DEFAULT_BATCH_SIZE + "}\n"));
        assertTrue(script.contains("\npoll=${PRELOAD_POLL_SECONDS:-" + PreloadDefaults.DEFAULT_POLL_SECONDS + "}\n"));
        assertTrue(script.contains("\nmax_polls=${PRELOAD_MAX_POLLS:-" + PreloadDefaults.DEFAULT_MAX_POLLS + "}\n"));
        assertTrue(script.contains("\nrestore_batch=" + PreloadDefaults.MAX_RESTORE_BATCH + "\n"));
        assertFalse(Pattern.compile("@[A-Z][A-Z_]*@").matcher(script).find(), "no placeholder is left");
        assertTrue(PreloadDefaults.DEFAULT_PARALLELISM <= PreloadDefaults.MAX_PARALLELISM);
    }

    @Test
    void aPlaceholderThatNamesNoDefaultIsRefused() {
        assertEquals("echo 128 256\n", WarmUpScript.withDefaults("echo @DEFAULT_PARALLELISM@ @DEFAULT_BATCH_SIZE@\n"));
        assertEquals("The warm-up script names @DEFAULT_READERS@, which is none of [DEFAULT_PARALLELISM, "
                + "DEFAULT_BATCH_SIZE, DEFAULT_POLL_SECONDS, DEFAULT_MAX_POLLS, MAX_RESTORE_BATCH]",
                assertThrows(IllegalStateException.class, () -> WarmUpScript.withDefaults("echo @DEFAULT_READERS@\n"))
                        .getMessage());
    }
}
