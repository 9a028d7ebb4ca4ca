package io.github.trainingdata.cdk.benchmark;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.trainingdata.cdk.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Cold-synth benchmark (a benchmark, not a test: it never fails the build on timing): the README's synth, one
 * new process tree per sample ({@code npx -y aws-cdk@2.1148.1 synth}: the CLI, cdk.json's runner, a JVM, jsii's
 * node), for the quickstart as README runs it and for {@link ColdSynthApp}'s variants through the same runner:
 * an empty stack, the quickstart built step by step, and the quickstart's data layer with our constructs and
 * with plain aws-cdk-lib. Variants alternate (one round forwards, the next backwards) after one warm-up round.
 *
 * <p>It prints the wall time of each variant (median, min, max), the split of the instrumented variants
 * (process start-up, jsii start, aws-cdk-lib load, constructs, {@code app.synth()} with aws-cdk-lib's own
 * performance counters: template validation and asset staging, exit), the JVM's classes, JIT, GC and CPU, the
 * time and jsii kernel calls per construct of the quickstart, and the aws-cdk-lib modules node loads (kernel
 * calls and modules from one extra run per variant with {@code JSII_DEBUG=1 NODE_DEBUG=module}). Last:
 * {@code cold-synth-ratio: R} (median quickstart / median empty stack, README runner) and
 * {@code cold-data-layer-ratio: R} (ours / plain).
 *
 * <p>Run: {@code mvn -B -q -Pbenchmark verify} (with {@link SynthBenchmark}); other round counts:
 * {@code -Dcold.rounds=N}; other runners, compared in the same rounds: {@code -Dcold.runners="A|B"}, each the
 * command that runs the quickstart ({@code node examples/cdk-app.js} or {@code mvn -B -q test-compile exec:java}).
 */
public final class ColdSynthBenchmark {
    static final String CLI = "aws-cdk@2.1148.1";
    /** The goal for the ratio; informational only. */
    static final double RATIO_GOAL = 1.15;
    static final String QUICKSTART = "quickstart (README)";
    static final String EMPTY = "empty stack";
    static final String STEPS = "quickstart (steps)";
    static final String OURS = "data layer: ours";
    static final String PLAIN = "data layer: plain";
    static final List<Variant> VARIANTS = List.of(new Variant(QUICKSTART, null), new Variant(EMPTY, "empty"),
            new Variant(STEPS, "quickstart"), new Variant(OURS, "data-ours"), new Variant(PLAIN, "data-plain"));
    static final List<String> CONSTRUCTS = List.of("TrainingNetwork", "TrainingDataBucket", "LustreCache", "EfsStore",
            "TrainingJobDefinition", "LustrePreload", "TrainingDataDashboard");
    private static final Path WORK = Path.of("target", "cold-synth");
    private static final ObjectMapper JSON = Json.MAPPER;
    private static final Pattern API = Pattern.compile("\"api\":\"(\\w+)\"");
    private static final Pattern MODULE = Pattern.compile("MODULE \\d+: load \"[^\"]*/node_modules/aws-cdk-lib/"
            + "(node_modules/(?:@[^/\"]+/)?)?([^/\"]+)");

    private ColdSynthBenchmark() {
    }

    /** A runner: the command that runs the quickstart app; {@code cdkJson} when it is cdk.json's. */
    record Runner(String app, boolean cdkJson) {
        /** @return the command that runs {@code mainClass} with {@code args} the same way */
        String command(String mainClass, String args) {
            if (app.contains("cdk-app.js")) {
                return app + " " + mainClass + " " + args;
            }
            if (app.contains("exec:java")) {
                return app + " -Dexample.mainClass=" + mainClass + " -Dexec.args=" + args;
            }
            throw new IllegalArgumentException("cannot derive a variant's command from the runner '" + app
                    + "': expected 'node examples/cdk-app.js' or Maven's exec:java");
        }
    }

    /** A variant: its name and {@link ColdSynthApp}'s argument ({@code null}: the quickstart as README runs it). */
    record Variant(String name, String appArgument) {
    }

    /** One synth of a round: a variant through a runner (its index). */
    record Slot(int runner, Variant variant) {
    }

