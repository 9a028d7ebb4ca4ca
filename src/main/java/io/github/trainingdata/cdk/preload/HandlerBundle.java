package io.github.trainingdata.cdk.preload;

import io.github.trainingdata.cdk.BundledAsset;
import java.nio.file.Path;

/**
 * Finds the preload Lambda bundle that the Maven build puts next to this class
 * ({@code preload-handler.zip}: handler classes plus AWS SDK jars), staged by {@link BundledAsset}.
 */
final class HandlerBundle {
    static final String RESOURCE = "preload-handler.zip";

    private HandlerBundle() {
    }

    static Path path() {
        return BundledAsset.path(HandlerBundle.class, RESOURCE);
    }
}
