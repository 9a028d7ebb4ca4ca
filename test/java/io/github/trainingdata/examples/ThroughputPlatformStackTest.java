package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.trainingdata.cdk.NagFindings;
import io.github.trainingdata.cdk.Snapshots;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.advisor.DataSourceOption;
import io.github.trainingdata.cdk.advisor.LustreSizing;
import io.github.trainingdata.cdk.performance.LustreTier;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class ThroughputPlatformStackTest {
    private static ThroughputPlatformStack stack;
    private static Template template;

    @BeforeAll
    static void synthesizeOnce() {
        App app = TestApps.app();
        stack = new ThroughputPlatformStack(app, "TrainingDataThroughputPlatform");
        template = Template.fromStack(stack);
    }

    @Test
    void thePinnedCacheIsTheAdvisorsPersistent2Tier() {
        assertEquals(DataSourceOption.FSX_LUSTRE, stack.getPlatform().getSource());
        // 2 TB per 30-minute epoch: 1111 MB/s. SCRATCH_2 needs 7200 GiB ($1,008); PERSISTENT_2 at 500 holds 2 TB in
        // 2400 GiB, whose 1172 MB/s feeds them ($816): the advisor's choice is what the example pins.
        assertEquals(new LustreSizing(LustreTier.persistent2(500), 2400),
                stack.getPlatform().getRecommendation().lustre().chosen());
        assertEquals(new LustreSizing(LustreTier.scratch2(), 7200),
                stack.getPlatform().getRecommendation().lustre().scratch());
        template.hasResourceProperties("AWS::FSx::FileSystem", Match.objectLike(Map.of(
                "StorageCapacity", 2400,
                "KmsKeyId", Map.of("Fn::GetAtt", List.of(Match.stringLikeRegexp("PlatformDataBucketKey.*"), "Arn")),
                "LustreConfiguration", Match.objectLike(Map.of("DeploymentType", "PERSISTENT_2",
                        "PerUnitStorageThroughput", 500, "MetadataConfiguration", Map.of("Mode", "USER_PROVISIONED",
                                "Iops", 12000),
                        "AutomaticBackupRetentionDays", 0)))));
        template.resourceCountIs("Custom::LustrePreload", 1);
    }

    @Test
    void matchesTheSnapshot() throws Exception {
        Snapshots.assertMatches("ThroughputPlatform", template);
    }

    @Test
    void passesTheAwsSolutionsPack() {
        assertEquals("", NagFindings.of(stack));
    }
}
