package io.github.trainingdata.cdk.storage.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The handler's real file operations, against a temporary directory standing in for the mounted file system. */
class EfsDirectoriesHandlerTest {
    @TempDir
    Path root;

    private final List<String> log = new ArrayList<>();
    /** The physical id of a resource of logical id {@code EfsDirectoriesExist1A2B3C4D} on the test's file system. */
    private static final String PHYSICAL_ID = "fs-0123456789abcdef0:directories:EfsDirectoriesExist1A2B3C4D";

    private EfsDirectoriesHandler handler() {
        return new EfsDirectoriesHandler(root, log::add);
    }

    private static Map<String, Object> event(String type, List<?> directories) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:framework");
        properties.put("FileSystemId", "fs-0123456789abcdef0");
        properties.put("Directories", directories);
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("RequestType", type);
        event.put("RequestId", "r-1");
        event.put("LogicalResourceId", "EfsDirectoriesExist1A2B3C4D");
        event.put("ResourceProperties", properties);
        if (!type.equals("Create")) {
            event.put("PhysicalResourceId", PHYSICAL_ID);
        }
        return event;
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    @Test
    void createMakesEveryMissingComponentWithMode755() throws IOException {
        Map<String, Object> response = handler().onEvent(event("Create", List.of("/features/imagenet/v2", "/labels")));

        assertEquals(Map.of("PhysicalResourceId", PHYSICAL_ID), response);
        for (String dir : List.of("features", "features/imagenet", "features/imagenet/v2", "labels")) {
            assertTrue(Files.isDirectory(root.resolve(dir)), dir);
            assertEquals("rwxr-xr-x", mode(root.resolve(dir)), dir);
        }
        assertEquals(List.of("Created: /features/imagenet/v2 (missing components with mode 755)",
                "Created: /labels (missing components with mode 755)"), log);
    }

    @Test
    void leavesExistingDirectoriesAndTheirDataExactlyAsTheyAre() throws IOException {
        Path features = Files.createDirectories(root.resolve("features"));
        Files.writeString(features.resolve("part-0"), "data");
        Files.setPosixFilePermissions(features, PosixFilePermissions.fromString("rwx------"));

        handler().onEvent(event("Create", List.of("/features", "/features/new")));

        assertEquals("rwx------", mode(features));
        assertEquals("data", Files.readString(features.resolve("part-0")));
        assertEquals("rwxr-xr-x", mode(features.resolve("new")));
        assertEquals("Exists: /features", log.get(0));
    }

    @Test
    void isIdempotent() {
        handler().onEvent(event("Create", List.of("/features")));
        handler().onEvent(event("Update", List.of("/features")));

        assertEquals(List.of("Created: /features (missing components with mode 755)", "Exists: /features",
                "Directories no longer listed are kept: nothing is ever removed"), log);
    }

    /**
     * The upgrade that moves the directories to the stack's provider adds the directories function's ARN to the
     * properties: an Update with the same directories makes nothing and touches nothing.
     */
    @Test
    @SuppressWarnings("unchecked")
    void anUpdateThatOnlyNamesTheDirectoriesFunctionMakesNothing() throws IOException {
        handler().onEvent(event("Create", List.of("/features/imagenet")));
        Files.writeString(root.resolve("features/imagenet/part-0"), "data");
        Files.setPosixFilePermissions(root.resolve("features"), PosixFilePermissions.fromString("rwx------"));
        log.clear();
        Map<String, Object> update = event("Update", List.of("/features/imagenet"));
        ((Map<String, Object>) update.get("ResourceProperties")).put(EfsDirectoriesHandler.FUNCTION,
                "arn:aws:lambda:us-east-1:123456789012:function:Directories");
        update.put("OldResourceProperties", event("Create", List.of("/features/imagenet")).get("ResourceProperties"));

        Map<String, Object> response = handler().onEvent(update);

        assertEquals(Map.of("PhysicalResourceId", PHYSICAL_ID), response);
        assertEquals(List.of("Exists: /features/imagenet",
                "Directories no longer listed are kept: nothing is ever removed"), log);
        assertEquals("rwx------", mode(root.resolve("features")));
        assertEquals("data", Files.readString(root.resolve("features/imagenet/part-0")));
    }

    @Test
    void updateCreatesNewDirectoriesAndKeepsTheOldOnes() throws IOException {
        handler().onEvent(event("Create", List.of("/old")));
        Files.writeString(root.resolve("old/part-0"), "data");

        Map<String, Object> response = handler().onEvent(event("Update", List.of("/new")));

        assertEquals(PHYSICAL_ID, response.get("PhysicalResourceId"));
        assertTrue(Files.isDirectory(root.resolve("new")));
        assertEquals("data", Files.readString(root.resolve("old/part-0")));
    }

