package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.limits.ApiLimit;
import io.github.trainingdata.cdk.limits.FsxLimits;
import io.github.trainingdata.cdk.limits.SageMakerLimits;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awscdk.CfnParameter;
import software.amazon.awscdk.CfnResource;
import software.amazon.awscdk.IResolvable;
import software.amazon.awscdk.Reference;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.Tokenization;
import software.amazon.awscdk.services.iam.CfnRole;

/**
 * An upper bound, in UTF-8 bytes, of the request document as CloudFormation will write it (the compact JSON that
 * {@code Stack.toJsonString} renders, with every deploy-time value filled in): literal parts are counted exactly
 * (escaped as JSON), and each deploy-time value by the most it can resolve to.
 *
 * <p>A value referring to a resource is bounded by what that resource type's value can be ({@link #boundOf}: an
 * IAM role ARN of a role with the default path, a bucket name, a KMS key ARN, an FSx or EFS file-system id, a Lustre
 * mount name, a security group or subnet id, an ECR repository); a pseudo parameter by the longest it is today
 * with a margin for new Regions; any other deploy-time value by the API's limit of the member it stands in ({@link
 * #CAPS}), since a longer one would fail CreateTrainingJob anyway. A member without a known limit (none today), a
 * deploy-time list, and a deploy-time value in a map key outside the known members count as unbounded.
 */
final class RequestDocumentBound {
    /** aws-cdk-lib's marker of a deploy-time value in a string: what is left without them is literal. */
    private static final Pattern STRING_TOKEN = Pattern.compile("\\$\\{Token\\[[^\\]]*\\]\\}");
    /** What "unbounded" adds: larger than any limit the bound is compared with, and safe to add up. */
    static final long UNBOUNDED = Long.MAX_VALUE / 4;
    /** The longest partition id: {@code aws-us-gov} (botocore {@code partitions.json}). */
    static final int PARTITION = 10;
    /** A Region name: the longest today has 15 characters ({@code us-isof-south-1}); 10 more for new Regions. */
    static final int REGION = 25;
    /**
     * An Availability Zone of {@code Fn::GetAZs}: its Region code followed by a letter ("AWS Availability Zones",
     * AWS Regions and Availability Zones guide).
     */
    static final int AVAILABILITY_ZONE = REGION + 1;
    /** An AWS account id: 12 digits. */
    static final int ACCOUNT = 12;
    /** The longest DNS suffix today is 16 characters ({@code amazonaws.com.cn}, botocore {@code partitions.json}). */
    static final int URL_SUFFIX = 20;
    /** An IAM role name: at most 64 characters (IAM quotas). */
    static final int ROLE_NAME = 64;
    /** An IAM path: at most 512 characters (IAM quotas). */
    static final int ROLE_PATH = 512;
    /** A bucket name: 3 to 63 characters (S3 bucket naming rules). */
    static final int BUCKET_NAME = 63;
    /** A KMS key id: a UUID, or {@code mrk-} and 32 hex digits for a multi-Region key: 36 characters. */
    static final int KMS_KEY_ID = 36;
    /** An ECR repository name: at most 256 characters. */
    static final int ECR_REPOSITORY_NAME = 256;
    /** A whole number as JSON: at most 20 characters (a signed 64-bit integer). */
    static final int NUMBER = 20;
    /** The most bytes one character of a deploy-time string takes in the JSON document (a 6-byte unicode escape). */
    static final int ESCAPED_CHARACTER = 6;

    /**
     * The API limit of every string member the request renders (list items as {@code []}, map values as
     * {@code {}} and map keys as {@code {key}}), and whether its pattern keeps it to printable ASCII without a
     * character JSON escapes.
     */
    static final Map<String, Cap> CAPS = caps();

    /**
     * The limit of a string member.
     *
     * @param max   most characters
     * @param ascii whether every character is printable ASCII that JSON does not escape
     */
    record Cap(long max, boolean ascii) {
        /** @return the most bytes the member's value adds to the document, quotes included */
        long bytes() {
            // A character takes at most 4 bytes in UTF-8, or 6 as a JSON escape (\u0001).
            return 2 + max * (ascii ? 1 : 6);
        }
    }

    private final Stack stack;
    /** Receives the document as it is measured: literal JSON text and whole deploy-time values; null when unused. */
    private final RequestSplit sink;
    /** Paths of another document's members that hold request members: measured as those (e.g. with their caps). */
    private final Map<String, String> requestMembers;

