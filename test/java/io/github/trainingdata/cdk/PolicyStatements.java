package io.github.trainingdata.cdk;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.assertions.Template;

/**
 * The tests' one walker of IAM identity-policy statements in a synthesized template: the {@code PolicyDocument}
 * of an {@code AWS::IAM::Policy} or {@code AWS::IAM::ManagedPolicy} and the inline {@code Policies} of an
 * {@code AWS::IAM::Role}, in template order. Statements come as rendered; {@link #strings} reads an
 * {@code Action} or {@code Resource} with its intrinsics evaluated ({@link Intrinsics}).
 */
public final class PolicyStatements {
    private PolicyStatements() {
    }

    /** @return the statements of one resource of a template (empty for a resource that holds no identity policy) */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> of(Map<String, Object> resource) {
        Object type = resource.get("Type");
        Map<String, Object> properties = (Map<String, Object>) resource.getOrDefault("Properties", Map.of());
        List<Map<String, Object>> statements = new ArrayList<>();
        if ("AWS::IAM::Policy".equals(type) || "AWS::IAM::ManagedPolicy".equals(type)) {
            statements.addAll(statementsOf(properties.get("PolicyDocument")));
        } else if ("AWS::IAM::Role".equals(type) && properties.get("Policies") instanceof List<?> inline) {
            inline.forEach(p -> statements.addAll(statementsOf(((Map<String, Object>) p).get("PolicyDocument"))));
        }
        return statements;
    }

    /** @return every statement of every identity policy in {@code template} */
    public static List<Map<String, Object>> allStatements(Template template) {
        List<Map<String, Object>> statements = new ArrayList<>();
        resources(template).values().forEach(r -> statements.addAll(of(r)));
        return statements;
    }

    /**
     * @param role how the policies name the role in {@code Roles}: {@code Map.of("Ref", logicalId)} for a role of the
     *     stack, its name for an imported one
     * @return the statements of the role's inline {@code Policies} (a role of the stack) and of every
     *     {@code AWS::IAM::Policy} attached to {@code role}
     */
    public static List<Map<String, Object>> statements(Template template, Object role) {
        List<Map<String, Object>> statements = new ArrayList<>();
        if (role instanceof Map<?, ?> ref && ref.get("Ref") instanceof String logicalId
                && resources(template).get(logicalId) != null) {
            statements.addAll(of(resources(template).get(logicalId)));
        }
        resources(template).values().forEach(r -> {
            if ("AWS::IAM::Policy".equals(r.get("Type"))
                    && ((List<?>) ((Map<?, ?>) r.get("Properties")).get("Roles")).contains(role)) {
                statements.addAll(of(r));
            }
        });
        return statements;
    }

    /** @return an {@code Action} or {@code Resource} (one value or a list) as a list, as rendered */
    public static List<?> elements(Object value) {
        return value instanceof List<?> list ? list : List.of(value);
    }

    /** @return an {@code Action} or {@code Resource} (one value or a list) as strings, intrinsics evaluated */
    public static List<String> strings(Object value) {
        return elements(value).stream().map(Intrinsics::string).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> statementsOf(Object document) {
        return (List<Map<String, Object>>) ((Map<String, Object>) document).get("Statement");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> resources(Template template) {
        return (Map<String, Map<String, Object>>) template.toJSON().get("Resources");
    }
}
