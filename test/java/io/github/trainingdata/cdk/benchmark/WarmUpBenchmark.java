package io.github.trainingdata.cdk.benchmark;

import io.github.trainingdata.cdk.preload.WarmUpScript;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Warm-up script benchmark (a benchmark, not a test: it never fails the build). It generates a tree of
 * {@value #DEFAULT_FILES} small files in a temporary directory and times, alternating the order every
 * round, four cases with {@code /bin/sh}:
 * <ul>
 * <li><em>read: warm-cache.sh</em> — the script without {@code lfs} on PATH (first-byte reads);</li>
 * <li><em>read: floor</em> — {@code find} once, then {@code xargs -0 -n 256 -P 8 head -q -c 1};</li>
 * <li><em>lfs: warm-cache.sh</em> — the script with a zero-latency stand-in {@code lfs} (every restore done
 * at once);</li>
 * <li><em>lfs: floor</em> — {@code find} once, then {@code xargs -0 -n 50 -P 8 lfs hsm_restore} (Lustre
 * takes at most {@value WarmUpScript#MAX_RESTORE_BATCH} files per request) and
 * {@code xargs -0 -n 256 -P 8} of {@code lfs hsm_action} and {@code lfs hsm_state}: the calls the script
 * makes.</li>
 * </ul>
 * The script runs with its defaults ({@value WarmUpScript#DEFAULT_PARALLELISM} at a time, batches of
 * {@value WarmUpScript#DEFAULT_BATCH_SIZE}). With nothing to wait for, the floor is the cost of the calls
 * themselves, and the ratio script / floor is the script's own overhead. It prints a table of median
 * times and files/s, then, last, {@code warm-up-read-ratio: R} and {@code warm-up-lfs-ratio: R} (goal
 * &le; {@value #RATIO_GOAL}).
 *
 * <p>Run: {@code mvn -B -q -Pbenchmark test-compile exec:java@warm-up-benchmark}; other sizes:
 * {@code -Dexec.args="files warmup measured"}.
 */
public final class WarmUpBenchmark {
    static final int DEFAULT_FILES = 100_000;
    /** The goal for both ratios; informational only. */
    static final double RATIO_GOAL = 2.0;
    private static final String SYSTEM_PATH = "/usr/bin:/bin";
    private static final long TIMEOUT_MINUTES = 15;
    private static final String READ_FLOOR = "find \"$1\" -type f -print0 > \"$2\" &&"
            + " xargs -0 -n 256 -P 8 head -q -c 1 < \"$2\" > /dev/null";
    private static final String LFS_FLOOR = "find \"$1\" -type f -print0 > \"$2\" &&"
            + " xargs -0 -n " + WarmUpScript.MAX_RESTORE_BATCH + " -P 8 lfs hsm_restore < \"$2\" &&"
            + " xargs -0 -n 256 -P 8 lfs hsm_action < \"$2\" > /dev/null &&"
            + " xargs -0 -n 256 -P 8 lfs hsm_state < \"$2\" > /dev/null";

    private WarmUpBenchmark() {
    }

    /** One timed case: its name, its command, and whether a stand-in lfs is on PATH. */
    record Case(String name, List<String> command, boolean lfs) {
    }

    /** Runs the benchmark and prints the table and the two ratios. */
    public static void main(String[] args) throws IOException, InterruptedException {
        int fileCount = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_FILES;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int measured = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        Path dir = Files.createTempDirectory("warm-up-benchmark");
        try {
            run(dir, fileCount, warmup, measured);
        } finally {
            deleteTree(dir);
        }
    }

    private static void run(Path dir, int fileCount, int warmup, int measured) throws IOException, InterruptedException {
        Path root = dir.resolve("cache");
        long start = System.nanoTime();
        long bytes = generateTree(root, fileCount);
        System.out.printf(Locale.ROOT, "generated %d files (%d bytes) under %s in %.1f s%n", fileCount, bytes, root,
                (System.nanoTime() - start) / 1e9);
        Path script = dir.resolve("warm-cache.sh");
        Files.writeString(script, WarmUpScript.load().script());
        Path bin = Files.createDirectories(dir.resolve("bin"));
        try (InputStream in = WarmUpBenchmark.class.getResourceAsStream("instant-lfs.sh")) {
            Files.copy(in, bin.resolve("lfs"));
        }
        if (!bin.resolve("lfs").toFile().setExecutable(true)) {
            throw new IOException("cannot make " + bin.resolve("lfs") + " executable");
        }
        Path list = dir.resolve("floor-list");
        List<Case> cases = List.of(
                new Case("read: warm-cache.sh", List.of("/bin/sh", script.toString()), false),
                new Case("read: floor", List.of("/bin/sh", "-c", READ_FLOOR, "sh", root.toString(), list.toString()),
                        false),
                new Case("lfs: warm-cache.sh", List.of("/bin/sh", script.toString()), true),
                new Case("lfs: floor", List.of("/bin/sh", "-c", LFS_FLOOR, "sh", root.toString(), list.toString()), true));

        Map<String, List<Long>> samples = new LinkedHashMap<>();
        cases.forEach(c -> samples.put(c.name(), new ArrayList<>()));
        String expected = "preload done: files=" + fileCount + " bytes=" + bytes + " seconds=";
        for (int round = 0; round < warmup + measured; round++) {
            List<Case> order = new ArrayList<>(cases);
            if (round % 2 == 1) {
                Collections.reverse(order);
            }
            StringBuilder line = new StringBuilder();
            for (Case c : order) {
                long t0 = System.nanoTime();
                String out = run(c, root, bin, dir);
                long nanos = System.nanoTime() - t0;
                if (c.name().endsWith("warm-cache.sh") && !lastLine(out).startsWith(expected)) {
                    throw new IllegalStateException(c.name() + " did not warm every file: " + lastLine(out));
                }
                if (round >= warmup) {
                    samples.get(c.name()).add(nanos);
                }
                line.append(String.format(Locale.ROOT, "  %s %.2f s", c.name(), nanos / 1e9));
            }
            System.out.printf(Locale.ROOT, "round %d/%d (%s):%s%n", round + 1, warmup + measured,
                    round < warmup ? "warm-up" : "measured", line);
        }
        System.out.printf(Locale.ROOT, "%d warm-up + %d measured rounds; %d CPUs, load average %.1f (timings are only as"
                + " quiet as the machine)%n%n", warmup, measured, Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());

        System.out.printf(Locale.ROOT, "%-20s %10s %10s %12s%n", "case", "median", "min", "files/s");
        samples.forEach((name, nanos) -> System.out.printf(Locale.ROOT, "%-20s %8.2f s %8.2f s %12.0f%n", name,
                Stats.median(nanos) / 1e9, Collections.min(nanos) / 1e9, fileCount / (Stats.median(nanos) / 1e9)));
        double read = ratio(samples, "read");
        double lfs = ratio(samples, "lfs");
        System.out.printf(Locale.ROOT, "%n(goal: ratio of median times <= %.1f on both paths: read %s, lfs %s)%n",
                RATIO_GOAL, read <= RATIO_GOAL ? "met" : "NOT met", lfs <= RATIO_GOAL ? "met" : "NOT met");
        System.out.printf(Locale.ROOT, "warm-up-read-ratio: %.2f%n", read);
        System.out.printf(Locale.ROOT, "warm-up-lfs-ratio: %.2f%n", lfs);
    }

    private static double ratio(Map<String, List<Long>> samples, String path) {
        return Stats.median(samples.get(path + ": warm-cache.sh")) / Stats.median(samples.get(path + ": floor"));
    }

    /** Files in 100 directories of two levels, some names with spaces, 0 to 199 bytes each. */
    private static long generateTree(Path root, int count) throws IOException {
        long bytes = 0;
        byte[] content = new byte[200];
        for (int i = 0; i < count; i++) {
            Path file = root.resolve(String.format(Locale.ROOT, "shard %02d/dir-%03d/file %06d.bin", i % 10, i % 100, i));
            if (i < 100) {
                Files.createDirectories(file.getParent());
            }
            int size = i % content.length;
            Files.write(file, Arrays.copyOf(content, size));
            bytes += size;
        }
        return bytes;
    }

    private static String run(Case c, Path root, Path bin, Path dir) throws IOException, InterruptedException {
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        ProcessBuilder builder = new ProcessBuilder(c.command()).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().clear();
        builder.environment().put("PATH", c.lfs() ? bin + ":" + SYSTEM_PATH : SYSTEM_PATH);
        builder.environment().put(WarmUpScript.ROOT_VARIABLE, root.toString());
        Process process = builder.start();
        if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException(c.name() + " did not finish within " + TIMEOUT_MINUTES + " minutes");
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(c.name() + " failed (" + process.exitValue() + "): "
                    + Files.readString(err, StandardCharsets.UTF_8));
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    private static String lastLine(String text) {
        return text.strip().lines().reduce((first, last) -> last).orElse("");
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
