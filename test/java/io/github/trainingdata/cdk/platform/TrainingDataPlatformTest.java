package io.github.trainingdata.cdk.platform;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.advisor.AccessPattern;
import io.github.trainingdata.cdk.advisor.DataLocation;
import io.github.trainingdata.cdk.advisor.DataSourceOption;
import io.github.trainingdata.cdk.advisor.StorageService;
import io.github.trainingdata.cdk.advisor.DatasetProfile;
import io.github.trainingdata.cdk.storage.DataEncryption;
import io.github.trainingdata.cdk.storage.LustreDeploymentType;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import io.github.trainingdata.cdk.training.S3Channel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import io.github.trainingdata.cdk.training.TrainingJobSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.efs.FileSystem;
import software.amazon.awscdk.services.efs.FileSystemAttributes;
import software.amazon.awscdk.services.s3.Bucket;

class TrainingDataPlatformTest {
    private static final TrainingImage IMAGE =
            TrainingImage.fromUri("123456789012.dkr.ecr.us-east-1.amazonaws.com/training:1");
    private static final long GB = 1_000_000_000L;

    /** The platform; its training job gets the test image when the props give no job settings. */
    private static TrainingDataPlatform platform(Stack stack, TrainingDataPlatformProps.Builder props) {
        TrainingDataPlatformProps given = props.build();
        return new TrainingDataPlatform(stack, "Platform",
                given.getTrainingJob() != null ? given : props.trainingJob(job().build()).build());
    }

    private static TrainingJobDefinitionProps.Builder job() {
        return TrainingJobDefinitionProps.builder().trainingImage(IMAGE);
    }

    private static DatasetProfile profile(long bytes, long files, AccessPattern access, DataLocation location) {
        return DatasetProfile.builder().totalBytes(bytes).fileCount(files).accessPattern(access)
                .dataLocation(location).instanceType("ml.p3.2xlarge").build();
    }

    @ParameterizedTest
    @CsvSource({"S3_FILE,File", "S3_FAST_FILE,FastFile", "S3_PIPE,Pipe"})
    void s3ChoicesBuildTheBucketAndAnS3ChannelInTheirMode(DataSourceOption source, String mode) {
        Stack stack = TestApps.stack();
        TrainingDataPlatform p = platform(stack, TrainingDataPlatformProps.builder().source(source)
                .trainingJob(job().instanceType("ml.g5.xlarge").build()));
        Template t = Template.fromStack(stack);

        t.resourceCountIs("AWS::FSx::FileSystem", 0);
        t.resourceCountIs("AWS::EFS::FileSystem", 0);
        t.resourceCountIs("Custom::LustrePreload", 0);
        Map<?, ?> channel = (Map<?, ?>) ((List<?>) p.getDefinition().getRequest().get("InputDataConfig")).get(0);
        assertEquals(mode, channel.get("InputMode"));
        assertEquals("train", channel.get("ChannelName"));
        assertNull(p.getLustreCache());
        assertNull(p.getEfsStore());
        assertNull(p.getRecommendation());
        t.hasOutput("*", Map.of("Value", source + " (" + mode + ")", "Description", "Chosen explicitly"));
    }

    @ParameterizedTest
    @EnumSource(DataSourceOption.class)
    void everySourceBuildsTheStoreItsChannelReads(DataSourceOption source) {
        Stack stack = TestApps.stack();
        TrainingDataPlatform p = platform(stack, TrainingDataPlatformProps.builder().source(source)
                .trainingJob(job().instanceType("ml.g5.xlarge").build())
                .efsFileSystem(FileSystem.fromFileSystemAttributes(stack, "Labelled", FileSystemAttributes.builder()
                        .fileSystemId("fs-0123456789abcdef0")
                        .securityGroup(SecurityGroup.fromSecurityGroupId(stack, "LabelledGroup", "sg-0123456789abcdef0"))
                        .build())));

        TrainingJobSpec spec = p.getDefinition().getSpec();
        assertSame(p.getStore(), source.inputMode() != null ? spec.getChannels().get(0).getStore()
                : spec.getDirectReads().get(0).getStore());
        assertEquals(source == DataSourceOption.FSX_LUSTRE, p.getStore() == p.getLustreCache());
        assertEquals(source == DataSourceOption.EFS, p.getStore() == p.getEfsStore());
        assertEquals(source.storage() == StorageService.S3, p.getStore() == p.getDataBucket());
        assertEquals(source.storage() == StorageService.S3_EXPRESS, p.getStore() == p.getS3ExpressStore());
    }

