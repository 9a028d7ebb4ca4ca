package io.github.trainingdata.cdk.preload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.performance.PreloadDefaults;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs warm-cache.sh with /bin/sh against generated trees, with a stand-in lfs (fake-lfs.sh) and without
 * lfs (through a logging stand-in head, failing-head.sh, where a test needs to see the reads).
 */
class WarmCacheScriptTest {
    private static final String SYSTEM_PATH = "/usr/bin:/bin";

    @TempDir
    Path dir;

    private Path script;
    private Path root;
    private Path bin;
    private Path lfsState;
    private Path headLog;
    private Path headCalls;
    private final Set<String> files = new TreeSet<>();
    private long bytes;

    @BeforeEach
    void setUp() throws IOException {
        script = dir.resolve("warm-cache.sh");
        Files.writeString(script, WarmUpScript.load().script());
        root = Files.createDirectories(dir.resolve("cache"));
        bin = Files.createDirectories(dir.resolve("bin"));
        lfsState = Files.createDirectories(dir.resolve("lfs-state"));
        headLog = dir.resolve("head.log");
        headCalls = dir.resolve("head.calls");
    }

    /** Generates {@code count} files in nested directories, with spaces in some names and sizes 0 to 96 bytes. */
    private void generateTree(int count) throws IOException {
        for (int i = 0; i < count; i++) {
            Path file = root.resolve(i % 3 == 0
                    ? "train/shard " + (i % 7) + "/sample " + i + ".tar"
                    : "val/deep/dir " + (i % 5) + "/part-" + i);
            addFile(file, i % 97);
        }
    }

