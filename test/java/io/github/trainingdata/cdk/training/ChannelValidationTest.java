package io.github.trainingdata.cdk.training;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.trainingdata.cdk.limits.SageMakerLimits;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.EfsStoreProps;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.efs.FileSystem;
import software.amazon.awscdk.services.efs.FileSystemAttributes;

/** The channel rules: names and count (definition), S3 modes and data types, EFS ids and paths. */
class ChannelValidationTest {
    private static final String KEY_PREFIX_RULE = "a key prefix of S3 safe characters [A-Za-z0-9!_.*'()/=+-], "
            + "without leading or trailing '/' and without empty, '.' or '..' segments, at most 512 characters "
            + "(empty for the root)";
    private static final String EFS_PATH_RULE = "an absolute path from the EFS root such as /datasets/train, without "
            + "'..' or empty segments, at most 4096 characters without line breaks";
    private static final String EFS_ID_RULE = "the id of the EFS file system Test/ImportedEfs, 11 to 21 characters "
            + "matching (fs-[0-9a-f]{8,}) (access points fsap- are not accepted)";

    private final TrainingFixture f = new TrainingFixture();

    private void define(TrainingChannel... channels) {
        f.define(f.props().channels(List.of(channels)));
    }

    private List<Map<String, Object>> rendered(TrainingJobDefinitionProps.Builder props) {
        return (List<Map<String, Object>>) ((Map<String, Object>) f.stack.resolve(f.define(props).getRequest()))
                .get("InputDataConfig");
    }

    private List<TrainingChannel> s3Channels(int count) {
        return IntStream.range(0, count).mapToObj(i -> (TrainingChannel) f.s3("c" + i).path("part" + i).build()).toList();
    }

    /** @return a channel reading /features of an existing file system imported by id */
    private EfsChannel importedEfsChannel(String fileSystemId) {
        SecurityGroup group = SecurityGroup.Builder.create(f.stack, "EfsGroup").vpc(f.network().getVpc()).build();
        EfsStore store = new EfsStore(f.stack, "ImportedEfs", EfsStoreProps.builder().network(f.network())
                .fileSystem(FileSystem.fromFileSystemAttributes(f.stack, "Imported", FileSystemAttributes.builder()
                        .fileSystemId(fileSystemId).securityGroup(group).build())).build());
        return EfsChannel.builder("features").store(store).directoryPath("/features").build();
    }

    @Test
    void rejectsMoreThan20Channels() {
        assertRule("TRAINING_CHANNEL_COUNT", () -> f.define(f.props().channels(s3Channels(21))),
                "Test/Training", "channels", "21 channels", "at most 20 channels");
    }

    @Test
    void acceptsTwentyChannels() {
        assertEquals(20, rendered(f.props().channels(s3Channels(20))).size());
    }

    @Test
    void rejectsAChannelNameWithASpace() {
        assertRule("TRAINING_CHANNEL_NAME", () -> define(f.s3("train data").build()),
                "Test/Training", "channels[0].name", "train data", "1 to 64 characters matching [A-Za-z0-9\\.\\-_]+");
    }

    @Test
    void rejectsAChannelNameLongerThan64() {
        String name = "c".repeat(65);
        assertRule("TRAINING_CHANNEL_NAME", () -> define(f.s3(name).build()),
                "Test/Training", "channels[0].name", name, "1 to 64 characters matching [A-Za-z0-9\\.\\-_]+");
    }

    @Test
    void rejectsADuplicateChannelName() {
        assertRule("TRAINING_CHANNEL_NAME_UNIQUE", () -> define(f.s3("train").path("a").build(), f.s3("train").path("b").build()),
                "Test/Training", "channels[1].name", "train", "a name no other channel of the job uses");
    }

    @Test
    void rejectsFastFileForAManifest() {
        assertRule("CHANNEL_FAST_FILE_PREFIX", () -> define(f.s3("train").build(),
                f.s3("manifest").path("train.manifest").dataType(S3ChannelDataType.MANIFEST_FILE)
                        .inputMode(ChannelInputMode.FAST_FILE).build()),
                "Test/Training", "channels[1].inputMode", "FastFile",
                "File or Pipe for ManifestFile (FastFile reads S3 prefixes only)");
    }

    @Test
    void rejectsFastFileInheritedFromTheJobForAManifest() {
        assertRule("CHANNEL_FAST_FILE_PREFIX", () -> f.define(f.props().inputMode(ChannelInputMode.FAST_FILE).channels(
                List.of(f.s3("manifest").path("train.manifest").dataType(S3ChannelDataType.MANIFEST_FILE).build()))),
                "Test/Training", "channels[0].inputMode", "FastFile",
                "File or Pipe for ManifestFile (FastFile reads S3 prefixes only)");
    }

