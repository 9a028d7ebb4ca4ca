package io.github.trainingdata.cdk.platform;

import io.github.trainingdata.cdk.advisor.DatasetProfile;
import io.github.trainingdata.cdk.storage.TrainingDataStore;
import io.github.trainingdata.cdk.training.TrainingChannel;

/**
 * How {@link TrainingDataPlatform} builds one data source: the store its channel reads, and the channel on it. The
 * platform holds one per {@link io.github.trainingdata.cdk.advisor.DataSourceOption}; a new source is one more.
 *
 * @param store builds (or picks) the store under the platform
 * @param channel the platform's channel on that store
 * @param <S> the kind of store
 */
record PlatformSource<S extends TrainingDataStore>(StoreBuilder<S> store, ChannelOnStore<S> channel) {
    /** Builds the store of a source under the platform. */
    @FunctionalInterface
    interface StoreBuilder<S> {
        S build(TrainingDataPlatform platform, TrainingDataPlatformProps props, DatasetProfile profile);
    }

    /** The channel named {@code name} that reads {@code path} of the store. */
    @FunctionalInterface
    interface ChannelOnStore<S> {
        TrainingChannel on(String name, String path, S store);
    }

    /** Builds the store, then the channel that reads {@code path} of it. */
    TrainingChannel build(TrainingDataPlatform platform, TrainingDataPlatformProps props, DatasetProfile profile,
            String name, String path) {
        return channel.on(name, path, store.build(platform, props, profile));
    }
}
