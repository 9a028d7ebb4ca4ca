package io.github.trainingdata.cdk.preload.handler;

import io.github.trainingdata.cdk.launch.TrainingJobNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The preload custom resource's ResourceProperties, checked. CloudFormation delivers scalars as strings and
 * lists as lists of strings.
 *
 * @param workerJobNamePrefix 1 to 26 characters; executions and workers are named after it ({@link PreloadExecution})
 * @param stateMachineArn     the preload state machine
 * @param fileSystemId        the FSx file system being warmed
 * @param dataLocations       the S3 locations checked for at least one object (1 or more)
 * @param warmKey             opaque; a new value means new content to warm
 * @param waitSeconds         how long the deploy waits for the warm-up, from the execution's start; 0 when it
 *                            does not wait
 */
record PreloadProperties(String workerJobNamePrefix, String stateMachineArn, String fileSystemId,
        List<S3Location> dataLocations, String warmKey, long waitSeconds) {
    static final String WORKER_JOB_NAME_PREFIX = "WorkerJobNamePrefix";
    static final String STATE_MACHINE_ARN = "StateMachineArn";
    static final String FILE_SYSTEM_ID = "FileSystemId";
    static final String DATA_LOCATIONS = "DataLocations";
    static final String WARM_KEY = "WarmKey";
    static final String WAIT_SECONDS = "WaitSeconds";

    private static final Pattern STATE_MACHINE = Pattern.compile("arn:[a-z-]+:states:[a-z0-9-]+:\\d{12}:stateMachine:[^:]+");

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
        String stateMachineArn = required(properties, STATE_MACHINE_ARN);
        if (!STATE_MACHINE.matcher(stateMachineArn).matches()) {
            throw new IllegalArgumentException("ResourceProperties." + STATE_MACHINE_ARN
                    + " must be a state machine ARN, got '" + stateMachineArn + "'");
        }
        return new PreloadProperties(prefix, stateMachineArn, required(properties, FILE_SYSTEM_ID),
                dataLocations(properties.get(DATA_LOCATIONS)), required(properties, WARM_KEY),
                waitSeconds(required(properties, WAIT_SECONDS)));
    }

    private static String required(Map<?, ?> properties, String name) {
        Object value = properties.get(name);
        if (value == null || value.toString().isEmpty()) {
            throw new IllegalArgumentException("ResourceProperties." + name + " is required");
        }
        return value.toString();
    }

    private static List<S3Location> dataLocations(Object value) {
        if (!(value instanceof List<?> uris) || uris.isEmpty()) {
            throw new IllegalArgumentException("ResourceProperties." + DATA_LOCATIONS
                    + " must be a non-empty list of s3://bucket/prefix/ URIs");
        }
        List<S3Location> locations = new ArrayList<>();
        for (int i = 0; i < uris.size(); i++) {
            try {
                locations.add(S3Location.parse(String.valueOf(uris.get(i))));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("ResourceProperties." + DATA_LOCATIONS + "[" + i + "]: "
                        + e.getMessage(), e);
            }
        }
        return List.copyOf(locations);
    }

    private static long waitSeconds(String value) {
        long seconds;
        try {
            seconds = Long.parseLong(value);
        } catch (NumberFormatException e) {
            seconds = -1;
        }
        if (seconds < 0) {
            throw new IllegalArgumentException("ResourceProperties." + WAIT_SECONDS
                    + " must be a whole number of seconds (0: the deploy does not wait), got '" + value + "'");
        }
        return seconds;
    }
}
