package io.github.trainingdata.cdk.preload;

import io.github.trainingdata.cdk.SynthRule;

/** The synth-time rules of LustrePreload, one constant each (listed in docs/rules.md). */
final class PreloadRules {
    static final SynthRule CACHE = SynthRule.of("PRELOAD_CACHE", "LustrePreload", "cache",
            "the LustreCache to warm",
            "library");
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
    static final SynthRule LOCATION_OF_CACHE = SynthRule.of("PRELOAD_LOCATION_OF_CACHE", "LustrePreload", "locations[i]",
            "a location of the cache being warmed",
            "library");
    static final SynthRule LOCATION_DISTINCT = SynthRule.of("PRELOAD_LOCATION_DISTINCT", "LustrePreload", "locations[i]",
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
    static final SynthRule DEFINITION_READS_CACHE = SynthRule.of("PRELOAD_DEFINITION_READS_CACHE", "LustrePreload", "definition",
            "a definition with a LustreChannel on the cache",
            "library");

    private PreloadRules() {
    }
}