    @Test
    void aProfileWhoseBestSourceIsADirectoryBucketBuildsItInTheDataZoneWithAFastFileChannel() {
        Stack stack = TestApps.stack();
        // 1 TB of 10 MB files read at random by 4 x ml.p4d.24xlarge: a preloaded Lustre cache estimates within 5% of
        // FastFile on a directory bucket, which needs nothing provisioned, so the tie goes to the directory bucket.
        TrainingDataPlatform p = platform(stack, TrainingDataPlatformProps.builder().profile(DatasetProfile.builder()
                .totalBytes(1000 * GB).fileCount(100_000).accessPattern(AccessPattern.RANDOM).epochs(5)
                .trainingTime(java.time.Duration.ofHours(2)).instanceType("ml.p4d.24xlarge").instanceCount(4).build())
                .s3ExpressBaseName("vision"));
        Template t = Template.fromStack(stack);

        assertEquals(DataSourceOption.S3_EXPRESS_FAST_FILE, p.getSource());
        assertEquals(p.getSource(), p.getRecommendation().option());
        assertNotNull(p.getS3ExpressStore());
        t.resourceCountIs("AWS::S3Express::DirectoryBucket", 1);
        t.hasResourceProperties("AWS::S3Express::DirectoryBucket", Match.objectLike(Map.of(
                "DataRedundancy", "SingleAvailabilityZone",
                "LocationName", Map.of("Fn::GetAtt", List.of(Match.stringLikeRegexp("PlatformNetworkVpcDataSubnet.*"),
                        "AvailabilityZoneId")))));
        t.resourceCountIs("Custom::LustrePreload", 0);
        t.resourceCountIs("AWS::FSx::FileSystem", 0);
        Map<?, ?> channel = (Map<?, ?>) ((List<?>) p.getDefinition().getRequest().get("InputDataConfig")).get(0);
        assertEquals("FastFile", channel.get("InputMode"));
        assertSame(p.getS3ExpressStore(), p.getDefinition().getSpec().getChannels().get(0).getStore());
        Annotations.fromStack(stack).hasWarning("/Test/Platform", Match.stringLikeRegexp(
                ".*the directory bucket Test/Platform/Express starts empty and nothing fills it at deploy.*"));
    }

    @Test
    void theDirectoryBucketsDefaultBaseNameIsThePlatformsUniqueNameInLowerCase() {
        Stack stack = TestApps.stack();
        platform(stack, TrainingDataPlatformProps.builder().source(DataSourceOption.S3_EXPRESS_FILE)
                .trainingJob(job().instanceType("ml.g5.xlarge").build()));
        Map<String, Map<String, Object>> buckets = Template.fromStack(stack).findResources(
                "AWS::S3Express::DirectoryBucket");
        Object name = ((Map<?, ?>) buckets.values().iterator().next().get("Properties")).get("BucketName");
        List<?> parts = (List<?>) ((List<?>) ((Map<?, ?>) name).get("Fn::Join")).get(1);
        assertEquals("test-platform-", ((String) parts.get(0)).replaceAll("[0-9a-f]{8}--$", ""));
        assertTrue(((String) parts.get(0)).matches("[a-z0-9-]{1,30}--"), parts.get(0).toString());
    }

    @Test
    void trainingCodeThatReadsTheBucketItselfGetsADirectReadInsteadOfAChannel() {
        Stack stack = TestApps.stack();
        TrainingDataPlatform p = platform(stack, TrainingDataPlatformProps.builder().source(DataSourceOption.S3_DIRECT)
                .channelName("images").channelPath("shards")
                .trainingJob(job().instanceType("ml.g5.8xlarge").build()));

        TrainingJobSpec spec = p.getDefinition().getSpec();
        assertEquals(List.of(), spec.getChannels());
        assertEquals("IMAGES_S3_URI", spec.getDirectReads().get(0).getEnvironmentVariable());
        assertEquals("shards", spec.getDirectReads().get(0).getPath());
        assertSame(p.getDataBucket(), spec.getDirectReads().get(0).getStore());
        assertNull(p.getDefinition().getRequest().get("InputDataConfig"));
        Template.fromStack(stack).hasOutput("*", Map.of("Value", "S3_DIRECT (no channel)",
                "Description", "Chosen explicitly"));
    }

    @ParameterizedTest
    @CsvSource({"train,TRAIN_S3_URI", "val-2.a,VAL_2_A_S3_URI", "2nd,_2ND_S3_URI"})
    void aDirectReadsVariableIsTheChannelNameAsAVariable(String channel, String variable) {
        assertEquals(variable, TrainingDataPlatform.directReadVariable(channel));
    }

