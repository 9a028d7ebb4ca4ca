package io.github.trainingdata.cdk.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import software.amazon.awscdk.Acknowledgment;
import software.amazon.awscdk.Validations;
import software.constructs.IConstruct;

/**
 * Acknowledges, one by one and each with its reason, the wildcard resources our constructs grant on
 * purpose (cdk-nag rule {@code AwsSolutions-IAM5}). Each finding is named exactly as cdk-nag names it
 * ({@code AwsSolutions-IAM5[Resource::<flattened ARN>]}), so an acknowledgement never hides a wildcard
 * it was not written for. The names are worked out when the app is validated, after CDK has turned references
 * to other stacks into the imports ({@code Fn::ImportValue}) or stack outputs ({@code Fn::GetStackOutput}) that
 * cdk-nag sees.
 */
public final class WildcardFindings {
    private final IConstruct scope;
    private final Map<String, List<String>> resources = new LinkedHashMap<>();

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
        this.resources.computeIfAbsent(reason, r -> new ArrayList<>()).addAll(resources);
    }

    /**
     * Records every noted acknowledgement on the scope when the app is validated. Call once, after the last
     * {@link #add}. The stack's findings are worked out together, in one validation ({@link StackWildcardFindings}).
     */
    public void acknowledge() {
        if (!resources.isEmpty()) {
            StackWildcardFindings.of(scope).add(this);
        }
    }

    /**
     * As {@link #acknowledge()}, for a caller that holds the scope's stack's findings already (three jsii calls fewer
     * than looking them up).
     *
     * @param stackFindings the findings of the scope's stack
     */
    void acknowledge(StackWildcardFindings stackFindings) {
        if (!resources.isEmpty()) {
            stackFindings.add(this);
        }
    }

    /** @return the noted resources that hold a token marker ({@code ${Token[...]}} or {@code #{Token[...]}}) */
    List<String> tokens() {
        return resources.values().stream().flatMap(List::stream).filter(resource -> resource.contains("{Token["))
                .toList();
    }

    /**
     * Acknowledges the findings on the scope, in one call.
     *
     * @param resolved the resolved value of each of {@link #tokens()}; any other resource resolves to itself
     */
    void record(Map<String, Object> resolved) {
        Map<String, String> reasons = new LinkedHashMap<>();
        this.resources.forEach((reason, arns) -> {
            for (String resource : arns) {
                String flat = flatten(resolved.containsKey(resource) ? resolved.get(resource) : resource);
                if (flat.contains("*")) {
                    reasons.merge("AwsSolutions-IAM5[Resource::" + flat + "]", reason,
                            (a, b) -> a.contains(b) ? a : a + " " + b);
                }
            }
        });
        if (!reasons.isEmpty()) {
            Validations.of(scope).acknowledge(reasons.entrySet().stream().map(e -> Acknowledgment.builder()
                    .id(e.getKey()).reason(e.getValue()).build()).toArray(Acknowledgment[]::new));
        }
    }

    /**
     * Flattens a resolved CloudFormation value the way cdk-nag 3.0.2 names findings ({@code flattenCfnReference}):
     * {@code Fn::Join} joined, {@code Fn::Sub} and {@code Fn::ImportValue} by their argument, {@code Ref} and
     * {@code Fn::GetAtt} as {@code <...>}, anything else as JSON.
     */
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
            if (map.containsKey("Fn::Sub")) {
                return flatten(map.get("Fn::Sub"));
            }
            if (map.get("Fn::GetAtt") instanceof List<?> att) {
                return "<" + flatten(att.get(0)) + "." + flatten(att.get(1)) + ">";
            }
            if (map.containsKey("Fn::ImportValue")) {
                return flatten(map.get("Fn::ImportValue"));
            }
            if (map.containsKey("Ref")) {
                return "<" + flatten(map.get("Ref")) + ">";
            }
        }
        return json(node);
    }

    /** {@code JSON.stringify} of a resolved value: maps in their order, whole numbers without a fraction. */
    private static String json(Object node) {
        if (node instanceof Map<?, ?> map) {
            return map.entrySet().stream().map(e -> json(String.valueOf(e.getKey())) + ":" + json(e.getValue()))
                    .collect(Collectors.joining(",", "{", "}"));
        }
        if (node instanceof List<?> list) {
            return list.stream().map(WildcardFindings::json).collect(Collectors.joining(",", "[", "]"));
        }
        if (node instanceof Number number) {
            double value = number.doubleValue();
            return value == Math.rint(value) && !Double.isInfinite(value) ? Long.toString((long) value)
                    : number.toString();
        }
        if (node instanceof String s) {
            StringBuilder quoted = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> quoted.append("\\\"");
                    case '\\' -> quoted.append("\\\\");
                    case '\n' -> quoted.append("\\n");
                    default -> quoted.append(c);
                }
            }
            return quoted.append('"').toString();
        }
        return String.valueOf(node);
    }
}
