package io.github.trainingdata.cdk.advisor;

import static io.github.trainingdata.cdk.performance.PublishedFigures.FASTFILE_LISTING_OBJECTS_PER_SECOND;
import static io.github.trainingdata.cdk.performance.PublishedFigures.FASTFILE_SECONDS_PER_FILE;
import static io.github.trainingdata.cdk.performance.PublishedFigures.FILE_MODE_SECONDS_PER_OBJECT;
import static io.github.trainingdata.cdk.performance.PublishedFigures.S3_EXPRESS_LISTING_OBJECTS_PER_SECOND;

import io.github.trainingdata.cdk.performance.ByteSize;

/**
 * The words the {@link Advisor}'s reasons use for a {@link DataSourceOption}: its data start-up, why its reads are
 * slow, and what several epochs do with it. Each option's row names the ones that fit it.
 */
final class OptionTexts {

    private OptionTexts() {
    }

    static String fileModeStartup(DatasetProfile profile) {
        return "download of " + HumanReadable.count(profile.fileCount()) + " objects and "
                + ByteSize.format(profile.totalBytes()) + ": " + HumanReadable.millis(FILE_MODE_SECONDS_PER_OBJECT)
                + " per object and " + HumanReadable.rate(EstimateModel.fileModeDownloadMBps(profile.instance()))
                + ", fitted to the case study's 10,955 s for 1.53 M JPEGs and 357 s for 54 GB of TFRecord";
    }

    static String listing(DatasetProfile profile) {
        return "listing " + HumanReadable.count(profile.fileCount()) + " objects at "
                + HumanReadable.count((long) FASTFILE_LISTING_OBJECTS_PER_SECOND) + " per second, case study";
    }

    static String directoryBucketListing(DatasetProfile profile) {
        return "listing " + HumanReadable.count(profile.fileCount()) + " objects at "
                + HumanReadable.count((long) S3_EXPRESS_LISTING_OBJECTS_PER_SECOND) + " per second, assumed as S3";
    }

    static String clientListing(DatasetProfile profile) {
        return "the training code lists " + HumanReadable.count(profile.fileCount()) + " objects at "
                + HumanReadable.count((long) FASTFILE_LISTING_OBJECTS_PER_SECOND) + " per second before it reads, "
                + "assumed as SageMaker's; no channel to set up";
    }

    static String volumeRead(DatasetProfile profile) {
        return profile.instance().localNvme() ? "" : "; EBS volume";
    }

    static String perFileRead(DatasetProfile profile) {
        return "; " + HumanReadable.millis(FASTFILE_SECONDS_PER_FILE) + " per file, case study: 166 images/s where the "
                + "GPU takes 330";
    }

    static String none(DatasetProfile profile) {
        return "";
    }

    static String copiedOnce(DatasetProfile profile, OptionEstimate estimate) {
        return profile.epochs() + " epochs all read the copy loaded once; streaming from S3 repeats its per-file cost "
                + "every epoch";
    }

    static String streamed(DatasetProfile profile, OptionEstimate estimate) {
        boolean express = estimate.option().storage() == StorageService.S3_EXPRESS;
        return "each of the " + profile.epochs() + " epochs streams the dataset from "
                + (express ? "the directory bucket" : "S3") + " again (" + HumanReadable.usd(estimate.requestUsd())
                + (express ? " of requests in all, with the fill" : " of GETs in all")
                + "), and the reads keep up with the compute";
    }

    static String onEfs(DatasetProfile profile, OptionEstimate estimate) {
        return profile.epochs() + " epochs all read from EFS, no S3 requests involved";
    }
}