    @Test
    void rejectsGzipOutsidePipeMode() {
        assertRule("CHANNEL_GZIP_PIPE", () -> define(f.s3("train").compression(Compression.GZIP).build()),
                "Test/Training", "channels[0].compression", "Gzip",
                "None unless the channel runs in Pipe mode (it runs in File)");
    }

    @Test
    void acceptsGzipInPipeMode() {
        Map<String, Object> channel = rendered(f.props().channels(List.of(
                f.s3("train").compression(Compression.GZIP).inputMode(ChannelInputMode.PIPE).build()))).get(0);
        assertEquals("Gzip", channel.get("CompressionType"));
        assertEquals("Pipe", channel.get("InputMode"));
    }

    @Test
    void rejectsRecordIoInFileMode() {
        assertRule("CHANNEL_RECORDIO_FILE", () -> define(f.s3("train").recordWrapper(ChannelRecordWrapper.RECORD_IO)
                .build()),
                "Test/Training", "channels[0].recordWrapper", "RecordIO",
                "None in File mode (RecordIO wrapping needs Pipe or FastFile)");
    }

    @Test
    void acceptsRecordIoInPipeModeFromTheJob() {
        Map<String, Object> channel = rendered(f.props().inputMode(ChannelInputMode.PIPE).channels(List.of(
                f.s3("train").recordWrapper(ChannelRecordWrapper.RECORD_IO).build()))).get(0);
        assertEquals("RecordIO", channel.get("RecordWrapperType"));
    }

    @Test
    void rejectsAnAugmentedManifestOutsidePipeMode() {
        assertRule("CHANNEL_AUGMENTED_PIPE", () -> define(f.s3("train").path("train.manifest").dataType(S3ChannelDataType.AUGMENTED_MANIFEST_FILE)
                        .attributeNames(List.of("source-ref")).build()),
                "Test/Training", "channels[0].inputMode", "File", "Pipe for an AugmentedManifestFile channel");
    }

    @Test
    void rejectsAttributeNamesWithoutAnAugmentedManifest() {
        assertRule("CHANNEL_ATTRIBUTES_AUGMENTED", () -> define(f.s3("train").inputMode(ChannelInputMode.PIPE)
                .attributeNames(List.of("source-ref", "label")).build()),
                "Test/Training", "channels[0].attributeNames", "[source-ref, label]",
                "empty unless dataType is AugmentedManifestFile");
    }

    @Test
    void rejectsMoreThan16AttributeNames() {
        List<String> names = IntStream.range(0, 17).mapToObj(i -> "a" + i).toList();
        assertRule("CHANNEL_ATTRIBUTE_COUNT", () -> define(f.s3("train").path("train.manifest").dataType(S3ChannelDataType.AUGMENTED_MANIFEST_FILE)
                        .inputMode(ChannelInputMode.PIPE).attributeNames(names).build()),
                "Test/Training", "channels[0].attributeNames", "17 names", "at most 16 names");
    }

    @Test
    void acceptsAnAugmentedManifestInPipeModeWith16AttributeNames() {
        List<String> names = IntStream.range(0, 16).mapToObj(i -> "a" + i).toList();
        Map<String, Object> channel = rendered(f.props().channels(List.of(f.s3("train").path("train.manifest")
                .dataType(S3ChannelDataType.AUGMENTED_MANIFEST_FILE).inputMode(ChannelInputMode.PIPE).attributeNames(names)
                .build()))).get(0);
        assertEquals(Map.of("S3DataSource", Map.of("S3DataType", "AugmentedManifestFile",
                "S3Uri", "s3://team-datasets/imagenet/train.manifest", "S3DataDistributionType", "FullyReplicated",
                "AttributeNames", names)), channel.get("DataSource"));
    }

    @Test
    void rejectsAManifestWithoutAnObjectKey() {
        assertRule("CHANNEL_S3_MANIFEST_PATH", () -> define(f.s3("train").dataType(S3ChannelDataType.MANIFEST_FILE).build()),
                "Test/Training", "channels[0].path", "",
                "the key of the manifest object, relative to the dataset prefix");
    }

    @Test
    void rejectsAPathWithATrailingSlash() {
        assertRule("KEY_PREFIX_FORMAT", () -> define(f.s3("train").path("train/").build()),
                "Test/Training", "channels[0].path", "train/", KEY_PREFIX_RULE);
    }

