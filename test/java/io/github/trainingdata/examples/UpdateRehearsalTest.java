package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.PythonTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The update rehearsal ({@code .ci/rehearse.py}) on small planted pairs of templates: each case is a deployed app
 * and one change to it, and the rehearsal must say what CloudFormation does to each resource and fail exactly where
 * the update would fail. All cases run in one catalogue (one Python start); the plain two-directory form is
 * checked on a clean change. Skipped without Python 3 and cfn-lint, except under {@code CI=true}.
 */
class UpdateRehearsalTest {
    private static final String TOKEN = "arn:aws:lambda:us-east-1:123456789012:function:provider";
    /** A data stack: a cache with its group and one association, a preload, a bucket, a function and a reader. */
    private static final String DATA = """
            {"Resources": {
              "Group": {"Type": "AWS::EC2::SecurityGroup",
                "Properties": {"GroupDescription": "cache", "VpcId": "vpc-0a1b2c3d"}},
              "Cache": {"Type": "AWS::FSx::FileSystem", "Properties": {"FileSystemType": "LUSTRE",
                "StorageCapacity": 1200, "SubnetIds": ["subnet-0a1b2c3d"],
                "SecurityGroupIds": [{"Fn::GetAtt": ["Group", "GroupId"]}],
                "LustreConfiguration": {"DeploymentType": "SCRATCH_2"}}},
              "Imagenet": {"Type": "AWS::FSx::DataRepositoryAssociation", "Properties": {
                "FileSystemId": {"Ref": "Cache"}, "FileSystemPath": "/imagenet",
                "DataRepositoryPath": "s3://team-data/imagenet/"}},
              "Preload": {"Type": "Custom::LustrePreload", "Properties": {"ServiceToken": "%s",
                "FileSystemId": {"Ref": "Cache"},
                "WarmKey": {"Fn::Join": ["", ["[\\"", {"Ref": "Cache"}, "\\",\\"version-1\\"]"]]}}},
              "Bucket": {"Type": "AWS::S3::Bucket", "DeletionPolicy": "Retain", "UpdateReplacePolicy": "Retain",
                "Properties": {"BucketName": "team-data"}},
              "Handler": {"Type": "AWS::Lambda::Function", "Properties": {"Runtime": "java21",
                "Handler": "a.Handler::handle", "Role": "arn:aws:iam::123456789012:role/handler",
                "Code": {"S3Bucket": "assets", "S3Key": "handler-1.zip"}}},
              "Reader": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String",
                "Value": {"Fn::Sub": "${Cache.DNSName} via ${Handler.Arn}"}}}
            },
            "Outputs": {"CacheId": {"Value": {"Ref": "Cache"}, "Export": {"Name": "Data:CacheId"}},
              "WarmedBy": {"Value": {"Fn::GetAtt": ["Preload", "ExecutionArn"]}}}}
            """.formatted(TOKEN);
    /** A training stack that imports the data stack's export. */
    private static final String IMPORTING = """
            {"Resources": {"Request": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String",
              "Value": {"Fn::ImportValue": "Data:CacheId"}}}}}
            """;
    /** A training stack that reads the data stack's output with a weak reference. */
    private static final String READING = """
            {"Resources": {"Request": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String",
              "Value": {"Fn::GetStackOutput": {"StackName": "Data", "OutputName": "WarmedBy"}}}}}}
            """;
    /** Two custom associations of the library's own type on an existing file system. */
    private static final String CUSTOM = """
            {"Resources": {
              "Imagenet": {"Type": "Custom::DataRepositoryAssociation", "Properties": {"ServiceToken": "%1$s",
                "FileSystemId": "fs-0a1b2c3d4e5f60718", "FileSystemPath": "/imagenet",
                "DataRepositoryPath": "s3://team-data/imagenet/"}},
              "Coco": {"Type": "Custom::DataRepositoryAssociation", "Properties": {"ServiceToken": "%1$s",
                "FileSystemId": "fs-0a1b2c3d4e5f60718", "FileSystemPath": "/coco",
                "DataRepositoryPath": "s3://team-data/coco/"}}}}
            """.formatted(TOKEN);

