package io.github.trainingdata.cdk.storage;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.TestApps;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.CfnParameter;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.EventType;
import software.amazon.awscdk.services.s3.IBucket;
import software.amazon.awscdk.services.s3.notifications.SnsDestination;
import software.amazon.awscdk.services.sns.Topic;

class TrainingDataBucketTest {

    @Test
    void newBucketIsEncryptedTlsOnlyPrivateVersionedLoggedAndRetained() {
        Stack stack = TestApps.stack();
        new TrainingDataBucket(stack, "Data");
        Template t = Template.fromStack(stack);

        // Retained when the stack is deleted, and when the deploy that created it rolls back: a versioned bucket with
        // any object version in it (an upload, an access log) cannot be deleted, so a rollback that deleted it would
        // end in ROLLBACK_FAILED. Both buckets.
        assertEquals(2, t.findResources("AWS::S3::Bucket", Map.of("DeletionPolicy", "Retain",
                "UpdateReplacePolicy", "Retain")).size());
        t.hasResource("AWS::S3::Bucket", Map.of(
                "DeletionPolicy", "Retain",
                "UpdateReplacePolicy", "Retain",
                "Properties", Match.objectLike(Map.of(
                        "BucketEncryption", Map.of("ServerSideEncryptionConfiguration", List.of(Map.of(
                                "ServerSideEncryptionByDefault", Map.of("SSEAlgorithm", "AES256")))),
                        "PublicAccessBlockConfiguration", Map.of("BlockPublicAcls", true, "BlockPublicPolicy", true,
                                "IgnorePublicAcls", true, "RestrictPublicBuckets", true),
                        "VersioningConfiguration", Map.of("Status", "Enabled"),
                        "LoggingConfiguration", Match.objectLike(Map.of("LogFilePrefix", "training-data/")),
                        "LifecycleConfiguration", Map.of("Rules", List.of(Match.objectLike(Map.of(
                                "NoncurrentVersionExpiration", Map.of("NoncurrentDays", 30),
                                "AbortIncompleteMultipartUpload", Map.of("DaysAfterInitiation", 7),
                                "Status", "Enabled"))))))));
        t.hasResourceProperties("AWS::S3::BucketPolicy", Map.of("PolicyDocument", Map.of("Statement",
                Match.arrayWith(List.of(Match.objectLike(Map.of(
                        "Effect", "Deny",
                        "Action", "s3:*",
                        "Condition", Map.of("Bool", Map.of("aws:SecureTransport", "false")))))))));
        t.resourceCountIs("AWS::S3::Bucket", 2);
    }

    @Test
    void kmsEncryptionCreatesARotatedKeyAndUsesBucketKeys() {
        Stack stack = TestApps.stack();
        new TrainingDataBucket(stack, "Data", TrainingDataBucketProps.builder()
                .encryption(DataEncryption.KMS).build());
        Template t = Template.fromStack(stack);

        t.hasResourceProperties("AWS::KMS::Key", Map.of("EnableKeyRotation", true));
        // The key follows the bucket: a bucket kept after a failed first deploy must keep its objects readable.
        t.hasResource("AWS::KMS::Key", Map.of("DeletionPolicy", "Retain", "UpdateReplacePolicy", "Retain"));
        t.hasResourceProperties("AWS::S3::Bucket", Map.of("BucketEncryption", Map.of(
                "ServerSideEncryptionConfiguration", List.of(Map.of(
                        "BucketKeyEnabled", true,
                        "ServerSideEncryptionByDefault", Match.objectLike(Map.of("SSEAlgorithm", "aws:kms")))))));
    }

    @Test
    void theKmsKeyIsTheDataLayersKeyAndAdmitsGrantsOnlyForAwsServices() {
        Stack stack = TestApps.stack();
        TrainingDataBucket data = new TrainingDataBucket(stack, "Data", TrainingDataBucketProps.builder()
                .encryption(DataEncryption.KMS).build());
        Template t = Template.fromStack(stack);

        assertSame(data.getBucket().getEncryptionKey(), data.getEncryptionKey());
        t.hasResourceProperties("AWS::KMS::Key", Map.of("KeyPolicy", Map.of("Statement", Match.arrayWith(List.of(
                Map.of("Effect", "Deny", "Principal", Map.of("AWS", "*"), "Action", "kms:CreateGrant",
                        "Resource", "*", "Condition", Map.of("BoolIfExists", Map.of(
                                "kms:GrantIsForAWSResource", "false", "aws:PrincipalIsAWSService", "false"))))))));
    }

