package io.github.trainingdata.cdk.storage.associations;

import io.github.trainingdata.cdk.internal.handler.CustomResourceEvent;
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
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.fsx.model.DataRepositoryAssociation;
import software.amazon.awssdk.services.fsx.model.DataRepositoryAssociationNotFoundException;
import software.amazon.awssdk.services.fsx.model.DataRepositoryLifecycle;
import software.amazon.awssdk.services.fsx.model.FileSystemNotFoundException;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Handler of the data repository association custom resource ({@code Custom::DataRepositoryAssociation}, run by
 * the stack's custom-resource dispatcher, onEvent + isComplete): one association that links
 * {@value #FILE_SYSTEM_PATH} of the file system {@value #FILE_SYSTEM_ID} to the S3 location
 * {@value #DATA_REPOSITORY_PATH}. The same functions serve the cache's {@value TaskGuard#RESOURCE_TYPE}
 * ({@link TaskGuard}), told apart by the event's ResourceType.
 *
 * <p>Unlike {@code AWS::FSx::DataRepositoryAssociation}, whose paths are create-only (a change creates the new
 * association before deleting the old one, which FSx refuses on the same directory or S3 location), the physical
 * id stays {@code <FileSystemId>:<LogicalResourceId>} while the paths change, so a changed path or location is an
 * in-place update: the old association is deleted first, then the new one created. A rollback is an Update back to
 * the earlier properties and converges the same way. onEvent only checks the properties and names the resource;
 * every call to FSx happens in isComplete, one step per call, so each step sees FSx's current state:
 * <ol>
 * <li>list the file system's associations;</li>
 * <li>refuse, before deleting anything, what FSx would refuse beside another resource's association (the same or an
 *     overlapping directory, the same S3 location; a nested S3 location, which the library refuses at synth): an
 *     association this resource did not create (tag
 *     {@value FsxAssociations#OWNER_TAG} = physical id) is never deleted, whatever its paths; and refuse to re-create
 *     an association at {@code /} ({@link #ROOT});</li>
 * <li>delete this resource's associations that link anything else, or that FSx marked FAILED: a move first counts
 *     the old and the new S3 location and fails, before anything is deleted, when either holds more than
 *     {@value #MAX_MOVE_OBJECTS} objects; then the old association's imports are cancelled and an exporting one
 *     exports ({@link AssociationTasks}); a moved one goes with the files of the old location, so they do not stay
 *     mixed in, an exporting or FAILED one keeps them; wait until they are gone;</li>
 * <li>create the association (tagged with its owner, {@value FsxAssociations#REQUEST_TAG} = request id and
 *     {@value FsxAssociations#ATTEMPT_TAG} = the attempt, idempotent per attempt of the request), unless the file
 *     system has {@value #MAX_ASSOCIATIONS} already; wait until it leaves CREATING;</li>
 * <li>change the chunk size and the automatic import and export events in place, one per update, as AWS's own
 *     resource handler does, also on a MISCONFIGURED association.</li>
 * </ol>
 * Like AWS's own handler, a Create succeeds only with an AVAILABLE association, an Update also with a MISCONFIGURED
 * one: it still serves the linked data, FSx only cannot import or export automatically until the cause is fixed, and
 * it "automatically returns to the Available state within 15 minutes" after that (FSx for Lustre guide, data
 * repository association lifecycle). So neither an update nor its rollback fails on a cause the deploy cannot fix;
 * the handler logs FSx's details. FAILED ("cannot recover") fails the attempt of the request that created it and
 * is replaced by the next deploy, or by the next attempt of the same request (CloudFormation sends a retried
 * deployment's request again with the same RequestId, a new attempt of it for the dispatcher:
 * {@link CustomResourceEvent#ATTEMPT}); a Create's MISCONFIGURED association too.
 * Delete cancels the association's imports, exports an exporting one, then removes it keeping its files
 * (the file system is being deleted, or the dataset was removed) and waits until it is gone; a missing association
 * or file system means done. Throttling, 5xx answers and timeouts mean "not complete yet".
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
    /**
     * The file-system path FSx allows "only for the first data repository associated with a file system" (FSx API
     * reference, CreateDataRepositoryAssociation, FileSystemPath). Whether a file system whose association at
     * {@code /} was deleted may link {@code /} again is not documented, so the handler never deletes an association
     * to create one at {@code /}: it fails before deleting anything, whichever the answer.
     */
    static final String ROOT = "/";

    /**
     * The most objects a moved dataset's old and new S3 locations may each hold for the move to happen in place: the
     * old directory's files are deleted with its association, and a rollback would delete the new one's. FSx documents
     * no rate for deleting a directory's files, and a custom resource has at most an hour (ServiceTimeout 1 to 3600
     * s), so this is the library's bound, not an AWS figure: a larger move fails before anything is deleted.
     */
    static final long MAX_MOVE_OBJECTS = 100_000;
    /** "You can have a maximum of 8 data repository associations on a file system" (CreateDataRepositoryAssociation). */
    static final int MAX_ASSOCIATIONS = 8;

    private final FsxAssociations associations;
    private final LocationObjects objects;
    private final AssociationTasks tasks;
    private final TaskGuard guard;

    /**
     * The handler the provider's dispatcher makes for a request: FSx and S3 clients for the function's Region that
     * sign as the resource's role.
     *
     * @param credentials the resource's role's credentials
     */
    public DataRepositoryAssociationHandler(AwsCredentialsProvider credentials) {
        this(FsxAssociations.clientBuilder().credentialsProvider(credentials).build(),
                LocationObjects.clientBuilder().credentialsProvider(credentials).build());
    }

    /**
     * A handler with its clients supplied.
     *
     * @param fsx lists, creates, updates and deletes associations; lists, cancels and starts their tasks
     * @param s3  counts the objects of a moved dataset's locations
     */
    public DataRepositoryAssociationHandler(FSxClient fsx, S3Client s3) {
        this.associations = new FsxAssociations(fsx);
        this.objects = new LocationObjects(s3);
        this.tasks = new AssociationTasks(associations);
        this.guard = new TaskGuard(tasks);
    }

    /**
     * Checks the properties and names the resource; calls nothing.
     *
     * @param event   the CloudFormation request
     * @param context the Lambda context
     * @return {@code PhysicalResourceId}: {@code <FileSystemId>:<LogicalResourceId>}, unchanged on Delete
     * @throws IllegalArgumentException if the event or its properties are malformed
     */
    public Map<String, Object> onEvent(Map<String, Object> event, Context context) {
        String requestType = string(event, "RequestType");
        boolean isGuard = TaskGuard.RESOURCE_TYPE.equals(event.get("ResourceType"));
        String physicalId = switch (requestType) {
            case "Create", "Update" -> isGuard ? TaskGuard.physicalId(map(event, "ResourceProperties"))
                    : physicalId(DesiredAssociation.from(map(event, "ResourceProperties")),
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
     * @param event   the request, with the PhysicalResourceId onEvent returned
     * @param context the Lambda context
     * @return {@code IsComplete} and, once a Create or Update is complete, {@code Data} with {@value #ASSOCIATION_ID}
     * @throws IllegalStateException if the association cannot be made: the file system is gone, FSx refused it,
     *                               or it ended FAILED or MISCONFIGURED
     */
    public Map<String, Object> isComplete(Map<String, Object> event, Context context) {
        LambdaLogger log = context.getLogger();
        String physicalId = string(event, "PhysicalResourceId");
        String requestType = string(event, "RequestType");
        try {
            if (TaskGuard.RESOURCE_TYPE.equals(event.get("ResourceType"))) {
                return guard.isComplete(requestType, physicalId, log);
            }
            if (requestType.equals("Delete")) {
                return remove(physicalId, string(event, "RequestId"), log);
            }
            Object attempt = event.get(CustomResourceEvent.ATTEMPT);
            return ensure(DesiredAssociation.from(map(event, "ResourceProperties")), physicalId,
                    new FsxAssociations.Request(string(event, "RequestId"),
                            attempt instanceof String a && !a.isEmpty() ? a : null),
                    requestType.equals("Update"), log);
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

    private Map<String, Object> ensure(DesiredAssociation desired, String owner, FsxAssociations.Request request,
            boolean update, LambdaLogger log) {
        String requestId = request.requestId();
        List<DataRepositoryAssociation> all;
        try {
            all = associations.list(desired.fileSystemId());
        } catch (FileSystemNotFoundException e) {
            throw new IllegalStateException("File system " + desired.fileSystemId() + " does not exist, so "
                    + desired.fileSystemPath() + " cannot be linked to " + desired.dataRepositoryPath(), e);
        }
        DataRepositoryAssociation current = all.stream().filter(a -> ownedBy(a, owner) && desired.linksTheSame(a)
                && a.lifecycle() != DataRepositoryLifecycle.DELETING).findFirst().orElse(null);
        boolean replacing = current != null && leftBroken(current, request, update);
        if (replacing) {
            log.log(describe(current) + " was left " + current.lifecycleAsString() + " by "
                    + (requestId.equals(FsxAssociations.tag(current, FsxAssociations.REQUEST_TAG))
                    ? "an earlier attempt of this request (a retried deployment)" : "an earlier deploy")
                    + ": replacing it");
        }
        DataRepositoryAssociation kept = replacing ? null : current;
        List<DataRepositoryAssociation> others = all.stream().filter(a -> !ownedBy(a, owner)
                && desired.collidesWith(a)).toList();
        if (!others.isEmpty()) {
            return blocked(desired, others, log);
        }
        List<DataRepositoryAssociation> inTheWay = all.stream().filter(a -> a != kept && ownedBy(a, owner)).toList();
        if (!inTheWay.isEmpty()) {
            if (desired.fileSystemPath().equals(ROOT)) {
                throw new IllegalStateException(rootRecreated(desired, inTheWay.get(0)));
            }
            Predicate<DataRepositoryAssociation> moved = a -> !desired.linksTheSame(a) && !AssociationTasks.exports(a)
                    && a.lifecycle() != DataRepositoryLifecycle.FAILED;
            for (DataRepositoryAssociation association : inTheWay) {
                if (moved.test(association) && association.lifecycle() != DataRepositoryLifecycle.DELETING) {
                    checkMoveFits(desired, association, log);
                }
            }
            clear(inTheWay, moved, owner, requestId, log);
            return NOT_COMPLETE;
        }
        if (kept == null) {
            if (all.size() >= MAX_ASSOCIATIONS) {
                if (all.stream().anyMatch(a -> a.lifecycle() == DataRepositoryLifecycle.DELETING)) {
                    log.log(desired.fileSystemId() + " has " + all.size() + " associations, some being deleted: waiting");
                    return NOT_COMPLETE;
                }
                throw new IllegalStateException(full(desired, all));
            }
            DataRepositoryAssociation created = associations.create(desired, owner, request);
            log.log("Creating " + describe(created) + " (metadata import on create: " + desired.importOnCreate() + ")");
            return NOT_COMPLETE;
        }
        return settle(kept, desired, update, log);
    }

    /**
     * Whether this resource's association for the asked link cannot become what the request asks and was made before
     * this attempt, so that it is replaced (deleted keeping its files, then created anew): FAILED, which "cannot be
     * recovered" (FSx API reference, DataRepositoryAssociation), or, for a Create, which succeeds only with an
     * AVAILABLE association, MISCONFIGURED. One this very attempt made (in any of its deliveries) fails the request instead, with FSx's details,
     * so a cause that persists fails once per attempt rather than looping. A request in flight from before
     * attempts were told apart (no {@value CustomResourceEvent#ATTEMPT}) replaces only an earlier deploy's.
     */
    private static boolean leftBroken(DataRepositoryAssociation association, FsxAssociations.Request request,
            boolean update) {
        DataRepositoryLifecycle lifecycle = association.lifecycle();
        if (lifecycle != DataRepositoryLifecycle.FAILED && (update || lifecycle != DataRepositoryLifecycle.MISCONFIGURED)) {
            return false;
        }
        if (!request.requestId().equals(FsxAssociations.tag(association, FsxAssociations.REQUEST_TAG))) {
            return true;
        }
        return request.attempt() != null
                && !request.attempt().equals(FsxAssociations.tag(association, FsxAssociations.ATTEMPT_TAG));
    }

    /**
     * Another resource's (or a hand-made) association is on the same or an overlapping directory, or on the same S3
     * location: wait while it is being deleted, else fail before deleting anything (it is never deleted here).
     */
    private Map<String, Object> blocked(DesiredAssociation desired, List<DataRepositoryAssociation> others,
            LambdaLogger log) {
        DataRepositoryAssociation live = others.stream().filter(a -> a.lifecycle() != DataRepositoryLifecycle.DELETING)
                .findFirst().orElse(null);
        if (live == null) {
            log.log("Waiting until " + describe(others.get(0)) + owner(others.get(0)) + " is gone");
            return NOT_COMPLETE;
        }
        throw new IllegalStateException("Cannot link " + desired.fileSystemPath() + " to " + desired.dataRepositoryPath()
                + " on " + desired.fileSystemId() + ": " + describe(live) + owner(live) + " is on the same or an "
                + "overlapping directory, or on the same or a nested S3 location. FSx refuses the first two (\"Each "
                + "data repository association must have a unique Amazon FSx file system directory and a unique S3 "
                + "bucket or prefix\", \"two data repository associations cannot have overlapping file system "
                + "paths\": FSx API reference, CreateDataRepositoryAssociation); nested S3 prefixes the library refuses "
                + "at synth (DATASET_LOCATION_NESTING). Nothing was deleted: an association is deleted only by the "
                + "resource that created it. If another dataset of the cache had this directory or location before "
                + "this deploy (a swap), move one dataset away in one deploy and the other in the next; an association "
                + "made by hand must be deleted by hand.");
    }

    /**
     * Fails, before anything is deleted, a move whose old or new location holds more than {@value #MAX_MOVE_OBJECTS}
     * objects: deleting the old directory's files (and, in a rollback, the new one's) might not end within the custom
     * resource's hour, after the link and its files were gone.
     */
    private void checkMoveFits(DesiredAssociation desired, DataRepositoryAssociation old, LambdaLogger log) {
        for (String location : List.of(old.dataRepositoryPath(), desired.dataRepositoryPath())) {
            long count;
            try {
                count = objects.countUpTo(location, MAX_MOVE_OBJECTS);
            } catch (SdkException e) {
                if (SdkCalls.isTransient(e)) {
                    throw e;
                }
                throw new IllegalStateException("Cannot count the objects of " + location + " to tell whether moving "
                        + describe(old) + " to " + desired.fileSystemPath() + " <-> " + desired.dataRepositoryPath()
                        + " fits in the custom resource's hour (" + e.getMessage() + "). Nothing was deleted.", e);
            }
            if (count > MAX_MOVE_OBJECTS) {
                throw new IllegalStateException("Cannot move " + describe(old) + " to " + desired.fileSystemPath()
                        + " <-> " + desired.dataRepositoryPath() + " in place: " + location + " holds more than "
                        + MAX_MOVE_OBJECTS + " objects, and a move deletes the old directory's files (a rollback the new "
                        + "one's) within the custom resource's hour, at a rate FSx does not document. Nothing was "
                        + "deleted. Move it in two deploys: add the dataset under a new name at the new path or location "
                        + "and deploy, then remove the old dataset and deploy (a removed dataset's association is deleted "
                        + "keeping its files).");
            }
            log.log(location + " holds " + count + " objects (at most " + MAX_MOVE_OBJECTS + " move in place)");
        }
    }

    /** Why no association is created on a file system that has FSx's 8 already. */
    private static String full(DesiredAssociation desired, List<DataRepositoryAssociation> all) {
        StringBuilder linked = new StringBuilder();
        for (DataRepositoryAssociation association : all) {
            linked.append(linked.isEmpty() ? "" : "; ").append(describe(association)).append(owner(association));
        }
        return "Cannot link " + desired.fileSystemPath() + " to " + desired.dataRepositoryPath() + ": file system "
                + desired.fileSystemId() + " has " + all.size() + " data repository associations already (\"You can "
                + "have a maximum of 8 data repository associations on a file system\", FSx API reference, "
                + "CreateDataRepositoryAssociation): " + linked + ". CloudFormation deletes a removed dataset's "
                + "association only in the update's cleanup phase, after it creates the new ones: at 8 datasets, remove "
                + "one in one deploy and add the other in the next, or move a dataset in place (change its prefix or "
                + "fileSystemPath, keep its name).";
    }

    /** Why an association at {@code /} is not re-created: FSx allows {@code /} only for the first association. */
    private static String rootRecreated(DesiredAssociation desired, DataRepositoryAssociation existing) {
        return "Cannot link / of " + desired.fileSystemId() + " to " + desired.dataRepositoryPath() + " in place of "
                + describe(existing) + ": FSx allows '/' \"only ... for the first data repository associated with a "
                + "file system\" (FSx API reference, CreateDataRepositoryAssociation, FileSystemPath), and whether it "
                + "allows it again after that association is deleted is not documented. Nothing was deleted. To link "
                + "another S3 location at the root, replace the cache (a new file system; e.g. deploy it under another "
                + "construct id), or give the dataset a fileSystemPath below '/'.";
    }

    /**
     * Waits for the association to become AVAILABLE (an Update: or MISCONFIGURED) with every setting asked for.
     */
    private Map<String, Object> settle(DataRepositoryAssociation current, DesiredAssociation desired, boolean update,
            LambdaLogger log) {
        DataRepositoryLifecycle lifecycle = current.lifecycle();
        boolean misconfigured = lifecycle == DataRepositoryLifecycle.MISCONFIGURED;
        if (lifecycle == DataRepositoryLifecycle.FAILED || (misconfigured && !update)) {
            throw new IllegalStateException(failure(current));
        }
        if (lifecycle != DataRepositoryLifecycle.AVAILABLE && !misconfigured) {
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
        if (misconfigured) {
            log.log(failure(current) + " The update goes on: a MISCONFIGURED association still links the data, and "
                    + "FSx makes it AVAILABLE again within 15 minutes of the cause being fixed.");
        }
        log.log(describe(current) + ": complete");
        Map<String, Object> data = new LinkedHashMap<>();
        data.put(ASSOCIATION_ID, current.associationId());
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("IsComplete", true);
        response.put("Data", data);
        return response;
    }

    private Map<String, Object> remove(String owner, String requestId, LambdaLogger log) {
        String fileSystemId = owner.startsWith("fs-") && owner.contains(":") ? owner.substring(0, owner.indexOf(':'))
                : null;
        if (fileSystemId == null) {
            log.log("Physical id " + owner + " names no association of this handler: nothing to delete");
            return Map.of("IsComplete", true);
        }
        List<DataRepositoryAssociation> ours;
        try {
            ours = associations.list(fileSystemId).stream().filter(a -> ownedBy(a, owner)).toList();
            if (ours.isEmpty()) {
                log.log("No association of " + owner + " is left on " + fileSystemId);
                return Map.of("IsComplete", true);
            }
            clear(ours, a -> false, owner, requestId, log);
        } catch (FileSystemNotFoundException e) {
            log.log("File system " + fileSystemId + " is gone, and its associations with it");
            return Map.of("IsComplete", true);
        }
        return NOT_COMPLETE;
    }

    /**
     * Deletes each association that is not busy (creating, updating or being deleted already) once no task of it
     * runs any more ({@link AssociationTasks#readyToDelete}); the busy ones are waited for.
     */
    private void clear(List<DataRepositoryAssociation> doomed, Predicate<DataRepositoryAssociation> deleteData,
            String owner, String requestId, LambdaLogger log) {
        for (DataRepositoryAssociation association : doomed) {
            if (IN_PROGRESS.contains(association.lifecycle())) {
                log.log(describe(association) + ": waiting before it can be deleted or until it is gone");
                continue;
            }
            if (!tasks.readyToDelete(association, owner, requestId, log)) {
                continue;
            }
            boolean withData = deleteData.test(association) && association.lifecycle() != DataRepositoryLifecycle.FAILED;
            if (associations.delete(association, withData)) {
                log.log("Deleting " + describe(association) + (withData ? " with" : " keeping") + " its files on the "
                        + "file system" + owner(association));
            }
        }
    }

    private static boolean ownedBy(DataRepositoryAssociation association, String owner) {
        return owner.equals(FsxAssociations.tag(association, FsxAssociations.OWNER_TAG));
    }

    private static String owner(DataRepositoryAssociation association) {
        String owner = FsxAssociations.tag(association, FsxAssociations.OWNER_TAG);
        return owner != null ? " (of " + owner + ")"
                : " (not made by this library's custom resource: e.g. made by hand)";
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
                + "again or retry the deployment: either replaces the failed association (keeping its files)."
                : "FSx cannot import from or export to the bucket automatically until this is corrected: most often FSx "
                + "lacks permission on the bucket or its KMS key, another event notification of the bucket uses "
                + "s3:ObjectCreated:* or s3:ObjectRemoved:*, or FSx's own notification on the bucket was removed or "
                + "changed (FSx for Lustre guide, 'Troubleshooting a misconfigured linked S3 bucket'). It still links the "
                + "data, and FSx makes it AVAILABLE again within 15 minutes of the cause being fixed; a first deploy "
                + "fails on it (as AWS::FSx::DataRepositoryAssociation does), an update does not, and a retry of the "
                + "first deploy replaces it.";
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
