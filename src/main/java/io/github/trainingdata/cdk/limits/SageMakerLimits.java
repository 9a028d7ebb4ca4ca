package io.github.trainingdata.cdk.limits;

import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    /**
     * ResourceConfig.InstanceType: the model's {@code TrainingInstanceType} enumeration, in its order (botocore
     * 1.43.11, 145 values). A job, a capacity step and a preload worker name one of these; an instance type SageMaker
     * added after this model is refused until the library's model is updated.
     */
    public static final List<String> TRAINING_INSTANCE_TYPES = List.of(
            "ml.m4.xlarge", "ml.m4.2xlarge", "ml.m4.4xlarge", "ml.m4.10xlarge", "ml.m4.16xlarge", "ml.g4dn.xlarge",
            "ml.g4dn.2xlarge", "ml.g4dn.4xlarge", "ml.g4dn.8xlarge", "ml.g4dn.12xlarge", "ml.g4dn.16xlarge",
            "ml.m5.large", "ml.m5.xlarge", "ml.m5.2xlarge", "ml.m5.4xlarge", "ml.m5.12xlarge", "ml.m5.24xlarge",
            "ml.c4.xlarge", "ml.c4.2xlarge", "ml.c4.4xlarge", "ml.c4.8xlarge", "ml.p2.xlarge", "ml.p2.8xlarge",
            "ml.p2.16xlarge", "ml.p3.2xlarge", "ml.p3.8xlarge", "ml.p3.16xlarge", "ml.p3dn.24xlarge",
            "ml.p4d.24xlarge", "ml.p4de.24xlarge", "ml.p5.48xlarge", "ml.p5e.48xlarge", "ml.p5en.48xlarge",
            "ml.c5.xlarge", "ml.c5.2xlarge", "ml.c5.4xlarge", "ml.c5.9xlarge", "ml.c5.18xlarge", "ml.c5n.xlarge",
            "ml.c5n.2xlarge", "ml.c5n.4xlarge", "ml.c5n.9xlarge", "ml.c5n.18xlarge", "ml.g5.xlarge", "ml.g5.2xlarge",
            "ml.g5.4xlarge", "ml.g5.8xlarge", "ml.g5.16xlarge", "ml.g5.12xlarge", "ml.g5.24xlarge", "ml.g5.48xlarge",
            "ml.g6.xlarge", "ml.g6.2xlarge", "ml.g6.4xlarge", "ml.g6.8xlarge", "ml.g6.16xlarge", "ml.g6.12xlarge",
            "ml.g6.24xlarge", "ml.g6.48xlarge", "ml.g6e.xlarge", "ml.g6e.2xlarge", "ml.g6e.4xlarge", "ml.g6e.8xlarge",
            "ml.g6e.16xlarge", "ml.g6e.12xlarge", "ml.g6e.24xlarge", "ml.g6e.48xlarge", "ml.trn1.2xlarge",
            "ml.trn1.32xlarge", "ml.trn1n.32xlarge", "ml.trn2.48xlarge", "ml.m6i.large", "ml.m6i.xlarge",
            "ml.m6i.2xlarge", "ml.m6i.4xlarge", "ml.m6i.8xlarge", "ml.m6i.12xlarge", "ml.m6i.16xlarge",
            "ml.m6i.24xlarge", "ml.m6i.32xlarge", "ml.c6i.xlarge", "ml.c6i.2xlarge", "ml.c6i.8xlarge",
            "ml.c6i.4xlarge", "ml.c6i.12xlarge", "ml.c6i.16xlarge", "ml.c6i.24xlarge", "ml.c6i.32xlarge",
            "ml.r5d.large", "ml.r5d.xlarge", "ml.r5d.2xlarge", "ml.r5d.4xlarge", "ml.r5d.8xlarge", "ml.r5d.12xlarge",
            "ml.r5d.16xlarge", "ml.r5d.24xlarge", "ml.t3.medium", "ml.t3.large", "ml.t3.xlarge", "ml.t3.2xlarge",
            "ml.r5.large", "ml.r5.xlarge", "ml.r5.2xlarge", "ml.r5.4xlarge", "ml.r5.8xlarge", "ml.r5.12xlarge",
            "ml.r5.16xlarge", "ml.r5.24xlarge", "ml.p6-b200.48xlarge", "ml.m7i.large", "ml.m7i.xlarge",
            "ml.m7i.2xlarge", "ml.m7i.4xlarge", "ml.m7i.8xlarge", "ml.m7i.12xlarge", "ml.m7i.16xlarge",
            "ml.m7i.24xlarge", "ml.m7i.48xlarge", "ml.c7i.large", "ml.c7i.xlarge", "ml.c7i.2xlarge", "ml.c7i.4xlarge",
            "ml.c7i.8xlarge", "ml.c7i.12xlarge", "ml.c7i.16xlarge", "ml.c7i.24xlarge", "ml.c7i.48xlarge",
            "ml.r7i.large", "ml.r7i.xlarge", "ml.r7i.2xlarge", "ml.r7i.4xlarge", "ml.r7i.8xlarge", "ml.r7i.12xlarge",
            "ml.r7i.16xlarge", "ml.r7i.24xlarge", "ml.r7i.48xlarge", "ml.p6e-gb200.36xlarge", "ml.p5.4xlarge",
            "ml.p6-b300.48xlarge", "ml.g7e.2xlarge", "ml.g7e.4xlarge", "ml.g7e.8xlarge", "ml.g7e.12xlarge",
            "ml.g7e.24xlarge", "ml.g7e.48xlarge");
    /** The TRAINING_INSTANCE_TYPES, for lookups. */
    private static final Set<String> TRAINING_INSTANCE_TYPE_SET = Set.copyOf(TRAINING_INSTANCE_TYPES);
    /** An instance type's family: {@code ml.<family>.<size>}. */
    private static final Pattern FAMILY = Pattern.compile("ml\\.([a-z0-9-]+)\\.[a-z0-9]+");

    private SageMakerLimits() {
    }

    /**
     * Whether SageMaker trains on an instance type.
     *
     * @param instanceType e.g. {@code ml.p4d.24xlarge}
     * @return true when the model's {@code TrainingInstanceType} enumerates it
     */
    public static boolean isTrainingInstanceType(String instanceType) {
        return TRAINING_INSTANCE_TYPE_SET.contains(instanceType);
    }

    /**
     * What a message allows instead of an instance type SageMaker does not train on: the types of its family, or a
     * few examples when the family is unknown.
     *
     * @param instanceType the rejected value
     * @return e.g. {@code one of the SageMaker training instance types (TrainingInstanceType, 145 values in the API
     *     model); of family p4d: ml.p4d.24xlarge}
     */
    public static String trainingInstanceTypesLike(String instanceType) {
        Matcher family = FAMILY.matcher(instanceType == null ? "" : instanceType);
        List<String> same = family.matches() ? TRAINING_INSTANCE_TYPES.stream()
                .filter(t -> t.startsWith("ml." + family.group(1) + ".")).toList() : List.of();
        return "one of the SageMaker training instance types (TrainingInstanceType, " + TRAINING_INSTANCE_TYPES.size()
                + " values in the API model); " + (same.isEmpty() ? "e.g. ml.m5.xlarge, ml.g5.2xlarge, ml.p4d.24xlarge"
                : "of family " + family.group(1) + ": " + String.join(", ", same));
    }
}
