package io.github.trainingdata.cdk;

import io.github.trainingdata.cdk.internal.BundledAsset;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.storage.handler.EfsDirectoriesHandler;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bundles found next to a class: on disk as they are, inside a jar staged to a content-addressed file. */
class BundledAssetTest {
    @TempDir
    Path dir;

    /** A jar holding a copy of a class and, next to it, {@code bundle.zip} with {@code bytes}. */
    private Path jar(byte[] bytes) throws IOException {
        String classFile = EfsDirectoriesHandler.class.getName().replace('.', '/') + ".class";
        Path jar = dir.resolve("library.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                InputStream in = BundledAssetTest.class.getResourceAsStream("/" + classFile)) {
            out.putNextEntry(new JarEntry(classFile));
            in.transferTo(out);
            out.putNextEntry(new JarEntry(classFile.substring(0, classFile.lastIndexOf('/') + 1) + "bundle.zip"));
            out.write(bytes);
        }
        return jar;
    }

    @Test
    void stagesABundleInsideAJarOnceUnderItsContentHash() throws Exception {
        byte[] bytes = "a bundle staged by BundledAssetTest".getBytes(StandardCharsets.UTF_8);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar(bytes).toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> anchor = loader.loadClass(EfsDirectoriesHandler.class.getName());

            Path staged = BundledAsset.path(anchor, "bundle.zip");

            assertArrayEquals(bytes, Files.readAllBytes(staged));
            assertEquals("bundle.zip", staged.getFileName().toString());
            assertTrue(staged.getParent().getFileName().toString().matches("cdk-training-data-[0-9a-f]{64}"), staged.toString());
            assertEquals(staged, BundledAsset.path(anchor, "bundle.zip"), "the same bytes stage to the same file");
        }
    }

    @Test
    void aMissingBundleSaysHowToBuildIt() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> BundledAsset.path(BundledAssetTest.class, "absent.zip"));
        assertEquals("absent.zip is missing from the classpath next to io.github.trainingdata.cdk.BundledAssetTest: "
                + "build the library with Maven (process-classes builds it)", e.getMessage());
    }
}
