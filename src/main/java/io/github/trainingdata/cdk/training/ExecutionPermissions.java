package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.internal.WildcardFindings;
import io.github.trainingdata.cdk.storage.StoreAccess;
import io.github.trainingdata.cdk.storage.StoreGrants;
import io.github.trainingdata.cdk.storage.TrainingDataStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.Policy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.s3.IBucket;
import software.constructs.IConstruct;

/**
 * Collects what a training job's execution role needs — what its channels' stores grant
 * ({@link TrainingDataStore#grantTraining}: S3 prefixes to read, write and keep in sync, file systems to describe),
 * keys to use, the image's repository — and turns it into least-privilege
 * statements: S3 scoped to the bucket and the prefixes in use, never {@code s3:*} or a bucket-wide object
 * wildcard unless the dataset is the bucket root; deletes only under the checkpoint prefix.
 */
final class ExecutionPermissions implements StoreGrants {
    /** The set SageMaker needs to attach training instances to the VPC; these actions take no resource ARN. */
    static final List<String> VPC_ACTIONS = List.of(
            "ec2:CreateNetworkInterface", "ec2:CreateNetworkInterfacePermission", "ec2:DeleteNetworkInterface",
            "ec2:DeleteNetworkInterfacePermission", "ec2:DescribeNetworkInterfaces", "ec2:DescribeVpcs",
            "ec2:DescribeDhcpOptions", "ec2:DescribeSubnets", "ec2:DescribeSecurityGroups");

    private final Map<IBucket, Set<String>> reads = new LinkedHashMap<>();
    private final Map<IBucket, Set<String>> writes = new LinkedHashMap<>();
    private final Map<IBucket, Set<String>> deletes = new LinkedHashMap<>();
    /**
     * What stores allow beyond objects, by action set and conditions (merged), in the order first granted, with the
     * reason.
     */
    private final Map<StoreStatement, Set<String>> storeResources = new LinkedHashMap<>();
    private final Map<StoreStatement, String> storeReasons = new LinkedHashMap<>();
    private final Set<IKey> decryptKeys = new LinkedHashSet<>();
    private final Set<IKey> encryptKeys = new LinkedHashSet<>();
    private final Set<IKey> volumeKeys = new LinkedHashSet<>();

    @Override
    public void readObjects(IBucket bucket, String keyPrefix) {
        reads.computeIfAbsent(bucket, b -> new LinkedHashSet<>()).add(keyPrefix);
        if (bucket.getEncryptionKey() != null) {
            decryptKeys.add(bucket.getEncryptionKey());
        }
    }

    @Override
    public void writeObjects(IBucket bucket, String keyPrefix) {
        writes.computeIfAbsent(bucket, b -> new LinkedHashSet<>()).add(keyPrefix);
        if (bucket.getEncryptionKey() != null) {
            encryptKeys.add(bucket.getEncryptionKey());
        }
    }

    /**
     * Lets the job write and delete objects under {@code keyPrefix}: SageMaker keeps a checkpoint prefix in
     * sync with the container's checkpoint directory, deletions included.
     */
    @Override
    public void syncObjects(IBucket bucket, String keyPrefix) {
        writeObjects(bucket, keyPrefix);
        deletes.computeIfAbsent(bucket, b -> new LinkedHashSet<>()).add(keyPrefix);
    }

    @Override
    public void allow(List<String> actions, String resource, Map<String, Object> conditions, String wildcardReason) {
        StoreStatement key = new StoreStatement(List.copyOf(actions), new LinkedHashMap<>(conditions));
        storeResources.computeIfAbsent(key, a -> new LinkedHashSet<>()).add(resource);
        storeReasons.putIfAbsent(key, wildcardReason);
    }

    /** One statement a store asks for: its actions and its conditions (ordered; empty for none). */
    private record StoreStatement(List<String> actions, Map<String, Object> conditions) {
    }

    void volumeKey(IKey key) {
        encryptKeys.add(key);
        volumeKeys.add(key);
    }