    /** The data stack with a PERSISTENT_2 cache: a tier, provisioned metadata IOPS and a key at rest. */
    private static final String PERSISTENT = DATA.replace("\"LustreConfiguration\": {\"DeploymentType\": \"SCRATCH_2\"}",
            "\"KmsKeyId\": \"arn:aws:kms:us-east-1:123456789012:key/k1\", \"LustreConfiguration\": {\"DeploymentType\": "
                    + "\"PERSISTENT_2\", \"PerUnitStorageThroughput\": 500, \"MetadataConfiguration\": "
                    + "{\"Mode\": \"USER_PROVISIONED\", \"Iops\": 6000}}");

    /** The quickstart's stack, whose last release (test/resources/release-baseline) is upgraded to its snapshot. */
    private static final String QUICKSTART = "TrainingDataQuickstart";

    @TempDir
    static Path dir;
    private static final Map<String, JsonNode> REPORTS = new TreeMap<>();
    private static final List<Map<String, Object>> CHANGES = new ArrayList<>();

    @BeforeAll
    static void rehearseEveryCase() throws IOException, InterruptedException {
        PythonTools.require("cfnlint", "the update rehearsal");
        plant("clean", null, Map.of("Data", DATA), Map.of("Data", DATA
                .replace("\"StorageCapacity\": 1200", "\"StorageCapacity\": 2400")
                .replace("handler-1.zip", "handler-2.zip")));
        plant("propagation", null, Map.of("Data", DATA), Map.of("Data", DATA.replace("\"cache\"", "\"cache v2\"")));
        plant("association-moved", "yes", Map.of("Data", DATA), Map.of("Data", DATA
                .replace("s3://team-data/imagenet/", "s3://team-data/imagenet-2026/")
                .replace("version-1", "version-2")));
        plant("custom-association-moved", null, Map.of("Data", CUSTOM), Map.of("Data", CUSTOM
                .replace("s3://team-data/imagenet/", "s3://team-data/imagenet-2026/")));
        plant("custom-association-onto-another", null, Map.of("Data", CUSTOM), Map.of("Data", CUSTOM
                .replace("\"/imagenet\"", "\"/coco/imagenet\"")));
        plant("service-token", null, Map.of("Data", CUSTOM), Map.of("Data", CUSTOM.replace(TOKEN, TOKEN + "-shared")));
        plant("bucket-renamed", null, Map.of("Data", DATA), Map.of("Data", DATA
                .replace("\"team-data\"", "\"team-data-2\"")));
        plant("imported-export", null, Map.of("Data", DATA, "Training", IMPORTING),
                Map.of("Data", DATA.replace("[\"subnet-0a1b2c3d\"]", "[\"subnet-0e1f2a3b\"]"), "Training", IMPORTING));
        plant("weak-reference", "yes", Map.of("Data", DATA, "Training", READING),
                Map.of("Data", DATA.replace("version-1", "version-2"), "Training", READING));
        plant("unexpected-rewarm", "no", Map.of("Data", DATA), Map.of("Data", DATA.replace("version-1", "version-2")));
        plant("missing-rewarm", "yes", Map.of("Data", DATA), Map.of("Data", DATA
                .replace("\"StorageCapacity\": 1200", "\"StorageCapacity\": 2400")));
        plant("notifications", null, Map.of("Data", DATA), Map.of("Data", DATA.replace("\"BucketName\": \"team-data\"}",
                "\"BucketName\": \"team-data\", \"NotificationConfiguration\": {\"EventBridgeConfiguration\": "
                        + "{\"EventBridgeEnabled\": true}}}")));
        plant("shrink", null, Map.of("Data", DATA), Map.of("Data", DATA
                .replace("\"StorageCapacity\": 1200", "\"StorageCapacity\": 1000")));
        plant("persistent-tier", null, Map.of("Data", PERSISTENT), Map.of("Data", PERSISTENT
                .replace("\"PerUnitStorageThroughput\": 500", "\"PerUnitStorageThroughput\": 1000")));
        plant("metadata-iops-raised", "no", Map.of("Data", PERSISTENT), Map.of("Data", PERSISTENT
                .replace("\"Iops\": 6000", "\"Iops\": 12000")));
        plant("metadata-iops-lowered", null, Map.of("Data", PERSISTENT), Map.of("Data", PERSISTENT
                .replace("\"Iops\": 6000", "\"Iops\": 3000")));
        plant("metadata-added", null, Map.of("Data", PERSISTENT.replace(", \"MetadataConfiguration\": "
                + "{\"Mode\": \"USER_PROVISIONED\", \"Iops\": 6000}", "")), Map.of("Data", PERSISTENT));
        String automatic = PERSISTENT.replace("{\"Mode\": \"USER_PROVISIONED\", \"Iops\": 6000}",
                "{\"Mode\": \"AUTOMATIC\"}");
        plant("metadata-automatic", null, Map.of("Data", PERSISTENT), Map.of("Data", automatic));
        plant("metadata-automatic-expected", null, Map.of("Data", PERSISTENT), Map.of("Data", automatic))
                .put("expectedFindings", List.of("metadata-automatic"));
        plant("expected-missing", null, Map.of("Data", PERSISTENT), Map.of("Data", PERSISTENT
                .replace("\"Iops\": 6000", "\"Iops\": 12000"))).put("expectedFindings", List.of("metadata-automatic"));
        plant("first-create", null, Map.of(), Map.of("Data", DATA));
        plant("first-create-deleting-bucket", null, Map.of(), Map.of("Data", DATA
                .replace("\"DeletionPolicy\": \"Retain\", \"UpdateReplacePolicy\": \"Retain\"",
                        "\"DeletionPolicy\": \"RetainExceptOnCreate\", \"UpdateReplacePolicy\": \"Retain\"")));
        plant("first-create-emptied-bucket", null, Map.of(), Map.of("Data", DATA
                .replace("\"DeletionPolicy\": \"Retain\", \"UpdateReplacePolicy\": \"Retain\",", "")
                .replace("\"Handler\": {", "\"Emptier\": {\"Type\": \"Custom::S3AutoDeleteObjects\", \"Properties\": "
                        + "{\"ServiceToken\": \"" + TOKEN + "\", \"BucketName\": {\"Ref\": \"Bucket\"}}},\n\"Handler\": {")));
        plant("scratch-to-persistent", null, Map.of("Data", DATA), Map.of("Data", PERSISTENT));
        plant("key-at-rest", null, Map.of("Data", PERSISTENT), Map.of("Data", PERSISTENT.replace("key/k1", "key/k2")));
        plant("library-upgrade", "yes", Map.of(QUICKSTART, Files.readString(Path.of(
                "test/resources/release-baseline/quickstart/" + QUICKSTART + ".template.json"))),
                Map.of(QUICKSTART, Files.readString(Path.of("test/resources/snapshots/Quickstart.json"))));
        Files.writeString(dir.resolve("catalogue.json"), Json.MAPPER.writeValueAsString(Map.of("changes", CHANGES)));

        Path report = dir.resolve("report.json");
        run("--catalogue", dir.toString(), "--json", report.toString());
        for (JsonNode change : Json.MAPPER.readTree(report.toFile()).get("changes")) {
            REPORTS.put(change.get("change").asText(), change);
        }
    }

