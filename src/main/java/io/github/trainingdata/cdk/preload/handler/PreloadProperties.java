package io.github.trainingdata.cdk.preload.handler;

import io.github.trainingdata.cdk.launch.TrainingJobNames;
import java.util.Map;

/**
 * The preload custom resource's ResourceProperties, checked. CloudFormation delivers every value as a
 * string.
 *
 * @param workerJobNamePrefix 1 to 26 characters; worker jobs are named {@code <prefix>-<12 hex>}
 * @param workerRequest       the worker's CreateTrainingJob request document, without TrainingJobName
 * @param warmKey             opaque; a new value means new content to warm
 * @param timeoutSeconds      how long a worker may run, counted from its CreationTime
 * @param waitForCompletion   whether the deployment waits for the worker to finish
 */
record PreloadProperties(String workerJobNamePrefix, String workerRequest, String warmKey, long timeoutSeconds,
        boolean waitForCompletion) {
    static final String WORKER_JOB_NAME_PREFIX = "WorkerJobNamePrefix";
    static final String WORKER_REQUEST = "WorkerRequest";
    static final String WARM_KEY = "WarmKey";
    static final String TIMEOUT_SECONDS = "TimeoutSeconds";
    static final String WAIT = "Wait";

    /**
     * Reads and checks the properties.
     *
     * @param properties the event's ResourceProperties
     * @return the checked properties
     * @throws IllegalArgumentException naming the property that is missing or bad
     */
    static PreloadProperties from(Map<?, ?> properties) {
        String prefix = required(properties, WORKER_JOB_NAME_PREFIX);
        try {
            TrainingJobNames.requireValidPrefix(prefix);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("ResourceProperties." + WORKER_JOB_NAME_PREFIX + ": " + e.getMessage(), e);
        }
        return new PreloadProperties(prefix, required(properties, WORKER_REQUEST), required(properties, WARM_KEY),
                timeoutSeconds(required(properties, TIMEOUT_SECONDS)), wait(required(properties, WAIT)));
    }

    private static String required(Map<?, ?> properties, String name) {
        Object value = properties.get(name);
        if (value == null) {
            throw new IllegalArgumentException("ResourceProperties." + name + " is required");
        }
        return value.toString();
    }

    private static long timeoutSeconds(String value) {
        long seconds;
        try {
            seconds = Long.parseLong(value);
        } catch (NumberFormatException e) {
            seconds = 0;
        }
        if (seconds <= 0) {
            throw new IllegalArgumentException("ResourceProperties." + TIMEOUT_SECONDS
                    + " must be a positive whole number of seconds, got '" + value + "'");
        }
        return seconds;
    }

    private static boolean wait(String value) {
        if (value.equals("true") || value.equals("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new IllegalArgumentException("ResourceProperties." + WAIT + " must be 'true' or 'false', got '" + value + "'");
    }
}