    @Test
    void lustreChoiceBuildsTheCacheSizedForTheDatasetItsPreloadAndALustreChannel() {
        Stack stack = TestApps.stack();
        TrainingDataPlatform p = platform(stack, TrainingDataPlatformProps.builder()
                .profile(profile(3_000 * GB, 30_000_000, AccessPattern.RANDOM, DataLocation.S3)));
        Template t = Template.fromStack(stack);

        assertEquals(DataSourceOption.FSX_LUSTRE, p.getSource());
        // 3000 GB = 2794 GiB, +20% headroom = 3353 GiB: the next SCRATCH_2 size is 2 x 2400 GiB.
        t.hasResourceProperties("AWS::FSx::FileSystem", Map.of("StorageCapacity", 4800));
        t.resourceCountIs("Custom::LustrePreload", 1);
        assertNotNull(p.getPreload());
        Map<?, ?> channel = (Map<?, ?>) ((List<?>) p.getDefinition().getRequest().get("InputDataConfig")).get(0);
        assertEquals("File", channel.get("InputMode"));
        assertNotNull(((Map<?, ?>) channel.get("DataSource")).get("FileSystemDataSource"));
        Annotations.fromStack(stack).hasInfo("/Test/Platform",
                Match.stringLikeRegexp("Training data source: FSX_LUSTRE \\(File\\), recommended: .*"));
    }

    @Test
    void oneKmsChoiceEncryptsTheBucketTheFlowLogsAndEveryLogGroupWithTheSameKey() {
        Stack stack = TestApps.stack();
        TrainingDataPlatform p = platform(stack, TrainingDataPlatformProps.builder()
                .profile(profile(3_000 * GB, 30_000_000, AccessPattern.RANDOM, DataLocation.S3))
                .encryption(DataEncryption.KMS));
        Template t = Template.fromStack(stack);

        t.resourceCountIs("AWS::KMS::Key", 1);
        Map<String, Object> theKey = Map.of("Fn::GetAtt", List.of(stack.getLogicalId(
                (CfnElement) p.getDataBucket().getEncryptionKey().getNode().getDefaultChild()), "Arn"));
        t.allResourcesProperties("AWS::Logs::LogGroup", Map.of("KmsKeyId", theKey));
        // The flow logs' group, and one the stack's functions and state machines share (LogGroups.shared).
        t.resourceCountIs("AWS::Logs::LogGroup", 2);
    }

    @Test
    void rejectsEncryptionWithAnExistingBucket() {
        Stack stack = TestApps.stack();
        assertRule("STORE_EXISTING_OR_NEW", () -> platform(stack,
                TrainingDataPlatformProps.builder().source(DataSourceOption.S3_FILE)
                        .trainingJob(job().instanceType("ml.g5.xlarge").build())
                        .bucket(Bucket.fromBucketName(stack, "Team", "team-data")).encryption(DataEncryption.KMS)),
                "Test/Platform/DataBucket", "encryption", "set together with bucket",
                "either an existing bucket or settings for a new one, not both (new-bucket settings given: "
                        + "encryption)");
    }

    @Test
    void efsChoiceReadsTheGivenFileSystemThroughAnEfsChannel() {
        Stack stack = TestApps.stack();
        TrainingDataPlatform p = platform(stack, TrainingDataPlatformProps.builder()
                .profile(profile(500 * GB, 10_000, AccessPattern.SEQUENTIAL, DataLocation.EFS)).channelPath("images")
                .efsFileSystem(FileSystem.fromFileSystemAttributes(stack, "Labelled", FileSystemAttributes.builder()
                        .fileSystemId("fs-0123456789abcdef0")
                        .securityGroup(SecurityGroup.fromSecurityGroupId(stack, "LabelledGroup", "sg-0123456789abcdef0"))
                        .build())));
        Template t = Template.fromStack(stack);

        assertEquals(DataSourceOption.EFS, p.getSource());
        t.resourceCountIs("AWS::EFS::FileSystem", 0);
        t.hasResourceProperties("AWS::EC2::SecurityGroupIngress", Map.of("GroupId", "sg-0123456789abcdef0",
                "FromPort", 2049));
        t.resourceCountIs("AWS::FSx::FileSystem", 0);
        Map<?, ?> channel = (Map<?, ?>) ((List<?>) p.getDefinition().getRequest().get("InputDataConfig")).get(0);
        Map<?, ?> fs = (Map<?, ?>) ((Map<?, ?>) channel.get("DataSource")).get("FileSystemDataSource");
        assertEquals("/images", fs.get("DirectoryPath"));
        assertEquals("EFS", fs.get("FileSystemType"));
        assertEquals("fs-0123456789abcdef0", fs.get("FileSystemId"));
    }

