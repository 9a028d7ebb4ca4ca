package io.github.trainingdata.cdk.advisor;

import io.github.trainingdata.cdk.performance.CacheThroughput;
import io.github.trainingdata.cdk.performance.PreloadDefaults;
import io.github.trainingdata.cdk.performance.PreloadModel;
import io.github.trainingdata.cdk.performance.PreloadWorker;
import io.github.trainingdata.cdk.performance.WarmUpPath;

import static io.github.trainingdata.cdk.performance.PublishedFigures.LUSTRE_FIRST_READ_SECONDS;

/**
 * A profile's preload by the default worker on the advisor's cache, on both paths, for notes and reasons: the read path
 * (what {@code LustrePreload} assumes unless told its image has {@code lfs}) and the {@code lfs hsm_restore} path.
 *
 * @param read seconds on the read path, the worker's start included
 * @param restore seconds on the {@code lfs} path, the worker's start included
 */
record Preloads(double read, double restore) {

    static Preloads of(DatasetProfile profile, CacheThroughput cache) {
        return new Preloads(
                PreloadModel.preloadSeconds(profile.fileCount(), profile.totalBytes(), cache,
                        PreloadWorker.defaults(WarmUpPath.READ)),
                PreloadModel.preloadSeconds(profile.fileCount(), profile.totalBytes(), cache,
                        PreloadWorker.defaults(WarmUpPath.HSM_RESTORE)));
    }

    /** @return e.g. "2.1 h on the worker's read path (128 readers, 40 ms per first read), 40 min with lfs in its image" */
    String describe() {
        return HumanReadable.duration(read) + " on the worker's read path (" + PreloadDefaults.DEFAULT_PARALLELISM
                + " readers, " + HumanReadable.millis(LUSTRE_FIRST_READ_SECONDS) + " per first read), "
                + HumanReadable.duration(restore) + " with lfs in its image";
    }
}