    /**
     * One synth: wall time, CPU time of the whole process tree (-1 where unknown), launch and end (epoch ms), the
     * app's steps, aws-cdk-lib's counters, the template's resources and SHA-256.
     */
    record Sample(long wallMillis, long cpuMillis, long launch, long end, Map<String, long[]> steps,
            Map<String, Long> counters, int resources, String templateDigest) {
        long step(String name) {
            return steps.get(name)[0];
        }

        long counter(String name) {
            return counters.getOrDefault(name, 0L);
        }

        /** @return the step that ends construction: the last construct's, or {@code constructs} */
        String lastConstruct() {
            return steps.containsKey("constructs") ? "constructs" : CONSTRUCTS.get(CONSTRUCTS.size() - 1);
        }
    }

    /** Kernel calls per step and aws-cdk-lib module files per submodule, from one JSII_DEBUG run. */
    record Counts(Map<String, Map<String, Integer>> calls, Map<String, Integer> modules) {
    }

    /** Runs the benchmark and prints the tables and the two ratios. */
    public static void main(String[] args) throws IOException, InterruptedException {
        int rounds = Integer.getInteger("cold.rounds", 5);
        String cdkJsonApp = JSON.readTree(Path.of("cdk.json").toFile()).get("app").asText();
        List<Runner> runners = new ArrayList<>();
        for (String app : System.getProperty("cold.runners", cdkJsonApp).split("\\|")) {
            runners.add(new Runner(app.trim(), app.trim().equals(cdkJsonApp)));
        }
        deleteTree(WORK);
        Files.createDirectories(WORK);
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();

        Map<String, List<Sample>> samples = new LinkedHashMap<>();
        List<Slot> order = new ArrayList<>();
        for (int r = 0; r < runners.size(); r++) {
            for (Variant v : VARIANTS) {
                order.add(new Slot(r, v));
                samples.put(key(runners, r, v.name()), new ArrayList<>());
            }
        }
        long start = System.nanoTime();
        for (int round = 0; round <= rounds; round++) {
            List<Slot> roundOrder = new ArrayList<>(order);
            if (round % 2 == 1) {
                Collections.reverse(roundOrder);
            }
            long roundStart = System.nanoTime();
            for (Slot slot : roundOrder) {
                Sample s = synth(runners.get(slot.runner()), slot.variant(), "r" + slot.runner() + "-" + round,
                        Map.of(), false);
                if (round > 0) {
                    samples.get(key(runners, slot.runner(), slot.variant().name())).add(s);
                }
            }
            System.out.printf(Locale.ROOT, "cold round %d/%d (%s): %.0f s%n", round + 1, rounds + 1,
                    round == 0 ? "warm-up" : "measured", (System.nanoTime() - roundStart) / 1e9);
        }
        Map<String, Counts> counts = new LinkedHashMap<>();
        for (Variant v : VARIANTS.subList(1, VARIANTS.size())) {
            counts.put(v.name(), count(runners.get(0), v));
        }
        System.out.printf(Locale.ROOT, "%n%d measured rounds (+1 warm-up) in %.0f s; %d CPUs, load average %.1f before, "
                + "%.1f after (timings are only as quiet as the machine)%n", rounds, (System.nanoTime() - start) / 1e9,
                Runtime.getRuntime().availableProcessors(), loadBefore,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        for (int r = 0; r < runners.size(); r++) {
            System.out.printf(Locale.ROOT, "runner [%d]: %s%s%n", r, runners.get(r).app(),
                    runners.get(r).cdkJson() ? " (cdk.json)" : "");
        }
        boolean same = samples.get(key(runners, 0, QUICKSTART)).get(0).templateDigest()
                .equals(samples.get(key(runners, 0, STEPS)).get(0).templateDigest());
        System.out.println(same ? "quickstart (steps) synthesizes the same template as QuickstartApp"
                : "NOTE: quickstart (steps) differs from QuickstartApp's template: update ColdSynthApp");
        System.out.println();
        printTotals(samples);
        for (int r = 0; r < runners.size(); r++) {
            printSplit(runners, r, samples);
        }
        printConstructs(samples.get(key(runners, 0, STEPS)), counts.get(STEPS));
        printCalls(counts);
        printModules(counts);

        for (int r = 0; r < runners.size(); r++) {
            double ratio = ratio(samples, key(runners, r, QUICKSTART), key(runners, r, EMPTY), Sample::wallMillis);
            System.out.printf(Locale.ROOT, "(runner [%d]: quickstart / empty stack: wall %.2f, CPU %.2f (goal <= %.2f, "
                    + "%s); data layer ours / plain: wall %.2f, CPU %.2f)%n", r, ratio,
                    ratio(samples, key(runners, r, QUICKSTART), key(runners, r, EMPTY), Sample::cpuMillis), RATIO_GOAL,
                    ratio <= RATIO_GOAL ? "met" : "NOT met",
                    ratio(samples, key(runners, r, OURS), key(runners, r, PLAIN), Sample::wallMillis),
                    ratio(samples, key(runners, r, OURS), key(runners, r, PLAIN), Sample::cpuMillis));
        }
        System.out.printf(Locale.ROOT, "cold-synth-ratio: %.2f%n",
                ratio(samples, key(runners, 0, QUICKSTART), key(runners, 0, EMPTY), Sample::wallMillis));
        System.out.printf(Locale.ROOT, "cold-data-layer-ratio: %.2f%n",
                ratio(samples, key(runners, 0, OURS), key(runners, 0, PLAIN), Sample::wallMillis));
    }

    private static double ratio(Map<String, List<Sample>> samples, String a, String b, ToLongFunction<Sample> f) {
        return median(samples.get(a), f) / median(samples.get(b), f);
    }

    private static String key(List<Runner> runners, int runner, String variant) {
        return runners.size() == 1 ? variant : variant + " [" + runner + "]";
    }

    /** Runs one variant through the CLI and reads what it left; deletes its directory unless {@code keep}. */
    private static Sample synth(Runner runner, Variant variant, String tag, Map<String, String> env, boolean keep)
            throws IOException, InterruptedException {
        Path dir = WORK.resolve(tag + "-" + variant.appArgument()).toAbsolutePath();
        Files.createDirectories(dir);
        Path out = dir.resolve("cdk.out");
        Path marks = dir.resolve("steps.txt");
        List<String> command = new ArrayList<>(List.of("npx", "-y", CLI, "synth", "--no-notices", "--quiet",
                "-o", out.toString()));
        if (variant.appArgument() != null) {
            command.addAll(List.of("--app", runner.command(ColdSynthApp.class.getName(), variant.appArgument()),
                    "-c", "@aws-cdk/core.slowSynthThreshold=0"));
        } else if (!runner.cdkJson()) {
            command.addAll(List.of("--app", runner.app()));
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(dir.resolve("stdout.txt").toFile())
                .redirectError(dir.resolve("stderr.txt").toFile());
        builder.environment().put("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20");
        builder.environment().put("CDK_DISABLE_VERSION_CHECK", "1");
        builder.environment().put("CDK_DISABLE_CLI_TELEMETRY", "true");
        builder.environment().put(ColdSynthApp.MARKS_ENV, marks.toString());
        builder.environment().putAll(env);
        long cpu0 = childrenCpuMillis();
        long launch = System.currentTimeMillis();
        long t0 = System.nanoTime();
        int status = builder.start().waitFor();
        long wall = (System.nanoTime() - t0) / 1_000_000;
        long end = System.currentTimeMillis();
        long cpu = cpu0 < 0 ? -1 : childrenCpuMillis() - cpu0;
        if (status != 0) {
            List<String> err = Files.readAllLines(dir.resolve("stderr.txt"), StandardCharsets.UTF_8);
            throw new IllegalStateException(variant.name() + " failed (exit " + status + "):\n"
                    + String.join("\n", err.subList(Math.max(0, err.size() - 30), err.size())));
        }
        Map<String, long[]> steps = Files.exists(marks) ? ColdSynthApp.read(marks) : Map.of();
        Map<String, Long> counters = new LinkedHashMap<>();
        Path counterFile = out.resolve("performance-counters.json");
        if (variant.appArgument() != null && Files.exists(counterFile)) {
            JSON.readTree(counterFile.toFile()).get("counters").fields()
                    .forEachRemaining(e -> counters.put(e.getKey(), e.getValue().asLong()));
        }
        byte[] template = Files.readAllBytes(out.resolve(ColdSynthApp.STACK + ".template.json"));
        int resources = JSON.readTree(template).path("Resources").size();
        if (!keep) {
            deleteTree(dir);
        }
        return new Sample(wall, cpu, launch, end, steps, counters, resources, sha256(template));
    }

    /** One untimed run with jsii's and node's module debugging: kernel calls per step, module files loaded. */
    private static Counts count(Runner runner, Variant variant) throws IOException, InterruptedException {
        String tag = "count";
        synth(runner, variant, tag, Map.of("JSII_DEBUG", "1", "NODE_DEBUG", "module"), true);
        Map<String, Map<String, Integer>> calls = new LinkedHashMap<>();
        Map<String, Integer> modules = new TreeMap<>();
        Map<String, Integer> pending = new TreeMap<>();
        Pattern marker = Pattern.compile(Pattern.quote(ColdSynthApp.STEP_MARKER) + "(\\w+)");
        Path dir = WORK.resolve(tag + "-" + variant.appArgument());
        try (Stream<String> lines = Files.lines(dir.resolve("stderr.txt"), StandardCharsets.UTF_8)) {
            for (String line : (Iterable<String>) lines::iterator) {
                Matcher step = marker.matcher(line);
                Matcher api = API.matcher(line);
                Matcher module = MODULE.matcher(line);
                if (line.startsWith("> {") && step.find()) {
                    calls.put(step.group(1), pending);
                    pending = new TreeMap<>();
                } else if (line.startsWith("> {")) {
                    pending.merge(api.find() ? api.group(1) : "other", 1, Integer::sum);
                } else if (line.startsWith("< {\"callback\"")) {
                    pending.merge("callback", 1, Integer::sum);
                } else if (module.find()) {
                    modules.merge((module.group(1) != null ? "(bundled) " : "") + module.group(2), 1, Integer::sum);
                }
            }
        }
        deleteTree(dir);
        return new Counts(calls, modules);
    }

    /**
     * @return the CPU milliseconds of this JVM's waited-for child process trees so far (Linux: cutime + cstime of
     *     /proc/self/stat, in 100 Hz ticks), or -1 elsewhere
     */
    private static long childrenCpuMillis() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[13]) + Long.parseLong(fields[14])) * 10;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void printTotals(Map<String, List<Sample>> samples) {
        System.out.printf(Locale.ROOT, "%-26s %9s %10s %8s %8s %10s%n", "cold synth", "resources", "wall median",
                "min", "max", "CPU median");
        samples.forEach((name, list) -> System.out.printf(Locale.ROOT, "%-26s %9d %8.2f s %6.2f s %6.2f s %8.2f s%n",
                name, list.get(0).resources(), median(list, Sample::wallMillis) / 1e3,
                list.stream().mapToLong(Sample::wallMillis).min().orElse(0) / 1e3,
                list.stream().mapToLong(Sample::wallMillis).max().orElse(0) / 1e3,
                median(list, Sample::cpuMillis) / 1e3));
        System.out.println();
    }

