package io.github.trainingdata.cdk.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.CfnResource;
import software.amazon.awscdk.CfnResourceProps;
import software.constructs.Construct;

/**
 * The stack provider's machinery written with aws-cdk-lib's core {@code CfnResource} (a type and a property map,
 * rendered as given) instead of aws-cdk-lib's classes for the same resources ({@code Role}, {@code Policy},
 * {@code CfnFunction}, {@code CfnStateMachine}). Those load their module's files in jsii's node (all of Step
 * Functions' and Lambda's generated resource classes) and dozens of generated Java classes, and an L2 {@code Role}
 * builds a principal, a grant registry, an aspect and a validation: a cold synth of the data layer paid for each
 * (docs/performance.md, issue 27). The maps hold the properties in the order aws-cdk-lib writes them, under the same
 * construct paths (an L2's resource is its {@code Resource} child), so the template is the same, logical ids and
 * {@code DependsOn} included. A policy document is either aws-cdk-lib's {@code PolicyDocument} (statements given by
 * callers, resolved and minimized as before) or, for the provider's own fixed statements, a map ({@link #document}) as
 * that document renders them: building each {@code PolicyStatement} and document costs jsii round trips.
 */
final class CoreResources {
    /** What aws-cdk-lib's {@code Role} writes as a trust policy's and a policy document's version. */
    static final String POLICY_VERSION = "2012-10-17";

    private CoreResources() {
    }

    /**
     * @param scope      the resource's scope
     * @param id         its id
     * @param type       its CloudFormation type
     * @param properties its properties, in the order the template lists them
     * @return the resource
     */
    static CfnResource resource(Construct scope, String id, String type, Map<String, Object> properties) {
        return new CfnResource(scope, id, CfnResourceProps.builder().type(type).properties(properties).build());
    }

    /**
     * An {@code AWS::IAM::Role} as aws-cdk-lib's {@code Role} writes it, the {@code Resource} of {@code role}.
     *
     * @param role              the construct that stands for the role (an L2's place in the tree)
     * @param principal         the one principal its trust policy allows {@code sts:AssumeRole}, e.g.
     *                          {@code {"Service": "lambda.amazonaws.com"}}
     * @param description       its description, or null
     * @param managedPolicyArns its managed policies' ARNs (may be empty)
     * @param path              its IAM path, or null
     * @param policyName        the name of its one inline policy
     * @param policy            that policy: a {@code PolicyDocument} or a {@link #document}
     * @return the role's resource
     */
    static CfnResource role(Construct role, Map<String, Object> principal, String description,
            List<String> managedPolicyArns, String path, String policyName, Object policy) {
        Map<String, Object> trust = new LinkedHashMap<>();
        trust.put("Statement", List.of(ordered("Action", "sts:AssumeRole", "Effect", "Allow", "Principal", principal)));
        trust.put("Version", POLICY_VERSION);
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("AssumeRolePolicyDocument", trust);
        if (description != null) {
            properties.put("Description", description);
        }
        if (!managedPolicyArns.isEmpty()) {
            properties.put("ManagedPolicyArns", managedPolicyArns);
        }
        if (path != null) {
            properties.put("Path", path);
        }
        properties.put("Policies", List.of(ordered("PolicyDocument", policy, "PolicyName", policyName)));
        return resource(role, "Resource", "AWS::IAM::Role", properties);
    }

    /**
     * An {@code AWS::IAM::Policy} as aws-cdk-lib's {@code Policy} writes it, at {@code scope/id/Resource}: named by its
     * own logical id, attached to one role.
     *
     * @param scope  the policy's scope
     * @param id     the policy's id (a construct of that id holds the resource)
     * @param policy its document: a {@code PolicyDocument} or a {@link #document}
     * @param role   the role it is attached to
     * @return the policy's resource
     */
    static CfnResource policy(Construct scope, String id, Object policy, CfnResource role) {
        // The name's place is kept in the map; its value, the resource's own logical id, is known once it exists.
        CfnResource resource = resource(new Construct(scope, id), "Resource", "AWS::IAM::Policy",
                ordered("PolicyDocument", policy, "PolicyName", "", "Roles", List.of(role.getRef())));
        resource.addPropertyOverride("PolicyName", resource.getLogicalId());
        return resource;
    }

    /**
     * A policy document as aws-cdk-lib's {@code PolicyDocument} renders these statements: for fixed statements that
     * its minimization would leave as they are (no two with the same actions, resources or conditions).
     *
     * @param statements the statements ({@link #allow})
     * @return the document
     */
    static Map<String, Object> document(List<Map<String, Object>> statements) {
        return ordered("Statement", statements, "Version", POLICY_VERSION);
    }

    /**
     * An Allow statement as aws-cdk-lib's {@code PolicyStatement} renders it: one action or resource as a string,
     * more as a list (in the given order).
     *
     * @param actions   its actions
     * @param resources its resources (strings, tokens included)
     * @return the statement
     */
    static Map<String, Object> allow(List<String> actions, List<String> resources) {
        return ordered("Action", single(actions), "Effect", "Allow", "Resource", single(resources));
    }

    private static Object single(List<String> values) {
        return values.size() == 1 ? values.get(0) : values;
    }

    /** @return a map of the given keys and values, in their order */
    static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