    @Test
    void rejectsAFileSystemOfAnotherStackWhoseIdAReplacementChanges() {
        Stack stack = TestApps.stack();
        Stack data = new Stack((software.constructs.Construct) stack.getNode().getScope(), "Data");
        FileSystem shared = FileSystem.Builder.create(data, "Shared")
                .vpc(software.amazon.awscdk.services.ec2.Vpc.Builder.create(data, "Vpc").build()).build();
        assertRule("PLATFORM_EFS_STACK", () -> platform(stack, TrainingDataPlatformProps.builder()
                        .source(DataSourceOption.EFS).efsFileSystem(shared)
                        .trainingJob(job().instanceType("ml.g5.xlarge").build())),
                "Test/Platform", "efsFileSystem", "Data/Shared", "an EFS file system of the platform's stack, or one "
                        + "adopted by its literal id: the platform's job would read the id of another stack's file "
                        + "system at deploy time, which a replacement changes without updating this stack. Read it "
                        + "from another stack with an EfsStore there and an EfsChannel here (bound at run time)");
    }

    @Test
    void rejectsTheEfsChoiceWithoutTheFileSystemThatHoldsTheData() {
        assertRule("PLATFORM_EFS_FILE_SYSTEM", () -> platform(TestApps.stack(),
                TrainingDataPlatformProps.builder().source(DataSourceOption.EFS)
                        .trainingJob(job().instanceType("ml.g5.xlarge").build())),
                "Test/Platform", "efsFileSystem", "null",
                "the EFS file system that holds the data when the source is EFS (EFS is chosen because the data "
                        + "already lives there)");
    }

    @Test
    void smallDatasetWithManyEpochsGetsFileModeAndAVolumeThatHoldsIt() {
        // 80,000 files of 1 MB over 20 epochs of 6 minutes: FastFile would pay 6 ms per file in every epoch.
        Stack stack = TestApps.stack();
        TrainingDataPlatform p = platform(stack, TrainingDataPlatformProps.builder()
                .profile(DatasetProfile.builder().totalBytes(80 * GB).fileCount(80_000).epochs(20)
                        .trainingTime(java.time.Duration.ofHours(2)).instanceType("ml.g5.xlarge").build()));

        assertEquals(DataSourceOption.S3_FILE, p.getSource());
        Map<?, ?> resources = (Map<?, ?>) p.getDefinition().getRequest().get("ResourceConfig");
        assertEquals(90, resources.get("VolumeSizeInGB"), "80 GB + 20% = 96 GB = 90 GiB (rounded up)");
    }

    @Test
    void theEstimateSetsTheRuntimeLimitAndAWarmPoolForRepeatedJobsWhenTheAccountHasTheQuota() {
        Stack stack = TestApps.stack();
        TrainingDataPlatform p = platform(stack, TrainingDataPlatformProps.builder()
                .profile(DatasetProfile.builder().totalBytes(54 * GB).fileCount(1_500_000).jobs(10).warmPoolQuota(true)
                        .build()));

        assertEquals(DataSourceOption.FSX_LUSTRE, p.getSource());
        Map<?, ?> resources = (Map<?, ?>) p.getDefinition().getRequest().get("ResourceConfig");
        assertEquals(300, ((Number) resources.get("KeepAlivePeriodInSeconds")).intValue());
        // One job bills 160 s of start-up, the hour of compute and 50 s: twice that, in whole minutes.
        Map<?, ?> stopping = (Map<?, ?>) p.getDefinition().getRequest().get("StoppingCondition");
        assertEquals(2 * 3810, ((Number) stopping.get("MaxRuntimeInSeconds")).intValue());
        Template.fromStack(stack).hasResourceProperties("AWS::FSx::FileSystem", Map.of("StorageCapacity", 1200));

        Map<?, ?> once = (Map<?, ?>) platform(TestApps.stack(), TrainingDataPlatformProps.builder()
                .profile(DatasetProfile.builder().totalBytes(54 * GB).fileCount(1_500_000).build()))
                .getDefinition().getRequest().get("ResourceConfig");
        assertNull(once.get("KeepAlivePeriodInSeconds"));
        // The default warm-pool quota is 0: without the user saying the account has one, no keep-alive is set.
        Map<?, ?> noQuota = (Map<?, ?>) platform(TestApps.stack(), TrainingDataPlatformProps.builder()
                .profile(DatasetProfile.builder().totalBytes(54 * GB).fileCount(1_500_000).jobs(10).build()))
                .getDefinition().getRequest().get("ResourceConfig");
        assertNull(noQuota.get("KeepAlivePeriodInSeconds"));
    }

    @Test
    void largeDatasetOfLargeFilesGetsFastFile() {
        Stack stack = TestApps.stack();
        TrainingDataPlatform p = platform(stack, TrainingDataPlatformProps.builder()
                .profile(profile(2_000 * GB, 4_000, AccessPattern.SEQUENTIAL, DataLocation.S3)));
        assertEquals(DataSourceOption.S3_FAST_FILE, p.getSource());
    }

