package io.github.trainingdata.cdk.storage.handler;

import io.github.trainingdata.cdk.LambdaBundle;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the handler from its Lambda bundle alone (nothing from the test classpath, only the JDK), as Lambda
 * would: the bundle holds just the handler package, and the handler creates directories on its own.
 */
class EfsDirectoriesHandlerBundleTest {
    private static final String BUNDLE = "/io/github/trainingdata/cdk/storage/efs-directories-handler.zip";

    @TempDir
    Path unpacked;

    @TempDir
    Path mountRoot;

    private List<String> unpackBundle() throws IOException {
        return LambdaBundle.unpack(BUNDLE, unpacked).entries();
    }

    @Test
    void holdsOnlyTheHandlerPackage() throws IOException {
        for (String entry : unpackBundle()) {
            assertTrue(entry.startsWith("io/github/trainingdata/cdk/storage/handler/")
                    || "io/github/trainingdata/cdk/storage/handler/".startsWith(entry), entry);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theBundledHandlerCreatesDirectoriesOnTheJdkAlone() throws Exception {
        unpackBundle();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {unpacked.toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> handlerType = loader.loadClass(EfsDirectoriesHandler.class.getName());
            handlerType.getConstructor().newInstance();
            List<String> log = new ArrayList<>();
            Object handler = handlerType.getConstructor(Path.class, Consumer.class)
                    .newInstance(mountRoot, (Consumer<String>) log::add);
            Method onEvent = handlerType.getMethod("onEvent", Map.class);
            Map<String, Object> event = new LinkedHashMap<>(Map.of("RequestType", "Create", "RequestId", "r-1",
                    "LogicalResourceId", "EfsDirectoriesExist1A2B3C4D", "ResourceProperties", Map.of("FileSystemId", "fs-0123456789abcdef0",
                            "Directories", List.of("/features/imagenet"))));

            Map<String, Object> response = (Map<String, Object>) onEvent.invoke(handler, event);

            assertEquals("fs-0123456789abcdef0:directories:EfsDirectoriesExist1A2B3C4D", response.get("PhysicalResourceId"));
            assertTrue(Files.isDirectory(mountRoot.resolve("features/imagenet")));
            assertEquals(List.of("Created: /features/imagenet (missing components with mode 755)"), log);
        }
    }
}
