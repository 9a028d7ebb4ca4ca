package io.github.trainingdata.cdk;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.trainingdata.cdk.internal.CustomResourceProvider;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.Policy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.constructs.Construct;

/**
 * The stack's custom resources' grants share the provider's one role, whose inline policies IAM limits to 10,240
 * characters together: a grant past that fails at synth.
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
    void grantsPastTheRolesInlinePolicyLimitFailAtSynth() throws Exception {
        Stack stack = TestApps.stack();
        CustomResourceProvider provider = CustomResourceProvider.of(stack, null);
        Policy first = provider.grant(new Construct(stack, "First"), statements("first", 120));
        int firstSize = new ObjectMapper().writeValueAsString(stack.resolve(first.getDocument())).length();
        Construct second = new Construct(stack, "Second");
        // The same document's size, with "second" (one character more) for "first" in each of the 120 ARNs.
        int secondSize = firstSize + 120;
        assertRule("CUSTOM_RESOURCE_GRANTS_SIZE", () -> provider.grant(second, statements("second", 120)),
                "Test/Second", "ProviderGrants", (firstSize + secondSize) + " characters at least (" + secondSize
                        + " of them this construct's)", CustomResourceProvider.GRANTS_SIZE.getAllowed());
    }

    @Test
    void grantsWithinTheLimitPass() {
        Stack stack = TestApps.stack();
        CustomResourceProvider provider = CustomResourceProvider.of(stack, null);
        provider.grant(new Construct(stack, "First"), statements("first", 60));
        assertDoesNotThrow(() -> provider.grant(new Construct(stack, "Second"), statements("second", 60)));
    }
}
