package io.github.trainingdata.cdk.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.NagFindings;
import io.github.trainingdata.cdk.PolicyStatements;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.internal.CustomResourceProvider;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.associations.DataRepositoryAssociationHandler;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.CfnResource;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.s3.Bucket;
import software.constructs.Construct;

/**
 * The {@code Custom::DataRepositoryAssociation} resources of a new cache and their provider: what each resource
 * asks for, the order they deploy in, what they keep on delete, the one handler bundle, the waiter's limits and
 * exactly what the handler may do.
 */
class DataRepositoryAssociationsTest {
    private final Stack stack = TestApps.stack();
    private final TrainingNetwork network = new TrainingNetwork(stack, "Network");
    private final TrainingDataBucket team = new TrainingDataBucket(stack, "Team", TrainingDataBucketProps.builder()
            .bucket(Bucket.fromBucketName(stack, "Existing", "team-datasets")).datasetPrefix("vision").build());

    private LustreCache cache(LustreDataset... datasets) {
        return new LustreCache(stack, "Lustre", LustreCacheProps.builder().network(network)
                .datasets(List.of(datasets)).build());
    }

    private LustreDataset dataset(String name) {
        return LustreDataset.builder(name).dataBucket(team).prefix(name).build();
    }

    private String logicalId(software.constructs.IConstruct construct) {
        return stack.getLogicalId((CfnElement) construct.getNode().getDefaultChild());
    }

    @Test
    void theAssociationsDeployOneAfterAnotherInDatasetOrder() {
        LustreCache cache = cache(dataset("imagenet"), dataset("coco"), dataset("laion"));
        List<CustomResource> associations = cache.getAssociations();
        Template t = Template.fromStack(stack);

        assertEquals(3, associations.size());
        t.hasResource("Custom::DataRepositoryAssociation", Map.of("Properties", Match.objectLike(Map.of(
                "FileSystemPath", "/imagenet")), "DependsOn", List.of(logicalId(cache.getNode().findChild("TaskGuard")))));
        for (int i = 1; i < 3; i++) {
            Map<String, Object> resource = t.findResources("Custom::DataRepositoryAssociation")
                    .get(logicalId(associations.get(i)));
            assertEquals(List.of(logicalId(associations.get(i - 1))), resource.get("DependsOn"));
        }
        assertEquals(Map.of("Fn::GetAtt", List.of(logicalId(associations.get(1)), "AssociationId")),
                stack.resolve(associations.get(1).getAttString(DataRepositoryAssociationHandler.ASSOCIATION_ID)));
    }

    @Test
    void theCustomResourceTakesANewLogicalIdSinceCloudFormationNeverChangesAResourcesTypeInPlace() {
        LustreCache cache = cache(dataset("imagenet"));
        Stack earlier = TestApps.stack();
        CfnResource earlierAssociation = CfnResource.Builder.create(new Construct(earlier, "Lustre"), "Dataset-imagenet")
                .type("AWS::FSx::DataRepositoryAssociation").build();

        assertNotEquals(earlier.getLogicalId(earlierAssociation), logicalId(cache.getAssociations().get(0)));
        assertEquals("Test/Lustre/Associations/imagenet", cache.getAssociations().get(0).getNode().getPath());
    }

    @Test
    void aRetainedCacheRetainsItsTaskGuardButNeverItsAssociations() {
        new LustreCache(stack, "Lustre", LustreCacheProps.builder().network(network).removalPolicy(RemovalPolicy.RETAIN)
                .datasets(List.of(dataset("imagenet"), dataset("coco"))).build());
        Template t = Template.fromStack(stack);

        assertEquals(2, t.findResources("Custom::DataRepositoryAssociation", Map.of(
                "DeletionPolicy", "Delete", "UpdateReplacePolicy", "Delete")).size(),
                "a retained association would still count toward FSx's 8 per file system");
        assertEquals(1, t.findResources("Custom::LustreTaskGuard", Map.of(
                "DeletionPolicy", "Retain", "UpdateReplacePolicy", "Retain")).size(),
                "a retained file system's tasks are never cancelled");
    }

    @Test
    void theTaskGuardIsDeletedAfterEveryAssociationAndJustBeforeTheFileSystem() {
        LustreCache cache = cache(dataset("imagenet"), dataset("coco"));
        Template t = Template.fromStack(stack);
        String guard = logicalId(cache.getNode().findChild("TaskGuard"));

        Map<String, Object> resource = t.findResources("Custom::LustreTaskGuard").get(guard);
        assertEquals(Map.of("ServiceToken", ((Map<?, ?>) t.findResources("Custom::DataRepositoryAssociation").values()
                        .iterator().next().get("Properties")).get("ServiceToken"), "FileSystemId",
                        Map.of("Ref", logicalId(cache)), "RoleArn", Map.of("Fn::GetAtt", List.of(logicalId(cache.getNode()
                        .findChild("AssociationProvider").getNode().findChild("HandlerRole")), "Arn"))),
                resource.get("Properties"), "the same provider; the file system; the cache's role");
        assertEquals(List.of(guard), t.findResources("Custom::DataRepositoryAssociation").get(
                logicalId(cache.getAssociations().get(0))).get("DependsOn"));
        assertEquals("Delete", resource.get("DeletionPolicy"));
    }

