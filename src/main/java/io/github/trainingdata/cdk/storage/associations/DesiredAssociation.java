package io.github.trainingdata.cdk.storage.associations;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.services.fsx.model.AutoExportPolicy;
import software.amazon.awssdk.services.fsx.model.AutoImportPolicy;
import software.amazon.awssdk.services.fsx.model.DataRepositoryAssociation;
import software.amazon.awssdk.services.fsx.model.EventType;
import software.amazon.awssdk.services.fsx.model.S3DataRepositoryConfiguration;
import software.amazon.awssdk.services.fsx.model.UpdateDataRepositoryAssociationRequest;

/**
 * The association a custom resource's properties ask for, read from CloudFormation's request (which passes every
 * scalar as a string): where it links ({@link #fileSystemPath} ↔ {@link #dataRepositoryPath}) and how (chunk
 * size, automatic import and export events, metadata import on create).
 *
 * @param fileSystemId       the file system, {@code fs-...}
 * @param fileSystemPath     the linked directory, without a trailing {@code /} ({@code /} for the root)
 * @param dataRepositoryPath the linked S3 location, {@code s3://bucket/prefix/} with a trailing {@code /}
 * @param chunkSizeMiB       the imported file chunk size in MiB, or null for the service default
 * @param importEvents       the events imported automatically, in NEW, CHANGED, DELETED order
 * @param exportEvents       the events exported automatically, in that order
 * @param importOnCreate     whether the association imports the location's metadata when it is created
 */
