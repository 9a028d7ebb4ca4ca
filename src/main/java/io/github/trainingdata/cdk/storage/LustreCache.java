package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.internal.KeyPrefix;
import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.internal.ReplaceableReference;
import io.github.trainingdata.cdk.performance.CacheThroughput;
import io.github.trainingdata.cdk.performance.LustreTier;
import io.github.trainingdata.cdk.performance.Sizing;
import io.github.trainingdata.cdk.limits.FsxLimits;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.CfnResource;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.ec2.CfnSecurityGroupIngress;
import software.amazon.awscdk.services.ec2.Connections;
import software.amazon.awscdk.services.ec2.ConnectionsProps;
import software.amazon.awscdk.services.ec2.IConnectable;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.Port;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.fsx.CfnFileSystem;
import software.amazon.awscdk.services.fsx.LustreDataCompressionType;
import software.amazon.awscdk.services.kms.IKey;
import software.constructs.Construct;
import software.constructs.IConstruct;
import software.constructs.IDependable;

/**
 * An FSx for Lustre file system (SCRATCH_2 by default, or PERSISTENT_2 at a throughput tier; Lustre 2.15) in the
 * network's data subnet, linked to one or more S3 datasets by data repository associations: training jobs mount it as
 * an {@code FSxLustre} channel and read at hundreds of MB/s per TiB instead of copying from S3.
 *
 * <p>PERSISTENT_2 ({@link LustreDeploymentType}) adds a throughput tier of 125–1000 MB/s per TiB, a metadata
 * configuration (on Lustre 2.15; its mode always stated, {@link LustreMetadataMode}), encryption at rest with the data layer's key (the
 * first dataset's bucket key, when it has one) and no automatic backups: FSx takes no backups of a file system linked to
 * S3, where the data's durable copy is.
 *
 * <p>Each {@link LustreDataset} links a directory of the file system to an S3 location (a
 * {@code Custom::DataRepositoryAssociation}, so a changed directory or location moves the link in place); files
 * load lazily on first read unless a {@code LustrePreload} warms them. The security group admits the Lustre ports (TCP
 * 988 and 1018–1023) from itself and from the training security group, nothing else. S3 holds the only
 * copy of the data, so the cache is deleted with its stack; a cache that exports to S3 is retained instead,
 * together with the security group, subnet and VPC its network interfaces keep in use, so that the stack's
 * delete still completes. An existing file system can be adopted instead ({@link ExistingLustreFileSystem});
 * the datasets then describe its associations.
 */
public class LustreCache extends Construct implements IConnectable, TrainingDataStore {
    /**
     * The security group's description: constant, since it is create-only ({@code GroupDescription}) and a new group
     * replaces the file system ({@code SecurityGroupIds} is create-only too).
     */
    static final String SECURITY_GROUP_DESCRIPTION = "FSx for Lustre cache: Lustre traffic from itself and from training jobs";
    private static final Port LUSTRE = Port.tcp(988);
    private static final Port LUSTRE_CLIENTS = Port.tcpRange(1018, 1023);

    private final TrainingNetwork network;
    private final List<LustreDataset> datasets;
    private final Integer storageCapacityGiB;
    private final CacheThroughput loadThroughput;
    private final LustreDataCompressionType dataCompression;
    private final LustreDeploymentType deploymentType;
    private final LustreTier tier;
    private final ISecurityGroup securityGroup;
    private final Connections connections;
    private final CfnFileSystem fileSystem;
    private final List<CustomResource> associations = new ArrayList<>();
    private final List<IDependable> publishedAfter = new ArrayList<>();
    private CustomResource taskGuard;
    private final String fileSystemId;
    private final String mountName;
    private final String dnsName;
    private final String availabilityZone;

