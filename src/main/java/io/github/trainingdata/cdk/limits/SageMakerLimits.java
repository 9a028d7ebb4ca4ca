package io.github.trainingdata.cdk.limits;

/**
 * The constraints of every CreateTrainingJob member this library renders, taken from the SageMaker API model
 * ({@code sagemaker/2017-07-24}, botocore 1.43.11). A test compares each model constraint with the model;
 * narrowed ones say where their tighter bound comes from.
 */
public final class SageMakerLimits {
    /** TrainingJobName: 1–63 characters, letters and digits with inner hyphens. */
    public static final ApiLimit TRAINING_JOB_NAME = ApiLimit.string("CreateTrainingJobRequest.TrainingJobName",
            1L, 63L, "[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}");
    /**
     * The longest suffix this library appends to a job-name prefix: {@code -<UUID>} (37 characters, the
     * training state machine's). The launcher's {@code -<yyyyMMdd-HHmmss>-<4 hex>} (21) and the preload worker's
     * {@code -<12 hex>} (13) are shorter.
     */
    public static final int UNIQUE_SUFFIX_LENGTH = 37;
    /** A job-name prefix: a job name short enough for {@link #UNIQUE_SUFFIX_LENGTH} more characters (1–26). */
    public static final ApiLimit JOB_NAME_PREFIX = TRAINING_JOB_NAME.narrowed(null,
            TRAINING_JOB_NAME.getMax() - UNIQUE_SUFFIX_LENGTH, "leaving room for a unique suffix");

    /** AlgorithmSpecification.TrainingImage: at most 255 characters. */
    public static final ApiLimit TRAINING_IMAGE = ApiLimit.string("AlgorithmSpecification.TrainingImage",
            0L, 255L, ".*");
    /** AlgorithmSpecification.AlgorithmName: a name of 1–63 characters, or an algorithm's ARN; at most 170. */
    public static final ApiLimit ALGORITHM_NAME = ApiLimit.string("AlgorithmSpecification.AlgorithmName", 1L, 170L,
            "(arn:aws[a-z\\-]*:sagemaker:[a-z0-9\\-]*:[0-9]{12}:[a-z\\-]*\\/)?([a-zA-Z0-9]([a-zA-Z0-9-]){0,62})(?<!-)");
    /** AlgorithmSpecification.ContainerEntrypoint: 1–100 strings. */
    public static final ApiLimit CONTAINER_ENTRYPOINT = ApiLimit.count("AlgorithmSpecification.ContainerEntrypoint",
            1L, 100L, "strings");
    /** One ContainerEntrypoint string: at most 256 characters. */
    public static final ApiLimit CONTAINER_ENTRYPOINT_STRING = ApiLimit.string(
            "AlgorithmSpecification.ContainerEntrypoint.member", 0L, 256L, ".*");
    /** AlgorithmSpecification.ContainerArguments: 1–100 strings. */
    public static final ApiLimit CONTAINER_ARGUMENTS = ApiLimit.count("AlgorithmSpecification.ContainerArguments",
            1L, 100L, "strings");
    /** One ContainerArguments string: at most 256 characters. */
    public static final ApiLimit CONTAINER_ARGUMENT = ApiLimit.string("AlgorithmSpecification.ContainerArguments.member",
            0L, 256L, ".*");
    /** AlgorithmSpecification.MetricDefinitions: at most 40. */
    public static final ApiLimit METRIC_DEFINITIONS = ApiLimit.count("AlgorithmSpecification.MetricDefinitions",
            0L, 40L, "entries");
    /** MetricDefinition.Name: 1–255 characters on one line. */
    public static final ApiLimit METRIC_NAME = ApiLimit.string("MetricDefinition.Name", 1L, 255L, ".+");
    /** MetricDefinition.Regex: 1–500 characters on one line. */
    public static final ApiLimit METRIC_REGEX = ApiLimit.string("MetricDefinition.Regex", 1L, 500L, ".+");

    /** RoleArn: an IAM role ARN of 20–2048 characters. */
    public static final ApiLimit ROLE_ARN = ApiLimit.string("CreateTrainingJobRequest.RoleArn", 20L, 2048L,
            "arn:aws[a-z\\-]*:iam::\\d{12}:role/?[a-zA-Z_0-9+=,.@\\-_/]+");

