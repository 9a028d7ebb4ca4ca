package io.github.trainingdata.cdk;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.trainingdata.cdk.internal.CustomResourceProvider;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.PolicyDocument;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.constructs.Construct;

/**
 * Each custom resource's role holds its statements inline, and IAM limits a role's inline policies to 10,240
 * characters together: one role past that fails at synth; several resources below it each do not add up.
 */
class CustomResourceGrantsSizeTest {
    /** @return one statement on {@code count} literal object ARNs of about 60 characters each */
    private static List<PolicyStatement> statements(String name, int count) {
        List<String> resources = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            resources.add("arn:aws:s3:::team-datasets/" + name + "/object-" + String.format("%05d", i) + "/*");
        }
        return List.of(PolicyStatement.Builder.create().actions(List.of("s3:GetObject")).resources(resources).build());
    }

    @Test
    void oneRolePastTheInlinePolicyLimitFailsAtSynth() throws Exception {
        Stack stack = TestApps.stack();
        CustomResourceProvider provider = CustomResourceProvider.of(stack, null);
        List<PolicyStatement> statements = statements("first", 250);
        int size = new ObjectMapper().writeValueAsString(stack.resolve(PolicyDocument.Builder.create()
                .statements(statements).build())).length();
        assertRule("CUSTOM_RESOURCE_GRANTS_SIZE", () -> provider.grant(new Construct(stack, "First"), "HandlerRole",
                "test", statements), "Test/First", "HandlerRole", size + " characters at least",
                CustomResourceProvider.GRANTS_SIZE.getAllowed());
    }

    @Test
    void rolesWithinTheLimitPassHoweverManyTheStackHas() {
        Stack stack = TestApps.stack();
        CustomResourceProvider provider = CustomResourceProvider.of(stack, null);
        // Together far past 10,240 characters: each is a role of its own.
        for (int i = 0; i < 4; i++) {
            String name = "r" + i;
            assertDoesNotThrow(() -> provider.grant(new Construct(stack, name), "HandlerRole", "test",
                    statements(name, 120)));
        }
    }
}
