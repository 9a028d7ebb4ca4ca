package io.github.trainingdata.examples;

import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.LustreVersion;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.efs.PerformanceMode;

/**
 * The data-layer settings a platform team changes from one deploy to the next. Each example starts from its own
 * defaults (the values it ships with) and a change is one {@code with...} call, e.g.
 * {@code QuickstartStack.DATA.withLustreCapacityGiB(2400)}.
 *
 * @param lustreCapacityGiB the Lustre cache's capacity (null: the example derives it)
 * @param datasets          the cache's datasets in order: name to S3 prefix under the bucket's dataset prefix
 *                          ({@code ""}: the dataset prefix itself)
 * @param datasetVersion    the preload's dataset version (null: none); a new value re-warms the cache
 * @param efsDirectories    EFS directories created besides those the channels read
 * @param preloadTimeout    the preload worker's time limit (null: the preload's default)
 * @param importTimeout     how long the preload waits for FSx's metadata import (null: the preload's default)
 * @param lustrePerUnitStorageThroughput a PERSISTENT_2 cache's throughput tier, MB/s per TiB (null: none, or the
 *                          example's derived one)
 * @param lustreMetadataIops a PERSISTENT_2 cache's provisioned metadata IOPS (null: AUTOMATIC, or none)
 * @param dataAvailabilityZone the network's data AZ, where the cache lives (null: the example's)
 * @param lustreVersion     the cache's Lustre version (null: the library's default)
 * @param efsPerformanceMode the composition's features store as a new EFS file system with this performance mode
 *                          (null: the labelling team's existing file system, adopted)
 */
