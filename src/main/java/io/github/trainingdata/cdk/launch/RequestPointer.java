package io.github.trainingdata.cdk.launch;

import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/** Reads a pointer that a request parameter may hold instead of the request: a JSON object of one named member. */
final class RequestPointer {
    private RequestPointer() {
    }

    /**
     * @param parameterValue the SSM parameter's value
     * @param name           the pointer's one member name
     * @return that member's object members, or empty when the value is no such pointer (it is then the request itself)
     */
    static Optional<Map<String, JsonNode>> members(String parameterValue, String name) {
        JsonNode node;
        try {
            node = JsonNode.parser().parse(parameterValue);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        JsonNode inner = node.isObject() && node.asObject().size() == 1 ? node.asObject().get(name) : null;
        return inner == null || !inner.isObject() ? Optional.empty() : Optional.of(inner.asObject());
    }
}
