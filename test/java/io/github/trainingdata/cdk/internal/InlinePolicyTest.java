package io.github.trainingdata.cdk.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.PolicyStatements;
import io.github.trainingdata.cdk.TestApps;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.iam.AccountRootPrincipal;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.ssm.StringParameter;

/** A role's grants rendered inline: the same statements, no separate policy, dependencies on the role. */
class InlinePolicyTest {
    private static PolicyStatement read(String parameter) {
        return PolicyStatement.Builder.create().actions(List.of("ssm:GetParameter"))
                .resources(List.of("arn:aws:ssm:us-east-1:123456789012:parameter/" + parameter)).build();
    }

    @Test
    void everyGrantLandsInTheRoleAlsoOneMadeAfterTheCallAndWhatDependedOnThePolicyDependsOnTheRole() {
        App app = TestApps.app();
        Stack stack = new Stack(app, "Stack");
        Role role = Role.Builder.create(stack, "Role").assumedBy(new ServicePrincipal("states.amazonaws.com")).build();
        role.addToPrincipalPolicy(read("before"));
        InlinePolicy.of(role);
        role.addToPrincipalPolicy(read("after"));
        StringParameter user = StringParameter.Builder.create(stack, "User").stringValue("x").build();
        user.getNode().addDependency(role);
        Template t = Template.fromStack(stack);

        t.resourceCountIs("AWS::IAM::Policy", 0);
        Map<String, Map<String, Object>> roles = t.findResources("AWS::IAM::Role");
        assertEquals(1, roles.size());
        String roleId = roles.keySet().iterator().next();
        List<Map<String, Object>> statements = PolicyStatements.of(roles.get(roleId));
        // cdk.json's minimizePolicies merges the two statements into one; both resources are there.
        assertEquals(Set.of("arn:aws:ssm:us-east-1:123456789012:parameter/before",
                "arn:aws:ssm:us-east-1:123456789012:parameter/after"),
                statements.stream().flatMap(s -> PolicyStatements.strings(s.get("Resource")).stream())
                        .collect(Collectors.toSet()));
        assertEquals(InlinePolicy.NAME, ((Map<?, ?>) ((List<?>) ((Map<?, ?>) roles.get(roleId).get("Properties"))
                .get("Policies")).get(0)).get("PolicyName"));
        assertEquals(List.of(roleId), t.findResources("AWS::SSM::Parameter").values().iterator().next()
                .get("DependsOn"));
    }

    @Test
    void aRoleWithoutGrantsGetsNoPolicies() {
        App app = TestApps.app();
        Stack stack = new Stack(app, "Stack");
        InlinePolicy.of(Role.Builder.create(stack, "Role").assumedBy(new ServicePrincipal("states.amazonaws.com"))
                .build());
        Map<String, Object> role = Template.fromStack(stack).findResources("AWS::IAM::Role").values().iterator().next();
        assertEquals(null, ((Map<?, ?>) role.get("Properties")).get("Policies"));
    }

    @Test
    void anIdentityPolicyThatNamesAPrincipalStillFailsAtSynth() {
        App app = TestApps.app();
        Stack stack = new Stack(app, "Stack");
        Role role = Role.Builder.create(stack, "Role").assumedBy(new ServicePrincipal("states.amazonaws.com")).build();
        InlinePolicy.of(role);
        role.addToPrincipalPolicy(PolicyStatement.Builder.create().actions(List.of("ssm:GetParameter"))
                .resources(List.of("*")).principals(List.of(new AccountRootPrincipal())).build());
        RuntimeException e = assertThrows(RuntimeException.class, () -> app.synth());
        assertTrue(e.getMessage().contains("cannot specify any IAM principals"), e.getMessage());
    }
}
