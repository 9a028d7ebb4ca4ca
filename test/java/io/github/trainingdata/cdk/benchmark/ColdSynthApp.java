package io.github.trainingdata.cdk.benchmark;

import io.github.trainingdata.cdk.monitoring.TrainingDataDashboard;
import io.github.trainingdata.cdk.monitoring.TrainingDataDashboardProps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.preload.LustrePreload;
import io.github.trainingdata.cdk.preload.LustrePreloadProps;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.EfsStoreProps;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import io.github.trainingdata.cdk.training.EfsChannel;
import io.github.trainingdata.cdk.training.ChannelInputMode;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.S3Channel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
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
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.ecr.Repository;
import software.amazon.awscdk.services.efs.PerformanceMode;
import software.amazon.awscdk.services.efs.ThroughputMode;
import software.amazon.jsii.JsiiEngine;

/**
 * The app the cold-synth benchmark ({@link ColdSynthBenchmark}) runs through the CDK CLI and cdk.json's
 * runner, one variant per process: {@code empty} (an empty stack), {@code quickstart} (the quickstart
 * stack, built step by step), {@code data-ours} and {@code data-plain} (the quickstart's data layer with
 * our constructs and with plain aws-cdk-lib, from {@link BenchmarkStacks}).
 *
 * <p>With env {@value #MARKS_ENV} set to a file, it writes one line per step there: the step's name, the wall
 * clock (epoch ms), the JVM's loaded-class count, JIT, GC and CPU milliseconds so far. Steps: {@code jvm} (the
 * JVM's start), {@code main}, {@code jsii} (the jsii runtime started: node and its kernel), {@code load}
 * (aws-cdk-lib's jsii assembly loaded), {@code app}, {@code stack}, one per construct of the stack (or
 * {@code constructs}), {@code synth}. With {@code JSII_DEBUG} set, the end of each step from {@code load} on is
 * also marked by a kernel call with the argument {@value #STEP_MARKER}{@code NAME}, so jsii's debug log of
 * kernel calls can be split by step.
 */
public final class ColdSynthApp {
    /** The environment variable naming the file the steps are appended to. */
    static final String MARKS_ENV = "COLD_SYNTH_MARKS";
    /** The prefix of the kernel call that marks a step's end in jsii's debug log (only with JSII_DEBUG). */
    static final String STEP_MARKER = "cold-synth-step:";
    /** The stack's name in every variant (the quickstart's, so its template can be compared with QuickstartApp's). */
    static final String STACK = "TrainingDataQuickstart";

    private final Path marks;
    private final boolean debug;
    private final List<String> lines = new ArrayList<>();

    private ColdSynthApp(Path marks, boolean debug) {
        this.marks = marks;
        this.debug = debug;
    }

    /** Synthesizes the variant named by {@code args[0]} (default {@code empty}) into the CLI's output directory. */
    public static void main(String[] args) {
        String variant = args.length > 0 ? args[0] : "empty";
        String marksFile = System.getenv(MARKS_ENV);
        String jsiiDebug = System.getenv("JSII_DEBUG");
        ColdSynthApp run = new ColdSynthApp(marksFile == null ? null : Path.of(marksFile),
                jsiiDebug != null && !jsiiDebug.isEmpty() && !"0".equals(jsiiDebug) && !"false".equals(jsiiDebug));
        run.mark("jvm", ManagementFactory.getRuntimeMXBean().getStartTime());
        run.mark("main");
        JsiiEngine.getInstance().getClient();
        run.mark("jsii");
        JsiiEngine.getInstance().loadModule(software.amazon.awscdk.$Module.class);
        run.mark("load");
        App app = new App();
        run.mark("app");
        Stack stack = new Stack(app, STACK);
        run.mark("stack");
        switch (variant) {
            case "empty" -> { }
            case "quickstart" -> run.quickstart(stack);
            case "data-ours" -> BenchmarkStacks.ours(stack);
            case "data-plain" -> BenchmarkStacks.plain(stack);
            default -> throw new IllegalArgumentException("unknown variant '" + variant
                    + "': empty, quickstart, data-ours or data-plain");
        }
        if (!"quickstart".equals(variant)) {
            run.mark("constructs");
        }
        app.synth();
        run.mark("synth");
        run.flush();
    }

