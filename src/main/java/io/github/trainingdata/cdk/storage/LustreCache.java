package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.advisor.Sizing;
import io.github.trainingdata.cdk.limits.FsxLimits;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.CfnResource;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.ec2.Connections;
import software.amazon.awscdk.services.ec2.ConnectionsProps;
import software.amazon.awscdk.services.ec2.IConnectable;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.Port;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.fsx.CfnDataRepositoryAssociation;
import software.amazon.awscdk.services.fsx.CfnFileSystem;
import software.amazon.awscdk.services.fsx.LustreDataCompressionType;
import software.amazon.awscdk.services.iam.AnyPrincipal;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.kms.IKey;
import software.constructs.Construct;
import software.constructs.IConstruct;

/**
 * A SCRATCH_2 FSx for Lustre file system (Lustre 2.15) in the network's data subnet, linked to one or more
 * S3 datasets by data repository associations: training jobs mount it as an {@code FSxLustre} channel and
 * read at hundreds of MB/s per TiB instead of copying from S3.
 *
 * <p>Each {@link LustreDataset} links a directory of the file system to an S3 location; files load lazily
 * on first read unless a {@code LustrePreload} warms them. The security group admits the Lustre ports (TCP
 * 988 and 1018–1023) from itself and from the training security group, nothing else. S3 holds the only
 * copy of the data, so the cache is deleted with its stack; a cache that exports to S3 is retained instead,
 * together with the security group, subnet and VPC its network interfaces keep in use, so that the stack's
 * delete still completes. An existing file system can be adopted instead ({@link ExistingLustreFileSystem});
 * the datasets then describe its associations.
 */
public class LustreCache extends Construct implements IConnectable {
    /** Deployment type: scratch, unreplicated, cheapest per TiB; S3 keeps the durable copy. */
    public static final String DEPLOYMENT_TYPE = "SCRATCH_2";
    static final int DEFAULT_CAPACITY_GIB = 1200;
    private static final Port LUSTRE = Port.tcp(988);
    private static final Port LUSTRE_CLIENTS = Port.tcpRange(1018, 1023);
    private static final List<DataRepositoryEvent> ALL_EVENTS = List.of(DataRepositoryEvent.NEW,
            DataRepositoryEvent.CHANGED, DataRepositoryEvent.DELETED);

    private final TrainingNetwork network;
    private final List<LustreDataset> datasets;
    private final Integer storageCapacityGiB;
    private final ISecurityGroup securityGroup;
    private final Connections connections;
    private final CfnFileSystem fileSystem;
    private final List<CfnDataRepositoryAssociation> associations = new ArrayList<>();
    private final String fileSystemId;
    private final String mountName;
    private final String dnsName;
    private final String availabilityZone;

    /** Creates the file system and its associations, or adopts {@code props.existingFileSystem}. */
    public LustreCache(Construct scope, String id, LustreCacheProps props) {
        super(scope, id);
        this.network = props.getNetwork();
        this.datasets = props.getDatasets() != null ? List.copyOf(props.getDatasets()) : List.of();
        LustreDatasetRules rules = new LustreDatasetRules(this);
        rules.check(props.getDatasets());
        ExistingLustreFileSystem existing = props.getExistingFileSystem();
        if (existing != null) {
            rejectNewFileSystemSettings(props);
            rules.rejectNewAssociationSettings(datasets);
            validateExisting(existing);
        }
        this.availabilityZone = existing != null && existing.getAvailabilityZone() != null
                ? existing.getAvailabilityZone() : network.getDataAvailabilityZone();
        Number capacity = existing != null ? existing.getStorageCapacityGiB() : capacity(props);
        this.storageCapacityGiB = capacity == null || Token.isUnresolved(capacity) ? null : capacity.intValue();

        this.securityGroup = existing != null ? existing.getSecurityGroup() : SecurityGroup.Builder.create(this, "SecurityGroup")
                .vpc(network.getVpc())
                .description("FSx for Lustre " + getNode().getPath() + ": Lustre traffic from itself and training")
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
        List<IKey> keys = bucketKeys();
        keys.forEach(this::allowFsxToUseKey);

        if (existing != null) {
            this.fileSystem = null;
            this.fileSystemId = existing.getFileSystemId();
            this.mountName = existing.getMountName();
            this.dnsName = existing.getDnsName() != null ? existing.getDnsName()
                    : fileSystemId + ".fsx." + Stack.of(this).getRegion() + "." + Aws.URL_SUFFIX;
            return;
        }
        LustreDataCompressionType compression = props.getDataCompression() != null
                ? props.getDataCompression() : LustreDataCompressionType.NONE;
        this.fileSystem = CfnFileSystem.Builder.create(this, "Resource")
                .fileSystemType("LUSTRE")
                .fileSystemTypeVersion((props.getLustreVersion() != null ? props.getLustreVersion() : LustreVersion.V2_15)
                        .apiValue())
                .storageCapacity(capacity)
                .subnetIds(List.of(network.getDataSubnet().getSubnetId()))
                .securityGroupIds(List.of(securityGroup.getSecurityGroupId()))
                .lustreConfiguration(CfnFileSystem.LustreConfigurationProperty.builder()
                        .deploymentType(DEPLOYMENT_TYPE)
                        .dataCompressionType(compression.name())
                        .build())
                .build();
        this.fileSystemId = fileSystem.getRef();
        this.mountName = fileSystem.getAttrLustreMountName();
        this.dnsName = fileSystem.getAttrDnsName();
        for (LustreDataset dataset : datasets) {
            associations.add(associate(dataset, keys));
        }
        applyRemovalPolicy(props.getRemovalPolicy() != null ? props.getRemovalPolicy()
                : exports() ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY);
    }