    @Test
    void aCleanChangeUpdatesInPlaceAndPasses() throws IOException, InterruptedException {
        JsonNode clean = REPORTS.get("clean");
        assertEquals(Map.of("Data/Cache", "updated", "Data/Handler", "updated"), states(clean),
                "a function updated in place keeps its ARN: the parameter reading it does not change");
        assertEquals(List.of(), findings(clean));
        assertEquals(false, clean.get("rewarm").asBoolean());

        Path report = dir.resolve("clean-report.json");
        assertEquals(0, run(dir.resolve("clean/before").toString(), dir.resolve("clean/after").toString(),
                "--json", report.toString()), "the two-directory form exits 0 without failures");
    }

    @Test
    void aReplacementPropagatesThroughRefGetAttAndSub() {
        JsonNode report = REPORTS.get("propagation");
        Map<String, String> expected = new TreeMap<>(Map.of(
                "Data/Group", "replaced",     // GroupDescription is create-only
                "Data/Cache", "replaced",     // SecurityGroupIds (GetAtt Group.GroupId) is create-only
                "Data/Imagenet", "replaced",  // FileSystemId (Ref Cache) is create-only
                "Data/Preload", "updated",    // its WarmKey joins Ref Cache: a re-warm
                "Data/Reader", "updated"));   // Fn::Sub of ${Cache.DNSName}
        assertEquals(expected, states(report));
        assertTrue(report.get("rewarm").asBoolean(), "a replaced cache is warmed again");
        assertEquals(List.of("lustre-replaced Data/Cache"), findings(report), "the replaced cache fails the change; "
                + "the new association is on the new file system, so it meets no old one");
        assertTrue(report.get("replacements").toString().contains("Data/Cache <- SecurityGroupIds"),
                report.get("replacements").toString());
    }

