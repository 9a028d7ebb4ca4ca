package io.github.trainingdata.cdk.storage.associations;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * FSx's data repository associations behind the loopback emulator, as the FSx API reference and guide describe
 * them: DescribeDataRepositoryAssociations by file system (paged), CreateDataRepositoryAssociation refusing a
 * directory or S3 location that another association of the file system has or overlaps (BadRequest), a client
 * request token that makes a create idempotent, UpdateDataRepositoryAssociation only when AVAILABLE, and
 * DeleteDataRepositoryAssociation; data repository tasks: DescribeDataRepositoryTasks by file system or association
 * and lifecycle, CreateDataRepositoryTask (an export, idempotent per client token), CancelDataRepositoryTask
 * (PENDING or EXECUTING only, else DataRepositoryTaskEnded). Nothing changes state by itself: {@link #tick()} lets
 * every association in progress finish its step (CREATING and UPDATING become AVAILABLE, DELETING ones go) and every
 * task too (CANCELING becomes CANCELED, an export SUCCEEDED; a seeded import runs until cancelled), so a test
 * decides what FSx has done between two calls.
 */
final class FakeFsx {
    static final String PREFIX = "AWSSimbaAPIService_v20180301.";
    static final String DESCRIBE = PREFIX + "DescribeDataRepositoryAssociations";
    static final String CREATE = PREFIX + "CreateDataRepositoryAssociation";
    static final String UPDATE = PREFIX + "UpdateDataRepositoryAssociation";
    static final String DELETE = PREFIX + "DeleteDataRepositoryAssociation";
    static final String DESCRIBE_TASKS = PREFIX + "DescribeDataRepositoryTasks";
    static final String CREATE_TASK = PREFIX + "CreateDataRepositoryTask";
    static final String CANCEL_TASK = PREFIX + "CancelDataRepositoryTask";
    /** The page size this fake uses whatever MaxResults asks, so that paging is exercised. */
    private static final int PAGE = 2;

    /** One association as FSx keeps it. */
    static final class Association {
        final String id;
        final String fileSystemId;
        final String path;
        final String repository;
        String lifecycle;
        Integer chunkSizeMiB;
        List<String> importEvents;
        List<String> exportEvents;
        final Map<String, String> tags = new LinkedHashMap<>();
        String failure;
        Boolean deletedWithData;
        /** Where an update ends: a MISCONFIGURED association stays so while its cause persists. */
        String afterUpdate = "AVAILABLE";

        Association(String id, String fileSystemId, String path, String repository, String lifecycle) {
            this.id = id;
            this.fileSystemId = fileSystemId;
            this.path = path;
            this.repository = repository;
            this.lifecycle = lifecycle;
            this.importEvents = List.of();
            this.exportEvents = List.of();
        }
    }

    /** One data repository task as FSx keeps it. */
    static final class Task {
        final String id;
        final String fileSystemId;
        final String associationId;
        final String type;
        final List<String> paths = new ArrayList<>();
        final Map<String, String> tags = new LinkedHashMap<>();
        String lifecycle;

        Task(String id, String fileSystemId, String associationId, String type, String lifecycle) {
            this.id = id;
            this.fileSystemId = fileSystemId;
            this.associationId = associationId;
            this.type = type;
            this.lifecycle = lifecycle;
        }
    }

    private final Map<String, Task> tasks = new LinkedHashMap<>();
    private final Map<String, String> taskTokens = new HashMap<>();
    private final AwsJsonEmulator emulator;
    private final Set<String> fileSystems = new HashSet<>();
    private final Map<String, Association> associations = new LinkedHashMap<>();
    private final Map<String, String> tokens = new HashMap<>();
    private final List<Association> deleted = new ArrayList<>();
    /**
     * Whether a task created with a file system's id and paths is listed under the association those paths lie in
     * (filter {@code data-repository-association-id}); the FSx API reference does not say, so tests try both.
     */
    private boolean tasksListedByAssociation = true;
    /**
     * Whether a repeated client request token is answered with the association it created even once that was deleted:
     * the FSx API reference does not say, so tests try both.
     */
    private boolean tokensOutliveAssociations;
    /**
     * Associations created since the last {@link #tick()} that DescribeDataRepositoryAssociations does not list yet
     * (only with {@link #listCreatedAssociationsLate()}): whether it lists an association at once is not documented.
     */
    private final Set<String> unlisted = new HashSet<>();
    private boolean listsLate;
    /** The error DeleteDataRepositoryAssociation answers, or null. */
    private String deleteRefusal;
    private String nextCreateOutcome = "AVAILABLE";
    private String nextCreateFailure;
    private int counter;

    FakeFsx(AwsJsonEmulator emulator, String... fileSystemIds) {
        this.emulator = emulator;
        fileSystems.addAll(List.of(fileSystemIds));
        emulator.on(DESCRIBE, call -> describe(call.json()));
        emulator.on(CREATE, call -> create(call.json()));
        emulator.on(UPDATE, call -> update(call.json()));
        emulator.on(DELETE, call -> delete(call.json()));
        emulator.on(DESCRIBE_TASKS, call -> describeTasks(call.json()));
        emulator.on(CREATE_TASK, call -> createTask(call.json()));
        emulator.on(CANCEL_TASK, call -> cancelTask(call.json()));
    }

    /** A task that runs already, e.g. an association's create-time import (none when associationId is null). */
    synchronized Task seedTask(String fileSystemId, String associationId, String type, String lifecycle) {
        Task task = new Task(String.format("task-%017x", ++counter), fileSystemId, associationId, type, lifecycle);
        tasks.put(task.id, task);
        return task;
    }

    /** @return every task, in creation order */
    synchronized List<Task> tasks() {
        return List.copyOf(tasks.values());
    }

    /** Adds an association that exists already, e.g. an earlier version's, with the given tags (may be none). */
    synchronized Association seed(String fileSystemId, String path, String repository, Map<String, String> tags) {
        Association association = new Association(nextId(), fileSystemId, path, repository, "AVAILABLE");
        association.importEvents = List.of("NEW", "CHANGED", "DELETED");
        association.tags.putAll(tags);
        associations.put(association.id, association);
        return association;
    }

    /** The next created association ends in this state (with this failure message) instead of AVAILABLE. */
    synchronized void nextCreateEnds(String lifecycle, String failure) {
        nextCreateOutcome = lifecycle;
        nextCreateFailure = failure;
    }

    /** A repeated client request token is answered from now on with the association it created, also a deleted one. */
    synchronized void tokensOutliveAssociations() {
        tokensOutliveAssociations = true;
    }

    /** From now on, a created association is listed only after the next {@link #tick()}. */
    synchronized void listCreatedAssociationsLate() {
        listsLate = true;
    }

    /** DeleteDataRepositoryAssociation answers AccessDenied (its message names this), or, with null, deletes again. */
    synchronized void refuseDeletes(String why) {
        deleteRefusal = why;
    }

    /** Tasks created from now on are not listed under any association, only under their file system. */
    synchronized void listCreatedTasksByFileSystemOnly() {
        tasksListedByAssociation = false;
    }

    /** A new file system (a replaced cache). */
    synchronized void addFileSystem(String fileSystemId) {
        fileSystems.add(fileSystemId);
    }

    /** The file system is deleted: calls naming it answer FileSystemNotFound. */
    synchronized void deleteFileSystem(String fileSystemId) {
        fileSystems.remove(fileSystemId);
        associations.values().removeIf(a -> a.fileSystemId.equals(fileSystemId));
    }

    /** Every association in progress finishes its step. */
    synchronized void tick() {
        unlisted.clear();
        for (Association association : List.copyOf(associations.values())) {
            switch (association.lifecycle) {
                case "CREATING" -> {
                    association.lifecycle = nextCreateOutcome;
                    association.failure = nextCreateFailure;
                    nextCreateOutcome = "AVAILABLE";
                    nextCreateFailure = null;
                }
                case "UPDATING" -> association.lifecycle = association.afterUpdate;
                case "DELETING" -> {
                    associations.remove(association.id);
                    deleted.add(association);
                }
                default -> { }
            }
        }
        for (Task task : tasks.values()) {
            if (task.lifecycle.equals("CANCELING")) {
                task.lifecycle = "CANCELED";
            } else if (task.type.equals("EXPORT_TO_REPOSITORY") && List.of("PENDING", "EXECUTING").contains(task.lifecycle)) {
                task.lifecycle = "SUCCEEDED";
            }
        }
    }

    /** @return the associations that exist now, in creation order */
    synchronized List<Association> associations() {
        return List.copyOf(associations.values());
    }

    /** @return the associations deleted so far, in order */
    synchronized List<Association> deleted() {
        return List.copyOf(deleted);
    }

    private String nextId() {
        return String.format("dra-%017x", ++counter);
    }

    private synchronized Reply describe(JsonNode request) {
        String fileSystemId = request.path("Filters").path(0).path("Values").path(0).asText();
        if (!request.path("Filters").path(0).path("Name").asText().equals("file-system-id")) {
            return Reply.error(400, "BadRequest", "this fake lists by file-system-id only");
        }
        if (!fileSystems.contains(fileSystemId)) {
            return Reply.error(400, "FileSystemNotFound", "File system '" + fileSystemId + "' does not exist.");
        }
        List<Association> mine = associations.values().stream().filter(a -> a.fileSystemId.equals(fileSystemId)
                && !unlisted.contains(a.id)).toList();
        int from = request.hasNonNull("NextToken") ? Integer.parseInt(request.get("NextToken").asText()) : 0;
        ObjectNode response = Json.MAPPER.createObjectNode();
        ArrayNode page = response.putArray("Associations");
        mine.subList(from, Math.min(mine.size(), from + PAGE)).forEach(a -> page.add(json(a)));
        if (from + PAGE < mine.size()) {
            response.put("NextToken", Integer.toString(from + PAGE));
        }
        return Reply.ok(response.toString());
    }

    private synchronized Reply create(JsonNode request) {
        String fileSystemId = request.path("FileSystemId").asText();
        if (!fileSystems.contains(fileSystemId)) {
            return Reply.error(400, "FileSystemNotFound", "File system '" + fileSystemId + "' does not exist.");
        }
        String token = request.path("ClientRequestToken").asText();
        if (tokens.containsKey(token)) {
            Association earlier = associations.get(tokens.get(token));
            if (earlier == null && tokensOutliveAssociations) {
                earlier = deleted.stream().filter(a -> a.id.equals(tokens.get(token))).findFirst().orElse(null);
            }
            if (earlier != null) {
                return Reply.ok("{\"Association\":" + json(earlier) + "}");
            }
        }
        String path = request.path("FileSystemPath").asText();
        String repository = request.path("DataRepositoryPath").asText();
        for (Association other : associations.values()) {
            if (other.fileSystemId.equals(fileSystemId) && (overlap(other.path, path, "/")
                    || overlap(other.repository, repository, ""))) {
                return Reply.error(400, "BadRequest", "The file system path or data repository path overlaps with "
                        + "association " + other.id + ".");
            }
        }
        Association association = new Association(nextId(), fileSystemId, path, repository, "CREATING");
        if (request.has("ImportedFileChunkSize")) {
            association.chunkSizeMiB = request.get("ImportedFileChunkSize").asInt();
        }
        association.importEvents = events(request.path("S3").path("AutoImportPolicy"));
        association.exportEvents = events(request.path("S3").path("AutoExportPolicy"));
        request.path("Tags").forEach(t -> association.tags.put(t.get("Key").asText(), t.get("Value").asText()));
        associations.put(association.id, association);
        tokens.put(token, association.id);
        if (listsLate) {
            unlisted.add(association.id);
        }
        return Reply.ok("{\"Association\":" + json(association) + "}");
    }

    private synchronized Reply update(JsonNode request) {
        Association association = associations.get(request.path("AssociationId").asText());
        if (association == null) {
            return Reply.error(400, "DataRepositoryAssociationNotFound", "No such association.");
        }
        if (!association.lifecycle.equals("AVAILABLE") && !association.lifecycle.equals("MISCONFIGURED")) {
            return Reply.error(400, "BadRequest", "The association is " + association.lifecycle + ".");
        }
        if (request.has("ImportedFileChunkSize")) {
            association.chunkSizeMiB = request.get("ImportedFileChunkSize").asInt();
        }
        if (request.path("S3").has("AutoImportPolicy")) {
            association.importEvents = events(request.path("S3").path("AutoImportPolicy"));
        }
        if (request.path("S3").has("AutoExportPolicy")) {
            association.exportEvents = events(request.path("S3").path("AutoExportPolicy"));
        }
        association.afterUpdate = association.lifecycle.equals("MISCONFIGURED") ? "MISCONFIGURED" : "AVAILABLE";
        association.lifecycle = "UPDATING";
        return Reply.ok("{\"Association\":" + json(association) + "}");
    }

    private synchronized Reply delete(JsonNode request) {
        Association association = associations.get(request.path("AssociationId").asText());
        if (association == null) {
            return Reply.error(400, "DataRepositoryAssociationNotFound", "No such association.");
        }
        if (deleteRefusal != null) {
            return Reply.error(400, "AccessDeniedException", deleteRefusal);
        }
        association.lifecycle = "DELETING";
        association.deletedWithData = request.path("DeleteDataInFileSystem").asBoolean(false);
        return Reply.ok("{\"AssociationId\":\"" + association.id + "\",\"Lifecycle\":\"DELETING\","
                + "\"DeleteDataInFileSystem\":" + association.deletedWithData + "}");
    }

    private synchronized Reply describeTasks(JsonNode request) {
        String fileSystemId = null;
        String associationId = null;
        List<String> lifecycles = null;
        for (JsonNode filter : request.path("Filters")) {
            List<String> values = new ArrayList<>();
            filter.path("Values").forEach(v -> values.add(v.asText()));
            switch (filter.path("Name").asText()) {
                case "file-system-id" -> fileSystemId = values.get(0);
                case "data-repository-association-id" -> associationId = values.get(0);
                case "task-lifecycle" -> lifecycles = values;
                default -> {
                    return Reply.error(400, "BadRequest", "unknown filter");
                }
            }
        }
        if (fileSystemId != null && !fileSystems.contains(fileSystemId)) {
            return Reply.error(400, "FileSystemNotFound", "File system '" + fileSystemId + "' does not exist.");
        }
        String fs = fileSystemId;
        String dra = associationId;
        List<String> states = lifecycles;
        ObjectNode response = Json.MAPPER.createObjectNode();
        ArrayNode page = response.putArray("DataRepositoryTasks");
        tasks.values().stream().filter(t -> (fs == null || t.fileSystemId.equals(fs))
                && (dra == null || dra.equals(t.associationId)) && (states == null || states.contains(t.lifecycle)))
                .forEach(t -> page.add(json(t)));
        return Reply.ok(response.toString());
    }

    private synchronized Reply createTask(JsonNode request) {
        String token = request.path("ClientRequestToken").asText();
        if (taskTokens.containsKey(token)) {
            return Reply.ok("{\"DataRepositoryTask\":" + json(tasks.get(taskTokens.get(token))) + "}");
        }
        String fileSystemId = request.path("FileSystemId").asText();
        List<String> paths = new ArrayList<>();
        request.path("Paths").forEach(p -> paths.add(p.asText()));
        String associationId = !tasksListedByAssociation ? null : associations.values().stream()
                .filter(a -> a.fileSystemId.equals(fileSystemId)
                && paths.stream().allMatch(p -> ("/" + p + "/").startsWith(a.path.endsWith("/") ? a.path : a.path + "/")))
                .map(a -> a.id).findFirst().orElse(null);
        Task task = seedTask(fileSystemId, associationId, request.path("Type").asText(), "PENDING");
        task.paths.addAll(paths);
        request.path("Tags").forEach(t -> task.tags.put(t.get("Key").asText(), t.get("Value").asText()));
        taskTokens.put(token, task.id);
        return Reply.ok("{\"DataRepositoryTask\":" + json(task) + "}");
    }

    private synchronized Reply cancelTask(JsonNode request) {
        Task task = tasks.get(request.path("TaskId").asText());
        if (task == null) {
            return Reply.error(400, "DataRepositoryTaskNotFound", "No such task.");
        }
        if (!List.of("PENDING", "EXECUTING").contains(task.lifecycle)) {
            return Reply.error(400, "DataRepositoryTaskEnded", "The task is " + task.lifecycle + ".");
        }
        task.lifecycle = "CANCELING";
        return Reply.ok("{\"TaskId\":\"" + task.id + "\",\"Lifecycle\":\"CANCELING\"}");
    }

    private static ObjectNode json(Task t) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("TaskId", t.id);
        node.put("Lifecycle", t.lifecycle);
        node.put("Type", t.type);
        node.put("CreationTime", 1_767_225_600L);
        node.put("FileSystemId", t.fileSystemId);
        t.paths.forEach(node.putArray("Paths")::add);
        ArrayNode tags = node.putArray("Tags");
        t.tags.forEach((k, v) -> tags.addObject().put("Key", k).put("Value", v));
        return node;
    }

    /** Same, or one inside the other (paths compared with a trailing separator). */
    private static boolean overlap(String a, String b, String separator) {
        String x = a.endsWith("/") ? a : a + separator;
        String y = b.endsWith("/") ? b : b + separator;
        return x.startsWith(y) || y.startsWith(x);
    }

    private static List<String> events(JsonNode policy) {
        List<String> events = new ArrayList<>();
        policy.path("Events").forEach(e -> events.add(e.asText()));
        return events;
    }

    private static ObjectNode json(Association a) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("AssociationId", a.id);
        node.put("ResourceARN", "arn:aws:fsx:us-east-1:123456789012:association/" + a.fileSystemId + "/" + a.id);
        node.put("FileSystemId", a.fileSystemId);
        node.put("Lifecycle", a.lifecycle);
        if (a.failure != null) {
            node.putObject("FailureDetails").put("Message", a.failure);
        }
        node.put("FileSystemPath", a.path);
        node.put("DataRepositoryPath", a.repository);
        node.put("BatchImportMetaDataOnCreate", true);
        node.put("ImportedFileChunkSize", a.chunkSizeMiB != null ? a.chunkSizeMiB : 1024);
        ObjectNode s3 = node.putObject("S3");
        if (!a.importEvents.isEmpty()) {
            a.importEvents.forEach(s3.putObject("AutoImportPolicy").putArray("Events")::add);
        }
        if (!a.exportEvents.isEmpty()) {
            a.exportEvents.forEach(s3.putObject("AutoExportPolicy").putArray("Events")::add);
        }
        ArrayNode tags = node.putArray("Tags");
        a.tags.forEach((k, v) -> tags.addObject().put("Key", k).put("Value", v));
        node.put("CreationTime", 1_767_225_600L);
        return node;
    }
}