    private RequestDocumentBound(Stack stack, Map<String, String> requestMembers, RequestSplit sink) {
        this.stack = stack;
        this.requestMembers = requestMembers;
        this.sink = sink;
    }

    /**
     * The bound of {@code request}.
     *
     * @param stack   the stack that renders it
     * @param request the canonical CreateTrainingJob request
     * @return the most bytes the document can have (at least {@link #UNBOUNDED} when it cannot be bounded)
     */
    static long of(Stack stack, Map<String, Object> request) {
        return of(stack, request, Map.of());
    }

    /**
     * The bound of a document some of whose members hold request members.
     *
     * @param stack          the stack that renders it
     * @param document       the document
     * @param requestMembers for a member's path in the document (e.g. {@code Fallback.Subnets}), the request member
     *                       whose limits bound it (e.g. {@code VpcConfig.Subnets})
     * @return the most bytes the document can have (at least {@link #UNBOUNDED} when it cannot be bounded)
     */
    static long of(Stack stack, Map<String, Object> document, Map<String, String> requestMembers) {
        return new RequestDocumentBound(stack, requestMembers, null).value(document, "");
    }

    /**
     * Cuts the request's JSON document into parts of at most {@code maxPartBytes} each (whatever its deploy-time
     * values resolve to): between literal characters and whole deploy-time values, each counted by its bound.
     *
     * @param stack        the stack that renders it
     * @param request      the canonical CreateTrainingJob request
     * @param maxPartBytes the most bytes a part may have
     * @return the parts, in order, and the largest deploy-time value, which may not fit one part
     */
    static RequestSplit split(Stack stack, Map<String, Object> request, long maxPartBytes) {
        RequestSplit split = new RequestSplit(maxPartBytes);
        new RequestDocumentBound(stack, Map.of(), split).value(request, "");
        return split;
    }

    private void literal(String json) {
        if (sink != null) {
            sink.literal(json);
        }
    }