    @Test
    void deleteRemovesNothingAndKeepsThePhysicalId() throws IOException {
        handler().onEvent(event("Create", List.of("/features")));
        Files.writeString(root.resolve("features/part-0"), "data");

        Map<String, Object> response = handler().onEvent(event("Delete", List.of("/features")));

        assertEquals(Map.of("PhysicalResourceId", PHYSICAL_ID), response);
        assertEquals("data", Files.readString(root.resolve("features/part-0")));
        assertEquals("Delete: the directories and their data stay on the file system", log.get(1));
    }

    @Test
    void deleteSucceedsEvenWhenNothingIsMounted() {
        EfsDirectoriesHandler unmounted = new EfsDirectoriesHandler(root.resolve("absent"), log::add);
        assertEquals(PHYSICAL_ID,
                unmounted.onEvent(event("Delete", List.of("/features"))).get("PhysicalResourceId"));
    }

    /**
     * The last release's resource ({@code EfsDirectories108DED9D} in its quickstart, served by a Provider framework of
     * its own) leaves the stack at the upgrade; its framework's onEvent invokes this function (which kept its logical
     * id and runs today's code) with CloudFormation's request as it arrived, the response URL masked, and
     * {@code ResourceProperties} without the function's ARN. Its DeletionPolicy is Retain, so CloudFormation is not
     * expected to send this Delete at all; if it does, it removes nothing and keeps the released physical id.
     */
    @Test
    void theLastReleasesFrameworkDeleteRemovesNothingAndKeepsItsPhysicalId() throws IOException {
        Files.createDirectories(root.resolve("features"));
        Files.writeString(root.resolve("features/part-0"), "data");
        String framework = "arn:aws:lambda:us-east-1:123456789012:function:TrainingDataQuickstart-"
                + "EfsDirectoriesProviderframework-AbCdEfGh1234";
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("ServiceToken", framework);
        properties.put("Directories", List.of("/features"));
        properties.put("FileSystemId", "fs-0123456789abcdef0");
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("RequestType", "Delete");
        event.put("ServiceToken", framework);
        event.put("ResponseURL", "...");
        event.put("StackId", "arn:aws:cloudformation:us-east-1:123456789012:stack/TrainingDataQuickstart/"
                + "5b918d10-cd98-11ea-90d5-0a9cd3354c10");
        event.put("RequestId", "0f6d8a2c-1b7e-4f0e-9a51-3c2d4e5f6a7b");
        event.put("LogicalResourceId", "EfsDirectories108DED9D");
        event.put("PhysicalResourceId", "fs-0123456789abcdef0:directories");
        event.put("ResourceType", "Custom::EfsDirectories");
        event.put("ResourceProperties", properties);

        Map<String, Object> response = handler().onEvent(event);

        assertEquals(Map.of("PhysicalResourceId", "fs-0123456789abcdef0:directories"), response,
                "the framework refuses a Delete answered with another physical id");
        assertEquals("data", Files.readString(root.resolve("features/part-0")));
        assertEquals(List.of("Delete: the directories and their data stay on the file system"), log);
    }

    @Test
    void aResourceOfAnotherLogicalIdOnTheSameFileSystemGetsAnotherPhysicalId() {
        Map<String, Object> released = event("Create", List.of("/features"));
        released.put("LogicalResourceId", "EfsDirectories108DED9D");

        assertEquals("fs-0123456789abcdef0:directories:EfsDirectories108DED9D",
                handler().onEvent(released).get("PhysicalResourceId"));
        assertEquals(PHYSICAL_ID, handler().onEvent(event("Create", List.of("/features"))).get("PhysicalResourceId"));
    }

    @Test
    void normalizesTrailingSlashesDotSegmentsAndRepeatedSlashes() {
        handler().onEvent(event("Create", List.of("/a/./b//c/", "/")));

        assertTrue(Files.isDirectory(root.resolve("a/b/c")));
        assertEquals(List.of("Created: /a/b/c (missing components with mode 755)", "Exists: /"), log);
    }

    @Test
    void underAnAccessPointRootedBelowTheRootItCreatesBelowThatDirectoryAndLeavesOthersAsTheyAre() throws IOException {
        EfsDirectoriesHandler handler = new EfsDirectoriesHandler(root, "/features", log::add);

        handler.onEvent(event("Update", List.of("/features", "/features/imagenet/v2", "/labels")));

        assertTrue(Files.isDirectory(root.resolve("imagenet/v2")));
        assertEquals("rwxr-xr-x", mode(root.resolve("imagenet")));
        assertFalse(Files.exists(root.resolve("labels")));
        assertFalse(Files.exists(root.resolve("features")));
        assertEquals(List.of("Exists: /features", "Created: /features/imagenet/v2 (missing components with mode 755)",
                "Outside the mounted directory /features, left as it is: /labels",
                "Directories no longer listed are kept: nothing is ever removed"), log);
    }

