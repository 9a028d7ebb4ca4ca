package io.github.trainingdata.cdk.preload;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import io.github.trainingdata.cdk.internal.DurationSeconds;
import io.github.trainingdata.cdk.limits.SageMakerLimits;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreLocation;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Token;
import software.constructs.IConstruct;

/**
 * The synth-time rules of {@link LustrePreload}, one constant each (listed in docs/rules.md), and the checks that
 * need nothing but the props: the locations, the time limits and counts, the definition reading the cache.
 * {@link PreloadSpec} checks the rest (the image, the capacity, the wait) where it resolves them.
 */
final class PreloadRules {
    static final SynthRule CACHE = SynthRule.of("PRELOAD_CACHE", "LustrePreload", "cache",
            "the LustreCache to warm",
            "library");
    static final SynthRule CACHE_STACK = SynthRule.of("PRELOAD_CACHE_STACK", "LustrePreload", "cache",
            "a cache in the preload's stack (or one deployed with it)",
            "library (the preload's worker mounts the cache by id and its warm key holds the id, passed at deploy "
                    + "time: across stacks a replaced cache would not reach the preload's stack)");
    static final SynthRule WAIT_ESTIMATE = SynthRule.of("PRELOAD_WAIT_ESTIMATE", "LustrePreload", "waitForCompletion",
            "false when the estimate exceeds 55 minutes",
            "CloudFormation custom resources (a provider waits at most an hour)");
    static final SynthRule TOTAL_BYTES_FIT = SynthRule.of("PRELOAD_TOTAL_BYTES_FIT", "LustrePreload", "totalBytes",
            "at most the cache's usable space (11/12 of its capacity)",
            "Amazon FSx for Lustre User Guide, storage capacity; advisor Sizing");
    static final SynthRule IMAGE_CROSS_STACK = SynthRule.of("PRELOAD_IMAGE_CROSS_STACK", "LustrePreload", "image",
            "an image of its own when the definition's is a deploy-time value of another stack",
            "library");
    static final SynthRule IMAGE_REQUIRED = SynthRule.of("PRELOAD_IMAGE_REQUIRED", "LustrePreload", "image",
            "a worker image (its own or the definition's)",
            "library");
    static final SynthRule LOCATION_COUNT = SynthRule.of("PRELOAD_LOCATION_COUNT", "LustrePreload", "locations",
            "1 to 20 directories",
            "SageMaker API model (botocore sagemaker/2017-07-24), InputDataConfig (one worker channel each)");
    static final SynthRule LOCATION_OF_CACHE = SynthRule.of("PRELOAD_LOCATION_OF_CACHE", "LustrePreload",
            "locations[i]",
            "a location of the cache being warmed",
            "library");
    static final SynthRule LOCATION_DISTINCT = SynthRule.of("PRELOAD_LOCATION_DISTINCT", "LustrePreload",
            "locations[i]",
            "distinct directories",
            "library");
    static final SynthRule FILE_COUNT = SynthRule.of("PRELOAD_FILE_COUNT", "LustrePreload", "fileCount",
            "0 or more",
            "library");
    static final SynthRule TOTAL_BYTES = SynthRule.of("PRELOAD_TOTAL_BYTES", "LustrePreload", "totalBytes",
            "0 or more",
            "library");
    static final SynthRule TIMEOUT = SynthRule.of("PRELOAD_TIMEOUT", "LustrePreload", "timeout, importTimeout",
            "1 minute to 28 days",
            "SageMaker API model (botocore sagemaker/2017-07-24), StoppingCondition.MaxRuntimeInSeconds");
    static final SynthRule RANGE = SynthRule.of("PRELOAD_RANGE", "LustrePreload", "parallelism, batchSize",
            "parallelism 1 to 512, batch size 1 to 10000",
            "library");
    static final SynthRule WORKER_INSTANCE_TYPE = SynthRule.of("PRELOAD_WORKER_INSTANCE_TYPE", "LustrePreload",
            "workerInstanceType",
            "one of the model's TrainingInstanceType values",
            "SageMaker API model (botocore sagemaker/2017-07-24), ResourceConfig.InstanceType");
    static final SynthRule DEFINITION_READS_CACHE = SynthRule.of("PRELOAD_DEFINITION_READS_CACHE", "LustrePreload",
            "definition",
            "a definition with a LustreChannel on the cache",
            "library");

