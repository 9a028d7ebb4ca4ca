package io.github.trainingdata.cdk.training;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Evaluates the CloudFormation intrinsics of a resolved template value, leaving placeholders for what only
 * a deploy knows: {@code Ref X} is {@code REF(X)}, {@code Fn::GetAtt [X, A]} is {@code GETATT(X.A)},
 * {@code Fn::GetAZs R} is {@code GETAZS(R)}, and {@code Fn::Select} over a placeholder is
 * {@code SELECT(i,<list>)}. {@code Fn::Join} joins. Any other intrinsic fails, so nothing is silently
 * misread.
 */
final class Intrinsics {
    private Intrinsics() {
    }

    /** @return {@code node} with every intrinsic replaced by its value or placeholder */
    static Object evaluate(Object node) {
        if (node instanceof List<?> list) {
            return list.stream().map(Intrinsics::evaluate).toList();
        }
        if (!(node instanceof Map<?, ?> map)) {
            return node;
        }
        if (map.size() == 1) {
            String key = (String) map.keySet().iterator().next();
            Object arg = map.get(key);
            switch (key) {
                case "Ref":
                    return "REF(" + arg + ")";
                case "Fn::GetAtt":
                    return "GETATT(" + ((List<?>) arg).get(0) + "." + ((List<?>) arg).get(1) + ")";
                case "Fn::GetAZs":
                    return "GETAZS(" + evaluate(arg) + ")";
                case "Fn::Join":
                    List<?> join = (List<?>) arg;
                    return ((List<?>) join.get(1)).stream().map(Intrinsics::string)
                            .collect(Collectors.joining((String) join.get(0)));
                case "Fn::Select":
                    List<?> select = (List<?>) arg;
                    int index = Integer.parseInt(String.valueOf(select.get(0)));
                    Object from = evaluate(select.get(1));
                    return from instanceof List<?> values ? values.get(index) : "SELECT(" + index + "," + from + ")";
                default:
                    if (key.startsWith("Fn::")) {
                        throw new IllegalArgumentException("cannot evaluate " + key + " in " + map);
                    }
            }
        }
        Map<Object, Object> evaluated = new LinkedHashMap<>();
        map.forEach((k, v) -> evaluated.put(k, evaluate(v)));
        return evaluated;
    }

    /** @return the string {@code node} evaluates to */
    static String string(Object node) {
        Object value = evaluate(node);
        if (!(value instanceof String s)) {
            throw new IllegalArgumentException("not a string: " + value);
        }
        return s;
    }
}