    @Test
    void underAnAccessPointRootedBelowTheRootAFileInTheWayIsNamedFromTheFileSystemsRoot() throws IOException {
        Files.writeString(root.resolve("imagenet"), "not a directory");

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new EfsDirectoriesHandler(root,
                "/features/", log::add).onEvent(event("Create", List.of("/features/imagenet/v2"))));
        assertEquals("/features/imagenet exists on the file system but is not a directory, so /features/imagenet/v2 "
                + "cannot be created: rename or remove that file, or read another directory", e.getMessage());
    }

    @Test
    void aFileInTheWayFailsWithWhatToFix() throws IOException {
        Files.writeString(root.resolve("features"), "not a directory");

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> handler().onEvent(event("Create", List.of("/features/imagenet"))));
        assertEquals("/features exists on the file system but is not a directory, so /features/imagenet cannot be "
                + "created: rename or remove that file, or read another directory", e.getMessage());
        assertEquals("not a directory", Files.readString(root.resolve("features")));
    }

    /**
     * A retried deployment sends the failed Create again with the same RequestId (aws-cdk#35957): nothing is keyed by
     * it, and what the failed delivery made before the file in the way counts as existing, so the retry succeeds once
     * the file is gone, with the same physical id.
     */
    @Test
    void aRetriedCreateSucceedsOnceTheFileInTheWayIsGone() throws IOException {
        Map<String, Object> create = event("Create", List.of("/labels", "/features/imagenet"));
        Files.writeString(root.resolve("features"), "not a directory");
        assertThrows(IllegalStateException.class, () -> handler().onEvent(create));
        assertTrue(Files.isDirectory(root.resolve("labels")), "made before the failure");
        Files.delete(root.resolve("features"));

        assertEquals(Map.of("PhysicalResourceId", PHYSICAL_ID), handler().onEvent(create));
        assertTrue(log.contains("Exists: /labels"), log.toString());

        assertTrue(Files.isDirectory(root.resolve("features/imagenet")));
        assertTrue(Files.isDirectory(root.resolve("labels")));
    }

    @Test
    void aSymbolicLinkToADirectoryOnTheFileSystemCounts() throws IOException {
        Files.createDirectories(root.resolve("datasets/v2"));
        Files.createSymbolicLink(root.resolve("current"), Path.of("datasets/v2"));

        handler().onEvent(event("Create", List.of("/current")));

        assertEquals(List.of("Exists: /current"), log);
    }

    @Test
    void neverCreatesThroughASymbolicLinkThatLeavesTheFileSystem() throws IOException {
        Path outside = Files.createTempDirectory("outside");
        Files.createSymbolicLink(root.resolve("escape"), outside);
        Files.delete(outside);

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> handler().onEvent(event("Create", List.of("/escape/features"))));
        assertTrue(e.getMessage().startsWith("/escape is a symbolic link that does not resolve to a directory on the "
                + "file system, so /escape/features cannot be created under it"), e.getMessage());
        assertFalse(Files.exists(outside));
    }

    @Test
    void checksEveryDirectoryBeforeCreatingAny() {
        for (Object bad : List.of("features", "/features/../etc", "/..", "/" + "d".repeat(4096), 42, "/a\0b")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> handler().onEvent(event("Create", List.of("/first", bad))), String.valueOf(bad));
            assertEquals("ResourceProperties.Directories[1] '" + bad + "' is not an absolute path from the file "
                    + "system's root without '..' of at most 4096 characters", e.getMessage());
        }
        assertFalse(Files.exists(root.resolve("first")));
    }

    @Test
    void acceptsAPathOf4096Characters() {
        EfsDirectoriesHandler unmounted = new EfsDirectoriesHandler(root.resolve("absent"), log::add);
        String path = "/" + "d".repeat(4095);
        assertThrows(IllegalStateException.class, () -> unmounted.onEvent(event("Create", List.of(path))),
                "the path passes the checks; only the missing mount stops it");
        assertThrows(IllegalArgumentException.class, () -> unmounted.onEvent(event("Create", List.of(path + "d"))));
    }

    @Test
    void failsClearlyWhenTheFileSystemIsNotMounted() {
        EfsDirectoriesHandler unmounted = new EfsDirectoriesHandler(root.resolve("absent"), log::add);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> unmounted.onEvent(event("Create", List.of("/features"))));
        assertEquals("The file system is not mounted at " + root.resolve("absent")
                + ": the function needs its EFS access point mounted there", e.getMessage());
    }

    @Test
    void rejectsMalformedEvents() {
        Map<String, Object> noList = event("Create", List.of());
        ((Map<String, Object>) noList.get("ResourceProperties")).put("Directories", "/features");
        assertEquals("ResourceProperties.Directories must be a list of paths",
                assertThrows(IllegalArgumentException.class, () -> handler().onEvent(noList)).getMessage());

        Map<String, Object> unknown = event("Create", List.of());
        unknown.put("RequestType", "Replace");
        assertEquals("Unknown RequestType 'Replace'",
                assertThrows(IllegalArgumentException.class, () -> handler().onEvent(unknown)).getMessage());

        Map<String, Object> noId = event("Create", List.of());
        ((Map<String, Object>) noId.get("ResourceProperties")).remove("FileSystemId");
        assertEquals("ResourceProperties has no FileSystemId",
                assertThrows(IllegalArgumentException.class, () -> handler().onEvent(noId)).getMessage());
    }
}