    @Test
    void anAssociationMovedToAnotherS3PrefixCollidesWithItsOwnReplacement() {
        assertEquals(List.of("association-collision Data/Imagenet"), findings(REPORTS.get("association-moved")),
                "CloudFormation creates the replacement on the same file-system path before it deletes the old one");
        assertEquals("replaced", states(REPORTS.get("association-moved")).get("Data/Imagenet"));
    }

    @Test
    void theLibrarysCustomAssociationMovesInPlaceButMayNotMeetAnotherOnes() {
        assertEquals(Map.of("Data/Imagenet", "updated"), states(REPORTS.get("custom-association-moved")));
        assertEquals(List.of(), findings(REPORTS.get("custom-association-moved")),
                "it deletes its old association before it creates the new one");
        assertEquals(List.of("association-collision Data/Imagenet"),
                findings(REPORTS.get("custom-association-onto-another")), "/coco/imagenet nests in /coco");
    }

    /** CloudFormation refuses a custom resource's new ServiceToken ("Modifying service token is not allowed"). */
    @Test
    void aCustomResourceMovedToAnotherProviderFailsSinceItsServiceTokenCannotChange() {
        // (the registry schema also counts it a replacement, under which the two associations would collide)
        assertEquals(List.of("service-token-changed Data/Coco", "service-token-changed Data/Imagenet"),
                findings(REPORTS.get("service-token")).stream().filter(f -> f.startsWith("service-token"))
                        .sorted().toList());
    }

    /**
     * The quickstart's library upgrade, from the last release's template to today's snapshot: the release served the
     * preload and the EFS directories with providers of their own, whose tokens CloudFormation cannot change, so
     * their custom resources leave the stack with those providers and resources of new logical ids on the stack's
     * provider take their place; no custom resource changes its token.
     */
    @Test
    void theLibraryUpgradeReplacesTheReleasedCustomResourcesInsteadOfChangingTheirServiceTokens() {
        JsonNode report = REPORTS.get("library-upgrade");
        Map<String, String> states = states(report);
        for (String removed : List.of("Preload180FEAD3", "PreloadProviderframeworkonEvent572E78D6",
                "PreloadOnEventFDFC1648", "PreloadProviderwaiterstatemachine91702EAE", "EfsDirectories108DED9D",
                "EfsDirectoriesProviderframeworkonEvent74D13160")) {
            assertEquals("deleted", states.get(QUICKSTART + "/" + removed), removed);
        }
        for (String added : List.of("PreloadWarmUp14F8B94B", "EfsDirectoriesExist4E0F56A5",
                "CustomResourceProviderHandler0396E4D6", "CustomResourceProviderwaiterstatemachineA1F4877C")) {
            assertEquals("added", states.get(QUICKSTART + "/" + added), added);
        }
        assertEquals("updated", states.get(QUICKSTART + "/EfsDirectoriesFunctionBD3B4858"),
                "the directories function keeps its logical id (and its ARN), updated in place");
        List<String> findings = findings(report);
        assertTrue(findings.stream().noneMatch(f -> f.startsWith("service-token-changed")), findings.toString());
        assertTrue(findings.contains("stateful-deleted " + QUICKSTART + "/EfsDirectories108DED9D"),
                "the released directories record is retained (DeletionPolicy Retain) as it leaves: " + findings);
        assertTrue(report.get("rewarm").asBoolean(), "the new preload resource warms the new cache");
    }