    /**
     * The body of {@code QuickstartStack}'s constructor, one step per construct (the benchmark checks that
     * the template is the same as QuickstartApp's).
     */
    private void quickstart(Stack stack) {
        TrainingNetwork network = new TrainingNetwork(stack, "Network");
        mark("TrainingNetwork");
        TrainingDataBucket dataBucket = new TrainingDataBucket(stack, "DataBucket", TrainingDataBucketProps.builder()
                .datasetPrefix("datasets/imagenet")
                .build());
        mark("TrainingDataBucket");
        LustreCache lustre = new LustreCache(stack, "Lustre", LustreCacheProps.builder()
                .network(network)
                .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(dataBucket).build()))
                .storageCapacityGiB(1200)
                .build());
        mark("LustreCache");
        EfsStore efs = new EfsStore(stack, "Efs", EfsStoreProps.builder()
                .network(network)
                .performanceMode(PerformanceMode.GENERAL_PURPOSE)
                .throughputMode(ThroughputMode.ELASTIC)
                .build());
        mark("EfsStore");
        TrainingJobDefinition training = new TrainingJobDefinition(stack, "Training",
                TrainingJobDefinitionProps.builder()
                        .jobNamePrefix("quickstart")
                        .trainingImage(TrainingImage.fromEcrRepository(
                                Repository.fromRepositoryName(stack, "ImageRepository", "training"), "latest"))
                        .instanceType("ml.p3.2xlarge")
                        .volumeSizeGiB(100)
                        .maxRuntime(Duration.hours(8))
                        .outputBucket(dataBucket)
                        .checkpointPrefix("checkpoints/quickstart")
                        .channels(List.of(
                                LustreChannel.builder("train").cache(lustre).dataset("imagenet").path("train").build(),
                                S3Channel.builder("validation").dataBucket(dataBucket).path("validation")
                                        .inputMode(ChannelInputMode.FAST_FILE).build(),
                                EfsChannel.builder("features").store(efs).directoryPath("/features").build()))
                        .hyperParameters(Map.of("epochs", "10", "batch-size", "256"))
                        .build());
        mark("TrainingJobDefinition");
        LustrePreload preload = new LustrePreload(stack, "Preload", LustrePreloadProps.builder()
                .cache(lustre)
                .definition(training)
                .build());
        mark("LustrePreload");
        new TrainingDataDashboard(stack, "Dashboard", TrainingDataDashboardProps.builder()
                .lustreCaches(List.of(lustre))
                .efsStores(List.of(efs))
                .preloads(List.of(preload))
                .definitions(List.of(training))
                .build());
        mark("TrainingDataDashboard");
    }

    private void mark(String step) {
        mark(step, System.currentTimeMillis());
    }

    private void mark(String step, long epochMillis) {
        if (debug && !List.of("jvm", "main", "jsii").contains(step)) {
            // A kernel call carrying the step's name: jsii's debug log of kernel calls then shows where each step
            // ends, in the same stream (stderr lines printed from Java may overtake it).
            Token.isUnresolved(STEP_MARKER + step);
        }
        long gcMillis = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionTime).sum();
        long cpuMillis = ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() / 1_000_000 : -1;
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        lines.add(String.format(Locale.ROOT, "%s %d %d %d %d %d", step, epochMillis,
                ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount(),
                jit == null ? 0 : jit.getTotalCompilationTime(), gcMillis, cpuMillis));
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

    /** @return the steps of a marks file, in order, by name: epoch ms, classes, JIT ms, GC ms, JVM CPU ms */
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
