package io.github.trainingdata.cdk.preload;

import io.github.trainingdata.cdk.performance.PreloadDefaults;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * {@value #PARALLELISM_VARIABLE}, {@value #BATCH_SIZE_VARIABLE}, {@value #POLL_SECONDS_VARIABLE} and
 * {@value #MAX_POLLS_VARIABLE}. Its defaults, and the most files per {@code lfs hsm_restore} call, are
 * {@link PreloadDefaults}' constants: the resource names them as placeholders ({@code @DEFAULT_PARALLELISM@},
 * ...) that {@link #load()} fills in, so the script, the construct and the advisor's estimate share one
 * source.
 */
public final class WarmUpScript {
    /** The directory whose files are warmed, e.g. {@code /opt/ml/input/data/cache}. */
    public static final String ROOT_VARIABLE = "PRELOAD_ROOT";
    /** How many reader or lfs processes run at once. */
    public static final String PARALLELISM_VARIABLE = "PRELOAD_PARALLELISM";
    /**
     * How many files one reader process or one {@code lfs hsm_action}/{@code hsm_state} call handles; an
     * {@code lfs hsm_restore} call takes at most {@value PreloadDefaults#MAX_RESTORE_BATCH} of them.
     */
    public static final String BATCH_SIZE_VARIABLE = "PRELOAD_BATCH_SIZE";
    /** Seconds between polls of {@code lfs hsm_action}, and between progress lines. */
    public static final String POLL_SECONDS_VARIABLE = "PRELOAD_POLL_SECONDS";
    /** How many polls the script makes before it gives up on files that are still loading. */
    public static final String MAX_POLLS_VARIABLE = "PRELOAD_MAX_POLLS";

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
    /** A placeholder the resource may still hold after {@link #load()} filled in the defaults. */
    private static final Pattern PLACEHOLDER = Pattern.compile("@[A-Z][A-Z_]*@");

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
            return new WarmUpScript(withDefaults(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the resource " + RESOURCE, e);
        }
    }

    /**
     * The script with its placeholders replaced by {@link PreloadDefaults}' values.
     *
     * @throws IllegalStateException when a placeholder is left that names no default
     */
    static String withDefaults(String template) {
        Map<String, Object> defaults = new LinkedHashMap<>();
        defaults.put("DEFAULT_PARALLELISM", PreloadDefaults.DEFAULT_PARALLELISM);
        defaults.put("DEFAULT_BATCH_SIZE", PreloadDefaults.DEFAULT_BATCH_SIZE);
        defaults.put("DEFAULT_POLL_SECONDS", PreloadDefaults.DEFAULT_POLL_SECONDS);
        defaults.put("DEFAULT_MAX_POLLS", PreloadDefaults.DEFAULT_MAX_POLLS);
        defaults.put("MAX_RESTORE_BATCH", PreloadDefaults.MAX_RESTORE_BATCH);
        String script = template;
        for (Map.Entry<String, Object> entry : defaults.entrySet()) {
            script = script.replace("@" + entry.getKey() + "@", String.valueOf(entry.getValue()));
        }
        Matcher left = PLACEHOLDER.matcher(script);
        if (left.find()) {
            throw new IllegalStateException("The warm-up script names " + left.group() + ", which is none of "
                    + defaults.keySet());
        }
        return script;
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
