package io.github.trainingdata.cdk.benchmark;

import io.github.trainingdata.examples.QuickstartStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;
import software.amazon.jsii.JsiiEngine;

/**
 * The app the cold-synth benchmark ({@link ColdSynthBenchmark}) runs through the CDK CLI and cdk.json's
 * runner, one variant per process: {@code empty} (an empty stack), {@code quickstart} (the example's own
 * {@link QuickstartStack}, profiled), {@code data-ours} and {@code data-plain} (the quickstart's data layer with
 * our constructs and with plain aws-cdk-lib, from {@link BenchmarkStacks}).
 *
 * <p>With env {@value #MARKS_ENV} set to a file, it writes one line per phase there: the phase's name, the wall
 * clock (epoch ms), the JVM's loaded-class count, JIT, GC and CPU milliseconds so far. Phases: {@code jvm} (the
 * JVM's start), {@code main}, {@code jsii} (the jsii runtime started: node and its kernel), {@code load}
 * (aws-cdk-lib's jsii assembly loaded), {@code app} ({@code new App()}), {@code constructs} (the stack built),
 * {@code synth} ({@code app.synth()} done). The quickstart variant is profiled from outside by a
 * {@link StackSampler} (the example is not copied, so it cannot drift): its lines follow, one per construct of the
 * stack and place the time went ({@link StackSampler#step} and {@link StackSampler#place}).
 */
public final class ColdSynthApp {
    /** The environment variable naming the file the phases are written to. */
    static final String MARKS_ENV = "COLD_SYNTH_MARKS";
    /** The stack's name in every variant (the quickstart's, so its template can be compared with QuickstartApp's). */
    static final String STACK = "TrainingDataQuickstart";

    private final Path marks;
    private final List<String> lines = new ArrayList<>();

    private ColdSynthApp(Path marks) {
        this.marks = marks;
    }

    /** Synthesizes the variant named by {@code args[0]} (default {@code empty}) into the CLI's output directory. */
    public static void main(String[] args) throws InterruptedException {
        String variant = args.length > 0 ? args[0] : "empty";
        String marksFile = System.getenv(MARKS_ENV);
        ColdSynthApp run = new ColdSynthApp(marksFile == null ? null : Path.of(marksFile));
        run.mark("jvm", ManagementFactory.getRuntimeMXBean().getStartTime());
        run.mark("main");
        JsiiEngine.getInstance().getClient();
        run.mark("jsii");
        JsiiEngine.getInstance().loadModule(software.amazon.awscdk.$Module.class);
        run.mark("load");
        App app = new App();
        run.mark("app");
        StackSampler sampler = "quickstart".equals(variant) ? StackSampler.start(Thread.currentThread()) : null;
        switch (variant) {
            case "empty" -> new Stack(app, STACK);
            case "quickstart" -> new QuickstartStack(app, STACK);
            case "data-ours" -> BenchmarkStacks.ours(new Stack(app, STACK));
            case "data-plain" -> BenchmarkStacks.plain(new Stack(app, STACK));
            default -> throw new IllegalArgumentException("unknown variant '" + variant
                    + "': empty, quickstart, data-ours or data-plain");
        }
        run.mark("constructs");
        app.synth();
        run.mark("synth");
        if (sampler != null) {
            run.lines.addAll(sampler.stop());
        }
        run.flush();
    }

    private void mark(String phase) {
        mark(phase, System.currentTimeMillis());
    }

    private void mark(String phase, long epochMillis) {
        long gcMillis = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionTime).sum();
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        lines.add(String.format(Locale.ROOT, "%s %d %d %d %d %d", phase, epochMillis,
                ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount(),
                jit == null ? 0 : jit.getTotalCompilationTime(), gcMillis, StackSampler.cpuMillis()));
    }

    private void flush() {
        if (marks == null) {
            return;
        }
        try {
            Files.write(marks, lines);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + marks, e);
        }
    }

    /** @return the lines of a marks file, in order, by their first field; the numbers that follow it */
    static Map<String, long[]> read(Path file) throws IOException {
        Map<String, long[]> steps = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            String[] f = line.split(" ");
            long[] values = new long[f.length - 1];
            for (int i = 1; i < f.length; i++) {
                values[i - 1] = Long.parseLong(f[i]);
            }
            steps.put(f[0], values);
        }
        return steps;
    }
}
