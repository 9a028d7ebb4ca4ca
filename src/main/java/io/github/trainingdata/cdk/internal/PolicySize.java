package io.github.trainingdata.cdk.internal;

import java.util.List;
import java.util.Map;

/**
 * The fewest characters IAM can count for a resolved policy document (whitespace not counted): its compact JSON, each
 * deploy-time value counted at the shortest it can resolve to (a pseudo parameter's shortest value, a join's parts and
 * separators, any other reference or attribute as empty).
 */
final class PolicySize {
    /** The shortest value of each pseudo parameter a policy names ({@code aws}, {@code us-east-1}, an account id, ...). */
    private static final Map<String, Integer> SHORTEST_PSEUDO = Map.of("AWS::Partition", 3, "AWS::Region", 9,
            "AWS::AccountId", 12, "AWS::URLSuffix", 13);

    private PolicySize() {
    }

    /** @return the fewest characters {@code node} (a value of a resolved template) counts as */
    static int atLeast(Object node) {
        if (node instanceof Map<?, ?> map) {
            if (map.size() == 1 && String.valueOf(map.keySet().iterator().next()).matches("Ref|Fn::.+")) {
                return 2 + resolvedAtLeast(map);
            }
            int size = 2 + Math.max(0, map.size() - 1);
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                size += text(String.valueOf(entry.getKey())) + 1 + atLeast(entry.getValue());
            }
            return size;
        }
        if (node instanceof List<?> list) {
            int size = 2 + Math.max(0, list.size() - 1);
            for (Object element : list) {
                size += atLeast(element);
            }
            return size;
        }
        if (node instanceof String string) {
            return text(string);
        }
        return String.valueOf(node).length();
    }

    /** @return the fewest characters of the string an intrinsic resolves to, without its quotes */
    private static int resolvedAtLeast(Object node) {
        if (node instanceof String string) {
            return string.replaceAll("\\s", "").length();
        }
        if (!(node instanceof Map<?, ?> map) || map.size() != 1) {
            return 0;
        }
        Object ref = map.get("Ref");
        if (ref != null) {
            return SHORTEST_PSEUDO.getOrDefault(String.valueOf(ref), 0);
        }
        if (map.get("Fn::Join") instanceof List<?> join && join.size() == 2 && join.get(1) instanceof List<?> parts) {
            int size = String.valueOf(join.get(0)).length() * Math.max(0, parts.size() - 1);
            for (Object part : parts) {
                size += resolvedAtLeast(part);
            }
            return size;
        }
        return 0;
    }

    private static int text(String string) {
        return 2 + string.replaceAll("\\s", "").length();
    }
}
