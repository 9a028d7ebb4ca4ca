package io.github.trainingdata.cdk.training;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.CfnParameter;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.kms.Key;

/** The CreateTrainingJob rules on the definition's own props (channels and network: other classes). */
class TrainingJobDefinitionValidationTest {
    private static final String TAG_CHARACTERS = "([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)";
    private static final String ALGORITHM_NAME = "(arn:aws[a-z\\-]*:sagemaker:[a-z0-9\\-]*:[0-9]{12}:[a-z\\-]*\\/)?"
            + "([a-zA-Z0-9]([a-zA-Z0-9-]){0,62})(?<!-)";
    private final TrainingFixture f = new TrainingFixture();

    private static Map<String, String> entries(int count) {
        Map<String, String> map = new LinkedHashMap<>();
        IntStream.range(0, count).forEach(i -> map.put("k" + i, "v"));
        return map;
    }

    private Map<String, Object> request(TrainingJobDefinitionProps.Builder props) {
        return (Map<String, Object>) f.stack.resolve(f.define(props).getRequest());
    }

    @Test
    void rejectsNeitherImageNorAlgorithm() {
        assertRule("TRAINING_IMAGE_OR_ALGORITHM", () -> f.define(f.props().trainingImage(null)),
                "Test/Training", "trainingImage", "unset (and algorithmName unset)",
                "exactly one of trainingImage and algorithmName");
    }

    @Test
    void rejectsBothImageAndAlgorithm() {
        assertRule("TRAINING_IMAGE_OR_ALGORITHM", () -> f.define(f.props().algorithmName("xgboost")),
                "Test/Training", "trainingImage", "set together with algorithmName",
                "exactly one of trainingImage and algorithmName");
    }

    @Test
    void acceptsAnAlgorithmNameAlone() {
        Map<String, Object> algorithm = (Map<String, Object>) request(
                f.props().trainingImage(null).algorithmName("my-algorithm")).get("AlgorithmSpecification");
        assertEquals(Map.of("AlgorithmName", "my-algorithm", "TrainingInputMode", "File"), algorithm);
    }

    @Test
    void rejectsAnImageUriLongerThan255() {
        String uri = "123456789012.dkr.ecr.us-east-1.amazonaws.com/" + "r".repeat(209) + ":1";
        assertEquals(256, uri.length());
        assertRule("TRAINING_IMAGE_URI", () -> f.define(f.props().trainingImage(TrainingImage.fromUri(uri))),
                "Test/Training", "trainingImage", uri, "an image URI of at most 255 characters without line breaks");
    }

    @Test
    void rejectsAnImageOutsideEcr() {
        assertRule("TRAINING_IMAGE_ECR", () -> f.define(f.props().trainingImage(TrainingImage.fromUri("docker.io/library/python:3.12"))),
                "Test/Training", "trainingImage", "docker.io/library/python:3.12",
                "an Amazon ECR image URI <account>.dkr.ecr.<region>.amazonaws.com/<repository>[:<tag> or "
                        + "@sha256:<digest>]");
    }

    @Test
    void acceptsAnImageWithoutATag() {
        String uri = "123456789012.dkr.ecr.us-east-1.amazonaws.com/team/train";
        Map<String, Object> algorithm = (Map<String, Object>) request(
                f.props().trainingImage(TrainingImage.fromUri(uri))).get("AlgorithmSpecification");
        assertEquals(uri, algorithm.get("TrainingImage"));
    }

    @Test
    void acceptsAnImageByDigest() {
        String uri = "763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training@sha256:" + "a".repeat(64);
        Map<String, Object> algorithm = (Map<String, Object>) request(
                f.props().trainingImage(TrainingImage.fromUri(uri))).get("AlgorithmSpecification");
        assertEquals(uri, algorithm.get("TrainingImage"));
    }

    @Test
    void rejectsAnEmptyEntrypoint() {
        assertRule("TRAINING_COUNT_LIMIT", () -> f.define(f.props().containerEntrypoint(List.of())),
                "Test/Training", "containerEntrypoint", "0 strings", "1 to 100 strings");
    }

    @Test
    void rejectsMoreThan100Arguments() {
        assertRule("TRAINING_COUNT_LIMIT", () -> f.define(f.props().containerArguments(Collections.nCopies(101, "--x"))),
                "Test/Training", "containerArguments", "101 strings", "1 to 100 strings");
    }