    /** InputDataConfig: 1–20 channels (a job without channels leaves the member out). */
    public static final ApiLimit INPUT_DATA_CONFIG = ApiLimit.count("CreateTrainingJobRequest.InputDataConfig",
            1L, 20L, "channels");
    /** Channel.ChannelName: 1–64 characters of {@code [A-Za-z0-9.-_]}. */
    public static final ApiLimit CHANNEL_NAME = ApiLimit.string("Channel.ChannelName", 1L, 64L, "[A-Za-z0-9\\.\\-_]+");
    /** Channel.ContentType: at most 256 characters. */
    public static final ApiLimit CONTENT_TYPE = ApiLimit.string("Channel.ContentType", 0L, 256L, ".*");
    /**
     * S3DataSource.S3Uri: an {@code s3://} or {@code https://} URI of at most 1024 characters. OutputDataConfig and
     * CheckpointConfig URIs share the shape; theirs always fit (a bucket name of at most 63 characters and a key
     * prefix of at most 512).
     */
    public static final ApiLimit S3_URI = ApiLimit.string("S3DataSource.S3Uri", 0L, 1024L, "(https|s3)://([^/]+)/?(.*)");
    /** S3DataSource.AttributeNames: at most 16. */
    public static final ApiLimit ATTRIBUTE_NAMES = ApiLimit.count("S3DataSource.AttributeNames", 0L, 16L, "names");
    /** One AttributeNames entry: 1–256 characters on one line. */
    public static final ApiLimit ATTRIBUTE_NAME = ApiLimit.string("S3DataSource.AttributeNames.member", 1L, 256L, ".+");
    /** FileSystemDataSource.FileSystemId: {@code fs-} and at least 8 hex digits, 11–21 characters in all. */
    public static final ApiLimit FILE_SYSTEM_ID = ApiLimit.string("FileSystemDataSource.FileSystemId", 11L, 21L,
            "(fs-[0-9a-f]{8,})");
    /** FileSystemDataSource.DirectoryPath: at most 4096 characters. */
    public static final ApiLimit DIRECTORY_PATH = ApiLimit.string("FileSystemDataSource.DirectoryPath", 0L, 4096L, ".*");

    /** OutputDataConfig.KmsKeyId (and ResourceConfig.VolumeKmsKeyId): a key id, alias or ARN of at most 2048. */
    public static final ApiLimit KMS_KEY_ID = ApiLimit.string("OutputDataConfig.KmsKeyId", 0L, 2048L, "[a-zA-Z0-9:/_-]*");
    /** CheckpointConfig.LocalPath: at most 4096 characters. */
    public static final ApiLimit CHECKPOINT_LOCAL_PATH = ApiLimit.string("CheckpointConfig.LocalPath", 0L, 4096L, ".*");

    /**
     * ResourceConfig.InstanceCount: at least 1. The model allows 0, which only a job with instance groups
     * (not rendered by this library) may use.
     */
    public static final ApiLimit INSTANCE_COUNT = ApiLimit.number("ResourceConfig.InstanceCount", 0L, null, "")
            .narrowed(1L, null, null);
    /**
     * ResourceConfig.VolumeSizeInGB: at least 1 GiB. The model allows 0; this library always renders the
     * volume, and EBS-only instance families need one (the member's documentation).
     */
    public static final ApiLimit VOLUME_SIZE_IN_GB = ApiLimit.number("ResourceConfig.VolumeSizeInGB", 0L, null, "GiB")
            .narrowed(1L, null, null);
    /**
     * ResourceConfig.KeepAlivePeriodInSeconds: 0–3600 seconds. The model allows 21600; the SageMaker developer
     * guide ("Managed warm pools") caps a warm pool's keep-alive at 3600 seconds.
     */
    public static final ApiLimit KEEP_ALIVE_PERIOD_IN_SECONDS = ApiLimit.number(
            "ResourceConfig.KeepAlivePeriodInSeconds", 0L, 21_600L, "seconds").narrowed(null, 3_600L, null);
    /**
     * StoppingCondition.MaxRuntimeInSeconds: 1 second to 28 days. The model's constraint states only the minimum;
     * the 28 days are in the member's documentation ("The maximum value is 28 days").
     */
    public static final ApiLimit MAX_RUNTIME_IN_SECONDS = ApiLimit.number("StoppingCondition.MaxRuntimeInSeconds",
            1L, null, "seconds").narrowed(null, 28L * 24 * 3600, null);
    /** StoppingCondition.MaxWaitTimeInSeconds: at least 1 second (and, by the guide, at least the max runtime). */
    public static final ApiLimit MAX_WAIT_TIME_IN_SECONDS = ApiLimit.number("StoppingCondition.MaxWaitTimeInSeconds",
            1L, null, "seconds");

