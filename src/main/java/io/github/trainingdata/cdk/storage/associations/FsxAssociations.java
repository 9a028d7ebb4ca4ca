package io.github.trainingdata.cdk.storage.associations;

import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import io.github.trainingdata.cdk.internal.handler.Sha256;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.fsx.FSxClientBuilder;
import software.amazon.awssdk.services.fsx.model.DataRepositoryAssociation;
import software.amazon.awssdk.services.fsx.model.DataRepositoryAssociationNotFoundException;
import software.amazon.awssdk.services.fsx.model.DataRepositoryTask;
import software.amazon.awssdk.services.fsx.model.DataRepositoryTaskEndedException;
import software.amazon.awssdk.services.fsx.model.DataRepositoryTaskFilter;
import software.amazon.awssdk.services.fsx.model.DataRepositoryTaskFilterName;
import software.amazon.awssdk.services.fsx.model.DataRepositoryTaskLifecycle;
import software.amazon.awssdk.services.fsx.model.DataRepositoryTaskNotFoundException;
import software.amazon.awssdk.services.fsx.model.DataRepositoryTaskType;
import software.amazon.awssdk.services.fsx.model.DescribeDataRepositoryTasksResponse;
import software.amazon.awssdk.services.fsx.model.DescribeDataRepositoryAssociationsResponse;
import software.amazon.awssdk.services.fsx.model.Filter;
import software.amazon.awssdk.services.fsx.model.FilterName;
import software.amazon.awssdk.services.fsx.model.S3DataRepositoryConfiguration;
import software.amazon.awssdk.services.fsx.model.Tag;

/**
 * The FSx calls of the {@link DataRepositoryAssociationHandler}: list a file system's associations, create, update
 * and delete one; list, cancel and start (export) data repository tasks.
 */
final class FsxAssociations {
    /** Tag of every association the handler creates: the custom resource's physical id (its owner). */
    static final String OWNER_TAG = "cdk-training-data:association";
    /** Tag of every association the handler creates: the CloudFormation request that created it. */
    static final String REQUEST_TAG = "cdk-training-data:request";
    /**
     * Tag of every association the handler creates: the attempt of the request that created it (the dispatcher's
     * {@code TrainingDataAttempt}: the same for every delivery of one attempt, another for a retried deployment's),
     * absent on one created for a request in flight from before.
     */
    static final String ATTEMPT_TAG = "cdk-training-data:attempt";
    /** DescribeDataRepositoryAssociations' MaxResults maximum (FSx API model, LimitedMaxResults). */
    private static final int PAGE_SIZE = 25;
    /** Task states that block a file system's deletion and that CancelDataRepositoryTask cancels. */
    static final List<DataRepositoryTaskLifecycle> RUNNING = List.of(DataRepositoryTaskLifecycle.PENDING,
            DataRepositoryTaskLifecycle.EXECUTING);

    private final FSxClient fsx;

    FsxAssociations(FSxClient fsx) {
        this.fsx = Objects.requireNonNull(fsx, "fsx");
    }

    /** @return a client builder as the handlers run them ({@link SdkCalls#configure}) */
    static FSxClientBuilder clientBuilder() {
        return SdkCalls.configure(FSxClient.builder());
    }

    /**
     * Every association of the file system, all pages.
     *
     * @throws software.amazon.awssdk.services.fsx.model.FileSystemNotFoundException if the file system is gone
     */
    List<DataRepositoryAssociation> list(String fileSystemId) {
        List<DataRepositoryAssociation> associations = new ArrayList<>();
        String token = null;
        do {
            String page = token;
            DescribeDataRepositoryAssociationsResponse response;
            try {
                response = fsx.describeDataRepositoryAssociations(r -> r.maxResults(PAGE_SIZE).nextToken(page)
                        .filters(Filter.builder().name(FilterName.FILE_SYSTEM_ID).values(fileSystemId).build()));
            } catch (DataRepositoryAssociationNotFoundException e) {
                // The API lists this error for DescribeDataRepositoryAssociations: a filter that matches none.
                return associations;
            }
            associations.addAll(response.associations());
            token = response.nextToken();
        } while (token != null && !token.isEmpty());
        return associations;
    }