    /** The split of the instrumented variants' wall time, medians per part, in seconds. */
    private static void printSplit(List<Runner> runners, int runner, Map<String, List<Sample>> samples) {
        List<String> names = VARIANTS.stream().filter(v -> v.appArgument() != null)
                .map(v -> key(runners, runner, v.name())).toList();
        Map<String, ToLongFunction<Sample>> parts = new LinkedHashMap<>();
        parts.put("npx + CDK CLI + runner until the JVM", s -> s.step("jvm") - s.launch());
        parts.put("JVM start until main()", s -> s.step("main") - s.step("jvm"));
        parts.put("jsii runtime start (node)", s -> s.step("jsii") - s.step("main"));
        parts.put("load aws-cdk-lib (jsii)", s -> s.step("load") - s.step("jsii"));
        parts.put("new App(), new Stack()", s -> s.step("stack") - s.step("load"));
        parts.put("constructs (Java + jsii + node)", s -> s.step(s.lastConstruct()) - s.step("stack"));
        parts.put("  of which asset staging (node)", s -> s.counter("FileSystem.fingerprint")
                + s.counter("fs.copyFileSync") + s.counter("FileSystem.copyDirectory"));
        parts.put("app.synth()", s -> s.step("synth") - s.step(s.lastConstruct()));
        parts.put("  validation engine + report", s -> s.counter("validateTemplates")
                - s.counter("CloudFormationValidate.validate"));
        parts.put("  template validation", s -> s.counter("CloudFormationValidate.validate"));
        parts.put("  other synthesis", s -> s.counter("phase:Synthesis") - s.counter("validateTemplates"));
        parts.put("JVM exit + CDK CLI until done", s -> s.end() - s.step("synth"));
        parts.put("total", Sample::wallMillis);
        System.out.printf(Locale.ROOT, "%-38s", "split, runner [" + runner + "] (medians, s)");
        names.forEach(n -> System.out.printf(Locale.ROOT, " %19s", n.replace(" [" + runner + "]", "")));
        System.out.println();
        parts.forEach((part, f) -> {
            System.out.printf(Locale.ROOT, "  %-36s", part);
            names.forEach(n -> System.out.printf(Locale.ROOT, " %19.2f", median(samples.get(n), f) / 1e3));
            System.out.println();
        });
        Map<String, ToLongFunction<Sample>> jvm = new LinkedHashMap<>();
        jvm.put("JVM: classes loaded", s -> s.steps().get("synth")[1]);
        jvm.put("JVM: JIT ms", s -> s.steps().get("synth")[2]);
        jvm.put("JVM: GC ms", s -> s.steps().get("synth")[3]);
        jvm.put("JVM: CPU ms", s -> s.steps().get("synth")[4]);
        jvm.forEach((part, f) -> {
            System.out.printf(Locale.ROOT, "  %-36s", part);
            names.forEach(n -> System.out.printf(Locale.ROOT, " %19.0f", median(samples.get(n), f)));
            System.out.println();
        });
        System.out.println();
    }