record DesiredAssociation(String fileSystemId, String fileSystemPath, String dataRepositoryPath, Integer chunkSizeMiB,
        List<EventType> importEvents, List<EventType> exportEvents, boolean importOnCreate) {
    /** The chunk size FSx uses when none is given (FSx API reference, ImportedFileChunkSize: "1,024 MiB"). */
    static final int DEFAULT_CHUNK_SIZE_MIB = 1024;
    private static final List<EventType> EVENT_ORDER = List.of(EventType.NEW, EventType.CHANGED, EventType.DELETED);

    /** One property of an available association that differs from what is asked, and the update that sets it. */
    record Change(String what, Consumer<UpdateDataRepositoryAssociationRequest.Builder> update) {
    }

    /**
     * Reads the request's properties.
     *
     * @param properties the custom resource's ResourceProperties
     * @return the association they ask for
     * @throws IllegalArgumentException if a property is missing or malformed
     */
    static DesiredAssociation from(Map<?, ?> properties) {
        String fileSystemId = required(properties, DataRepositoryAssociationHandler.FILE_SYSTEM_ID);
        String path = required(properties, DataRepositoryAssociationHandler.FILE_SYSTEM_PATH);
        String repository = required(properties, DataRepositoryAssociationHandler.DATA_REPOSITORY_PATH);
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException(DataRepositoryAssociationHandler.FILE_SYSTEM_PATH + " '" + path
                    + "' is not an absolute path of the file system");
        }
        if (!repository.startsWith("s3://")) {
            throw new IllegalArgumentException(DataRepositoryAssociationHandler.DATA_REPOSITORY_PATH + " '"
                    + repository + "' is not an S3 location s3://bucket/prefix/");
        }
        Object chunk = properties.get(DataRepositoryAssociationHandler.IMPORTED_FILE_CHUNK_SIZE);
        Integer chunkSize = null;
        if (chunk != null && !chunk.toString().isEmpty()) {
            try {
                chunkSize = Integer.valueOf(chunk.toString().trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(DataRepositoryAssociationHandler.IMPORTED_FILE_CHUNK_SIZE + " '"
                        + chunk + "' is not a whole number of MiB", e);
            }
        }
        return new DesiredAssociation(fileSystemId, normalizedPath(path), normalizedRepository(repository), chunkSize,
                events(properties, DataRepositoryAssociationHandler.AUTO_IMPORT_EVENTS),
                events(properties, DataRepositoryAssociationHandler.AUTO_EXPORT_EVENTS),
                Boolean.parseBoolean(String.valueOf(properties.get(
                        DataRepositoryAssociationHandler.BATCH_IMPORT_META_DATA_ON_CREATE))));
    }

    /** Whether {@code association} links this directory to this S3 location. */
    boolean linksTheSame(DataRepositoryAssociation association) {
        return fileSystemPath.equals(normalizedPath(association.fileSystemPath()))
                && dataRepositoryPath.equals(normalizedRepository(association.dataRepositoryPath()));
    }

    /**
     * Whether FSx would refuse this association beside {@code association}: their directories or their S3 locations
     * are the same or one contains the other (FSx API reference, CreateDataRepositoryAssociation; FSx for Lustre
     * guide, "Linking your file system to an S3 bucket").
     */
    boolean collidesWith(DataRepositoryAssociation association) {
        String path = normalizedPath(association.fileSystemPath());
        String repository = normalizedRepository(association.dataRepositoryPath());
        boolean paths = path != null && (path.equals("/") || fileSystemPath.equals("/") || path.equals(fileSystemPath)
                || (path + "/").startsWith(fileSystemPath + "/") || (fileSystemPath + "/").startsWith(path + "/"));
        boolean repositories = repository != null
                && (repository.startsWith(dataRepositoryPath) || dataRepositoryPath.startsWith(repository));
        return paths || repositories;
    }

    /**
     * The first setting of an available association that differs from this one, in the order AWS's own
     * {@code AWS::FSx::DataRepositoryAssociation} handler updates them: one property per
     * UpdateDataRepositoryAssociation, waiting for AVAILABLE in between.
     *
     * @return the change, or empty when the association has every setting asked for
     */
    Optional<Change> firstDifference(DataRepositoryAssociation association) {
        int chunk = chunkSizeMiB != null ? chunkSizeMiB : DEFAULT_CHUNK_SIZE_MIB;
        int actualChunk = association.importedFileChunkSize() != null ? association.importedFileChunkSize()
                : DEFAULT_CHUNK_SIZE_MIB;
        if (chunk != actualChunk) {
            return Optional.of(new Change("ImportedFileChunkSize " + actualChunk + " -> " + chunk,
                    b -> b.importedFileChunkSize(chunk)));
        }
        S3DataRepositoryConfiguration s3 = association.s3();
        List<EventType> actualImport = ordered(s3 == null || s3.autoImportPolicy() == null ? List.of()
                : s3.autoImportPolicy().events());
        if (!actualImport.equals(importEvents)) {
            return Optional.of(new Change("AutoImportPolicy " + actualImport + " -> " + importEvents, b -> b.s3(
                    S3DataRepositoryConfiguration.builder().autoImportPolicy(importPolicy()).build())));
        }
        List<EventType> actualExport = ordered(s3 == null || s3.autoExportPolicy() == null ? List.of()
                : s3.autoExportPolicy().events());
        if (!actualExport.equals(exportEvents)) {
            return Optional.of(new Change("AutoExportPolicy " + actualExport + " -> " + exportEvents, b -> b.s3(
                    S3DataRepositoryConfiguration.builder().autoExportPolicy(exportPolicy()).build())));
        }
        return Optional.empty();
    }

    /** The import policy to set: the events, an empty list for none (which is how FSx is told to import nothing). */
    AutoImportPolicy importPolicy() {
        return AutoImportPolicy.builder().events(importEvents).build();
    }

    /** The export policy to set: the events, an empty list for none. */
    AutoExportPolicy exportPolicy() {
        return AutoExportPolicy.builder().events(exportEvents).build();
    }

    /** A directory as FSx may return it ({@code /ns1/} or {@code /ns1}), without the trailing {@code /}. */
    static String normalizedPath(String path) {
        if (path == null) {
            return null;
        }
        String trimmed = path;
        while (trimmed.length() > 1 && trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed;
    }

    /** An S3 location with the trailing {@code /} FSx appends when it is missing. */
    static String normalizedRepository(String repository) {
        return repository == null || repository.endsWith("/") ? repository : repository + "/";
    }

    private static List<EventType> events(Map<?, ?> properties, String name) {
        Object value = properties.get(name);
        if (value == null || "".equals(value)) {
            return List.of();
        }
        if (!(value instanceof List<?> list)) {
            throw new IllegalArgumentException(name + " must be a list of NEW, CHANGED and DELETED");
        }
        List<EventType> events = new ArrayList<>();
        for (Object item : list) {
            EventType event = EventType.fromValue(String.valueOf(item));
            if (event == EventType.UNKNOWN_TO_SDK_VERSION) {
                throw new IllegalArgumentException(name + " holds '" + item + "': each of NEW, CHANGED and DELETED");
            }
            events.add(event);
        }
        return ordered(events);
    }

    private static List<EventType> ordered(List<EventType> events) {
        return EVENT_ORDER.stream().filter(events::contains).toList();
    }

    private static String required(Map<?, ?> properties, String name) {
        Object value = properties.get(name);
        if (value == null || value.toString().isEmpty()) {
            throw new IllegalArgumentException("ResourceProperties has no " + name);
        }
        return Objects.toString(value);
    }
}