    private PreloadRules() {
    }

    /** 1 to 20 distinct locations, all of {@code cache}. */
    static void checkLocations(IConstruct scope, LustreCache cache, List<LustreLocation> locations) {
        if (locations.isEmpty() || locations.size() > TrainingJobDefinition.MAX_CHANNELS) {
            throw ConfigurationError.of(LOCATION_COUNT, scope, "locations", locations.size() + " locations",
                    "1 to " + TrainingJobDefinition.MAX_CHANNELS + " directories (one worker channel each)");
        }
        Set<List<String>> distinct = new HashSet<>();
        for (int i = 0; i < locations.size(); i++) {
            LustreLocation location = locations.get(i);
            if (location.getCache() != cache) {
                throw ConfigurationError.of(LOCATION_OF_CACHE, scope,
                        "locations[" + i + "]", location.getCache().getNode().getPath(),
                        "a location of the cache being warmed, " + cache.getNode().getPath());
            }
            if (!distinct.add(List.of(location.getDataset().getName(), location.getPath()))) {
                throw ConfigurationError.of(LOCATION_DISTINCT, scope, "locations[" + i + "]",
                        location.getDataset().getName() + "/" + location.getPath(), "distinct directories");
            }
        }
    }

    /** Estimates are 0 or more. */
    static void requireCounts(IConstruct scope, Long files, Long bytes) {
        if (files != null && files < 0) {
            throw ConfigurationError.of(FILE_COUNT, scope, "fileCount", files, "0 or more");
        }
        if (bytes != null && bytes < 0) {
            throw ConfigurationError.of(TOTAL_BYTES, scope, "totalBytes", bytes, "0 or more");
        }
    }

    /** A time limit: the given one (1 minute to 28 days) or 12 hours. */
    static Duration timeout(IConstruct scope, String field, Duration given) {
        Duration limit = given != null ? given : Duration.hours(12);
        Long seconds = DurationSeconds.literal(limit);
        if (seconds == null) {
            throw ConfigurationError.of(TIMEOUT, scope, field, limit.toHumanString(), "a literal whole number of "
                    + "seconds from 1 minute to 28 days (the preload's state machine and its estimate add it up, so it "
                    + "cannot be a deploy-time value)");
        }
        if (seconds < 60 || seconds > TrainingJobDefinition.MAX_RUNTIME.toSeconds().longValue()) {
            throw ConfigurationError.of(TIMEOUT, scope, field, limit.toHumanString(), "1 minute to 28 days");
        }
        return limit;
    }

    /** A count: the given one (from {@code min} to {@code max}) or {@code fallback}. */
    static int bounded(IConstruct scope, String field, Integer value, int fallback, int min, int max) {
        int v = value != null ? value : fallback;
        if (v < min || v > max) {
            throw ConfigurationError.of(RANGE, scope, field, v, min + " to " + max);
        }
        return v;
    }

    /** The worker's instance type, when given and literal, is one SageMaker trains on. */
    static void checkWorkerInstanceType(IConstruct scope, String type) {
        if (type != null && !Token.isUnresolved(type) && !SageMakerLimits.isTrainingInstanceType(type)) {
            throw ConfigurationError.of(WORKER_INSTANCE_TYPE, scope, "workerInstanceType", type,
                    SageMakerLimits.trainingInstanceTypesLike(type));
        }
    }

    /** The definition reads the cache through a LustreChannel. */
    static void requireReads(IConstruct scope, LustreCache cache, TrainingJobDefinition definition) {
        boolean reads = definition.getSpec().getChannels().stream()
                .anyMatch(c -> c instanceof LustreChannel l && l.getCache() == cache);
        if (!reads) {
            throw ConfigurationError.of(DEFINITION_READS_CACHE, scope, "definition", definition.getNode().getPath(),
                    "a definition with a LustreChannel on " + cache.getNode().getPath()
                            + " (warming a cache the job does not read would only delay it)");
        }
    }
}
