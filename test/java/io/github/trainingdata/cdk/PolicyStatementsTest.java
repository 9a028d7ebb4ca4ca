package io.github.trainingdata.cdk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The statement walker, and the check of {@link SecurityProperties} built on it. */
class PolicyStatementsTest {
    private static Map<String, Object> statement(Object action, Object resource) {
        return Map.of("Action", action, "Effect", "Allow", "Resource", resource);
    }

    private static Map<String, Object> document(Map<String, Object> statement) {
        return Map.of("Version", "2012-10-17", "Statement", List.of(statement));
    }

    @Test
    void readsPoliciesManagedPoliciesAndInlineRolePoliciesOnly() {
        Map<String, Object> read = statement("s3:GetObject", Map.of("Fn::Join", List.of("", List.of("arn:",
                Map.of("Ref", "AWS::Partition"), ":s3:::b/*"))));
        assertEquals(List.of(read), PolicyStatements.of(Map.of("Type", "AWS::IAM::Policy",
                "Properties", Map.of("PolicyDocument", document(read), "Roles", List.of(Map.of("Ref", "R"))))));
        assertEquals(List.of(read), PolicyStatements.of(Map.of("Type", "AWS::IAM::ManagedPolicy",
                "Properties", Map.of("PolicyDocument", document(read)))));
        assertEquals(List.of(read), PolicyStatements.of(Map.of("Type", "AWS::IAM::Role", "Properties", Map.of(
                "AssumeRolePolicyDocument", document(statement("sts:AssumeRole", "*")),
                "Policies", List.of(Map.of("PolicyName", "p", "PolicyDocument", document(read)))))));
        assertEquals(List.of(), PolicyStatements.of(Map.of("Type", "AWS::S3::BucketPolicy",
                "Properties", Map.of("PolicyDocument", document(read)))));
        assertEquals(List.of("arn:REF(AWS::Partition):s3:::b/*"), PolicyStatements.strings(read.get("Resource")));
        assertEquals(List.of("a", "b"), PolicyStatements.strings(List.of("a", "b")));
    }

    @Test
    void securityPropertiesFlagEveryActionOnEveryResourceInAnyForm() {
        for (Map<String, Object> admin : List.of(statement("*", "*"), statement(List.of("*"), List.of("*")),
                Map.of("Action", "*", "Condition", Map.of("Bool", Map.of("aws:SecureTransport", "true")),
                        "Effect", "Allow", "Resource", "*"))) {
            Map<String, Object> template = Map.of("Resources", Map.of("Admin", Map.of("Type", "AWS::IAM::Policy",
                    "Properties", Map.of("PolicyDocument", document(admin), "Roles", List.of("r")))));
            assertEquals(List.of("Admin allows every action on every resource"), SecurityProperties.violations(template),
                    admin.toString());
        }
        Map<String, Object> scoped = Map.of("Resources", Map.of(
                "Denied", Map.of("Type", "AWS::IAM::Policy", "Properties", Map.of("PolicyDocument",
                        document(Map.of("Action", "*", "Effect", "Deny", "Resource", "*")), "Roles", List.of("r"))),
                "Scoped", Map.of("Type", "AWS::IAM::Role", "Properties", Map.of("Policies", List.of(Map.of(
                        "PolicyName", "p", "PolicyDocument", document(statement("*", "arn:aws:s3:::b/*"))))))));
        assertEquals(List.of(), SecurityProperties.violations(scoped));
    }
}
