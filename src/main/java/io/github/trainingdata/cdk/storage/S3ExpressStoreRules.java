package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import io.github.trainingdata.cdk.internal.KeyPrefix;
import io.github.trainingdata.cdk.internal.SubnetZoneIds;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Token;
import software.constructs.IConstruct;

/**
 * The synth-time rules of {@link S3ExpressStore}, one constant each (listed in docs/rules.md), and the resolution of
 * its props: an existing bucket by its full name or a new one by base name and zone ID (given, or the network's data
 * zone), the names within S3's directory bucket naming rules, a given zone ID the network's data zone.
 */
final class S3ExpressStoreRules {
    static final String NAMING = "Amazon S3 User Guide, directory bucket naming rules";
    static final SynthRule EXISTING_OR_NEW = SynthRule.of("S3EXPRESS_EXISTING_OR_NEW", "S3ExpressStore",
            "bucketName, baseName, zoneId, requestMetrics",
            "bucketName (an existing bucket) or baseName (a new one), and new-bucket settings only for a new one",
            "library");
    static final SynthRule BASE_NAME = SynthRule.of("S3EXPRESS_BASE_NAME", "S3ExpressStore", "baseName",
            "lowercase letters, numbers and hyphens, beginning and ending with a letter or number, not beginning with "
                    + "xn--, sthree- or amzn-s3-demo-, the full name <baseName>--<zoneId>--x-s3 at most 63 characters",
            NAMING);
    static final SynthRule BUCKET_NAME = SynthRule.of("S3EXPRESS_BUCKET_NAME", "S3ExpressStore", "bucketName",
            "<base-name>--<zone-id>--x-s3 within the directory bucket naming rules",
            NAMING);
    static final SynthRule ZONE_ID = SynthRule.of("S3EXPRESS_ZONE_ID", "S3ExpressStore", "zoneId",
            "a zone ID such as use1-az4 (not a zone name), given or the network's data zone",
            "Amazon S3 User Guide, directory bucket naming rules and S3 Express One Zone endpoints (buckets are named "
                    + "by zone ID); Amazon EC2 User Guide, AZ IDs");
    static final SynthRule ZONE_NOT_DATA_ZONE = SynthRule.of("S3EXPRESS_ZONE_NOT_DATA_ZONE", "S3ExpressStore",
            "zoneId",
            "the zone ID of the network's data subnet",
            "library (jobs reading the bucket run in the network's data subnet; AWS::EC2::Subnet AvailabilityZoneId)");
    static final SynthRule REMOVAL_POLICY = SynthRule.of("S3EXPRESS_REMOVAL_POLICY", "S3ExpressStore",
            "removalPolicy",
            "DESTROY, RETAIN or RETAIN_ON_UPDATE_OR_DELETE (no SNAPSHOT)",
            "CloudFormation DeletionPolicy (Snapshot only for resource types that take snapshots)");

    /** The suffix every directory bucket name in an Availability Zone ends with. */
    static final String SUFFIX = "--x-s3";
    /** The shortest zone ID ({@code use1-az1}): a base name longer than 63 minus this full suffix never fits. */
    private static final int SHORTEST_ZONE_ID = 8;
    private static final int MAX_NAME = 63;
    private static final Pattern ZONE = Pattern.compile("[a-z]+[0-9]+(-[a-z]+[0-9]+)?-az[0-9]+");
    private static final Pattern BASE = Pattern.compile("[a-z0-9](?:[a-z0-9-]*[a-z0-9])?");
    private static final Pattern FULL = Pattern.compile("(.+)--(" + ZONE.pattern() + ")" + SUFFIX);
    private static final List<String> RESERVED_PREFIXES = List.of("xn--", "sthree-", "amzn-s3-demo-");

    /** What the store builds or adopts. */
    record Spec(boolean existing, String bucketName, String zoneId, String datasetPrefix, RemovalPolicy removalPolicy,
            boolean requestMetrics, boolean readOnlySessions) {
    }

    private S3ExpressStoreRules() {
    }

    /** Checks {@code props} of the store {@code scope} and applies the defaults. */
    static Spec resolve(IConstruct scope, S3ExpressStoreProps props) {
        String prefix = KeyPrefix.check(scope, "datasetPrefix",
                props.getDatasetPrefix() != null ? props.getDatasetPrefix() : TrainingDataBucket.DEFAULT_DATASET_PREFIX);
        boolean readOnly = !Boolean.FALSE.equals(props.getReadOnlySessions());
        RemovalPolicy removal = props.getRemovalPolicy() != null ? props.getRemovalPolicy()
                : RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE;
        if (removal == RemovalPolicy.SNAPSHOT) {
            throw ConfigurationError.of(REMOVAL_POLICY, scope, "removalPolicy", "SNAPSHOT",
                    "DESTROY, RETAIN or RETAIN_ON_UPDATE_OR_DELETE (CloudFormation takes no snapshot of a bucket)");
        }
        if (props.getBucketName() != null) {
            return existing(scope, props, prefix, readOnly, removal);
        }
        if (props.getBaseName() == null) {
            throw ConfigurationError.of(EXISTING_OR_NEW, scope, "baseName", null,
                    "a base name for a new bucket, or bucketName for an existing one");
        }
        String zoneId = zoneId(scope, props);
        String base = props.getBaseName();
        if (!Token.isUnresolved(base)) {
            checkBase(scope, base, zoneId);
        }
        return new Spec(false, base + "--" + zoneId + SUFFIX, zoneId, prefix, removal,
                !Boolean.FALSE.equals(props.getRequestMetrics()), readOnly);
    }

