package io.github.trainingdata.cdk.benchmark;

import io.github.trainingdata.cdk.performance.PreloadDefaults;
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
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * takes at most {@value PreloadDefaults#MAX_RESTORE_BATCH} files per request) and
 * {@code xargs -0 -n 256 -P 8} of {@code lfs hsm_action} and {@code lfs hsm_state}: the calls the script
 * makes.</li>
 * </ul>
 * Each case runs under a {@code /bin/sh} that also reports, with {@code times}, the CPU time its processes
 * used: on a shared machine that figure moves less than the wall-clock time.
 * The script runs with its defaults ({@value PreloadDefaults#DEFAULT_PARALLELISM} at a time, batches of
 * {@value PreloadDefaults#DEFAULT_BATCH_SIZE}). With nothing to wait for, the floor is the cost of the calls
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
    private static final Pattern TIMES = Pattern.compile("(\\d+)m([\\d.]+)s (\\d+)m([\\d.]+)s");
    private static final long TIMEOUT_MINUTES = 15;
    private static final String READ_FLOOR = "find \"$1\" -type f -print0 > \"$2\" &&"
            + " xargs -0 -n 256 -P 8 head -q -c 1 < \"$2\" > /dev/null";
    private static final String LFS_FLOOR = "find \"$1\" -type f -print0 > \"$2\" &&"
            + " xargs -0 -n " + PreloadDefaults.MAX_RESTORE_BATCH + " -P 8 lfs hsm_restore < \"$2\" &&"
            + " xargs -0 -n 256 -P 8 lfs hsm_action < \"$2\" > /dev/null &&"
            + " xargs -0 -n 256 -P 8 lfs hsm_state < \"$2\" > /dev/null";

    private WarmUpBenchmark() {
    }

    /** One timed case: its name, its command, and whether a stand-in lfs is on PATH. */
    record Case(String name, List<String> command, boolean lfs) {
    }

    /** One run of a case: wall-clock and CPU (user + system of all its processes) nanoseconds, and its output. */
    record Sample(long wallNanos, long cpuNanos, String stdout) {
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

        Map<String, List<Sample>> samples = new LinkedHashMap<>();
        cases.forEach(c -> samples.put(c.name(), new ArrayList<>()));
        String expected = "preload done: files=" + fileCount + " bytes=" + bytes + " seconds=";
        for (int round = 0; round < warmup + measured; round++) {
            List<Case> order = new ArrayList<>(cases);
            if (round % 2 == 1) {
                Collections.reverse(order);
            }
            StringBuilder line = new StringBuilder();
            for (Case c : order) {
                Sample sample = run(c, root, bin, dir);
                if (c.name().endsWith("warm-cache.sh") && !lastLine(sample.stdout()).startsWith(expected)) {
                    throw new IllegalStateException(c.name() + " did not warm every file: " + lastLine(sample.stdout()));
                }
                if (round >= warmup) {
                    samples.get(c.name()).add(sample);
                }
                line.append(String.format(Locale.ROOT, "  %s %.2f s", c.name(), sample.wallNanos() / 1e9));
            }
            System.out.printf(Locale.ROOT, "round %d/%d (%s):%s%n", round + 1, warmup + measured,
                    round < warmup ? "warm-up" : "measured", line);
        }
        System.out.printf(Locale.ROOT, "%d warm-up + %d measured rounds; %d CPUs, load average %.1f (timings are only as"
                + " quiet as the machine)%n%n", warmup, measured, Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());

        System.out.printf(Locale.ROOT, "%-20s %12s %10s %12s %12s%n", "case", "median wall", "min wall",
                "files/s", "median CPU");
        samples.forEach((name, runs) -> System.out.printf(Locale.ROOT, "%-20s %10.2f s %8.2f s %12.0f %10.2f s%n",
                name, median(runs, Sample::wallNanos) / 1e9,
                runs.stream().mapToLong(Sample::wallNanos).min().orElse(0) / 1e9,
                fileCount / (median(runs, Sample::wallNanos) / 1e9), median(runs, Sample::cpuNanos) / 1e9));
        double read = ratio(samples, "read", Sample::wallNanos);
        double lfs = ratio(samples, "lfs", Sample::wallNanos);
        System.out.printf(Locale.ROOT, "%n(goal: script / floor <= %.1f in median wall time on both paths: read %s,"
                + " lfs %s; in CPU time, which a busy machine disturbs less: read %.2f, lfs %.2f)%n", RATIO_GOAL,
                read <= RATIO_GOAL ? "met" : "NOT met", lfs <= RATIO_GOAL ? "met" : "NOT met",
                ratio(samples, "read", Sample::cpuNanos), ratio(samples, "lfs", Sample::cpuNanos));
        System.out.printf(Locale.ROOT, "warm-up-read-ratio: %.2f%n", read);
        System.out.printf(Locale.ROOT, "warm-up-lfs-ratio: %.2f%n", lfs);
    }

    private static double median(List<Sample> samples, ToLongFunction<Sample> value) {
        return Stats.median(samples.stream().map(value::applyAsLong).toList());
    }

    private static double ratio(Map<String, List<Sample>> samples, String path, ToLongFunction<Sample> value) {
        return median(samples.get(path + ": warm-cache.sh"), value) / median(samples.get(path + ": floor"), value);
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

    /**
     * Runs a case under {@code /bin/sh}, which then prints with {@code times} the CPU time of the processes
     * it waited for (the case's, and theirs in turn).
     */
    private static Sample run(Case c, Path root, Path bin, Path dir) throws IOException, InterruptedException {
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        Path cpu = dir.resolve("cpu.txt");
        List<String> command = new ArrayList<>(List.of("/bin/sh", "-c",
                "\"$@\" > \"$0.out\" 2> \"$0.err\"; s=$?; times > \"$0\"; exit $s", cpu.toString()));
        command.addAll(c.command());
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().clear();
        builder.environment().put("PATH", c.lfs() ? bin + ":" + SYSTEM_PATH : SYSTEM_PATH);
        builder.environment().put(WarmUpScript.ROOT_VARIABLE, root.toString());
        long start = System.nanoTime();
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException(c.name() + " did not finish within " + TIMEOUT_MINUTES + " minutes");
        }
        long wall = System.nanoTime() - start;
        if (process.exitValue() != 0) {
            throw new IllegalStateException(c.name() + " failed (" + process.exitValue() + "): "
                    + Files.readString(Path.of(cpu + ".err"), StandardCharsets.UTF_8));
        }
        return new Sample(wall, childrenCpuNanos(Files.readAllLines(cpu)), Files.readString(Path.of(cpu + ".out"),
                StandardCharsets.UTF_8));
    }

    /** The second line of {@code times}' output, e.g. {@code 0m1.295s 0m0.858s}: user and system time of children. */
    private static long childrenCpuNanos(List<String> times) {
        Matcher m = TIMES.matcher(times.get(1));
        if (!m.matches()) {
            throw new IllegalStateException("unexpected output of times: " + times);
        }
        return Math.round(((Long.parseLong(m.group(1)) + Long.parseLong(m.group(3))) * 60
                + Double.parseDouble(m.group(2)) + Double.parseDouble(m.group(4))) * 1e9);
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