    /**
     * Per construct of the quickstart, then {@code app.synth()} (kernel calls there come from Java callbacks, e.g. a
     * {@code Lazy} value): wall ms, JVM CPU ms and classes (medians), kernel calls.
     */
    private static void printConstructs(List<Sample> samples, Counts counts) {
        System.out.printf(Locale.ROOT, "%-26s %8s %8s %8s %7s %7s %7s %7s%n", "quickstart step", "wall ms",
                "JVM cpu", "classes", "create", "invoke", "get/set", "naming");
        String previous = "stack";
        List<String> steps = new ArrayList<>(CONSTRUCTS);
        steps.add("synth");
        for (String step : steps) {
            String from = previous;
            Map<String, Integer> calls = counts.calls().getOrDefault(step, Map.of());
            System.out.printf(Locale.ROOT, "%-26s %8.0f %8.0f %8.0f %7d %7d %7d %7d%n", step,
                    median(samples, s -> s.step(step) - s.step(from)),
                    median(samples, s -> s.steps().get(step)[4] - s.steps().get(from)[4]),
                    median(samples, s -> s.steps().get(step)[1] - s.steps().get(from)[1]),
                    calls.getOrDefault("create", 0), calls.getOrDefault("invoke", 0)
                            + calls.getOrDefault("sinvoke", 0),
                    calls.getOrDefault("get", 0) + calls.getOrDefault("sget", 0) + calls.getOrDefault("set", 0)
                            + calls.getOrDefault("sset", 0), calls.getOrDefault("naming", 0));
            previous = step;
        }
        System.out.println();
    }

