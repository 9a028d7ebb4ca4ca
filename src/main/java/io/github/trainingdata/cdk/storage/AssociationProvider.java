package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.internal.CustomResourceProvider;
import io.github.trainingdata.cdk.internal.CustomResourceRole;
import io.github.trainingdata.cdk.internal.WildcardFindings;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.s3.IBucket;
import software.constructs.Construct;

/**
 * The role the stack's provider ({@link CustomResourceProvider}) acts as to serve a {@link LustreCache}'s
 * {@code Custom::DataRepositoryAssociation} and {@code Custom::LustreTaskGuard} resources: its function calls only the
 * FSx control plane (and S3, to count a moved dataset's objects), outside the VPC.
 *
 * <p>The statements, inline in the cache's own role ({@code AssociationProvider/HandlerRole}), on this file system
 * only: list its associations, create, tag, update and delete them; list data repository tasks, cancel them, and start and tag
 * an export (an exporting association's, before it is deleted); and, since FSx links S3 through the file system's
 * service-linked role, what the FSx guide asks of whoever creates an association: create that role and put or
 * attach its policies (FSx for Lustre guide, "Adding permissions to use data repositories in Amazon S3"), and read
 * each dataset bucket's location and policy, list it, and get and put objects in the dataset's location, which FSx
 * checks before it links it (its BadRequest asks the caller for "s3:Get*, s3:List* and s3:PutObject permissions to
 * the S3 bucket prefix"; granted here as the named actions); with SSE-KMS, use the bucket's key for that.
 */
final class AssociationProvider {
    private static final String FSX_LINK_SERVICE = "s3.data-source.lustre.fsx.amazonaws.com";
    private static final String LINK_ROLE_PREFIX = "AWSServiceRoleForFSxS3Access_";

    private AssociationProvider() {
    }

    /**
     * The role under {@code scope} as which the stack's provider manages the associations of {@code fileSystemId} to
     * the datasets' S3 locations.
     *
     * @return the role (the cache's custom resources name it as their {@code RoleArn})
     */
    static CustomResourceRole grant(Construct scope, CustomResourceProvider provider, String fileSystemId,
            List<LustreDataset> datasets, List<IKey> keys) {
        Stack stack = Stack.of(scope);
        String fileSystem = stack.formatArn(ArnComponents.builder().service("fsx").resource("file-system")
                .resourceName(fileSystemId).arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
        String associations = stack.formatArn(ArnComponents.builder().service("fsx").resource("association")
                .resourceName(fileSystemId + "/*").arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
        String tasks = stack.formatArn(ArnComponents.builder().service("fsx").resource("task").resourceName("*")
                .arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
        // The FSx guide names the role AWSServiceRoleForFSxS3Access_fs-01234567890 (an example, not a real id), so its
        // suffix is UNVERIFIED to be exactly the file-system id: the name is matched as AWS's own policy for these
        // roles matches it (FSxDeleteServiceLinkedRoleAccess: AWSServiceRoleForFSxS3Access_*), whatever the suffix.
        String linkRole = "arn:" + stack.getPartition() + ":iam::" + stack.getAccount() + ":role/aws-service-role/"
                + FSX_LINK_SERVICE + "/" + LINK_ROLE_PREFIX + "*";
        Set<String> buckets = new LinkedHashSet<>();
        Set<String> locations = new LinkedHashSet<>();
        for (LustreDataset dataset : datasets) {
            IBucket bucket = dataset.getDataBucket().getBucket();
            buckets.add(bucket.getBucketArn());
            locations.add(bucket.arnForObjects(dataset.getKeyPrefix().isEmpty() ? "*" : dataset.getKeyPrefix() + "/*"));
        }

        List<PolicyStatement> statements = new ArrayList<>();
        List<Map.Entry<List<String>, String>> wildcards = new ArrayList<>();
        statement(statements, wildcards, List.of("fsx:DescribeDataRepositoryAssociations"), List.of("*"),
                "DescribeDataRepositoryAssociations lists a file system's associations through a filter and supports no "
                        + "resource-level permissions; it reads descriptions only.");
        statement(statements, wildcards, List.of("fsx:CreateDataRepositoryAssociation"), List.of(fileSystem, associations),
                "Associations get their ids from FSx when they are created; only those of this file system.");
        statement(statements, wildcards, List.of("fsx:DeleteDataRepositoryAssociation", "fsx:TagResource",
                        "fsx:UpdateDataRepositoryAssociation"), List.of(associations),
                "Associations get their ids from FSx when they are created; only those of this file system (the handler "
                        + "tags them on creation, and moves or removes them).");
        statement(statements, wildcards, List.of("fsx:DescribeDataRepositoryTasks"), List.of("*"),
                "DescribeDataRepositoryTasks lists a file system's or an association's tasks through filters and supports "
                        + "no resource-level permissions; it reads descriptions only.");
        statement(statements, wildcards, List.of("fsx:CreateDataRepositoryTask"), List.of(fileSystem, tasks),
                "Data repository tasks get their ids from FSx when they are created; the same statement limits the export "
                        + "an exporting association runs before it is deleted to this file system.");
        statement(statements, wildcards, List.of("fsx:CancelDataRepositoryTask", "fsx:TagResource"), List.of(tasks),
                "Data repository tasks get their ids from FSx when they are created: the handler cancels the tasks of "
                        + "this file system's associations, and of the file system before it is deleted (which FSx refuses "
                        + "while a task is pending or executing), and tags the exports it starts.");
        statement(statements, wildcards, List.of("iam:AttachRolePolicy", "iam:CreateServiceLinkedRole",
                "iam:PutRolePolicy"), List.of(linkRole), "FSx's S3 link role per file system, named "
                        + LINK_ROLE_PREFIX + "<suffix> under FSx's service path (a service-linked role: FSx defines its "
                        + "permissions); the suffix FSx gives it is matched by a wildcard, as in AWS's own "
                        + "FSxDeleteServiceLinkedRoleAccess policy.");
        statement(statements, wildcards, List.of("s3:GetBucketLocation", "s3:GetBucketPolicy", "s3:ListBucket"),
                List.copyOf(buckets), "");
        statement(statements, wildcards, List.of("s3:GetObject", "s3:PutObject"), List.copyOf(locations),
                "FSx checks, before it links a dataset's S3 location, that the caller may read and put objects "
                        + "there; only the datasets' locations.");
        if (!keys.isEmpty()) {
            statement(statements, wildcards, List.of("kms:Decrypt", "kms:GenerateDataKey"),
                    keys.stream().map(IKey::getKeyArn).toList(), "");
        }
        CustomResourceRole role = provider.grant(scope, "HandlerRole", "Manages a Lustre cache's "
                + "data repository associations and tasks; assumed by the stack's custom-resource provider only",
                statements);
        WildcardFindings findings = new WildcardFindings(role);
        wildcards.forEach(wildcard -> findings.add(wildcard.getKey(), wildcard.getValue()));
        findings.acknowledge();
        return role;
    }

    private static void statement(List<PolicyStatement> statements, List<Map.Entry<List<String>, String>> wildcards,
            List<String> actions, List<String> resources, String wildcardReason) {
        statements.add(PolicyStatement.Builder.create().actions(actions).resources(resources).build());
        if (!wildcardReason.isEmpty()) {
            wildcards.add(Map.entry(resources, wildcardReason));
        }
    }
}