    /** Creates the file system and its associations, or adopts {@code props.existingFileSystem}. */
    public LustreCache(Construct scope, String id, LustreCacheProps props) {
        super(scope, id);
        if (props.getNetwork() == null) {
            throw ConfigurationError.of(LustreFileSystemRules.NETWORK, this,
                    "network", null, "the TrainingNetwork the file system lives in");
        }
        this.network = props.getNetwork();
        this.datasets = props.getDatasets() != null ? List.copyOf(props.getDatasets()) : List.of();
        LustreDatasetRules rules = new LustreDatasetRules(this);
        rules.check(props.getDatasets());
        LustreFileSystemRules fileSystemRules = new LustreFileSystemRules(this);
        ExistingLustreFileSystem existing = props.getExistingFileSystem();
        if (existing != null) {
            fileSystemRules.rejectNewFileSystemSettings(props);
            rules.rejectNewAssociationSettings(datasets);
            fileSystemRules.checkExisting(existing);
        }
        this.availabilityZone = existing != null && existing.getAvailabilityZone() != null
                ? existing.getAvailabilityZone() : network.getDataAvailabilityZone();
        LustreFileSystemSpec spec = existing != null ? null : fileSystemRules.resolve(props);
        Number capacity = existing != null ? existing.getStorageCapacityGiB() : spec.capacityGiB();
        this.storageCapacityGiB = capacity == null || Token.isUnresolved(capacity) ? null : capacity.intValue();
        this.deploymentType = spec != null ? spec.deploymentType() : null;
        this.tier = tier(spec, existing);
        this.loadThroughput = loadThroughput(storageCapacityGiB, tier, existing);
        this.dataCompression = existing != null ? null : props.getDataCompression() != null
                ? props.getDataCompression() : LustreDataCompressionType.NONE;

        this.securityGroup = existing != null ? existing.getSecurityGroup() : SecurityGroup.Builder.create(this, "SecurityGroup")
                .vpc(network.getVpc())
                .description(SECURITY_GROUP_DESCRIPTION)
                .allowAllOutbound(true)
                .build();
        this.connections = new Connections(ConnectionsProps.builder()
                .securityGroups(List.of(securityGroup)).defaultPort(LUSTRE).build());
        for (Port port : List.of(LUSTRE, LUSTRE_CLIENTS)) {
            if (existing == null) {
                securityGroup.addIngressRule(securityGroup, port, "Lustre traffic between file servers");
            }
            connections.allowFrom(network.getTrainingSecurityGroup(), port, "Lustre traffic from training jobs");
        }
        List<IKey> keys = DatasetBucketKeys.of(datasets);
        keys.forEach(key -> DatasetBucketKeys.allowFsx(this, key));

        if (existing != null) {
            this.fileSystem = null;
            this.fileSystemId = existing.getFileSystemId();
            this.mountName = existing.getMountName();
            this.dnsName = existing.getDnsName() != null ? existing.getDnsName()
                    : fileSystemId + ".fsx." + Stack.of(this).getRegion() + "." + Aws.URL_SUFFIX;
            return;
        }
        this.fileSystem = CfnFileSystem.Builder.create(this, "Resource")
                .fileSystemType("LUSTRE")
                .fileSystemTypeVersion(spec.version().apiValue())
                .storageCapacity(capacity)
                .subnetIds(List.of(network.getDataSubnet().getSubnetId()))
                .securityGroupIds(List.of(securityGroup.getSecurityGroupId()))
                .kmsKeyId(keyAtRest(spec))
                .lustreConfiguration(lustreConfiguration(spec))
                .build();
        // Training stacks read its id and mount name; a replaced cache (another AZ, version or group) must not be
        // blocked by their imports.
        ReplaceableReference.applyTo(fileSystem);
        Annotations.of(this).addInfo(getNode().getPath() + ": a change of any of these replaces the file system (a "
                + "new, cold cache with a new id and mount name, re-warmed by its preload; definitions in other stacks "
                + "read the new one when their next execution starts): the deployment type (LustreConfiguration."
                + "DeploymentType)" + (spec.persistent() ? ", the throughput tier (LustreConfiguration."
                + "PerUnitStorageThroughput: CloudFormation's resource specification marks it as replacing, although "
                + "the FSx API changes it in place)" : "") + ", the key at rest (KmsKeyId), the security group "
                + "(SecurityGroupIds) and the network's data subnet or Availability Zone (SubnetIds); a Lustre version "
                + "upgrade (FileSystemTypeVersion) is in place where the Region's CloudFormation schema allows it");
        this.fileSystemId = fileSystem.getRef();
        this.mountName = fileSystem.getAttrLustreMountName();
        this.dnsName = fileSystem.getAttrDnsName();
        DataRepositoryAssociations.Links links = DataRepositoryAssociations.create(this, fileSystemId, datasets, keys,
                getEncryptionKey());
        associations.addAll(links.associations());
        taskGuard = links.taskGuard();
        applyRemovalPolicy(props.getRemovalPolicy() != null ? props.getRemovalPolicy()
                : exports() ? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE : RemovalPolicy.DESTROY);
    }