    private long value(Object value, String path) {
        if (value instanceof Map<?, ?> map) {
            long bytes = 2 + Math.max(0, map.size() - 1);
            literal("{");
            String separator = "";
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                literal(separator);
                separator = ",";
                String key = String.valueOf(entry.getKey());
                boolean free = !CAPS.containsKey(child(path, key)) && CAPS.containsKey(path + ".{}");
                bytes += string(key, free ? path + ".{key}" : null) + 1;
                literal(":");
                bytes += value(entry.getValue(), free ? path + ".{}" : child(path, key));
            }
            literal("}");
            return bytes;
        }
        if (value instanceof List<?> list) {
            if (list.stream().anyMatch(item -> item instanceof String s && s.contains("#{Token["))) {
                if (sink != null) {
                    sink.token(null, UNBOUNDED, path);
                }
                return UNBOUNDED;
            }
            long bytes = 2 + Math.max(0, list.size() - 1);
            literal("[");
            String separator = "";
            for (Object item : list) {
                literal(separator);
                separator = ",";
                bytes += value(item, path + "[]");
            }
            literal("]");
            return bytes;
        }
        if (value instanceof String text) {
            return string(text, path);
        }
        if (value instanceof Boolean flag) {
            literal(flag.toString());
            return flag ? 4 : 5;
        }
        if (value instanceof Number number) {
            return number(number, path);
        }
        if (sink != null) {
            sink.token(null, UNBOUNDED, path);
        }
        return UNBOUNDED;
    }

    private String child(String path, String key) {
        String child = path.isEmpty() ? key : path + "." + key;
        return requestMembers.getOrDefault(child, child);
    }

    /** A string: its literal parts escaped, each deploy-time value by its bound, at most the member's limit. */
    private long string(String text, String path) {
        if (!text.contains("{Token[")) {
            literal("\"" + escape(text) + "\"");
            return 2 + escapedBytes(text);
        }
        Cap cap = path == null ? null : CAPS.get(path);
        long bytes = 2 + escapedBytes(STRING_TOKEN.matcher(text).replaceAll(""));
        literal("\"");
        Matcher marker = STRING_TOKEN.matcher(text);
        int literalStart = 0;
        while (marker.find()) {
            literal(escape(text.substring(literalStart, marker.start())));
            literalStart = marker.end();
            long bound = boundOf(Tokenization.reverseString(marker.group()).getFirstToken());
            long tokenBytes = bound >= 0 ? bound : cap != null ? cap.max() * (cap.ascii() ? 1 : 4) : UNBOUNDED;
            if (sink != null) {
                sink.token(marker.group(), tokenBytes, path);
            }
            bytes += tokenBytes;
        }
        literal(escape(text.substring(literalStart)));
        literal("\"");
        return cap == null ? bytes : Math.min(bytes, cap.bytes());
    }

    private long number(Number number, String path) {
        if (Token.isUnresolved(number)) {
            if (sink != null) {
                sink.token(Token.asString(number), NUMBER, path);
            }
            return NUMBER;
        }
        double value = number.doubleValue();
        String json = value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value)
                : Double.toString(value);
        literal(json);
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? json.length() : 24;
    }

    /**
     * What a deploy-time value can be at most, in bytes, or -1 when only the member's limit bounds it: a template
     * parameter with a MaxLength, a reference to a resource of a type whose value is known to be short, or a pseudo
     * parameter.
     */
    private long boundOf(IResolvable token) {
        if (token instanceof Reference reference && reference.getTarget() instanceof CfnParameter parameter
                && parameter.getMaxLength() != null && !"Number".equals(parameter.getType())) {
            // CloudFormation refuses a longer value (MaxLength).
            return parameter.getMaxLength().longValue() * ESCAPED_CHARACTER;
        }
        if (token instanceof Reference reference && reference.getTarget() instanceof CfnResource resource) {
            String attribute = reference.getDisplayName();
            switch (resource.getCfnResourceType() + "." + attribute) {
                case "AWS::IAM::Role.Arn":
                    String path = resource instanceof CfnRole role ? role.getPath() : "/";
                    long pathLength = path == null ? 1 : Token.isUnresolved(path) ? ROLE_PATH : path.length();
                    return ("arn::iam:::role").length() + PARTITION + ACCOUNT + pathLength + ROLE_NAME;
                case "AWS::IAM::Role.Ref":
                    return ROLE_NAME;
                case "AWS::S3::Bucket.Ref":
                    return BUCKET_NAME;
                case "AWS::KMS::Key.Arn":
                    return ("arn::kms:::key/").length() + PARTITION + REGION + ACCOUNT + KMS_KEY_ID;
                case "AWS::KMS::Key.Ref":
                    return KMS_KEY_ID;
                case "AWS::FSx::FileSystem.Ref", "AWS::EFS::FileSystem.Ref":
                    return SageMakerLimits.FILE_SYSTEM_ID.getMax();
                case "AWS::FSx::FileSystem.LustreMountName":
                    return FsxLimits.MOUNT_NAME.getMax();
                case "AWS::EC2::SecurityGroup.GroupId", "AWS::EC2::SecurityGroup.Ref":
                    return SageMakerLimits.SECURITY_GROUP_ID.getMax();
                case "AWS::EC2::Subnet.Ref", "AWS::EC2::Subnet.SubnetId":
                    return SageMakerLimits.SUBNET_ID.getMax();
                case "AWS::ECR::Repository.Ref":
                    return ECR_REPOSITORY_NAME;
                case "AWS::ECR::Repository.Arn":
                    return ("arn::ecr:::repository/").length() + PARTITION + REGION + ACCOUNT + ECR_REPOSITORY_NAME;
                case "AWS::ECR::Repository.RepositoryUri":
                    return (".dkr.ecr../").length() + ACCOUNT + REGION + URL_SUFFIX + ECR_REPOSITORY_NAME;
                default:
                    return -1;
            }
        }
        Object resolved = stack.resolve(token);
        if (resolved instanceof String literal && !literal.contains("{Token[")) {
            return escapedBytes(literal);
        }
        if (AvailabilityZones.select(resolved) != null) {
            return AVAILABILITY_ZONE;
        }
        if (resolved instanceof Map<?, ?> map && map.size() == 1 && map.get("Ref") instanceof String pseudo) {
            switch (pseudo) {
                case "AWS::Partition":
                    return PARTITION;
                case "AWS::Region":
                    return REGION;
                case "AWS::AccountId":
                    return ACCOUNT;
                case "AWS::URLSuffix":
                    return URL_SUFFIX;
                default:
                    return -1;
            }
        }
        return -1;
    }

    /** The bytes of {@code text} as a JSON string's content: as JavaScript's {@code JSON.stringify} escapes it. */
    static long escapedBytes(String text) {
        return escape(text).getBytes(StandardCharsets.UTF_8).length;
    }

    /** {@code text} as a JSON string's content, escaped as JavaScript's {@code JSON.stringify} escapes it. */
    static String escape(String text) {
        StringBuilder json = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\b' -> json.append("\\b");
                case '\f' -> json.append("\\f");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20 || c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE) {
                        json.append(String.format("\\u%04x", c));
                    } else {
                        json.appendCodePoint(c);
                    }
                }
            }
        }
        return json.toString();
    }

    private static Map<String, Cap> caps() {
        Map<String, Cap> caps = new TreeMap<>();
        put(caps, "AlgorithmSpecification.TrainingImage", SageMakerLimits.TRAINING_IMAGE, false);
        put(caps, "AlgorithmSpecification.AlgorithmName", SageMakerLimits.ALGORITHM_NAME, true);
        caps.put("AlgorithmSpecification.TrainingInputMode", new Cap(8, true));
        put(caps, "AlgorithmSpecification.MetricDefinitions[].Name", SageMakerLimits.METRIC_NAME, false);
        put(caps, "AlgorithmSpecification.MetricDefinitions[].Regex", SageMakerLimits.METRIC_REGEX, false);
        put(caps, "AlgorithmSpecification.ContainerEntrypoint[]", SageMakerLimits.CONTAINER_ENTRYPOINT_STRING, false);
        put(caps, "AlgorithmSpecification.ContainerArguments[]", SageMakerLimits.CONTAINER_ARGUMENT, false);
        put(caps, "RoleArn", SageMakerLimits.ROLE_ARN, true);
        put(caps, "InputDataConfig[].ChannelName", SageMakerLimits.CHANNEL_NAME, true);
        String s3 = "InputDataConfig[].DataSource.S3DataSource.";
        caps.put(s3 + "S3DataType", new Cap(32, true));
        put(caps, s3 + "S3Uri", SageMakerLimits.S3_URI, false);
        caps.put(s3 + "S3DataDistributionType", new Cap(32, true));
        put(caps, s3 + "AttributeNames[]", SageMakerLimits.ATTRIBUTE_NAME, false);
        String fs = "InputDataConfig[].DataSource.FileSystemDataSource.";
        put(caps, fs + "FileSystemId", SageMakerLimits.FILE_SYSTEM_ID, true);
        caps.put(fs + "FileSystemAccessMode", new Cap(2, true));
        caps.put(fs + "FileSystemType", new Cap(16, true));
        put(caps, fs + "DirectoryPath", SageMakerLimits.DIRECTORY_PATH, false);
        put(caps, "InputDataConfig[].ContentType", SageMakerLimits.CONTENT_TYPE, false);
        for (String member : List.of("CompressionType", "RecordWrapperType", "InputMode")) {
            caps.put("InputDataConfig[]." + member, new Cap(16, true));
        }
        put(caps, "OutputDataConfig.S3OutputPath", SageMakerLimits.S3_URI, false);
        put(caps, "OutputDataConfig.KmsKeyId", SageMakerLimits.KMS_KEY_ID, true);
        // The longest instance type in the model has 21 characters (ml.p6e-gb200.36xlarge); room for new ones.
        caps.put("ResourceConfig.InstanceType", new Cap(64, true));
        put(caps, "ResourceConfig.VolumeKmsKeyId", SageMakerLimits.KMS_KEY_ID, true);
        put(caps, "VpcConfig.SecurityGroupIds[]", SageMakerLimits.SECURITY_GROUP_ID, true);
        put(caps, "VpcConfig.Subnets[]", SageMakerLimits.SUBNET_ID, true);
        put(caps, "HyperParameters.{key}", SageMakerLimits.HYPER_PARAMETER_KEY, false);
        put(caps, "HyperParameters.{}", SageMakerLimits.HYPER_PARAMETER_VALUE, false);
        put(caps, "Environment.{key}", SageMakerLimits.ENVIRONMENT_KEY, true);
        put(caps, "Environment.{}", SageMakerLimits.ENVIRONMENT_VALUE, false);
        put(caps, "CheckpointConfig.S3Uri", SageMakerLimits.S3_URI, false);
        put(caps, "CheckpointConfig.LocalPath", SageMakerLimits.CHECKPOINT_LOCAL_PATH, false);
        put(caps, "Tags[].Key", SageMakerLimits.TAG_KEY, false);
        put(caps, "Tags[].Value", SageMakerLimits.TAG_VALUE, false);
        return Collections.unmodifiableMap(caps);
    }

    private static void put(Map<String, Cap> caps, String path, ApiLimit limit, boolean ascii) {
        caps.put(path, new Cap(limit.getMax(), ascii));
    }
}
