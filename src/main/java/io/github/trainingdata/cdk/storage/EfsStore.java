package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.internal.EfsDirectoryPath;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.IStableStringProducer;
import software.amazon.awscdk.Lazy;
import software.amazon.awscdk.Size;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.ec2.Connections;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.amazon.awscdk.services.ec2.IConnectable;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.efs.FileSystem;
import software.amazon.awscdk.services.efs.IFileSystem;
import software.constructs.Construct;
import software.constructs.DependencyGroup;
import software.constructs.IConstruct;
import software.constructs.IDependable;

/**
 * An Amazon EFS file system that training jobs mount as an {@code EFS} channel: the natural store when
 * preprocessing or labelling tools already write the data there.
 *
 * <p>A new file system is encrypted, has automatic backups, is retained when the stack is deleted, has a
 * mount target in every AZ of the network's storage subnets (or, One Zone, exactly one in the data AZ),
 * and a security group that admits NFS (TCP 2049) from the training group only. It carries no
 * file-system policy: SageMaker mounts EFS as an anonymous NFS client, which a policy denying anonymous
 * access would block, so network reachability (the security group) is the access control.
 *
 * <p><b>Directories.</b> A new file system holds only {@code /}, and a training job fails if its channel's
 * directory is missing. Every directory an {@code EfsChannel} reads (and every {@link #addDirectory}) is
 * created during the deploy, idempotently and never deleting anything, by a custom resource that lives with
 * the store (see {@link #getDirectoriesCreated}); the training definitions deploy after it. With
 * {@code createDirectories(false)} nothing is created: the directories are listed in a stack output and a
 * synth warning instead.
 */
public class EfsStore extends Construct implements IConnectable, TrainingDataStore {
    /** The highest provisioned throughput most Regions allow without a limit increase. */
    public static final int PROVISIONED_MIBPS_REGION_MAX = 3414;
    /**
     * Regions where Lambda cannot mount EFS (Lambda developer guide, "Configuring file system access for
     * Lambda functions": all commercial Regions except these).
     */
    static final Set<String> REGIONS_WITHOUT_LAMBDA_EFS = Set.of("ap-southeast-6", "ap-east-2", "ap-southeast-5",
            "mx-central-1", "ap-southeast-7", "ca-west-1");

    /** The security group's description: constant, since {@code GroupDescription} is create-only. */
    static final String SECURITY_GROUP_DESCRIPTION = "EFS file system: NFS from training jobs";
    /** What SageMaker's execution role takes to mount the file system: describe it and its mount targets. */
    private static final List<String> TRAINING_ACTIONS = List.of("elasticfilesystem:DescribeFileSystems",
            "elasticfilesystem:DescribeMountTargets");
    private final TrainingNetwork network;
    private final IFileSystem fileSystem;
    /** The file system's id, read once (every read is a jsii call). */
    private final String fileSystemId;
    private final boolean oneZone;
    private final boolean existing;
    private final boolean createDirectories;
    private final IKey logsKey;
    private final Set<String> directories = new TreeSet<>();
    private final DependencyGroup directoriesCreated = new DependencyGroup();

    /** Creates the file system, or adopts {@code props.fileSystem}. */
    public EfsStore(Construct scope, String id, EfsStoreProps props) {
        super(scope, id);
        EfsStoreSpec spec = EfsStoreRules.resolve(this, props);
        this.network = props.getNetwork();
        this.oneZone = spec.oneZone();
        this.existing = spec.existing();
        this.createDirectories = spec.createDirectories();
        this.logsKey = spec.logsKey();
        this.fileSystem = existing ? props.getFileSystem() : createFileSystem(props, spec);
        this.fileSystemId = fileSystem.getFileSystemId();
        fileSystem.getConnections().allowDefaultPortFrom(network.getTrainingSecurityGroup(),
                "NFS from SageMaker training jobs");
    }

