package io.github.trainingdata.cdk.storage;

import java.util.List;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.fsx.CfnDataRepositoryAssociation;
import software.amazon.awscdk.services.kms.IKey;
import software.constructs.Construct;

/**
 * Renders a {@link LustreDataset} as the data repository association that links its directory of a new
 * {@link LustreCache} to its S3 location: metadata imported on create, auto-import of every event and no
 * auto-export unless the dataset says otherwise.
 */
final class DataRepositoryAssociations {
    private static final List<DataRepositoryEvent> ALL_EVENTS = List.of(DataRepositoryEvent.NEW,
            DataRepositoryEvent.CHANGED, DataRepositoryEvent.DELETED);

    private DataRepositoryAssociations() {
    }

    /**
     * Creates the association {@code Dataset-<name>} in {@code cache}, after the dataset buckets' keys of the
     * same stack.
     */
    static CfnDataRepositoryAssociation create(Construct cache, String fileSystemId, LustreDataset dataset,
            List<IKey> keys) {
        List<DataRepositoryEvent> autoImport = dataset.getAutoImport() != null ? dataset.getAutoImport() : ALL_EVENTS;
        List<DataRepositoryEvent> autoExport = dataset.getAutoExport() != null ? dataset.getAutoExport() : List.of();
        CfnDataRepositoryAssociation.S3Property.Builder s3 = CfnDataRepositoryAssociation.S3Property.builder();
        if (!autoImport.isEmpty()) {
            s3.autoImportPolicy(CfnDataRepositoryAssociation.AutoImportPolicyProperty.builder()
                    .events(autoImport.stream().map(Enum::name).toList()).build());
        }
        if (!autoExport.isEmpty()) {
            s3.autoExportPolicy(CfnDataRepositoryAssociation.AutoExportPolicyProperty.builder()
                    .events(autoExport.stream().map(Enum::name).toList()).build());
        }
        CfnDataRepositoryAssociation association = CfnDataRepositoryAssociation.Builder.create(cache,
                        "Dataset-" + dataset.getName())
                .fileSystemId(fileSystemId)
                .fileSystemPath(dataset.getFileSystemPath())
                .dataRepositoryPath(dataset.getS3Uri())
                .batchImportMetaDataOnCreate(true)
                .importedFileChunkSize(dataset.getImportedFileChunkSizeMiB())
                .s3(autoImport.isEmpty() && autoExport.isEmpty() ? null : s3.build())
                .build();
        // FSx reads a KMS-encrypted bucket only once the key policy allows it: create the link after the key.
        for (IKey key : keys) {
            if (key.getStack() == Stack.of(cache)) {
                association.getNode().addDependency(key);
            }
        }
        return association;
    }
}