    private void addFile(Path file, int size) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "x".repeat(size));
        files.add(file.toString());
        bytes += size;
    }

    private void install(String resource, String name) throws IOException {
        try (InputStream in = WarmCacheScriptTest.class.getResourceAsStream(resource)) {
            Files.copy(in, bin.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
        assertTrue(bin.resolve(name).toFile().setExecutable(true));
    }

    private void installLoggingHead() throws IOException {
        install("failing-head.sh", "head");
    }

    private Map<String, String> environment(String... settings) {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("PATH", bin + ":" + SYSTEM_PATH);
        environment.put("PRELOAD_ROOT", root.toString());
        environment.put("PRELOAD_POLL_SECONDS", "0");
        environment.put("FAKE_LFS_STATE", lfsState.toString());
        environment.put("FAKE_HEAD_LOG", headLog.toString());
        environment.put("FAKE_HEAD_CALLS", headCalls.toString());
        environment.put("REAL_PATH", SYSTEM_PATH);
        for (int i = 0; i < settings.length; i += 2) {
            environment.put(settings[i], settings[i + 1]);
        }
        return environment;
    }

    private ShellRun warm(Map<String, String> environment) throws IOException, InterruptedException {
        return ShellRun.run(List.of("/bin/sh", script.toString()), environment, dir);
    }

    /** The file counts of the stand-in lfs's calls of one command, in call order. */
    private List<Integer> lfsCalls(String command) throws IOException {
        return Files.readAllLines(lfsState.resolve("calls")).stream().filter(line -> line.startsWith(command + " "))
                .map(line -> Integer.parseInt(line.substring(command.length() + 1))).toList();
    }

    /** The union of the stand-in lfs's set files {@code name.*}, with repeats. */
    private List<String> lfsSet(String name) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> parts = Files.list(lfsState)) {
            for (Path part : parts.filter(p -> p.getFileName().toString().startsWith(name + ".")).toList()) {
                lines.addAll(Files.readAllLines(part));
            }
        }
        return lines;
    }

    private List<String> headReads() throws IOException {
        String log = Files.readString(headLog, StandardCharsets.UTF_8);
        return log.isEmpty() ? List.of() : Arrays.asList(log.substring(0, log.length() - 1).split("\0", -1));
    }

    private List<Integer> headCallSizes() throws IOException {
        return Files.readAllLines(headCalls).stream().map(Integer::parseInt).toList();
    }

    private void assertEveryFileWarmed(ShellRun run) {
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.lastLine().matches("preload done: files=" + files.size() + " bytes=" + bytes + " seconds=\\d+"),
                run.stdout());
    }

    private static List<Integer> sorted(List<Integer> sizes) {
        return sizes.stream().sorted().toList();
    }

    private static String lastLine(String text) {
        return text.strip().lines().reduce((first, last) -> last).orElse("");
    }

    @Test
    void withLfsFilesAreRestoredAtMost50ACallAndPolledInBatches() throws Exception {
        generateTree(700);
        install("fake-lfs.sh", "lfs");

        ShellRun run = warm(environment("PRELOAD_PARALLELISM", "4"));

        assertEveryFileWarmed(run);
        assertTrue(run.stdout().startsWith("preload locations: warmed=2\npreload: restoring 700 files ("
                + bytes + " bytes) under " + root + " with lfs hsm_restore, batches of 50, 4 at a time\n"), run.stdout());
        assertEquals(List.of(50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50),
                lfsCalls("hsm_restore"), "14 calls of 50: Lustre refuses more than 52 files per HSM request");
        assertEquals(files, new TreeSet<>(lfsSet("restored")));
        assertEquals(700, lfsSet("restored").size(), "each file restored once");
        assertEquals(List.of(188, 188, 256, 256, 256, 256), sorted(lfsCalls("hsm_action")),
                "two polls: every restore waiting, then every file NOOP");
        assertEquals(List.of(188, 256, 256), sorted(lfsCalls("hsm_state")), "only NOOP files are asked for their state");
        assertEquals(List.of("preload progress: files=0 bytes=0", "preload progress: files=700 bytes=" + bytes),
                run.stdout().lines().filter(line -> line.startsWith("preload progress:"))
                        .map(line -> line.replaceAll(" seconds=\\d+$", "")).toList());
        assertEquals("", run.stderr());
    }

    @Test
    void withLfsABatchSizeBelow50AlsoLimitsTheRestores() throws Exception {
        generateTree(11);
        install("fake-lfs.sh", "lfs");

        ShellRun run = warm(environment("PRELOAD_BATCH_SIZE", "3", "PRELOAD_PARALLELISM", "2"));

        assertEveryFileWarmed(run);
        assertEquals(List.of(2, 3, 3, 3), sorted(lfsCalls("hsm_restore")));
        assertTrue(lfsCalls("hsm_action").stream().allMatch(size -> size <= 3), lfsCalls("hsm_action").toString());
    }

    @Test
    void withLfsFilesThatAreNoopButStillReleasedAreRestoredAgain() throws Exception {
        generateTree(300);
        // Names that end like lfs output lines must not be taken for them.
        addFile(root.resolve("train/shard 2/x: NOOP"), 1);
        addFile(root.resolve("train/shard 2/y: (0x00000009) exists archived, archive_id:1"), 2);
        Set<String> lost = files.stream().filter(file -> file.contains("/shard 2/")).collect(Collectors.toSet());
        install("fake-lfs.sh", "lfs");

        ShellRun run = warm(environment("FAKE_LFS_LOSE", "/shard 2/"));

        assertEveryFileWarmed(run);
        assertEquals(new TreeSet<>(lost), new TreeSet<>(lfsSet("lost")), "the stand-in dropped their first restore");
        assertEquals(302 + lost.size(), lfsCalls("hsm_restore").stream().mapToInt(Integer::intValue).sum(),
                "the dropped files were restored once more");
        assertEquals(files, new TreeSet<>(lfsSet("restored")));
        assertEquals(files, new TreeSet<>(lfsSet("noop")), "every file was seen done");
        assertEquals("", run.stderr());
    }

    @Test
    void withLfsAFailedRestoreIsRepeatedForTheFilesThatStayReleased() throws Exception {
        generateTree(120);
        install("fake-lfs.sh", "lfs");

        ShellRun run = warm(environment("PRELOAD_PARALLELISM", "1", "FAKE_LFS_FAIL_FIRST_RESTORE", "1"));

        assertEveryFileWarmed(run);
        assertTrue(run.stderr().contains("preload: some lfs hsm_restore calls failed; their files are restored again"
                + " while polling\n"), run.stderr());
        assertEquals(170, lfsCalls("hsm_restore").stream().mapToInt(Integer::intValue).sum(),
                "the 50 files of the failed call were restored again");
        assertEquals(files, new TreeSet<>(lfsSet("noop")));
    }

    @Test
    void withLfsAKilledCallLeavesItsFilesToTheNextPoll() throws Exception {
        generateTree(40);
        install("fake-lfs.sh", "lfs");

        ShellRun run = warm(environment("PRELOAD_BATCH_SIZE", "10", "PRELOAD_PARALLELISM", "1",
                "FAKE_LFS_KILL_FIRST_POLL", "1"));

        assertEveryFileWarmed(run);
        assertEquals(files, new TreeSet<>(lfsSet("noop")), "every file was seen done by hsm_action");
    }

    @Test
    void withLfsAFileThatNeverLoadsFailsAfterTheLastPoll() throws Exception {
        generateTree(100);
        install("fake-lfs.sh", "lfs");
        String stuck = files.stream().filter(file -> file.endsWith("/sample 42.tar")).findFirst().orElseThrow();

        ShellRun run = warm(environment("PRELOAD_MAX_POLLS", "3", "FAKE_LFS_STUCK", stuck));

        assertEquals(1, run.exitCode(), run.stdout());
        assertEquals("preload failed: 1 files still have an HSM action or are released after 3 polls, e.g. " + stuck,
                lastLine(run.stderr()));
        assertEquals(3, run.stdout().lines().filter(line -> line.startsWith("preload progress:")).count(), run.stdout());
        assertTrue(run.stdout().lines().noneMatch(line -> line.startsWith("preload done")), run.stdout());
    }

    @Test
    void withLfsNamesWithANewlineAreReadInstead() throws Exception {
        generateTree(30);
        addFile(root.resolve("val/line\nbreak.bin"), 5);
        addFile(root.resolve("dir\nwith newline/x"), 3);
        install("fake-lfs.sh", "lfs");
        installLoggingHead();

        ShellRun run = warm(environment());

        assertEveryFileWarmed(run);
        assertFalse(Files.exists(lfsState.resolve("newline")), "lfs never saw a name with a newline");
        assertEquals(30, lfsSet("restored").size());
        assertEquals(Set.of(root + "/val/line\nbreak.bin", root + "/dir\nwith newline/x"), new TreeSet<>(headReads()));
        assertTrue(run.stdout().contains("preload: reading the first byte of 2 files (8 bytes) under " + root
                + " (names with a newline: lfs prints one line per file), batches of 1, 128 at a time\n"), run.stdout());
    }

    @Test
    void withoutLfsEveryFileIsReadOnceInBatches() throws Exception {
        generateTree(1000);
        installLoggingHead();

        ShellRun run = warm(environment("PRELOAD_BATCH_SIZE", "100", "PRELOAD_PARALLELISM", "3"));

        assertEveryFileWarmed(run);
        assertTrue(run.stdout().startsWith("preload locations: warmed=2\npreload: reading the first byte of 1000 files ("
                + bytes + " bytes) under "
                + root + ", batches of 100, 3 at a time\n"), run.stdout());
        assertEquals(new ArrayList<>(files), headReads().stream().sorted().toList(), "each file read exactly once");
        assertEquals(10, headCallSizes().size(), headCallSizes().toString());
        assertEquals("", run.stderr());
    }

    @Test
    void withoutLfsBatchesShrinkSoThatEveryReaderHasWork() throws Exception {
        generateTree(95);
        installLoggingHead();

        ShellRun run = warm(environment("PRELOAD_PARALLELISM", "10"));

        assertEveryFileWarmed(run);
        assertTrue(run.stdout().contains("batches of 10, 10 at a time"), run.stdout());
        assertEquals(List.of(5, 10, 10, 10, 10, 10, 10, 10, 10, 10), sorted(headCallSizes()));
    }

    @Test
    void withoutLfsTheDefaultsRead128BatchesAtATime() throws Exception {
        generateTree(3);

        ShellRun run = warm(environment());

        assertEveryFileWarmed(run);
        assertTrue(run.stdout().startsWith("preload locations: warmed=2\npreload: reading the first byte of 3 files ("
                + bytes + " bytes) under " + root + ", batches of 1, " + PreloadDefaults.DEFAULT_PARALLELISM
                + " at a time\n"), run.stdout());
        assertEquals("", run.stderr());
    }

    @Test
    void withoutLfsAFileThatFailsOnceIsReadAgainWithTheRestOfItsBatch() throws Exception {
        generateTree(60);
        installLoggingHead();
        String flaky = files.stream().filter(file -> file.endsWith("/part-4")).findFirst().orElseThrow();

        ShellRun run = warm(environment("PRELOAD_BATCH_SIZE", "20", "PRELOAD_PARALLELISM", "2", "FAKE_FLAKY", "/part-4"));

        assertEveryFileWarmed(run);
        assertEquals("preload: reading 20 files of failed batches once more, one at a time\n", run.stderr());
        assertEquals(2, headReads().stream().filter(flaky::equals).count());
        assertEquals(80, headReads().size(), "60 reads, then the failed batch of 20 again");
        assertEquals(List.of(20, 20, 20), headCallSizes().subList(0, 3), "three batches, then the retries");
    }

    @Test
    void withoutLfsAnUnreadableFileFailsTheWarmUp() throws Exception {
        generateTree(11);
        installLoggingHead();
        String unreadable = files.stream().filter(file -> file.endsWith("/part-4")).findFirst().orElseThrow();

        ShellRun run = warm(environment("FAKE_UNREADABLE", "/part-4", "PRELOAD_PARALLELISM", "1"));

        assertEquals(1, run.exitCode(), run.stdout());
        assertEquals("preload: reading 11 files of failed batches once more, one at a time\n"
                + "head: error reading '" + unreadable + "': Input/output error\n"
                + "preload failed: 1 of 11 files could not be read, e.g. " + unreadable + "\n", run.stderr());
        assertEquals(2, headReads().stream().filter(unreadable::equals).count(), "read, then retried once");
        assertTrue(run.stdout().lines().noneMatch(line -> line.startsWith("preload done")), run.stdout());
    }

    @Test
    void bashAsShRunsBothPathsToo() throws Exception {
        generateTree(200);
        addFile(root.resolve("val/line\nbreak.bin"), 5);
        install("fake-lfs.sh", "lfs");
        List<String> bash = List.of("/bin/bash", "--posix", script.toString());

        ShellRun withLfs = ShellRun.run(bash, environment("FAKE_LFS_LOSE", "/shard 2/"), dir);
        Files.delete(bin.resolve("lfs"));
        installLoggingHead();
        ShellRun withoutLfs = ShellRun.run(bash, environment("PRELOAD_PARALLELISM", "7", "FAKE_FLAKY", "/part-4"), dir);

        assertEveryFileWarmed(withLfs);
        assertEquals(new TreeSet<>(files.stream().filter(file -> !file.contains("\n")).toList()),
                new TreeSet<>(lfsSet("noop")));
        assertEveryFileWarmed(withoutLfs);
        assertEquals(new TreeSet<>(files), new TreeSet<>(headReads()));
    }

    @Test
    void anEmptyTreeIsDoneAtOnce() throws Exception {
        install("fake-lfs.sh", "lfs");

        ShellRun withLfs = warm(environment());
        Files.delete(bin.resolve("lfs"));
        ShellRun withoutLfs = warm(environment());

        for (ShellRun run : List.of(withLfs, withoutLfs)) {
            assertEquals(0, run.exitCode(), run.stderr());
            assertTrue(run.stdout().matches("preload locations: warmed=0\npreload done: files=0 bytes=0 seconds=\\d+\n"),
                    run.stdout());
        }
        assertEquals(List.of("path2fid 1"), Files.readAllLines(lfsState.resolve("calls")),
                "lfs is only asked whether it reaches the mount");
    }

    @Test
    void anLfsThatCannotReachTheMountIsNotUsedAndEveryFileIsRead() throws Exception {
        generateTree(40);
        install("fake-lfs.sh", "lfs");
        installLoggingHead();

        ShellRun run = warm(environment("FAKE_LFS_NOT_LUSTRE", "1"));

        assertEveryFileWarmed(run);
        assertEquals(new TreeSet<>(files), new TreeSet<>(headReads()));
        assertTrue(run.stderr().contains("preload: lfs path2fid " + root + " failed (no Lustre mount this lfs can "
                + "reach): reading every file instead\n"), run.stderr());
        assertEquals(List.of("path2fid 1"), Files.readAllLines(lfsState.resolve("calls")));
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
        try (Stream<Path> state = Files.list(lfsState)) {
            assertEquals(Set.of(), state.map(Path::toString).collect(Collectors.toSet()));
        }
    }
}
