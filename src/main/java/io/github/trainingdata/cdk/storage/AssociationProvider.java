package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.internal.BundledAsset;
import io.github.trainingdata.cdk.internal.HandlerProvider;
import io.github.trainingdata.cdk.internal.WildcardFindings;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.customresources.Provider;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.s3.IBucket;
import software.constructs.Construct;

/**
 * The Provider of a {@link LustreCache}'s {@code Custom::DataRepositoryAssociation} resources: the Java handler
 * ({@code data-repository-association-handler.zip}, FSx SDK only) as aws-cdk-lib's Provider framework onEvent and
 * isComplete functions, outside the VPC (they call only the FSx control plane), with a traced and logged waiter.
 *
 * <p>onEvent calls nothing and gets no permission beyond its logs. isComplete may, on this file system only: list
 * its associations, create, tag, update and delete them; list data repository tasks, cancel them, and start and tag
 * an export (an exporting association's, before it is deleted); and, since FSx links S3 through the file system's
 * service-linked role, what the FSx guide asks of whoever creates an association: create that role and put or
 * attach its policies (FSx for Lustre guide, "Adding permissions to use data repositories in Amazon S3"), and read
 * each dataset bucket's location and policy, list it, and get and put objects in the dataset's location, which FSx
 * checks before it links it (its BadRequest asks the caller for "s3:Get*, s3:List* and s3:PutObject permissions to
 * the S3 bucket prefix"; granted here as the named actions); with SSE-KMS, use the bucket's key for that.
 */
final class AssociationProvider {
    static final String BUNDLE = "data-repository-association-handler.zip";
    /** The handler class, named as a string: synthesizing must not load it (the FSx SDK is a run-time dependency). */
    static final String HANDLER_CLASS = "io.github.trainingdata.cdk.storage.associations.DataRepositoryAssociationHandler";
    /**
     * An association can take over 10 minutes to create; a moved one is deleted first, and a deleted one first waits for
     * its tasks (and an exporting one for its export). Below CloudFormation's hour (a custom resource's ServiceTimeout is
     * at most 3600 s).
     */
    static final Duration TOTAL_TIMEOUT = Duration.minutes(55);
    private static final String FSX_LINK_SERVICE = "s3.data-source.lustre.fsx.amazonaws.com";
    private static final String LINK_ROLE_PREFIX = "AWSServiceRoleForFSxS3Access_";

    private AssociationProvider() {
    }

    /**
     * The Provider under {@code scope}, whose isComplete handler may manage the associations of {@code fileSystemId}
     * to the datasets' S3 locations.
     */
    static Provider create(Construct scope, String fileSystemId, List<LustreDataset> datasets, List<IKey> keys,
            IKey logsKey) {
        Path bundle = BundledAsset.path(AssociationProvider.class, BUNDLE);
        Function onEvent = handler(scope, "OnEvent", "onEvent", bundle, logsKey);
        Function isComplete = handler(scope, "IsComplete", "isComplete", bundle, logsKey);
        grant(isComplete, fileSystemId, datasets, keys);
        return HandlerProvider.provider(scope, onEvent, isComplete, TOTAL_TIMEOUT, logsKey);
    }

    private static void grant(Function isComplete, String fileSystemId, List<LustreDataset> datasets, List<IKey> keys) {
        Stack stack = Stack.of(isComplete);
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

        WildcardFindings findings = new WildcardFindings(isComplete.getRole());
        statement(isComplete, findings, List.of("fsx:DescribeDataRepositoryAssociations"), List.of("*"),
                "DescribeDataRepositoryAssociations lists a file system's associations through a filter and supports no "
                        + "resource-level permissions; it reads descriptions only.");
        statement(isComplete, findings, List.of("fsx:CreateDataRepositoryAssociation"), List.of(fileSystem, associations),
                "Associations get their ids from FSx when they are created; only those of this file system.");
        statement(isComplete, findings, List.of("fsx:DeleteDataRepositoryAssociation", "fsx:TagResource",
                        "fsx:UpdateDataRepositoryAssociation"), List.of(associations),
                "Associations get their ids from FSx when they are created; only those of this file system (the handler "
                        + "tags them on creation, and moves or removes them).");
        statement(isComplete, findings, List.of("fsx:DescribeDataRepositoryTasks"), List.of("*"),
                "DescribeDataRepositoryTasks lists a file system's or an association's tasks through filters and supports "
                        + "no resource-level permissions; it reads descriptions only.");
        statement(isComplete, findings, List.of("fsx:CreateDataRepositoryTask"), List.of(fileSystem, tasks),
                "Data repository tasks get their ids from FSx when they are created; the same statement limits the export "
                        + "an exporting association runs before it is deleted to this file system.");
        statement(isComplete, findings, List.of("fsx:CancelDataRepositoryTask", "fsx:TagResource"), List.of(tasks),
                "Data repository tasks get their ids from FSx when they are created: the handler cancels the tasks of "
                        + "this file system's associations, and of the file system before it is deleted (which FSx refuses "
                        + "while a task is pending or executing), and tags the exports it starts.");
        statement(isComplete, findings, List.of("iam:AttachRolePolicy", "iam:CreateServiceLinkedRole",
                "iam:PutRolePolicy"), List.of(linkRole), "FSx's S3 link role per file system, named "
                        + LINK_ROLE_PREFIX + "<suffix> under FSx's service path (a service-linked role: FSx defines its "
                        + "permissions); the suffix FSx gives it is matched by a wildcard, as in AWS's own "
                        + "FSxDeleteServiceLinkedRoleAccess policy.");
        statement(isComplete, findings, List.of("s3:GetBucketLocation", "s3:GetBucketPolicy", "s3:ListBucket"),
                List.copyOf(buckets), "");
        statement(isComplete, findings, List.of("s3:GetObject", "s3:PutObject"), List.copyOf(locations),
                "FSx checks, before it links a dataset's S3 location, that the caller may read and put objects "
                        + "there; only the datasets' locations.");
        if (!keys.isEmpty()) {
            statement(isComplete, findings, List.of("kms:Decrypt", "kms:GenerateDataKey"),
                    keys.stream().map(IKey::getKeyArn).toList(), "");
        }
        findings.acknowledge();
    }

    private static void statement(Function function, WildcardFindings findings, List<String> actions,
            List<String> resources, String wildcardReason) {
        function.addToRolePolicy(PolicyStatement.Builder.create().actions(actions).resources(resources).build());
        if (!wildcardReason.isEmpty()) {
            findings.add(resources, wildcardReason);
        }
    }

    private static Function handler(Construct scope, String id, String method, Path bundle, IKey logsKey) {
        return HandlerProvider.function(scope, id, "Lustre data repository association custom resource (" + method
                + ") of " + scope.getNode().getPath(), HANDLER_CLASS + "::" + method, bundle, logsKey);
    }
}