    /**
     * Grants {@code role} what the job of {@code spec} needs: its channels' stores, its output and checkpoint
     * prefixes, its volume key, its image, its logs and metrics, and (in a VPC) the network-interface actions.
     */
    static void grant(IConstruct scope, IRole role, TrainingJobSpec spec, JobPlacement placement) {
        ExecutionPermissions permissions = new ExecutionPermissions();
        for (TrainingChannel channel : spec.getChannels()) {
            if (channel instanceof EfsChannel efs && StoreBinding.crossesStacks(scope, efs.getStore())) {
                efs.getStore().grantTrainingAcrossStacks(permissions, scope);
            } else {
                channel.getStore().grantTraining(permissions, channel.storeAccess(), channel.grantedPath());
            }
        }
        for (DirectRead read : spec.getDirectReads()) {
            read.grant(permissions);
        }
        CapacityAttempts.addFallbackPermissions(permissions, spec);
        spec.getOutputBucket().grantTraining(permissions, StoreAccess.READ_WRITE, spec.getOutputPrefix());
        if (spec.getCheckpointPrefix() != null) {
            spec.getOutputBucket().grantTraining(permissions, StoreAccess.SYNC, spec.getCheckpointPrefix());
        }
        if (spec.getVolumeKey() != null) {
            permissions.volumeKey(spec.getVolumeKey());
        }
        permissions.applyTo(scope, role, spec.getTrainingImage(), placement.network() != null);
    }

    /** Grants everything collected to {@code role} and acknowledges each deliberate wildcard with its reason. */
    private void applyTo(IConstruct scope, IRole role, TrainingImage image, boolean inVpc) {
        Stack stack = Stack.of(scope);
        WildcardFindings findings = new WildcardFindings(role);
        allow(role, findings, List.of("logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents",
                "logs:DescribeLogStreams"), List.of(stack.formatArn(ArnComponents.builder()
                        .service("logs").resource("log-group").resourceName("/aws/sagemaker/TrainingJobs*")
                        .arnFormat(ArnFormat.COLON_RESOURCE_NAME).build())),
                "SageMaker writes training logs only to log groups named /aws/sagemaker/TrainingJobs*.");
        // An immutable imported role silently drops statements: it is the only kind that gets no Policy child.
        if (role.getNode().getChildren().stream().noneMatch(child -> child instanceof Policy)) {
            Annotations.of(scope).addWarningV2("@trainingdata/training:immutableRole", scope.getNode().getPath()
                    + ": the execution role " + role.getNode().getPath() + " is immutable, so it gets none of the "
                    + "grants its channels, outputs and image need; grant them outside this app or import it mutable");
        }
        allow(role, findings, List.of("cloudwatch:PutMetricData"), List.of("*"),
                "cloudwatch:PutMetricData supports no resource-level permissions.");
        grantImage(scope, stack, role, image, findings);
        grantS3(role, findings);
        for (IKey key : decryptKeys) {
            key.grantDecrypt(role);
        }
        for (IKey key : encryptKeys) {
            key.grantEncryptDecrypt(role);
        }
        // SageMaker attaches the volume key to the instances' EBS volumes through a grant it creates as the role.
        for (IKey key : volumeKeys) {
            role.addToPrincipalPolicy(PolicyStatement.Builder.create()
                    .actions(List.of("kms:CreateGrant"))
                    .resources(List.of(key.getKeyArn()))
                    .conditions(Map.of("Bool", Map.of("kms:GrantIsForAWSResource", "true")))
                    .build());
        }
        if (inVpc) {
            allow(role, findings, VPC_ACTIONS, List.of("*"), "SageMaker attaches training instances to the VPC "
                    + "with these EC2 network-interface actions, which support no resource-level permissions.");
        }
        storeResources.forEach((statement, resources) -> {
            role.addToPrincipalPolicy(PolicyStatement.Builder.create().actions(statement.actions())
                    .resources(List.copyOf(resources)).conditions(statement.conditions()).build());
            findings.add(List.copyOf(resources), storeReasons.get(statement));
        });
        findings.acknowledge();
    }

