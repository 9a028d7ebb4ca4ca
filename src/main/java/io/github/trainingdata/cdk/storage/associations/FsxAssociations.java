package io.github.trainingdata.cdk.storage.associations;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.fsx.FSxClientBuilder;
import software.amazon.awssdk.services.fsx.model.DataRepositoryAssociation;
import software.amazon.awssdk.services.fsx.model.DataRepositoryAssociationNotFoundException;
import software.amazon.awssdk.services.fsx.model.DescribeDataRepositoryAssociationsResponse;
import software.amazon.awssdk.services.fsx.model.Filter;
import software.amazon.awssdk.services.fsx.model.FilterName;
import software.amazon.awssdk.services.fsx.model.S3DataRepositoryConfiguration;
import software.amazon.awssdk.services.fsx.model.Tag;

/**
 * The FSx calls of the {@link DataRepositoryAssociationHandler}: list a file system's associations, create, update
 * and delete one, and which of FSx's errors are worth another look.
 */
final class FsxAssociations {
    /** Tag of every association the handler creates: the custom resource's physical id (its owner). */
    static final String OWNER_TAG = "cdk-training-data:association";
    /** Tag of every association the handler creates: the CloudFormation request that created it. */
    static final String REQUEST_TAG = "cdk-training-data:request";
    private static final int MAX_ATTEMPTS = 5;
    /** Bounds each call with its retries, so an isComplete call answers before Lambda's 2 minutes. */
    private static final Duration API_CALL_TIMEOUT = Duration.ofSeconds(40);
    /** DescribeDataRepositoryAssociations' MaxResults maximum (FSx API model, LimitedMaxResults). */
    private static final int PAGE_SIZE = 25;

    private final FSxClient fsx;

    FsxAssociations(FSxClient fsx) {
        this.fsx = Objects.requireNonNull(fsx, "fsx");
    }

    /**
     * A client as the handler runs it: the URL-connection HTTP client, the SDK's standard retries (which absorb
     * brief throttling) with {@value #MAX_ATTEMPTS} attempts, and a 40-second limit per call. Region and
     * credentials come from the Lambda environment.
     *
     * @return the builder
     */
    static FSxClientBuilder clientBuilder() {
        return FSxClient.builder().httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                                .maxAttempts(MAX_ATTEMPTS).build())
                        .apiCallTimeout(API_CALL_TIMEOUT)
                        .build());
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
     * Creates the association, tagged with its owner and the request, idempotent for the request. Policies without
     * events are left out, as {@code AWS::FSx::DataRepositoryAssociation} leaves out an empty {@code S3}.
     */
    DataRepositoryAssociation create(DesiredAssociation desired, String owner, String requestId) {
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
                    .clientRequestToken(requestToken(requestId))
                    .tags(Tag.builder().key(OWNER_TAG).value(owner).build(),
                            Tag.builder().key(REQUEST_TAG).value(requestId).build());
            if (!desired.importEvents().isEmpty() || !desired.exportEvents().isEmpty()) {
                r.s3(s3.build());
            }
            if (desired.chunkSizeMiB() != null) {
                r.importedFileChunkSize(desired.chunkSizeMiB());
            }
        }).association();
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

    /** The value of the tag {@code key} on the association, or null when it has none (one this handler did not create). */
    static String tag(DataRepositoryAssociation association, String key) {
        return association.tags().stream().filter(t -> key.equals(t.key())).map(Tag::value).findFirst().orElse(null);
    }

    /**
     * Throttling, 5xx answers, timeouts and I/O errors are worth another look; anything else (access denied, a bad
     * request) is not.
     *
     * @param e an error the SDK gave up on, after its own retries
     * @return whether a later call may succeed
     */
    static boolean isTransient(SdkException e) {
        if (e instanceof SdkServiceException service) {
            return service.isThrottlingException() || service.statusCode() >= 500;
        }
        return e.retryable() || e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException
                || e.getCause() instanceof IOException;
    }

    /** CreateDataRepositoryAssociation's ClientRequestToken: the request id, within the token's 63 characters. */
    private static String requestToken(String requestId) {
        String token = requestId.replaceAll("[^A-Za-z0-9_.-]", "");
        return token.length() > 63 ? token.substring(0, 63) : token;
    }
}
