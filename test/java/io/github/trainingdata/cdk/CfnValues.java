package io.github.trainingdata.cdk;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Evaluates the intrinsic functions of a synthesized template value into a plain string, standing in
 * for what CloudFormation would produce at deploy: {@code Ref X} becomes {@code ref-X},
 * {@code Fn::GetAtt [X, A]} becomes {@code X.A}, {@code Fn::Select [i, Fn::GetAZs]} becomes
 * {@code az-i}, and {@code Fn::Join} joins. Enough to read a rendered JSON document as deployed.
 */
public final class CfnValues {
    private CfnValues() {
    }

    /** @return the value as a string, with deploy-time values replaced by stand-ins */
    public static String evaluate(Object value) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof Number || value instanceof Boolean) {
            return String.valueOf(value);
        }
        if (value instanceof Map<?, ?> map) {
            if (map.get("Fn::Join") instanceof List<?> join) {
                return ((List<?>) join.get(1)).stream().map(CfnValues::evaluate)
                        .collect(Collectors.joining((String) join.get(0)));
            }
            if (map.get("Ref") instanceof String ref) {
                return ref.startsWith("AWS::") ? pseudo(ref) : "ref-" + ref;
            }
            if (map.get("Fn::GetAtt") instanceof List<?> att) {
                return att.get(0) + "." + att.get(1);
            }
            if (map.get("Fn::Select") instanceof List<?> select) {
                return "az-" + select.get(0);
            }
        }
        throw new IllegalArgumentException("cannot evaluate " + value);
    }

    private static String pseudo(String ref) {
        return switch (ref) {
            case "AWS::Region" -> "us-east-1";
            case "AWS::AccountId" -> "123456789012";
            case "AWS::Partition" -> "aws";
            case "AWS::URLSuffix" -> "amazonaws.com";
            default -> throw new IllegalArgumentException("no stand-in for " + ref);
        };
    }
}
