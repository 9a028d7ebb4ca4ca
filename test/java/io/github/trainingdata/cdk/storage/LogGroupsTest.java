package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.internal.LogGroups;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.github.trainingdata.cdk.TestApps;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.logs.LogGroup;
import software.constructs.Construct;

class LogGroupsTest {

    @Test
    void withoutAKeyTheLogGroupIsKeptOneYearWithCloudWatchLogsEncryption() {
        Stack stack = TestApps.stack();
        LogGroups.create(stack, "Logs", null);
        Template.fromStack(stack).hasResourceProperties("AWS::Logs::LogGroup", Map.of(
                "RetentionInDays", 365, "KmsKeyId", Match.absent()));
        // Kept when the stack is deleted; a deploy that created it and rolled back leaves none behind.
        Template.fromStack(stack).hasResource("AWS::Logs::LogGroup", Map.of(
                "DeletionPolicy", "RetainExceptOnCreate", "UpdateReplacePolicy", "Retain"));
    }

    @Test
    void withTheDataKeyTheLogGroupIsEncryptedAndTheKeyAdmitsCloudWatchLogsForThisAccountOnce() {
        Stack stack = TestApps.stack();
        Key key = Key.Builder.create(stack, "DataKey").enableKeyRotation(true).build();
        LogGroups.create(stack, "First", key);
        LogGroups.create(stack, "Second", key);
        Template t = Template.fromStack(stack);

        t.allResourcesProperties("AWS::Logs::LogGroup", Map.of(
                "RetentionInDays", 365,
                "KmsKeyId", Map.of("Fn::GetAtt", List.of(stack.getLogicalId((CfnElement) key.getNode().getDefaultChild()),
                        "Arn"))));
        Map<String, Object> logs = Map.of(
                "Effect", "Allow",
                "Principal", Map.of("Service", Map.of("Fn::Join", List.of("", List.of("logs.",
                        Map.of("Ref", "AWS::Region"), ".", Map.of("Ref", "AWS::URLSuffix"))))),
                // cdk.json's minimizePolicies flag sorts the actions
                "Action", List.of("kms:Decrypt*", "kms:Describe*", "kms:Encrypt*", "kms:GenerateDataKey*",
                        "kms:ReEncrypt*"),
                "Resource", "*",
                "Condition", Map.of("ArnLike", Map.of("kms:EncryptionContext:aws:logs:arn", Map.of("Fn::Join",
                        List.of("", List.of("arn:", Map.of("Ref", "AWS::Partition"), ":logs:",
                                Map.of("Ref", "AWS::Region"), ":", Map.of("Ref", "AWS::AccountId"),
                                ":log-group:*"))))));
        t.hasResourceProperties("AWS::KMS::Key", Map.of("KeyPolicy", Map.of("Statement", Match.arrayWith(
                List.of(logs)))));
        List<?> statements = (List<?>) ((Map<?, ?>) ((Map<?, ?>) t.findResources("AWS::KMS::Key").values()
                .iterator().next().get("Properties")).get("KeyPolicy")).get("Statement");
        assertEquals(1, statements.stream().filter(logs::equals).count(), "one statement for both log groups");
    }

    @Test
    void anImportedKeyGetsAWarningSayingWhatItsPolicyNeeds() {
        Stack stack = TestApps.stack();
        LogGroups.create(stack, "Logs", Key.fromKeyArn(stack, "Imported",
                "arn:aws:kms:us-east-1:123456789012:key/0f1e2d3c-4b5a-4978-8899-aabbccddeeff"));
        Annotations.fromStack(stack).hasWarning("/Test/Logs", Match.stringLikeRegexp("Test/Logs: the KMS key is "
                + "imported, so its key policy cannot be changed here; allow the service principal "
                + "logs.<region>.amazonaws.com .*kms:EncryptionContext:aws:logs:arn.*"));
    }

    @Test
    void theSharedLogGroupIsOnePerStackAndKeyWhoeverAsksFirst() {
        Stack stack = TestApps.stack();
        Key key = Key.Builder.create(stack, "DataKey").enableKeyRotation(true).build();
        Key other = Key.Builder.create(stack, "OtherKey").enableKeyRotation(true).build();
        Construct deep = new Construct(new Construct(stack, "A"), "B");
        LogGroup fromDeep = LogGroups.shared(deep, key);
        assertSame(fromDeep, LogGroups.shared(stack, key));
        assertSame(LogGroups.shared(stack, null), LogGroups.shared(deep, null));
        LogGroup otherGroup = LogGroups.shared(deep, other);
        assertNotSame(fromDeep, otherGroup);
        assertNotSame(fromDeep, LogGroups.shared(stack, null));
        Template.fromStack(stack).resourceCountIs("AWS::Logs::LogGroup", 3);
        // At the stack's root, named after the key (not after the construct that asked first).
        assertEquals(stack, fromDeep.getNode().getScope());
        Stack again = TestApps.stack();
        Key sameKey = Key.Builder.create(again, "DataKey").enableKeyRotation(true).build();
        LogGroups.shared(again, Key.Builder.create(again, "OtherKey").enableKeyRotation(true).build());
        assertEquals(fromDeep.getNode().getId(), LogGroups.shared(again, sameKey).getNode().getId());
        assertNotEquals(fromDeep.getNode().getId(), otherGroup.getNode().getId());
    }
}
