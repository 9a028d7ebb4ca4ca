package io.github.trainingdata.cdk.preload.handler;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Read access to an event of aws-cdk-lib's custom resource Provider framework (the CloudFormation request
 * plus, for isComplete, what onEvent returned).
 */
final class CustomResourceEvent {
    private final Map<String, Object> event;

    CustomResourceEvent(Map<String, Object> event) {
        this.event = Objects.requireNonNull(event, "event");
    }

    String requestType() {
        return required("RequestType");
    }

    String requestId() {
        return required("RequestId");
    }

    String stackId() {
        return required("StackId");
    }

    String logicalResourceId() {
        return required("LogicalResourceId");
    }

    String physicalResourceId() {
        return required("PhysicalResourceId");
    }

    Map<?, ?> resourceProperties() {
        return map("ResourceProperties");
    }

    Map<?, ?> oldResourceProperties() {
        return map("OldResourceProperties");
    }

    /** @return a top-level field that onEvent returned (the Provider framework passes it on to isComplete), if any */
    Optional<String> field(String name) {
        Object value = event.get(name);
        return value == null ? Optional.empty() : Optional.of(value.toString());
    }

    /** @return an attribute that onEvent returned in {@code Data}, if any */
    Optional<String> data(String name) {
        Object data = event.get("Data");
        Object value = data instanceof Map<?, ?> map ? map.get(name) : null;
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
