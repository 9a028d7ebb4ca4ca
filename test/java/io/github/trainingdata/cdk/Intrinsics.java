package io.github.trainingdata.cdk;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The tests' one evaluator of CloudFormation intrinsics in a resolved template value, leaving placeholders for
 * what only a deploy knows: {@code Ref X} is {@code REF(X)} (pseudo parameters too, e.g. {@code REF(AWS::Region)})
 * unless a value for {@code X} is given, {@code Fn::GetAtt [X, A]} is {@code GETATT(X.A)}, {@code Fn::GetAZs R} is
 * {@code GETAZS(R)}, and {@code Fn::Select} over a placeholder is {@code SELECT(i,<list>)}. {@code Fn::Join} joins,
 * {@code Fn::Split} splits a known string (one holding a placeholder is {@code SPLIT(<delimiter>,<string>)}), and {@code Fn::Select} over a list selects. Any other intrinsic
 * ({@code Fn::Sub}, {@code Fn::If}, ...) fails, so nothing is silently misread.
 */
public final class Intrinsics {
    /** A placeholder in an evaluated string: what only a deploy knows, which no split may take apart. */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\b(REF|GETATT|GETAZS|SELECT|SPLIT)\\(");

    private Intrinsics() {
    }

    /** @return {@code node} with every intrinsic replaced by its value or placeholder */
    public static Object evaluate(Object node) {
        return evaluate(node, Map.of());
    }

    /**
     * Evaluates as a deploy would with the given parameter values.
     *
     * @param node a resolved template value
     * @param refs values for {@code Ref}s, e.g. a parameter's
     * @return {@code node} with every intrinsic replaced by its value or placeholder
     */
    public static Object evaluate(Object node, Map<String, String> refs) {
        if (node instanceof List<?> list) {
            return list.stream().map(item -> evaluate(item, refs)).toList();
        }
        if (!(node instanceof Map<?, ?> map)) {
            return node;
        }
        if (map.size() == 1) {
            String key = (String) map.keySet().iterator().next();
            Object arg = map.get(key);
            switch (key) {
                case "Ref":
                    return refs.getOrDefault(String.valueOf(arg), "REF(" + arg + ")");
                case "Fn::GetAtt":
                    return "GETATT(" + ((List<?>) arg).get(0) + "." + ((List<?>) arg).get(1) + ")";
                case "Fn::GetAZs":
                    return "GETAZS(" + evaluate(arg, refs) + ")";
                case "Fn::Join":
                    List<?> join = (List<?>) arg;
                    return ((List<?>) evaluate(join.get(1), refs)).stream().map(part -> string(part, refs))
                            .collect(Collectors.joining((String) join.get(0)));
                case "Fn::Split":
                    List<?> split = (List<?>) arg;
                    String source = string(split.get(1), refs);
                    return PLACEHOLDER.matcher(source).find() ? "SPLIT(" + split.get(0) + "," + source + ")"
                            : List.of(source.split(Pattern.quote((String) split.get(0)), -1));
                case "Fn::Select":
                    List<?> select = (List<?>) arg;
                    int index = Integer.parseInt(String.valueOf(select.get(0)));
                    Object from = evaluate(select.get(1), refs);
                    return from instanceof List<?> values ? values.get(index) : "SELECT(" + index + "," + from + ")";
                default:
                    if (key.startsWith("Fn::")) {
                        throw new IllegalArgumentException("cannot evaluate " + key + " in " + map);
                    }
            }
        }
        Map<Object, Object> evaluated = new LinkedHashMap<>();
        map.forEach((k, v) -> evaluated.put(k, evaluate(v, refs)));
        return evaluated;
    }

    /** @return the text {@code node} evaluates to: a string, or a number or boolean as CloudFormation prints it */
    public static String string(Object node) {
        return string(node, Map.of());
    }

    /**
     * The text {@code node} evaluates to with the given parameter values.
     *
     * @param node a resolved template value
     * @param refs values for {@code Ref}s
     * @return a string, or a number or boolean as CloudFormation prints it
     */
    public static String string(Object node, Map<String, String> refs) {
        Object value = evaluate(node, refs);
        if (value instanceof String || value instanceof Number || value instanceof Boolean) {
            return String.valueOf(value);
        }
        throw new IllegalArgumentException("not a string: " + value);
    }
}
