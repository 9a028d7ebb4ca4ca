package io.github.trainingdata.cdk.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.function.BiConsumer;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Cold-synth benchmark (a benchmark, not a test: it never fails the build on timing): the README's synth, one
 * new process tree per sample ({@code npx -y aws-cdk@2.1148.1 synth}: the CLI, cdk.json's runner, a JVM, jsii's
 * node), for the quickstart as README runs it and for {@link ColdSynthApp}'s variants through the same runner:
 * an empty stack, the example's own {@code QuickstartStack} profiled by {@link StackSampler}, and the quickstart's
 * data layer with our constructs and with plain aws-cdk-lib. Variants alternate (one round forwards, the next
 * backwards) after one warm-up round.
 *
 * <p>It prints the wall time of each variant (median, min, max), the split of the instrumented variants
 * (process start-up, jsii start, aws-cdk-lib load, constructs, {@code app.synth()} with aws-cdk-lib's own
 * performance counters: template validation and asset staging, exit), the JVM's classes, JIT, GC and CPU, the
 * quickstart's profile (per construct and for {@code app.synth()}: wall time by place (node, jsii's Java side,
 * class loading, our Java), JVM CPU, classes and jsii kernel calls), then the whole difference between the
 * quickstart and the empty stack by part, and the aws-cdk-lib modules node loads (kernel calls and modules from
 * one extra run per variant with {@code JSII_DEBUG=1 JSII_HOST_STACK_TRACES=1 NODE_DEBUG=module}). Last:
 * {@code cold-synth-ratio: R} (median quickstart / median empty stack, README runner) and
 * {@code cold-data-layer-ratio: R} (median ours / median plain) and {@code cold-data-layer-paired-ratio: R (IQR A-B,
 * N rounds)} (the median of each round's ours / plain, {@link #pairedRatios}, with its interquartile range).
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
    static final String PROFILED = "quickstart (profiled)";
    static final String OURS = "data layer: ours";
    static final String PLAIN = "data layer: plain";
    static final List<Variant> VARIANTS = List.of(new Variant(QUICKSTART, null), new Variant(EMPTY, "empty"),
            new Variant(PROFILED, "quickstart"), new Variant(OURS, "data-ours"), new Variant(PLAIN, "data-plain"));
    private static final Path WORK = Path.of("target", "cold-synth");
    private static final ObjectMapper JSON = Json.MAPPER;
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

        /** @return the profile's charge of {@code step} (all places when {@code place} is null): index 0-2 */
        long charge(String step, String place, int index) {
            return steps.entrySet().stream().filter(e -> e.getKey().equals(step + "/" + place)
                    || place == null && e.getKey().startsWith(step + "/")).mapToLong(e -> e.getValue()[index]).sum();
        }
    }

    /** Kernel calls per step (by api) and aws-cdk-lib module files per submodule, from one JSII_DEBUG run. */
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
                .equals(samples.get(key(runners, 0, PROFILED)).get(0).templateDigest());
        System.out.println(same ? "quickstart (profiled) synthesizes the same template as QuickstartApp"
                : "NOTE: quickstart (profiled) differs from QuickstartApp's template: the profile changed the output");
        System.out.println();
        printTotals(samples);
        for (int r = 0; r < runners.size(); r++) {
            printSplit(runners, r, samples);
        }
        printProfile(samples.get(key(runners, 0, PROFILED)), counts.get(PROFILED));
        printDifference(samples, key(runners, 0, QUICKSTART), key(runners, 0, EMPTY), key(runners, 0, PROFILED));
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
        List<Double> paired = pairedRatios(samples.get(key(runners, 0, OURS)), samples.get(key(runners, 0, PLAIN)));
        System.out.printf(Locale.ROOT, "cold-data-layer-paired-ratio: %.2f (IQR %.2f-%.2f, %d rounds)%n",
                Stats.quantile(paired, 0.5), Stats.quantile(paired, 0.25), Stats.quantile(paired, 0.75),
                paired.size());
    }

    /**
     * The data layer's ratio round by round: each round's ours over the plain synth run right next to it (the two
     * variants are neighbours in both directions of a round), so that load drifting between rounds, which moves both
     * synths of a round alike, cancels out of each ratio instead of moving the ratio of the two medians.
     *
     * @return wall time of ours / plain, one per measured round, in round order
     */
    static List<Double> pairedRatios(List<Sample> ours, List<Sample> plain) {
        List<Double> ratios = new ArrayList<>();
        for (int round = 0; round < ours.size(); round++) {
            ratios.add((double) ours.get(round).wallMillis() / plain.get(round).wallMillis());
        }
        return ratios;
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

    /**
     * One untimed run with jsii's and node's module debugging: kernel calls per step (named by
     * {@link StackSampler#step} from the host frames jsii sends with each call; a callback counts in the step of
     * the call before it), module files loaded.
     */
    private static Counts count(Runner runner, Variant variant) throws IOException, InterruptedException {
        String tag = "count";
        synth(runner, variant, tag, Map.of("JSII_DEBUG", "1", "JSII_HOST_STACK_TRACES", "1",
                "NODE_DEBUG", "module"), true);
        Map<String, Map<String, Integer>> calls = new LinkedHashMap<>();
        Map<String, Integer> modules = new TreeMap<>();
        String step = "other";
        Path dir = WORK.resolve(tag + "-" + variant.appArgument());
        try (Stream<String> lines = Files.lines(dir.resolve("stderr.txt"), StandardCharsets.UTF_8)) {
            for (String line : (Iterable<String>) lines::iterator) {
                Matcher module = MODULE.matcher(line);
                if (line.startsWith("> {")) {
                    JsonNode request = JSON.readTree(line.substring(2));
                    List<String> methods = new ArrayList<>();
                    request.path("$jsii.stacktrace").forEach(frame -> methods.add(frame.path(3).asText()));
                    step = StackSampler.step(methods);
                    String api = request.has("api") ? request.get("api").asText()
                            : request.has("complete") ? "complete" : request.has("fqn") ? "create" : "other";
                    calls.computeIfAbsent(step, k -> new TreeMap<>()).merge(api, 1, Integer::sum);
                } else if (line.startsWith("< {\"callback\"")) {
                    calls.computeIfAbsent(step, k -> new TreeMap<>()).merge("callback", 1, Integer::sum);
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
        parts.put("new App()", s -> s.step("app") - s.step("load"));
        parts.put("new Stack + constructs", s -> s.step("constructs") - s.step("app"));
        parts.put("  of which asset staging (node)", s -> s.counter("FileSystem.fingerprint")
                + s.counter("fs.copyFileSync") + s.counter("FileSystem.copyDirectory"));
        parts.put("app.synth()", s -> s.step("synth") - s.step("constructs"));
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
     * The quickstart's profile ({@link StackSampler}), one row per step of {@code QuickstartStack}'s constructor
     * (the constructs in the order they were first sampled), their sum, then {@code app.synth()}: wall ms in all
     * and by place, JVM CPU ms and classes (medians), and the step's jsii kernel calls.
     */
    private static void printProfile(List<Sample> samples, Counts counts) {
        List<String> steps = new ArrayList<>();
        samples.forEach(s -> s.steps().keySet().stream().filter(k -> k.contains("/"))
                .map(k -> k.substring(0, k.indexOf('/'))).filter(k -> !steps.contains(k)).forEach(steps::add));
        steps.removeAll(List.of(StackSampler.SYNTH, "other"));
        System.out.printf(Locale.ROOT, "%-26s %7s", "quickstart profile", "wall ms");
        StackSampler.PLACES.forEach(p -> System.out.printf(Locale.ROOT, " %13s", p));
        System.out.printf(Locale.ROOT, " %8s %7s %6s %6s %6s %7s %6s %8s%n", "JVM cpu", "classes", "calls", "create",
                "invoke", "get/set", "naming", "callback");
        for (String step : steps) {
            printProfileRow(step, samples, List.of(step), counts);
        }
        printProfileRow("QuickstartStack (sum)", samples, steps, counts);
        printProfileRow("app.synth()", samples, List.of(StackSampler.SYNTH), counts);
        System.out.printf(Locale.ROOT, "(sampled every %d µs from another thread; wall by place: node = waiting for "
                + "jsii's node (aws-cdk-lib's JavaScript, the pipe), jsii-java = jsii's Java side and aws-cdk-lib's "
                + "generated classes, our-java = our constructs' own code)%n%n", StackSampler.PERIOD_MICROS);
    }

    private static void printProfileRow(String name, List<Sample> samples, List<String> steps, Counts counts) {
        Map<String, Integer> calls = new TreeMap<>();
        steps.forEach(step -> counts.calls().getOrDefault(step, Map.of())
                .forEach((api, n) -> calls.merge(api, n, Integer::sum)));
        ToLongFunction<String> n = api -> calls.getOrDefault(api, 0);
        System.out.printf(Locale.ROOT, "%-26s %7.0f", name, median(samples, s -> charge(s, steps, null, 0)) / 1e3);
        StackSampler.PLACES.forEach(p -> System.out.printf(Locale.ROOT, " %13.0f",
                median(samples, s -> charge(s, steps, p, 0)) / 1e3));
        System.out.printf(Locale.ROOT, " %8.0f %7.0f %6d %6d %6d %7d %6d %8d%n",
                median(samples, s -> charge(s, steps, null, 1)) / 1e3, median(samples, s -> charge(s, steps, null, 2)),
                calls.values().stream().mapToInt(Integer::intValue).sum(), n.applyAsLong("create"),
                n.applyAsLong("invoke") + n.applyAsLong("sinvoke"), n.applyAsLong("get") + n.applyAsLong("sget")
                        + n.applyAsLong("set") + n.applyAsLong("sset"), n.applyAsLong("naming"),
                n.applyAsLong("callback"));
    }

    private static long charge(Sample s, List<String> steps, String place, int index) {
        return steps.stream().mapToLong(step -> s.charge(step, place, index)).sum();
    }

    /**
     * What the quickstart costs beyond the empty stack, by part: the README runs' difference (the ratio's), the
     * profiled run's difference per phase, and the phases the profile splits by place (ours, jsii, aws-cdk-lib).
     */
    private static void printDifference(Map<String, List<Sample>> samples, String quickstart, String empty,
            String profiled) {
        List<Sample> q = samples.get(profiled);
        List<Sample> e = samples.get(empty);
        List<String> constructor = new ArrayList<>();
        q.forEach(s -> s.steps().keySet().stream().filter(k -> k.contains("/"))
                .map(k -> k.substring(0, k.indexOf('/')))
                .filter(k -> !List.of(StackSampler.SYNTH, "other").contains(k) && !constructor.contains(k))
                .forEach(constructor::add));
        List<String> synth = List.of(StackSampler.SYNTH);
        List<String[]> rows = new ArrayList<>();
        BiConsumer<String, Double> row = (part, ms) -> rows.add(new String[] {part,
            String.format(Locale.ROOT, "%8.2f", ms / 1e3)});
        row.accept("total, README run (the ratio's)",
                median(samples.get(quickstart), Sample::wallMillis) - median(e, Sample::wallMillis));
        row.accept("total, profiled run (it pays its sampler too)",
                median(q, Sample::wallMillis) - median(e, Sample::wallMillis));
        row.accept("  start-up: CLI, runner, JVM, jsii, aws-cdk-lib, new App()", phaseDiff(q, e, "app"));
        row.accept("  new QuickstartStack (empty: new Stack)", phaseDiff(q, e, "constructs") - phaseDiff(q, e, "app"));
        row.accept("    our constructs' Java code (sampled)",
                median(q, s -> charge(s, constructor, "our-java", 0)) / 1e3);
        row.accept("    jsii's Java side and class loading (sampled)",
                median(q, s -> charge(s, constructor, "jsii-java", 0) + charge(s, constructor, "class-loading", 0)
                        + charge(s, constructor, "jdk", 0)) / 1e3);
        row.accept("    node: aws-cdk-lib's JavaScript, jsii's kernel (sampled)",
                median(q, s -> charge(s, constructor, "node", 0)) / 1e3);
        row.accept("  app.synth()", phaseDiff(q, e, "synth") - phaseDiff(q, e, "constructs"));
        row.accept("    of which template validation (aws-cdk-lib's counter)",
                median(q, s -> s.counter("CloudFormationValidate.validate"))
                        - median(e, s -> s.counter("CloudFormationValidate.validate")));
        row.accept("    our Java and jsii's Java side (sampled, quickstart only)", median(q, s -> charge(s, synth,
                "our-java", 0) + charge(s, synth, "jsii-java", 0) + charge(s, synth, "class-loading", 0)) / 1e3);
        row.accept("  JVM exit + CDK CLI until done",
                median(q, s -> s.end() - s.step("synth")) - median(e, s -> s.end() - s.step("synth")));
        System.out.printf(Locale.ROOT, "%-64s %8s%n", "quickstart - empty stack (differences of medians, s)", "s");
        rows.forEach(r -> System.out.printf(Locale.ROOT, "  %-62s %s%n", r[0], r[1]));
        System.out.println();
    }

    /** @return the difference of the medians of the time from launch to {@code phase}'s mark */
    private static double phaseDiff(List<Sample> q, List<Sample> e, String phase) {
        return median(q, s -> s.step(phase) - s.launch()) - median(e, s -> s.step(phase) - s.launch());
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