    /**
     * The last release's preload is deleted in the upgrade's cleanup through its own provider, so everything that Delete
     * runs on must still be there as the release left it: the functions, roles, policies, waiter, log groups and key the
     * preload refers to, transitively (Ref, Fn::GetAtt, DependsOn), up to the preload state machine, which its handlers
     * only name. Each leaves the template (the update does not touch what it removes, and the cleanup deletes it after
     * the preload, which refers to it) or stays unchanged; the preload state machine, whose executions the Delete stops
     * by ARN, is updated in place under its generated name (no StateMachineName), so its ARN is the one the old handlers
     * were given.
     */
    @Test
    void theLastReleasesPreloadIsDeletedThroughItsProviderAsReleased() throws IOException {
        JsonNode baseline = Json.MAPPER.readTree(Path.of("test/resources/release-baseline/quickstart/" + QUICKSTART
                + ".template.json").toFile()).get("Resources");
        JsonNode preload = baseline.get("Preload180FEAD3");
        String machine = preload.at("/Properties/StateMachineArn/Ref").asText();
        Deque<String> next = new ArrayDeque<>(List.of(preload.at("/Properties/ServiceToken/Fn::GetAtt/0").asText()));
        Set<String> chain = new TreeSet<>();
        while (!next.isEmpty()) {
            String id = next.pop();
            if (!id.equals(machine) && chain.add(id)) {
                references(baseline.get(id), baseline, next);
            }
        }
        Map<String, String> states = states(REPORTS.get("library-upgrade"));
        for (String id : chain) {
            String state = states.get(QUICKSTART + "/" + id);
            assertTrue(state == null || state.equals("deleted"), id + " is " + state + " before the cleanup");
        }
        assertTrue(chain.containsAll(List.of("PreloadProviderframeworkonEvent572E78D6", "PreloadOnEventFDFC1648",
                "PreloadIsComplete0FBEFB42", "PreloadProviderwaiterstatemachine91702EAE",
                "PreloadIsCompleteServiceRoleDefaultPolicyF74A5CAB", "DataBucketKeyF77F009F")), chain.toString());
        assertEquals("updated", states.get(QUICKSTART + "/" + machine));
        JsonNode now = Json.MAPPER.readTree(Path.of("test/resources/snapshots/Quickstart.json").toFile())
                .get("Resources").get(machine);
        assertTrue(!baseline.get(machine).get("Properties").has("StateMachineName")
                && !now.get("Properties").has("StateMachineName"), "the state machine keeps its generated name");
    }

    /** Adds the resources {@code node} refers to (Ref, Fn::GetAtt, DependsOn) to {@code found}. */
    private static void references(JsonNode node, JsonNode resources, Deque<String> found) {
        node.fields().forEachRemaining(field -> {
            JsonNode value = field.getValue();
            if (field.getKey().equals("Ref") && resources.has(value.asText())) {
                found.add(value.asText());
            } else if (field.getKey().equals("Fn::GetAtt")) {
                found.add(value.get(0).asText());
            } else if (field.getKey().equals("DependsOn")) {
                if (value.isTextual()) {
                    found.add(value.asText());
                }
                value.forEach(id -> found.add(id.asText()));
            } else if (value.isContainerNode()) {
                if (value.isArray()) {
                    value.forEach(item -> references(item, resources, found));
                } else {
                    references(value, resources, found);
                }
            }
        });
    }

    @Test
    void aReplacedBucketFails() {
        assertEquals(Map.of("Data/Bucket", "replaced"), states(REPORTS.get("bucket-renamed")));
        assertEquals(List.of("stateful-replaced Data/Bucket"), findings(REPORTS.get("bucket-renamed")));
    }

    @Test
    void aChangedNotificationConfigurationFailsSinceItRemovesFsxsAutoImportNotification() {
        assertEquals(Map.of("Data/Bucket", "updated"), states(REPORTS.get("notifications")));
        assertEquals(List.of("notifications-rewritten Data/Bucket"), findings(REPORTS.get("notifications")));
    }

