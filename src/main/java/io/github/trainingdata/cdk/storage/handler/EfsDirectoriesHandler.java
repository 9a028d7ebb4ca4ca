package io.github.trainingdata.cdk.storage.handler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Lambda handler of the EFS directories custom resource, invoked with the request by the stack's custom-resource
 * provider (whose function, outside the VPC, answers CloudFormation).
 *
 * <p>Lambda mounts the access point's root directory (the environment variable {@value #ROOT_VARIABLE}, from
 * the file system's root; {@code /} when unset) at {@value #MOUNT_PATH}, acting as root (POSIX user 0:0), so
 * the handler may create directories under it. Create and Update make every directory listed in
 * {@value #DIRECTORIES} exist, with {@code mkdir -p} semantics: each missing component is created with mode 755
 * (owned by the access point's user, readable by every user of a training container), and existing ones are
 * left exactly as they are. Nothing is ever removed: a directory no longer listed stays, and Delete does nothing. A component that
 * exists but is not a directory, or is a symbolic link that does not resolve to a directory inside the file
 * system, fails the request with a message saying what to fix.
 */
public final class EfsDirectoriesHandler {
    /** Where the function mounts the access point (Lambda requires a path under {@code /mnt/}). */
    public static final String MOUNT_PATH = "/mnt/efs";
    /** ResourceProperties key: the file system's id (names the physical resource, with the logical id). */
    public static final String FILE_SYSTEM_ID = "FileSystemId";
    /** ResourceProperties key: the absolute directories, from the file system's root, that must exist. */
    public static final String DIRECTORIES = "Directories";
    /**
     * ResourceProperties key: the ARN of this handler's function, which the stack's custom-resource provider invokes
     * with the request (the function runs in the VPC with the access point mounted; the provider does not).
     */
    public static final String FUNCTION = "DirectoriesFunction";
    /** Environment variable: the access point's root directory (absolute), which is mounted at {@value #MOUNT_PATH}. */
    public static final String ROOT_VARIABLE = "ACCESS_POINT_ROOT";
    /** Longest directory path SageMaker accepts as a channel's DirectoryPath. */
    public static final int MAX_PATH = 4096;

    private static final Set<PosixFilePermission> MODE = PosixFilePermissions.fromString("rwxr-xr-x");

    private final Path mountRoot;
    private final List<String> mountedSegments;
    private final Consumer<String> log;

    /**
     * The handler Lambda instantiates: the access point's root ({@value #ROOT_VARIABLE}) mounted at
     * {@value #MOUNT_PATH}, logging to stdout.
     */
    public EfsDirectoriesHandler() {
        this(Path.of(MOUNT_PATH), Objects.requireNonNullElse(System.getenv(ROOT_VARIABLE), "/"), System.out::println);
    }

    /**
     * A handler working under another mount point that shows the file system's root.
     *
     * @param mountRoot where the file system's root is mounted
     * @param log       receives one line per directory and per decision
     */
    public EfsDirectoriesHandler(Path mountRoot, Consumer<String> log) {
        this(mountRoot, "/", log);
    }

    /**
     * A handler working under another mount point that shows a directory of the file system.
     *
     * @param mountRoot   where {@code mountedPath} is mounted
     * @param mountedPath the mounted directory, absolute from the file system's root
     * @param log         receives one line per directory and per decision
     */
    public EfsDirectoriesHandler(Path mountRoot, String mountedPath, Consumer<String> log) {
        this.mountRoot = Objects.requireNonNull(mountRoot, "mountRoot");
        this.mountedSegments = segments(Objects.requireNonNull(mountedPath, "mountedPath"));
        this.log = Objects.requireNonNull(log, "log");
    }

    /**
     * Handles Create, Update and Delete.
     *
     * @param event the CloudFormation request
     * @return {@code PhysicalResourceId}: {@code <FileSystemId>:directories:<LogicalResourceId>} (unique among the
     *         resources of a provider, as CloudFormation asks, also beside the last release's resource of another
     *         logical id on the same file system), unchanged on Delete
     * @throws IllegalArgumentException if the event or its properties are malformed
     * @throws IllegalStateException    if the file system is not mounted or a directory cannot be created
     */
    public Map<String, Object> onEvent(Map<String, Object> event) {
        String requestType = string(event, "RequestType", "the event");
        Map<?, ?> properties = map(event, "ResourceProperties");
        switch (requestType) {
            case "Create", "Update" -> {
                String fileSystemId = string(properties, FILE_SYSTEM_ID, "ResourceProperties");
                List<List<String>> directories = directories(properties);
                if (!Files.isDirectory(mountRoot)) {
                    throw new IllegalStateException("The file system is not mounted at " + mountRoot
                            + ": the function needs its EFS access point mounted there");
                }
                for (List<String> segments : directories) {
                    ensure(segments);
                }
                if (requestType.equals("Update")) {
                    log.accept("Directories no longer listed are kept: nothing is ever removed");
                }
                return physicalId(fileSystemId + ":directories:" + string(event, "LogicalResourceId", "the event"));
            }
            case "Delete" -> {
                log.accept("Delete: the directories and their data stay on the file system");
                return physicalId(string(event, "PhysicalResourceId", "the event"));
            }
            default -> throw new IllegalArgumentException("Unknown RequestType '" + requestType + "'");
        }
    }

    private static Map<String, Object> physicalId(String id) {
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("PhysicalResourceId", id);
        return response;
    }

    /** Checks every listed directory before creating any, and splits it into its segments. */
    private static List<List<String>> directories(Map<?, ?> properties) {
        if (!(properties.get(DIRECTORIES) instanceof List<?> list)) {
            throw new IllegalArgumentException("ResourceProperties." + DIRECTORIES + " must be a list of paths");
        }
        List<List<String>> checked = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            Object value = list.get(i);
            String path = value instanceof String s ? s : null;
            boolean valid = path != null && path.startsWith("/") && path.length() <= MAX_PATH && path.indexOf('\0') < 0
                    && !List.of(path.split("/")).contains("..");
            if (!valid) {
                throw new IllegalArgumentException("ResourceProperties." + DIRECTORIES + "[" + i + "] '" + value
                        + "' is not an absolute path from the file system's root without '..' of at most " + MAX_PATH
                        + " characters");
            }
            checked.add(segments(path));
        }
        return checked;
    }

    /** The non-empty segments of an absolute path other than {@code .}. */
    private static List<String> segments(String path) {
        List<String> segments = new ArrayList<>();
        for (String segment : path.split("/")) {
            if (!segment.isEmpty() && !segment.equals(".")) {
                segments.add(segment);
            }
        }
        return segments;
    }

    /**
     * Makes {@code /segments...} exist, creating only what is missing below the mounted directory. A directory
     * outside it is left as it is: the construct mounts the directory all listed ones share, so this happens
     * only when CloudFormation rolls back to the list an earlier access point served, whose directories exist.
     */
    private void ensure(List<String> segments) {
        String shown = "/" + String.join("/", segments);
        String mounted = "/" + String.join("/", mountedSegments);
        if (segments.size() < mountedSegments.size() || !segments.subList(0, mountedSegments.size()).equals(mountedSegments)) {
            log.accept("Outside the mounted directory " + mounted + ", left as it is: " + shown);
            return;
        }
        List<String> below = segments.subList(mountedSegments.size(), segments.size());
        Path target = below.stream().reduce(mountRoot, Path::resolve, (a, b) -> b);
        if (Files.isDirectory(target)) {
            log.accept("Exists: " + shown);
            return;
        }
        Path current = mountRoot;
        StringBuilder walked = new StringBuilder(mounted.equals("/") ? "" : mounted);
        for (String segment : below) {
            current = current.resolve(segment);
            walked.append('/').append(segment);
            if (Files.isSymbolicLink(current)) {
                throw new IllegalStateException(walked + " is a symbolic link that does not resolve to a directory on "
                        + "the file system, so " + shown + " cannot be created under it: point the channel at the "
                        + "link's target, or replace the link with a directory");
            }
            if (Files.isDirectory(current, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            if (Files.exists(current, LinkOption.NOFOLLOW_LINKS)) {
                throw new IllegalStateException(walked + " exists on the file system but is not a directory, so "
                        + shown + " cannot be created: rename or remove that file, or read another directory");
            }
            createDirectory(current, walked.toString());
        }
        log.accept("Created: " + shown + " (missing components with mode 755)");
    }

    private void createDirectory(Path directory, String shown) {
        try {
            Files.createDirectory(directory);
            Files.setPosixFilePermissions(directory, MODE);
        } catch (FileAlreadyExistsException e) {
            // Another writer created it meanwhile: fine if it is a directory.
            if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
                throw new IllegalStateException(shown + " appeared on the file system as something other than a "
                        + "directory while it was being created", e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create " + shown + " on the file system: " + e, e);
        }
    }

    private static String string(Map<?, ?> map, String key, String where) {
        Object value = map.get(key);
        if (!(value instanceof String s) || s.isEmpty()) {
            throw new IllegalArgumentException(where + " has no " + key);
        }
        return s;
    }

    private static Map<?, ?> map(Map<?, ?> event, String key) {
        if (!(event.get(key) instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("The event has no " + key + " object");
        }
        return map;
    }
}
