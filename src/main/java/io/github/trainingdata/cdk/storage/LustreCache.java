package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.advisor.Sizing;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.ec2.Connections;
import software.amazon.awscdk.services.ec2.ConnectionsProps;
import software.amazon.awscdk.services.ec2.IConnectable;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.Port;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.fsx.CfnFileSystem;
import software.amazon.awscdk.services.fsx.LustreAutoImportPolicy;
import software.amazon.awscdk.services.fsx.LustreDataCompressionType;
import software.amazon.awscdk.services.iam.AnyPrincipal;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.kms.IKey;
import software.constructs.Construct;

/**
 * A SCRATCH_2 FSx for Lustre file system in the network's data subnet, linked to the dataset in the
 * training-data bucket: training jobs mount it as an {@code FSxLustre} channel and read at hundreds of
 * MB/s per TiB instead of copying from S3.
 *
 * <p>The file system's root is the import prefix (ImportPath {@code s3://bucket/prefix}); files load
 * lazily on first read unless a {@code LustrePreload} warms them. Its security group admits the Lustre
 * ports (TCP 988 and 1018–1023) from itself and from the training security group, nothing else. The
 * file system is retained when the stack is deleted unless a removal policy says otherwise. An existing
 * file system can be adopted instead ({@link ExistingLustreFileSystem}); its group then admits training.
 */
public class LustreCache extends Construct implements IConnectable {
    /** Deployment type: scratch, unreplicated, cheapest per TiB; S3 keeps the durable copy. */
    public static final String DEPLOYMENT_TYPE = "SCRATCH_2";
    static final int DEFAULT_CAPACITY_GIB = 1200;
    private static final int MAX_CHUNK_SIZE_MIB = 512_000;
    private static final Port LUSTRE = Port.tcp(988);
    private static final Port LUSTRE_CLIENTS = Port.tcpRange(1018, 1023);
    private static final Pattern FILE_SYSTEM_ID = Pattern.compile("fs-[0-9a-f]{8,}");
    private static final Pattern MOUNT_NAME = Pattern.compile("[A-Za-z0-9_-]{1,8}");

    private final TrainingNetwork network;
    private final TrainingDataBucket dataBucket;
    private final String importKeyPrefix;
    private final String importPath;
    private final String exportPath;
    private final Integer storageCapacityGiB;
    private final ISecurityGroup securityGroup;
    private final Connections connections;
    private final CfnFileSystem fileSystem;
    private final String fileSystemId;
    private final String mountName;
    private final String dnsName;
    private final String availabilityZone;