    @Test
    void aChangedExportThatAnotherStackImportsFails() {
        JsonNode report = REPORTS.get("imported-export");
        assertTrue(findings(report).contains("export-changed Data/Data:CacheId"), findings(report).toString());
        assertEquals("updated", states(report).get("Training/Request"), "the importer gets the new value");
    }

    @Test
    void aWeakReferenceToAValueThatChangesFailsWhenItsReaderIsNotDeployedAgain() {
        JsonNode report = REPORTS.get("weak-reference");
        assertEquals(List.of("stale-stack-output Training/Data.WarmedBy"), findings(report));
        assertEquals(Map.of("Data/Preload", "updated"), states(report));
    }

    @Test
    void aReWarmThatShouldNotHappenFailsAndOneThatShouldButDoesNotFailsToo() {
        assertEquals(List.of("rewarm-unexpected Data/Preload"), findings(REPORTS.get("unexpected-rewarm")));
        assertEquals(List.of("rewarm-missing Data/Preload"), findings(REPORTS.get("missing-rewarm")));
    }

    @Test
    void aFindingAcknowledgedForItsChangeAndResourceNoLongerFails() throws IOException, InterruptedException {
        ObjectNode config = (ObjectNode) Json.MAPPER.readTree(Path.of(".ci/rehearse.json").toFile());
        config.putArray("acknowledged").addObject().put("change", "bucket-renamed").put("stack", "Data")
                .put("resource", "Bucket").put("finding", "stateful-replaced")
                .put("reason", "the old bucket is emptied and kept; the team moved to the new name on purpose");
        Path acknowledging = dir.resolve("acknowledging.json");
        Json.MAPPER.writeValue(acknowledging.toFile(), config);
        Path report = dir.resolve("acknowledged-report.json");

        assertEquals(0, run("--config", acknowledging.toString(), "--name", "bucket-renamed", "--json",
                report.toString(), dir.resolve("bucket-renamed/before").toString(),
                dir.resolve("bucket-renamed/after").toString()));
        JsonNode finding = Json.MAPPER.readTree(report.toFile()).get("changes").get(0).get("findings").get(0);
        assertEquals("stateful-replaced", finding.get("finding").asText());
        assertTrue(finding.get("acknowledged").asText().startsWith("the old bucket"), finding.toString());
        assertEquals(1, run("--config", acknowledging.toString(), "--name", "another-change",
                dir.resolve("bucket-renamed/before").toString(), dir.resolve("bucket-renamed/after").toString()),
                "the acknowledgement holds for its change only");
    }

    @Test
    void aCapacityThatShrinksFails() {
        assertEquals(List.of("shrink Data/Cache"), findings(REPORTS.get("shrink")));
    }

    @Test
    void morePersistent2MetadataIopsChangeInPlace() {
        assertEquals(Map.of("Data/Cache", "updated"), states(REPORTS.get("metadata-iops-raised")));
        assertEquals(List.of(), findings(REPORTS.get("metadata-iops-raised")));
        assertEquals(false, REPORTS.get("metadata-iops-raised").get("rewarm").asBoolean());
    }

    @Test
    void aPersistent2TierChangeReplacesTheCache() {
        JsonNode tier = REPORTS.get("persistent-tier");
        assertEquals("replaced", states(tier).get("Data/Cache"), "CloudFormation's resource specification replaces "
                + "the file system for LustreConfiguration.PerUnitStorageThroughput (.ci/rehearse.json)");
        assertTrue(findings(tier).contains("lustre-replaced Data/Cache"), findings(tier).toString());
        assertTrue(tier.get("replacements").toString().contains("LustreConfiguration/PerUnitStorageThroughput"),
                tier.get("replacements").toString());
        assertTrue(tier.get("rewarm").asBoolean(), "the new file system is warmed");
    }

    @Test
    void fewerMetadataIopsOrAMetadataConfigurationAddedLaterFail() {
        assertEquals(List.of("shrink Data/Cache"), findings(REPORTS.get("metadata-iops-lowered")));
        assertEquals(List.of("fixed-at-creation Data/Cache"), findings(REPORTS.get("metadata-added")));
    }