    private FileSystem createFileSystem(EfsStoreProps props, EfsStoreSpec spec) {
        SecurityGroup group = SecurityGroup.Builder.create(this, "SecurityGroup")
                .vpc(network.getVpc())
                .description(SECURITY_GROUP_DESCRIPTION)
                .allowAllOutbound(true)
                .build();
        SubnetSelection mountSubnets = oneZone
                ? SubnetSelection.builder().availabilityZones(List.of(network.getDataAvailabilityZone())).build()
                : network.getStorageSubnets();
        return FileSystem.Builder.create(this, "Resource")
                .vpc(network.getVpc())
                .vpcSubnets(mountSubnets)
                .securityGroup(group)
                .performanceMode(spec.performanceMode())
                .throughputMode(spec.throughputMode())
                .provisionedThroughputPerSecond(spec.provisionedThroughputMibps() != null
                        ? Size.mebibytes(spec.provisionedThroughputMibps()) : null)
                .oneZone(oneZone)
                .encrypted(true)
                .kmsKey(props.getEncryptionKey())
                .enableAutomaticBackups(true)
                .allowAnonymousAccess(true)
                .removalPolicy(spec.removalPolicy())
                .build();
    }

    /**
     * Makes sure {@code path} exists on the file system after the deploy (EFS channels call this for the
     * directory they read). With {@code createDirectories} (the default) the store's custom resource creates it
     * and any missing parent with mode 755, owned by root; existing directories are left as they are and nothing
     * is ever deleted, not even when a path is no longer listed. Otherwise the path is listed in the stack output
     * {@code DirectoriesToCreate} and in a synth warning. The root {@code /} always exists.
     *
     * @param path an absolute directory from the file system's root, e.g. {@code /datasets/train} (may be a token)
     */
    public void addDirectory(String path) {
        EfsDirectoryPath.check(this, "directory", path);
        String directory = Token.isUnresolved(path) || path.equals("/") ? path : path.replaceAll("/+$", "");
        if (directory.equals("/") || !directories.add(directory)) {
            return;
        }
        if (directories.size() == 1) {
            onFirstDirectory();
        }
        if (!createDirectories) {
            Annotations.of(this).addWarningV2("@trainingdata/efs:createDirectory", getNode().getPath() + ": create "
                    + (Token.isUnresolved(directory) ? "the directory given as a deploy-time value (it is in the stack "
                            + "output DirectoriesToCreate)" : directory)
                    + " on the file system before a training job reads it (createDirectories is false)");
        }
    }

    /** On the first directory: the custom resource that creates them all, or the output that lists them. */
    private void onFirstDirectory() {
        if (!createDirectories) {
            CfnOutput.Builder.create(this, "DirectoriesToCreate")
                    .description("Directories to create on the EFS file system " + getNode().getPath()
                            + " before a training job reads them (createDirectories is false)")
                    .value(Lazy.string((IStableStringProducer) () -> String.join(", ", directories)))
                    .build();
            return;
        }
        String region = Stack.of(this).getRegion();
        if (!Token.isUnresolved(region) && REGIONS_WITHOUT_LAMBDA_EFS.contains(region)) {
            Annotations.of(this).addWarningV2("@trainingdata/efs:noLambdaEfsInRegion", getNode().getPath()
                    + ": Lambda cannot mount EFS in " + region + ", so the directories cannot be created during the "
                    + "deploy; set createDirectories(false) and create them yourself");
        }
        EfsDirectories creator = new EfsDirectories(this, "Directories", () -> new ArrayList<>(directories), logsKey);
        directoriesCreated.add(creator.getResource());
    }

    /**
     * What a reader of the store's directories must deploy after: the custom resource that creates them (empty
     * until a directory is added, and with {@code createDirectories(false)}). Training definitions with an EFS
     * channel on the store already depend on it.
     *
     * @return the dependable
     */
    public IDependable getDirectoriesCreated() {
        return directoriesCreated;
    }

    /** @return the directories added so far (sorted; tokens as their string form), without {@code /} */
    public List<String> getDirectories() {
        return List.copyOf(directories);
    }

    /** @return whether the deploy creates the directories (see {@link EfsStoreProps.Builder#createDirectories}) */
    public boolean isCreatingDirectories() {
        return createDirectories;
    }

    /** @return the file system (new or existing) */
    public IFileSystem getFileSystem() {
        return fileSystem;
    }

