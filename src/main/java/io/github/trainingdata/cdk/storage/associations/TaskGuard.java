package io.github.trainingdata.cdk.storage.associations;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.fsx.model.FileSystemNotFoundException;

/**
 * The {@value #RESOURCE_TYPE} custom resource, served by the association handler: it depends on the file system and
 * every association depends on it, so CloudFormation deletes it after the associations and the preload and just
 * before the file system. Create and Update do nothing; Delete cancels the file system's PENDING and EXECUTING data
 * repository tasks and waits until none is left, since FSx refuses to delete a file system while any is ("You cannot
 * delete an FSx for Lustre file system if there are data repository tasks for the file system in the PENDING or
 * EXECUTING states", FSx API reference, DataRepositoryTask). A gone file system means done. It is retained with a
 * retained file system, so a retained cache's tasks are never cancelled.
 */
final class TaskGuard {
    /** The guard's resource type. */
    static final String RESOURCE_TYPE = "Custom::LustreTaskGuard";
    /** The suffix of its physical id, {@code <FileSystemId>:tasks}: new when the file system is replaced. */
    static final String SUFFIX = ":tasks";

    private final AssociationTasks tasks;

    TaskGuard(AssociationTasks tasks) {
        this.tasks = tasks;
    }

    /** The physical id for the file system the properties name. */
    static String physicalId(Map<?, ?> properties) {
        Object fileSystemId = properties.get(DataRepositoryAssociationHandler.FILE_SYSTEM_ID);
        if (!(fileSystemId instanceof String id) || !id.startsWith("fs-")) {
            throw new IllegalArgumentException("ResourceProperties has no " + DataRepositoryAssociationHandler.FILE_SYSTEM_ID
                    + " fs-...");
        }
        return id + SUFFIX;
    }

    /** Create and Update are complete at once; Delete once the file system has no task left that blocks it. */
    Map<String, Object> isComplete(String requestType, String physicalId, LambdaLogger log) {
        if (!requestType.equals("Delete")) {
            return Map.of("IsComplete", true);
        }
        if (!physicalId.startsWith("fs-") || !physicalId.endsWith(SUFFIX)) {
            log.log("Physical id " + physicalId + " names no file system: nothing to cancel");
            return Map.of("IsComplete", true);
        }
        String fileSystemId = physicalId.substring(0, physicalId.length() - SUFFIX.length());
        boolean idle;
        try {
            idle = tasks.fileSystemIdle(fileSystemId, log);
        } catch (FileSystemNotFoundException e) {
            log.log("File system " + fileSystemId + " is gone, and its tasks with it");
            idle = true;
        }
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("IsComplete", idle);
        if (idle) {
            log.log("No data repository task of " + fileSystemId + " is pending or executing: it may be deleted");
        }
        return response;
    }
}
