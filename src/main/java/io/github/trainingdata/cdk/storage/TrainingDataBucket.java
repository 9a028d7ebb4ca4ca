package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.internal.KeyPrefix;
import io.github.trainingdata.cdk.internal.LogGroups;
import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.iam.AnyPrincipal;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.CfnBucket;
import software.amazon.awscdk.services.s3.IBucket;
import software.amazon.awscdk.services.s3.LifecycleRule;
import software.amazon.awscdk.services.s3.ObjectOwnership;
import software.constructs.Construct;
import software.constructs.Node;

/**
 * The S3 bucket that holds the training data, and the dataset prefix inside it.
 *
 * <p>A new bucket gets secure defaults: encryption at rest (S3-managed or KMS), TLS-only access, all
 * public access blocked, versioning with noncurrent versions expiring, Object Lock enabled (no default
 * retention), object events to Amazon EventBridge, server access logs to a versioned log bucket that admits
 * S3's log delivery by bucket policy (never ACLs, whatever the app's feature flags), and retention when the
 * stack is deleted. An existing bucket is used as it is. Either way the construct hands out {@code s3://}
 * URIs and key prefixes under the dataset prefix, which the file systems, channels and IAM policies are
 * scoped to.
 *
 * <p>With {@link DataEncryption#KMS} the bucket's key is the data layer's key: the log groups of the
 * definitions and preloads on this bucket use it too ({@link LogGroups}), and so can the network's flow logs.
 */
public class TrainingDataBucket extends Construct implements S3Store {
    static final String DEFAULT_DATASET_PREFIX = "datasets";
    static final Duration DEFAULT_NONCURRENT_EXPIRATION = Duration.days(30);
    /** aws-cdk-lib's feature flag: log delivery by bucket policy instead of the LogDeliveryWrite ACL. */
    private static final String LOG_DELIVERY_BY_BUCKET_POLICY = "@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy";

    private final IBucket bucket;
    private final String datasetPrefix;
    /** The bucket's name and key, read once: every read is a jsii call and the quickstart reads them 20 times. */
    private final String bucketName;
    private final IKey encryptionKey;

    /** Creates a new, secure bucket with the default dataset prefix. */
    public TrainingDataBucket(Construct scope, String id) {
        this(scope, id, TrainingDataBucketProps.builder().build());
    }

    /** Creates a new bucket, or adopts {@code props.bucket}. */
    public TrainingDataBucket(Construct scope, String id, TrainingDataBucketProps props) {
        super(scope, id);
        // The access-log bucket admits log delivery by bucket policy, not by the LogDeliveryWrite ACL, also in an
        // app without aws-cdk-lib's recommended flags (platform repos bring their own app). Set before any child.
        getNode().setContext(LOG_DELIVERY_BY_BUCKET_POLICY, true);
        TrainingDataBucketSpec spec = TrainingDataBucketRules.resolve(this, props);
        this.datasetPrefix = spec.datasetPrefix();
        NewBucket created = spec.existing() ? null : createBucket(props, spec);
        this.bucket = created == null ? props.getBucket() : created.bucket();
        this.bucketName = bucket.getBucketName();
        // A new bucket's key is the one given to it (none for SSE-S3): known here, not read back from the bucket.
        this.encryptionKey = created == null ? bucket.getEncryptionKey() : created.key();
    }

    /** A bucket created here and its KMS key ({@code null} with SSE-S3). */
    private record NewBucket(Bucket bucket, IKey key) {
    }