    /**
     * A CloudFormation request as the handler creates for it.
     *
     * @param requestId the request's id (the same when CloudFormation retries a deployment)
     * @param attempt   the attempt of the request that is served, or null for a request in flight from before
     *                  attempts were told apart
     */
    record Request(String requestId, String attempt) {
        /**
         * CreateDataRepositoryAssociation's ClientRequestToken: one per attempt (32 hex of sha256 of the request id
         * and the attempt), so that a retried deployment's new association is not answered with the one an earlier
         * attempt made under the same token (what FSx answers a token whose association failed or was deleted is
         * not documented), while every delivery of one attempt, in whatever Lambda invocation, sends the same token
         * and gets the same association (a second token for the same path would be refused as overlapping); the
         * request id alone without an attempt.
         */
        String token() {
            if (attempt == null) {
                return requestToken(requestId);
            }
            return Sha256.hex(requestId + "|" + attempt).substring(0, 32);
        }
    }

    /**
     * Creates the association, tagged with its owner, the request and its attempt, idempotent for the attempt.
     * Policies without events are left out, as {@code AWS::FSx::DataRepositoryAssociation} leaves out an empty
     * {@code S3}.
     */
    DataRepositoryAssociation create(DesiredAssociation desired, String owner, Request request) {
        S3DataRepositoryConfiguration.Builder s3 = S3DataRepositoryConfiguration.builder();
        if (!desired.importEvents().isEmpty()) {
            s3.autoImportPolicy(desired.importPolicy());
        }
        if (!desired.exportEvents().isEmpty()) {
            s3.autoExportPolicy(desired.exportPolicy());
        }
        return fsx.createDataRepositoryAssociation(r -> {
            r.fileSystemId(desired.fileSystemId())
                    .fileSystemPath(desired.fileSystemPath())
                    .dataRepositoryPath(desired.dataRepositoryPath())
                    .batchImportMetaDataOnCreate(desired.importOnCreate())
                    .clientRequestToken(request.token())
                    .tags(tags(owner, request));
            if (!desired.importEvents().isEmpty() || !desired.exportEvents().isEmpty()) {
                r.s3(s3.build());
            }
            if (desired.chunkSizeMiB() != null) {
                r.importedFileChunkSize(desired.chunkSizeMiB());
            }
        }).association();
    }

    private static List<Tag> tags(String owner, Request request) {
        List<Tag> tags = new ArrayList<>(List.of(Tag.builder().key(OWNER_TAG).value(owner).build(),
                Tag.builder().key(REQUEST_TAG).value(request.requestId()).build()));
        if (request.attempt() != null) {
            tags.add(Tag.builder().key(ATTEMPT_TAG).value(request.attempt()).build());
        }
        return tags;
    }

    /** Applies one change to an available association. */
    void update(DataRepositoryAssociation association, DesiredAssociation.Change change) {
        fsx.updateDataRepositoryAssociation(r -> {
            r.associationId(association.associationId());
            change.update().accept(r);
        });
    }

    /**
     * Deletes the association; {@code deleteData} also deletes its files on the file system.
     *
     * @return false when the association is already gone
     */
    boolean delete(DataRepositoryAssociation association, boolean deleteData) {
        try {
            fsx.deleteDataRepositoryAssociation(r -> r.associationId(association.associationId())
                    .deleteDataInFileSystem(deleteData));
            return true;
        } catch (DataRepositoryAssociationNotFoundException e) {
            return false;
        }
    }