    @Test
    void switchingProvisionedMetadataIopsToAutomaticFails() {
        JsonNode report = REPORTS.get("metadata-automatic");
        assertEquals(Map.of("Data/Cache", "updated"), states(report));
        assertEquals(List.of("metadata-automatic Data/Cache"), findings(report));
        assertTrue(report.get("findings").get(0).get("message").asText().contains("USER_PROVISIONED (6000 IOPS) to "
                + "AUTOMATIC at 1200 GiB"), report.toString());
    }

    @Test
    void anExpectedFindingPassesAndAMissingOneFails() {
        JsonNode expected = REPORTS.get("metadata-automatic-expected");
        assertEquals(List.of("metadata-automatic Data/Cache"), findings(expected));
        assertTrue(expected.get("findings").get(0).get("expected").asBoolean(), expected.toString());
        assertEquals(List.of("expected-missing -/-"), findings(REPORTS.get("expected-missing")));
    }

    @Test
    void aFailedFirstCreateRollsBackOnlyWhenItsBucketsAreRetainedOrEmptiedFirst() {
        assertEquals(List.of(), findings(REPORTS.get("first-create")), "the bucket is retained");
        assertEquals(List.of("rollback-undeletable Data/Bucket"), findings(REPORTS.get("first-create-deleting-bucket")));
        assertEquals(List.of(), findings(REPORTS.get("first-create-emptied-bucket")),
                "a bucket auto-emptied before its delete (DESTROY) can be deleted");
        assertEquals("added", states(REPORTS.get("first-create")).get("Data/Bucket"));
    }

    @Test
    void anotherDeploymentTypeOrKeyAtRestReplacesTheCache() {
        JsonNode switched = REPORTS.get("scratch-to-persistent");
        assertEquals("replaced", states(switched).get("Data/Cache"));
        assertTrue(findings(switched).contains("lustre-replaced Data/Cache"), findings(switched).toString());
        assertTrue(switched.get("replacements").toString().contains("LustreConfiguration/DeploymentType"),
                switched.get("replacements").toString());
        assertTrue(switched.get("rewarm").asBoolean(), "the new file system is warmed");
        JsonNode key = REPORTS.get("key-at-rest");
        assertTrue(findings(key).contains("lustre-replaced Data/Cache"), findings(key).toString());
        assertTrue(key.get("replacements").toString().contains("Data/Cache <- KmsKeyId"), key.get("replacements")
                .toString());
    }

    // ------------------------------------------------------------------------------------------ helpers

    /**
     * Writes one case's before and after directories (stack name to template) and its catalogue entry.
     *
     * @return the entry, for more settings
     */
    private static Map<String, Object> plant(String name, String rewarm, Map<String, String> before, Map<String, String> after)
            throws IOException {
        for (Map.Entry<String, Map<String, String>> side : Map.of("before", before, "after", after).entrySet()) {
            Path sideDir = Files.createDirectories(dir.resolve(name).resolve(side.getKey()));
            for (Map.Entry<String, String> stack : side.getValue().entrySet()) {
                Files.writeString(sideDir.resolve(stack.getKey() + ".template.json"), stack.getValue());
            }
        }
        Map<String, Object> change = new LinkedHashMap<>();
        change.put("id", name);
        change.put("before", name + "/before");
        change.put("after", name + "/after");
        change.put("rewarm", rewarm);
        CHANGES.add(change);
        return change;
    }

    private static int run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("python3", ".ci/rehearse.py", "--config", ".ci/rehearse.json"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the rehearsal ends");
        assertTrue(process.exitValue() <= 1, "the rehearsal ran: " + output);
        return process.exitValue();
    }

    private static Map<String, String> states(JsonNode report) {
        Map<String, String> states = new TreeMap<>();
        report.get("states").fields().forEachRemaining(e -> states.put(e.getKey(), e.getValue().asText()));
        return states;
    }

    /** The failures as "finding stack/resource", in the order reported. */
    private static List<String> findings(JsonNode report) {
        List<String> out = new ArrayList<>();
        report.get("findings").forEach(f -> out.add(f.get("finding").asText() + " " + f.get("stack").asText() + "/"
                + f.get("resource").asText()));
        return out;
    }
}
