package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Size;
import software.amazon.awscdk.services.ec2.Connections;
import software.amazon.awscdk.services.ec2.IConnectable;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.efs.FileSystem;
import software.amazon.awscdk.services.efs.IFileSystem;
import software.amazon.awscdk.services.efs.PerformanceMode;
import software.amazon.awscdk.services.efs.ThroughputMode;
import software.constructs.Construct;

/**
 * An Amazon EFS file system that training jobs mount as an {@code EFS} channel: the natural store when
 * preprocessing or labelling tools already write the data there.
 *
 * <p>A new file system is encrypted, has automatic backups, is retained when the stack is deleted, has a
 * mount target in every AZ of the network's storage subnets (or, One Zone, exactly one in the data AZ),
 * and a security group that admits NFS (TCP 2049) from the training group only. It carries no
 * file-system policy: SageMaker mounts EFS as an anonymous NFS client, which a policy denying anonymous
 * access would block, so network reachability (the security group) is the access control.
 */
public class EfsStore extends Construct implements IConnectable {
    /** The highest provisioned throughput most Regions allow without a limit increase. */
    public static final int PROVISIONED_MIBPS_REGION_MAX = 3414;

    private final TrainingNetwork network;
    private final IFileSystem fileSystem;
    private final boolean oneZone;
    private final boolean existing;

    /** Creates the file system, or adopts {@code props.fileSystem}. */
    public EfsStore(Construct scope, String id, EfsStoreProps props) {
        super(scope, id);
        this.network = props.getNetwork();
        this.oneZone = Boolean.TRUE.equals(props.getOneZone());
        this.existing = props.getFileSystem() != null;
        if (props.getFileSystem() != null) {
            rejectNewFileSystemSettings(props);
            this.fileSystem = props.getFileSystem();
        } else {
            this.fileSystem = createFileSystem(props);
        }
        fileSystem.getConnections().allowDefaultPortFrom(network.getTrainingSecurityGroup(),
                "NFS from SageMaker training jobs");
    }

    private void rejectNewFileSystemSettings(EfsStoreProps props) {
        Map<String, Object> newOnly = new LinkedHashMap<>();
        newOnly.put("performanceMode", props.getPerformanceMode());
        newOnly.put("throughputMode", props.getThroughputMode());
        newOnly.put("provisionedThroughputMibps", props.getProvisionedThroughputMibps());
        newOnly.put("oneZone", props.getOneZone());
        newOnly.put("encryptionKey", props.getEncryptionKey());
        newOnly.put("removalPolicy", props.getRemovalPolicy());
        ConfigurationError.rejectNewSettingsWithExisting(this, "fileSystem", "fileSystem", "new-file-system", newOnly);
    }

    private FileSystem createFileSystem(EfsStoreProps props) {
        PerformanceMode performance = props.getPerformanceMode() != null
                ? props.getPerformanceMode() : PerformanceMode.GENERAL_PURPOSE;
        ThroughputMode throughput = props.getThroughputMode() != null
                ? props.getThroughputMode() : ThroughputMode.BURSTING;
        Integer mibps = props.getProvisionedThroughputMibps();
        validateModes(performance, throughput, mibps);

        SecurityGroup group = SecurityGroup.Builder.create(this, "SecurityGroup")
                .vpc(network.getVpc())
                .description("EFS " + getNode().getPath() + ": NFS from training jobs")
                .allowAllOutbound(true)
                .build();
        SubnetSelection mountSubnets = oneZone
                ? SubnetSelection.builder().availabilityZones(List.of(network.getDataAvailabilityZone())).build()
                : network.getStorageSubnets();
        return FileSystem.Builder.create(this, "Resource")
                .vpc(network.getVpc())
                .vpcSubnets(mountSubnets)
                .securityGroup(group)
                .performanceMode(performance)
                .throughputMode(throughput)
                .provisionedThroughputPerSecond(mibps != null ? Size.mebibytes(mibps) : null)
                .oneZone(oneZone)
                .encrypted(true)
                .kmsKey(props.getEncryptionKey())
                .enableAutomaticBackups(true)
                .allowAnonymousAccess(true)
                .removalPolicy(props.getRemovalPolicy() != null ? props.getRemovalPolicy() : RemovalPolicy.RETAIN)
                .build();
    }

    private void validateModes(PerformanceMode performance, ThroughputMode throughput, Integer mibps) {
        if (performance == PerformanceMode.MAX_IO && oneZone) {
            throw ConfigurationError.of(this, "performanceMode", "MAX_IO",
                    "GENERAL_PURPOSE for a One Zone file system (EFS offers Max I/O only on Regional file systems)");
        }
        if (performance == PerformanceMode.MAX_IO && throughput == ThroughputMode.ELASTIC) {
            throw ConfigurationError.of(this, "throughputMode", "ELASTIC",
                    "BURSTING or PROVISIONED with MAX_IO (elastic throughput requires GENERAL_PURPOSE)");
        }
        if (throughput == ThroughputMode.PROVISIONED && mibps == null) {
            throw ConfigurationError.of(this, "provisionedThroughputMibps", null,
                    "a rate of at least 1 MiB/s when throughputMode is PROVISIONED");
        }
        if (throughput != ThroughputMode.PROVISIONED && mibps != null) {
            throw ConfigurationError.of(this, "provisionedThroughputMibps", mibps,
                    "unset unless throughputMode is PROVISIONED (it is " + throughput + ")");
        }
        if (mibps != null && mibps < 1) {
            throw ConfigurationError.of(this, "provisionedThroughputMibps", mibps, "at least 1 MiB/s");
        }
        if (mibps != null && mibps > PROVISIONED_MIBPS_REGION_MAX) {
            Annotations.of(this).addWarningV2("@trainingdata/efs:provisionedThroughputAboveRegionMax",
                    getNode().getPath() + ": provisionedThroughputMibps " + mibps + " is above "
                            + PROVISIONED_MIBPS_REGION_MAX + " MiB/s, the maximum in most Regions; the deploy fails "
                            + "unless the account's limit was raised");
        }
    }

    /** @return the file system (new or existing) */
    public IFileSystem getFileSystem() {
        return fileSystem;
    }

    /** @return the file system id, e.g. {@code fs-0123456789abcdef0} (a token for a new one) */
    public String getFileSystemId() {
        return fileSystem.getFileSystemId();
    }

    /** @return whether this is a new One Zone file system (in the data AZ) */
    public boolean isOneZone() {
        return oneZone;
    }

    /** @return whether this construct adopted an existing file system (its mount targets are unknown) */
    public boolean isExisting() {
        return existing;
    }

    /** @return the network the file system serves */
    public TrainingNetwork getNetwork() {
        return network;
    }

    @Override
    public Connections getConnections() {
        return fileSystem.getConnections();
    }
}