    /** @return the file system id, e.g. {@code fs-0123456789abcdef0} (a token for a new one) */
    public String getFileSystemId() {
        return fileSystemId;
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
    @Override
    public TrainingNetwork getNetwork() {
        return network;
    }

    @Override
    public Connections getConnections() {
        return fileSystem.getConnections();
    }

    /** @return the data AZ for a One Zone file system, whose one mount target is there; null otherwise */
    @Override
    public String getPinnedAvailabilityZone() {
        return oneZone ? network.getDataAvailabilityZone() : null;
    }

    /**
     * @return the zones of the network's storage subnets, one mount target each, for a new Regional file system;
     *     null for a One Zone one (pinned instead) or an existing one (its mount targets are unknown)
     */
    @Override
    public List<String> getReachableZones() {
        if (existing || oneZone) {
            return null;
        }
        return network.getStorageSubnets().getSubnets().stream().map(ISubnet::getAvailabilityZone).toList();
    }

    /**
     * What jobs in other stacks read of this file system when they start (see {@link StorePublication}): its id, the
     * Availability Zone and subnet jobs run in (the network's data subnet and zone, where a One Zone file system has
     * its one mount target and a Regional one has one of its own), and the zones of its mount targets (null for an
     * adopted file system, whose mount targets are unknown). Created on first use; a {@code TrainingJobDefinition} in
     * another stack uses it instead of referencing the file system.
     *
     * @return the publication
     * @throws io.github.trainingdata.cdk.ConfigurationError when another store publishes under the same name
     */
    public StorePublication publication() {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put(StorePublication.STORE, getNode().getPath());
        document.put("FileSystemType", "EFS");
        document.put(StorePublication.FILE_SYSTEM_ID, fileSystemId);
        document.put("AvailabilityZone", network.getDataAvailabilityZone());
        document.put(StorePublication.SUBNETS, List.of(network.getDataSubnet().getSubnetId()));
        List<String> zones = oneZone ? List.of(network.getDataAvailabilityZone()) : getReachableZones();
        if (zones != null) {
            document.put("MountTargetZones", zones);
        }
        boolean first = StorePublication.existing(this) == null;
        StorePublication publication = StorePublication.of(this, document);
        if (!first) {
            return publication;
        }
        publication.publishAfter(directoriesCreated);
        if (!existing) {
            StorePublication.warnUpgradeWithImports(this, "this file system's id",
                    "its id, whose export this release drops");
        }
        return publication;
    }

    /**
     * Grants describing the file system and its mount targets, which SageMaker does to mount it; NFS access is the
     * security group's, since SageMaker mounts EFS as an anonymous client.
     */
    @Override
    public void grantTraining(StoreGrants grants, StoreAccess access, String path) {
        grants.allow(TRAINING_ACTIONS, fileSystem.getFileSystemArn(), "");
    }

    /**
     * As {@link #grantTraining}, for a job in another stack that reads the file system's id at run time. The ARN is
     * built in the reader's own stack: for an adopted file system with a literal id it names that one; for a file
     * system this stack creates it names every EFS file system of the reader's account and Region
     * ({@code file-system/*}), since naming this one would carry its id, which a replacement changes, across the
     * stacks at deploy time. Both actions only describe.
     *
     * @param grants the job's grants
     * @param reader a construct in the job's stack
     */
    public void grantTrainingAcrossStacks(StoreGrants grants, IConstruct reader) {
        boolean literal = !Token.isUnresolved(fileSystemId);
        grants.allow(TRAINING_ACTIONS, Stack.of(reader).formatArn(ArnComponents.builder()
                        .service("elasticfilesystem").resource("file-system")
                        .resourceName(literal ? fileSystemId : "*").build()),
                literal ? "" : "The job reads the EFS file system's id when it starts (the file system is in another "
                        + "stack, which may replace it); describing file systems and mount targets reveals no data.");
    }

    /** @return a header, then throughput, metered against permitted throughput, the I/O limit and burst credits */
    @Override
    public List<List<IWidget>> dashboardRows(Duration period) {
        return EfsStoreRows.of(this, period);
    }
}
