package io.github.trainingdata.cdk.advisor;

import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The ways a SageMaker training job can read a dataset: a storage service plus an input mode, or training code that
 * reads the store itself. Each constant is one row of the advisor's table: the service, the input mode, how the
 * {@link EstimateModel} estimates it (start-up, throughput, requests and storage, in {@link DataPath}) and how the
 * {@link Advisor}'s reasons describe it. A new option is one more row; {@code TrainingDataPlatform} builds every
 * option of a {@link StorageService} it knows.
 */
public enum DataSourceOption {
    /** S3, File mode: the whole dataset is copied to the instance volume before the script starts. */
    S3_FILE(StorageService.S3, "File", (p, preloaded, notes) -> DataPath.fileMode(p, ObjectStore.S3, notes),
            OptionTexts::fileModeStartup, OptionTexts::volumeRead, OptionTexts::copiedOnce),
    /** S3, FastFile mode: S3 objects appear as a read-only POSIX file system, streamed on demand. */
    S3_FAST_FILE(StorageService.S3, "FastFile", (p, preloaded, notes) -> DataPath.fastFile(p, ObjectStore.S3, notes),
            OptionTexts::listing, OptionTexts::perFileRead, OptionTexts::streamed),
    /** S3, Pipe mode: objects are prefetched into a FIFO per channel per epoch; no seeking. */
    S3_PIPE(StorageService.S3, "Pipe", (p, preloaded, notes) -> DataPath.pipe(p, notes),
            p -> "Pipe start, assumed", OptionTexts::none, OptionTexts::streamed),
    /** FSx for Lustre (SCRATCH_2, or PERSISTENT_2 at a throughput tier) linked to the S3 prefix, mounted at start. */
    FSX_LUSTRE(StorageService.FSX_LUSTRE, "File", DataPath::lustre,
            p -> "mount, case study: 10–14 s", OptionTexts::none, OptionTexts::copiedOnce),
    /** EFS, mounted at job start; the data must already be on the file system. */
    EFS(StorageService.EFS, "File", (p, preloaded, notes) -> DataPath.efs(p, notes),
            p -> "mount, assumed as FSx", OptionTexts::none, OptionTexts::onEfs),
    /**
     * S3 Express One Zone, File mode: the dataset, copied before training from S3 into a directory bucket in the job's
     * Availability Zone, is copied to the instance volume before the script starts.
     */
    S3_EXPRESS_FILE(StorageService.S3_EXPRESS, "File", (p, preloaded, notes) -> DataPath.fileMode(p,
            ObjectStore.S3_EXPRESS, notes), OptionTexts::fileModeStartup, OptionTexts::volumeRead,
            OptionTexts::copiedOnce),
    /**
     * S3 Express One Zone, FastFile mode: the directory bucket's objects (copied from S3 before training) appear as a
     * read-only POSIX file system, streamed on demand with single-digit-millisecond first bytes.
     */
    S3_EXPRESS_FAST_FILE(StorageService.S3_EXPRESS, "FastFile", (p, preloaded, notes) -> DataPath.fastFile(p,
            ObjectStore.S3_EXPRESS, notes), OptionTexts::directoryBucketListing,
            p -> "; " + ObjectStore.S3_EXPRESS.perFile(), OptionTexts::streamed),
    /**
     * Training code that reads S3 itself (the S3 Connector for PyTorch, Mountpoint for Amazon S3): no channel; the job
     * is given the S3 location and reads it while it trains.
     */
    S3_DIRECT(StorageService.S3, null, (p, preloaded, notes) -> DataPath.direct(p, ObjectStore.S3, notes),
            OptionTexts::clientListing, p -> "; " + ObjectStore.S3.perFile(), OptionTexts::streamed),
    /**
     * Training code that reads an S3 Express One Zone directory bucket itself (the clients AWS recommends for directory
     * buckets): no channel; the bucket is filled from S3 before training.
     */
    S3_EXPRESS_DIRECT(StorageService.S3_EXPRESS, null, (p, preloaded, notes) -> DataPath.direct(p,
            ObjectStore.S3_EXPRESS, notes), OptionTexts::clientListing, p -> "; " + ObjectStore.S3_EXPRESS.perFile(),
            OptionTexts::streamed);

    private final StorageService storage;
    private final String inputMode;
    private final DataPath.Estimator path;
    private final Function<DatasetProfile, String> startup;
    private final Function<DatasetProfile, String> readWhy;
    private final BiFunction<DatasetProfile, OptionEstimate, String> epochs;

    DataSourceOption(StorageService storage, String inputMode, DataPath.Estimator path,
            Function<DatasetProfile, String> startup, Function<DatasetProfile, String> readWhy,
            BiFunction<DatasetProfile, OptionEstimate, String> epochs) {
        this.storage = storage;
        this.inputMode = inputMode;
        this.path = path;
        this.startup = startup;
        this.readWhy = readWhy;
        this.epochs = epochs;
    }

    /**
     * The SageMaker {@code InputMode} a channel of this option uses.
     *
     * @return {@code File}, {@code FastFile} or {@code Pipe}; file systems always use {@code File}; null when the
     *     training code reads the store itself, without a channel
     */
    public String inputMode() {
        return inputMode;
    }

    /**
     * The storage service this option reads.
     *
     * @return the service, which decides the store {@code TrainingDataPlatform} builds
     */
    public StorageService storage() {
        return storage;
    }

    /**
     * How much set-up the option needs, for breaking ties: its service's ({@link StorageService}), and on one service a
     * channel before training code that reads the store itself (a channel needs no change to the code).
     */
    int setUpRank() {
        return storage.setUpRank() * 2 + (inputMode == null ? 1 : 0);
    }

    /** What the option does with the data, before {@link EstimateModel} prices the job around it. */
    DataPath path(DatasetProfile profile, boolean lustrePreloaded, List<String> notes) {
        return path.estimate(profile, lustrePreloaded, notes);
    }

    /** What the option's data start-up is, in words, for the reasons. */
    String startupWhat(DatasetProfile profile) {
        return startup.apply(profile);
    }

    /** Why reading is slow, appended to a read-bound epoch's reason; empty when nothing needs saying. */
    String readWhy(DatasetProfile profile) {
        return readWhy.apply(profile);
    }

    /** What several epochs do with this option, for the reasons. */
    String epochs(DatasetProfile profile, OptionEstimate estimate) {
        return epochs.apply(profile, estimate);
    }
}