    /**
     * A PERSISTENT_2 file system's key at rest: the data layer's key (the first dataset's bucket key), so one key choice
     * covers the data in S3 and on the cache; without one, FSx's own key. SCRATCH_2 takes no key ("SCRATCH_1 and
     * SCRATCH_2 types are encrypted using the Amazon FSx service KMS key", FSx API reference, CreateFileSystem).
     * {@code KmsKeyId} is create-only: encrypting the bucket with KMS later replaces a PERSISTENT_2 cache.
     */
    private String keyAtRest(LustreFileSystemSpec spec) {
        IKey key = getEncryptionKey();
        if (!spec.persistent() || key == null) {
            return null;
        }
        if (key.getNode().getDefaultChild() == null) {
            Annotations.of(this).addWarningV2("@trainingdata/storage:importedKeyAtRest", getNode().getPath()
                    + ": the PERSISTENT_2 file system is encrypted at rest with the data bucket's imported KMS key, whose "
                    + "policy cannot be changed here: it must let the principal that deploys the stack use the key "
                    + "through FSx (FSx creates a grant on it when it creates the file system), or the create fails");
        }
        return key.getKeyArn();
    }

    /**
     * The file system's Lustre settings. PERSISTENT_2 adds its tier, its metadata configuration and no automatic
     * backups (explicitly 0: "File system backups aren't supported on file systems that are linked to an Amazon S3 data
     * repository", FSx for Lustre guide, "Using data repositories"); the S3 links are associations, so no ImportPath,
     * ExportPath, ImportedFileChunkSize or AutoImportPolicy (PERSISTENT_2 supports none of them).
     */
    private CfnFileSystem.LustreConfigurationProperty lustreConfiguration(LustreFileSystemSpec spec) {
        CfnFileSystem.LustreConfigurationProperty.Builder lustre = CfnFileSystem.LustreConfigurationProperty.builder()
                .deploymentType(spec.deploymentType().apiValue())
                .dataCompressionType(dataCompression.name())
                .weeklyMaintenanceStartTime(spec.weeklyMaintenanceStartTime());
        if (spec.persistent()) {
            lustre.perUnitStorageThroughput(spec.perUnitStorageThroughput())
                    .automaticBackupRetentionDays(0);
            if (spec.metadataMode() != null) {
                lustre.metadataConfiguration(CfnFileSystem.MetadataConfigurationProperty.builder()
                        .mode(spec.metadataMode())
                        .iops(spec.metadataIops())
                        .build());
            }
        }
        return lustre.build();
    }

