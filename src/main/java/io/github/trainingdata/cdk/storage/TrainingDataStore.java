package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.List;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.constructs.IConstruct;

/**
 * A place training data lives: the S3 bucket ({@link TrainingDataBucket}), an S3 Express One Zone directory bucket
 * ({@link S3ExpressStore}), an FSx for Lustre cache of either deployment type ({@link LustreCache}), an EFS file system
 * ({@link EfsStore}), or a store of your own (any S3-addressable one implements {@link S3Store}). Every store answers the same
 * questions, so a channel binds to any store and the training job's permissions, the dashboard and the platform
 * handle every store alike, never by its kind:
 * <ul>
 *   <li>what a job must join to reach it ({@link #getNetwork}, {@link #getZone}, {@link #getReachableZones}); the
 *       store's own security group already admits the network's training security group;</li>
 *   <li>what a training job's role needs to use a path of it ({@link #grantTraining});</li>
 *   <li>what the dashboard shows of it ({@link #dashboardRows}).</li>
 * </ul>
 * A new store is one construct implementing this interface (and, for a new channel kind on it, one channel class
 * in {@code training}): see {@code docs/extending.md}.
 */
public interface TrainingDataStore extends IConstruct {
    /**
     * @return the network a training job must run in to reach the store, or null when the store is reached through
     *     the AWS API from anywhere (S3)
     */
    TrainingNetwork getNetwork();

    /**
     * @return the Availability Zone the store pins training to (a Lustre file system, a One Zone EFS file system),
     *     or null when it pins none
     */
    String getPinnedAvailabilityZone();

    /**
     * The zone the store keeps its data in and how strongly it holds a job there. A job that reads a store with a
     * zone must run in a network (a job outside a VPC runs wherever SageMaker puts it); a required zone fails synth
     * when a training subnet is elsewhere, a preferred one warns.
     *
     * @return the zone, or null when the store has none; by default the {@link #getPinnedAvailabilityZone() pinned
     *     zone}, required
     */
    default StoreZone getZone() {
        String pinned = getPinnedAvailabilityZone();
        return pinned == null ? null : StoreZone.ofName(StoreZone.Affinity.REQUIRED, pinned);
    }

    /**
     * @return the Availability Zones where the store can be reached (one per mount target), or null when any zone of
     *     the network will do or the zones are unknown at synth
     */
    default List<String> getReachableZones() {
        return null;
    }

    /**
     * Adds to {@code grants} what a training job's execution role needs to use {@code path} of this store with
     * {@code access}. Grants are collected, not attached, so the role gets one least-privilege statement per action
     * set however many channels share a store.
     *
     * @param grants the job's collected permissions
     * @param access how the job uses the path
     * @param path the S3 key prefix (no leading or trailing slash; empty for the whole bucket), or the directory on
     *     a file system
     */
    void grantTraining(StoreGrants grants, StoreAccess access, String path);

    /**
     * @param period the period every metric is aggregated over
     * @return the store's rows on the training-data dashboard, each a list of widgets of total width 24 at most
     *     (usually a header and a row of graphs), or an empty list when it shows nothing
     */
    List<List<IWidget>> dashboardRows(Duration period);
}