    /**
     * The data repository tasks that are not over yet (PENDING, EXECUTING or CANCELING), of one file system or of one
     * association, every page.
     *
     * @param filter {@code file-system-id} or {@code data-repository-association-id}
     * @param id     the file system's or the association's id
     * @throws software.amazon.awssdk.services.fsx.model.FileSystemNotFoundException if the file system is gone
     */
    List<DataRepositoryTask> unfinishedTasks(DataRepositoryTaskFilterName filter, String id) {
        return tasks(filter, id, List.of(DataRepositoryTaskLifecycle.PENDING, DataRepositoryTaskLifecycle.EXECUTING,
                DataRepositoryTaskLifecycle.CANCELING));
    }

    /** Tasks of one file system or association in the given states, every page (none when FSx knows none). */
    List<DataRepositoryTask> tasks(DataRepositoryTaskFilterName filter, String id,
            List<DataRepositoryTaskLifecycle> lifecycles) {
        List<DataRepositoryTask> tasks = new ArrayList<>();
        String token = null;
        do {
            String page = token;
            DescribeDataRepositoryTasksResponse response;
            try {
                response = fsx.describeDataRepositoryTasks(r -> r.nextToken(page).filters(
                        DataRepositoryTaskFilter.builder().name(filter).values(id).build(),
                        DataRepositoryTaskFilter.builder().name(DataRepositoryTaskFilterName.TASK_LIFECYCLE)
                                .values(lifecycles.stream().map(DataRepositoryTaskLifecycle::toString).toList())
                                .build()));
            } catch (DataRepositoryTaskNotFoundException e) {
                // The API lists this error for DescribeDataRepositoryTasks: filters that match none.
                return tasks;
            }
            tasks.addAll(response.dataRepositoryTasks());
            token = response.nextToken();
        } while (token != null && !token.isEmpty());
        return tasks;
    }

    /**
     * Cancels a PENDING or EXECUTING task (FSx API reference, CancelDataRepositoryTask).
     *
     * @return false when it had ended already
     */
    boolean cancel(DataRepositoryTask task) {
        try {
            fsx.cancelDataRepositoryTask(r -> r.taskId(task.taskId()));
            return true;
        } catch (DataRepositoryTaskEndedException | DataRepositoryTaskNotFoundException e) {
            return false;
        }
    }

    /**
     * Starts an export of the association's directory to its S3 location, tagged with the owner and the request
     * (idempotent per association and request: {@code <association id>-<request id>}, at most 23 + 1 + 36 of the
     * token's 63 characters for a CloudFormation request id), without a completion report.
     */
    DataRepositoryTask export(DataRepositoryAssociation association, String owner, String requestId) {
        String relative = AssociationTasks.relative(association.fileSystemPath());
        return fsx.createDataRepositoryTask(r -> {
            r.type(DataRepositoryTaskType.EXPORT_TO_REPOSITORY)
                    .fileSystemId(association.fileSystemId())
                    .report(b -> b.enabled(false))
                    .clientRequestToken(requestToken(association.associationId() + "-" + requestId))
                    .tags(Tag.builder().key(OWNER_TAG).value(owner).build(),
                            Tag.builder().key(REQUEST_TAG).value(requestId).build());
            if (!relative.isEmpty()) {
                r.paths(relative);
            }
        }).dataRepositoryTask();
    }

    /** The value of the tag {@code key} on a task, or null. */
    static String tag(DataRepositoryTask task, String key) {
        return task.tags().stream().filter(t -> key.equals(t.key())).map(Tag::value).findFirst().orElse(null);
    }

    /** The value of the tag {@code key} on the association, or null when it has none (one this handler did not create). */
    static String tag(DataRepositoryAssociation association, String key) {
        return association.tags().stream().filter(t -> key.equals(t.key())).map(Tag::value).findFirst().orElse(null);
    }

    /** CreateDataRepositoryAssociation's ClientRequestToken: the request id, within the token's 63 characters. */
    private static String requestToken(String requestId) {
        String token = requestId.replaceAll("[^A-Za-z0-9_.-]", "");
        return token.length() > 63 ? token.substring(0, 63) : token;
    }
}