    /**
     * Deletes the cache with its stack (S3 holds its data), or retains it together with everything its network
     * interfaces keep in use: its security group, the group's rules that admit Lustre traffic from itself (separate
     * {@code AWS::EC2::SecurityGroupIngress} resources, deleted with the stack unless retained too: the retained file
     * servers could no longer reach each other) and, when the network created them, the data subnet and the VPC.
     * Without them the stack's delete would end in DELETE_FAILED on the group, subnet or VPC. The rules admitting the
     * training security group are not retained: that group is deleted with the stack, and "If you attempt to delete a
     * security group that ... is referenced by another security group in the same VPC ... the operation fails with
     * DependencyViolation" (EC2 API reference, DeleteSecurityGroup).
     */
    private void applyRemovalPolicy(RemovalPolicy policy) {
        fileSystem.applyRemovalPolicy(policy);
        // The associations are never retained (see DataRepositoryAssociations); the guard goes with the file system.
        taskGuard.applyRemovalPolicy(policy);
        if (policy == RemovalPolicy.DESTROY) {
            return;
        }
        List<IConstruct> kept = new ArrayList<>(List.of(securityGroup));
        if (network.isVpcCreated()) {
            kept.add(network.getDataSubnet());
            kept.add(network.getVpc());
        }
        for (IConstruct construct : kept) {
            if (construct.getNode().getDefaultChild() instanceof CfnResource resource) {
                resource.applyRemovalPolicy(policy);
            }
        }
        selfIngressRules().forEach(rule -> rule.applyRemovalPolicy(policy));
        Annotations.of(this).addInfo(getNode().getPath() + ": the file system is retained when the stack is deleted ("
                + (exports() ? "it exports to S3" : "removalPolicy") + "), and so are its security group with its "
                + "Lustre rules from itself" + (network.isVpcCreated() ? ", the data subnet and the VPC" : "")
                + "; delete them after the file system (the rules admitting training jobs go with the stack)");
        if (exports()) {
            Annotations.of(this).addWarningV2("@trainingdata/storage:retainedCacheReplacement", getNode().getPath()
                    + ": this cache exports to S3 and is retained, also when an update replaces it (a new subnet or AZ, "
                    + "security group or Lustre version): the old file system then stays; in the update's cleanup its "
                    + "associations export their directories and are unlinked (their files stay on it). After such an "
                    + "update, delete the old file system (its id is in the stack's events)");
        }
    }

    /** @return the security group's ingress rules whose source is the group itself (the file servers' traffic) */
    private List<CfnSecurityGroupIngress> selfIngressRules() {
        String self = securityGroup.getSecurityGroupId();
        return securityGroup.getNode().getChildren().stream()
                .filter(CfnSecurityGroupIngress.class::isInstance).map(CfnSecurityGroupIngress.class::cast)
                .filter(rule -> self.equals(rule.getSourceSecurityGroupId())).toList();
    }

    private boolean exports() {
        return datasets.stream().anyMatch(d -> d.getAutoExport() != null && !d.getAutoExport().isEmpty());
    }

    /**
     * A directory of one of the cache's datasets, with its mount path and its S3 location.
     *
     * @param datasetName the dataset's name
     * @param path a path inside the dataset, without leading or trailing {@code /}; empty for its root
     * @return the location
     * @throws ConfigurationError when the cache has no such dataset or the path is not valid
     */
    public LustreLocation location(String datasetName, String path) {
        return new LustreLocation(this, dataset(datasetName), KeyPrefix.check(this, "path", path));
    }

    /**
     * The dataset of that name.
     *
     * @param name the dataset's name
     * @return the dataset
     * @throws ConfigurationError when the cache has no such dataset
     */
    public LustreDataset dataset(String name) {
        return datasets.stream().filter(d -> d.getName().equals(name)).findFirst()
                .orElseThrow(() -> ConfigurationError.of(LustreDatasetRules.KNOWN, this,
                        "dataset", name, datasetNames()));
    }

    /** @return in words, the datasets a channel or preload may name, e.g. {@code one of the datasets imagenet, coco} */
    public String datasetNames() {
        return "one of the cache's datasets " + String.join(", ", datasets.stream().map(LustreDataset::getName).toList());
    }

    /**
     * The data layer's KMS key, for the cache's log groups and the like: the key of its first dataset's bucket.
     *
     * @return the key, or null when that bucket uses SSE-S3
     */
    public IKey getEncryptionKey() {
        return datasets.get(0).getDataBucket().getEncryptionKey();
    }

    /** @return the datasets, in order */
    public List<LustreDataset> getDatasets() {
        return datasets;
    }