    private CfnDataRepositoryAssociation associate(LustreDataset dataset, List<IKey> keys) {
        List<DataRepositoryEvent> autoImport = dataset.getAutoImport() != null ? dataset.getAutoImport() : ALL_EVENTS;
        List<DataRepositoryEvent> autoExport = dataset.getAutoExport() != null ? dataset.getAutoExport() : List.of();
        CfnDataRepositoryAssociation.S3Property.Builder s3 = CfnDataRepositoryAssociation.S3Property.builder();
        if (!autoImport.isEmpty()) {
            s3.autoImportPolicy(CfnDataRepositoryAssociation.AutoImportPolicyProperty.builder()
                    .events(autoImport.stream().map(Enum::name).toList()).build());
        }
        if (!autoExport.isEmpty()) {
            s3.autoExportPolicy(CfnDataRepositoryAssociation.AutoExportPolicyProperty.builder()
                    .events(autoExport.stream().map(Enum::name).toList()).build());
        }
        CfnDataRepositoryAssociation association = CfnDataRepositoryAssociation.Builder.create(this,
                        "Dataset-" + dataset.getName())
                .fileSystemId(fileSystemId)
                .fileSystemPath(dataset.getFileSystemPath())
                .dataRepositoryPath(dataset.getS3Uri())
                .batchImportMetaDataOnCreate(true)
                .importedFileChunkSize(dataset.getImportedFileChunkSizeMiB())
                .s3(autoImport.isEmpty() && autoExport.isEmpty() ? null : s3.build())
                .build();
        // FSx reads a KMS-encrypted bucket only once the key policy allows it: create the link after the key.
        for (IKey key : keys) {
            if (key.getStack() == Stack.of(this)) {
                association.getNode().addDependency(key);
            }
        }
        return association;
    }

    /**
     * Deletes the cache with its stack (S3 holds its data), or retains it together with everything its network
     * interfaces keep in use: its security group and, when the network created them, the data subnet and the
     * VPC. Without them the stack's delete would end in DELETE_FAILED on the group, subnet or VPC.
     */
    private void applyRemovalPolicy(RemovalPolicy policy) {
        fileSystem.applyRemovalPolicy(policy);
        associations.forEach(association -> association.applyRemovalPolicy(policy));
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
        Annotations.of(this).addInfo(getNode().getPath() + ": the file system is retained when the stack is deleted ("
                + (exports() ? "it exports to S3" : "removalPolicy") + "), and so are its security group"
                + (network.isVpcCreated() ? ", the data subnet and the VPC" : "") + "; delete them after the file system");
    }

    private boolean exports() {
        return datasets.stream().anyMatch(d -> d.getAutoExport() != null && !d.getAutoExport().isEmpty());
    }

    private List<IKey> bucketKeys() {
        Set<IKey> keys = new LinkedHashSet<>();
        for (LustreDataset dataset : datasets) {
            IKey key = dataset.getDataBucket().getBucket().getEncryptionKey();
            if (key != null) {
                keys.add(key);
            }
        }
        return List.copyOf(keys);
    }

    /**
     * FSx reads and writes a KMS-encrypted bucket through S3 as its service-linked role
     * {@code AWSServiceRoleForFSxS3Access_<fs-id>}, which the key policy must allow (FSx for Lustre guide,
     * "Working with server-side encrypted Amazon S3 buckets"). The role name pattern avoids a dependency
     * of the key on the file system; S3 is the only way in.
     */
    private void allowFsxToUseKey(IKey key) {
        Stack stack = Stack.of(this);
        Map<String, Object> conditions = new LinkedHashMap<>();
        conditions.put("ArnLike", Map.of("aws:PrincipalArn", "arn:" + stack.getPartition() + ":iam::" + stack.getAccount()
                + ":role/aws-service-role/s3.data-source.lustre.fsx.amazonaws.com/AWSServiceRoleForFSxS3Access_*"));
        Map<String, Object> equals = new LinkedHashMap<>();
        equals.put("aws:PrincipalAccount", stack.getAccount());
        equals.put("kms:ViaService", "s3." + stack.getRegion() + "." + Aws.URL_SUFFIX);
        conditions.put("StringEquals", equals);
        boolean added = key.addToResourcePolicy(PolicyStatement.Builder.create()
                .principals(List.of(new AnyPrincipal()))
                .actions(List.of("kms:Encrypt", "kms:Decrypt", "kms:ReEncrypt*", "kms:GenerateDataKey*", "kms:DescribeKey"))
                .resources(List.of("*"))
                .conditions(conditions)
                .build()).getStatementAdded();
        if (!added) {
            Annotations.of(this).addWarningV2("@trainingdata/storage:fsxKeyPolicy", getNode().getPath()
                    + ": a dataset bucket's KMS key is imported, so its key policy cannot be changed here; allow the FSx "
                    + "service-linked roles AWSServiceRoleForFSxS3Access_* to use it through S3, or FSx cannot "
                    + "load the data");
        }
    }

