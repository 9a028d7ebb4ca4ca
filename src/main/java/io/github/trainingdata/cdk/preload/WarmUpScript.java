package io.github.trainingdata.cdk.preload;

import io.github.trainingdata.cdk.preload.handler.PreloadMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The preload worker's warm-up script ({@code warm-cache.sh}) and the pieces of a CreateTrainingJob request
 * that run it in any image with {@code /bin/sh}, GNU coreutils and findutils (and sed where {@code lfs} is
 * installed), such as Debian's slim image ({@code examples/worker-image}) or the Ubuntu-based AWS Deep
 * Learning Containers, without building the script into it: a container entrypoint that rebuilds the
 * script from environment variables, those variables, and the metric definitions that turn the script's
 * log lines into the preload metrics. JDK only.
 *
 * <p>The script works in batches (one {@code lfs} or {@code head} process per batch of files, never one
 * per file). It reads {@value #ROOT_VARIABLE} (required: the mounted channel directory),
 * {@value #PARALLELISM_VARIABLE} (default {@value #DEFAULT_PARALLELISM}), {@value #BATCH_SIZE_VARIABLE}
 * (default {@value #DEFAULT_BATCH_SIZE}), {@value #POLL_SECONDS_VARIABLE} (default 10) and
 * {@value #MAX_POLLS_VARIABLE} (default 8640).
 */
public final class WarmUpScript {
    /** The directory whose files are warmed, e.g. {@code /opt/ml/input/data/cache}. */
    public static final String ROOT_VARIABLE = "PRELOAD_ROOT";
    /** How many reader or lfs processes run at once. */
    public static final String PARALLELISM_VARIABLE = "PRELOAD_PARALLELISM";
    /**
     * How many files one reader process or one {@code lfs hsm_action}/{@code hsm_state} call handles; an
     * {@code lfs hsm_restore} call takes at most {@value #MAX_RESTORE_BATCH} of them.
     */
    public static final String BATCH_SIZE_VARIABLE = "PRELOAD_BATCH_SIZE";
    /** Seconds between polls of {@code lfs hsm_action}, and between progress lines. */
    public static final String POLL_SECONDS_VARIABLE = "PRELOAD_POLL_SECONDS";
    /** How many polls the script makes before it gives up on files that are still loading. */
    public static final String MAX_POLLS_VARIABLE = "PRELOAD_MAX_POLLS";

    /**
     * Readers (or lfs calls) at once by default. Without {@code lfs}, each first read of a file waits while
     * FSx loads the whole file from S3 (tens of ms for a small object), so a reader handles only ~10–50
     * files/s and throughput is readers / latency (Little's law): 128 readers give ~2,500 files/s at 50 ms
     * and ~1,300 at 100 ms, i.e. 1.5 million small files in 10–20 minutes instead of hours at 8. Each is
     * a {@code sh} and a {@code head} process, mostly asleep: a few hundred MB of memory in all.
     */
    public static final int DEFAULT_PARALLELISM = 128;
    /**
     * The most readers that make sense: S3 serves at least 5,500 GET requests per second per partitioned
     * prefix, which 512 readers reach at ~100 ms per load; more would mostly add throttling (503 Slow
     * Down) and processes.
     */
    public static final int MAX_PARALLELISM = 512;
    /**
     * Files per reader process or {@code lfs} poll call by default (the script makes batches smaller when
     * there are too few files to give every reader one).
     */
    public static final int DEFAULT_BATCH_SIZE = 256;
    /**
     * The most files one {@code lfs hsm_restore} call gets, whatever the batch size: the Lustre client
     * refuses an HSM request of 1,706 bytes or more ({@code MDS_MAXREQSIZE / 3}; 24 bytes plus 32 per
     * file) with E2BIG, i.e. more than 52 files.
     */
    public static final int MAX_RESTORE_BATCH = 50;

    /** Picks {@value PreloadMetrics#FILES} out of a line such as {@code preload done: files=3 bytes=42 seconds=7}. */
    public static final String FILES_REGEX = "files=([0-9]+) bytes=[0-9]+ seconds=[0-9]+";
    /** Picks {@value PreloadMetrics#BYTES} out of the same lines. */
    public static final String BYTES_REGEX = "files=[0-9]+ bytes=([0-9]+) seconds=[0-9]+";
    /** Picks {@value PreloadMetrics#SECONDS} out of the same lines. */
    public static final String SECONDS_REGEX = "files=[0-9]+ bytes=[0-9]+ seconds=([0-9]+)";
    /** Picks {@value PreloadMetrics#LOCATIONS} out of the line {@code preload locations: warmed=2}. */
    public static final String LOCATIONS_REGEX = "preload locations: warmed=([0-9]+)";

    /** The script's environment variables are named this plus a number counting up from {@value #FIRST_NUMBER}. */
    public static final String SCRIPT_VARIABLE_PREFIX = "PRELOAD_SCRIPT_";
    /** The number of the first script variable; two digits keep the names in order when sorted. */
    public static final int FIRST_NUMBER = 10;
    /** SageMaker's limit on an Environment value. */
    public static final int MAX_VALUE_LENGTH = 512;
    /** Script variables allowed: leaves 10 of SageMaker's 100 Environment entries for the settings. */
    public static final int MAX_SCRIPT_VARIABLES = 90;

    private static final String RESOURCE = "warm-cache.sh";

    private final String script;
    private final Map<String, String> environment;

    WarmUpScript(String script) {
        this.script = script;
        this.environment = Collections.unmodifiableMap(split(script));
    }

    /**
     * Loads the script shipped with this library.
     *
     * @return the warm-up script
     */
    public static WarmUpScript load() {
        try (InputStream in = WarmUpScript.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("The resource " + RESOURCE + " is missing next to " + WarmUpScript.class);
            }
            return new WarmUpScript(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the resource " + RESOURCE, e);
        }
    }

    /**
     * The script's text.
     *
     * @return the script
     */
    public String script() {
        return script;
    }

    /**
     * The worker's {@code AlgorithmSpecification.ContainerEntrypoint}: writes the script variables, in order,
     * to {@code ${TMPDIR:-/tmp}/warm-cache.sh} and runs it with {@code /bin/sh}. Needs {@code printenv}
     * (GNU coreutils) in the image; no other Environment entry may be named {@value #SCRIPT_VARIABLE_PREFIX}
     * followed by the number after the last script variable.
     *
     * @return the entrypoint, every string at most 256 characters
     */
    public List<String> containerEntrypoint() {
        return List.of("/bin/sh", "-c", "f=${TMPDIR:-/tmp}/warm-cache.sh; i=" + FIRST_NUMBER + "; while printenv "
                + SCRIPT_VARIABLE_PREFIX + "$i; do i=$((i+1)); done > \"$f\" && exec /bin/sh \"$f\"");
    }

    /**
     * The script as Environment entries {@code PRELOAD_SCRIPT_10}, {@code PRELOAD_SCRIPT_11}, ...: whole
     * lines, at most 512 characters each, without their last newline, which {@code printenv} adds back.
     *
     * @return the entries, in order
     */
    public Map<String, String> environment() {
        return environment;
    }

    /**
     * The worker's {@code AlgorithmSpecification.MetricDefinitions}, as name to regex.
     *
     * @return {@value PreloadMetrics#FILES}, {@value PreloadMetrics#BYTES}, {@value PreloadMetrics#SECONDS} and
     *         {@value PreloadMetrics#LOCATIONS}, in that order
     */
    public static Map<String, String> metricDefinitions() {
        Map<String, String> definitions = new LinkedHashMap<>();
        definitions.put(PreloadMetrics.FILES, FILES_REGEX);
        definitions.put(PreloadMetrics.BYTES, BYTES_REGEX);
        definitions.put(PreloadMetrics.SECONDS, SECONDS_REGEX);
        definitions.put(PreloadMetrics.LOCATIONS, LOCATIONS_REGEX);
        return Collections.unmodifiableMap(definitions);
    }

    private static Map<String, String> split(String script) {
        if (script.isEmpty() || !script.endsWith("\n")) {
            throw new IllegalArgumentException("The warm-up script must end with a newline");
        }
        String[] lines = script.substring(0, script.length() - 1).split("\n", -1);
        List<String> values = new ArrayList<>();
        StringBuilder value = null;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.length() > MAX_VALUE_LENGTH) {
                throw new IllegalArgumentException("Line " + (i + 1) + " of the warm-up script has " + line.length()
                        + " characters; an Environment value holds at most " + MAX_VALUE_LENGTH);
            }
            if (value != null && value.length() + 1 + line.length() <= MAX_VALUE_LENGTH) {
                value.append('\n').append(line);
            } else {
                if (value != null) {
                    values.add(value.toString());
                }
                value = new StringBuilder(line);
            }
        }
        values.add(value.toString());
        if (values.size() > MAX_SCRIPT_VARIABLES) {
            throw new IllegalArgumentException("The warm-up script (" + script.length() + " characters) needs "
                    + values.size() + " Environment entries of at most " + MAX_VALUE_LENGTH + " characters; at most "
                    + MAX_SCRIPT_VARIABLES + " fit beside the worker's settings in SageMaker's 100");
        }
        Map<String, String> environment = new LinkedHashMap<>();
        for (int i = 0; i < values.size(); i++) {
            environment.put(SCRIPT_VARIABLE_PREFIX + (FIRST_NUMBER + i), values.get(i));
        }
        return environment;
    }
}
