package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.internal.CustomResourceProvider;
import io.github.trainingdata.cdk.internal.CustomResourceRole;
import io.github.trainingdata.cdk.internal.handler.AssumedRoles;
import io.github.trainingdata.cdk.storage.associations.DataRepositoryAssociationHandler;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.kms.IKey;
import software.constructs.Construct;

/**
 * Renders the {@link LustreDataset}s of a new {@link LustreCache} as {@code Custom::DataRepositoryAssociation}
 * resources, one per dataset, that link its directory to its S3 location: metadata imported on create, auto-import
 * of every event and no auto-export unless the dataset says otherwise.
 *
 * <p>A custom resource rather than {@code AWS::FSx::DataRepositoryAssociation}, whose file-system path, S3 location
 * and file system are create-only: CloudFormation replaces such an association by creating the new one before
 * deleting the old, and FSx refuses a second association on the same directory or S3 location, so a changed path
 * or location failed the update. The custom resource keeps its physical id while they change and moves the link in
 * place (see {@code DataRepositoryAssociationHandler}).
 *
 * <p>The resources deploy one after another in dataset order (each depends on the one before): associations created
 * together on one file system have been reported to end FAILED for lack of S3 permissions
 * (hashicorp/terraform-provider-aws#24678, fixed there by creating them one at a time), and FSx works on one
 * association request of a file system at a time anyway (FSx for Lustre guide, "Linking your file system to an S3
 * bucket"). Each also deploys after the datasets' KMS keys of the same stack, whose policies let FSx read the bucket.
 *
 * <p>Before them comes the cache's {@code Custom::LustreTaskGuard} ({@code TaskGuard}), which depends on the file
 * system: every association (and so the preload, which depends on the whole cache) depends on it, so on delete
 * CloudFormation removes it last before the file system, and its Delete cancels the file system's remaining data
 * repository tasks, which would block the file system's deletion. It takes the file system's removal policy. The
 * associations themselves are never retained: a retained association still counts toward FSx's 8 per file system,
 * so removing a dataset and adding another in one deploy would fail; instead an exporting association's Delete
 * exports its directory first, then unlinks it keeping its files.
 */
final class DataRepositoryAssociations {
    static final String RESOURCE_TYPE = "Custom::DataRepositoryAssociation";
    static final String GUARD_TYPE = "Custom::LustreTaskGuard";

    /** What {@link #create} made: the task guard and the associations, in dataset order. */
    record Links(CustomResource taskGuard, List<CustomResource> associations) {
    }
    private static final List<DataRepositoryEvent> ALL_EVENTS = List.of(DataRepositoryEvent.NEW,
            DataRepositoryEvent.CHANGED, DataRepositoryEvent.DELETED);

    private DataRepositoryAssociations() {
    }

    /**
     * Makes the role the stack's provider acts as for the associations ({@code AssociationProvider}), the task guard
     * ({@code TaskGuard}) and one custom resource per dataset ({@code Associations/<name>}) in {@code cache}, each
     * naming the role ({@code RoleArn}: the reference keeps the role until they are deleted, also when the cache is
     * removed).
     *
     * @return the guard and the associations, in dataset order
     */
    static Links create(Construct cache, String fileSystemId, List<LustreDataset> datasets,
            List<IKey> keys, IKey logsKey) {
        CustomResourceProvider provider = CustomResourceProvider.of(cache, logsKey);
        CustomResourceRole role = AssociationProvider.grant(new Construct(cache, "AssociationProvider"), provider, fileSystemId,
                datasets, keys);
        String serviceToken = provider.getServiceToken();
        Map<String, Object> guardProperties = new LinkedHashMap<>();
        guardProperties.put(DataRepositoryAssociationHandler.FILE_SYSTEM_ID, fileSystemId);
        guardProperties.put(AssumedRoles.ROLE_ARN, role.getRoleArn());
        CustomResource guard = CustomResource.Builder.create(cache, "TaskGuard")
                .serviceToken(serviceToken)
                .resourceType(GUARD_TYPE)
                .properties(guardProperties)
                .build();
        Construct scope = new Construct(cache, "Associations");
        List<CustomResource> resources = new ArrayList<>();
        for (LustreDataset dataset : datasets) {
            CustomResource resource = CustomResource.Builder.create(scope, dataset.getName())
                    .serviceToken(serviceToken)
                    .resourceType(RESOURCE_TYPE)
                    .properties(properties(fileSystemId, dataset, role))
                    .build();
            // FSx reads a KMS-encrypted bucket only once the key policy allows it: create the link after the key.
            for (IKey key : keys) {
                if (key.getStack() == Stack.of(cache)) {
                    resource.getNode().addDependency(key);
                }
            }
            resource.getNode().addDependency(resources.isEmpty() ? guard : resources.get(resources.size() - 1));
            resources.add(resource);
        }
        return new Links(guard, resources);
    }

    private static Map<String, Object> properties(String fileSystemId, LustreDataset dataset, CustomResourceRole role) {
        List<DataRepositoryEvent> autoImport = dataset.getAutoImport() != null ? dataset.getAutoImport() : ALL_EVENTS;
        List<DataRepositoryEvent> autoExport = dataset.getAutoExport() != null ? dataset.getAutoExport() : List.of();
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put(DataRepositoryAssociationHandler.FILE_SYSTEM_ID, fileSystemId);
        properties.put(DataRepositoryAssociationHandler.FILE_SYSTEM_PATH, dataset.getFileSystemPath());
        properties.put(DataRepositoryAssociationHandler.DATA_REPOSITORY_PATH, dataset.getS3Uri());
        if (dataset.getImportedFileChunkSizeMiB() != null) {
            properties.put(DataRepositoryAssociationHandler.IMPORTED_FILE_CHUNK_SIZE, dataset.getImportedFileChunkSizeMiB());
        }
        properties.put(DataRepositoryAssociationHandler.AUTO_IMPORT_EVENTS, autoImport.stream().map(Enum::name).toList());
        properties.put(DataRepositoryAssociationHandler.AUTO_EXPORT_EVENTS, autoExport.stream().map(Enum::name).toList());
        properties.put(DataRepositoryAssociationHandler.BATCH_IMPORT_META_DATA_ON_CREATE, true);
        properties.put(AssumedRoles.ROLE_ARN, role.getRoleArn());
        return properties;
    }
}
