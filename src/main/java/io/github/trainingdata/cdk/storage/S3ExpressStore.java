package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.ec2.GatewayVpcEndpointAwsService;
import software.amazon.awscdk.services.ec2.GatewayVpcEndpointOptions;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.s3express.CfnDirectoryBucket;
import software.constructs.Construct;

/**
 * An S3 Express One Zone directory bucket: objects kept in one Availability Zone with single-digit-millisecond
 * first-byte latency, read by a training job as a native S3 channel ({@code S3Channel}, File, FastFile or Pipe mode)
 * or by the training code itself ({@code DirectRead}). A new bucket ({@code AWS::S3Express::DirectoryBucket}, named
 * {@code <baseName>--<zoneId>--x-s3}) goes in the network's data zone, matched by zone ID (the data subnet's
 * {@code AvailabilityZoneId}), is encrypted with SSE-S3 or one customer managed KMS key, sends request metrics, and is
 * kept when it leaves the stack; an existing one is adopted by its full name. A new VPC gets the {@code s3express}
 * gateway endpoint, so jobs in isolated subnets reach both the Regional and the Zonal endpoints.
 *
 * <p>Jobs are granted {@code s3express:CreateSession} on the bucket (read-only sessions for reads): a session covers the
 * whole bucket, so unlike a general purpose bucket the grant cannot be narrowed to a prefix. The store prefers its
 * zone: a job in another zone still reads it, across zones. It can take a job's output
 * ({@code TrainingJobDefinitionProps.outputBucket}) when it is encrypted with SSE-S3, the only encryption SageMaker
 * writes output to a directory bucket with. Nothing fills the bucket at deploy: copy a prefix in with S3 Batch Operations (the console's Import) or
 * {@code aws s3 sync} (docs/s3-express.md).
 */
public class S3ExpressStore extends Construct implements S3Store {
    private static final String ENDPOINT_ID = "S3ExpressEndpoint";

    private final TrainingNetwork network;
    private final String bucketName;
    private final String bucketArn;
    private final String zoneId;
    private final String datasetPrefix;
    private final IKey encryptionKey;
    private final boolean requestMetrics;
    private final boolean readOnlySessions;