    @Test
    void rejectsAPathWhoseUriExceeds1024Characters() {
        TrainingDataBucket deep = new TrainingDataBucket(f.stack, "Deep", TrainingDataBucketProps.builder()
                .bucket(f.data.getBucket()).datasetPrefix("d".repeat(500)).build());
        String path = "p".repeat(510);
        assertRule("CHANNEL_S3_URI", () -> define(S3Channel.builder("train").dataBucket(deep).path(path).build()),
                "Test/Training", "channels[0].path", path,
                "a path whose s3:// URI has at most 1024 characters matching (https|s3)://([^/]+)/?(.*)");
    }

    @Test
    void rejectsAnEfsAccessPointId() {
        assertRule("CHANNEL_EFS_ID", () -> define(importedEfsChannel("fsap-0123456789abcdef0")),
                "Test/Training", "channels[0].store.fileSystemId", "fsap-0123456789abcdef0", EFS_ID_RULE);
    }

    @Test
    void rejectsAFileSystemIdLongerThan21() {
        assertRule("CHANNEL_EFS_ID", () -> define(importedEfsChannel("fs-0123456789abcdef0123")),
                "Test/Training", "channels[0].store.fileSystemId", "fs-0123456789abcdef0123", EFS_ID_RULE);
    }

    static Stream<String> badEfsDirectories() {
        return Stream.of("datasets/train", "/datasets/../etc", "/datasets/..", "/datasets//train",
                "/" + "d".repeat(4096));
    }

    @ParameterizedTest(name = "bad directory {index}")
    @MethodSource("badEfsDirectories")
    void rejectsAnEfsDirectoryThatIsRelativeEscapesHasEmptySegmentsOrIsTooLong(String path) {
        assertRule("EFS_PATH_FORMAT", () -> define(f.efsChannel("features", path)),
                "Test/Training", "channels[0].directoryPath", path, EFS_PATH_RULE);
    }

    @Test
    void acceptsAnImportedFileSystemWithA21CharacterId() {
        Map<String, Object> channel = rendered(f.props().channels(List.of(
                importedEfsChannel("fs-0123456789abcdef0")))).get(0);
        assertEquals(Map.of("FileSystemDataSource", Map.of("FileSystemId", "fs-0123456789abcdef0",
                "FileSystemAccessMode", "ro", "FileSystemType", "EFS", "DirectoryPath", "/features")),
                channel.get("DataSource"));
    }

    @Test
    void rejectsALustrePathWithALeadingSlash() {
        assertRule("KEY_PREFIX_FORMAT", () -> define(f.lustreChannel("train", "/train")),
                "Test/Training", "channels[0].path", "/train", KEY_PREFIX_RULE);
    }

    @Test
    void rejectsALustreDatasetTheCacheDoesNotHave() {
        assertRule("CHANNEL_LUSTRE_DATASET", () -> f.define(f.props().channels(List.of(LustreChannel.builder("train").cache(f.lustre())
                .dataset("coco").path("train").build()))), "Test/Training", "channels[0].dataset", "coco",
                "one of the cache's datasets imagenet of Test/Lustre");
    }