    private NewBucket createBucket(TrainingDataBucketProps props, TrainingDataBucketSpec spec) {
        DataEncryption encryption = spec.encryption();
        Duration noncurrent = spec.noncurrentVersionExpiration();
        // Kept when the stack is deleted and when the deploy that created it rolls back (Retain): a versioned bucket
        // that holds any object version cannot be deleted, so RetainExceptOnCreate would end a failed first deploy in
        // ROLLBACK_FAILED. The key follows the bucket: a retained bucket's objects must stay readable.
        RemovalPolicy removal = spec.removalPolicy();
        boolean destroy = removal == RemovalPolicy.DESTROY;

        // S3 delivers server access logs only to a bucket with SSE-S3 and without Object Lock (S3 User Guide,
        // "Enabling Amazon S3 server access logging"): the log bucket stays SSE-S3, whatever the data's key.
        IBucket logs = props.getAccessLogsBucket();
        if (logs == null) {
            Bucket logBucket = Bucket.Builder.create(this, "AccessLogs")
                    .encryption(BucketEncryption.S3_MANAGED)
                    .enforceSsl(true)
                    .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
                    .objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED)
                    .versioned(true)
                    .lifecycleRules(List.of(LifecycleRule.builder()
                            .id("ExpireAccessLogs")
                            .expiration(Duration.days(365))
                            .noncurrentVersionExpiration(DEFAULT_NONCURRENT_EXPIRATION)
                            .build()))
                    .removalPolicy(removal)
                    .autoDeleteObjects(destroy)
                    .build();
            sendEventsToEventBridge(logBucket.getNode());
            logs = logBucket;
        }

