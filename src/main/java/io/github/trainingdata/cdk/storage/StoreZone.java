package io.github.trainingdata.cdk.storage;

import java.util.Objects;
import software.amazon.awscdk.Token;

/**
 * The Availability Zone a {@link TrainingDataStore} keeps its data in, and how strongly it holds a training job
 * there. A zone is named either by its name ({@code us-east-1a}, which maps to a different physical zone in each
 * account) or by its ID ({@code use1-az4}, the same physical zone in every account: directory buckets are named by
 * it). A {@link Affinity#REQUIRED required} zone is where the job must run to reach the data at all (a Lustre file
 * system, a One Zone EFS file system); a {@link Affinity#PREFERRED preferred} zone is where the job reads fastest and
 * without cross-zone transfer (an S3 Express One Zone directory bucket, reached through the AWS API from any zone), so
 * placement warns instead of failing and the capacity policy may move the job to another zone.
 */
public final class StoreZone {
    /** How strongly a store holds a job in its zone. */
    public enum Affinity {
        /** The job can reach the store only from this zone. */
        REQUIRED,
        /** The job reaches the store from anywhere, fastest from this zone. */
        PREFERRED
    }

    private final Affinity affinity;
    private final String zoneName;
    private final String zoneId;

    private StoreZone(Affinity affinity, String zoneName, String zoneId) {
        this.affinity = Objects.requireNonNull(affinity, "affinity");
        this.zoneName = zoneName;
        this.zoneId = zoneId;
    }

    /**
     * @param affinity how strongly the store holds a job there
     * @param zoneName the zone's name, e.g. {@code us-east-1a} (may be a deploy-time token)
     * @return the zone
     */
    public static StoreZone ofName(Affinity affinity, String zoneName) {
        return new StoreZone(affinity, Objects.requireNonNull(zoneName, "zoneName"), null);
    }

    /**
     * @param affinity how strongly the store holds a job there
     * @param zoneId the zone's ID, e.g. {@code use1-az4} (may be a deploy-time token)
     * @return the zone
     */
    public static StoreZone ofId(Affinity affinity, String zoneId) {
        return new StoreZone(affinity, null, Objects.requireNonNull(zoneId, "zoneId"));
    }

    /** @return how strongly the store holds a job in the zone */
    public Affinity getAffinity() {
        return affinity;
    }

    /** @return whether a job can reach the store only from this zone */
    public boolean isRequired() {
        return affinity == Affinity.REQUIRED;
    }

    /** @return the zone's name, or null when the zone is named by its ID */
    public String getZoneName() {
        return zoneName;
    }

    /** @return the zone's ID, or null when the zone is named by its name */
    public String getZoneId() {
        return zoneId;
    }

    /** @return the affinity and the zone, for messages; a deploy-time zone is described, never printed as a token */
    @Override
    public String toString() {
        String zone = zoneName != null ? zoneName : zoneId;
        if (Token.isUnresolved(zone)) {
            return affinity + " zone " + (zoneName != null ? "name" : "ID") + " known only at deploy time";
        }
        return affinity + " " + (zoneName != null ? zone : "id " + zone);
    }
}
