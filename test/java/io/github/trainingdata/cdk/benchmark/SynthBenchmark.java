package io.github.trainingdata.cdk.benchmark;

import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.examples.QuickstartStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;

/**
 * Synth-time benchmark (a benchmark, not a test: it never fails the build). In one JVM, alternating the
 * order every round, it synthesizes the quickstart's data layer written with our constructs and with
 * plain aws-cdk-lib constructs, and 1, 10 and 40 training-job definitions sharing one data layer.
 *
 * <p>Each round synthesizes the ours/plain pair {@value #DATA_LAYER_REPEATS} times, then each definition
 * count once; odd rounds run that order reversed. Each sample is a new {@link App} with cdk.json's context
 * (as tests use), timed with {@link System#nanoTime()}: <em>build</em> is constructing the stack's
 * constructs, <em>synth</em> is {@code app.synth()}; the figures use their sum, since a user's synth pays
 * both (the table shows the parts too). It prints a table, then, last, {@code synth-overhead-ratio: R}
 * (median ours / median plain) and {@code per-definition-ms: M} (least-squares slope of the median time
 * over the definition counts). Before the table it prints, once, the resources by type of the quickstart (the
 * example's {@link QuickstartStack}) next to the data layer in plain aws-cdk-lib, the machinery among them (Lambda
 * functions, IAM roles and policies, log groups, state machines), and what each added definition adds: by type,
 * and in template bytes as aws-cdk-lib writes them and compact ({@code suppressTemplateIndentation}), with how many
 * definitions fit under CloudFormation's 500 resources and 1,000,000 template bytes.
 *
 * <p>Run: {@code mvn -B -q -Pbenchmark verify}; other round counts: {@code -Dexec.args="warmup measured"}.
 */
public final class SynthBenchmark {
    static final String OURS = "data layer: ours";
    static final String PLAIN = "data layer: plain";
    /**
     * Up to 40 again: each definition's teardown permissions are its own role's, so the stack provider's one role no
     * longer grows with definitions ({@code CUSTOM_RESOURCE_GRANTS_SIZE} no longer counts them); see the
     * per-definition figures printed.
     */
    static final int[] DEFINITION_COUNTS = {1, 10, 40};
    /** The goals for the quickstart's resources and functions, and a definition's resources; informational only. */
    static final int QUICKSTART_GOAL = 80;
    static final int QUICKSTART_FUNCTIONS_GOAL = 6;
    static final int PER_DEFINITION_GOAL = 5;
    /** CloudFormation's resources per stack. */
    static final int STACK_LIMIT = 500;
    /** CloudFormation's template body limit (bytes, a template in S3), which aws-cdk-lib warns about at synth. */
    static final long TEMPLATE_LIMIT = 1_000_000;
    /** The goal for the ratio; informational only. */
    static final double RATIO_GOAL = 1.10;
    /** The data-layer pair is cheap (tens of ms) and its samples are noisy: synthesize it this often per round. */
    static final int DATA_LAYER_REPEATS = 10;

    private SynthBenchmark() {
    }

    /** One synthesized case: its name, its number of training definitions (0: a data layer alone), what it builds. */
    record Case(String name, int definitions, Consumer<Stack> build) {
    }

    /** One timed synth. */
    record Sample(long buildNanos, long synthNanos, int resources, Map<String, Integer> types, long templateBytes,
            long compactTemplateBytes) {
        long totalNanos() {
            return buildNanos + synthNanos;
        }
    }

