package io.github.trainingdata.cdk.advisor;

import static io.github.trainingdata.cdk.advisor.EstimateModel.megabytes;
import static io.github.trainingdata.cdk.performance.PublishedFigures.DATA_LOADER_CONCURRENCY;
import static io.github.trainingdata.cdk.performance.PublishedFigures.FASTFILE_LISTING_OBJECTS_PER_SECOND;
import static io.github.trainingdata.cdk.performance.PublishedFigures.FASTFILE_SECONDS_PER_FILE;
import static io.github.trainingdata.cdk.performance.PublishedFigures.FILE_MODE_DOWNLOAD_MBPS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.S3_EXPRESS_FILE_MODE_SECONDS_PER_OBJECT;
import static io.github.trainingdata.cdk.performance.PublishedFigures.S3_EXPRESS_FIRST_BYTE_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.S3_EXPRESS_LISTING_OBJECTS_PER_SECOND;
import static io.github.trainingdata.cdk.performance.PublishedFigures.S3_EXPRESS_READS_PER_SECOND;
import static io.github.trainingdata.cdk.performance.PublishedFigures.S3_EXPRESS_RETRIEVAL_USD_PER_GIB;
import static io.github.trainingdata.cdk.performance.PublishedFigures.S3_EXPRESS_UPLOAD_USD_PER_GIB;
import static io.github.trainingdata.cdk.performance.PublishedFigures.S3_EXPRESS_USD_PER_GIB_MONTH;
import static io.github.trainingdata.cdk.performance.PublishedFigures.S3_EXPRESS_USD_PER_THOUSAND_GETS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.S3_EXPRESS_USD_PER_THOUSAND_PUTS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.S3_STANDARD_FIRST_BYTE_SECONDS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.S3_USD_PER_MILLION_GETS;
import static io.github.trainingdata.cdk.performance.PublishedFigures.S3_USD_PER_TB_MONTH;

import io.github.trainingdata.cdk.performance.ByteSize;
import java.util.List;

/**
 * The object stores the S3 options read, with what sets them apart in the estimate: the time per file a reader
 * waits, listing, request prices, storage and, for a directory bucket, its fill (a copy from the S3 prefix that
 * holds the durable copy, made before training: the library does not fill it). Figures and their sources are in
 * {@code PublishedFigures}.
 */
