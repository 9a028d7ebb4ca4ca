package io.github.trainingdata.cdk.preload;

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
 * Finds the preload Lambda bundle that the Maven build puts next to this class
 * ({@code preload-handler.zip}: handler classes plus AWS SDK jars). Inside a jar it is copied once to a
 * content-addressed temporary file, since a CDK asset needs a path; the asset hash depends on the bytes
 * only, so it is stable across builds and machines.
 */
final class HandlerBundle {
    static final String RESOURCE = "preload-handler.zip";

    private HandlerBundle() {
    }

    static Path path() {
        URL url = HandlerBundle.class.getResource(RESOURCE);
        if (url == null) {
            throw new IllegalStateException(RESOURCE + " is missing from the classpath next to "
                    + HandlerBundle.class.getName() + ": build the library with Maven (process-classes builds it)");
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
            Path target = Path.of(System.getProperty("java.io.tmpdir"), "cdk-training-data-" + digest, RESOURCE);
            if (!Files.exists(target)) {
                Files.createDirectories(target.getParent());
                Path partial = Files.createTempFile(target.getParent(), "bundle", ".part");
                Files.write(partial, bytes);
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stage " + RESOURCE, e);
        } catch (URISyntaxException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot stage " + RESOURCE, e);
        }
    }
}