public record DataSettings(Integer lustreCapacityGiB, Map<String, String> datasets, String datasetVersion,
        List<String> efsDirectories, Duration preloadTimeout, Duration importTimeout,
        Integer lustrePerUnitStorageThroughput, Integer lustreMetadataIops, String dataAvailabilityZone,
        LustreVersion lustreVersion, PerformanceMode efsPerformanceMode) {

    /** Copies the collections, keeping the datasets' order. */
    public DataSettings {
        datasets = Collections.unmodifiableMap(new LinkedHashMap<>(datasets));
        efsDirectories = List.copyOf(efsDirectories);
    }

    /** Settings of an example whose cache has no throughput tier (SCRATCH_2, or none). */
    public DataSettings(Integer lustreCapacityGiB, Map<String, String> datasets, String datasetVersion,
            List<String> efsDirectories, Duration preloadTimeout, Duration importTimeout) {
        this(lustreCapacityGiB, datasets, datasetVersion, efsDirectories, preloadTimeout, importTimeout, null, null);
    }

    /** Settings of an example whose EFS store (if any) is the existing one. */
    public DataSettings(Integer lustreCapacityGiB, Map<String, String> datasets, String datasetVersion,
            List<String> efsDirectories, Duration preloadTimeout, Duration importTimeout,
            Integer lustrePerUnitStorageThroughput, Integer lustreMetadataIops, String dataAvailabilityZone,
            LustreVersion lustreVersion) {
        this(lustreCapacityGiB, datasets, datasetVersion, efsDirectories, preloadTimeout, importTimeout,
                lustrePerUnitStorageThroughput, lustreMetadataIops, dataAvailabilityZone, lustreVersion, null);
    }

    /** Settings of an example in its own data AZ, on the default Lustre version. */
    public DataSettings(Integer lustreCapacityGiB, Map<String, String> datasets, String datasetVersion,
            List<String> efsDirectories, Duration preloadTimeout, Duration importTimeout,
            Integer lustrePerUnitStorageThroughput, Integer lustreMetadataIops) {
        this(lustreCapacityGiB, datasets, datasetVersion, efsDirectories, preloadTimeout, importTimeout,
                lustrePerUnitStorageThroughput, lustreMetadataIops, null, null);
    }

    /** @return these settings with another PERSISTENT_2 throughput tier */
    public DataSettings withLustrePerUnitStorageThroughput(Integer tier) {
        return new DataSettings(lustreCapacityGiB, datasets, datasetVersion, efsDirectories, preloadTimeout,
                importTimeout, tier, lustreMetadataIops, dataAvailabilityZone, lustreVersion, efsPerformanceMode);
    }

    /** @return these settings with other provisioned metadata IOPS (null: none, AUTOMATIC) */
    public DataSettings withLustreMetadataIops(Integer iops) {
        return new DataSettings(lustreCapacityGiB, datasets, datasetVersion, efsDirectories, preloadTimeout,
                importTimeout, lustrePerUnitStorageThroughput, iops, dataAvailabilityZone, lustreVersion, efsPerformanceMode);
    }

    /** @return these settings with another cache capacity */
    public DataSettings withLustreCapacityGiB(Integer capacityGiB) {
        return new DataSettings(capacityGiB, datasets, datasetVersion, efsDirectories, preloadTimeout, importTimeout,
                lustrePerUnitStorageThroughput, lustreMetadataIops, dataAvailabilityZone, lustreVersion, efsPerformanceMode);
    }

    /** @return these settings with the dataset added, or its S3 prefix changed (its place kept) */
    public DataSettings withDataset(String name, String prefix) {
        Map<String, String> changed = new LinkedHashMap<>(datasets);
        changed.put(name, prefix);
        return new DataSettings(lustreCapacityGiB, changed, datasetVersion, efsDirectories, preloadTimeout,
                importTimeout, lustrePerUnitStorageThroughput, lustreMetadataIops, dataAvailabilityZone, lustreVersion, efsPerformanceMode);
    }

    /** @return these settings without the dataset */
    public DataSettings withoutDataset(String name) {
        Map<String, String> changed = new LinkedHashMap<>(datasets);
        changed.remove(name);
        return new DataSettings(lustreCapacityGiB, changed, datasetVersion, efsDirectories, preloadTimeout,
                importTimeout, lustrePerUnitStorageThroughput, lustreMetadataIops, dataAvailabilityZone, lustreVersion, efsPerformanceMode);
    }

    /** @return these settings with another dataset version */
    public DataSettings withDatasetVersion(String version) {
        return new DataSettings(lustreCapacityGiB, datasets, version, efsDirectories, preloadTimeout, importTimeout,
                lustrePerUnitStorageThroughput, lustreMetadataIops, dataAvailabilityZone, lustreVersion, efsPerformanceMode);
    }

    /** @return these settings with one more EFS directory */
    public DataSettings withEfsDirectory(String path) {
        List<String> changed = new ArrayList<>(efsDirectories);
        changed.add(path);
        return new DataSettings(lustreCapacityGiB, datasets, datasetVersion, changed, preloadTimeout, importTimeout,
                lustrePerUnitStorageThroughput, lustreMetadataIops, dataAvailabilityZone, lustreVersion, efsPerformanceMode);
    }

    /** @return these settings with other preload time limits */
    public DataSettings withPreloadTimeouts(Duration timeout, Duration importLimit) {
        return new DataSettings(lustreCapacityGiB, datasets, datasetVersion, efsDirectories, timeout, importLimit,
                lustrePerUnitStorageThroughput, lustreMetadataIops, dataAvailabilityZone, lustreVersion, efsPerformanceMode);
    }

    /** @return these settings with the cache in another Availability Zone (the network's data AZ) */
    public DataSettings withDataAvailabilityZone(String zone) {
        return new DataSettings(lustreCapacityGiB, datasets, datasetVersion, efsDirectories, preloadTimeout,
                importTimeout, lustrePerUnitStorageThroughput, lustreMetadataIops, zone, lustreVersion, efsPerformanceMode);
    }

    /** @return these settings with another Lustre version */
    public DataSettings withLustreVersion(LustreVersion version) {
        return new DataSettings(lustreCapacityGiB, datasets, datasetVersion, efsDirectories, preloadTimeout,
                importTimeout, lustrePerUnitStorageThroughput, lustreMetadataIops, dataAvailabilityZone, version, efsPerformanceMode);
    }

    /** @return these settings with the features store a new EFS file system of this performance mode */
    public DataSettings withEfsPerformanceMode(PerformanceMode mode) {
        return new DataSettings(lustreCapacityGiB, datasets, datasetVersion, efsDirectories, preloadTimeout,
                importTimeout, lustrePerUnitStorageThroughput, lustreMetadataIops, dataAvailabilityZone, lustreVersion,
                mode);
    }

    /** @return the datasets as the cache's {@link LustreDataset}s on the bucket */
    List<LustreDataset> lustreDatasets(TrainingDataBucket bucket) {
        return datasets.entrySet().stream().map(d -> {
            LustreDataset.Builder dataset = LustreDataset.builder(d.getKey()).dataBucket(bucket);
            return (d.getValue().isEmpty() ? dataset : dataset.prefix(d.getValue())).build();
        }).toList();
    }
}
