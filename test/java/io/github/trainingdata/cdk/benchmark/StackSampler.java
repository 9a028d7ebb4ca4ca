package io.github.trainingdata.cdk.benchmark;

import io.github.trainingdata.examples.QuickstartStack;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import software.constructs.Construct;

/**
 * Profiles the quickstart from outside {@link QuickstartStack}: every {@value #PERIOD_MICROS} µs it takes the
 * app thread's stack and charges the wall time, JVM CPU time and classes loaded since the previous sample to a
 * <em>step</em> and a <em>place</em>. A step is the construct {@code QuickstartStack}'s constructor is creating
 * (the class whose constructor it called: {@code Stack} for its own super call, {@code TrainingDataBucket}, ...),
 * {@value #PROPS} for the rest of that constructor (props builders, lookups, acknowledgements), or {@code synth}.
 * A place is where the thread was: {@code node} (waiting for jsii's node: aws-cdk-lib's JavaScript and the pipe),
 * {@code jsii-java} (jsii's Java side and the generated aws-cdk-lib classes: marshalling, proxies),
 * {@code class-loading}, {@code our-java} (our constructs' own code) or {@code jdk}.
 *
 * <p>{@link #step} also names the step of a jsii kernel call from the host frames jsii sends with it
 * ({@code JSII_HOST_STACK_TRACES=1}), so the benchmark counts the kernel calls of each step exactly.
 */
final class StackSampler {
    /** Sampling period (every 2 ms, taking the deep stacks made the profiled run 1 s slower than the README run). */
    static final long PERIOD_MICROS = 10_000;
    /** The step of {@code QuickstartStack}'s constructor outside any construct's constructor. */
    static final String PROPS = "props-and-lookups";
    /** The step of {@code app.synth()}. */
    static final String SYNTH = "synth";
    /** The places, in the order the benchmark prints them. */
    static final List<String> PLACES = List.of("node", "jsii-java", "class-loading", "our-java", "jdk");
    private static final String STACK_INIT = QuickstartStack.class.getName() + ".<init>";
    private static final Map<String, Boolean> CONSTRUCTS = new ConcurrentHashMap<>();

    private final Thread target;
    private final Thread sampler;
    /** step/place: wall µs, CPU µs, classes; in the order first seen. */
    private final Map<String, long[]> charges = new LinkedHashMap<>();
    private volatile boolean running = true;

    private StackSampler(Thread target) {
        this.target = target;
        this.sampler = new Thread(this::run, "stack-sampler");
        sampler.setDaemon(true);
    }

    /** @return a running sampler of {@code target} */
    static StackSampler start(Thread target) {
        StackSampler s = new StackSampler(target);
        s.sampler.start();
        return s;
    }

    /** Stops sampling; @return one line per step and place: {@code step/place wallMicros cpuMicros classes} */
    List<String> stop() throws InterruptedException {
        running = false;
        sampler.join();
        List<String> lines = new ArrayList<>();
        charges.forEach((key, v) -> lines.add(String.format(Locale.ROOT, "%s %d %d %d", key, v[0], v[1], v[2])));
        return lines;
    }

    private void run() {
        long last = System.nanoTime();
        long lastCpu = cpuMicros();
        long lastClasses = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
        while (running) {
            LockSupport.parkNanos(PERIOD_MICROS * 1000);
            StackTraceElement[] frames = target.getStackTrace();
            long now = System.nanoTime();
            long cpu = cpuMicros();
            long classes = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
            List<String> methods = new ArrayList<>(frames.length);
            for (StackTraceElement f : frames) {
                methods.add(f.getClassName() + "." + f.getMethodName());
            }
            long[] charge = charges.computeIfAbsent(step(methods) + "/" + place(frames), k -> new long[3]);
            charge[0] += (now - last) / 1000;
            charge[1] += cpu - lastCpu;
            charge[2] += classes - lastClasses;
            last = now;
            lastCpu = cpu;
            lastClasses = classes;
        }
    }

    /**
     * @param methods a stack's frames as {@code class.method}, innermost first
     * @return the step: the construct {@code QuickstartStack}'s constructor is creating ({@code Stack} for its
     *     super call), {@value #PROPS}, {@value #SYNTH}, or {@code other}
     */
    static String step(List<String> methods) {
        int stack = methods.indexOf(STACK_INIT);
        if (stack > 0) {
            String callee = methods.get(stack - 1);
            if (callee.endsWith(".<init>")) {
                String type = callee.substring(0, callee.length() - ".<init>".length());
                if (CONSTRUCTS.computeIfAbsent(type, StackSampler::isConstruct)) {
                    return type.substring(type.lastIndexOf('.') + 1);
                }
            }
            return PROPS;
        }
        if (stack == 0) {
            return PROPS;
        }
        return methods.contains("software.amazon.awscdk.App.synth") ? SYNTH : "other";
    }

    /** @return where the innermost frames of a stack are: one of {@link #PLACES} */
    static String place(StackTraceElement[] frames) {
        for (StackTraceElement f : frames) {
            String type = f.getClassName();
            if (type.startsWith("java.") || type.startsWith("jdk.") || type.startsWith("sun.")) {
                if (type.contains("ClassLoader") || type.startsWith("jdk.internal.loader.")) {
                    return "class-loading";
                }
                continue;
            }
            if (type.equals("software.amazon.jsii.JsiiRuntime")) {
                return "node";
            }
            if (type.startsWith("software.amazon.") || type.startsWith("software.constructs.")
                    || type.startsWith("com.fasterxml.")) {
                return "jsii-java";
            }
            return type.startsWith("io.github.trainingdata.") ? "our-java" : "jdk";
        }
        return "jdk";
    }

    /** @return the JVM's CPU time in ms, or -1 where unknown */
    static long cpuMillis() {
        long micros = cpuMicros();
        return micros < 0 ? -1 : micros / 1000;
    }

    private static long cpuMicros() {
        return ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() / 1000 : -1;
    }

    private static boolean isConstruct(String type) {
        try {
            return Construct.class.isAssignableFrom(Class.forName(type, false, StackSampler.class.getClassLoader()));
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
