package io.github.trainingdata.cdk.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Finds a file that the Maven build puts on the classpath next to a class (a Lambda bundle such as
 * {@code preload-handler.zip}) and returns a path a CDK asset can use. Inside a jar the file is copied once
 * to a content-addressed temporary file; the asset hash depends on the bytes only, so it is stable across
 * builds and machines.
 */
public final class BundledAsset {
    private BundledAsset() {
    }

    /**
     * Returns the bundle's path on disk.
     *
     * @param anchor the class the bundle sits next to
     * @param name   the bundle's file name
     * @return a path to the bundle's bytes
     * @throws IllegalStateException if the bundle is not on the classpath (the library was not built with Maven)
     */
    public static Path path(Class<?> anchor, String name) {
        URL url = anchor.getResource(name);
        if (url == null) {
            throw new IllegalStateException(name + " is missing from the classpath next to " + anchor.getName()
                    + ": build the library with Maven (process-classes builds it)");
        }
        try {
            if ("file".equals(url.getProtocol())) {
                return Path.of(url.toURI());
            }
            byte[] bytes;
            try (InputStream in = url.openStream()) {
                bytes = in.readAllBytes();
            }
            String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
            Path target = Path.of(System.getProperty("java.io.tmpdir"), "cdk-training-data-" + digest, name);
            if (!Files.exists(target)) {
                Files.createDirectories(target.getParent());
                Path partial = Files.createTempFile(target.getParent(), "bundle", ".part");
                Files.write(partial, bytes);
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stage " + name, e);
        } catch (URISyntaxException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot stage " + name, e);
        }
    }
}