    /**
     * Pull from the image's repository: through the repository of {@link TrainingImage#fromEcrRepository}, else on
     * the repository ARN the URI gives ({@link TrainingImage#repositoryArn}: parsed, or derived at deploy time from a
     * deploy-time URI); a deploy-time URI on a registry other than ECR gets a warning instead.
     */
    private static void grantImage(IConstruct scope, Stack stack, IRole role, TrainingImage image,
            WildcardFindings findings) {
        if (image == null) {
            return;
        }
        if (image.getRepository() != null) {
            image.getRepository().grantPull(role);
            findings.add(List.of("*"), "ecr:GetAuthorizationToken supports no resource-level permissions; image "
                    + "pulls are limited to the training image's repository.");
            return;
        }
        String repositoryArn = image.repositoryArn(stack.getPartition());
        if (repositoryArn == null) {
            Annotations.of(scope).addWarningV2("@trainingdata/training:imageNotInEcr", scope.getNode().getPath()
                    + ": trainingImage is a deploy-time value on the registry " + image.literalHost() + ", not Amazon ECR "
                    + "(<account>.dkr.ecr.<region>.amazonaws.com), so the execution role gets no permission to pull it: "
                    + "use TrainingImage.fromEcrRepository(repository, tag), or grant ecr:BatchGetImage, "
                    + "ecr:GetDownloadUrlForLayer and ecr:BatchCheckLayerAvailability on its repository and "
                    + "ecr:GetAuthorizationToken to the role yourself");
            return;
        }
        allow(role, findings, List.of("ecr:BatchCheckLayerAvailability", "ecr:GetDownloadUrlForLayer",
                "ecr:BatchGetImage"), List.of(repositoryArn), "");
        allow(role, findings, List.of("ecr:GetAuthorizationToken"), List.of("*"), "ecr:GetAuthorizationToken "
                + "supports no resource-level permissions; image pulls are limited to the training image's repository.");
    }

    private void grantS3(IRole role, WildcardFindings findings) {
        Set<IBucket> buckets = new LinkedHashSet<>(reads.keySet());
        buckets.addAll(writes.keySet());
        for (IBucket bucket : buckets) {
            Set<String> readPrefixes = reads.getOrDefault(bucket, Set.of());
            Set<String> writePrefixes = writes.getOrDefault(bucket, Set.of());
            Set<String> all = new LinkedHashSet<>(readPrefixes);
            all.addAll(writePrefixes);
            List<String> listable = new ArrayList<>();
            for (String prefix : all) {
                if (prefix.isEmpty()) {
                    listable.add("*");
                } else {
                    listable.add(prefix);
                    listable.add(prefix + "/*");
                }
            }
            role.addToPrincipalPolicy(PolicyStatement.Builder.create()
                    .actions(List.of("s3:ListBucket"))
                    .resources(List.of(bucket.getBucketArn()))
                    .conditions(Map.of("StringLike", Map.of("s3:prefix", listable)))
                    .build());
            Set<String> readable = new LinkedHashSet<>(readPrefixes);
            readable.addAll(writePrefixes);
            allow(role, findings, List.of("s3:GetObject"), objects(bucket, readable), "Objects under exactly the "
                    + "key prefixes the job's channels read and its outputs and checkpoints write, nothing else.");
            if (!writePrefixes.isEmpty()) {
                allow(role, findings, List.of("s3:PutObject", "s3:AbortMultipartUpload"), objects(bucket, writePrefixes),
                        "Objects under exactly the output and checkpoint key prefixes of the job.");
            }
            Set<String> deletable = deletes.getOrDefault(bucket, Set.of());
            if (!deletable.isEmpty()) {
                allow(role, findings, List.of("s3:DeleteObject"), objects(bucket, deletable), "Objects under exactly "
                        + "the checkpoint key prefix, which SageMaker keeps in sync with the container, deletions "
                        + "included.");
            }
        }
    }

    private static List<String> objects(IBucket bucket, Set<String> prefixes) {
        return prefixes.stream().map(p -> bucket.arnForObjects(p.isEmpty() ? "*" : p + "/*")).toList();
    }

    private static void allow(IRole role, WildcardFindings findings, List<String> actions, List<String> resources,
            String wildcardReason) {
        role.addToPrincipalPolicy(PolicyStatement.Builder.create().actions(actions).resources(resources).build());
        findings.add(resources, wildcardReason);
    }
}