    /** Runs the benchmark and prints the table and the two figures. */
    public static void main(String[] args) {
        int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        int measured = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        List<Case> cases = new ArrayList<>(List.of(
                new Case(OURS, 0, BenchmarkStacks::ours),
                new Case(PLAIN, 0, BenchmarkStacks::plain)));
        for (int n : DEFINITION_COUNTS) {
            cases.add(new Case(n + (n == 1 ? " definition" : " definitions"), n,
                    stack -> BenchmarkStacks.definitions(stack, n)));
        }

        Map<String, List<Sample>> samples = new LinkedHashMap<>();
        cases.forEach(c -> samples.put(c.name(), new ArrayList<>()));
        long start = System.nanoTime();
        for (int round = 0; round < warmup + measured; round++) {
            long roundStart = System.nanoTime();
            List<Case> order = new ArrayList<>();
            for (int r = 0; r < DATA_LAYER_REPEATS; r++) {
                order.addAll(cases.subList(0, 2));
            }
            order.addAll(cases.subList(2, cases.size()));
            if (round % 2 == 1) {
                Collections.reverse(order);
            }
            for (Case c : order) {
                Sample s = synth(c);
                if (round >= warmup) {
                    samples.get(c.name()).add(s);
                }
            }
            System.out.printf(Locale.ROOT, "round %d/%d (%s): %.1f s%n", round + 1, warmup + measured,
                    round < warmup ? "warm-up" : "measured", (System.nanoTime() - roundStart) / 1e9);
        }
        System.out.printf(Locale.ROOT, "%d warm-up + %d measured rounds in %.1f s; %d CPUs, load average %.1f "
                + "(timings are only as quiet as the machine)%n%n", warmup, measured,
                (System.nanoTime() - start) / 1e9, Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());

        printResourceComparison(samples.get(OURS).get(0), samples.get(PLAIN).get(0));
        printQuickstart(quickstartTypes(), samples.get(PLAIN).get(0));
        printPerDefinition(samples.get(cases.get(2).name()).get(0), samples.get(cases.get(3).name()).get(0),
                DEFINITION_COUNTS[1] - DEFINITION_COUNTS[0]);
        printTable(samples);

        double ratio = Stats.median(totals(samples.get(OURS))) / Stats.median(totals(samples.get(PLAIN)));
        List<Case> definitionCases = cases.stream().filter(c -> c.definitions() > 0).toList();
        double[] x = definitionCases.stream().mapToDouble(Case::definitions).toArray();
        double[] y = definitionCases.stream().mapToDouble(c -> Stats.median(totals(samples.get(c.name()))) / 1e6)
                .toArray();
        System.out.printf(Locale.ROOT, "(goal: ratio <= %.2f, %s; ratio of the parts: build %.2f, app.synth() %.2f)%n",
                RATIO_GOAL, ratio <= RATIO_GOAL ? "met" : "NOT met", partRatio(samples, Sample::buildNanos),
                partRatio(samples, Sample::synthNanos));
        System.out.printf(Locale.ROOT, "synth-overhead-ratio: %.2f%n", ratio);
        System.out.printf(Locale.ROOT, "per-definition-ms: %.1f%n", Stats.slope(x, y));
    }

