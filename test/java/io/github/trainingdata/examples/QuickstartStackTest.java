package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import io.github.cdklabs.cdknag.NagPackProps;
import io.github.trainingdata.cdk.Snapshots;
import io.github.trainingdata.cdk.TestApps;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.PolicyValidationPluginReport;
import software.amazon.awscdk.assertions.Template;

class QuickstartStackTest {
    private static App app;
    private static QuickstartStack stack;
    private static Template template;

    @BeforeAll
    static void synthesizeOnce() {
        app = TestApps.app();
        stack = new QuickstartStack(app, "TrainingDataQuickstart");
        template = Template.fromStack(stack);
    }

    @Test
    void matchesTheSnapshot() throws Exception {
        Snapshots.assertMatches("Quickstart", template);
    }

    @Test
    void passesTheAwsSolutionsPackWithOnlyReasonedAcknowledgements() {
        PolicyValidationPluginReport report = new AwsSolutionsChecks(app, NagPackProps.builder().verbose(false).build())
                .validateScope(stack);
        String findings = report.getViolations().stream()
                .map(v -> v.getRuleName() + " " + v.getViolatingResources().stream()
                        .map(r -> r.getResourceLogicalId()).collect(Collectors.joining(",")))
                .collect(Collectors.joining("\n"));
        assertEquals("", findings);
    }
}
