package io.github.trainingdata.cdk.storage.associations;

import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.trainingdata.cdk.internal.handler.CustomResourceEvent;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import io.github.trainingdata.cdk.preload.handler.RecordingContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The handler against a loopback FSx ({@link FakeFsx}) with the real SDK client configured as in Lambda: each test
 * plays what CloudFormation and the Provider framework do (onEvent once, then isComplete until complete, FSx
 * finishing its steps in between) and checks the calls the handler makes, what it returns and what FSx holds after.
 */
class DataRepositoryAssociationHandlerTest {
    private static final String FS = "fs-0123456789abcdef0";
    private static final String LOGICAL_ID = "LustreAssociationsimagenet1A2B3C4D";
    private static final String OWNER = FS + ":" + LOGICAL_ID;
    private static final String BUCKET = "s3://team-datasets/vision/";
    /** Enough isComplete calls for any step sequence here; a loop that needs more is a bug. */
    private static final int MAX_POLLS = 12;

    private AwsJsonEmulator emulator;
    private FakeFsx fsx;
    private FakeS3Listing s3;
    private S3Client s3Client;
    private FSxClient client;
    private DataRepositoryAssociationHandler handler;
    private RecordingContext context;
    /** Which attempt of a request the dispatcher serves: 2 and on when CloudFormation sent the request again. */
    private int attempt = 1;
    private final List<FSxClient> extraClients = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        emulator = new AwsJsonEmulator();
        fsx = new FakeFsx(emulator, FS);
        client = emulator.connect(FsxAssociations.clientBuilder());
        s3 = new FakeS3Listing();
        s3Client = s3.client();
        handler = new DataRepositoryAssociationHandler(client, s3Client);
        context = new RecordingContext();
    }

    @AfterEach
    void stop() {
        extraClients.forEach(FSxClient::close);
        client.close();
        emulator.close();
        s3Client.close();
        s3.close();
    }

    private static Map<String, Object> properties(String path, String repository) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:framework-onEvent");
        properties.put("FileSystemId", FS);
        properties.put("FileSystemPath", path);
        properties.put("DataRepositoryPath", repository);
        properties.put("AutoImportEvents", List.of("NEW", "CHANGED", "DELETED"));
        properties.put("AutoExportEvents", List.of());
        properties.put("BatchImportMetaDataOnCreate", "true");
        return properties;
    }

    private static Map<String, Object> imagenet() {
        return properties("/imagenet", BUCKET + "imagenet/");
    }

    /** {@link #imagenet()} exporting new and changed files. */
    private static Map<String, Object> exportingImagenet() {
        Map<String, Object> exporting = imagenet();
        exporting.put("AutoExportEvents", List.of("NEW", "CHANGED"));
        return exporting;
    }

    private static Map<String, Object> event(String type, String requestId, Map<String, Object> properties) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("RequestType", type);
        event.put("RequestId", requestId);
        event.put("StackId", "arn:aws:cloudformation:us-east-1:123456789012:stack/Data/4a1e2b30-0000-11f0-9c7a-0a1b2c3d4e5f");
        event.put("LogicalResourceId", LOGICAL_ID);
        event.put("ResourceType", "Custom::DataRepositoryAssociation");
        event.put("ResourceProperties", properties);
        return event;
    }

    private static Map<String, Object> update(String requestId, Map<String, Object> now, Map<String, Object> before) {
        Map<String, Object> event = event("Update", requestId, now);
        event.put("PhysicalResourceId", OWNER);
        event.put("OldResourceProperties", before);
        return event;
    }

    private static Map<String, Object> delete(String requestId, String physicalId, Map<String, Object> properties) {
        Map<String, Object> event = event("Delete", requestId, properties);
        event.put("PhysicalResourceId", physicalId);
        return event;
    }

    /**
     * The request as the dispatcher hands it to the handler: marked with the attempt it serves ({@link #attempt}),
     * named like the attempt's waiter.
     */
    private Map<String, Object> attempted(Map<String, Object> event) {
        Map<String, Object> attempted = new LinkedHashMap<>(event);
        attempted.put(CustomResourceEvent.ATTEMPT, event.get("RequestId") + (attempt == 1 ? "" : "-" + attempt));
        return attempted;
    }

    /** What the dispatcher does: onEvent, then isComplete (with onEvent's answer merged) until complete. */
    private Map<String, Object> deploy(Map<String, Object> request) {
        Map<String, Object> event = attempted(request);
        Map<String, Object> waiting = new LinkedHashMap<>(event);
        waiting.putAll(handler.onEvent(event, context));
        for (int poll = 0; poll < MAX_POLLS; poll++) {
            Map<String, Object> answer = handler.isComplete(waiting, context);
            if (Boolean.TRUE.equals(answer.get("IsComplete"))) {
                Map<String, Object> result = new LinkedHashMap<>(answer);
                result.put("PhysicalResourceId", waiting.get("PhysicalResourceId"));
                return result;
            }
            assertEquals(Map.of("IsComplete", false), answer, "not complete carries no Data");
            fsx.tick();
        }
        throw new AssertionError("not complete after " + MAX_POLLS + " polls: " + context.lines());
    }

    private List<String> targets() {
        return emulator.calls().stream().map(c -> c.target().substring(FakeFsx.PREFIX.length())).toList();
    }

    private List<JsonNode> bodies(String target) {
        return emulator.calls(target).stream().map(AwsJsonEmulator.Call::json).toList();
    }

    private Map<String, Object> created() {
        return created(imagenet());
    }

    private Map<String, Object> created(Map<String, Object> properties) {
        return deploy(event("Create", "req-create", properties));
    }

    @Test
    void createLinksTheDirectoryTaggedWithItsOwnerAndWaitsUntilAvailable() {
        Map<String, Object> properties = imagenet();
        properties.put("ImportedFileChunkSize", "512");
        properties.put("AutoExportEvents", List.of("DELETED", "NEW"));

        Map<String, Object> result = deploy(event("Create", "req-create", properties));

        FakeFsx.Association association = fsx.associations().get(0);
        assertEquals(Map.of("IsComplete", true, "Data", Map.of("AssociationId", association.id),
                "PhysicalResourceId", OWNER), result);
        assertEquals(List.of("DescribeDataRepositoryAssociations", "CreateDataRepositoryAssociation",
                "DescribeDataRepositoryAssociations"), targets());
        JsonNode create = bodies(FakeFsx.CREATE).get(0);
        assertEquals(FS, create.get("FileSystemId").asText());
        assertEquals("/imagenet", create.get("FileSystemPath").asText());
        assertEquals(BUCKET + "imagenet/", create.get("DataRepositoryPath").asText());
        assertTrue(create.get("BatchImportMetaDataOnCreate").asBoolean());
        assertEquals(512, create.get("ImportedFileChunkSize").asInt());
        assertEquals("[\"NEW\",\"CHANGED\",\"DELETED\"]", create.at("/S3/AutoImportPolicy/Events").toString());
        assertEquals("[\"NEW\",\"DELETED\"]", create.at("/S3/AutoExportPolicy/Events").toString());
        assertEquals(new FsxAssociations.Request("req-create", "req-create").token(),
                create.get("ClientRequestToken").asText(), "one token per attempt of the request");
        assertEquals(Map.of("cdk-training-data:association", OWNER, "cdk-training-data:request", "req-create",
                "cdk-training-data:attempt", "req-create"), association.tags);
        assertEquals("file-system-id", bodies(FakeFsx.DESCRIBE).get(0).at("/Filters/0/Name").asText());
        assertEquals(FS, bodies(FakeFsx.DESCRIBE).get(0).at("/Filters/0/Values/0").asText());
    }

    @Test
    void anAssociationThatFollowsNothingIsCreatedWithoutS3Policies() {
        Map<String, Object> frozen = imagenet();
        frozen.put("AutoImportEvents", List.of());
        frozen.remove("AutoExportEvents");

        created(frozen);

        JsonNode create = bodies(FakeFsx.CREATE).get(0);
        assertFalse(create.has("S3"), create.toString());
        assertFalse(create.has("ImportedFileChunkSize"), create.toString());
        assertEquals(List.of(), emulator.calls(FakeFsx.UPDATE), "nothing to change once it is available");
    }

    @Test
    void retriedCallsOfOneRequestCreateOneAssociation() {
        Map<String, Object> event = event("Create", "req-create", imagenet());
        Map<String, Object> named = handler.onEvent(event, context);
        assertEquals(named, handler.onEvent(event, context));
        Map<String, Object> waiting = new LinkedHashMap<>(event);
        waiting.putAll(named);

        assertEquals(Map.of("IsComplete", false), handler.isComplete(waiting, context));
        assertEquals(Map.of("IsComplete", false), handler.isComplete(waiting, context), "still CREATING");
        fsx.tick();
        assertEquals(true, handler.isComplete(waiting, context).get("IsComplete"));

        assertEquals(1, emulator.calls(FakeFsx.CREATE).size());
        assertEquals(1, fsx.associations().size());
    }

    @Test
    void anAssociationItDidNotCreateIsNeverDeletedTheRequestFailsNamingIt() {
        FakeFsx.Association handMade = fsx.seed(FS, "/imagenet", BUCKET + "imagenet/", Map.of());
        FakeFsx.Association other = fsx.seed(FS, "/coco", BUCKET + "coco/", Map.of());

        IllegalStateException e = assertThrows(IllegalStateException.class, this::created);

        assertTrue(e.getMessage().startsWith("Cannot link /imagenet to " + BUCKET + "imagenet/ on " + FS + ": association "
                + handMade.id + " (/imagenet <-> " + BUCKET + "imagenet/, AVAILABLE) (not made by this library's custom "
                + "resource: e.g. made by hand) is on the same or an overlapping directory"), e.getMessage());
        assertTrue(e.getMessage().contains("Nothing was deleted"), e.getMessage());
        assertEquals(List.of(handMade.id, other.id), fsx.associations().stream().map(a -> a.id).toList());
        assertFalse(targets().contains("DeleteDataRepositoryAssociation"));
        assertFalse(targets().contains("CreateDataRepositoryAssociation"));
    }

    @Test
    void aSiblingDatasetOnANestedS3PrefixIsNeverDeleted() {
        String sibling = FS + ":LustreAssociationstrain9A8B7C6D";
        FakeFsx.Association train = fsx.seed(FS, "/imagenet-train", BUCKET + "imagenet/train/",
                Map.of("cdk-training-data:association", sibling));

        IllegalStateException e = assertThrows(IllegalStateException.class, this::created);

        assertTrue(e.getMessage().contains("association " + train.id + " (/imagenet-train <-> " + BUCKET
                + "imagenet/train/, AVAILABLE) (of " + sibling + ")"), e.getMessage());
        assertTrue(e.getMessage().contains("nested S3 prefixes the library refuses at synth (DATASET_LOCATION_NESTING)"),
                e.getMessage());
        assertEquals(List.of(train.id), fsx.associations().stream().map(a -> a.id).toList(), "the sibling stays");
        assertEquals(List.of(), fsx.deleted());
        assertEquals(List.of("DescribeDataRepositoryAssociations"), targets());
    }

    @Test
    void aChangedPathMovesTheAssociationInPlace() {
        created();
        FakeFsx.Association before = fsx.associations().get(0);
        Map<String, Object> moved = properties("/datasets/imagenet", BUCKET + "imagenet/");

        Map<String, Object> result = deploy(update("req-move", moved, imagenet()));

        assertEquals(OWNER, result.get("PhysicalResourceId"), "an in-place update");
        assertEquals(true, before.deletedWithData, "the old directory's copies go");
        FakeFsx.Association after = fsx.associations().get(0);
        assertEquals(List.of("/datasets/imagenet"), fsx.associations().stream().map(a -> a.path).toList());
        assertEquals(Map.of("AssociationId", after.id), result.get("Data"));
        assertEquals("req-move", after.tags.get("cdk-training-data:request"));
    }

    @Test
    void aMoveThatCannotFinishInTheHourFailsBeforeItDeletesAnything() {
        created();
        FakeFsx.Association before = fsx.associations().get(0);
        FakeFsx.Task importing = fsx.seedTask(FS, before.id, "IMPORT_METADATA_FROM_REPOSITORY", "EXECUTING");
        s3.holds(BUCKET + "imagenet/", 100_001);
        int calls = emulator.calls().size();

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> deploy(update("req-move", properties("/datasets/imagenet", BUCKET + "imagenet/"), imagenet())));

        assertEquals("Cannot move association " + before.id + " (/imagenet <-> " + BUCKET + "imagenet/, AVAILABLE) to "
                + "/datasets/imagenet <-> " + BUCKET + "imagenet/ in place: " + BUCKET + "imagenet/ holds more than "
                + "100000 objects, and a move deletes the old directory's files (a rollback the new one's) within the "
                + "custom resource's hour, at a rate FSx does not document. Nothing was deleted. Move it in two deploys: "
                + "add the dataset under a new name at the new path or location and deploy, then remove the old dataset "
                + "and deploy (a removed dataset's association is deleted keeping its files).", e.getMessage());
        assertEquals(List.of("DescribeDataRepositoryAssociations"), targets().subList(calls, targets().size()),
                "nothing cancelled, deleted or created");
        assertEquals(List.of(before), fsx.associations());
        assertEquals("EXECUTING", importing.lifecycle);
        assertEquals(101, s3.listed().size(), "stops counting past the bound: 101 pages of 1,000");
    }

    @Test
    void aMoveCountsBothLocationsSoThatItsRollbackFitsToo() {
        created();
        s3.holds(BUCKET + "imagenet-v2/", 250_000);

        assertThrows(IllegalStateException.class,
                () -> deploy(update("req-move", properties("/imagenet", BUCKET + "imagenet-v2/"), imagenet())));
        assertEquals(List.of(), fsx.deleted());

        s3.holds(BUCKET + "imagenet-v2/", 99_999);
        deploy(update("req-move-2", properties("/imagenet", BUCKET + "imagenet-v2/"), imagenet()));
        assertEquals(List.of(BUCKET + "imagenet-v2/"), fsx.associations().stream().map(a -> a.repository).toList());
        assertTrue(context.lines().contains(BUCKET + "imagenet-v2/ holds 99999 objects (at most 100000 move in place)"),
                context.lines().toString());
    }

    @Test
    void aChangedS3LocationMovesTheAssociationInPlace() {
        created();
        FakeFsx.Association before = fsx.associations().get(0);

        deploy(update("req-move", properties("/imagenet", BUCKET + "imagenet-v2/"), imagenet()));

        assertEquals(true, before.deletedWithData);
        assertEquals(List.of(BUCKET + "imagenet-v2/"), fsx.associations().stream().map(a -> a.repository).toList());
    }

    @Test
    void aRollbackIsAnUpdateBackThatConvergesToThePreviousLink() {
        created();
        Map<String, Object> moved = properties("/datasets/imagenet", BUCKET + "imagenet-v2/");
        deploy(update("req-move", moved, imagenet()));

        Map<String, Object> result = deploy(update("req-rollback", imagenet(), moved));

        assertEquals(OWNER, result.get("PhysicalResourceId"));
        assertEquals(1, fsx.associations().size());
        assertEquals("/imagenet", fsx.associations().get(0).path);
        assertEquals(BUCKET + "imagenet/", fsx.associations().get(0).repository);
    }

    @Test
    void aRollbackAfterAFailedMoveRestoresTheLink() {
        created();
        fsx.nextCreateEnds("FAILED", "Amazon FSx is unable to access the S3 bucket.");
        Map<String, Object> moved = properties("/imagenet", "s3://deleted-bucket/imagenet/");
        assertThrows(IllegalStateException.class, () -> deploy(update("req-move", moved, imagenet())));

        deploy(update("req-rollback", imagenet(), moved));

        assertEquals(List.of(BUCKET + "imagenet/"), fsx.associations().stream().map(a -> a.repository).toList());
        assertEquals("AVAILABLE", fsx.associations().get(0).lifecycle);
    }

    @Test
    void changedEventsAndChunkSizeAreUpdatedInPlaceOnePropertyAtATime() {
        created();
        String id = fsx.associations().get(0).id;
        Map<String, Object> changed = imagenet();
        changed.put("ImportedFileChunkSize", "2048");
        changed.put("AutoImportEvents", List.of("NEW"));
        changed.put("AutoExportEvents", List.of("NEW", "CHANGED"));
        int before = emulator.calls().size();

        Map<String, Object> result = deploy(update("req-events", changed, imagenet()));

        assertEquals(Map.of("AssociationId", id), result.get("Data"));
        List<JsonNode> updates = bodies(FakeFsx.UPDATE);
        assertEquals(3, updates.size());
        assertEquals("{\"AssociationId\":\"" + id + "\",\"ImportedFileChunkSize\":2048}", withoutToken(updates.get(0)));
        assertEquals("{\"AssociationId\":\"" + id + "\",\"S3\":{\"AutoImportPolicy\":{\"Events\":[\"NEW\"]}}}",
                withoutToken(updates.get(1)));
        assertEquals("{\"AssociationId\":\"" + id + "\",\"S3\":{\"AutoExportPolicy\":{\"Events\":[\"NEW\",\"CHANGED\"]}}}",
                withoutToken(updates.get(2)));
        assertFalse(targets().subList(before, targets().size()).contains("DeleteDataRepositoryAssociation"));
        assertFalse(targets().subList(before, targets().size()).contains("CreateDataRepositoryAssociation"));
    }

    /**
     * The upgrade to the stack's provider (another ServiceToken, nothing else changed) is an Update that only lists the
     * file system's associations: the association is kept, nothing is created, moved, deleted or cancelled.
     */
    @Test
    void anUpdateFromAnotherProviderKeepsTheAssociationAndOnlyReads() {
        created();
        String id = fsx.associations().get(0).id;
        Map<String, Object> moved = imagenet();
        moved.put("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:CustomResourceProviderframeworkonEvent");
        int before = emulator.calls().size();

        Map<String, Object> result = deploy(update("req-provider", moved, imagenet()));

        assertEquals(Map.of("AssociationId", id), result.get("Data"));
        assertEquals(OWNER, result.get("PhysicalResourceId"));
        assertEquals(List.of(id), fsx.associations().stream().map(a -> a.id).toList());
        assertTrue(targets().subList(before, targets().size()).stream().allMatch(t -> t.startsWith("Describe")),
                targets().subList(before, targets().size()).toString());
    }

    /** A new role ARN (the role replaced) is an in-place Update that only reads: no new association, no move. */
    @Test
    void anUpdateOfTheRoleOnlyKeepsTheAssociationAndOnlyReads() {
        Map<String, Object> before = imagenet();
        before.put("RoleArn", "arn:aws:iam::123456789012:role/training-data/custom-resource/Data/HandlerRoleOld");
        created(before);
        String id = fsx.associations().get(0).id;
        Map<String, Object> now = imagenet();
        now.put("RoleArn", "arn:aws:iam::123456789012:role/training-data/custom-resource/Data/HandlerRoleNew");
        int before2 = emulator.calls().size();

        Map<String, Object> result = deploy(update("req-role", now, before));

        assertEquals(Map.of("AssociationId", id), result.get("Data"));
        assertEquals(OWNER, result.get("PhysicalResourceId"));
        assertEquals(List.of(id), fsx.associations().stream().map(a -> a.id).toList());
        assertTrue(targets().subList(before2, targets().size()).stream().allMatch(t -> t.startsWith("Describe")),
                targets().subList(before2, targets().size()).toString());
    }

    @Test
    void anUpdateOfTheGuardsRoleOnlyIsCompleteAtOnceAndCallsNothing() {
        Map<String, Object> update = guardEvent("Update", "req-role", FS + ":tasks");
        Map<?, ?> properties = (Map<?, ?>) update.get("ResourceProperties");
        Map<String, Object> old = new LinkedHashMap<>();
        properties.forEach((key, value) -> old.put(String.valueOf(key), value));
        old.put("RoleArn", "arn:aws:iam::123456789012:role/training-data/custom-resource/Data/HandlerRoleOld");
        update.put("OldResourceProperties", old);

        Map<String, Object> result = deploy(update);

        assertEquals(FS + ":tasks", result.get("PhysicalResourceId"));
        assertEquals(List.of(), emulator.calls());
    }

    @Test
    void turningAutomaticImportOffSendsAnEmptyEventList() {
        created();
        Map<String, Object> off = imagenet();
        off.put("AutoImportEvents", List.of());

        deploy(update("req-off", off, imagenet()));

        assertEquals("[]", bodies(FakeFsx.UPDATE).get(0).at("/S3/AutoImportPolicy/Events").toString());
        assertEquals(List.of(), fsx.associations().get(0).importEvents);
    }

    private static String withoutToken(JsonNode body) {
        ((com.fasterxml.jackson.databind.node.ObjectNode) body).remove("ClientRequestToken");
        return body.toString();
    }

    @Test
    void deleteRemovesOnlyItsOwnAssociationKeepingTheFilesAndWaitsUntilItIsGone() {
        created();
        FakeFsx.Association legacy = fsx.seed(FS, "/coco", BUCKET + "coco/", Map.of());
        FakeFsx.Association ours = fsx.associations().get(0);

        Map<String, Object> result = deploy(delete("req-delete", OWNER, imagenet()));

        assertEquals(Map.of("IsComplete", true, "PhysicalResourceId", OWNER), result);
        assertEquals(List.of(ours.id), fsx.deleted().stream().map(a -> a.id).toList());
        assertEquals(false, ours.deletedWithData);
        assertEquals(List.of(legacy.id), fsx.associations().stream().map(a -> a.id).toList());
    }

    @Test
    void deleteOfAMissingAssociationOrFileSystemIsDone() {
        assertEquals(true, deploy(delete("req-delete", OWNER, imagenet())).get("IsComplete"));
        fsx.deleteFileSystem(FS);
        assertEquals(true, deploy(delete("req-delete-2", OWNER, imagenet())).get("IsComplete"));
        assertEquals(List.of("DescribeDataRepositoryAssociations", "DescribeDataRepositoryAssociations"), targets());
    }

    @Test
    void deleteOfAPhysicalIdThatNamesNoAssociationCallsNothing() {
        String marker = "AWSCDK::CustomResourceProviderFramework::MISSING_PHYSICAL_ID";
        assertEquals(Map.of("IsComplete", true, "PhysicalResourceId", marker),
                deploy(delete("req-delete", marker, Map.of())));
        assertEquals(List.of(), emulator.calls());
    }

    @Test
    void deleteWaitsForAnAssociationStillBeingCreated() {
        Map<String, Object> event = event("Create", "req-create", imagenet());
        event.putAll(handler.onEvent(event, context));
        handler.isComplete(event, context);

        Map<String, Object> removal = delete("req-delete", OWNER, imagenet());
        assertEquals(Map.of("IsComplete", false), handler.isComplete(removal, context), "CREATING: wait");
        assertFalse(targets().contains("DeleteDataRepositoryAssociation"));
        fsx.tick();
        assertEquals(Map.of("IsComplete", false), handler.isComplete(removal, context), "deleting");
        fsx.tick();
        assertEquals(true, handler.isComplete(removal, context).get("IsComplete"));
        assertEquals(List.of(), fsx.associations());
    }

    @Test
    void aReplacedFileSystemGetsANewPhysicalIdAndTheOldOnesDeleteRemovesTheOldLinkOrFindsItGone() {
        created();
        FakeFsx.Association old = fsx.associations().get(0);
        String newFs = "fs-0fedcba9876543210";
        fsx.addFileSystem(newFs);
        Map<String, Object> onNew = imagenet();
        onNew.put("FileSystemId", newFs);

        Map<String, Object> result = deploy(update("req-replace", onNew, imagenet()));

        assertEquals(newFs + ":" + LOGICAL_ID, result.get("PhysicalResourceId"), "a replacement");
        assertEquals(List.of(FS, newFs), fsx.associations().stream().map(a -> a.fileSystemId).toList());
        assertEquals(true, deploy(delete("req-cleanup", OWNER, imagenet())).get("IsComplete"));
        assertEquals(List.of(old.id), fsx.deleted().stream().map(a -> a.id).toList());
        fsx.deleteFileSystem(newFs);
        assertEquals(true, deploy(delete("req-cleanup-2", newFs + ":" + LOGICAL_ID, onNew)).get("IsComplete"));
    }

    @Test
    void anAssociationThatFailsFailsTheRequestWithFsxsDetailsAndWhatToDo() {
        fsx.nextCreateEnds("FAILED", "Amazon FSx does not have the required permissions for the S3 bucket.");

        IllegalStateException e = assertThrows(IllegalStateException.class, this::created);

        String id = fsx.associations().get(0).id;
        assertEquals("association " + id + " (/imagenet <-> " + BUCKET + "imagenet/, FAILED) on " + FS + ": Amazon FSx "
                + "does not have the required permissions for the S3 bucket.. FSx marks an association FAILED when it "
                + "cannot recover it, for example when the S3 bucket or the linked directory was deleted. Check that the "
                + "bucket exists and that FSx may read it (its bucket policy and, with SSE-KMS, the key policy for the "
                + "AWSServiceRoleForFSxS3Access_* roles), then deploy again or retry the deployment: either replaces the "
                + "failed association (keeping its files).", e.getMessage());
    }

    @Test
    void aMisconfiguredAssociationFailsTheRequestThatCreatedIt() {
        fsx.nextCreateEnds("MISCONFIGURED", "The S3 event notification configuration overlaps.");

        IllegalStateException e = assertThrows(IllegalStateException.class, this::created);

        assertTrue(e.getMessage().contains("MISCONFIGURED) on " + FS + ": The S3 event notification configuration "
                + "overlaps.. FSx cannot import from or export to the bucket automatically"), e.getMessage());
    }

    @Test
    void anAssociationLeftFailedByAnEarlierDeployIsReplaced() {
        fsx.nextCreateEnds("FAILED", "The S3 bucket was deleted.");
        assertThrows(IllegalStateException.class, this::created);
        FakeFsx.Association failed = fsx.associations().get(0);

        deploy(update("req-retry", imagenet(), imagenet()));

        assertEquals(List.of(failed.id), fsx.deleted().stream().map(a -> a.id).toList());
        assertEquals(false, failed.deletedWithData);
        assertEquals("AVAILABLE", fsx.associations().get(0).lifecycle);
    }

    /**
     * A retried deployment sends the failed Create again with the same RequestId (aws-cdk#35957) to a new invocation:
     * the association its first delivery left FAILED is replaced, under a token of the retry's own, so the retry
     * succeeds once the cause is gone, whether or not FSx answers a repeated token with the deleted association.
     */
    @Test
    void aRetriedCreateReplacesTheAssociationItsFirstDeliveryLeftFailedUnderATokenOfItsOwn() {
        fsx.tokensOutliveAssociations();
        fsx.nextCreateEnds("FAILED", "Amazon FSx does not have the required permissions for the S3 bucket.");
        assertThrows(IllegalStateException.class, this::created);
        FakeFsx.Association failed = fsx.associations().get(0);
        attempt = 2;

        Map<String, Object> result = created();

        FakeFsx.Association replacement = fsx.associations().get(0);
        assertEquals(Map.of("IsComplete", true, "Data", Map.of("AssociationId", replacement.id),
                "PhysicalResourceId", OWNER), result);
        assertEquals("AVAILABLE", replacement.lifecycle);
        assertEquals(List.of(failed.id), fsx.deleted().stream().map(a -> a.id).toList());
        assertEquals(false, failed.deletedWithData, "its files stay");
        List<String> tokens = bodies(FakeFsx.CREATE).stream().map(b -> b.get("ClientRequestToken").asText()).toList();
        assertEquals(2, tokens.stream().distinct().count(), tokens.toString());
        assertTrue(tokens.get(1).matches("[0-9a-f]{32}"), tokens.get(1));
        assertEquals(Map.of("cdk-training-data:association", OWNER, "cdk-training-data:request", "req-create",
                "cdk-training-data:attempt", "req-create-2"), replacement.tags);
        assertTrue(context.lines().contains("association " + failed.id + " (/imagenet <-> " + BUCKET + "imagenet/, "
                + "FAILED) was left FAILED by an earlier attempt of this request (a retried deployment): replacing it"),
                context.lines().toString());
    }

    @Test
    void aRetriedCreateReplacesTheAssociationItsFirstDeliveryLeftMisconfigured() {
        fsx.nextCreateEnds("MISCONFIGURED", "The S3 event notification configuration overlaps.");
        assertThrows(IllegalStateException.class, this::created);
        FakeFsx.Association misconfigured = fsx.associations().get(0);
        attempt = 2;

        assertEquals(true, created().get("IsComplete"), "the cause is gone: the new association is AVAILABLE");

        assertEquals(List.of(misconfigured.id), fsx.deleted().stream().map(a -> a.id).toList());
        assertEquals("AVAILABLE", fsx.associations().get(0).lifecycle);
    }

    @Test
    void aRetryWhoseAssociationFailsAgainFailsOnceWithFsxsDetails() {
        fsx.nextCreateEnds("FAILED", "The S3 bucket was deleted.");
        assertThrows(IllegalStateException.class, this::created);
        attempt = 2;
        fsx.nextCreateEnds("FAILED", "The S3 bucket was deleted.");

        IllegalStateException e = assertThrows(IllegalStateException.class, this::created);

        assertTrue(e.getMessage().contains("The S3 bucket was deleted.. FSx marks an association FAILED"), e.getMessage());
        assertEquals(2, emulator.calls(FakeFsx.CREATE).size(), "one replacement per delivery, no loop");
    }

    /**
     * Two deliveries of one attempt in two Lambda invocations (a duplicate delivered while the first still runs, before
     * the waiter exists): the second creates before FSx lists the first one's association and gets that association
     * under the attempt's token. A token per Lambda invocation was refused (overlapping path) and failed the request.
     */
    @Test
    void aDuplicateDeliveryOfOneAttemptInAnotherInvocationGetsTheSameAssociation() {
        fsx.listCreatedAssociationsLate();
        Map<String, Object> event = attempted(event("Create", "req-create", imagenet()));
        Map<String, Object> first = new LinkedHashMap<>(event);
        first.putAll(handler.onEvent(event, context));
        assertEquals(Map.of("IsComplete", false), handler.isComplete(first, context));
        RecordingContext duplicate = new RecordingContext("lambda-request-2");
        Map<String, Object> second = new LinkedHashMap<>(event);
        second.putAll(handler.onEvent(event, duplicate));

        assertEquals(Map.of("IsComplete", false), handler.isComplete(second, duplicate));

        List<String> tokens = bodies(FakeFsx.CREATE).stream().map(b -> b.get("ClientRequestToken").asText()).toList();
        assertEquals(2, tokens.size(), "the first association was not listed yet");
        assertEquals(tokens.get(0), tokens.get(1));
        assertEquals(1, fsx.associations().size());
        fsx.tick();
        assertEquals(true, handler.isComplete(second, duplicate).get("IsComplete"));
    }

    /** A retried Create whose first delivery's association is still being created, or is available, keeps it. */
    @Test
    void aRetriedCreateKeepsTheAssociationItsFirstDeliveryMadeWhenItIsNotBroken() {
        Map<String, Object> event = event("Create", "req-create", imagenet());
        Map<String, Object> first = attempted(event);
        first.putAll(handler.onEvent(attempted(event), context));
        assertEquals(Map.of("IsComplete", false), handler.isComplete(first, context), "CREATING past the deadline");
        attempt = 2;

        Map<String, Object> result = deploy(event);

        assertEquals(1, emulator.calls(FakeFsx.CREATE).size());
        assertEquals(fsx.associations().get(0).id, ((Map<?, ?>) result.get("Data")).get("AssociationId"));
        assertEquals(List.of(), fsx.deleted());
    }

    /**
     * A retried Delete (the same RequestId) after its first delivery failed on a refused delete finds the export that
     * delivery made, starts no other, and deletes once FSx allows it.
     */
    @Test
    void aRetriedDeleteReusesItsFirstDeliverysExportAndDeletesOnceAllowed() {
        Map<String, Object> exporting = exportingImagenet();
        created(exporting);
        fsx.refuseDeletes("not authorized to perform: fsx:DeleteDataRepositoryAssociation");
        assertThrows(SdkException.class, () -> deploy(delete("req-delete", OWNER, exporting)));
        assertEquals(1, emulator.calls(FakeFsx.CREATE_TASK).size());
        fsx.refuseDeletes(null);
        attempt = 2;

        assertEquals(true, deploy(delete("req-delete", OWNER, exporting)).get("IsComplete"));

        assertEquals(1, emulator.calls(FakeFsx.CREATE_TASK).size(), "the first delivery's export is reused");
        assertEquals(List.of(), fsx.associations());
        assertEquals(false, fsx.deleted().get(0).deletedWithData);
    }

    @Test
    void anExportingAssociationLeftFailedIsReplacedWithoutAnExportThroughItsBrokenLink() {
        Map<String, Object> exporting = exportingImagenet();
        fsx.nextCreateEnds("FAILED", "The S3 bucket was deleted.");
        assertThrows(IllegalStateException.class, () -> created(exporting));
        FakeFsx.Association failed = fsx.associations().get(0);

        deploy(update("req-retry", exporting, exporting));

        assertEquals(List.of(), bodies(FakeFsx.CREATE_TASK), "FAILED is terminal (FSx API reference, "
                + "DataRepositoryAssociation): an export through it cannot succeed, and a refused one would fail the "
                + "update and its rollback");
        assertEquals(List.of(failed.id), fsx.deleted().stream().map(a -> a.id).toList());
        assertEquals(false, failed.deletedWithData);
        assertEquals("AVAILABLE", fsx.associations().get(0).lifecycle);
    }

    @Test
    void twoDatasetsSwappingPathsInOneDeployFailBeforeDeletingAnything() {
        Map<String, Object> cocoAtCoco = properties("/coco", BUCKET + "coco/");
        created();
        Map<String, Object> cocoEvent = event("Create", "req-coco", cocoAtCoco);
        cocoEvent.put("LogicalResourceId", "LustreAssociationscoco5E6F7A8B");
        deploy(cocoEvent);
        List<FakeFsx.Association> before = fsx.associations();

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> deploy(update("req-swap-1", properties("/coco", BUCKET + "imagenet/"), imagenet())));

        assertTrue(e.getMessage().contains("move one dataset away in one deploy and the other in the next"),
                e.getMessage());
        assertEquals(before, fsx.associations());
        assertEquals(List.of(), fsx.deleted());
    }

    @Test
    void anExportingAssociationExportsItsDirectoryBeforeItIsMovedAndKeepsItsFiles() {
        Map<String, Object> exporting = exportingImagenet();
        created(exporting);
        FakeFsx.Association before = fsx.associations().get(0);
        Map<String, Object> moved = properties("/datasets/imagenet", BUCKET + "imagenet/");
        moved.put("AutoExportEvents", List.of("NEW", "CHANGED"));

        deploy(update("req-move", moved, exporting));

        JsonNode export = bodies(FakeFsx.CREATE_TASK).get(0);
        assertEquals("EXPORT_TO_REPOSITORY", export.get("Type").asText());
        assertEquals("[\"imagenet\"]", export.get("Paths").toString(), "relative to the mount point");
        assertEquals("req-move", fsx.tasks().get(0).tags.get("cdk-training-data:request"));
        List<String> order = targets();
        assertTrue(order.indexOf("CreateDataRepositoryTask") < order.indexOf("DeleteDataRepositoryAssociation"), order.toString());
        assertEquals(false, before.deletedWithData, "S3 may not have all of its files");
        assertEquals(List.of("/datasets/imagenet"), fsx.associations().stream().map(a -> a.path).toList());
    }

    @Test
    void anExportingAssociationIsDeletedAfterItsExportAlsoWhenFsxListsTheExportOnlyUnderTheFileSystem() {
        Map<String, Object> exporting = exportingImagenet();
        created(exporting);
        FakeFsx.Association ours = fsx.associations().get(0);
        fsx.listCreatedTasksByFileSystemOnly();

        assertEquals(true, deploy(delete("req-delete", OWNER, exporting)).get("IsComplete"));

        assertEquals(1, fsx.tasks().size(), "one export: " + context.lines());
        FakeFsx.Task export = fsx.tasks().get(0);
        assertEquals(List.of("EXPORT_TO_REPOSITORY", "SUCCEEDED"), List.of(export.type, export.lifecycle));
        List<String> order = targets();
        assertTrue(order.indexOf("CreateDataRepositoryTask") < order.indexOf("DeleteDataRepositoryAssociation"),
                order.toString());
        assertEquals(List.of(ours.id), fsx.deleted().stream().map(a -> a.id).toList());
        assertEquals(false, ours.deletedWithData);
    }

    @Test
    void twoExportingAssociationsOfOneResourceEachExportBeforeTheyAreDeleted() {
        List<FakeFsx.Association> ours = new ArrayList<>();
        for (String name : List.of("imagenet", "imagenet-old")) {
            FakeFsx.Association association = fsx.seed(FS, "/" + name, BUCKET + name + "/",
                    Map.of("cdk-training-data:association", OWNER));
            association.exportEvents = List.of("NEW", "CHANGED");
            ours.add(association);
        }

        assertEquals(true, deploy(delete("req-delete", OWNER, imagenet())).get("IsComplete"));

        assertEquals(List.of(List.of("imagenet"), List.of("imagenet-old")), fsx.tasks().stream().map(t -> t.paths)
                .toList(), "one export per association, each of its own directory");
        assertEquals(List.of("SUCCEEDED", "SUCCEEDED"), fsx.tasks().stream().map(t -> t.lifecycle).toList());
        assertEquals(ours.stream().map(a -> a.id).toList(), fsx.deleted().stream().map(a -> a.id).toList());
    }

    @Test
    void anImportInFlightIsCancelledAndOverBeforeTheAssociationIsDeleted() {
        created();
        FakeFsx.Association ours = fsx.associations().get(0);
        FakeFsx.Task importing = fsx.seedTask(FS, ours.id, "IMPORT_METADATA_FROM_REPOSITORY", "EXECUTING");
        int before = emulator.calls().size();

        assertEquals(true, deploy(delete("req-delete", OWNER, imagenet())).get("IsComplete"));

        List<String> calls = targets().subList(before, targets().size());
        assertEquals(List.of("DescribeDataRepositoryAssociations", "DescribeDataRepositoryTasks",
                "CancelDataRepositoryTask", "DescribeDataRepositoryAssociations", "DescribeDataRepositoryTasks",
                "DeleteDataRepositoryAssociation", "DescribeDataRepositoryAssociations"), calls);
        assertEquals("CANCELED", importing.lifecycle);
        JsonNode filters = bodies(FakeFsx.DESCRIBE_TASKS).get(0).get("Filters");
        assertEquals("[{\"Name\":\"data-repository-association-id\",\"Values\":[\"" + ours.id + "\"]},"
                + "{\"Name\":\"task-lifecycle\",\"Values\":[\"PENDING\",\"EXECUTING\",\"CANCELING\"]}]",
                filters.toString());
        assertEquals(List.of(ours.id), fsx.deleted().stream().map(a -> a.id).toList());
    }

    private Map<String, Object> guardEvent(String type, String requestId, String physicalId) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:framework-onEvent");
        properties.put("FileSystemId", FS);
        Map<String, Object> event = event(type, requestId, properties);
        event.put("LogicalResourceId", "LustreTaskGuard0A1B2C3D");
        event.put("ResourceType", "Custom::LustreTaskGuard");
        if (physicalId != null) {
            event.put("PhysicalResourceId", physicalId);
        }
        return event;
    }

    @Test
    void theTaskGuardCancelsEveryRunningTaskOfTheFileSystemBeforeItIsDeleted() {
        assertEquals(Map.of("IsComplete", true, "PhysicalResourceId", FS + ":tasks"),
                deploy(guardEvent("Create", "req-create", null)));
        assertEquals(List.of(), emulator.calls(), "a create calls nothing");
        FakeFsx.Task preloadImport = fsx.seedTask(FS, null, "IMPORT_METADATA_FROM_REPOSITORY", "EXECUTING");
        FakeFsx.Task export = fsx.seedTask(FS, null, "EXPORT_TO_REPOSITORY", "PENDING");
        FakeFsx.Task done = fsx.seedTask(FS, null, "IMPORT_METADATA_FROM_REPOSITORY", "SUCCEEDED");
        FakeFsx.Task elsewhere = fsx.seedTask("fs-0aaaaaaaaaaaaaaaa", null, "IMPORT_METADATA_FROM_REPOSITORY", "EXECUTING");

        Map<String, Object> removal = guardEvent("Delete", "req-delete", FS + ":tasks");
        assertEquals(Map.of("IsComplete", false), handler.isComplete(removal, context), "cancelling");
        assertEquals(Map.of("IsComplete", false), handler.isComplete(removal, context), "still CANCELING");
        fsx.tick();
        assertEquals(Map.of("IsComplete", true), handler.isComplete(removal, context));

        assertEquals(List.of(preloadImport.id, export.id),
                bodies(FakeFsx.CANCEL_TASK).stream().map(b -> b.get("TaskId").asText()).toList());
        assertEquals(List.of("CANCELED", "CANCELED", "SUCCEEDED", "EXECUTING"),
                List.of(preloadImport.lifecycle, export.lifecycle, done.lifecycle, elsewhere.lifecycle));
        assertEquals("file-system-id", bodies(FakeFsx.DESCRIBE_TASKS).get(0).at("/Filters/0/Name").asText());
        fsx.deleteFileSystem(FS);
        assertEquals(Map.of("IsComplete", true), handler.isComplete(removal, context), "a gone file system: done");
    }

    @Test
    void aMisconfiguredAssociationIsUpdatedInPlaceOnAnUpdate() {
        created();
        FakeFsx.Association ours = fsx.associations().get(0);
        ours.lifecycle = "MISCONFIGURED";
        ours.failure = "The S3 event notification configuration overlaps.";
        Map<String, Object> changed = imagenet();
        changed.put("ImportedFileChunkSize", "2048");
        int before = emulator.calls().size();

        Map<String, Object> result = deploy(update("req-chunk", changed, imagenet()));

        assertEquals(Map.of("AssociationId", ours.id), result.get("Data"));
        assertEquals(List.of(ours), fsx.associations(), "kept, not replaced");
        assertEquals("MISCONFIGURED", ours.lifecycle, "the cause persists");
        assertEquals(2048, ours.chunkSizeMiB);
        List<String> calls = targets().subList(before, targets().size());
        assertFalse(calls.contains("DeleteDataRepositoryAssociation"), calls.toString());
        assertFalse(calls.contains("CreateDataRepositoryAssociation"), calls.toString());
        assertTrue(context.lines().stream().anyMatch(l -> l.contains("The S3 event notification configuration overlaps.")
                && l.contains("The update goes on")), context.lines().toString());
    }

    @Test
    void aMoveOntoAMisconfiguredAssociationAndItsRollbackBothComplete() {
        created();
        Map<String, Object> moved = properties("/imagenet", BUCKET + "imagenet-v2/");
        fsx.nextCreateEnds("MISCONFIGURED", "FSx's event notification on the bucket was changed.");

        Map<String, Object> forward = deploy(update("req-move", moved, imagenet()));

        assertEquals("MISCONFIGURED", fsx.associations().get(0).lifecycle);
        assertEquals(Map.of("AssociationId", fsx.associations().get(0).id), forward.get("Data"));
        fsx.nextCreateEnds("MISCONFIGURED", "FSx's event notification on the bucket was changed.");

        Map<String, Object> rollback = deploy(update("req-rollback", imagenet(), moved));

        assertEquals(true, rollback.get("IsComplete"), "no UPDATE_ROLLBACK_FAILED");
        assertEquals(List.of(BUCKET + "imagenet/"), fsx.associations().stream().map(a -> a.repository).toList());
        assertEquals("MISCONFIGURED", fsx.associations().get(0).lifecycle);
        int before = emulator.calls().size();
        assertEquals(true, deploy(update("req-rollback-2", imagenet(), moved)).get("IsComplete"),
                "a rollback to what is linked already changes nothing");
        assertFalse(targets().subList(before, targets().size()).contains("DeleteDataRepositoryAssociation"));
    }

    @Test
    void anAssociationAtTheRootIsNeverDeletedToLinkTheRootAgain() {
        Map<String, Object> root = properties("/", BUCKET);
        created(root);
        FakeFsx.Association ours = fsx.associations().get(0);

        IllegalStateException moved = assertThrows(IllegalStateException.class,
                () -> deploy(update("req-move", properties("/", BUCKET + "v2/"), root)));
        ours.lifecycle = "FAILED";
        IllegalStateException failed = assertThrows(IllegalStateException.class,
                () -> deploy(update("req-retry", root, root)));

        for (IllegalStateException e : List.of(moved, failed)) {
            assertTrue(e.getMessage().contains("FSx allows '/' \"only ... for the first data repository associated "
                    + "with a file system\"") && e.getMessage().contains("Nothing was deleted"), e.getMessage());
        }
        assertEquals(List.of(ours), fsx.associations());
        assertFalse(targets().contains("DeleteDataRepositoryAssociation"));
        Map<String, Object> result = deploy(update("req-away", properties("/imagenet", BUCKET), root));
        assertEquals("/imagenet", fsx.associations().get(0).path, "moving away from the root creates below it");
        assertEquals(true, result.get("IsComplete"));
    }

    @Test
    void aNinthAssociationIsNotCreatedTheRequestSaysHowToReachItInTwoDeploys() {
        for (int i = 1; i <= 8; i++) {
            fsx.seed(FS, "/shard" + i, BUCKET + "shards/" + i + "/", Map.of("cdk-training-data:association",
                    FS + ":LustreAssociationsshard" + i));
        }

        IllegalStateException e = assertThrows(IllegalStateException.class, this::created);

        assertTrue(e.getMessage().startsWith("Cannot link /imagenet to " + BUCKET + "imagenet/: file system " + FS
                + " has 8 data repository associations already"), e.getMessage());
        assertTrue(e.getMessage().endsWith("at 8 datasets, remove one in one deploy and add the other in the next, or "
                + "move a dataset in place (change its prefix or fileSystemPath, keep its name)."), e.getMessage());
        assertFalse(targets().contains("CreateDataRepositoryAssociation"));
        fsx.associations().get(7).lifecycle = "DELETING";
        Map<String, Object> waiting = event("Create", "req-create-2", imagenet());
        waiting.putAll(handler.onEvent(waiting, context));
        assertEquals(Map.of("IsComplete", false), handler.isComplete(waiting, context), "one is going: wait");
        fsx.tick();
        assertEquals(Map.of("IsComplete", false), handler.isComplete(waiting, context), "created");
    }

    @Test
    void pagesThroughEveryAssociationOfTheFileSystem() {
        for (String name : List.of("a", "b", "c", "d", "e")) {
            fsx.seed(FS, "/" + name, BUCKET + name + "/", Map.of());
        }
        FakeFsx.Association last = fsx.seed(FS, "/imagenet", BUCKET + "imagenet/",
                Map.of("cdk-training-data:association", OWNER, "cdk-training-data:request", "req-earlier"));

        Map<String, Object> result = created();

        assertEquals(Map.of("AssociationId", last.id), result.get("Data"), "its own association, found on page 3");
        assertEquals(List.of(), fsx.deleted());
        assertEquals("4", bodies(FakeFsx.DESCRIBE).get(2).get("NextToken").asText());
    }

    @Test
    void aMissingFileSystemFailsACreate() {
        fsx.deleteFileSystem(FS);

        IllegalStateException e = assertThrows(IllegalStateException.class, this::created);

        assertEquals("File system " + FS + " does not exist, so /imagenet cannot be linked to " + BUCKET + "imagenet/",
                e.getMessage());
    }

    @Test
    void fsxRefusingTheLinkFailsTheRequestWithItsMessage() {
        emulator.on(FakeFsx.CREATE, call -> Reply.error(400, "BadRequest", "Amazon FSx is unable to validate access "
                + "to the S3 bucket. Ensure the IAM role or user you are using has s3:Get*, s3:List* and s3:PutObject "
                + "permissions to the S3 bucket prefix."));

        SdkException e = assertThrows(SdkException.class, this::created);

        assertTrue(e.getMessage().startsWith("Amazon FSx is unable to validate access to the S3 bucket."), e.getMessage());
    }

    private DataRepositoryAssociationHandler withoutSdkRetries() {
        FSxClient impatient = emulator.connect(FsxAssociations.clientBuilder().overrideConfiguration(
                ClientOverrideConfiguration.builder().retryStrategy(AwsRetryStrategy.doNotRetry()).build()));
        extraClients.add(impatient);
        return new DataRepositoryAssociationHandler(impatient, s3Client);
    }

    @Test
    void throttlingAndServerErrorsMeanNotCompleteYet() {
        DataRepositoryAssociationHandler impatient = withoutSdkRetries();
        Map<String, Object> event = event("Create", "req-create", imagenet());
        event.putAll(impatient.onEvent(event, context));
        emulator.onSequence(FakeFsx.DESCRIBE, Reply.error(400, "ThrottlingException", "Rate exceeded"),
                Reply.error(500, "InternalServerError", "Internal failure"),
                Reply.error(503, "ServiceUnavailable", "Service unavailable"));

        assertEquals(Map.of("IsComplete", false), impatient.isComplete(event, context), "throttled");
        assertEquals(Map.of("IsComplete", false), impatient.isComplete(event, context), "500");
        assertEquals(Map.of("IsComplete", false), impatient.isComplete(event, context), "503");
        assertEquals(Map.of("IsComplete", false), impatient.isComplete(delete("req-delete", OWNER, imagenet()),
                context), "a delete too");
        assertFalse(targets().contains("CreateDataRepositoryAssociation"));
        assertTrue(context.lines().get(1).startsWith("FSx did not answer (transient, not complete yet): Rate exceeded"),
                context.lines().toString());
    }

    @Test
    void accessDeniedFailsTheRequest() {
        emulator.on(FakeFsx.DESCRIBE, call -> Reply.error(400, "AccessDeniedException", "not authorized"));

        SdkException e = assertThrows(SdkException.class, this::created);

        assertFalse(SdkCalls.isTransient(e));
    }

    @Test
    void malformedPropertiesFailOnEventBeforeAnyCall() {
        Map<String, Object> relative = imagenet();
        relative.put("FileSystemPath", "imagenet");
        Map<String, Object> badChunk = imagenet();
        badChunk.put("ImportedFileChunkSize", "a lot");
        Map<String, Object> badEvent = imagenet();
        badEvent.put("AutoImportEvents", List.of("RENAMED"));

        for (Map<String, Object> properties : List.of(relative, badChunk, badEvent, Map.<String, Object>of())) {
            assertThrows(IllegalArgumentException.class,
                    () -> handler.onEvent(event("Create", "req-1", properties), context), properties.toString());
        }
        assertEquals(List.of(), emulator.calls());
    }
}
