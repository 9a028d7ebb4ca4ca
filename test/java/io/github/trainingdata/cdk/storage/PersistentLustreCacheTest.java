package io.github.trainingdata.cdk.storage;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.performance.CacheThroughput;
import io.github.trainingdata.cdk.performance.LustreTier;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.CfnParameter;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketAttributes;

/** A PERSISTENT_2 cache: what it renders, and one test per rule the FSx API and guide give for it. */
class PersistentLustreCacheTest {
    private final Stack stack = TestApps.stack();
    private final TrainingNetwork network = new TrainingNetwork(stack, "Network");
    private final TrainingDataBucket data = new TrainingDataBucket(stack, "Data", TrainingDataBucketProps.builder()
            .bucket(Bucket.fromBucketName(stack, "Existing", "team-datasets")).datasetPrefix("vision").build());

    private LustreCacheProps.Builder props() {
        return LustreCacheProps.builder().network(network)
                .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(data).prefix("imagenet").build()));
    }

    /** PERSISTENT_2 at the tier, its metadata mode not yet stated. */
    private LustreCacheProps.Builder persistent(int tier) {
        return props().deploymentType(LustreDeploymentType.PERSISTENT_2).perUnitStorageThroughput(tier);
    }

    /** PERSISTENT_2 at the tier with AUTOMATIC metadata. */
    private LustreCacheProps.Builder automatic(int tier) {
        return persistent(tier).metadataMode(LustreMetadataMode.AUTOMATIC);
    }

    @Test
    void isPersistent2AtItsTierWithAnAutomaticMetadataConfigurationAndNoBackupsOrLegacyLinks() {
        LustreCache cache = new LustreCache(stack, "Lustre", automatic(250).storageCapacityGiB(2400).build());
        Template t = Template.fromStack(stack);

        t.hasResource("AWS::FSx::FileSystem", Map.of(
                "DeletionPolicy", "Delete",
                "Properties", Map.of(
                        "FileSystemType", "LUSTRE",
                        "FileSystemTypeVersion", "2.15",
                        "StorageCapacity", 2400,
                        "SubnetIds", List.of(Map.of("Ref", Match.stringLikeRegexp("NetworkVpcDataSubnet1.*"))),
                        "SecurityGroupIds", List.of(Match.anyValue()),
                        "LustreConfiguration", Map.of(
                                "DeploymentType", "PERSISTENT_2",
                                "PerUnitStorageThroughput", 250,
                                "MetadataConfiguration", Map.of("Mode", "AUTOMATIC"),
                                "AutomaticBackupRetentionDays", 0,
                                "DataCompressionType", "NONE"))));
        // No ImportPath, ExportPath, ImportedFileChunkSize or AutoImportPolicy (PERSISTENT_2 takes none of them; the
        // datasets are data repository associations), no KmsKeyId without a data-layer key (FSx's own key then).
        Map<String, Object> legacy = Map.of("ImportPath", Match.absent(), "ExportPath", Match.absent(),
                "ImportedFileChunkSize", Match.absent(), "AutoImportPolicy", Match.absent(), "EfaEnabled", Match.absent());
        t.hasResourceProperties("AWS::FSx::FileSystem", Match.objectLike(Map.of("KmsKeyId", Match.absent(),
                "LustreConfiguration", Match.objectLike(legacy))));
        t.resourceCountIs("Custom::DataRepositoryAssociation", 1);
        assertEquals(LustreDeploymentType.PERSISTENT_2, cache.getDeploymentType());
        assertEquals(LustreTier.persistent2(250), cache.getTier());
        // 2400 GiB = 2.34375 TiB: 585.9 MB/s at 250 per TiB from disk, 3046.9 MB/s from memory (1300 per TiB); it loads
        // from S3 at its tier.
        assertEquals(585.9375, cache.getBaselineThroughputMBps(), 1e-9);
        assertEquals(3046.875, cache.getBurstThroughputMBps(), 1e-9);
        assertEquals(new CacheThroughput(2400, 250), cache.getLoadThroughput());
    }

    @Test
    void isEncryptedAtRestWithTheDataLayersKey() {
        TrainingDataBucket encrypted = new TrainingDataBucket(stack, "Encrypted", TrainingDataBucketProps.builder()
                .encryption(DataEncryption.KMS).build());
        new LustreCache(stack, "Lustre", LustreCacheProps.builder().network(network)
                .deploymentType(LustreDeploymentType.PERSISTENT_2).perUnitStorageThroughput(500)
                .metadataMode(LustreMetadataMode.AUTOMATIC)
                .datasets(List.of(LustreDataset.builder("d").dataBucket(encrypted).build())).build());
        Template.fromStack(stack).hasResourceProperties("AWS::FSx::FileSystem", Match.objectLike(Map.of(
                "KmsKeyId", Map.of("Fn::GetAtt", List.of(Match.stringLikeRegexp("EncryptedKey.*"), "Arn")))));
    }

    @Test
    void aScratch2CacheTakesNoKeyAtRest() {
        TrainingDataBucket encrypted = new TrainingDataBucket(stack, "Encrypted", TrainingDataBucketProps.builder()
                .encryption(DataEncryption.KMS).build());
        new LustreCache(stack, "Lustre", LustreCacheProps.builder().network(network)
                .datasets(List.of(LustreDataset.builder("d").dataBucket(encrypted).build())).build());
        Template.fromStack(stack).hasResourceProperties("AWS::FSx::FileSystem", Match.objectLike(Map.of(
                "KmsKeyId", Match.absent(), "LustreConfiguration", Match.objectLike(Map.of(
                        "DeploymentType", "SCRATCH_2", "PerUnitStorageThroughput", Match.absent(),
                        "MetadataConfiguration", Match.absent(), "AutomaticBackupRetentionDays", Match.absent())))));
    }

    @Test
    void anImportedKeyAtRestIsWarnedAbout() {
        TrainingDataBucket imported = new TrainingDataBucket(stack, "Imported", TrainingDataBucketProps.builder()
                .bucket(Bucket.fromBucketAttributes(stack, "ImportedBucket", BucketAttributes.builder()
                        .bucketName("team-encrypted").encryptionKey(Key.fromKeyArn(stack, "ImportedKey",
                                "arn:aws:kms:us-east-1:123456789012:key/0123abcd-0123-4567-89ab-0123456789ab"))
                        .build())).build());
        new LustreCache(stack, "Lustre", LustreCacheProps.builder().network(network)
                .deploymentType(LustreDeploymentType.PERSISTENT_2).perUnitStorageThroughput(125)
                .metadataMode(LustreMetadataMode.AUTOMATIC)
                .datasets(List.of(LustreDataset.builder("d").dataBucket(imported).build())).build());
        Template.fromStack(stack).hasResourceProperties("AWS::FSx::FileSystem", Match.objectLike(Map.of("KmsKeyId",
                "arn:aws:kms:us-east-1:123456789012:key/0123abcd-0123-4567-89ab-0123456789ab")));
        Annotations.fromStack(stack).hasWarning("/Test/Lustre", Match.stringLikeRegexp("Test/Lustre: the PERSISTENT_2 "
                + "file system is encrypted at rest with the data bucket's imported KMS key, whose policy cannot be "
                + "changed here: .*"));
    }

    @Test
    void provisionedMetadataIopsAreUserProvisioned() {
        new LustreCache(stack, "Lustre", persistent(1000).metadataIops(24000).build());
        Template.fromStack(stack).hasResourceProperties("AWS::FSx::FileSystem", Match.objectLike(Map.of(
                "LustreConfiguration", Match.objectLike(Map.of("MetadataConfiguration",
                        Map.of("Mode", "USER_PROVISIONED", "Iops", 24000))))));
    }

    @Test
    void onLustre212ItHasNoMetadataConfiguration() {
        new LustreCache(stack, "Lustre", persistent(125).lustreVersion(LustreVersion.V2_12).build());
        Template.fromStack(stack).hasResourceProperties("AWS::FSx::FileSystem", Match.objectLike(Map.of(
                "FileSystemTypeVersion", "2.12", "LustreConfiguration", Match.objectLike(Map.of(
                        "DeploymentType", "PERSISTENT_2", "MetadataConfiguration", Match.absent())))));
    }

    @Test
    void takesDeployTimeTierIopsAndMaintenanceWindow() {
        CfnParameter tier = CfnParameter.Builder.create(stack, "Tier").type("Number").build();
        CfnParameter iops = CfnParameter.Builder.create(stack, "Iops").type("Number").build();
        CfnParameter window = CfnParameter.Builder.create(stack, "Window").build();
        LustreCache cache = new LustreCache(stack, "Lustre", props().deploymentType(LustreDeploymentType.PERSISTENT_2)
                .perUnitStorageThroughput(tier.getValueAsNumber()).metadataIops(iops.getValueAsNumber())
                .weeklyMaintenanceStartTime(window.getValueAsString()).build());
        Template.fromStack(stack).hasResourceProperties("AWS::FSx::FileSystem", Match.objectLike(Map.of(
                "LustreConfiguration", Match.objectLike(Map.of(
                        "PerUnitStorageThroughput", Map.of("Ref", "Tier"),
                        "WeeklyMaintenanceStartTime", Map.of("Ref", "Window"),
                        "MetadataConfiguration", Map.of("Mode", "USER_PROVISIONED", "Iops", Map.of("Ref", "Iops")))))));
        assertNull(cache.getTier(), "a deploy-time tier buys a throughput unknown at synth");
        assertNull(cache.getLoadThroughput());
        assertThrows(IllegalStateException.class, cache::getBaselineThroughputMBps);
    }

    @Test
    void aMaintenanceWindowIsRendered() {
        new LustreCache(stack, "Lustre", props().weeklyMaintenanceStartTime("7:03:00").build());
        Template.fromStack(stack).hasResourceProperties("AWS::FSx::FileSystem", Match.objectLike(Map.of(
                "LustreConfiguration", Match.objectLike(Map.of("WeeklyMaintenanceStartTime", "7:03:00")))));
    }

    @Test
    void anExportingPersistentCacheIsRetainedAndAnImportingOneDeleted() {
        new LustreCache(stack, "Exporting", automatic(250).datasets(List.of(LustreDataset.builder("out")
                .dataBucket(data).prefix("out").autoExport(List.of(DataRepositoryEvent.NEW)).build())).build());
        Template t = Template.fromStack(stack);
        t.hasResource("AWS::FSx::FileSystem", Map.of("DeletionPolicy", "RetainExceptOnCreate",
                "UpdateReplacePolicy", "Retain", "Properties", Match.objectLike(Map.of("LustreConfiguration",
                        Match.objectLike(Map.of("DeploymentType", "PERSISTENT_2"))))));
    }

    @Test
    void anExistingPersistent2FileSystemReadsAtItsTier() {
        LustreCache cache = new LustreCache(stack, "Lustre", props().existingFileSystem(ExistingLustreFileSystem
                .builder().fileSystemId("fs-0123456789abcdef0").mountName("abcdefgh").storageCapacityGiB(4800)
                .perUnitStorageThroughput(500)
                .securityGroup(SecurityGroup.fromSecurityGroupId(stack, "Group", "sg-0123456789abcdef0")).build())
                .build());
        // 4800 GiB = 4.6875 TiB x 500 = 2343.75 MB/s.
        assertEquals(LustreTier.persistent2(500), cache.getTier());
        assertEquals(2343.75, cache.getBaselineThroughputMBps(), 1e-9);
        assertNull(cache.getDeploymentType(), "not created here");
    }

    // ---- one test per rule ------------------------------------------------------------------

    @Test
    void rejectsATierOnScratch2() {
        assertRule("LUSTRE_TIER_SCRATCH", () -> new LustreCache(stack, "Lustre", props().perUnitStorageThroughput(250).build()), "Test/Lustre",
                "perUnitStorageThroughput", 250, "unset with SCRATCH_2, whose throughput comes with its capacity (200 "
                        + "MB/s per TiB); a throughput tier needs deploymentType PERSISTENT_2");
    }

    @Test
    void aRejectedDeployTimeValueIsNamedAsSuchNeverAsTheNumberThatEncodesIt() {
        CfnParameter tier = CfnParameter.Builder.create(stack, "Tier").type("Number").build();
        assertRule("LUSTRE_TIER_SCRATCH", () -> new LustreCache(stack, "Lustre", props()
                .perUnitStorageThroughput(tier.getValueAsNumber()).build()), "Test/Lustre", "perUnitStorageThroughput",
                "<deploy-time number>", "unset with SCRATCH_2, whose throughput comes with its capacity (200 MB/s per "
                        + "TiB); a throughput tier needs deploymentType PERSISTENT_2");
    }

    @Test
    void requiresATierWithPersistent2() {
        assertRule("LUSTRE_TIER_REQUIRED", () -> new LustreCache(stack, "Lustre", props().deploymentType(LustreDeploymentType.PERSISTENT_2)
                .build()), "Test/Lustre", "perUnitStorageThroughput", null, "125, 250, 500 or 1000 MB/s per TiB with "
                        + "PERSISTENT_2 (its throughput tier, billed with the storage; required)");
    }

    @Test
    void rejectsATierPersistent2DoesNotOffer() {
        // 200 is a PERSISTENT_1 tier; 250.5 is no whole number.
        assertRule("LUSTRE_TIER_VALUES", () -> new LustreCache(stack, "Lustre", persistent(200).build()), "Test/Lustre",
                "perUnitStorageThroughput", 200, "125, 250, 500 or 1000 MB/s per TiB for PERSISTENT_2");
        assertRule("LUSTRE_TIER_VALUES", () -> new LustreCache(stack, "Other", props().deploymentType(LustreDeploymentType.PERSISTENT_2)
                .perUnitStorageThroughput(250.5).build()), "Test/Other", "perUnitStorageThroughput", 250.5,
                "125, 250, 500 or 1000 MB/s per TiB for PERSISTENT_2");
    }

    @Test
    void rejectsACapacityOutsidePersistent2sSteps() {
        assertRule("LUSTRE_CAPACITY", () -> new LustreCache(stack, "Lustre", automatic(250).storageCapacityGiB(3600).build()),
                "Test/Lustre", "storageCapacityGiB", 3600, "1200, 2400, or a multiple of 2400 GiB for PERSISTENT_2");
    }

    @Test
    void rejectsMetadataIopsOnScratch2() {
        assertRule("LUSTRE_METADATA_DEPLOYMENT", () -> new LustreCache(stack, "Lustre", props().metadataIops(3000).build()), "Test/Lustre",
                "metadataIops", 3000, "unset with SCRATCH_2: a metadata configuration is PERSISTENT_2's only");
    }

    @Test
    void rejectsMetadataIopsOnLustre212() {
        assertRule("LUSTRE_METADATA_VERSION", () -> new LustreCache(stack, "Lustre", persistent(250).lustreVersion(LustreVersion.V2_12)
                .metadataIops(3000).build()), "Test/Lustre", "metadataIops", 3000, "unset with Lustre 2.12: a metadata "
                        + "configuration needs Lustre 2.15 (lustreVersion V2_15)");
    }

    @Test
    void rejectsMetadataIopsFsxDoesNotProvision() {
        assertRule("LUSTRE_METADATA_IOPS", () -> new LustreCache(stack, "Lustre", persistent(250).metadataIops(4500).build()), "Test/Lustre",
                "metadataIops", 4500, "1500, 3000, 6000, 12000, or a multiple of 12000 up to 192000 metadata IOPS");
    }

    @Test
    void requiresTheMetadataModeStatedSoARemovedIopsCannotAskForAutomatic() {
        assertRule("LUSTRE_METADATA_MODE_REQUIRED", () -> new LustreCache(stack, "Lustre", persistent(250).build()),
                "Test/Lustre", "metadataMode", null, "stated for PERSISTENT_2 on Lustre 2.15: metadataIops "
                        + "(USER_PROVISIONED; once deployed, keep them at least at the deployed value, FSx never lowers "
                        + "them) or metadataMode AUTOMATIC (FSx scales them with the capacity). A deployed "
                        + "USER_PROVISIONED file system switches to AUTOMATIC only when its IOPS do not exceed "
                        + "AUTOMATIC's for its capacity, else FSx rejects the update: grow the capacity first");
    }

    @Test
    void rejectsAMetadataModeWithoutAMetadataConfiguration() {
        assertRule("LUSTRE_METADATA_MODE_SETTINGS", () -> new LustreCache(stack, "Lustre", props()
                .metadataMode(LustreMetadataMode.AUTOMATIC).build()), "Test/Lustre", "metadataMode", "AUTOMATIC",
                "unset with SCRATCH_2 on Lustre 2.15: a metadata configuration is PERSISTENT_2's on Lustre 2.15 only");
        assertRule("LUSTRE_METADATA_MODE_SETTINGS", () -> new LustreCache(stack, "Other", persistent(250)
                .lustreVersion(LustreVersion.V2_12).metadataMode(LustreMetadataMode.AUTOMATIC).build()), "Test/Other",
                "metadataMode", "AUTOMATIC", "unset with PERSISTENT_2 on Lustre 2.12: a metadata configuration is "
                        + "PERSISTENT_2's on Lustre 2.15 only");
    }

    @Test
    void rejectsIopsWithAutomaticAndNoIopsWithUserProvisioned() {
        assertRule("LUSTRE_METADATA_MODE_IOPS", () -> new LustreCache(stack, "Lustre", automatic(250).metadataIops(3000)
                .build()), "Test/Lustre", "metadataIops", 3000, "none with metadataMode AUTOMATIC, whose IOPS FSx sets "
                        + "from the storage capacity");
        assertRule("LUSTRE_METADATA_MODE_IOPS", () -> new LustreCache(stack, "Other", persistent(250)
                .metadataMode(LustreMetadataMode.USER_PROVISIONED).build()), "Test/Other", "metadataIops", null,
                "the IOPS to provision with metadataMode USER_PROVISIONED, 1500, 3000, 6000, 12000, or a multiple of "
                        + "12000 up to 192000");
    }

    @Test
    void userProvisionedStatedWithItsIopsRendersThem() {
        new LustreCache(stack, "Lustre", persistent(250).metadataMode(LustreMetadataMode.USER_PROVISIONED)
                .metadataIops(3000).build());
        Template.fromStack(stack).hasResourceProperties("AWS::FSx::FileSystem", Match.objectLike(Map.of(
                "LustreConfiguration", Match.objectLike(Map.of("MetadataConfiguration",
                        Map.of("Mode", "USER_PROVISIONED", "Iops", 3000))))));
    }

    @Test
    void rejectsAMaintenanceWindowOutsideTheApisFormat() {
        assertRule("LUSTRE_MAINTENANCE_WINDOW", () -> new LustreCache(stack, "Lustre", props().weeklyMaintenanceStartTime("8:03:00").build()),
                "Test/Lustre", "weeklyMaintenanceStartTime", "8:03:00", "d:HH:MM in UTC, d from 1 (Monday) to 7 "
                        + "(Sunday), e.g. 7:03:00 (exactly 7 characters matching ^[1-7]:([01]\\d|2[0-3]):?([0-5]\\d)$)");
    }

    @Test
    void rejectsPersistent2SettingsForAnExistingFileSystem() {
        assertRule("STORE_EXISTING_OR_NEW", () -> new LustreCache(stack, "Lustre", persistent(250).existingFileSystem(ExistingLustreFileSystem
                .builder().fileSystemId("fs-0123456789abcdef0").mountName("abcdefgh")
                .securityGroup(SecurityGroup.fromSecurityGroupId(stack, "Group", "sg-0123456789abcdef0")).build())
                .build()), "Test/Lustre", "deploymentType", "set together with existingFileSystem", "either an "
                        + "existing file system or settings for a new one, not both (new-file-system settings given: "
                        + "deploymentType, perUnitStorageThroughput)");
    }
}