    @Test
    void s3ManagedEncryptionHasNoDataKey() {
        TrainingDataBucket data = new TrainingDataBucket(TestApps.stack(), "Data");
        assertEquals(null, data.getEncryptionKey());
    }

    @Test
    void dataBucketHasObjectLockWithoutDefaultRetentionAndSendsEventsToEventBridge() {
        Stack stack = TestApps.stack();
        new TrainingDataBucket(stack, "Data");
        Template t = Template.fromStack(stack);

        t.hasResourceProperties("AWS::S3::Bucket", Map.of(
                "ObjectLockEnabled", true,
                "ObjectLockConfiguration", Match.absent(),
                "LoggingConfiguration", Match.anyValue(),
                "NotificationConfiguration", Map.of("EventBridgeConfiguration", Map.of("EventBridgeEnabled", true))));
    }

    @Test
    void accessLogBucketIsVersionedSseS3WithoutObjectLockAndAdmitsLogDeliveryByPolicyOnly() {
        Stack stack = TestApps.stack();
        new TrainingDataBucket(stack, "Data", TrainingDataBucketProps.builder()
                .encryption(DataEncryption.KMS).build());
        Template t = Template.fromStack(stack);

        // S3 delivers server access logs only to SSE-S3 buckets without Object Lock.
        t.hasResourceProperties("AWS::S3::Bucket", Map.of(
                "LoggingConfiguration", Match.absent(),
                "ObjectLockEnabled", Match.absent(),
                "AccessControl", Match.absent(),
                "OwnershipControls", Map.of("Rules", List.of(Map.of("ObjectOwnership", "BucketOwnerEnforced"))),
                "BucketEncryption", Map.of("ServerSideEncryptionConfiguration", List.of(Map.of(
                        "ServerSideEncryptionByDefault", Map.of("SSEAlgorithm", "AES256")))),
                "VersioningConfiguration", Map.of("Status", "Enabled"),
                "NotificationConfiguration", Map.of("EventBridgeConfiguration", Map.of("EventBridgeEnabled", true)),
                "LifecycleConfiguration", Map.of("Rules", List.of(Map.of(
                        "Id", "ExpireAccessLogs",
                        "ExpirationInDays", 365,
                        "NoncurrentVersionExpiration", Map.of("NoncurrentDays", 30),
                        "Status", "Enabled")))));
        t.hasResourceProperties("AWS::S3::BucketPolicy", Map.of("PolicyDocument", Map.of("Statement",
                Match.arrayWith(List.of(Match.objectLike(Map.of(
                        "Effect", "Allow",
                        "Principal", Map.of("Service", "logging.s3.amazonaws.com"),
                        "Action", "s3:PutObject")))))));
    }

    @Test
    void destroyPolicyEmptiesTheBucketsSoDeletionNeverGetsStuck() {
        Stack stack = TestApps.stack();
        new TrainingDataBucket(stack, "Data", TrainingDataBucketProps.builder()
                .removalPolicy(RemovalPolicy.DESTROY).build());
        Template t = Template.fromStack(stack);

        t.resourceCountIs("Custom::S3AutoDeleteObjects", 2);
        t.allResources("AWS::S3::Bucket", Map.of("DeletionPolicy", "Delete"));
    }

    @Test
    void existingBucketIsUsedAsIsWithItsPrefix() {
        Stack stack = TestApps.stack();
        IBucket existing = Bucket.fromBucketName(stack, "Existing", "team-datasets");
        TrainingDataBucket data = new TrainingDataBucket(stack, "Data", TrainingDataBucketProps.builder()
                .bucket(existing).datasetPrefix("vision/coco").build());

        assertSame(existing, data.getBucket());
        assertEquals(List.of(), data.getNode().getChildren(), "an existing bucket gets no new resources");
        assertEquals("s3://team-datasets/vision/coco/train/", data.s3Uri("train"));
        assertEquals("s3://team-datasets/vision/coco/", data.s3Uri(""));
        assertEquals("s3://team-datasets/vision/coco", data.datasetUri());
        assertEquals("vision/coco/train/shard-0", data.keyPrefix("train/shard-0"));
    }