        Bucket.Builder data = Bucket.Builder.create(this, "Resource")
                .enforceSsl(true)
                .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
                .objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED)
                .versioned(true)
                .objectLockEnabled(true)
                .serverAccessLogsBucket(logs)
                .serverAccessLogsPrefix("training-data/")
                .lifecycleRules(List.of(LifecycleRule.builder()
                        .id("ExpireNoncurrentVersions")
                        .noncurrentVersionExpiration(noncurrent)
                        .abortIncompleteMultipartUploadAfter(Duration.days(7))
                        .build()))
                .removalPolicy(removal)
                .autoDeleteObjects(destroy);
        IKey key = null;
        if (encryption == DataEncryption.KMS) {
            key = props.getEncryptionKey() != null ? props.getEncryptionKey() : createKey(removal);
            data.encryption(BucketEncryption.KMS).encryptionKey(key).bucketKeyEnabled(true);
        } else {
            data.encryption(BucketEncryption.S3_MANAGED);
        }
        Bucket bucket = data.build();
        // Its node read once for both: every read is a jsii call.
        Node node = bucket.getNode();
        sendEventsToEventBridge(node);
        keepNotificationConfiguration(node);
        return new NewBucket(bucket, key);
    }

    /**
     * Refuses S3 event notifications added to the new bucket (aws-cdk-lib's {@code addEventNotification}): FSx adds
     * its own event notification to a bucket that a data repository association auto-imports from, and a notification
     * configuration written for the stack (by CloudFormation or by aws-cdk-lib's notifications resource, which for a
     * bucket of its own stack writes exactly the stack's notifications) replaces the whole configuration (aws-cdk
     * issue 29653), which stops auto-import: the FSx guide lists a deleted or changed notification as a cause of a
     * MISCONFIGURED association. The bucket sends every event to EventBridge, so rules there see uploads instead.
     */
    private void keepNotificationConfiguration(Node bucketNode) {
        bucketNode.addValidation(() -> bucketNode.tryFindChild("Notifications") == null ? List.of()
                : List.of(ConfigurationError.of(TrainingDataBucketRules.EVENT_NOTIFICATIONS, this,
                        "event notifications", "added with addEventNotification",
                        "none on the training data bucket: they would replace its notification configuration, including "
                                + "the one FSx adds for a Lustre cache's auto-import; match the bucket's events with "
                                + "EventBridge rules instead (it sends every event to EventBridge)").getMessage()));
    }

    /**
     * The data layer's new key: rotated yearly, and grants on it only for AWS services (a Deny of
     * {@code kms:CreateGrant} unless the grant is for an AWS resource or the caller is an AWS service, as AWS
     * Control Tower's control CT.KMS.PR.3 asks). S3, CloudWatch Logs and FSx use the key without grants; EBS-style
     * grants for AWS resources stay possible.
     */
    private Key createKey(RemovalPolicy removal) {
        Key key = Key.Builder.create(this, "Key")
                .description("Encrypts the training data bucket " + getNode().getPath() + " and its log groups")
                .enableKeyRotation(true)
                .removalPolicy(removal)
                .build();
        Map<String, Object> notForAws = new LinkedHashMap<>();
        notForAws.put("kms:GrantIsForAWSResource", "false");
        notForAws.put("aws:PrincipalIsAWSService", "false");
        key.addToResourcePolicy(PolicyStatement.Builder.create()
                .effect(Effect.DENY)
                .principals(List.of(new AnyPrincipal()))
                .actions(List.of("kms:CreateGrant"))
                .resources(List.of("*"))
                .conditions(Map.of("BoolIfExists", notForAws))
                .build());
        return key;
    }

    /**
     * Object events to the account's default EventBridge bus, as a plain CloudFormation property (aws-cdk-lib's
     * {@code eventBridgeEnabled} would add a custom resource and a Lambda function). React to them with
     * EventBridge rules; {@code addEventNotification} on this bucket would replace the configuration.
     */
    private static void sendEventsToEventBridge(Node bucketNode) {
        ((CfnBucket) bucketNode.getDefaultChild()).setNotificationConfiguration(
                CfnBucket.NotificationConfigurationProperty.builder()
                        .eventBridgeConfiguration(CfnBucket.EventBridgeConfigurationProperty.builder()
                                .eventBridgeEnabled(true).build())
                        .build());
    }

    /** @return the bucket (new or existing) */
    public IBucket getBucket() {
        return bucket;
    }

    /**
     * The data layer's KMS key: the key the bucket is encrypted with (new or given with {@link DataEncryption#KMS},
     * or the one an existing bucket was imported with). {@link LogGroups} encrypts this library's log groups with it.
     *
     * @return the key, or null for SSE-S3 (or an existing bucket imported without its key)
     */
    @Override
    public IKey getEncryptionKey() {
        return encryptionKey;
    }

    /** @return the bucket's ARN (a token for a new bucket) */
    @Override
    public String getBucketArn() {
        return bucket.getBucketArn();
    }

    /** @return the bucket's name (a token for a new bucket) */
    @Override
    public String getBucketName() {
        return bucketName;
    }

    /** @return the dataset prefix, without leading or trailing {@code /} (empty for the bucket root) */
    @Override
    public String getDatasetPrefix() {
        return datasetPrefix;
    }

    /**
     * @return whether the bucket adopted is a directory bucket (its name, known at synth, ends with {@code --x-s3}):
     *     adopt one with {@link S3ExpressStore} instead, which grants and places jobs as a directory bucket needs
     */
    @Override
    public boolean isDirectoryBucket() {
        return !bucketName.contains("${Token[") && bucketName.endsWith(S3ExpressStoreRules.SUFFIX);
    }

    /** @return the dataset's {@code s3://} URI without a trailing {@code /}, as FSx import paths want it */
    public String datasetUri() {
        return uri(datasetPrefix);
    }

    /** @return null: jobs reach S3 through the AWS API (in a VPC, through the network's S3 gateway endpoint) */
    @Override
    public TrainingNetwork getNetwork() {
        return null;
    }

    /** @return null: S3 pins no Availability Zone */
    @Override
    public String getPinnedAvailabilityZone() {
        return null;
    }

    /** Grants the objects under the key prefix {@code path}: read, read-write, or read-write-delete (SYNC). */
    @Override
    public void grantTraining(StoreGrants grants, StoreAccess access, String path) {
        switch (access) {
            case READ -> grants.readObjects(getBucket(), path);
            case READ_WRITE -> grants.writeObjects(getBucket(), path);
            case SYNC -> grants.syncObjects(getBucket(), path);
        }
    }

    /** @return no rows: the bucket's request metrics need a metrics configuration the bucket does not create */
    @Override
    public List<List<IWidget>> dashboardRows(Duration period) {
        return List.of();
    }
}
