package io.github.trainingdata.cdk.advisor;

import static io.github.trainingdata.cdk.advisor.PublishedFigures.FASTFILE_LISTING_OBJECTS_PER_SECOND;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.IDEAL_SHARD_BYTES;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.SMALL_DATASET_BYTES;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.SMALL_DATASET_LOWER_BYTES;
import static io.github.trainingdata.cdk.advisor.PublishedFigures.SMALL_FILE_BYTES;

import java.util.ArrayList;
import java.util.List;

/**
 * Recommends a SageMaker data source by the guide's flowchart, applied in this order:
 * <ol>
 *   <li>Data on EFS → {@link DataSourceOption#EFS}.</li>
 *   <li>Dataset under {@link PublishedFigures#SMALL_DATASET_BYTES} (100 GB) → {@link DataSourceOption#S3_FILE};
 *   files under {@link PublishedFigures#SMALL_FILE_BYTES} (50 MB) add the advice to pack them into
 *   ~150 MB shards.</li>
 *   <li>Larger dataset, streamable format, sequential reads and files under 50 MB →
 *   {@link DataSourceOption#S3_PIPE}. Our reading of "Pipe only where a streaming format makes it
 *   natural": the records already stream, Pipe's concurrent prefetch hides the per-file GETs that
 *   slow FastFile, and it needs no VPC or Lustre capacity.</li>
 *   <li>Larger dataset, sequential reads of files of 50 MB or more → {@link DataSourceOption#S3_FAST_FILE}.</li>
 *   <li>Otherwise (larger dataset of small files that are not streamable, or random reads) →
 *   {@link DataSourceOption#FSX_LUSTRE}, preloaded.</li>
 * </ol>
 * Reasons cite the thresholds with the profile's numbers, the effect of the epochs (more epochs favour
 * File mode and FSx, which read a copy made once) and the start-up's share of the training time.
 */
public final class Advisor {

    private Advisor() {
    }

    /**
     * Chooses a data source for the profile and estimates every option.
     *
     * @param profile the dataset and job
     * @return the chosen option, the reasons and the estimates for every option
     */
    public static Recommendation recommend(DatasetProfile profile) {
        List<OptionEstimate> estimates = EstimateModel.estimateAll(profile);
        List<String> reasons = new ArrayList<>();
        DataSourceOption choice = choose(profile, reasons);
        OptionEstimate chosen = estimates.get(choice.ordinal());
        addEpochsReason(profile, chosen, reasons);
        reasons.add("start-up of about " + HumanReadable.duration(chosen.startupSeconds()) + " is "
                + HumanReadable.percent(chosen.startupSeconds() * 1e9 / profile.trainingTime().toNanos()) + " of the "
                + HumanReadable.duration(profile.trainingTime()) + " of training and costs "
                + HumanReadable.usd(chosen.startupCostUsd()) + " on " + profile.instanceCount() + " x "
                + profile.instanceType() + " at " + HumanReadable.price(profile.hourlyPriceUsd()) + "/h");
        return new Recommendation(choice, reasons, estimates);
    }

    private static DataSourceOption choose(DatasetProfile profile, List<String> reasons) {
        if (profile.dataLocation() == DataLocation.EFS) {
            reasons.add("the data already lives on EFS: mount it where it is instead of copying it (guide step 1)");
            return DataSourceOption.EFS;
        }
        String size = ByteSize.format(profile.totalBytes());
        boolean smallFiles = profile.averageFileBytes() < SMALL_FILE_BYTES;
        boolean sequential = profile.accessPattern() == AccessPattern.SEQUENTIAL;
        if (profile.totalBytes() < SMALL_DATASET_BYTES) {
            return chooseForSmallDataset(profile, size, smallFiles, reasons);
        }
        reasons.add("dataset " + size + " is over the " + ByteSize.format(SMALL_DATASET_BYTES)
                + " File-mode threshold: copying it before every job would take about "
                + HumanReadable.duration(EstimateModel.fileModeStartupSeconds(profile.totalBytes(), profile.fileCount())));
        if (profile.streamable() && sequential && smallFiles) {
            reasons.add("a streamable format read sequentially, and " + averageFile(profile)
                    + ": Pipe prefetches the files at high concurrency, starts in about "
                    + HumanReadable.duration(PublishedFigures.PIPE_STARTUP_SECONDS)
                    + " whatever the dataset size and needs no VPC or Lustre capacity (guide step 5)");
            return DataSourceOption.S3_PIPE;
        }
        if (sequential && !smallFiles) {
            return chooseFastFile(profile, reasons);
        }
        if (smallFiles) {
            reasons.add(averageFile(profile) + ": FastFile would fetch each with its own GET; FSx for Lustre "
                    + "serves many small files with low latency (guide step 4)");
            if (sequential) {
                reasons.add("not a streamable format, so Pipe mode does not fit");
            }
        }
        if (!sequential) {
            reasons.add("random reads: FastFile issues a GET per read and Pipe cannot seek; FSx for Lustre "
                    + "serves random reads with low latency (guide step 4)");
        }
        reasons.add(EstimateModel.lustreCreation(profile.fileCount()));
        return DataSourceOption.FSX_LUSTRE;
    }

