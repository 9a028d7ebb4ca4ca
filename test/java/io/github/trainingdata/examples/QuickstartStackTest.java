package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.trainingdata.cdk.NagFindings;
import io.github.trainingdata.cdk.Snapshots;
import io.github.trainingdata.cdk.TestApps;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
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
        assertEquals("", NagFindings.of(stack));
    }
}