enum ObjectStore {
    /** A general-purpose bucket: the data's durable copy, read in place. */
    S3 {
        @Override
        double perFileSeconds(DatasetProfile profile) {
            return FASTFILE_SECONDS_PER_FILE;
        }

        @Override
        String perFile() {
            return HumanReadable.millis(FASTFILE_SECONDS_PER_FILE) + " per file, case study";
        }

        @Override
        double listingPerSecond() {
            return FASTFILE_LISTING_OBJECTS_PER_SECOND;
        }

        @Override
        double requestUsd(double gets, double bytes) {
            return gets / 1e6 * S3_USD_PER_MILLION_GETS;
        }

        @Override
        double monthlyUsd(long bytes) {
            return s3MonthlyUsd(bytes);
        }

        @Override
        double fillUsd(DatasetProfile profile) {
            return 0;
        }

        @Override
        double fillSeconds(DatasetProfile profile) {
            return 0;
        }

        @Override
        void notes(DatasetProfile profile, List<String> notes) {
        }
    },
    /** An S3 Express One Zone directory bucket in one Availability Zone, filled from the S3 prefix before training. */
    S3_EXPRESS {
        @Override
        double perFileSeconds(DatasetProfile profile) {
            double saved = (S3_STANDARD_FIRST_BYTE_SECONDS - S3_EXPRESS_FIRST_BYTE_SECONDS) / DATA_LOADER_CONCURRENCY;
            return Math.max(FASTFILE_SECONDS_PER_FILE - saved, profile.instanceCount() / S3_EXPRESS_READS_PER_SECOND);
        }

        @Override
        String perFile() {
            return HumanReadable.millis(FASTFILE_SECONDS_PER_FILE - (S3_STANDARD_FIRST_BYTE_SECONDS
                    - S3_EXPRESS_FIRST_BYTE_SECONDS) / DATA_LOADER_CONCURRENCY) + " per file: FastFile's "
                    + HumanReadable.millis(FASTFILE_SECONDS_PER_FILE) + " less a first byte "
                    + HumanReadable.millis(S3_STANDARD_FIRST_BYTE_SECONDS - S3_EXPRESS_FIRST_BYTE_SECONDS)
                    + " sooner at " + DATA_LOADER_CONCURRENCY + " reads in flight (S3 guide: single-digit ms; assumed "
                    + HumanReadable.millis(S3_STANDARD_FIRST_BYTE_SECONDS) + " on S3)";
        }

        @Override
        double listingPerSecond() {
            return S3_EXPRESS_LISTING_OBJECTS_PER_SECOND;
        }

        @Override
        double requestUsd(double gets, double bytes) {
            return gets / 1000 * S3_EXPRESS_USD_PER_THOUSAND_GETS + bytes / ByteSize.GIB * S3_EXPRESS_RETRIEVAL_USD_PER_GIB;
        }

        @Override
        double monthlyUsd(long bytes) {
            return s3MonthlyUsd(bytes) + bytes / (double) ByteSize.GIB * S3_EXPRESS_USD_PER_GIB_MONTH;
        }

        @Override
        double fillUsd(DatasetProfile profile) {
            return profile.fileCount() / 1e6 * S3_USD_PER_MILLION_GETS
                    + profile.fileCount() / 1000.0 * S3_EXPRESS_USD_PER_THOUSAND_PUTS
                    + profile.totalBytes() / (double) ByteSize.GIB * S3_EXPRESS_UPLOAD_USD_PER_GIB;
        }

        @Override
        double fillSeconds(DatasetProfile profile) {
            return profile.fileCount() * S3_EXPRESS_FILE_MODE_SECONDS_PER_OBJECT
                    + megabytes(profile.totalBytes()) / FILE_MODE_DOWNLOAD_MBPS;
        }

        @Override
        void notes(DatasetProfile profile, List<String> notes) {
            notes.add("before training, not billed to the job: filling the directory bucket from S3 (S3 Batch "
                    + "Operations or aws s3 sync; the library does not) copies " + HumanReadable.count(profile.fileCount())
                    + " objects in about " + HumanReadable.duration(fillSeconds(profile)) + " (assumed at File mode's "
                    + "rates) for " + HumanReadable.usd(fillUsd(profile)) + " of requests and upload; it stores a second "
                    + "copy at " + HumanReadable.price(S3_EXPRESS_USD_PER_GIB_MONTH) + " per GB-month");
            notes.add("needs a VPC and a training subnet in the directory bucket's Availability Zone (by zone ID), the "
                    + "gateway endpoint for s3express and s3express:CreateSession on the job's role");
        }
    };

    /** Seconds one instance spends per file read on demand (FastFile, the S3 clients), at the loader's concurrency. */
    abstract double perFileSeconds(DatasetProfile profile);

    /** {@link #perFileSeconds} and where it comes from, for notes. */
    abstract String perFile();

    /** Objects SageMaker lists per second when a FastFile channel starts. */
    abstract double listingPerSecond();

    /** What {@code gets} GET requests that fetch {@code bytes} in all cost. */
    abstract double requestUsd(double gets, double bytes);

    /** USD per month of storage for a dataset of {@code bytes}, with its durable copy in S3. */
    abstract double monthlyUsd(long bytes);

    /** What filling the store from the S3 prefix costs once (requests and upload); 0 when the data is read in place. */
    abstract double fillUsd(DatasetProfile profile);

    /** How long the fill before training takes (billed to no job); 0 when the data is read in place. */
    abstract double fillSeconds(DatasetProfile profile);

    /** What reading this store needs and costs beyond its estimate, as notes. */
    abstract void notes(DatasetProfile profile, List<String> notes);

    static double s3MonthlyUsd(long bytes) {
        return bytes / (double) ByteSize.TB * S3_USD_PER_TB_MONTH;
    }
}
