package io.github.trainingdata.cdk;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.s3.Bucket;

/** The cdk-nag helper reports what the pack finds, so a test asserting no findings can fail. */
class NagFindingsTest {
    @Test
    void namesTheRuleAndTheResource() {
        Stack stack = TestApps.stack();
        new Bucket(stack, "Plain");
        String findings = NagFindings.of(stack);
        assertTrue(findings.lines().anyMatch("AwsSolutions-S10 Test/Plain/Resource"::equals), findings);
    }
}
