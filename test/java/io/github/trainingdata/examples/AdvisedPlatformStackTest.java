package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.trainingdata.cdk.NagFindings;
import io.github.trainingdata.cdk.Snapshots;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.advisor.DataSourceOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.assertions.Template;

class AdvisedPlatformStackTest {
    private static App app;
    private static AdvisedPlatformStack stack;
    private static Template template;

    @BeforeAll
    static void synthesizeOnce() {
        app = TestApps.app();
        stack = new AdvisedPlatformStack(app, "TrainingDataAdvisedPlatform");
        template = Template.fromStack(stack);
    }

    @Test
    void theAdvisorPicksLustreForManySmallFilesReadAtRandom() {
        assertEquals(DataSourceOption.FSX_LUSTRE, stack.getPlatform().getSource());
        template.resourceCountIs("AWS::FSx::FileSystem", 1);
        template.resourceCountIs("Custom::LustrePreload", 1);
    }

    @Test
    void matchesTheSnapshot() throws Exception {
        Snapshots.assertMatches("AdvisedPlatform", template);
    }

    @Test
    void passesTheAwsSolutionsPack() {
        assertEquals("", NagFindings.of(stack));
    }
}