    @Test
    void anExplicitChoiceOverridesTheAdvisorAndSaysSo() {
        Stack stack = TestApps.stack();
        TrainingDataPlatform p = platform(stack, TrainingDataPlatformProps.builder()
                .profile(profile(2_000 * GB, 4_000, AccessPattern.SEQUENTIAL, DataLocation.S3))
                .source(DataSourceOption.FSX_LUSTRE));

        assertEquals(DataSourceOption.FSX_LUSTRE, p.getSource());
        assertEquals(DataSourceOption.S3_FAST_FILE, p.getRecommendation().option());
        Annotations.fromStack(stack).hasInfo("/Test/Platform", Match.stringLikeRegexp(
                "Training data source: FSX_LUSTRE \\(File\\), chosen explicitly; the advisor recommends S3_FAST_FILE: .*"));
    }

    @Test
    void rejectsNeitherProfileNorSource() {
        assertRule("PLATFORM_PROFILE_OR_SOURCE", () -> platform(TestApps.stack(),
                TrainingDataPlatformProps.builder().trainingJob(job().instanceType("ml.g5.xlarge").build())),
                "Test/Platform", "profile", "null",
                "a dataset profile (the advisor picks the source) or an explicit source");
    }

    @Test
    void rejectsAMissingImageAsTheDefinitionDoes() {
        assertRule("TRAINING_IMAGE_OR_ALGORITHM", () -> new TrainingDataPlatform(TestApps.stack(), "Platform", TrainingDataPlatformProps.builder()
                        .source(DataSourceOption.S3_FILE)
                        .trainingJob(TrainingJobDefinitionProps.builder().instanceType("ml.g5.xlarge").build()).build()),
                "Test/Platform/Training", "trainingImage", "unset (and algorithmName unset)",
                "exactly one of trainingImage and algorithmName");
    }

    @Test
    void rejectsAMissingInstanceTypeWithoutAProfileAsTheDefinitionDoes() {
        assertRule("TRAINING_INSTANCE_TYPE_REQUIRED", () -> platform(TestApps.stack(), TrainingDataPlatformProps.builder().source(DataSourceOption.S3_FILE)),
                "Test/Platform/Training", "instanceType", null, "an instance type such as ml.p3.2xlarge");
    }

    @Test
    void passesTheJobSettingsWholeAndFillsInOnlyWhatIsUnset() {
        Stack stack = TestApps.stack();
        TrainingDataBucket output = new TrainingDataBucket(stack, "Output", TrainingDataBucketProps.builder().build());
        S3Channel validation = S3Channel.builder("validation").dataBucket(output).path("validation").build();
        TrainingDataPlatform p = platform(stack, TrainingDataPlatformProps.builder()
                .profile(profile(54 * GB, 1_500_000, AccessPattern.RANDOM, DataLocation.S3))
                .source(DataSourceOption.S3_FAST_FILE)
                .trainingJob(job().jobNamePrefix("resnet").hyperParameters(Map.of("epochs", "10"))
                        .environment(Map.of("MODE", "train")).managedSpot(true).checkpointPrefix("checkpoints")
                        .tags(Map.of("team", "vision")).outputBucket(output).channels(List.of(validation)).build()));
        TrainingJobSpec spec = p.getDefinition().getSpec();
        assertEquals("resnet", spec.getJobNamePrefix());
        assertEquals(Map.of("epochs", "10"), spec.getHyperParameters());
        assertEquals(Map.of("MODE", "train"), spec.getEnvironment());
        assertEquals(Map.of("team", "vision"), spec.getTags());
        assertEquals(true, spec.isManagedSpot());
        assertEquals("checkpoints", spec.getCheckpointPrefix());
        assertSame(output, spec.getOutputBucket());
        assertEquals(List.of("train", "validation"), spec.getChannels().stream().map(c -> c.getName()).toList());
        // From the profile, since the job left them unset; never a warm pool with spot.
        assertEquals("ml.p3.2xlarge", spec.getInstanceType());
        assertSame(p.getNetwork(), p.getDefinition().getNetwork());
        assertNull(spec.getKeepAlivePeriod());
    }

    @Test
    void numberSettingsMayBeDeployTimeParameters() {
        Stack stack = TestApps.stack();
        software.amazon.awscdk.CfnParameter count = software.amazon.awscdk.CfnParameter.Builder.create(stack, "Count")
                .type("Number").build();
        software.amazon.awscdk.CfnParameter volume = software.amazon.awscdk.CfnParameter.Builder.create(stack, "Volume")
                .type("Number").build();
        software.amazon.awscdk.CfnParameter capacity = software.amazon.awscdk.CfnParameter.Builder.create(stack,
                "Capacity").type("Number").build();
        platform(stack, TrainingDataPlatformProps.builder().source(DataSourceOption.FSX_LUSTRE)
                .trainingJob(job().instanceType("ml.p4d.24xlarge").instanceCount(count.getValueAsNumber())
                        .volumeSizeGiB(volume.getValueAsNumber()).build())
                .lustreCapacityGiB(capacity.getValueAsNumber()));
        Template t = Template.fromStack(stack);
        t.hasResourceProperties("AWS::FSx::FileSystem", Match.objectLike(Map.of("StorageCapacity",
                Map.of("Ref", "Capacity"))));
        String request = t.findResources("AWS::SSM::Parameter").toString();
        assertEquals(true, request.contains("Ref=Count") && request.contains("Ref=Volume"), request);
        String template = t.toJSON().toString();
        assertEquals(false, template.contains("Token[") || template.contains("E+289") || template.contains("-2147483648"));
    }

