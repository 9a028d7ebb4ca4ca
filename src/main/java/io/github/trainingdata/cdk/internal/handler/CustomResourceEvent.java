package io.github.trainingdata.cdk.internal.handler;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Read access to a custom-resource request as the stack's dispatcher hands it to a handler (the CloudFormation
 * request plus, for isComplete, what onEvent returned).
 */
public final class CustomResourceEvent {
    /**
     * The field the dispatcher adds to every request it hands to onEvent (and so to isComplete): which attempt of the
     * CloudFormation request is served, named like the attempt's waiter ({@code <RequestId>}, or {@code <RequestId>-<n>}
     * when CloudFormation sent the request again after the earlier attempts' waiters ended, as a retried deployment
     * does). Every delivery of one attempt carries the same value, whatever Lambda invocation (and Lambda request id)
     * runs it: a Lambda retry after a crash, or a duplicate delivered while the first one still runs.
     */
    public static final String ATTEMPT = "TrainingDataAttempt";
    private final Map<String, Object> event;

    /**
     * Wraps an event.
     *
     * @param event the event as Lambda delivers it
     */
    public CustomResourceEvent(Map<String, Object> event) {
        this.event = Objects.requireNonNull(event, "event");
    }

    /** @return {@code Create}, {@code Update} or {@code Delete} */
    public String requestType() {
        return required("RequestType");
    }

    /** @return the CloudFormation request id (the same when CloudFormation retries a request) */
    public String requestId() {
        return required("RequestId");
    }

    /** @return the stack's ARN */
    public String stackId() {
        return required("StackId");
    }

    /** @return the resource's logical id in the template */
    public String logicalResourceId() {
        return required("LogicalResourceId");
    }

    /** @return the resource's physical id (not present in a Create's onEvent) */
    public String physicalResourceId() {
        return required("PhysicalResourceId");
    }

    /** @return the resource's properties */
    public Map<?, ?> resourceProperties() {
        return map("ResourceProperties");
    }

    /** @return the properties before an Update */
    public Map<?, ?> oldResourceProperties() {
        return map("OldResourceProperties");
    }

    /**
     * The {@code Data} that onEvent returned, as isComplete receives it.
     *
     * @return the data, or an empty map when onEvent returned none
     */
    public Map<?, ?> data() {
        Object value = event.get("Data");
        return value instanceof Map<?, ?> map ? map : Map.of();
    }

    /**
     * A top-level field that onEvent returned (the dispatcher passes it on to isComplete).
     *
     * @param name the field's name
     * @return its value, if any
     */
    public Optional<String> field(String name) {
        Object value = event.get(name);
        return value == null ? Optional.empty() : Optional.of(value.toString());
    }

    /**
     * An attribute that onEvent returned in {@code Data}.
     *
     * @param name the attribute's name
     * @return its value, if any
     */
    public Optional<String> data(String name) {
        Object value = data().get(name);
        return value == null ? Optional.empty() : Optional.of(value.toString());
    }

    private String required(String name) {
        Object value = event.get(name);
        if (value == null) {
            throw new IllegalArgumentException("The custom resource event has no " + name);
        }
        return value.toString();
    }

    private Map<?, ?> map(String name) {
        Object value = event.get(name);
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("The custom resource event has no " + name + " object");
        }
        return map;
    }
}
