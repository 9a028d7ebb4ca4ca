package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import software.constructs.IConstruct;

/**
 * Raises a channel's rule violations with the definition's path and the channel's index in the field name. A
 * {@link TrainingChannel} of your own gets one in {@link TrainingChannel#validate} and raises its own
 * {@link SynthRule}s through {@link #error}.
 */
public final class ChannelRules {
    static final SynthRule DATA_BUCKET = SynthRule.of("CHANNEL_S3_BUCKET", "TrainingJobDefinition channel",
            "channels[i].store",
            "the S3 store the channel reads",
            "library");
    static final SynthRule STORE_INPUT_MODE = SynthRule.of("CHANNEL_STORE_INPUT_MODE", "TrainingJobDefinition channel",
            "channels[i].inputMode",
            "an input mode the channel's S3 store accepts (S3Store.getInputModes)",
            "the store's own declaration; SageMaker Developer Guide: directory buckets are an input location for File, "
                    + "FastFile and Pipe mode");
    static final SynthRule MANIFEST_PATH = SynthRule.of("CHANNEL_S3_MANIFEST_PATH", "TrainingJobDefinition channel",
            "channels[i].path",
            "the key of the manifest object",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (S3DataSource.S3Uri)");
    static final SynthRule FAST_FILE_PREFIX = SynthRule.of("CHANNEL_FAST_FILE_PREFIX", "TrainingJobDefinition channel",
            "channels[i].inputMode",
            "FastFile only on S3 prefixes",
            "SageMaker Developer Guide, FastFile mode");
    static final SynthRule GZIP_PIPE = SynthRule.of("CHANNEL_GZIP_PIPE", "TrainingJobDefinition channel",
            "channels[i].compression",
            "Gzip only in Pipe mode",
            "SageMaker API reference, Channel.CompressionType");
    static final SynthRule RECORDIO_FILE = SynthRule.of("CHANNEL_RECORDIO_FILE", "TrainingJobDefinition channel",
            "channels[i].recordWrapper",
            "None in File mode",
            "SageMaker API reference, Channel.RecordWrapperType");
    static final SynthRule AUGMENTED_PIPE = SynthRule.of("CHANNEL_AUGMENTED_PIPE", "TrainingJobDefinition channel",
            "channels[i].inputMode",
            "Pipe for an AugmentedManifestFile channel",
            "SageMaker Developer Guide, augmented manifest files");
    static final SynthRule ATTRIBUTES_AUGMENTED = SynthRule.of("CHANNEL_ATTRIBUTES_AUGMENTED", "TrainingJobDefinition channel",
            "channels[i].attributeNames",
            "empty unless dataType is AugmentedManifestFile",
            "SageMaker API reference, S3DataSource.AttributeNames");
    static final SynthRule ATTRIBUTE_COUNT = SynthRule.of("CHANNEL_ATTRIBUTE_COUNT", "TrainingJobDefinition channel",
            "channels[i].attributeNames",
            "at most 16 names",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (S3DataSource.AttributeNames)");
    static final SynthRule ATTRIBUTE_NAME = SynthRule.of("CHANNEL_ATTRIBUTE_NAME", "TrainingJobDefinition channel",
            "channels[i].attributeNames[j]",
            "1 to 256 characters on one line",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (AttributeName)");
    static final SynthRule CONTENT_TYPE = SynthRule.of("CHANNEL_CONTENT_TYPE", "TrainingJobDefinition channel",
            "channels[i].contentType",
            "at most 256 characters on one line",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (Channel.ContentType)");
    static final SynthRule S3_URI = SynthRule.of("CHANNEL_S3_URI", "TrainingJobDefinition channel", "channels[i].path",
            "an s3:// URI of at most 1024 characters",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (S3DataSource.S3Uri)");
    static final SynthRule LUSTRE_CACHE = SynthRule.of("CHANNEL_LUSTRE_CACHE", "TrainingJobDefinition channel",
            "channels[i].cache",
            "the LustreCache the channel reads",
            "library");
    static final SynthRule LUSTRE_DATASET_REQUIRED = SynthRule.of("CHANNEL_LUSTRE_DATASET_REQUIRED", "TrainingJobDefinition channel",
            "channels[i].dataset",
            "a dataset when the cache has several",
            "library");
    static final SynthRule LUSTRE_DATASET = SynthRule.of("CHANNEL_LUSTRE_DATASET", "TrainingJobDefinition channel",
            "channels[i].dataset",
            "one of the cache's datasets",
            "library");
    static final SynthRule EFS_STORE = SynthRule.of("CHANNEL_EFS_STORE", "TrainingJobDefinition channel",
            "channels[i].store",
            "the EfsStore the channel reads",
            "library");
    static final SynthRule EFS_DIRECTORY_REQUIRED = SynthRule.of("CHANNEL_EFS_DIRECTORY_REQUIRED", "TrainingJobDefinition channel",
            "channels[i].directoryPath",
            "the directory to read",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (FileSystemDataSource.DirectoryPath)");
    static final SynthRule EFS_ID = SynthRule.of("CHANNEL_EFS_ID", "TrainingJobDefinition channel",
            "channels[i].store.fileSystemId",
            "fs- and at least 8 hex digits, 11 to 21 characters (no access points)",
            "SageMaker API model (botocore sagemaker/2017-07-24), CreateTrainingJob (FileSystemDataSource.FileSystemId)");

    private final IConstruct scope;
    private final int index;

    ChannelRules(IConstruct scope, int index) {
        this.scope = scope;
        this.index = index;
    }

    /** @return the job definition whose channel is checked, named in every error */
    public IConstruct scope() {
        return scope;
    }

    /** @return the channel's field {@code name} as errors name it, e.g. {@code channels[0].path} */
    public String field(String name) {
        return "channels[" + index + "]." + name;
    }

    /**
     * @return the error for {@code rule} broken by the channel's {@code field} holding {@code value} (throw it)
     */
    public ConfigurationError error(SynthRule rule, String field, Object value, String allowed) {
        return ConfigurationError.of(rule, scope, field(field), value, allowed);
    }
}