    /** @return the file system id, e.g. {@code fs-0123456789abcdef0} (a token for a new one) */
    public String getFileSystemId() {
        return fileSystemId;
    }

    /** @return the Lustre mount name, generated at deploy for a new file system (a token) */
    public String getMountName() {
        return mountName;
    }

    /** @return the file system's DNS name */
    public String getDnsName() {
        return dnsName;
    }

    /** @return the Availability Zone of the file system: the network's data AZ, or an existing one's own */
    public String getAvailabilityZone() {
        return availabilityZone;
    }

    /** @return the file system's Availability Zone: a Lustre file system lives in one, and so must the job */
    @Override
    public String getPinnedAvailabilityZone() {
        return availabilityZone;
    }

    /** @return the network the file system lives in */
    @Override
    public TrainingNetwork getNetwork() {
        return network;
    }

    /**
     * @return the storage capacity in GiB, or null when it is not known at synth: a deploy-time value, or an
     *     existing file system whose capacity was not given
     */
    public Integer getStorageCapacityGiB() {
        return storageCapacityGiB;
    }

    /**
     * @return what reads sustain: the capacity times SCRATCH_2's 200 MB/s per TiB or the PERSISTENT_2 tier
     * @throws IllegalStateException when the capacity or the tier is not known at synth ({@link #getTier()} is null)
     */
    public double getBaselineThroughputMBps() {
        return Sizing.lustreBaselineMBps(knownCapacity(), knownTier());
    }

    /**
     * @return what reads served from the file servers' memory reach: SCRATCH_2's 1300 MB/s burst per TiB, or the
     *     PERSISTENT_2 tier's network throughput (1300 MB/s per TiB, 2600 at 1000)
     * @throws IllegalStateException when the capacity or the tier is not known at synth ({@link #getTier()} is null)
     */
    public double getBurstThroughputMBps() {
        return Sizing.lustrePeakMBps(knownCapacity(), knownTier());
    }

    /**
     * How fast the file system loads data from S3, for the preload's estimate: SCRATCH_2's rate, a new PERSISTENT_2's
     * tier, or an existing persistent file system's {@code PerUnitStorageThroughput} when given.
     *
     * @return the load throughput, or null when the capacity (or a new PERSISTENT_2's tier) is not known at synth
     */
    public CacheThroughput getLoadThroughput() {
        return loadThroughput;
    }

    /**
     * The deployment type and throughput tier the estimates use: a new file system's (null when its tier is a
     * deploy-time value); for an existing one, PERSISTENT_2 at its given {@code perUnitStorageThroughput}, SCRATCH_2
     * when none is given (assumed), null for a PERSISTENT_1 tier.
     *
     * @return the tier, or null when unknown
     */
    public LustreTier getTier() {
        return tier;
    }

    /** @return the deployment type of a file system created here; null for an existing one */
    public LustreDeploymentType getDeploymentType() {
        return deploymentType;
    }

    /** @return the compression of a file system created here; null for an existing one, whose setting is unknown */
    public LustreDataCompressionType getDataCompression() {
        return dataCompression;
    }

    private static LustreTier tier(LustreFileSystemSpec spec, ExistingLustreFileSystem existing) {
        Number perUnit = spec != null ? spec.perUnitStorageThroughput() : existing.getPerUnitStorageThroughput();
        if (spec != null && !spec.persistent() || spec == null && perUnit == null) {
            return LustreTier.scratch2();
        }
        return Token.isUnresolved(perUnit) || !FsxLimits.PERSISTENT_2_THROUGHPUTS.contains(perUnit.intValue()) ? null
                : LustreTier.persistent2(perUnit.intValue());
    }

    private static CacheThroughput loadThroughput(Integer capacityGiB, LustreTier tier, ExistingLustreFileSystem existing) {
        if (capacityGiB == null) {
            return null;
        }
        if (tier != null) {
            return new CacheThroughput(capacityGiB, tier.loadMBpsPerTib());
        }
        Integer perUnit = existing != null ? existing.getPerUnitStorageThroughput() : null;
        return perUnit != null ? CacheThroughput.persistent(capacityGiB, perUnit) : null;
    }