    /** Creates a new directory bucket, or adopts {@code props.bucketName}. */
    public S3ExpressStore(Construct scope, String id, S3ExpressStoreProps props) {
        super(scope, id);
        S3ExpressStoreRules.Spec spec = S3ExpressStoreRules.resolve(this, props);
        this.network = props.getNetwork();
        this.zoneId = spec.zoneId();
        this.datasetPrefix = spec.datasetPrefix();
        this.encryptionKey = props.getEncryptionKey();
        this.requestMetrics = spec.requestMetrics();
        this.readOnlySessions = spec.readOnlySessions();
        if (spec.existing()) {
            this.bucketName = spec.bucketName();
            this.bucketArn = Stack.of(this).formatArn(ArnComponents.builder().service("s3express")
                    .resource("bucket").resourceName(bucketName).arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
        } else {
            CfnDirectoryBucket bucket = createBucket(spec);
            this.bucketName = bucket.getRef();
            this.bucketArn = bucket.getAttrArn();
        }
        if (network != null) {
            addGatewayEndpoint(network);
        }
    }

    private CfnDirectoryBucket createBucket(S3ExpressStoreRules.Spec spec) {
        CfnDirectoryBucket.ServerSideEncryptionByDefaultProperty.Builder sse =
                CfnDirectoryBucket.ServerSideEncryptionByDefaultProperty.builder();
        if (encryptionKey != null) {
            sse.sseAlgorithm("aws:kms").kmsMasterKeyId(encryptionKey.getKeyArn());
        } else {
            sse.sseAlgorithm("AES256");
        }
        CfnDirectoryBucket.Builder bucket = CfnDirectoryBucket.Builder.create(this, "Resource")
                .bucketName(spec.bucketName())
                .dataRedundancy("SingleAvailabilityZone")
                .locationName(spec.zoneId())
                .bucketEncryption(CfnDirectoryBucket.BucketEncryptionProperty.builder()
                        .serverSideEncryptionConfiguration(List.of(
                                CfnDirectoryBucket.ServerSideEncryptionRuleProperty.builder()
                                        .serverSideEncryptionByDefault(sse.build())
                                        .bucketKeyEnabled(encryptionKey != null)
                                        .build()))
                        .build())
                .lifecycleConfiguration(CfnDirectoryBucket.LifecycleConfigurationProperty.builder()
                        .rules(List.of(CfnDirectoryBucket.RuleProperty.builder()
                                .id("AbortIncompleteMultipartUploads")
                                .status("Enabled")
                                .abortIncompleteMultipartUpload(CfnDirectoryBucket.AbortIncompleteMultipartUploadProperty
                                        .builder().daysAfterInitiation(7).build())
                                .build()))
                        .build());
        if (spec.requestMetrics()) {
            bucket.metricsConfigurations(List.of(CfnDirectoryBucket.MetricsConfigurationProperty.builder()
                    .id(S3ExpressStoreRows.FILTER_ID).build()));
        }
        CfnDirectoryBucket resource = bucket.build();
        resource.applyRemovalPolicy(spec.removalPolicy());
        return resource;
    }

    /**
     * The network's {@code s3express} gateway endpoint, added once per VPC: on a VPC the network created, on the
     * route tables of its storage subnets; an existing VPC is left as it is (it must have one, as it must have the S3
     * endpoint).
     */
    private void addGatewayEndpoint(TrainingNetwork network) {
        IVpc vpc = network.getVpc();
        if (!network.isVpcCreated()) {
            Annotations.of(this).addInfo(getNode().getPath() + ": an existing VPC: training in private subnets without "
                    + "NAT reaches a directory bucket only through an s3express gateway endpoint on their route "
                    + "tables; make sure the VPC has one");
            return;
        }
        if (vpc.getNode().tryFindChild(ENDPOINT_ID) == null) {
            vpc.addGatewayEndpoint(ENDPOINT_ID, GatewayVpcEndpointOptions.builder()
                    .service(GatewayVpcEndpointAwsService.S3_EXPRESS)
                    .subnets(List.of(network.getStorageSubnets()))
                    .build());
        }
    }

    /** @return the bucket's full name, {@code <base>--<zone-id>--x-s3} (a token for a new bucket) */
    @Override
    public String getBucketName() {
        return bucketName;
    }

    /** @return the bucket's ARN, {@code arn:<partition>:s3express:<region>:<account>:bucket/<name>} */
    @Override
    public String getBucketArn() {
        return bucketArn;
    }

    /** @return the zone ID the bucket is in, e.g. {@code use1-az4} (a token when taken from a new subnet) */
    public String getZoneId() {
        return zoneId;
    }

    /** @return the key of the bucket's SSE-KMS encryption, or null for SSE-S3 */
    @Override
    public IKey getEncryptionKey() {
        return encryptionKey;
    }

    @Override
    public String getDatasetPrefix() {
        return datasetPrefix;
    }

    /** @return true: a directory bucket */
    @Override
    public boolean isDirectoryBucket() {
        return true;
    }

    /** @return the network given, whose data zone the bucket is in, or null */
    @Override
    public TrainingNetwork getNetwork() {
        return network;
    }

    /** @return null: the bucket is reached through the AWS API from any zone; see {@link #getZone()} */
    @Override
    public String getPinnedAvailabilityZone() {
        return null;
    }

    /** @return the bucket's zone, by ID, preferred (reads from another zone work, across zones) */
    @Override
    public StoreZone getZone() {
        return StoreZone.ofId(StoreZone.Affinity.PREFERRED, zoneId);
    }

    /**
     * Grants {@code s3express:CreateSession} on the bucket (whatever the path: a session covers the whole bucket), for
     * read-only sessions when the job only reads and {@code readOnlySessions} is on; with a KMS key,
     * {@code kms:Decrypt} and {@code kms:GenerateDataKey} on it, which S3 asks of downloads and uploads alike.
     */
    @Override
    public void grantTraining(StoreGrants grants, StoreAccess access, String path) {
        boolean readOnly = access == StoreAccess.READ && readOnlySessions;
        Map<String, Object> conditions = readOnly
                ? Map.of("StringEquals", Map.of("s3express:SessionMode", "ReadOnly")) : Map.of();
        grants.allow(List.of("s3express:CreateSession"), bucketArn, conditions, "");
        if (encryptionKey != null) {
            // "To upload or download an object encrypted with an AWS KMS key ... you need kms:GenerateDataKey and
            // kms:Decrypt permissions on the key" (S3 User Guide, SSE-KMS in directory buckets).
            grants.allow(List.of("kms:Decrypt", "kms:GenerateDataKey"), encryptionKey.getKeyArn(), "");
        }
    }

    /** @return a header, request and latency graphs (with request metrics on), and the daily size */
    @Override
    public List<List<IWidget>> dashboardRows(Duration period) {
        return S3ExpressStoreRows.of(this, requestMetrics, period);
    }
}
