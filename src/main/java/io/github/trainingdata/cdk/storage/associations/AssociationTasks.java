package io.github.trainingdata.cdk.storage.associations;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.util.List;
import software.amazon.awssdk.services.fsx.model.DataRepositoryAssociation;
import software.amazon.awssdk.services.fsx.model.DataRepositoryLifecycle;
import software.amazon.awssdk.services.fsx.model.DataRepositoryTask;
import software.amazon.awssdk.services.fsx.model.DataRepositoryTaskFilterName;
import software.amazon.awssdk.services.fsx.model.DataRepositoryTaskLifecycle;
import software.amazon.awssdk.services.fsx.model.DataRepositoryTaskType;

/**
 * What the handler does with FSx's data repository tasks before it deletes what they run on. "You cannot delete an
 * FSx for Lustre file system if there are data repository tasks for the file system in the PENDING or EXECUTING
 * states" (FSx API reference, DataRepositoryTask); CancelDataRepositoryTask cancels a PENDING or EXECUTING task.
 * <ul>
 * <li>Before an association is deleted: its imports (the create-time metadata import, an on-demand import) are
 *     cancelled and waited for until they are over; an association that exports (unless FAILED, which is terminal)
 *     first exports its directory (one
 *     {@code EXPORT_TO_REPOSITORY} task, tagged with the owner and request) and waits for that and any other
 *     export, so what S3 lacks reaches S3 before the link goes.</li>
 * <li>Before the file system is deleted ({@link TaskGuard}): every PENDING or EXECUTING task of the file system is
 *     cancelled and waited for.</li>
 * </ul>
 */
final class AssociationTasks {
    /** The states a task ends in. */
    private static final List<DataRepositoryTaskLifecycle> FINISHED = List.of(DataRepositoryTaskLifecycle.SUCCEEDED,
            DataRepositoryTaskLifecycle.FAILED, DataRepositoryTaskLifecycle.CANCELED);
    private static final List<DataRepositoryTaskLifecycle> EVERY_LIFECYCLE = List.of(DataRepositoryTaskLifecycle.PENDING,
            DataRepositoryTaskLifecycle.EXECUTING, DataRepositoryTaskLifecycle.CANCELING,
            DataRepositoryTaskLifecycle.SUCCEEDED, DataRepositoryTaskLifecycle.FAILED,
            DataRepositoryTaskLifecycle.CANCELED);
    private final FsxAssociations fsx;

    AssociationTasks(FsxAssociations fsx) {
        this.fsx = fsx;
    }

    /**
     * Takes the next step towards an association that may be deleted: cancels its running imports, starts its
     * export when it exports, and waits for every task of it to be over.
     *
     * @return true when no task of the association runs any more (and an exporting one has exported)
     */
    boolean readyToDelete(DataRepositoryAssociation association, String owner, String requestId, LambdaLogger log) {
        List<DataRepositoryTask> unfinished = fsx.unfinishedTasks(DataRepositoryTaskFilterName.DATA_REPOSITORY_ASSOCIATION_ID,
                association.associationId());
        boolean waiting = false;
        for (DataRepositoryTask task : unfinished) {
            waiting = true;
            if (task.type() == DataRepositoryTaskType.IMPORT_METADATA_FROM_REPOSITORY
                    && FsxAssociations.RUNNING.contains(task.lifecycle())) {
                if (fsx.cancel(task)) {
                    log.log("Cancelled " + describe(task) + " of association " + association.associationId()
                            + " before deleting it");
                }
            } else {
                log.log("Waiting for " + describe(task) + " of association " + association.associationId()
                        + " before deleting it");
            }
        }
        if (waiting || !exports(association)) {
            return !waiting;
        }
        if (association.lifecycle() == DataRepositoryLifecycle.FAILED) {
            // "FAILED - The data repository association is in a terminal state that cannot be recovered" (FSx API
            // reference, DataRepositoryAssociation): an export through it cannot succeed, and a refused one would fail
            // the request (and its rollback) with nothing deleted. Its files stay on the file system.
            log.log("Association " + association.associationId() + " is FAILED: deleted without exporting its directory "
                    + "first; its files stay on the file system");
            return true;
        }
        // Looked up among the file system's tasks by its tags and path: whether FSx also lists a task created with the
        // file system's id and paths under the association those paths lie in is not documented.
        String path = relative(association.fileSystemPath());
        List<DataRepositoryTask> ours = fsx.tasks(DataRepositoryTaskFilterName.FILE_SYSTEM_ID,
                association.fileSystemId(), EVERY_LIFECYCLE).stream()
                .filter(t -> t.type() == DataRepositoryTaskType.EXPORT_TO_REPOSITORY
                        && owner.equals(FsxAssociations.tag(t, FsxAssociations.OWNER_TAG))
                        && requestId.equals(FsxAssociations.tag(t, FsxAssociations.REQUEST_TAG))
                        && t.paths().stream().map(AssociationTasks::relative).toList()
                        .equals(path.isEmpty() ? List.of() : List.of(path)))
                .toList();
        if (ours.isEmpty()) {
            DataRepositoryTask export = fsx.export(association, owner, requestId);
            log.log("Exporting " + association.fileSystemPath() + " to " + association.dataRepositoryPath() + " ("
                    + export.taskId() + ") before deleting association " + association.associationId());
            return false;
        }
        DataRepositoryTask export = ours.get(0);
        if (!FINISHED.contains(export.lifecycle())) {
            log.log("Waiting for " + describe(export) + " of association " + association.associationId()
                    + " before deleting it");
            return false;
        }
        if (export.lifecycle() != DataRepositoryTaskLifecycle.SUCCEEDED) {
            log.log(describe(export) + ": " + (export.failureDetails() != null ? export.failureDetails().message() : "")
                    + ". The association is deleted keeping its files on the file system, where what was not "
                    + "exported stays.");
        }
        return true;
    }

    /**
     * Cancels every PENDING or EXECUTING task of the file system and tells whether any task is still not over.
     *
     * @return true when no task of the file system is PENDING, EXECUTING or CANCELING
     * @throws software.amazon.awssdk.services.fsx.model.FileSystemNotFoundException if the file system is gone
     */
    boolean fileSystemIdle(String fileSystemId, LambdaLogger log) {
        List<DataRepositoryTask> unfinished = fsx.unfinishedTasks(DataRepositoryTaskFilterName.FILE_SYSTEM_ID,
                fileSystemId);
        for (DataRepositoryTask task : unfinished) {
            if (FsxAssociations.RUNNING.contains(task.lifecycle()) && fsx.cancel(task)) {
                log.log("Cancelled " + describe(task) + " so that file system " + fileSystemId + " can be deleted");
            } else {
                log.log("Waiting for " + describe(task) + " of file system " + fileSystemId);
            }
        }
        return unfinished.isEmpty();
    }

    /** Whether FSx exports the association's changes automatically. */
    static boolean exports(DataRepositoryAssociation association) {
        return association.s3() != null && association.s3().autoExportPolicy() != null
                && !association.s3().autoExportPolicy().events().isEmpty();
    }

    /** A file-system path as an export names it: relative to the mount point, without a trailing slash. */
    static String relative(String path) {
        return path.replaceAll("^/+", "").replaceAll("/+$", "");
    }

    private static String describe(DataRepositoryTask task) {
        return "data repository task " + task.taskId() + " (" + task.typeAsString() + ", " + task.lifecycleAsString()
                + ")";
    }
}
