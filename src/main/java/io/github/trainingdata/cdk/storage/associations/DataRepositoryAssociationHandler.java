package io.github.trainingdata.cdk.storage.associations;

import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.fsx.model.DataRepositoryAssociation;
import software.amazon.awssdk.services.fsx.model.DataRepositoryAssociationNotFoundException;
import software.amazon.awssdk.services.fsx.model.DataRepositoryLifecycle;
import software.amazon.awssdk.services.fsx.model.FileSystemNotFoundException;

/**
 * Lambda handler of the data repository association custom resource ({@code Custom::DataRepositoryAssociation},
 * aws-cdk-lib Provider framework, onEvent + isComplete): one association that links {@value #FILE_SYSTEM_PATH} of
 * the file system {@value #FILE_SYSTEM_ID} to the S3 location {@value #DATA_REPOSITORY_PATH}.
 *
 * <p>Unlike {@code AWS::FSx::DataRepositoryAssociation}, whose paths are create-only (a change creates the new
 * association before deleting the old one, which FSx refuses on the same directory or S3 location), the physical
 * id stays {@code <FileSystemId>:<LogicalResourceId>} while the paths change, so a changed path or location is an
 * in-place update: the old association is deleted first, then the new one created. A rollback is an Update back to
 * the earlier properties and converges the same way. onEvent only checks the properties and names the resource;
 * every call to FSx happens in isComplete, one step per call, so each step sees FSx's current state:
 * <ol>
 * <li>list the file system's associations;</li>
 * <li>delete what is in the way: this resource's associations that link anything else (with the files of the old
 *     location, so they do not stay mixed in; an exporting one keeps its files, which S3 may not have yet), and
 *     any other association on the same or an overlapping directory or S3 location (an earlier version's
 *     {@code AWS::FSx::DataRepositoryAssociation}, or another dataset's before a swap), keeping the files when it
 *     links the very same directory and location; wait until they are gone;</li>
 * <li>create the association (tagged {@value FsxAssociations#OWNER_TAG} = physical id and
 *     {@value FsxAssociations#REQUEST_TAG} = request id, idempotent per request), wait until AVAILABLE;</li>
 * <li>change the chunk size and the automatic import and export events in place, one per update, as AWS's own
 *     resource handler does.</li>
 * </ol>
 * An association this request created that ends FAILED or MISCONFIGURED fails the request with FSx's failure
 * details and what to do; one left so by an earlier deploy is replaced. Delete removes this resource's
 * associations (keeping their files: the file system is being deleted, or the dataset was removed) and waits until
 * they are gone; a missing association or file system means done. Throttling, 5xx answers and timeouts mean "not
 * complete yet".
 */
public final class DataRepositoryAssociationHandler {
    /** ResourceProperties key: the file system's id. */
    public static final String FILE_SYSTEM_ID = "FileSystemId";
    /** ResourceProperties key: the linked directory of the file system, e.g. {@code /imagenet}. */
    public static final String FILE_SYSTEM_PATH = "FileSystemPath";
    /** ResourceProperties key: the linked S3 location, {@code s3://bucket/prefix/}. */
    public static final String DATA_REPOSITORY_PATH = "DataRepositoryPath";
    /** ResourceProperties key (optional): the imported file chunk size in MiB; absent for the service default. */
    public static final String IMPORTED_FILE_CHUNK_SIZE = "ImportedFileChunkSize";
    /** ResourceProperties key: the S3 events imported automatically, a list of NEW, CHANGED, DELETED. */
    public static final String AUTO_IMPORT_EVENTS = "AutoImportEvents";
    /** ResourceProperties key: the file-system events exported automatically, a list of NEW, CHANGED, DELETED. */
    public static final String AUTO_EXPORT_EVENTS = "AutoExportEvents";
    /** ResourceProperties key: {@code true} to import the location's metadata when the association is created. */
    public static final String BATCH_IMPORT_META_DATA_ON_CREATE = "BatchImportMetaDataOnCreate";
    /** Attribute: the association's id, {@code dra-...}. */
    public static final String ASSOCIATION_ID = "AssociationId";

    private static final Map<String, Object> NOT_COMPLETE = Map.of("IsComplete", false);
    /** States an association leaves by itself: act on it only once it has left them. */
    private static final Set<DataRepositoryLifecycle> IN_PROGRESS = Set.of(DataRepositoryLifecycle.CREATING,
            DataRepositoryLifecycle.UPDATING, DataRepositoryLifecycle.DELETING,
            DataRepositoryLifecycle.UNKNOWN_TO_SDK_VERSION);
    private static final Set<DataRepositoryLifecycle> BROKEN = Set.of(DataRepositoryLifecycle.FAILED,
            DataRepositoryLifecycle.MISCONFIGURED);

    private final FsxAssociations associations;

    /** The handler Lambda instantiates: an FSx client for the function's Region and role. */
    public DataRepositoryAssociationHandler() {
        this(FsxAssociations.clientBuilder().build());
    }

