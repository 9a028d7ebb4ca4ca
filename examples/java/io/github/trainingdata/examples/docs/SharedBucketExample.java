package io.github.trainingdata.examples.docs;

import io.github.trainingdata.cdk.monitoring.TrainingDataDashboard;
import io.github.trainingdata.cdk.monitoring.TrainingDataDashboardProps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.S3Store;
import io.github.trainingdata.cdk.storage.StoreAccess;
import io.github.trainingdata.cdk.storage.StoreGrants;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.training.DirectRead;
import io.github.trainingdata.cdk.training.S3Channel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.cloudwatch.GraphWidget;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.IBucket;
import software.constructs.Construct;

/**
 * A store of a kind the library does not ship: a bucket another team owns, which jobs may only read (and only the
 * objects tagged for training), whose daily size the dashboard shows. A job trains from it through an S3 channel and a
 * direct read; the dashboard and the job's permissions take it like any store.
 */
public class SharedBucketExample extends Stack {
    /** Creates the stack. */
    public SharedBucketExample(Construct scope, String id) {
        super(scope, id);
        // snippet:register
        SharedBucketStore shared = new SharedBucketStore(this, "Shared", "team-a-datasets");
        new TrainingDataDashboard(this, "Dashboard", TrainingDataDashboardProps.builder()
                .stores(List.of(shared))
                .build());
        new TrainingJobDefinition(this, "Training", TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri(
                        "123456789012.dkr.ecr.us-east-1.amazonaws.com/trainer:latest"))
                .instanceType("ml.g5.xlarge")
                .channels(List.of(S3Channel.builder("train").store(shared).path("images/train").build()))
                .directReads(List.of(DirectRead.builder("VALIDATION_URI").store(shared).path("images/val").build()))
                .outputBucket(new TrainingDataBucket(this, "Output"))
                .build());
        // end-snippet
    }

    // snippet:store
    /** A bucket another team owns: read-only, objects tagged for training only, its size on the dashboard. */
    public static final class SharedBucketStore extends Construct implements S3Store {
        private final IBucket bucket;

        /** Adopts the bucket named {@code bucketName}. */
        public SharedBucketStore(Construct scope, String id, String bucketName) {
            super(scope, id);
            this.bucket = Bucket.fromBucketName(this, "Bucket", bucketName);
        }

        @Override
        public String getBucketName() {
            return bucket.getBucketName();
        }

        @Override
        public String getBucketArn() {
            return bucket.getBucketArn();
        }

        @Override
        public String getDatasetPrefix() {
            return "";                         // channel paths count from the bucket root
        }

        @Override
        public TrainingNetwork getNetwork() {
            return null;                       // S3: reached through the AWS API, from any network
        }

        @Override
        public String getPinnedAvailabilityZone() {
            return null;                       // S3 pins no Availability Zone
        }

        @Override
        public void grantTraining(StoreGrants grants, StoreAccess access, String path) {
            // read-only, whatever the access asked for, and only what the owner tagged for training
            grants.allow(List.of("s3:ListBucket"), bucket.getBucketArn(),
                    Map.of("StringLike", Map.of("s3:prefix", List.of(path, path + "/*"))), "");
            grants.allow(List.of("s3:GetObject"), bucket.arnForObjects(path + "/*"),
                    Map.of("StringEquals", Map.of("s3:ExistingObjectTag/classification", "training")), "");
        }

        @Override
        public List<List<IWidget>> dashboardRows(Duration period) {
            Metric size = Metric.Builder.create().namespace("AWS/S3").metricName("BucketSizeBytes")
                    .dimensionsMap(Map.of("BucketName", bucket.getBucketName(), "StorageType", "StandardStorage"))
                    .statistic("Average").period(Duration.days(1)).build();
            return List.of(List.of(GraphWidget.Builder.create().title("Shared bucket size (bytes)")
                    .left(List.of(size)).width(24).build()));
        }
    }
    // end-snippet
}
