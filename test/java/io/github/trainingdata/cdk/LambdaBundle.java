package io.github.trainingdata.cdk;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A Lambda zip bundle of the library's handlers, unpacked into a directory as Lambda lays it out (classes at the root,
 * jars in {@code lib/}), so a test can load the handler from the bundle alone: nothing from the test classpath, only
 * the JDK.
 *
 * @param entries every entry of the zip, in order
 * @param root    where it was unpacked
 */
public record LambdaBundle(List<String> entries, Path root) {
    /**
     * Unpacks the bundle the build put on the classpath.
     *
     * @param resource the bundle's classpath resource, e.g. {@code /io/github/trainingdata/cdk/preload/preload-handler.zip}
     * @param root     an empty directory
     * @return the unpacked bundle
     * @throws IOException if it cannot be read or written
     */
    public static LambdaBundle unpack(String resource, Path root) throws IOException {
        List<String> entries = new ArrayList<>();
        try (InputStream in = LambdaBundle.class.getResourceAsStream(resource)) {
            assertNotNull(in, resource + " is built at process-classes");
            ZipInputStream zip = new ZipInputStream(in);
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                entries.add(entry.getName());
                Path target = root.resolve(entry.getName());
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(zip, target);
                }
            }
        }
        return new LambdaBundle(List.copyOf(entries), root);
    }

    /**
     * @return a class loader over the bundle's classes and its {@code lib/} jars, above the JDK's platform loader only
     * @throws IOException if a path cannot be turned into a URL
     */
    public URLClassLoader classLoader() throws IOException {
        List<URL> urls = new ArrayList<>(List.of(root.toUri().toURL()));
        for (String entry : entries) {
            if (entry.startsWith("lib/") && !entry.endsWith("/")) {
                urls.add(root.resolve(entry).toUri().toURL());
            }
        }
        return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    }
}