    @Test
    void bucketRootDatasetGivesRootUris() {
        Stack stack = TestApps.stack();
        TrainingDataBucket data = new TrainingDataBucket(stack, "Data", TrainingDataBucketProps.builder()
                .bucket(Bucket.fromBucketName(stack, "Existing", "team-datasets")).datasetPrefix("").build());

        assertEquals("s3://team-datasets", data.datasetUri());
        assertEquals("s3://team-datasets/", data.s3Uri(""));
        assertEquals("s3://team-datasets/train/", data.s3Uri("train"));
    }

    @Test
    void rejectsNewBucketSettingsWithAnExistingBucket() {
        Stack stack = TestApps.stack();
        IBucket existing = Bucket.fromBucketName(stack, "Existing", "team-datasets");
        assertRule("STORE_EXISTING_OR_NEW", () -> new TrainingDataBucket(stack, "Data",
                TrainingDataBucketProps.builder().bucket(existing).encryption(DataEncryption.KMS)
                        .removalPolicy(RemovalPolicy.DESTROY).build()),
                "Test/Data", "encryption", "set together with bucket",
                "either an existing bucket or settings for a new one, not both (new-bucket settings given: "
                        + "encryption, removalPolicy)");
    }

    @Test
    void rejectsARemovalPolicyWhoseRollbackCannotComplete() {
        Stack stack = TestApps.stack();
        assertRule("BUCKET_REMOVAL_POLICY", () -> new TrainingDataBucket(stack, "Data", TrainingDataBucketProps
                .builder().removalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE).build()), "Test/Data",
                "removalPolicy", "RETAIN_ON_UPDATE_OR_DELETE", "RETAIN (kept, also when the deploy that created it "
                        + "rolls back) or DESTROY (emptied and deleted with the stack): RetainExceptOnCreate deletes "
                        + "the bucket when its creating deploy rolls back, which fails once it holds any object version "
                        + "(S3 deletes a bucket only when every version is gone), leaving the stack in ROLLBACK_FAILED; "
                        + "a bucket takes no snapshot");
    }

    @Test
    void rejectsAKeyWithS3ManagedEncryption() {
        Stack stack = TestApps.stack();
        assertRule("BUCKET_ENCRYPTION_KEY", () -> new TrainingDataBucket(stack, "Data",
                TrainingDataBucketProps.builder().encryption(DataEncryption.S3_MANAGED)
                        .encryptionKey(new software.amazon.awscdk.services.kms.Key(stack, "Key")).build()),
                "Test/Data", "encryption", "S3_MANAGED",
                "KMS when an encryptionKey is given (or leave encryption unset)");
    }

    @Test
    void rejectsANoncurrentExpirationShorterThanADay() {
        assertRule("BUCKET_NONCURRENT_EXPIRATION", () -> new TrainingDataBucket(TestApps.stack(),
                "Data", TrainingDataBucketProps.builder().noncurrentVersionExpiration(Duration.hours(12)).build()),
                "Test/Data", "noncurrentVersionExpiration", "12 hours",
                "a whole number of days, at least 1 (S3 lifecycle rules count whole days; a deploy-time value given "
                        + "as Duration.days(...))");
    }

    @Test
    void aNoncurrentExpirationAwsCdkLibCannotConvertIsRefusedAndDeployTimeDaysAreKept() {
        Stack stack = TestApps.stack();
        Number hours = CfnParameter.Builder.create(stack, "Hours").type("Number").build()
                .getValueAsNumber();
        assertRule("BUCKET_NONCURRENT_EXPIRATION", () -> new TrainingDataBucket(stack, "Data", TrainingDataBucketProps
                .builder().noncurrentVersionExpiration(Duration.hours(hours)).build()), "Test/Data",
                "noncurrentVersionExpiration", "<token> hours", "a whole number of days, at least 1 (S3 lifecycle "
                        + "rules count whole days; a deploy-time value given as Duration.days(...))");
        assertRule("BUCKET_NONCURRENT_EXPIRATION", () -> new TrainingDataBucket(stack, "Other", TrainingDataBucketProps
                .builder().noncurrentVersionExpiration(Duration.millis(86_400_000.5)).build()), "Test/Other",
                "noncurrentVersionExpiration", "1 day 0.5 millis", "a whole number of days, at least 1 (S3 lifecycle "
                        + "rules count whole days; a deploy-time value given as Duration.days(...))");
        Number days = CfnParameter.Builder.create(stack, "Days").type("Number").build()
                .getValueAsNumber();
        new TrainingDataBucket(stack, "Kept", TrainingDataBucketProps.builder()
                .noncurrentVersionExpiration(Duration.days(days)).build());
        Template.fromStack(stack).hasResourceProperties("AWS::S3::Bucket", Match.objectLike(Map.of(
                "LifecycleConfiguration", Map.of("Rules", List.of(Match.objectLike(Map.of(
                        "NoncurrentVersionExpiration", Map.of("NoncurrentDays", Map.of("Ref", "Days")))))))));
    }

    @Test
    void rejectsADatasetPrefixWithALeadingSlash() {
        assertRule("KEY_PREFIX_FORMAT", () -> new TrainingDataBucket(TestApps.stack(),
                "Data", TrainingDataBucketProps.builder().datasetPrefix("/datasets").build()),
                "Test/Data", "datasetPrefix", "/datasets",
                "a key prefix of S3 safe characters [A-Za-z0-9!_.*'()/=+-], without leading or trailing '/' and "
                        + "without empty, '.' or '..' segments, at most 512 characters (empty for the root)");
    }

    @Test
    void rejectsRelativePathsThatEscapeTheDataset() {
        TrainingDataBucket data = new TrainingDataBucket(TestApps.stack(), "Data");
        assertRule("KEY_PREFIX_FORMAT", () -> data.s3Uri("../other"), "Test/Data", "relativePath", "../other", "a key prefix of S3 safe characters [A-Za-z0-9!_.*'()/=+-], without leading or trailing '/' "
                        + "and without empty, '.' or '..' segments, at most 512 characters (empty for the root)");
    }

    @Test
    void rejectsAMissingRelativePath() {
        TrainingDataBucket data = new TrainingDataBucket(TestApps.stack(), "Data");
        assertRule("KEY_PREFIX_REQUIRED", () -> data.s3Uri(null), "Test/Data", "relativePath", null,
                "a key prefix (empty for the root)");
    }

    @Test
    void eventNotificationsOnTheNewBucketAreRefusedSinceTheyWouldReplaceFsxsAutoImportNotification() {
        Stack stack = TestApps.stack();
        TrainingDataBucket data = new TrainingDataBucket(stack, "Data");
        data.getBucket().addEventNotification(EventType.OBJECT_CREATED, new SnsDestination(new Topic(stack, "Uploads")));
        RuntimeException e = assertThrows(RuntimeException.class, () -> Template.fromStack(stack));
        assertTrue(e.getMessage().contains("Test/Data: invalid event notifications 'added with addEventNotification': "
                + "none on the training data bucket: they would replace its notification configuration, including the "
                + "one FSx adds for a Lustre cache's auto-import; match the bucket's events with EventBridge rules "
                + "instead (it sends every event to EventBridge) [BUCKET_EVENT_NOTIFICATIONS]"), e.getMessage());
    }

    @Test
    void anExistingBucketKeepsItsNotificationsForAWSCDKMergesThemWithThoseOfOthers() {
        Stack stack = TestApps.stack();
        IBucket existing = Bucket.fromBucketName(stack, "Existing", "team-training-data");
        new TrainingDataBucket(stack, "Data", TrainingDataBucketProps.builder().bucket(existing).build());
        existing.addEventNotification(EventType.OBJECT_CREATED, new SnsDestination(new Topic(stack, "Uploads")));
        Template.fromStack(stack).resourceCountIs("Custom::S3BucketNotifications", 1);
    }
}