    @Test
    void rejectsAnArgumentLongerThan256() {
        String arg = "a".repeat(257);
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().containerArguments(List.of("--data", arg))),
                "Test/Training", "containerArguments[1]", arg,
                "a string of at most 256 characters without line breaks");
    }

    @Test
    void acceptsAnEmptyEntrypointString() {
        Map<String, Object> algorithm = (Map<String, Object>) request(f.props()
                .containerEntrypoint(List.of("python", ""))).get("AlgorithmSpecification");
        assertEquals(List.of("python", ""), algorithm.get("ContainerEntrypoint"), "the API allows empty strings");
    }

    @Test
    void acceptsInstanceTypesWithAHyphenatedFamily() {
        Map<String, Object> resources = (Map<String, Object>) request(f.props().instanceType("ml.p6-b200.48xlarge"))
                .get("ResourceConfig");
        assertEquals("ml.p6-b200.48xlarge", resources.get("InstanceType"));
    }

    @Test
    void acceptsTheLongestEntrypointAndArguments() {
        Map<String, Object> algorithm = (Map<String, Object>) request(f.props()
                .containerEntrypoint(Collections.nCopies(100, "e"))
                .containerArguments(List.of("a".repeat(256)))).get("AlgorithmSpecification");
        assertEquals(100, ((List<?>) algorithm.get("ContainerEntrypoint")).size());
        assertEquals(List.of("a".repeat(256)), algorithm.get("ContainerArguments"));
    }

    @Test
    void rejectsAMissingInstanceType() {
        assertRule("TRAINING_INSTANCE_TYPE_REQUIRED", () -> f.define(f.props().instanceType(null)),
                "Test/Training", "instanceType", "null", "an instance type such as ml.p3.2xlarge");
    }

    @Test
    void rejectsAnInstanceTypeWithoutTheMlPrefix() {
        assertRule("TRAINING_INSTANCE_TYPE", () -> f.define(f.props().instanceType("p3.2xlarge")),
                "Test/Training", "instanceType", "p3.2xlarge", "one of the SageMaker training instance types (TrainingInstanceType, 145 values in the API model); e.g. "
                        + "ml.m5.xlarge, ml.g5.2xlarge, ml.p4d.24xlarge");
    }

    @Test
    void rejectsAnInstanceTypeSageMakerDoesNotTrainOnNamingItsFamily() {
        // ml.p4d.12xlarge has the shape of an instance type, but the API model's TrainingInstanceType lacks it.
        assertRule("TRAINING_INSTANCE_TYPE", () -> f.define(f.props().instanceType("ml.p4d.12xlarge")),
                "Test/Training", "instanceType", "ml.p4d.12xlarge", "one of the SageMaker training instance types "
                        + "(TrainingInstanceType, 145 values in the API model); of family p4d: ml.p4d.24xlarge");
    }

    @Test
    void rejectsAKeepAliveAwsCdkLibCannotConvertToSecondsNamingTheField() {
        assertRule("TRAINING_DURATION_SECONDS", () -> f.define(f.props().keepAlivePeriod(Duration.millis(1500))),
                "Test/Training", "keepAlivePeriod", "1 second 500 millis", "a whole number of seconds; a deploy-time "
                        + "value must be given as Duration.seconds(...) ('1500 millis' cannot be converted into a whole "
                        + "number of seconds.)");
    }

    @Test
    void rejectsAKeepAliveGivenAsADeployTimeValueInMinutes() {
        Number minutes = CfnParameter.Builder.create(f.stack, "KeepAlive").type("Number").build()
                .getValueAsNumber();
        assertRule("TRAINING_DURATION_SECONDS", () -> f.define(f.props().keepAlivePeriod(Duration.minutes(minutes))),
                "Test/Training", "keepAlivePeriod", "<token> minutes", "a whole number of seconds; a deploy-time value "
                        + "must be given as Duration.seconds(...) (Duration must be specified as 'Duration.seconds()' "
                        + "here since its value comes from a token and cannot be converted (got Duration.minutes))");
    }

    @Test
    void rejectsZeroInstances() {
        assertRule("TRAINING_NUMBER_LIMIT", () -> f.define(f.props().instanceCount(0)),
                "Test/Training", "instanceCount", "0", "a whole number of at least 1");
    }

    @Test
    void rejectsAZeroVolume() {
        assertRule("TRAINING_NUMBER_LIMIT", () -> f.define(f.props().volumeSizeGiB(0)),
                "Test/Training", "volumeSizeGiB", "0", "a whole number of at least 1 GiB");
    }

    @Test
    void rejectsAVolumeKeyOnALocalNvmeFamily() {
        Key key = new Key(f.stack, "VolumeKey");
        assertRule("TRAINING_VOLUME_KEY_NVME", () -> f.define(f.props().instanceType("ml.p4d.24xlarge").volumeKey(key)),
                "Test/Training", "volumeKey", "set for ml.p4d.24xlarge",
                "unset for instance families with local NVMe storage (c5d, c6id, g4dn, g5, g6, g6e, m5d, m6id, p3dn, "
                        + "p4d, p4de, p5, p5e, p5en, p6-b200, p6-b300, p6e-gb200, r5d, r6id, trn1, trn1n, trn2): "
                        + "their volumes are encrypted by the instance hardware");
    }

    @Test
    void acceptsAVolumeKeyOnAnEbsOnlyFamily() {
        Key key = new Key(f.stack, "VolumeKey");
        Map<String, Object> resources = (Map<String, Object>) request(f.props().instanceType("ml.p3.16xlarge")
                .volumeKey(key)).get("ResourceConfig");
        assertEquals(f.stack.resolve(key.getKeyArn()), resources.get("VolumeKmsKeyId"));
    }

    @Test
    void rejectsAJobNamePrefixLongerThan26() {
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().jobNamePrefix("abcdefghijklmnopqrstuvwxyz0")),
                "Test/Training", "jobNamePrefix", "abcdefghijklmnopqrstuvwxyz0",
                "1 to 26 characters matching [a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}, leaving room for a unique suffix");
    }

    @Test
    void rejectsAJobNamePrefixWithAnUnderscore() {
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().jobNamePrefix("resnet_50")),
                "Test/Training", "jobNamePrefix", "resnet_50",
                "1 to 26 characters matching [a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}, leaving room for a unique suffix");
    }

    @Test
    void rejectsAJobNamePrefixEndingInAHyphen() {
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().jobNamePrefix("resnet-")),
                "Test/Training", "jobNamePrefix", "resnet-",
                "1 to 26 characters matching [a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}, leaving room for a unique suffix");
    }

    @Test
    void acceptsA26CharacterJobNamePrefix() {
        assertEquals("abcdefghijklmnopqrstuvwxyz",
                f.define(f.props().jobNamePrefix("abcdefghijklmnopqrstuvwxyz")).getJobNamePrefix());
    }

    @Test
    void rejectsTheBucketRootAsOutput() {
        assertRule("TRAINING_PREFIX_NOT_ROOT", () -> f.define(f.props().outputPrefix("")),
                "Test/Training", "outputPrefix", "", "a non-empty key prefix (never the bucket root)");
    }

    @Test
    void rejectsAnOutputPrefixWithALeadingSlash() {
        assertRule("KEY_PREFIX_FORMAT", () -> f.define(f.props().outputPrefix("/models")),
                "Test/Training", "outputPrefix", "/models",
                "a key prefix of S3 safe characters [A-Za-z0-9!_.*'()/=+-], without leading or trailing '/' and "
                        + "without empty, '.' or '..' segments, at most 512 characters (empty for the root)");
    }

    @Test
    void rejectsTheBucketRootForCheckpoints() {
        assertRule("TRAINING_PREFIX_NOT_ROOT", () -> f.define(f.props().checkpointPrefix("")),
                "Test/Training", "checkpointPrefix", "", "a non-empty key prefix (never the bucket root)");
    }

    @Test
    void rejectsACheckpointPrefixWithADotDotSegment() {
        assertRule("KEY_PREFIX_FORMAT", () -> f.define(f.props().checkpointPrefix("checkpoints/../models")),
                "Test/Training", "checkpointPrefix", "checkpoints/../models",
                "a key prefix of S3 safe characters [A-Za-z0-9!_.*'()/=+-], without leading or trailing '/' and "
                        + "without empty, '.' or '..' segments, at most 512 characters (empty for the root)");
    }

    @Test
    void rejectsACheckpointLocalPathWithoutACheckpointPrefix() {
        assertRule("TRAINING_CHECKPOINT_LOCAL_PATH", () -> f.define(f.props().checkpointLocalPath("/opt/ml/ckpt")),
                "Test/Training", "checkpointLocalPath", "/opt/ml/ckpt",
                "unset unless checkpointPrefix is set (CheckpointConfig needs its S3 location)");
    }

    @Test
    void rejectsAZeroRuntime() {
        assertRule("TRAINING_DURATION_LIMIT", () -> f.define(f.props().maxRuntime(Duration.seconds(0))),
                "Test/Training", "maxRuntime", "0 seconds", "a whole number from 1 to 2419200 seconds");
    }

    @Test
    void rejectsARuntimeBeyond28Days() {
        Duration tooLong = Duration.seconds(28 * 86_400 + 1);
        assertRule("TRAINING_DURATION_LIMIT", () -> f.define(f.props().maxRuntime(tooLong)),
                "Test/Training", "maxRuntime", tooLong.toHumanString(), "a whole number from 1 to 2419200 seconds");
        assertEquals("28 days 1 second", tooLong.toHumanString());
    }

    @Test
    void acceptsExactly28Days() {
        Map<String, Object> stopping = (Map<String, Object>) request(f.props().maxRuntime(Duration.days(28)))
                .get("StoppingCondition");
        assertEquals(2_419_200L, ((Number) stopping.get("MaxRuntimeInSeconds")).longValue());
    }

    @Test
    void rejectsMaxWaitWithoutSpot() {
        assertRule("TRAINING_MAX_WAIT_SPOT", () -> f.define(f.props().maxWait(Duration.days(2))),
                "Test/Training", "maxWait", "2 days",
                "unset unless managedSpot is true (it bounds waiting for spot capacity)");
    }

    @Test
    void rejectsMaxWaitShorterThanTheRuntime() {
        assertRule("TRAINING_MAX_WAIT_RUNTIME", () -> f.define(f.props().managedSpot(true).checkpointPrefix("checkpoints")
                        .maxRuntime(Duration.hours(2)).maxWait(Duration.hours(1))),
                "Test/Training", "maxWait", "1 hour", "at least maxRuntime (2 hours)");
    }

    @Test
    void acceptsMaxWaitEqualToTheRuntime() {
        Map<String, Object> stopping = (Map<String, Object>) request(f.props().managedSpot(true)
                .checkpointPrefix("checkpoints").maxRuntime(Duration.hours(2)).maxWait(Duration.hours(2)))
                .get("StoppingCondition");
        assertEquals(7200L, ((Number) stopping.get("MaxWaitTimeInSeconds")).longValue());
    }

    @Test
    void rejectsAKeepAlivePeriodBeyondAnHour() {
        assertRule("TRAINING_KEEP_ALIVE_RANGE", () -> f.define(f.props().keepAlivePeriod(Duration.seconds(3601))),
                "Test/Training", "keepAlivePeriod", "1 hour 1 second",
                "0 to 3600 seconds (SageMaker managed warm pools)");
    }

    @Test
    void rejectsAKeepAlivePeriodWithManagedSpot() {
        assertRule("TRAINING_KEEP_ALIVE_SPOT", () -> f.define(f.props().managedSpot(true)
                .checkpointPrefix("checkpoints").keepAlivePeriod(Duration.minutes(10))),
                "Test/Training", "keepAlivePeriod", "10 minutes",
                "unset when managedSpot is true (managed warm pools cannot be used with spot instances)");
    }

    @Test
    void warnsOfManagedSpotWithoutCheckpoints() {
        f.define(f.props().managedSpot(true));
        Annotations.fromStack(f.stack).hasWarning("/Test/Training", "Test/Training: managed spot without "
                + "checkpointPrefix restarts from scratch after every interruption "
                + "[ack: @trainingdata/training:spotWithoutCheckpoints]");
    }

    @Test
    void doesNotWarnOfManagedSpotWithCheckpoints() {
        f.define(f.props().managedSpot(true).checkpointPrefix("checkpoints"));
        Annotations.fromStack(f.stack).hasNoWarning("/Test/Training", Match.anyValue());
    }

    @Test
    void rejectsMoreThan100HyperParameters() {
        assertRule("TRAINING_COUNT_LIMIT", () -> f.define(f.props().hyperParameters(entries(101))),
                "Test/Training", "hyperParameters", "101 entries", "at most 100 entries");
    }

    @Test
    void rejectsAHyperParameterKeyLongerThan256() {
        String key = "k".repeat(257);
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().hyperParameters(Map.of(key, "1"))),
                "Test/Training", "hyperParameters key", key, "at most 256 characters without line breaks");
    }

    @Test
    void rejectsAHyperParameterValueLongerThan2500() {
        String value = "v".repeat(2501);
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().hyperParameters(Map.of("layers", value))),
                "Test/Training", "hyperParameters['layers']", value, "at most 2500 characters without line breaks");
    }

    @Test
    void acceptsTheLargestHyperParameters() {
        Map<String, String> hp = entries(99);
        hp.put("k".repeat(256), "v".repeat(2500));
        assertEquals(100, ((Map<?, ?>) request(f.props().hyperParameters(hp)).get("HyperParameters")).size());
    }

    @Test
    void rejectsMoreThan100EnvironmentVariables() {
        assertRule("TRAINING_COUNT_LIMIT", () -> f.define(f.props().environment(entries(101))),
                "Test/Training", "environment", "101 entries", "at most 100 entries");
    }

    @Test
    void rejectsAnEnvironmentKeyStartingWithADigit() {
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().environment(Map.of("1_WORKERS", "4"))),
                "Test/Training", "environment key", "1_WORKERS",
                "at most 512 characters matching [a-zA-Z_][a-zA-Z0-9_]*");
    }

    @Test
    void rejectsAnEnvironmentKeyLongerThan512() {
        String key = "K".repeat(513);
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().environment(Map.of(key, "4"))),
                "Test/Training", "environment key", key, "at most 512 characters matching [a-zA-Z_][a-zA-Z0-9_]*");
    }

    @Test
    void rejectsAnEnvironmentValueLongerThan512() {
        String value = "v".repeat(513);
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().environment(Map.of("WORKERS", value))),
                "Test/Training", "environment['WORKERS']", value, "at most 512 characters");
    }

    @Test
    void rejectsMoreThan50Tags() {
        assertRule("TRAINING_COUNT_LIMIT", () -> f.define(f.props().tags(entries(51))),
                "Test/Training", "tags", "51 tags", "at most 50 tags");
    }

    @Test
    void rejectsATagKeyLongerThan128() {
        String key = "t".repeat(129);
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().tags(Map.of(key, "ml"))),
                "Test/Training", "tags key", key, "1 to 128 characters matching " + TAG_CHARACTERS);
    }

    @Test
    void rejectsATagValueLongerThan256() {
        String value = "v".repeat(257);
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().tags(Map.of("team", value))),
                "Test/Training", "tags['team']", value, "at most 256 characters matching " + TAG_CHARACTERS);
    }

    @Test
    void rejectsMoreThan40MetricDefinitions() {
        assertRule("TRAINING_COUNT_LIMIT", () -> f.define(f.props().metricDefinitions(entries(41))),
                "Test/Training", "metricDefinitions", "41 entries", "at most 40 entries");
    }

    @Test
    void rejectsAMetricNameLongerThan255() {
        String name = "m".repeat(256);
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().metricDefinitions(Map.of(name, "loss=(\\S+)"))),
                "Test/Training", "metricDefinitions name", name, "1 to 255 characters without line breaks");
    }

    @Test
    void rejectsAnEmptyMetricRegex() {
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().metricDefinitions(Map.of("loss", ""))),
                "Test/Training", "metricDefinitions['loss']", "", "1 to 500 characters without line breaks");
    }

    @Test
    void rejectsAMetricRegexLongerThan500() {
        String regex = "r".repeat(501);
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().metricDefinitions(Map.of("loss", regex))),
                "Test/Training", "metricDefinitions['loss']", regex, "1 to 500 characters without line breaks");
    }

    @Test
    void rejectsAMissingOutputBucket() {
        assertRule("TRAINING_OUTPUT_BUCKET", () -> f.define(f.props().outputBucket(null)),
                "Test/Training", "outputBucket", "null", "the bucket that receives model artifacts");
    }

    @Test
    void rejectsAnAlgorithmNameEndingInAHyphen() {
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().trainingImage(null).algorithmName("my-algorithm-")), "Test/Training",
                "algorithmName", "my-algorithm-", "an algorithm name or ARN, 1 to 170 characters matching " + ALGORITHM_NAME);
    }

    @Test
    void acceptsAnAlgorithmArn() {
        String arn = "arn:aws:sagemaker:us-east-1:123456789012:algorithm/my-algorithm";
        Map<String, Object> algorithm = (Map<String, Object>) request(
                f.props().trainingImage(null).algorithmName(arn)).get("AlgorithmSpecification");
        assertEquals(arn, algorithm.get("AlgorithmName"));
    }

    @Test
    void rejectsAnEntrypointStringWithALineBreak() {
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().containerEntrypoint(List.of("python", "-c\nprint(1)"))), "Test/Training",
                "containerEntrypoint[1]", "-c\nprint(1)", "a string of at most 256 characters without line breaks");
    }

    @Test
    void rejectsAHyperParameterKeyWithALineBreak() {
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().hyperParameters(Map.of("learning\nrate", "0.1"))), "Test/Training",
                "hyperParameters key", "learning\nrate", "at most 256 characters without line breaks");
    }

    @Test
    void rejectsAHyperParameterValueWithALineBreak() {
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().hyperParameters(Map.of("layers", "2\n3"))), "Test/Training",
                "hyperParameters['layers']", "2\n3", "at most 2500 characters without line breaks");
    }

    @Test
    void acceptsAnEnvironmentValueWithALineBreak() {
        Map<String, Object> environment = (Map<String, Object>) request(f.props()
                .environment(Map.of("SCRIPT", "set -e\necho ok"))).get("Environment");
        assertEquals("set -e\necho ok", environment.get("SCRIPT"), "the model's [\\S\\s]* takes line breaks");
    }

    @Test
    void rejectsATagKeyWithACharacterTagsDoNotTake() {
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().tags(Map.of("cost,center", "42"))), "Test/Training", "tags key",
                "cost,center", "1 to 128 characters matching " + TAG_CHARACTERS);
    }

    @Test
    void rejectsATagValueWithACharacterTagsDoNotTake() {
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().tags(Map.of("team", "ml!"))), "Test/Training", "tags['team']", "ml!",
                "at most 256 characters matching " + TAG_CHARACTERS);
    }

    @Test
    void acceptsTagsOfUnicodeLettersSpacesAndSymbols() {
        List<?> tags = (List<?>) request(f.props().tags(Map.of("Équipe données", "vision/2026 = a+b@c:d_e.f-g")))
                .get("Tags");
        assertEquals(1, tags.size());
    }

    @Test
    void rejectsAMetricNameWithALineBreak() {
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().metricDefinitions(Map.of("train\nloss", "loss=(\\S+)"))), "Test/Training",
                "metricDefinitions name", "train\nloss", "1 to 255 characters without line breaks");
    }

    @Test
    void rejectsAMetricRegexWithALineBreak() {
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().metricDefinitions(Map.of("loss", "loss=\n(\\S+)"))), "Test/Training",
                "metricDefinitions['loss']", "loss=\n(\\S+)", "1 to 500 characters without line breaks");
    }

    @Test
    void rejectsAFractionalInstanceCount() {
        assertRule("TRAINING_NUMBER_LIMIT", () -> f.define(f.props().instanceCount(1.5)), "Test/Training", "instanceCount", 1.5,
                "a whole number of at least 1");
    }

    @Test
    void rejectsAFractionalVolumeSize() {
        assertRule("TRAINING_NUMBER_LIMIT", () -> f.define(f.props().volumeSizeGiB(99.5)), "Test/Training", "volumeSizeGiB", 99.5,
                "a whole number of at least 1 GiB");
    }

    @Test
    void rejectsACheckpointLocalPathWithALineBreak() {
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().checkpointPrefix("checkpoints").checkpointLocalPath("/opt/ml/ck\npt")),
                "Test/Training", "checkpointLocalPath", "/opt/ml/ck\npt",
                "a directory of at most 4096 characters without line breaks");
    }

    @Test
    void rejectsAVolumeKeyWhoseArnTheApiRejects() {
        IKey key = Key.fromKeyArn(f.stack, "Given", "arn:aws:kms:us-east-1:123456789012:key/my key");
        assertRule("TRAINING_STRING_LIMIT", () -> f.define(f.props().volumeKey(key)), "Test/Training", "volumeKey",
                "arn:aws:kms:us-east-1:123456789012:key/my key",
                "a KMS key ARN of at most 2048 characters matching [a-zA-Z0-9:/_-]*");
    }

    @Test
    void rejectsARuntimeInFractionsOfASecond() {
        assertRule("TRAINING_DURATION_SECONDS", () -> f.define(f.props().maxRuntime(Duration.millis(1500))), "Test/Training", "maxRuntime",
                "1 second 500 millis", "a whole number of seconds; a deploy-time value must be given as "
                        + "Duration.seconds(...) ('1500 millis' cannot be converted into a whole number of seconds.)");
    }

    @Test
    void rejectsAZeroMaxWait() {
        assertRule("TRAINING_DURATION_LIMIT", () -> f.define(f.props().managedSpot(true).checkpointPrefix("checkpoints")
                        .maxWait(Duration.seconds(0))), "Test/Training", "maxWait", "0 seconds",
                "a whole number of at least 1 seconds");
    }
}