    @Test
    void aLustreChannelNamesItsDatasetWhenTheCacheHasSeveral() {
        LustreCache shared = new LustreCache(f.stack, "Shared", LustreCacheProps.builder().network(f.network())
                .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(f.data).prefix("imagenet").build(),
                        LustreDataset.builder("coco").dataBucket(f.data).prefix("coco").build())).build());
        assertRule("CHANNEL_LUSTRE_DATASET_REQUIRED", () -> f.define(f.props().channels(List.of(LustreChannel.builder("train").cache(shared).path("train")
                .build()))), "Test/Training", "channels[0].dataset", null,
                "the dataset to read: one of the cache's datasets imagenet, coco (the cache has several)");
    }

    @Test
    void aLustreChannelReadsTheDatasetItNames() {
        LustreCache shared = new LustreCache(f.stack, "Shared", LustreCacheProps.builder().network(f.network())
                .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(f.data).prefix("imagenet").build(),
                        LustreDataset.builder("coco").dataBucket(f.data).prefix("coco").fileSystemPath("/sets/coco")
                                .build())).build());
        Map<String, Object> channel = rendered(f.props().channels(List.of(LustreChannel.builder("train")
                .cache(shared).dataset("coco").path("train2017").build()))).get(0);
        assertEquals(Map.of("Fn::Join", List.of("", List.of("/", Map.of("Fn::GetAtt",
                List.of(f.stack.getLogicalId(shared.getResource()), "LustreMountName")), "/sets/coco/train2017"))),
                ((Map<?, ?>) ((Map<?, ?>) channel.get("DataSource")).get("FileSystemDataSource")).get("DirectoryPath"));
    }

    @Test
    void rejectsAnEmptyAttributeName() {
        assertRule("CHANNEL_ATTRIBUTE_NAME", () -> f.define(f.props().channels(List.of(f.s3("train").path("train.manifest")
                        .dataType(S3ChannelDataType.AUGMENTED_MANIFEST_FILE).inputMode(ChannelInputMode.PIPE)
                        .attributeNames(List.of("source-ref", "")).build()))),
                "Test/Training", "channels[0].attributeNames[1]", "", "1 to 256 characters without line breaks");
    }

    @Test
    void rejectsAContentTypeWithALineBreak() {
        assertRule("CHANNEL_CONTENT_TYPE", () -> f.define(f.props().channels(List.of(f.s3("train").contentType("text/csv\nx").build()))),
                "Test/Training", "channels[0].contentType", "text/csv\nx",
                "a MIME type of at most 256 characters without line breaks");
    }

    @Test
    void aShuffleSeedIsRenderedAndMayBeADeployTimeNumber() {
        Map<String, Object> literal = rendered(f.props().channels(List.of(f.s3("train").shuffleSeed(42L).build()))).get(0);
        assertEquals(Map.of("Seed", 42), literal.get("ShuffleConfig"));
        TrainingFixture other = new TrainingFixture();
        software.amazon.awscdk.CfnParameter otherSeed = software.amazon.awscdk.CfnParameter.Builder.create(other.stack,
                "Seed").type("Number").build();
        Map<String, Object> token = (Map<String, Object>) ((List<?>) ((Map<String, Object>) other.stack.resolve(
                other.define(other.props().channels(List.of(other.s3("train").shuffleSeed(otherSeed.getValueAsNumber())
                        .build()))).getRequest())).get("InputDataConfig")).get(0);
        assertEquals(Map.of("Seed", Map.of("Ref", "Seed")), token.get("ShuffleConfig"));
    }

    @Test
    void aChannelNeedsAName() {
        assertRule("TRAINING_CHANNEL_NAME", () -> f.define(f.props().channels(List.of(f.s3(null).path("train").build()))), "Test/Training",
                "channels[0].name", null, SageMakerLimits.CHANNEL_NAME.allowed());
    }

    @Test
    void anS3ChannelNeedsItsBucket() {
        assertRule("CHANNEL_S3_BUCKET", () -> f.define(f.props().channels(List.of(S3Channel.builder("train").path("train").build()))),
                "Test/Training", "channels[0].store", null,
                "the S3 store the channel reads (a TrainingDataBucket, an S3ExpressStore or an S3Store of your own)");
    }

    @Test
    void aLustreChannelNeedsItsCache() {
        assertRule("CHANNEL_LUSTRE_CACHE", () -> f.define(f.props().channels(List.of(LustreChannel.builder("train").path("train").build()))),
                "Test/Training", "channels[0].cache", null, "the LustreCache the channel reads");
    }

    @Test
    void anEfsChannelNeedsItsStore() {
        assertRule("CHANNEL_EFS_STORE", () -> f.define(f.props().channels(List.of(EfsChannel.builder("features").directoryPath("/features")
                .build()))), "Test/Training", "channels[0].store", null, "the EfsStore the channel reads");
    }

    @Test
    void anEfsChannelNeedsItsDirectory() {
        EfsChannel channel = f.efsChannel("features", "/features");
        assertRule("CHANNEL_EFS_DIRECTORY_REQUIRED", () -> f.define(f.props().channels(List.of(EfsChannel.builder("features").store(channel.getStore())
                .build()))), "Test/Training", "channels[0].directoryPath", null,
                "the directory to read, an absolute path such as /datasets/train");
    }

    @Test
    void resolvingASpecChangesNoStore() {
        EfsChannel channel = f.efsChannel("features", "/features");
        TrainingJobSpec.resolve(new software.constructs.Construct(f.stack, "Probe"), f.props()
                .channels(List.of(channel)).build());
        assertEquals(List.of(), channel.getStore().getDirectories(), "checking is pure: only a blueprint binds");
        f.define(f.props().channels(List.of(channel)));
        assertEquals(List.of("/features"), channel.getStore().getDirectories());
    }
}