    @Test
    void theStacksProviderServesTheCacheAsTheCachesRoleWhichOutlivesEachResource() {
        LustreCache cache = cache(dataset("imagenet"), dataset("coco"));
        Template t = Template.fromStack(stack);

        Object token = stack.resolve(CustomResourceProvider.of(stack, null).getServiceToken());
        t.resourcePropertiesCountIs("Custom::DataRepositoryAssociation", Match.objectLike(Map.of(
                "ServiceToken", token)), 2);
        t.resourcePropertiesCountIs("Custom::LustreTaskGuard", Match.objectLike(Map.of("ServiceToken", token)), 1);
        String role = logicalId(cache.getNode().findChild("AssociationProvider").getNode().findChild("HandlerRole"));
        t.resourcePropertiesCountIs("Custom::DataRepositoryAssociation", Match.objectLike(Map.of(
                "RoleArn", Map.of("Fn::GetAtt", List.of(role, "Arn")))), 2);
        t.resourcePropertiesCountIs("Custom::LustreTaskGuard", Match.objectLike(Map.of(
                "RoleArn", Map.of("Fn::GetAtt", List.of(role, "Arn")))), 1);
    }

    @Test
    void theGrantsCallOnlyFsxOnThisFileSystemAndTheDatasetsLocations() {
        TrainingDataBucket encrypted = new TrainingDataBucket(stack, "Encrypted", TrainingDataBucketProps.builder()
                .encryption(DataEncryption.KMS).build());
        LustreCache cache = cache(dataset("imagenet"),
                LustreDataset.builder("all").dataBucket(encrypted).fileSystemPath("/all").build());
        Template t = Template.fromStack(stack);
        String fs = logicalId(cache);
        String grants = logicalId(cache.getNode().findChild("AssociationProvider").getNode()
                .findChild("HandlerRole"));
        List<String> granted = new ArrayList<>();
        for (Map<String, Object> statement : PolicyStatements.of(t.findResources("AWS::IAM::Role").get(grants))) {
            granted.add(PolicyStatements.strings(statement.get("Action")) + " on "
                    + PolicyStatements.strings(statement.get("Resource")));
        }
        String account = "arn:REF(AWS::Partition):fsx:REF(AWS::Region):REF(AWS::AccountId):";
        String encryptedBucket = "GETATT(" + logicalId(encrypted.getBucket()) + ".Arn)";
        String teamBucket = "arn:REF(AWS::Partition):s3:::team-datasets";
        assertEquals(List.of(
                "[fsx:DescribeDataRepositoryAssociations, fsx:DescribeDataRepositoryTasks] on [*]",
                "[fsx:CreateDataRepositoryAssociation] on [" + account + "association/REF(" + fs + ")/*, " + account
                        + "file-system/REF(" + fs + ")]",
                "[fsx:DeleteDataRepositoryAssociation, fsx:TagResource, fsx:UpdateDataRepositoryAssociation] on ["
                        + account + "association/REF(" + fs + ")/*]",
                "[fsx:CreateDataRepositoryTask] on [" + account + "file-system/REF(" + fs + "), " + account + "task/*]",
                "[fsx:CancelDataRepositoryTask, fsx:TagResource] on [" + account + "task/*]",
                "[iam:AttachRolePolicy, iam:CreateServiceLinkedRole, iam:PutRolePolicy] on [arn:REF(AWS::Partition):iam::"
                        + "REF(AWS::AccountId):role/aws-service-role/s3.data-source.lustre.fsx.amazonaws.com/"
                        + "AWSServiceRoleForFSxS3Access_*]",
                "[s3:GetBucketLocation, s3:GetBucketPolicy, s3:ListBucket] on [" + encryptedBucket + ", "
                        + teamBucket + "]",
                "[s3:GetObject, s3:PutObject] on [" + teamBucket + "/vision/imagenet/*, " + encryptedBucket
                        + "/datasets/*]",
                "[kms:Decrypt, kms:GenerateDataKey] on [GETATT(" + logicalId(encrypted.getEncryptionKey()) + ".Arn)]"),
                granted);
    }

    @Test
    void passesCdkNagWithEveryFindingAcknowledged() {
        TrainingDataBucket encrypted = new TrainingDataBucket(stack, "Encrypted", TrainingDataBucketProps.builder()
                .encryption(DataEncryption.KMS).build());
        cache(dataset("imagenet"), LustreDataset.builder("all").dataBucket(encrypted).fileSystemPath("/all").build());

        assertEquals("", NagFindings.of(stack));
    }
}