    private int knownCapacity() {
        if (storageCapacityGiB == null) {
            throw new IllegalStateException(getNode().getPath() + ": the throughput is known at synth only for a "
                    + "literal storage capacity (not a deploy-time value), and for an existing file system only when "
                    + "ExistingLustreFileSystem.storageCapacityGiB is given");
        }
        return storageCapacityGiB;
    }

    private LustreTier knownTier() {
        if (tier == null) {
            throw new IllegalStateException(getNode().getPath() + ": the throughput is known at synth only for a "
                    + "literal PERSISTENT_2 tier (not a deploy-time value), and for an existing file system only for a "
                    + "PERSISTENT_2 tier or none given (SCRATCH_2 assumed)");
        }
        return tier;
    }

    /**
     * What jobs in other stacks read of this cache when they start (see {@link StorePublication}): its id, mount name,
     * DNS name and Availability Zone, and the subnet jobs run in (the network's data subnet). Created on first use;
     * a {@code TrainingJobDefinition} in another stack uses it instead of referencing the file system.
     *
     * @return the publication
     * @throws io.github.trainingdata.cdk.ConfigurationError when another store publishes under the same name
     */
    public StorePublication publication() {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put(StorePublication.STORE, getNode().getPath());
        document.put("FileSystemType", "FSxLustre");
        document.put(StorePublication.FILE_SYSTEM_ID, fileSystemId);
        document.put(StorePublication.MOUNT_NAME, mountName);
        document.put("DnsName", dnsName);
        document.put("AvailabilityZone", availabilityZone);
        document.put(StorePublication.SUBNETS, List.of(network.getDataSubnet().getSubnetId()));
        boolean first = StorePublication.existing(this) == null;
        StorePublication publication = StorePublication.of(this, document);
        if (first) {
            publishedAfter.forEach(publication::publishAfter);
        }
        if (first && fileSystem != null) {
            StorePublication.warnUpgradeWithImports(this, "this cache",
                    "the cache's id and mount name, which upgrading replaces");
        }
        return publication;
    }

    /**
     * Publishes the cache (when it is read from another stack) only after {@code first}: a {@code LustrePreload} calls
     * this, so that a replaced cache reaches training once its warm-up is current.
     *
     * @param first what must be deployed before the publication
     */
    public void publishAfter(IDependable first) {
        publishedAfter.add(first);
        StorePublication publication = StorePublication.existing(this);
        if (publication != null) {
            publication.publishAfter(first);
        }
    }

    /** @return whether this construct adopted an existing file system */
    public boolean isExisting() {
        return fileSystem == null;
    }

    /** @return the file system's security group */
    public ISecurityGroup getSecurityGroup() {
        return securityGroup;
    }

    /** @return the L1 file system, for overrides, or null for an existing file system */
    public CfnFileSystem getResource() {
        return fileSystem;
    }

    /**
     * The data repository associations this construct created: one {@code Custom::DataRepositoryAssociation} per
     * dataset, in dataset order (none for an existing file system). Each has the attribute {@code AssociationId}.
     *
     * @return the custom resources
     */
    public List<CustomResource> getAssociations() {
        return List.copyOf(associations);
    }

    @Override
    public Connections getConnections() {
        return connections;
    }

    /**
     * Grants {@code fsx:DescribeFileSystems}, which SageMaker calls to mount the file system (a list action with no
     * resource-level permissions); the file system's own security group, not IAM, admits the job's instances.
     */
    @Override
    public void grantTraining(StoreGrants grants, StoreAccess access, String path) {
        grants.allow(List.of("fsx:DescribeFileSystems"), "*",
                "fsx:DescribeFileSystems is a list action that supports no resource-level permissions.");
    }

    /** @return a header, then read and write throughput against what the cache buys and the fullest disk's space */
    @Override
    public List<List<IWidget>> dashboardRows(Duration period) {
        return LustreCacheRows.of(this, period);
    }
}
