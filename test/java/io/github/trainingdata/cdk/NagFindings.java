package io.github.trainingdata.cdk;

import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import io.github.cdklabs.cdknag.NagPackProps;
import java.util.stream.Collectors;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Stage;

/**
 * The tests' one cdk-nag check: runs the AwsSolutions pack over a stack, as {@code validateScope} does at synth,
 * and lists what it finds, so a test asserts {@code assertEquals("", NagFindings.of(stack))} and a failure names
 * every rule and resource. Findings acknowledged with {@code Validations.acknowledge} are left out.
 */
public final class NagFindings {
    private NagFindings() {
    }

    /** @return one line per violated rule, {@code <rule> <construct path>,<construct path>...}; empty when none */
    public static String of(Stack stack) {
        Stage.of(stack).synth(); // validates the app, which records our per-finding acknowledgements
        return new AwsSolutionsChecks(stack.getNode().getRoot(), NagPackProps.builder().verbose(false).build())
                .validateScope(stack).getViolations().stream()
                .map(v -> v.getRuleName() + " " + v.getViolatingResources().stream()
                        .map(r -> r.getConstructPath()).collect(Collectors.joining(",")))
                .collect(Collectors.joining("\n"));
    }
}
