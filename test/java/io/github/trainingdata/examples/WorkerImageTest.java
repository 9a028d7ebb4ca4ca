package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.preload.ShellRun;
import io.github.trainingdata.cdk.preload.WarmUpScript;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What can be checked of the example worker images without a Docker engine: each base image is pinned, each
 * Dockerfile's tool check lists every tool the warm-up script and its entrypoint call (the script runs, through the
 * entrypoint, with exactly those tools on PATH), and the Lustre image installs the userland client from the FSx
 * repository of its base image's release.
 */
class WorkerImageTest {
    private static final Path IMAGES = Path.of("examples/worker-image");
    /** {@code FROM name:<codename>-<yyyymmdd>[.n][-slim]}, optionally with a digest: a dated tag, never a moving one. */
    private static final Pattern PINNED = Pattern.compile(
            "FROM ([a-z0-9./-]+):([a-z]+)-\\d{8}(?:\\.\\d+)?(?:-slim)?(?:@sha256:[0-9a-f]{64})?");
    private static final Pattern TOOLS = Pattern.compile("for tool in ([a-z0-9 ]+); do");
    private static final String FSX_REPOSITORY = "https://fsx-lustre-client-repo.s3.amazonaws.com/ubuntu";
    private static final String FSX_KEY =
            "https://fsx-lustre-client-repo-public-keys.s3.amazonaws.com/fsx-ubuntu-public-key.asc";

    @TempDir
    Path dir;

    private static String dockerfile(String name) throws IOException {
        return Files.readString(IMAGES.resolve(name), StandardCharsets.UTF_8);
    }

    private static Matcher from(String dockerfile) {
        List<String> froms = dockerfile.lines().filter(line -> line.startsWith("FROM ")).toList();
        assertEquals(1, froms.size(), froms.toString());
        Matcher matcher = PINNED.matcher(froms.get(0));
        assertTrue(matcher.matches(), froms.get(0) + " is not pinned to a dated tag");
        return matcher;
    }

    private static List<String> tools(String dockerfile) {
        Matcher matcher = TOOLS.matcher(dockerfile);
        assertTrue(matcher.find(), "no tool check");
        return Arrays.asList(matcher.group(1).trim().split(" +"));
    }

    @Test
    void baseImagesArePinnedToDatedTags() throws IOException {
        assertEquals("debian", from(dockerfile("Dockerfile")).group(1));
        assertEquals("ubuntu", from(dockerfile("Dockerfile.lustre")).group(1));
    }

    @Test
    void theLustreImageChecksTheSameToolsAndLfs() throws IOException {
        List<String> plain = tools(dockerfile("Dockerfile"));
        List<String> lustre = new ArrayList<>(plain);
        lustre.add("lfs");
        assertEquals(lustre, tools(dockerfile("Dockerfile.lustre")));
        assertTrue(dockerfile("Dockerfile.lustre").contains("lfs --version"), "the build runs lfs once");
    }

    @Test
    void theLustreImageInstallsTheUserlandClientFromTheFsxRepositoryOfItsRelease() throws IOException {
        String lustre = dockerfile("Dockerfile.lustre");
        String codename = from(lustre).group(2);
        assertTrue(lustre.contains(FSX_REPOSITORY + " " + codename + " main"), "the repository of " + codename);
        assertTrue(lustre.contains(FSX_KEY), "the repository's key");
        assertTrue(lustre.contains("signed-by=/usr/share/keyrings/fsx-ubuntu-public-key.gpg"));
        assertTrue(lustre.contains("apt-get install -y --no-install-recommends lustre-client-utils"));
        String instructions = String.join("\n", lustre.lines().filter(line -> !line.startsWith("#")).toList());
        assertFalse(instructions.contains("lustre-client-modules"), "kernel modules belong to the host, which mounts");
    }

    @Test
    void theScriptReadsWithOnlyThePlainImagesTools() throws Exception {
        Path root = tree();
        ShellRun run = ShellRun.run(WarmUpScript.load().containerEntrypoint(),
                environment(pathOf(tools(dockerfile("Dockerfile"))), root), dir);
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stdout().contains("preload: reading the first byte of 30 files"), run.stdout());
        assertTrue(run.lastLine().matches("preload done: files=30 bytes=435 seconds=\\d+"), run.stdout());
    }

    @Test
    void theScriptRestoresWithOnlyTheLustreImagesTools() throws Exception {
        Path root = tree();
        List<String> tools = new ArrayList<>(tools(dockerfile("Dockerfile.lustre")));
        tools.remove("lfs");
        Path bin = pathOf(tools);
        // The stand-in lfs runs with the system's tools: only the script is held to the image's.
        Path fake = dir.resolve("fake-lfs.sh");
        try (InputStream in = WorkerImageTest.class.getResourceAsStream("/io/github/trainingdata/cdk/preload/fake-lfs.sh")) {
            Files.copy(in, fake);
        }
        Files.writeString(bin.resolve("lfs"), "#!/bin/sh\nPATH=/usr/bin:/bin exec /bin/sh " + fake + " \"$@\"\n");
        assertTrue(bin.resolve("lfs").toFile().setExecutable(true));
        Map<String, String> environment = environment(bin, root);
        environment.put("FAKE_LFS_STATE", Files.createDirectories(dir.resolve("lfs-state")).toString());

        ShellRun run = ShellRun.run(WarmUpScript.load().containerEntrypoint(), environment, dir);

        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stdout().contains("preload: restoring 30 files (435 bytes)"), run.stdout());
        assertTrue(run.lastLine().matches("preload done: files=30 bytes=435 seconds=\\d+"), run.stdout());
    }

    /** 30 files of 0 to 29 bytes (435 in all) in two directories. */
    private Path tree() throws IOException {
        Path root = Files.createDirectories(dir.resolve("cache"));
        for (int i = 0; i < 30; i++) {
            Path file = root.resolve((i % 2 == 0 ? "train/" : "val/deep/") + "file " + i);
            Files.createDirectories(file.getParent());
            Files.writeString(file, "x".repeat(i));
        }
        return root;
    }

    /** A directory with a link to each tool, from the system's /usr/bin or /bin. */
    private Path pathOf(List<String> tools) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        for (String tool : tools) {
            Path found = Files.isExecutable(Path.of("/usr/bin", tool)) ? Path.of("/usr/bin", tool) : Path.of("/bin", tool);
            assertTrue(Files.isExecutable(found), tool + " is not installed here");
            Files.createSymbolicLink(bin.resolve(tool), found);
        }
        return bin;
    }

    private Map<String, String> environment(Path bin, Path root) throws IOException {
        Map<String, String> environment = new LinkedHashMap<>(WarmUpScript.load().environment());
        environment.put("PATH", bin.toString());
        environment.put("TMPDIR", Files.createDirectories(dir.resolve("tmp")).toString());
        environment.put(WarmUpScript.ROOT_VARIABLE, root.toString());
        environment.put(WarmUpScript.POLL_SECONDS_VARIABLE, "0");
        return environment;
    }
}