    private static Spec existing(IConstruct scope, S3ExpressStoreProps props, String prefix, boolean readOnly,
            RemovalPolicy removal) {
        String name = props.getBucketName();
        boolean deployTime = Token.isUnresolved(name);
        Map<String, Object> newOnly = new LinkedHashMap<>();
        newOnly.put("baseName", props.getBaseName());
        if (!deployTime) {
            newOnly.put("zoneId", props.getZoneId());
        }
        newOnly.put("requestMetrics", props.getRequestMetrics());
        for (Map.Entry<String, Object> setting : newOnly.entrySet()) {
            if (setting.getValue() != null) {
                throw ConfigurationError.of(EXISTING_OR_NEW, scope, setting.getKey(), setting.getValue(),
                        "unset with bucketName (an existing bucket keeps its own name, zone and metrics)");
            }
        }
        if (deployTime) {
            // The zone ID in a deploy-time name is unknown at synth: the bucket's zone is given apart.
            String zoneId = props.getZoneId();
            if (zoneId == null) {
                throw ConfigurationError.of(ZONE_ID, scope, "zoneId", null,
                        "the bucket's zone ID, such as use1-az4, when bucketName is a deploy-time value (the zone ID "
                                + "in its name is known only at deploy)");
            }
            checkZoneId(scope, zoneId);
            checkDataZone(scope, props, zoneId);
            return new Spec(true, name, zoneId, prefix, removal, false, readOnly);
        }
        Matcher m = FULL.matcher(name);
        if (!m.matches() || !BASE.matcher(m.group(1)).matches() || name.length() > MAX_NAME || reserved(m.group(1))) {
            throw ConfigurationError.of(BUCKET_NAME, scope, "bucketName", name,
                    "<base-name>--<zone-id>--x-s3 (e.g. features--use1-az4--x-s3), 3 to 63 lowercase letters, numbers "
                            + "and hyphens, the base beginning and ending with a letter or number and not beginning "
                            + "with " + String.join(", ", RESERVED_PREFIXES));
        }
        checkDataZone(scope, props, m.group(2));
        return new Spec(true, name, m.group(2), prefix, removal, false, readOnly);
    }

    /** The zone ID given (checked, and matched to the network's data zone), else the network's data subnet's. */
    private static String zoneId(IConstruct scope, S3ExpressStoreProps props) {
        String given = props.getZoneId();
        if (given != null) {
            checkZoneId(scope, given);
            checkDataZone(scope, props, given);
            return given;
        }
        String networkZone = props.getNetwork() != null ? SubnetZoneIds.of(props.getNetwork().getDataSubnet()) : null;
        if (networkZone == null) {
            throw ConfigurationError.of(ZONE_ID, scope, "zoneId", null, props.getNetwork() == null
                    ? "a zone ID such as use1-az4, or a network whose data zone the bucket goes in"
                    : "a zone ID such as use1-az4: the network's data subnet is imported, so its zone ID is unknown");
        }
        return networkZone;
    }

    private static void checkZoneId(IConstruct scope, String zoneId) {
        if (!Token.isUnresolved(zoneId) && !ZONE.matcher(zoneId).matches()) {
            throw ConfigurationError.of(ZONE_ID, scope, "zoneId", zoneId,
                    "a zone ID such as use1-az4 or usw2-lax1-az1 (a directory bucket is named by zone ID, not "
                            + "by zone name)");
        }
    }

    /** A given zone ID must be the network's data zone where both are known at synth; else a warning. */
    private static void checkDataZone(IConstruct scope, S3ExpressStoreProps props, String zoneId) {
        if (props.getNetwork() == null) {
            return;
        }
        String dataZone = SubnetZoneIds.of(props.getNetwork().getDataSubnet());
        boolean known = dataZone != null && !Token.isUnresolved(dataZone) && !Token.isUnresolved(zoneId);
        if (known && !dataZone.equals(zoneId)) {
            throw ConfigurationError.of(ZONE_NOT_DATA_ZONE, scope, "zoneId", zoneId,
                    "the zone ID of the network's data subnet " + props.getNetwork().getDataSubnet().getNode().getPath()
                            + " (" + dataZone + "): jobs that read the bucket run there");
        }
        if (!known) {
            Annotations.of(scope).addWarningV2("@trainingdata/storage:s3ExpressZoneUnknown", scope.getNode().getPath()
                    + ": cannot tell at synth whether zone " + zoneId + " is the zone of the network's data subnet "
                    + props.getNetwork().getDataSubnet().getNode().getPath() + "; omit zoneId to place a new bucket "
                    + "in the data zone, or jobs read it across zones");
        }
    }

    private static void checkBase(IConstruct scope, String base, String zoneId) {
        int zoneLength = Token.isUnresolved(zoneId) ? SHORTEST_ZONE_ID : zoneId.length();
        int most = MAX_NAME - SUFFIX.length() - 2 - zoneLength;
        if (!BASE.matcher(base).matches() || reserved(base) || base.length() > most) {
            throw ConfigurationError.of(BASE_NAME, scope, "baseName", base,
                    "1 to " + most + " lowercase letters, numbers and hyphens, beginning and ending with a letter or "
                            + "number, not beginning with " + String.join(", ", RESERVED_PREFIXES)
                            + " (the full name <baseName>--<zoneId>--x-s3 is at most 63 characters)");
        }
    }

    private static boolean reserved(String base) {
        return RESERVED_PREFIXES.stream().anyMatch(base::startsWith);
    }
}
