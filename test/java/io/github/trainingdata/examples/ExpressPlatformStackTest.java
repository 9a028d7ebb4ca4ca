package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.NagFindings;
import io.github.trainingdata.cdk.Snapshots;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.advisor.DataSourceOption;
import io.github.trainingdata.cdk.advisor.OptionEstimate;
import io.github.trainingdata.cdk.advisor.Recommendation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

class ExpressPlatformStackTest {
    private static ExpressPlatformStack stack;
    private static Template template;

    @BeforeAll
    static void synthesizeOnce() {
        stack = new ExpressPlatformStack(TestApps.app(), "TrainingDataExpressPlatform");
        template = Template.fromStack(stack);
    }

    @Test
    void theAdvisorPicksFastFileOnADirectoryBucketAndThePlatformBuildsIt() {
        Recommendation recommendation = stack.getPlatform().getRecommendation();
        assertEquals(DataSourceOption.S3_EXPRESS_FAST_FILE, stack.getPlatform().getSource());
        OptionEstimate express = recommendation.estimateFor(DataSourceOption.S3_EXPRESS_FAST_FILE);
        OptionEstimate lustre = recommendation.estimateFor(DataSourceOption.FSX_LUSTRE);
        // Lustre is cheaper by less than the 5% tie margin; the directory bucket needs less set-up.
        assertTrue(lustre.costUsd() < express.costUsd() && express.costUsd() <= lustre.costUsd() * 1.05);
        template.resourceCountIs("AWS::S3Express::DirectoryBucket", 1);
        template.resourceCountIs("AWS::FSx::FileSystem", 0);
    }

    @Test
    void matchesTheSnapshot() throws Exception {
        Snapshots.assertMatches("ExpressPlatform", template);
    }

    @Test
    void passesTheAwsSolutionsPack() {
        assertEquals("", NagFindings.of(stack));
    }
}