    private static Sample synth(Case c) {
        System.gc();
        long t0 = System.nanoTime();
        App app = TestApps.app();
        Stack stack = new Stack(app, "Bench");
        c.build().accept(stack);
        long t1 = System.nanoTime();
        var assembly = app.synth();
        long t2 = System.nanoTime();
        var bench = assembly.getStackByName("Bench");
        Object template = bench.getTemplate();
        Map<String, Integer> types = resourceTypes(template);
        long templateBytes;
        long compactBytes;
        try {
            templateBytes = Files.size(Path.of(bench.getTemplateFullPath()));
            compactBytes = Json.MAPPER.writeValueAsBytes(template).length;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        deleteTree(Path.of(assembly.getDirectory()));
        int count = types.values().stream().mapToInt(Integer::intValue).sum();
        return new Sample(t1 - t0, t2 - t1, count, types, templateBytes, compactBytes);
    }

    /** The example quickstart's resources by type, synthesized once. */
    private static Map<String, Integer> quickstartTypes() {
        App app = TestApps.app();
        new QuickstartStack(app, "Quickstart");
        var assembly = app.synth();
        Map<String, Integer> types = resourceTypes(assembly.getStackByName("Quickstart").getTemplate());
        deleteTree(Path.of(assembly.getDirectory()));
        return types;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Integer> resourceTypes(Object template) {
        Map<String, Object> resources = (Map<String, Object>) ((Map<String, Object>) template).get("Resources");
        Map<String, Integer> types = new TreeMap<>();
        resources.values().forEach(r -> types.merge((String) ((Map<String, Object>) r).get("Type"), 1,
                Integer::sum));
        return types;
    }

    private static double partRatio(Map<String, List<Sample>> samples, ToLongFunction<Sample> part) {
        return Stats.median(samples.get(OURS).stream().map(part::applyAsLong).toList())
                / Stats.median(samples.get(PLAIN).stream().map(part::applyAsLong).toList());
    }

    private static List<Long> totals(List<Sample> samples) {
        return samples.stream().map(Sample::totalNanos).toList();
    }

    private static void printResourceComparison(Sample ours, Sample plain) {
        System.out.printf(Locale.ROOT, "Resources of the data layer: ours %d, plain %d%n", ours.resources(),
                plain.resources());
        System.out.printf(Locale.ROOT, "  %-42s %5s %6s%n", "type", "ours", "plain");
        TreeSet<String> types = new TreeSet<>(ours.types().keySet());
        types.addAll(plain.types().keySet());
        for (String t : types) {
            System.out.printf(Locale.ROOT, "  %-42s %5d %6d%n", t, ours.types().getOrDefault(t, 0),
                    plain.types().getOrDefault(t, 0));
        }
        System.out.println();
    }

    private static void printQuickstart(Map<String, Integer> quickstart, Sample plain) {
        int total = quickstart.values().stream().mapToInt(Integer::intValue).sum();
        System.out.printf(Locale.ROOT, "Resources of the quickstart (data layer, preload, one definition, dashboard): "
                + "%d (goal <= %d); the data layer in plain aws-cdk-lib: %d%n", total, QUICKSTART_GOAL,
                plain.resources());
        System.out.printf(Locale.ROOT, "  %-42s %10s %6s%n", "type", "quickstart", "plain");
        TreeSet<String> types = new TreeSet<>(quickstart.keySet());
        types.addAll(plain.types().keySet());
        for (String t : types) {
            System.out.printf(Locale.ROOT, "  %-42s %10d %6d%n", t, quickstart.getOrDefault(t, 0),
                    plain.types().getOrDefault(t, 0));
        }
        System.out.printf(Locale.ROOT, "machinery of the quickstart: %d Lambda functions (goal <= %d), %d roles, "
                + "%d policies, %d log groups, %d state machines%n%n",
                quickstart.getOrDefault("AWS::Lambda::Function", 0), QUICKSTART_FUNCTIONS_GOAL,
                quickstart.getOrDefault("AWS::IAM::Role", 0), quickstart.getOrDefault("AWS::IAM::Policy", 0),
                quickstart.getOrDefault("AWS::Logs::LogGroup", 0),
                quickstart.getOrDefault("AWS::StepFunctions::StateMachine", 0));
    }

    /** What each definition adds: the difference of two definition counts' templates, by type, per definition. */
    private static void printPerDefinition(Sample fewer, Sample more, int added) {
        TreeSet<String> types = new TreeSet<>(more.types().keySet());
        types.addAll(fewer.types().keySet());
        StringBuilder byType = new StringBuilder();
        for (String t : types) {
            int delta = more.types().getOrDefault(t, 0) - fewer.types().getOrDefault(t, 0);
            if (delta != 0) {
                byType.append(String.format(Locale.ROOT, "  %-42s %5.1f%n", t, (double) delta / added));
            }
        }
        double perDefinition = (double) (more.resources() - fewer.resources()) / added;
        System.out.printf(Locale.ROOT, "resources per added definition: %.1f (goal <= %d; %d definitions fit in "
                + "a stack of %d beside the data layer)%n%s", perDefinition, PER_DEFINITION_GOAL,
                (int) ((STACK_LIMIT - (fewer.resources() - perDefinition)) / perDefinition), STACK_LIMIT, byType);
        double bytes = (double) (more.templateBytes() - fewer.templateBytes()) / added;
        double compact = (double) (more.compactTemplateBytes() - fewer.compactTemplateBytes()) / added;
        System.out.printf(Locale.ROOT, "template bytes per added definition: %.0f as aws-cdk-lib writes it (%d "
                + "definitions fit in %,d bytes beside the data layer), %.0f with suppressTemplateIndentation (%d)%n%n",
                bytes, (int) ((TEMPLATE_LIMIT - (fewer.templateBytes() - bytes)) / bytes), TEMPLATE_LIMIT, compact,
                (int) ((TEMPLATE_LIMIT - (fewer.compactTemplateBytes() - compact)) / compact));
    }

    private static void printTable(Map<String, List<Sample>> samples) {
        System.out.printf(Locale.ROOT, "%-20s %9s %14s %14s %14s %14s%n", "case", "resources", "total median",
                "total min", "build median", "synth median");
        String row = "%-20s %9d %11.0f ms %11.0f ms %11.0f ms %11.0f ms%n";
        samples.forEach((name, list) -> System.out.printf(Locale.ROOT, row, name, list.get(0).resources(),
                Stats.median(totals(list)) / 1e6,
                list.stream().mapToLong(Sample::totalNanos).min().orElse(0) / 1e6,
                Stats.median(list.stream().map(Sample::buildNanos).toList()) / 1e6,
                Stats.median(list.stream().map(Sample::synthNanos).toList()) / 1e6));
        System.out.println();
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the cloud assembly " + dir, e);
        }
    }
}
