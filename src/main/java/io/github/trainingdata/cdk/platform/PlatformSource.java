package io.github.trainingdata.cdk.platform;

import io.github.trainingdata.cdk.advisor.DataSourceOption;
import io.github.trainingdata.cdk.advisor.DatasetProfile;
import io.github.trainingdata.cdk.storage.TrainingDataStore;
import io.github.trainingdata.cdk.training.ChannelInputMode;
import io.github.trainingdata.cdk.training.DirectRead;
import io.github.trainingdata.cdk.training.TrainingChannel;
import java.util.stream.Stream;

/**
 * How {@link TrainingDataPlatform} builds the data sources of one storage service: the store, and on it the channel in
 * an option's input mode or, for an option without one, the read of training code that reads the store itself. The
 * platform holds one per {@link io.github.trainingdata.cdk.advisor.StorageService}; a new option on a known service
 * needs none, a new service one more.
 *
 * @param store builds (or picks) the store under the platform
 * @param channel the platform's channel on that store
 * @param direct the platform's direct read of that store, or null when code cannot read it itself (file systems)
 * @param <S> the kind of store
 */
record PlatformSource<S extends TrainingDataStore>(StoreBuilder<S> store, ChannelOnStore<S> channel,
        DirectOnStore<S> direct) {
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

    /** The direct read of {@code path} of the store, its location in the environment variable {@code variable}. */
    @FunctionalInterface
    interface DirectOnStore<S> {
        DirectRead on(String variable, String path, S store);
    }

    /** What the platform's job reads: the store, through a channel or a direct read (the other null). */
    record Read(TrainingDataStore store, TrainingChannel channel, DirectRead direct) {
    }

    /** Whether this source builds {@code option}: a channel always, a direct read when the store allows one. */
    boolean builds(DataSourceOption option) {
        return option.inputMode() != null || direct != null;
    }

    /**
     * Builds the store, then what reads {@code path} of it for {@code option}: the channel {@code name} in the option's
     * input mode, or the direct read whose location is in {@code variable}.
     */
    Read build(TrainingDataPlatform platform, TrainingDataPlatformProps props, DatasetProfile profile,
            DataSourceOption option, String name, String variable, String path) {
        S built = store.build(platform, props, profile);
        if (option.inputMode() == null) {
            return new Read(built, null, direct.on(variable, path, built));
        }
        ChannelInputMode mode = Stream.of(ChannelInputMode.values()).filter(m -> m.apiValue().equals(option.inputMode()))
                .findFirst().orElseThrow();
        return new Read(built, channel.on(name, path, mode, built), null);
    }
}
