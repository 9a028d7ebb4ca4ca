package io.github.trainingdata.cdk.platform;

import io.github.trainingdata.cdk.advisor.DatasetProfile;
import io.github.trainingdata.cdk.storage.TrainingDataStore;
import io.github.trainingdata.cdk.training.ChannelInputMode;
import io.github.trainingdata.cdk.training.TrainingChannel;

/**
 * How {@link TrainingDataPlatform} builds the data sources of one storage service: the store their channel reads, and
 * the channel on it in an option's input mode. The platform holds one per
 * {@link io.github.trainingdata.cdk.advisor.StorageService}; a new option on a known service needs none, a new service
 * one more.
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

    /** The channel named {@code name} that reads {@code path} of the store in {@code mode} (file systems: File). */
    @FunctionalInterface
    interface ChannelOnStore<S> {
        TrainingChannel on(String name, String path, ChannelInputMode mode, S store);
    }

    /** Builds the store, then the channel that reads {@code path} of it in {@code mode}. */
    TrainingChannel build(TrainingDataPlatform platform, TrainingDataPlatformProps props, DatasetProfile profile,
            String name, String path, ChannelInputMode mode) {
        return channel.on(name, path, mode, store.build(platform, props, profile));
    }
}
