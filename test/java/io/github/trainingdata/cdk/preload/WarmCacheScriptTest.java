package io.github.trainingdata.cdk.preload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs warm-cache.sh with /bin/sh against a temporary tree, with and without a stand-in lfs. */
class WarmCacheScriptTest {
    private static final String SYSTEM_PATH = "/usr/bin:/bin";
    private static final int FILE_COUNT = 11;

    @TempDir
    Path dir;

    private Path script;
    private Path root;
    private Path bin;
    private Path lfsState;
    private Set<String> files;
    private long bytes;

    @BeforeEach
    void createTree() throws IOException {
        script = dir.resolve("warm-cache.sh");
        Files.writeString(script, WarmUpScript.load().script());
        root = Files.createDirectories(dir.resolve("cache"));
        bin = Files.createDirectories(dir.resolve("bin"));
        lfsState = Files.createDirectories(dir.resolve("lfs-state"));
        files = new TreeSet<>();
        for (int i = 0; i < FILE_COUNT; i++) {
            Path file = root.resolve(i % 3 == 0 ? "train/shard " + i + ".tar" : "val/deep/dir/part-" + i);
            Files.createDirectories(file.getParent());
            Files.writeString(file, "x".repeat(i * 7));
            files.add(file.toString());
            bytes += i * 7L;
        }
    }