    @Test
    void rejectsAJobNetworkOtherThanThePlatformsOwn() {
        Stack stack = TestApps.stack();
        TrainingNetwork other = new TrainingNetwork(stack, "Other");
        assertRule("PLATFORM_JOB_NETWORK", () -> platform(stack, TrainingDataPlatformProps.builder().source(DataSourceOption.S3_FILE)
                        .trainingJob(job().instanceType("ml.g5.xlarge").network(other).build())),
                "Test/Platform", "trainingJob.network", "Test/Other", "unset, or the platform's own network: give an "
                        + "existing network as TrainingDataPlatformProps.network, so the stores and the job share it");
    }

    @Test
    void acceptsThePlatformsOwnNetworkInTheJob() {
        Stack stack = TestApps.stack();
        TrainingNetwork shared = new TrainingNetwork(stack, "Shared");
        TrainingDataPlatform p = platform(stack, TrainingDataPlatformProps.builder().source(DataSourceOption.S3_FILE)
                .network(shared).trainingJob(job().instanceType("ml.g5.xlarge").network(shared).build()));
        assertSame(shared, p.getDefinition().getNetwork());
    }

    @Test
    void aLustreSourceNeedsAnImageForThePreloadWorker() {
        assertRule("PLATFORM_JOB_IMAGE", () -> platform(TestApps.stack(), TrainingDataPlatformProps.builder()
                        .source(DataSourceOption.FSX_LUSTRE).trainingJob(TrainingJobDefinitionProps.builder()
                                .algorithmName("xgboost").instanceType("ml.m5.xlarge").build())),
                "Test/Platform", "trainingJob.trainingImage", null, "an image when the source is FSX_LUSTRE: the "
                        + "preload's worker runs the job's image to warm the cache (an algorithm name cannot)");
    }

    @Test
    void aPinnedCapacityThatCannotHoldTheProfilesDataIsRefused() {
        // 3000 GB do not fit the 2400 x 11/12 = 2200 GiB (2,362,232,012,800 bytes) of file data 2400 GiB hold; they need
        // 3000 GB / GiB / (11/12) = 3048 GiB: 4800 GiB, which is also the advisor's (holding: 3353 GiB with 20%).
        assertRule("PLATFORM_LUSTRE_CAPACITY", () -> platform(TestApps.stack(), TrainingDataPlatformProps.builder()
                        .profile(profile(3_000 * GB, 30_000_000, AccessPattern.RANDOM, DataLocation.S3))
                        .source(DataSourceOption.FSX_LUSTRE).lustreCapacityGiB(2400)),
                "Test/Platform", "lustreCapacityGiB", 2400, "at least 4800 GiB: the profile's 3 TB (3,000,000,000,000 "
                        + "bytes) do not fit the 2.4 TB (2,362,232,012,800 bytes) of file data 2400 GiB hold (FSx keeps "
                        + "file data in about 11/12 of the storage capacity); the advisor's capacity for the profile is "
                        + "4800 GiB");
    }

    @Test
    void aPinnedCapacityBelowTheAdvisorsIsKeptWithAWarning() {
        Stack stack = TestApps.stack();
        // 2000 GB fit 2400 GiB (2,362 GB of file data); the advisor wants 4800 GiB: one epoch of 2,000,000 MB in the
        // profile's hour of compute is 556 MB/s, 2.78 TiB at 200 MB/s per TiB of baseline.
        platform(stack, TrainingDataPlatformProps.builder()
                .profile(profile(2_000 * GB, 3_000_000, AccessPattern.RANDOM, DataLocation.S3))
                .source(DataSourceOption.FSX_LUSTRE).lustreCapacityGiB(2400));
        Template.fromStack(stack).hasResourceProperties("AWS::FSx::FileSystem", Map.of("StorageCapacity", 2400));
        Annotations.fromStack(stack).hasWarning("/Test/Platform", Match.stringLikeRegexp("Test/Platform: "
                + "lustreCapacityGiB\\(2400\\) holds the profile's 2 TB but is below the advisor's 4800 GiB .*"));
    }

