package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import io.github.cdklabs.cdknag.NagPackProps;
import io.github.trainingdata.cdk.Snapshots;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.advisor.DataSourceOption;
import java.util.stream.Collectors;
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
        String findings = new AwsSolutionsChecks(app, NagPackProps.builder().verbose(false).build())
                .validateScope(stack).getViolations().stream().map(v -> v.getRuleName())
                .collect(Collectors.joining("\n"));
        assertEquals("", findings);
    }
}