    private static DataSourceOption chooseForSmallDataset(DatasetProfile profile, String size, boolean smallFiles,
            List<String> reasons) {
        reasons.add("dataset " + size + " is under the " + ByteSize.format(SMALL_DATASET_BYTES)
                + " File-mode threshold (the top of the guide's " + ByteSize.format(SMALL_DATASET_LOWER_BYTES)
                + " to " + ByteSize.format(SMALL_DATASET_BYTES) + " range): File mode copies it to the instance "
                + "volume once per job (guide step 2)");
        if (profile.totalBytes() >= SMALL_DATASET_LOWER_BYTES) {
            reasons.add("at " + size + " it is past the " + ByteSize.format(SMALL_DATASET_LOWER_BYTES)
                    + " lower end of that range: once it grows past " + ByteSize.format(SMALL_DATASET_BYTES)
                    + ", move to FastFile or FSx for Lustre");
        }
        if (smallFiles) {
            long shards = Math.max(1, (long) Math.ceil(profile.totalBytes() / (double) IDEAL_SHARD_BYTES));
            reasons.add(averageFile(profile) + ": packing the " + HumanReadable.count(profile.fileCount())
                    + " files into ~" + ByteSize.format(IDEAL_SHARD_BYTES) + " shards (TFRecord, WebDataset, RecordIO)"
                    + " makes about " + HumanReadable.count(shards) + " files and cuts File-mode start-up from "
                    + HumanReadable.duration(EstimateModel.fileModeStartupSeconds(profile.totalBytes(), profile.fileCount()))
                    + " to " + HumanReadable.duration(EstimateModel.fileModeStartupSeconds(profile.totalBytes(), shards)));
        }
        if (profile.accessPattern() == AccessPattern.RANDOM) {
            reasons.add("random reads are served from the local copy on the instance volume");
        }
        return DataSourceOption.S3_FILE;
    }

    private static DataSourceOption chooseFastFile(DatasetProfile profile, List<String> reasons) {
        reasons.add("files average " + ByteSize.format(Math.round(profile.averageFileBytes())) + ", over the "
                + ByteSize.format(SMALL_FILE_BYTES) + " FastFile threshold, read sequentially: FastFile lists the "
                + HumanReadable.count(profile.fileCount()) + " objects in about "
                + HumanReadable.duration(profile.fileCount() / FASTFILE_LISTING_OBJECTS_PER_SECOND)
                + " and streams sequential reads at over " + HumanReadable.rate(PublishedFigures.FASTFILE_SEQUENTIAL_MBPS)
                + " (guide step 3)");
        if (profile.averageFileBytes() < IDEAL_SHARD_BYTES) {
            reasons.add("files under the ideal " + ByteSize.format(IDEAL_SHARD_BYTES)
                    + ": packing them into larger shards makes FastFile reads more efficient");
        }
        return DataSourceOption.S3_FAST_FILE;
    }

    private static void addEpochsReason(DatasetProfile profile, OptionEstimate chosen, List<String> reasons) {
        if (profile.epochs() == 1) {
            return;
        }
        switch (chosen.option()) {
            case S3_FILE, FSX_LUSTRE -> reasons.add(profile.epochs() + " epochs all read the copy loaded once; "
                    + "more epochs favour File mode and FSx for Lustre over streaming from S3");
            case S3_FAST_FILE, S3_PIPE -> reasons.add("each of the " + profile.epochs()
                    + " epochs streams the dataset from S3 again (" + HumanReadable.usd(chosen.s3RequestUsdPerJob())
                    + " of GETs per job); more epochs favour File mode and FSx for Lustre");
            case EFS -> reasons.add(profile.epochs() + " epochs all read from EFS, no S3 requests involved");
        }
    }

    private static String averageFile(DatasetProfile profile) {
        return "files average " + ByteSize.format(Math.round(profile.averageFileBytes())) + ", under the "
                + ByteSize.format(SMALL_FILE_BYTES) + " small-file threshold";
    }
}