    @Test
    void theDerivedRuntimeStaysWithinTheJobsSpotMaxWait() {
        TrainingDataPlatform p = platform(TestApps.stack(), TrainingDataPlatformProps.builder()
                .profile(profile(54 * GB, 1_500_000, AccessPattern.RANDOM, DataLocation.S3))
                .source(DataSourceOption.S3_FILE)
                .trainingJob(job().managedSpot(true).checkpointPrefix("checkpoints")
                        .maxWait(software.amazon.awscdk.Duration.hours(1)).build()));
        assertEquals(3600, p.getDefinition().getSpec().getMaxRuntime().toSeconds().intValue(),
                "twice the estimate is longer than an hour: capped at the spot maxWait");
    }

    // ---- the cache's deployment type and tier; the data AZ ------------------------------------------

    /** 2 TB of small files read at random, once per 10 minutes of compute by 4 x ml.p3.2xlarge: 3333 MB/s. */
    private static DatasetProfile readHungry() {
        return DatasetProfile.builder().totalBytes(2_000 * GB).fileCount(30_000_000).accessPattern(AccessPattern.RANDOM)
                .instanceType("ml.p3.2xlarge").instanceCount(4).trainingTime(java.time.Duration.ofMinutes(10)).build();
    }

    private static Map<String, Object> lustreConfiguration(Stack stack) {
        Map<?, ?> fileSystem = (Map<?, ?>) Template.fromStack(stack).findResources("AWS::FSx::FileSystem").values()
                .iterator().next();
        @SuppressWarnings("unchecked")
        Map<String, Object> properties = (Map<String, Object>) fileSystem.get("Properties");
        return properties;
    }

    @Test
    void aProfileThatReadsFasterThanItsDatasSizeBuysGetsTheAdvisorsPersistent2Tier() {
        Stack stack = TestApps.stack();
        TrainingDataPlatform p = platform(stack, TrainingDataPlatformProps.builder().profile(readHungry()));
        // The advisor: SCRATCH_2 would need 19200 GiB ($2,688 a month), PERSISTENT_2 at 500 MB/s per TiB 7200 GiB
        // ($2,448, 8.9% less).
        assertEquals(DataSourceOption.FSX_LUSTRE, p.getSource());
        Template.fromStack(stack).hasResourceProperties("AWS::FSx::FileSystem", Match.objectLike(Map.of(
                "StorageCapacity", 7200, "LustreConfiguration", Match.objectLike(Map.of("DeploymentType", "PERSISTENT_2",
                        "PerUnitStorageThroughput", 500, "MetadataConfiguration", Map.of("Mode", "AUTOMATIC"))))));
        Annotations.fromStack(stack).hasWarning("/Test/Platform", Match.stringLikeRegexp("Test/Platform: the Lustre "
                + "cache \\(PERSISTENT_2 at 500 MB/s per TiB, 7200 GiB\\) is derived from the dataset profile\\. .* once "
                + "deployed, pin it with lustreDeploymentType\\(PERSISTENT_2\\), lustrePerUnitStorageThroughput\\(500\\) "
                + "and lustreCapacityGiB\\(7200\\).*"));
        // The preload loads at the tier: 7200 GiB x 500 MB/s per TiB.
        assertEquals(7200 / 1024.0 * 500, p.getLustreCache().getLoadThroughput().mbps(), 1e-9);
    }

    @Test
    void aPinnedCapacityAloneKeepsScratch2AndNamesTheAdvisorsTier() {
        Stack stack = TestApps.stack();
        platform(stack, TrainingDataPlatformProps.builder().profile(readHungry()).lustreCapacityGiB(19200));
        assertEquals("SCRATCH_2", ((Map<?, ?>) lustreConfiguration(stack).get("LustreConfiguration"))
                .get("DeploymentType"));
        assertEquals(19200, lustreConfiguration(stack).get("StorageCapacity"));
        Annotations.fromStack(stack).hasWarning("/Test/Platform", Match.stringLikeRegexp("Test/Platform: "
                + "lustreCapacityGiB is pinned without lustreDeploymentType, so the cache stays SCRATCH_2; the advisor "
                + "prefers PERSISTENT_2 at 500 MB/s per TiB, 7200 GiB.*Switching replaces the file system .*"));
    }