    /**
     * A handler with its client supplied.
     *
     * @param fsx lists, creates, updates and deletes associations
     */
    public DataRepositoryAssociationHandler(FSxClient fsx) {
        this.associations = new FsxAssociations(fsx);
    }

    /**
     * Checks the properties and names the resource; calls nothing.
     *
     * @param event   the Provider framework's event (the CloudFormation request)
     * @param context the Lambda context
     * @return {@code PhysicalResourceId}: {@code <FileSystemId>:<LogicalResourceId>}, unchanged on Delete
     * @throws IllegalArgumentException if the event or its properties are malformed
     */
    public Map<String, Object> onEvent(Map<String, Object> event, Context context) {
        String requestType = string(event, "RequestType");
        String physicalId = switch (requestType) {
            case "Create", "Update" -> physicalId(DesiredAssociation.from(map(event, "ResourceProperties")),
                    string(event, "LogicalResourceId"));
            case "Delete" -> string(event, "PhysicalResourceId");
            default -> throw new IllegalArgumentException("Unknown RequestType '" + requestType + "'");
        };
        context.getLogger().log(requestType + " " + physicalId);
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("PhysicalResourceId", physicalId);
        return response;
    }

    /**
     * Takes the next step towards the association the request asks for (none for Delete).
     *
     * @param event   the Provider framework's event, with the PhysicalResourceId onEvent returned
     * @param context the Lambda context
     * @return {@code IsComplete} and, once a Create or Update is complete, {@code Data} with {@value #ASSOCIATION_ID}
     * @throws IllegalStateException if the association cannot be made: the file system is gone, FSx refused it,
     *                               or it ended FAILED or MISCONFIGURED
     */
    public Map<String, Object> isComplete(Map<String, Object> event, Context context) {
        LambdaLogger log = context.getLogger();
        String physicalId = string(event, "PhysicalResourceId");
        try {
            if (string(event, "RequestType").equals("Delete")) {
                return remove(physicalId, log);
            }
            return ensure(DesiredAssociation.from(map(event, "ResourceProperties")), physicalId,
                    string(event, "RequestId"), log);
        } catch (SdkException e) {
            if (!SdkCalls.isTransient(e)) {
                throw e;
            }
            log.log("FSx did not answer (transient, not complete yet): " + e.getMessage());
            return NOT_COMPLETE;
        }
    }

    /** {@code <FileSystemId>:<LogicalResourceId>}: the same while the paths change, new on another file system. */
    static String physicalId(DesiredAssociation desired, String logicalId) {
        return desired.fileSystemId() + ":" + logicalId;
    }

    private Map<String, Object> ensure(DesiredAssociation desired, String owner, String requestId, LambdaLogger log) {
        List<DataRepositoryAssociation> all;
        try {
            all = associations.list(desired.fileSystemId());
        } catch (FileSystemNotFoundException e) {
            throw new IllegalStateException("File system " + desired.fileSystemId() + " does not exist, so "
                    + desired.fileSystemPath() + " cannot be linked to " + desired.dataRepositoryPath(), e);
        }
        DataRepositoryAssociation current = all.stream().filter(a -> ownedBy(a, owner) && desired.linksTheSame(a)
                && a.lifecycle() != DataRepositoryLifecycle.DELETING).findFirst().orElse(null);
        if (current != null && BROKEN.contains(current.lifecycle())
                && !requestId.equals(FsxAssociations.tag(current, FsxAssociations.REQUEST_TAG))) {
            log.log(describe(current) + " was left " + current.lifecycleAsString() + " by an earlier deploy: replacing it");
            current = null;
        }
        DataRepositoryAssociation kept = current;
        List<DataRepositoryAssociation> inTheWay = all.stream()
                .filter(a -> a != kept && (ownedBy(a, owner) || desired.collidesWith(a))).toList();
        if (!inTheWay.isEmpty()) {
            clear(inTheWay, a -> !desired.linksTheSame(a) && !exports(a), log);
            return NOT_COMPLETE;
        }
        if (current == null) {
            DataRepositoryAssociation created = associations.create(desired, owner, requestId);
            log.log("Creating " + describe(created) + " (metadata import on create: " + desired.importOnCreate() + ")");
            return NOT_COMPLETE;
        }
        return settle(current, desired, log);
    }