    /** Kernel calls of each variant by api, summed over its steps. */
    private static void printCalls(Map<String, Counts> counts) {
        System.out.printf(Locale.ROOT, "%-26s %s%n", "jsii kernel calls", "(one JSII_DEBUG=1 run; by api)");
        counts.forEach((variant, c) -> {
            Map<String, Integer> total = new TreeMap<>();
            c.calls().values().forEach(m -> m.forEach((api, n) -> total.merge(api, n, Integer::sum)));
            System.out.printf(Locale.ROOT, "%-26s %5d  %s%n", variant,
                    total.values().stream().mapToInt(Integer::intValue).sum(), total);
        });
        System.out.println();
    }

    /** aws-cdk-lib module files node loads, by submodule. */
    private static void printModules(Map<String, Counts> counts) {
        System.out.printf(Locale.ROOT, "%-26s %s%n", "aws-cdk-lib files loaded", "(one NODE_DEBUG=module run; by submodule)");
        counts.forEach((variant, c) -> {
            List<Map.Entry<String, Integer>> sorted = new ArrayList<>(c.modules().entrySet());
            sorted.sort(Map.Entry.<String, Integer>comparingByValue().reversed());
            System.out.printf(Locale.ROOT, "%-26s %5d  %s%n", variant,
                    sorted.stream().mapToInt(Map.Entry::getValue).sum(), sorted);
        });
        System.out.println();
    }

    private static double median(List<Sample> samples, ToLongFunction<Sample> f) {
        return Stats.median(samples.stream().map(f::applyAsLong).toList());
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