    /** RetryStrategy.MaximumRetryAttempts: 1–30 retries of a job that fails with an InternalServerError. */
    public static final ApiLimit MAXIMUM_RETRY_ATTEMPTS = ApiLimit.number("RetryStrategy.MaximumRetryAttempts",
            1L, 30L, "attempts");

    /** VpcConfig.SecurityGroupIds: 1–5 groups. */
    public static final ApiLimit SECURITY_GROUP_IDS = ApiLimit.count("VpcConfig.SecurityGroupIds", 1L, 5L,
            "security groups");
    /** One SecurityGroupIds entry: at most 32 characters of {@code [-0-9a-zA-Z]}. */
    public static final ApiLimit SECURITY_GROUP_ID = ApiLimit.string("VpcConfig.SecurityGroupIds.member", 0L, 32L,
            "[-0-9a-zA-Z]+");
    /** VpcConfig.Subnets: 1–16 subnets. */
    public static final ApiLimit SUBNETS = ApiLimit.count("VpcConfig.Subnets", 1L, 16L, "subnets");
    /** One Subnets entry: at most 32 characters of {@code [-0-9a-zA-Z]}. */
    public static final ApiLimit SUBNET_ID = ApiLimit.string("VpcConfig.Subnets.member", 0L, 32L, "[-0-9a-zA-Z]+");

    /** HyperParameters: at most 100 entries. */
    public static final ApiLimit HYPER_PARAMETERS = ApiLimit.count("CreateTrainingJobRequest.HyperParameters",
            0L, 100L, "entries");
    /** A HyperParameters key: at most 256 characters on one line. */
    public static final ApiLimit HYPER_PARAMETER_KEY = ApiLimit.string("CreateTrainingJobRequest.HyperParameters.key",
            0L, 256L, ".*");
    /** A HyperParameters value: at most 2500 characters on one line. */
    public static final ApiLimit HYPER_PARAMETER_VALUE = ApiLimit.string(
            "CreateTrainingJobRequest.HyperParameters.value", 0L, 2500L, ".*");
    /** Environment: at most 100 entries. */
    public static final ApiLimit ENVIRONMENT = ApiLimit.count("CreateTrainingJobRequest.Environment", 0L, 100L,
            "entries");
    /** An Environment key: a variable name of at most 512 characters. */
    public static final ApiLimit ENVIRONMENT_KEY = ApiLimit.string("CreateTrainingJobRequest.Environment.key",
            0L, 512L, "[a-zA-Z_][a-zA-Z0-9_]*");
    /** An Environment value: at most 512 characters, line breaks allowed. */
    public static final ApiLimit ENVIRONMENT_VALUE = ApiLimit.string("CreateTrainingJobRequest.Environment.value",
            0L, 512L, "[\\S\\s]*");
    /** Tags: at most 50. */
    public static final ApiLimit TAGS = ApiLimit.count("CreateTrainingJobRequest.Tags", 0L, 50L, "tags");
    /** Tag.Key: 1–128 Unicode letters, spaces, digits and {@code _.:/=+-@}. */
    public static final ApiLimit TAG_KEY = ApiLimit.string("Tag.Key", 1L, 128L, "([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)");
    /** Tag.Value: at most 256 Unicode letters, spaces, digits and {@code _.:/=+-@}. */
    public static final ApiLimit TAG_VALUE = ApiLimit.string("Tag.Value", 0L, 256L, "([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)");

    private SageMakerLimits() {
    }
}
