package io.github.trainingdata.cdk.storage;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.AnyPrincipal;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.kms.IKey;
import software.constructs.IConstruct;

/**
 * The KMS keys of a {@link LustreCache}'s dataset buckets, and the key-policy statement that lets FSx read
 * and write those buckets through S3.
 */
final class DatasetBucketKeys {

    private DatasetBucketKeys() {
    }

    /**
     * The keys of the datasets' buckets, each once, in dataset order.
     *
     * @return the keys; none when every bucket uses SSE-S3
     */
    static List<IKey> of(List<LustreDataset> datasets) {
        Set<IKey> keys = new LinkedHashSet<>();
        for (LustreDataset dataset : datasets) {
            IKey key = dataset.getDataBucket().getEncryptionKey();
            if (key != null) {
                keys.add(key);
            }
        }
        return List.copyOf(keys);
    }

    /**
     * FSx reads and writes a KMS-encrypted bucket through S3 as its service-linked role
     * {@code AWSServiceRoleForFSxS3Access_<fs-id>}, which the key policy must allow (FSx for Lustre guide,
     * "Working with server-side encrypted Amazon S3 buckets"). The role name pattern avoids a dependency
     * of the key on the file system; S3 is the only way in. An imported key's policy cannot be changed: the
     * cache then gets a warning.
     */
    static void allowFsx(IConstruct cache, IKey key) {
        Stack stack = Stack.of(cache);
        Map<String, Object> conditions = new LinkedHashMap<>();
        conditions.put("ArnLike", Map.of("aws:PrincipalArn", "arn:" + stack.getPartition() + ":iam::" + stack.getAccount()
                + ":role/aws-service-role/s3.data-source.lustre.fsx.amazonaws.com/AWSServiceRoleForFSxS3Access_*"));
        Map<String, Object> equals = new LinkedHashMap<>();
        equals.put("aws:PrincipalAccount", stack.getAccount());
        equals.put("kms:ViaService", "s3." + stack.getRegion() + "." + Aws.URL_SUFFIX);
        conditions.put("StringEquals", equals);
        boolean added = key.addToResourcePolicy(PolicyStatement.Builder.create()
                .principals(List.of(new AnyPrincipal()))
                .actions(List.of("kms:Encrypt", "kms:Decrypt", "kms:ReEncrypt*", "kms:GenerateDataKey*", "kms:DescribeKey"))
                .resources(List.of("*"))
                .conditions(conditions)
                .build()).getStatementAdded();
        if (!added) {
            Annotations.of(cache).addWarningV2("@trainingdata/storage:fsxKeyPolicy", cache.getNode().getPath()
                    + ": a dataset bucket's KMS key is imported, so its key policy cannot be changed here; allow the FSx "
                    + "service-linked roles AWSServiceRoleForFSxS3Access_* to use it through S3, or FSx cannot "
                    + "load the data");
        }
    }
}