    private void validateExisting(ExistingLustreFileSystem existing) {
        String id = existing.getFileSystemId();
        if (!Token.isUnresolved(id) && !FsxLimits.FILE_SYSTEM_ID.accepts(id)) {
            throw ConfigurationError.of(this, "existingFileSystem.fileSystemId", id,
                    "an FSx file-system id, " + FsxLimits.FILE_SYSTEM_ID.allowed());
        }
        String mount = existing.getMountName();
        if (!Token.isUnresolved(mount) && !FsxLimits.MOUNT_NAME.accepts(mount)) {
            throw ConfigurationError.of(this, "existingFileSystem.mountName", mount,
                    "the Lustre mount name, " + FsxLimits.MOUNT_NAME.allowed());
        }
        if (existing.getAvailabilityZone() == null) {
            Annotations.of(this).addWarningV2("@trainingdata/storage:existingLustreZone", getNode().getPath()
                    + ": the existing file system's Availability Zone is not given, so it is assumed to be the data "
                    + "subnet's; training cannot mount it from another AZ (set ExistingLustreFileSystem.availabilityZone)");
        }
    }

    private void rejectNewFileSystemSettings(LustreCacheProps props) {
        Map<String, Object> newOnly = new LinkedHashMap<>();
        newOnly.put("storageCapacityGiB", props.getStorageCapacityGiB());
        newOnly.put("datasetSizeBytes", props.getDatasetSizeBytes());
        newOnly.put("lustreVersion", props.getLustreVersion());
        newOnly.put("dataCompression", props.getDataCompression());
        newOnly.put("removalPolicy", props.getRemovalPolicy());
        ConfigurationError.rejectNewSettingsWithExisting(this, "existingFileSystem", "file system", "new-file-system",
                newOnly);
    }

    private Number capacity(LustreCacheProps props) {
        Number given = props.getStorageCapacityGiB();
        Long datasetBytes = props.getDatasetSizeBytes();
        if (given != null && datasetBytes != null) {
            throw ConfigurationError.of(this, "storageCapacityGiB", given,
                    "either storageCapacityGiB or datasetSizeBytes (capacity derived from the dataset), not both");
        }
        if (datasetBytes != null) {
            if (datasetBytes < 0) {
                throw ConfigurationError.of(this, "datasetSizeBytes", datasetBytes, "a size of 0 bytes or more");
            }
            int derived = Sizing.lustreCapacityGiB(datasetBytes);
            Annotations.of(this).addWarningV2("@trainingdata/storage:derivedCapacity", getNode().getPath()
                    + ": storage capacity " + derived + " GiB is derived from datasetSizeBytes. FSx only grows a file "
                    + "system's capacity (at most once every 6 hours), so a later, smaller dataset size would fail the "
                    + "update: once deployed, set storageCapacityGiB(" + derived + ") instead");
            return derived;
        }
        if (given == null) {
            return DEFAULT_CAPACITY_GIB;
        }
        if (!Token.isUnresolved(given) && !(FsxLimits.STORAGE_CAPACITY.acceptsNumber(given)
                && FsxLimits.isValidScratch2CapacityGiB(given.longValue()))) {
            throw ConfigurationError.of(this, "storageCapacityGiB", given, FsxLimits.SCRATCH_2_CAPACITIES + " for SCRATCH_2");
        }
        return given;
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
                .orElseThrow(() -> ConfigurationError.of(this, "dataset", name, datasetNames()));
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

    /** @return the Lustre mount name, generated at deploy for a new SCRATCH_2 file system (a token) */
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

    /** @return the network the file system lives in */
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

    /** @return the baseline throughput the capacity buys: 200 MB/s per TiB */
    public double getBaselineThroughputMBps() {
        return Sizing.lustreBaselineMBps(knownCapacity());
    }

    /** @return the burst throughput the capacity buys: 1300 MB/s per TiB */
    public double getBurstThroughputMBps() {
        return Sizing.lustreBurstMBps(knownCapacity());
    }

    private int knownCapacity() {
        if (storageCapacityGiB == null) {
            throw new IllegalStateException(getNode().getPath() + ": the throughput is known at synth only for a "
                    + "literal storage capacity (not a deploy-time value), and for an existing file system only when "
                    + "ExistingLustreFileSystem.storageCapacityGiB is given");
        }
        return storageCapacityGiB;
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

    /** @return the data repository associations this construct created, one per dataset (none for an existing file system) */
    public List<CfnDataRepositoryAssociation> getAssociations() {
        return List.copyOf(associations);
    }

    @Override
    public Connections getConnections() {
        return connections;
    }
}
