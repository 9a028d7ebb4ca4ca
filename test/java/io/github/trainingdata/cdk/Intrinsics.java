package io.github.trainingdata.cdk;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The tests' one evaluator of CloudFormation intrinsics in a resolved template value, leaving placeholders for
 * what only a deploy knows: {@code Ref X} is {@code REF(X)} (pseudo parameters too, e.g. {@code REF(AWS::Region)}),
 * {@code Fn::GetAtt [X, A]} is {@code GETATT(X.A)}, {@code Fn::GetAZs R} is {@code GETAZS(R)}, and
 * {@code Fn::Select} over a placeholder is {@code SELECT(i,<list>)}. {@code Fn::Join} joins, and
 * {@code Fn::Select} over a list selects. Any other intrinsic ({@code Fn::Sub}, {@code Fn::If}, ...) fails, so
 * nothing is silently misread.
 */
public final class Intrinsics {
    private Intrinsics() {
    }

    /** @return {@code node} with every intrinsic replaced by its value or placeholder */
    public static Object evaluate(Object node) {
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

    /** @return the text {@code node} evaluates to: a string, or a number or boolean as CloudFormation prints it */
    public static String string(Object node) {
        Object value = evaluate(node);
        if (value instanceof String || value instanceof Number || value instanceof Boolean) {
            return String.valueOf(value);
        }
        throw new IllegalArgumentException("not a string: " + value);
    }
}
