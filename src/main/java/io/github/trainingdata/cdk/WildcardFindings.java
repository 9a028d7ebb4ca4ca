package io.github.trainingdata.cdk;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import software.amazon.awscdk.Acknowledgment;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Validations;
import software.constructs.IConstruct;

/**
 * Acknowledges, one by one and each with its reason, the wildcard resources our constructs grant on
 * purpose (cdk-nag rule {@code AwsSolutions-IAM5}). Each finding is named exactly as cdk-nag names it
 * ({@code AwsSolutions-IAM5[Resource::<flattened ARN>]}), so an acknowledgement never hides a wildcard
 * it was not written for.
 */
public final class WildcardFindings {
    private final IConstruct scope;
    private final Map<String, String> reasons = new LinkedHashMap<>();
    /** The scope's stack, looked up once (each lookup is a jsii call). */
    private Stack stack;

    /** @param scope the construct (usually a role) on which the acknowledgements are recorded */
    public WildcardFindings(IConstruct scope) {
        this.scope = scope;
    }

    /**
     * Notes why the wildcard resources among {@code resources} are needed; resources without a
     * {@code *} are ignored.
     *
     * @param resources resource ARNs of one statement (may contain tokens)
     * @param reason why the wildcard is bounded or unavoidable, for a security reviewer
     */
    public void add(List<String> resources, String reason) {
        for (String resource : resources) {
            // A string without a token marker (${Token[...]} or #{Token[...]}) resolves to itself: no jsii call.
            String flat = flatten(resource.contains("{Token[") ? stack().resolve(resource) : resource);
            if (flat.contains("*")) {
                reasons.merge("AwsSolutions-IAM5[Resource::" + flat + "]", reason,
                        (a, b) -> a.contains(b) ? a : a + " " + b);
            }
        }
    }

    /** Records every noted acknowledgement on the scope. Call once, after the last {@link #add}. */
    public void acknowledge() {
        if (reasons.isEmpty()) {
            return;
        }
        Validations validations = Validations.of(scope);
        reasons.forEach((id, reason) -> validations.acknowledge(
                Acknowledgment.builder().id(id).reason(reason).build()));
    }

    private Stack stack() {
        if (stack == null) {
            stack = Stack.of(scope);
        }
        return stack;
    }

    /** Flattens a resolved CloudFormation value the way cdk-nag names findings. */
    static String flatten(Object node) {
        if (node == null) {
            return "";
        }
        if (node instanceof String s) {
            return s.replace("${", "<").replace("}", ">");
        }
        if (node instanceof Map<?, ?> map) {
            if (map.get("Fn::Join") instanceof List<?> join) {
                String delimiter = (String) join.get(0);
                return ((List<?>) join.get(1)).stream().map(WildcardFindings::flatten)
                        .collect(Collectors.joining(delimiter));
            }
            if (map.get("Fn::GetAtt") instanceof List<?> att) {
                return "<" + flatten(att.get(0)) + "." + flatten(att.get(1)) + ">";
            }
            if (map.containsKey("Ref")) {
                return "<" + flatten(map.get("Ref")) + ">";
            }
        }
        return String.valueOf(node);
    }
}