    @Test
    void aPinnedDeploymentTypeIsSizedForItself() {
        Stack scratch = TestApps.stack();
        platform(scratch, TrainingDataPlatformProps.builder().profile(readHungry())
                .lustreDeploymentType(LustreDeploymentType.SCRATCH_2));
        assertEquals(19200, lustreConfiguration(scratch).get("StorageCapacity"));
        // PERSISTENT_2 at 250: 3333 MB/s / 250 x 1024 = 13653 GiB, 14400 GiB.
        Stack tier = TestApps.stack();
        platform(tier, TrainingDataPlatformProps.builder().profile(readHungry())
                .lustreDeploymentType(LustreDeploymentType.PERSISTENT_2).lustrePerUnitStorageThroughput(250));
        assertEquals(14400, lustreConfiguration(tier).get("StorageCapacity"));
        assertEquals(250, ((Map<?, ?>) lustreConfiguration(tier).get("LustreConfiguration"))
                .get("PerUnitStorageThroughput"));
        // PERSISTENT_2 without a tier: the advisor's cheapest, 500.
        Stack cheapest = TestApps.stack();
        platform(cheapest, TrainingDataPlatformProps.builder().profile(readHungry())
                .lustreDeploymentType(LustreDeploymentType.PERSISTENT_2));
        assertEquals(500, ((Map<?, ?>) lustreConfiguration(cheapest).get("LustreConfiguration"))
                .get("PerUnitStorageThroughput"));
    }

    @Test
    void withoutAProfileThePinnedCacheIsBuiltAsGiven() {
        Stack stack = TestApps.stack();
        platform(stack, TrainingDataPlatformProps.builder().source(DataSourceOption.FSX_LUSTRE)
                .trainingJob(job().instanceType("ml.p4d.24xlarge").build())
                .lustreDeploymentType(LustreDeploymentType.PERSISTENT_2).lustrePerUnitStorageThroughput(1000)
                .lustreCapacityGiB(4800));
        assertEquals(4800, lustreConfiguration(stack).get("StorageCapacity"));
        assertEquals(1000, ((Map<?, ?>) lustreConfiguration(stack).get("LustreConfiguration"))
                .get("PerUnitStorageThroughput"));
        assertEquals(Map.of("Mode", "AUTOMATIC"), ((Map<?, ?>) lustreConfiguration(stack).get("LustreConfiguration"))
                .get("MetadataConfiguration"), "a PERSISTENT_2 cache's metadata mode is stated: AUTOMATIC by default");
    }

    @Test
    void aPinnedPersistent2CacheProvisionsTheMetadataIopsGiven() {
        Stack stack = TestApps.stack();
        platform(stack, TrainingDataPlatformProps.builder().source(DataSourceOption.FSX_LUSTRE)
                .trainingJob(job().instanceType("ml.p4d.24xlarge").build())
                .lustreDeploymentType(LustreDeploymentType.PERSISTENT_2).lustrePerUnitStorageThroughput(1000)
                .lustreMetadataIops(12000).lustreCapacityGiB(4800));
        assertEquals(Map.of("Mode", "USER_PROVISIONED", "Iops", 12000), ((Map<?, ?>) lustreConfiguration(stack)
                .get("LustreConfiguration")).get("MetadataConfiguration"));
    }

    @Test
    void rejectsMetadataIopsWithoutPersistent2() {
        assertRule("PLATFORM_LUSTRE_METADATA_IOPS", () -> platform(TestApps.stack(), TrainingDataPlatformProps.builder()
                .profile(readHungry()).lustreMetadataIops(3000)), "Test/Platform", "lustreMetadataIops", 3000,
                "unset unless lustreDeploymentType is PERSISTENT_2 (a metadata configuration is PERSISTENT_2's)");
    }

    @Test
    void rejectsATierWithoutPersistent2() {
        assertRule("PLATFORM_LUSTRE_TIER", () -> platform(TestApps.stack(), TrainingDataPlatformProps.builder().profile(readHungry())
                .lustrePerUnitStorageThroughput(500)), "Test/Platform", "lustrePerUnitStorageThroughput", 500,
                "unset unless lustreDeploymentType is PERSISTENT_2 (a throughput tier is PERSISTENT_2's)");
    }

    @Test
    void theDataAzChoosesTheNewNetworksDataSubnet() {
        Stack stack = TestApps.stack();
        TrainingDataPlatform p = platform(stack, TrainingDataPlatformProps.builder().profile(readHungry())
                .dataAvailabilityZone("us-east-1c"));
        assertEquals("us-east-1c", p.getNetwork().getDataAvailabilityZone());
        assertEquals("us-east-1c", p.getLustreCache().getAvailabilityZone());
    }

    @Test
    void rejectsADataAzWithAnExistingNetwork() {
        Stack stack = TestApps.stack();
        TrainingNetwork network = new TrainingNetwork(stack, "Network");
        assertRule("PLATFORM_DATA_AZ_WITH_NETWORK", () -> platform(stack, TrainingDataPlatformProps.builder().profile(readHungry()).network(network)
                .dataAvailabilityZone("us-east-1c")), "Test/Platform", "dataAvailabilityZone", "us-east-1c",
                "unset with an existing network: give it to that TrainingNetwork (TrainingNetworkProps."
                        + "dataAvailabilityZone, or its dataSubnet)");
    }
}