    private void install(String resource, String name) throws IOException {
        try (InputStream in = WarmCacheScriptTest.class.getResourceAsStream(resource)) {
            Files.copy(in, bin.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
        assertTrue(bin.resolve(name).toFile().setExecutable(true));
    }

    private Map<String, String> environment(String... settings) {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("PATH", bin + ":" + SYSTEM_PATH);
        environment.put("PRELOAD_ROOT", root.toString());
        environment.put("PRELOAD_POLL_SECONDS", "0");
        environment.put("FAKE_LFS_STATE", lfsState.toString());
        for (int i = 0; i < settings.length; i += 2) {
            environment.put(settings[i], settings[i + 1]);
        }
        return environment;
    }

    private ShellRun warm(Map<String, String> environment) throws IOException, InterruptedException {
        return ShellRun.run(List.of("/bin/sh", script.toString()), environment, dir);
    }

    private List<Integer> restoreCallSizes() throws IOException {
        return Files.readAllLines(lfsState.resolve("calls")).stream()
                .map(line -> Integer.parseInt(line.substring("hsm_restore ".length()))).toList();
    }

    private Set<String> restoredFiles() throws IOException {
        return new TreeSet<>(Files.readAllLines(lfsState.resolve("restored")));
    }

    private void assertEveryFileWarmed(ShellRun run) {
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.lastLine().matches("preload done: files=" + FILE_COUNT + " bytes=" + bytes + " seconds=\\d+"),
                run.stdout());
    }

    @Test
    void withLfsFilesAreRestoredInBoundedBatchesUntilEveryActionIsNoop() throws Exception {
        install("fake-lfs.sh", "lfs");

        ShellRun run = warm(environment("PRELOAD_BATCH_SIZE", "3", "PRELOAD_PARALLELISM", "2"));

        assertEveryFileWarmed(run);
        assertTrue(run.stdout().startsWith("preload: restoring " + FILE_COUNT + " files"), run.stdout());
        List<Integer> sizes = restoreCallSizes();
        assertTrue(sizes.stream().allMatch(size -> size >= 1 && size <= 3), sizes.toString());
        assertEquals(FILE_COUNT, sizes.stream().mapToInt(Integer::intValue).sum(), "each file restored once");
        assertEquals(files, restoredFiles());
        assertTrue(run.stdout().contains("preload progress: files=0 bytes=0 seconds="),
                "the first poll sees every restore still running: " + run.stdout());
    }

    @Test
    void withLfsAFailedRestoreIsRepeatedForTheFilesThatStayReleased() throws Exception {
        install("fake-lfs.sh", "lfs");

        ShellRun run = warm(environment("PRELOAD_BATCH_SIZE", "4", "PRELOAD_MAX_POLLS", "20",
                "FAKE_LFS_FAIL_FIRST_RESTORE", "1"));

        assertEveryFileWarmed(run);
        assertTrue(run.stderr().contains("some lfs hsm_restore calls failed"), run.stderr());
        List<Integer> sizes = restoreCallSizes();
        assertTrue(sizes.stream().allMatch(size -> size <= 4), sizes.toString());
        assertTrue(sizes.stream().mapToInt(Integer::intValue).sum() > FILE_COUNT, sizes.toString());
        assertEquals(files, restoredFiles());
    }

    @Test
    void withLfsAPollRoundThatDiesIsRepeated() throws Exception {
        install("fake-lfs.sh", "lfs");

        ShellRun run = warm(environment("PRELOAD_BATCH_SIZE", "4", "PRELOAD_PARALLELISM", "1",
                "FAKE_LFS_KILL_FIRST_POLL", "1"));

        assertEveryFileWarmed(run);
        assertTrue(run.stderr().contains("preload: a poll round did not finish; repeating it"), run.stderr());
        assertEquals(files, new TreeSet<>(Files.readAllLines(lfsState.resolve("noop"))),
                "every file was seen done by hsm_action");
    }

    @Test
    void withLfsAFileThatNeverReachesNoopFailsAfterTheLastPoll() throws Exception {
        install("fake-lfs.sh", "lfs");
        String stuck = files.iterator().next();

        ShellRun run = warm(environment("PRELOAD_MAX_POLLS", "3", "FAKE_LFS_STUCK", stuck));

        assertEquals(1, run.exitCode(), run.stdout());
        assertEquals("preload failed: 1 files still have an HSM action or are released after 3 polls, e.g. " + stuck,
                run.stderr().strip().lines().reduce((first, last) -> last).orElseThrow());
        assertEquals(3, run.stdout().lines().filter(line -> line.startsWith("preload progress:")).count(), run.stdout());
        assertTrue(run.stdout().lines().noneMatch(line -> line.startsWith("preload done")), run.stdout());
    }

    @Test
    void withoutLfsEveryFileIsReadOnce() throws Exception {
        ShellRun run = warm(environment("PRELOAD_BATCH_SIZE", "2", "PRELOAD_PARALLELISM", "3"));

        assertEveryFileWarmed(run);
        assertTrue(run.stdout().startsWith("preload: reading the first byte of " + FILE_COUNT + " files"), run.stdout());
        assertEquals("", run.stderr());
    }

    @Test
    void withoutLfsReadsGoThroughHeadInBatches() throws Exception {
        install("failing-head.sh", "head");
        Path log = dir.resolve("head.log");

        ShellRun run = warm(environment("FAKE_HEAD_LOG", log.toString(), "FAKE_UNREADABLE", "/no-such-file",
                "REAL_PATH", SYSTEM_PATH));

        assertEveryFileWarmed(run);
        List<String> read = Files.readAllLines(log);
        assertEquals(new ArrayList<>(files), read.stream().sorted().toList(), "each file read exactly once");
    }

    @Test
    void withoutLfsAnUnreadableFileFailsTheWarmUp() throws Exception {
        install("failing-head.sh", "head");
        Path log = dir.resolve("head.log");
        String unreadable = files.stream().filter(file -> file.endsWith("part-4")).findFirst().orElseThrow();

        ShellRun run = warm(environment("FAKE_HEAD_LOG", log.toString(), "FAKE_UNREADABLE", "part-4",
                "REAL_PATH", SYSTEM_PATH));

        assertEquals(1, run.exitCode(), run.stdout());
        assertTrue(run.stderr().contains("1 files could not be read; trying them once more"), run.stderr());
        assertTrue(run.stderr().endsWith("preload failed: 1 of " + FILE_COUNT + " files could not be read, e.g. "
                + unreadable + "\n"), run.stderr());
        assertEquals(2, Files.readAllLines(log).stream().filter(unreadable::equals).count(), "read, then retried once");
        assertTrue(run.stdout().lines().noneMatch(line -> line.startsWith("preload done")), run.stdout());
    }

    @Test
    void badSettingsAreRejectedClearly() throws Exception {
        ShellRun badBatch = warm(environment("PRELOAD_BATCH_SIZE", "many"));
        assertEquals(1, badBatch.exitCode());
        assertEquals("preload failed: PRELOAD_BATCH_SIZE must be a whole number, got 'many'\n", badBatch.stderr());

        ShellRun zeroParallelism = warm(environment("PRELOAD_PARALLELISM", "0"));
        assertEquals("preload failed: PRELOAD_PARALLELISM must be at least 1, got '0'\n", zeroParallelism.stderr());

        ShellRun missingRoot = warm(environment("PRELOAD_ROOT", dir.resolve("not-mounted").toString()));
        assertEquals(1, missingRoot.exitCode());
        assertEquals("preload failed: PRELOAD_ROOT " + dir.resolve("not-mounted")
                + " is not a directory: is the channel mounted?\n", missingRoot.stderr());
        assertEquals(Set.of(), Files.list(lfsState).map(Path::toString).collect(Collectors.toSet()));
    }
}