    /** Waits for the association to become AVAILABLE with every setting asked for. */
    private Map<String, Object> settle(DataRepositoryAssociation current, DesiredAssociation desired, LambdaLogger log) {
        if (BROKEN.contains(current.lifecycle())) {
            throw new IllegalStateException(failure(current));
        }
        if (current.lifecycle() != DataRepositoryLifecycle.AVAILABLE) {
            log.log(describe(current) + ": waiting");
            return NOT_COMPLETE;
        }
        Optional<DesiredAssociation.Change> change = desired.firstDifference(current);
        if (change.isPresent()) {
            try {
                associations.update(current, change.get());
            } catch (DataRepositoryAssociationNotFoundException e) {
                log.log(describe(current) + " disappeared before its update: looking again");
                return NOT_COMPLETE;
            }
            log.log("Updating " + describe(current) + ": " + change.get().what());
            return NOT_COMPLETE;
        }
        log.log(describe(current) + ": complete");
        Map<String, Object> data = new LinkedHashMap<>();
        data.put(ASSOCIATION_ID, current.associationId());
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("IsComplete", true);
        response.put("Data", data);
        return response;
    }

    private Map<String, Object> remove(String owner, LambdaLogger log) {
        String fileSystemId = owner.startsWith("fs-") && owner.contains(":") ? owner.substring(0, owner.indexOf(':'))
                : null;
        if (fileSystemId == null) {
            log.log("Physical id " + owner + " names no association of this handler: nothing to delete");
            return Map.of("IsComplete", true);
        }
        List<DataRepositoryAssociation> ours;
        try {
            ours = associations.list(fileSystemId).stream().filter(a -> ownedBy(a, owner)).toList();
        } catch (FileSystemNotFoundException e) {
            log.log("File system " + fileSystemId + " is gone, and its associations with it");
            return Map.of("IsComplete", true);
        }
        if (ours.isEmpty()) {
            log.log("No association of " + owner + " is left on " + fileSystemId);
            return Map.of("IsComplete", true);
        }
        clear(ours, a -> false, log);
        return NOT_COMPLETE;
    }

    /**
     * Deletes each association that is not busy (creating, updating or being deleted already); the busy ones are
     * waited for.
     */
    private void clear(List<DataRepositoryAssociation> doomed, Predicate<DataRepositoryAssociation> deleteData,
            LambdaLogger log) {
        for (DataRepositoryAssociation association : doomed) {
            if (IN_PROGRESS.contains(association.lifecycle())) {
                log.log(describe(association) + ": waiting before it can be deleted or until it is gone");
                continue;
            }
            boolean withData = deleteData.test(association);
            if (associations.delete(association, withData)) {
                log.log("Deleting " + describe(association) + (withData ? " with" : " keeping") + " its files on the "
                        + "file system" + owner(association));
            }
        }
    }

    private static boolean ownedBy(DataRepositoryAssociation association, String owner) {
        return owner.equals(FsxAssociations.tag(association, FsxAssociations.OWNER_TAG));
    }

    private static boolean exports(DataRepositoryAssociation association) {
        return association.s3() != null && association.s3().autoExportPolicy() != null
                && !association.s3().autoExportPolicy().events().isEmpty();
    }

    private static String owner(DataRepositoryAssociation association) {
        String owner = FsxAssociations.tag(association, FsxAssociations.OWNER_TAG);
        return owner != null ? " (of " + owner + ")"
                : " (not made by this custom resource: e.g. an earlier version's AWS::FSx::DataRepositoryAssociation)";
    }

    private static String describe(DataRepositoryAssociation association) {
        return "association " + association.associationId() + " (" + association.fileSystemPath() + " <-> "
                + association.dataRepositoryPath() + ", " + association.lifecycleAsString() + ")";
    }

    /** FSx's failure details and what to do, for an association this request created. */
    private static String failure(DataRepositoryAssociation association) {
        String details = association.failureDetails() != null
                ? Objects.toString(association.failureDetails().message(), "") : "";
        String advice = association.lifecycle() == DataRepositoryLifecycle.FAILED
                ? "FSx marks an association FAILED when it cannot recover it, for example when the S3 bucket or the "
                + "linked directory was deleted. Check that the bucket exists and that FSx may read it (its bucket "
                + "policy and, with SSE-KMS, the key policy for the AWSServiceRoleForFSxS3Access_* roles), then deploy "
                + "again: the next deploy replaces the failed association."
                : "FSx cannot import from or export to the bucket automatically until this is corrected: most often FSx "
                + "lacks permission on the bucket or its KMS key, another event notification of the bucket uses "
                + "s3:ObjectCreated:* or s3:ObjectRemoved:*, or FSx's own notification on the bucket was removed or "
                + "changed (FSx for Lustre guide, 'Troubleshooting a misconfigured linked S3 bucket'). Correct it, then "
                + "deploy again: the next deploy replaces the association.";
        return describe(association) + " on " + association.fileSystemId() + ": " + details + ". " + advice;
    }

    private static String string(Map<?, ?> map, String key) {
        Object value = map.get(key);
        if (!(value instanceof String s) || s.isEmpty()) {
            throw new IllegalArgumentException("The custom resource event has no " + key);
        }
        return s;
    }

    private static Map<?, ?> map(Map<?, ?> event, String key) {
        if (!(event.get(key) instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("The custom resource event has no " + key + " object");
        }
        return map;
    }
}
