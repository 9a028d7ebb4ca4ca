package io.github.trainingdata.cdk.storage;

/**
 * A change that a {@link LustreDataset}'s data repository association follows automatically: objects
 * created, changed or deleted in S3 (auto-import), or files created, changed or deleted on the file
 * system (auto-export). The API values of {@code S3.AutoImportPolicy.Events} and
 * {@code S3.AutoExportPolicy.Events}.
 */
public enum DataRepositoryEvent {
    /** New objects or files. */
    NEW,
    /** Changed objects or files. */
    CHANGED,
    /** Deleted objects or files. */
    DELETED
}