    /** Creates the file system, or adopts {@code props.existingFileSystem}. */
    public LustreCache(Construct scope, String id, LustreCacheProps props) {
        super(scope, id);
        this.network = props.getNetwork();
        this.dataBucket = props.getDataBucket();
        ExistingLustreFileSystem existing = props.getExistingFileSystem();
        if (existing != null) {
            rejectNewFileSystemSettings(props);
            validateExisting(existing);
        }
        this.availabilityZone = existing != null && existing.getAvailabilityZone() != null
                ? existing.getAvailabilityZone() : network.getDataAvailabilityZone();
        this.storageCapacityGiB = existing != null ? existing.getStorageCapacityGiB() : Integer.valueOf(capacity(props));
        validateChunkSize(props.getImportedFileChunkSizeMiB());

        String relativeImport = props.getImportPrefix() != null ? props.getImportPrefix() : "";
        this.importKeyPrefix = KeyPrefix.join(dataBucket.getDatasetPrefix(),
                KeyPrefix.check(this, "importPrefix", relativeImport));
        this.importPath = dataBucket.uri(importKeyPrefix);
        this.exportPath = exportPath(props.getExportPrefix());

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

        if (dataBucket.getBucket().getEncryptionKey() != null) {
            allowFsxToUseKey(dataBucket.getBucket().getEncryptionKey());
        }
        if (existing != null) {
            this.fileSystem = null;
            this.fileSystemId = existing.getFileSystemId();
            this.mountName = existing.getMountName();
            this.dnsName = existing.getDnsName() != null ? existing.getDnsName()
                    : fileSystemId + ".fsx." + Stack.of(this).getRegion() + "." + Aws.URL_SUFFIX;
            return;
        }
        LustreAutoImportPolicy autoImport = props.getAutoImportPolicy() != null
                ? props.getAutoImportPolicy() : LustreAutoImportPolicy.NEW_CHANGED_DELETED;
        LustreDataCompressionType compression = props.getDataCompression() != null
                ? props.getDataCompression() : LustreDataCompressionType.NONE;
        this.fileSystem = CfnFileSystem.Builder.create(this, "Resource")
                .fileSystemType("LUSTRE")
                .storageCapacity(storageCapacityGiB)
                .subnetIds(List.of(network.getDataSubnet().getSubnetId()))
                .securityGroupIds(List.of(securityGroup.getSecurityGroupId()))
                .lustreConfiguration(CfnFileSystem.LustreConfigurationProperty.builder()
                        .deploymentType(DEPLOYMENT_TYPE)
                        .importPath(importPath)
                        .exportPath(exportPath)
                        .autoImportPolicy(autoImport.name())
                        .importedFileChunkSize(props.getImportedFileChunkSizeMiB())
                        .dataCompressionType(compression.name())
                        .build())
                .build();
        fileSystem.applyRemovalPolicy(props.getRemovalPolicy() != null ? props.getRemovalPolicy() : RemovalPolicy.RETAIN);
        this.fileSystemId = fileSystem.getRef();
        this.mountName = fileSystem.getAttrLustreMountName();
        this.dnsName = fileSystem.getAttrDnsName();
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
                    + ": the bucket's KMS key is imported, so its key policy cannot be changed here; allow the FSx "
                    + "service-linked roles AWSServiceRoleForFSxS3Access_* to use it through S3, or FSx cannot "
                    + "load the data");
        }
    }

    private void validateExisting(ExistingLustreFileSystem existing) {
        String id = existing.getFileSystemId();
        if (!Token.isUnresolved(id) && (!FILE_SYSTEM_ID.matcher(id).matches() || id.length() > 21)) {
            throw ConfigurationError.of(this, "existingFileSystem.fileSystemId", id,
                    "an FSx file-system id fs-[0-9a-f]{8,} of 11–21 characters");
        }
        String mount = existing.getMountName();
        if (!Token.isUnresolved(mount) && !MOUNT_NAME.matcher(mount).matches()) {
            throw ConfigurationError.of(this, "existingFileSystem.mountName", mount,
                    "the Lustre mount name: 1–8 characters of [A-Za-z0-9_-]");
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
        newOnly.put("exportPrefix", props.getExportPrefix());
        newOnly.put("autoImportPolicy", props.getAutoImportPolicy());
        newOnly.put("importedFileChunkSizeMiB", props.getImportedFileChunkSizeMiB());
        newOnly.put("dataCompression", props.getDataCompression());
        newOnly.put("removalPolicy", props.getRemovalPolicy());
        ConfigurationError.rejectNewSettingsWithExisting(this, "existingFileSystem", "file system", "new-file-system",
                newOnly);
    }

    private int capacity(LustreCacheProps props) {
        Integer given = props.getStorageCapacityGiB();
        Long datasetBytes = props.getDatasetSizeBytes();
        if (given != null && datasetBytes != null) {
            throw ConfigurationError.of(this, "storageCapacityGiB", given,
                    "either storageCapacityGiB or datasetSizeBytes (capacity derived from the dataset), not both");
        }
        if (datasetBytes != null) {
            if (datasetBytes < 0) {
                throw ConfigurationError.of(this, "datasetSizeBytes", datasetBytes, "a size of 0 bytes or more");
            }
            return Sizing.lustreCapacityGiB(datasetBytes);
        }
        if (given == null) {
            return DEFAULT_CAPACITY_GIB;
        }
        if (!Sizing.isValidScratch2CapacityGiB(given)) {
            throw ConfigurationError.of(this, "storageCapacityGiB", given,
                    "1200, 2400, or a multiple of 2400 GiB for SCRATCH_2");
        }
        return given;
    }

    private void validateChunkSize(Integer chunkMiB) {
        if (chunkMiB != null && (chunkMiB < 1 || chunkMiB > MAX_CHUNK_SIZE_MIB)) {
            throw ConfigurationError.of(this, "importedFileChunkSizeMiB", chunkMiB,
                    "1 to " + MAX_CHUNK_SIZE_MIB + " MiB");
        }
    }

    private String exportPath(String exportPrefix) {
        if (exportPrefix == null) {
            return null;
        }
        if (!Token.isUnresolved(exportPrefix) && exportPrefix.isEmpty()) {
            throw ConfigurationError.of(this, "exportPrefix", exportPrefix,
                    "a non-empty path under the import prefix (exporting to the import path itself overwrites "
                            + "the source data)");
        }
        return importPath + "/" + KeyPrefix.check(this, "exportPrefix", exportPrefix);
    }

    /**
     * The path a training channel uses to read a directory of the linked dataset:
     * {@code /<mountName>/<relativePath>}.
     *
     * @param relativePath a path under the import prefix (as in S3), without leading or trailing {@code /};
     *     empty for the file system root
     * @return the channel's DirectoryPath (contains the deploy-time mount-name token)
     */
    public String directoryPath(String relativePath) {
        return "/" + KeyPrefix.join(getMountName(), KeyPrefix.check(this, "relativePath", relativePath));
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

    /** @return the bucket the file system is linked to */
    public TrainingDataBucket getDataBucket() {
        return dataBucket;
    }

    /** @return the linked S3 location, {@code s3://bucket[/prefix]}: the file system's root */
    public String getImportPath() {
        return importPath;
    }

    /** @return the object-key prefix the file system's root maps to (empty for the bucket root) */
    public String getImportKeyPrefix() {
        return importKeyPrefix;
    }

    /** @return the export path, or null when none was set */
    public String getExportPath() {
        return exportPath;
    }

    /** @return the storage capacity in GiB, or null for an existing file system whose capacity was not given */
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
            throw new IllegalStateException(getNode().getPath() + ": the throughput of an existing file system is "
                    + "known only when ExistingLustreFileSystem.storageCapacityGiB is given");
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

    /** @return the L1 resource, for overrides, or null for an existing file system */
    public CfnFileSystem getResource() {
        return fileSystem;
    }

    @Override
    public Connections getConnections() {
        return connections;
    }
}
