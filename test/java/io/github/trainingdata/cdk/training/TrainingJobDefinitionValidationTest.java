package io.github.trainingdata.cdk.training;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
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
        assertEquals("Test/Training: invalid trainingImage 'unset (and algorithmName unset)': exactly one of "
                + "trainingImage and algorithmName", f.rejection(f.props().trainingImage(null)));
    }

    @Test
    void rejectsBothImageAndAlgorithm() {
        assertEquals("Test/Training: invalid trainingImage 'set together with algorithmName': exactly one of "
                + "trainingImage and algorithmName", f.rejection(f.props().algorithmName("xgboost")));
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
        assertEquals("Test/Training: invalid trainingImage '" + uri
                + "': an image URI of at most 255 characters without line breaks",
                f.rejection(f.props().trainingImage(TrainingImage.fromUri(uri))));
    }

    @Test
    void rejectsAnImageOutsideEcr() {
        assertEquals("Test/Training: invalid trainingImage 'docker.io/library/python:3.12': an Amazon ECR image URI "
                + "<account>.dkr.ecr.<region>.amazonaws.com/<repository>[:<tag> or @sha256:<digest>]",
                f.rejection(f.props().trainingImage(TrainingImage.fromUri("docker.io/library/python:3.12"))));
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
        assertEquals("Test/Training: invalid containerEntrypoint '0 strings': 1 to 100 strings",
                f.rejection(f.props().containerEntrypoint(List.of())));
    }

    @Test
    void rejectsMoreThan100Arguments() {
        assertEquals("Test/Training: invalid containerArguments '101 strings': 1 to 100 strings",
                f.rejection(f.props().containerArguments(Collections.nCopies(101, "--x"))));
    }

    @Test
    void rejectsAnArgumentLongerThan256() {
        String arg = "a".repeat(257);
        assertEquals("Test/Training: invalid containerArguments[1] '" + arg
                + "': a string of at most 256 characters without line breaks",
                f.rejection(f.props().containerArguments(List.of("--data", arg))));
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
        assertEquals("Test/Training: invalid instanceType 'null': an instance type such as ml.p3.2xlarge",
                f.rejection(f.props().instanceType(null)));
    }

    @Test
    void rejectsAnInstanceTypeWithoutTheMlPrefix() {
        assertEquals("Test/Training: invalid instanceType 'p3.2xlarge': a SageMaker instance type "
                + "ml.<family>.<size>", f.rejection(f.props().instanceType("p3.2xlarge")));
    }

    @Test
    void rejectsZeroInstances() {
        assertEquals("Test/Training: invalid instanceCount '0': a whole number of at least 1",
                f.rejection(f.props().instanceCount(0)));
    }

    @Test
    void rejectsAZeroVolume() {
        assertEquals("Test/Training: invalid volumeSizeGiB '0': a whole number of at least 1 GiB",
                f.rejection(f.props().volumeSizeGiB(0)));
    }

    @Test
    void rejectsAVolumeKeyOnALocalNvmeFamily() {
        Key key = new Key(f.stack, "VolumeKey");
        assertEquals("Test/Training: invalid volumeKey 'set for ml.p4d.24xlarge': unset for instance families with "
                + "local NVMe storage (c5d, c6id, g4dn, g5, g6, g6e, m5d, m6id, p3dn, p4d, p4de, p5, p5e, p5en, "
                + "p6-b200, p6-b300, p6e-gb200, r5d, r6id, trn1, trn1n, trn2): their volumes are encrypted by the instance hardware",
                f.rejection(f.props().instanceType("ml.p4d.24xlarge").volumeKey(key)));
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
        assertEquals("Test/Training: invalid jobNamePrefix 'abcdefghijklmnopqrstuvwxyz0': 1 to 26 characters "
                + "matching [a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}, leaving room for a unique suffix",
                f.rejection(f.props().jobNamePrefix("abcdefghijklmnopqrstuvwxyz0")));
    }

    @Test
    void rejectsAJobNamePrefixWithAnUnderscore() {
        assertEquals("Test/Training: invalid jobNamePrefix 'resnet_50': 1 to 26 characters matching "
                + "[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}, leaving room for a unique suffix",
                f.rejection(f.props().jobNamePrefix("resnet_50")));
    }

    @Test
    void rejectsAJobNamePrefixEndingInAHyphen() {
        assertEquals("Test/Training: invalid jobNamePrefix 'resnet-': 1 to 26 characters matching "
                + "[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}, leaving room for a unique suffix",
                f.rejection(f.props().jobNamePrefix("resnet-")));
    }

    @Test
    void acceptsA26CharacterJobNamePrefix() {
        assertEquals("abcdefghijklmnopqrstuvwxyz",
                f.define(f.props().jobNamePrefix("abcdefghijklmnopqrstuvwxyz")).getJobNamePrefix());
    }

    @Test
    void rejectsTheBucketRootAsOutput() {
        assertEquals("Test/Training: invalid outputPrefix '': a non-empty key prefix (never the bucket root)",
                f.rejection(f.props().outputPrefix("")));
    }

    @Test
    void rejectsAnOutputPrefixWithALeadingSlash() {
        assertEquals("Test/Training: invalid outputPrefix '/models': a key prefix of S3 safe characters "
                + "[A-Za-z0-9!_.*'()/=+-], without leading or trailing '/' and without empty, '.' or '..' segments, "
                + "at most 512 characters (empty for the root)", f.rejection(f.props().outputPrefix("/models")));
    }

    @Test
    void rejectsTheBucketRootForCheckpoints() {
        assertEquals("Test/Training: invalid checkpointPrefix '': a non-empty key prefix (never the bucket root)",
                f.rejection(f.props().checkpointPrefix("")));
    }

    @Test
    void rejectsACheckpointPrefixWithADotDotSegment() {
        assertEquals("Test/Training: invalid checkpointPrefix 'checkpoints/../models': a key prefix of S3 safe "
                + "characters [A-Za-z0-9!_.*'()/=+-], without leading or trailing '/' and without empty, '.' or '..' "
                + "segments, at most 512 characters (empty for the root)",
                f.rejection(f.props().checkpointPrefix("checkpoints/../models")));
    }

    @Test
    void rejectsACheckpointLocalPathWithoutACheckpointPrefix() {
        assertEquals("Test/Training: invalid checkpointLocalPath '/opt/ml/ckpt': unset unless checkpointPrefix is "
                + "set (CheckpointConfig needs its S3 location)",
                f.rejection(f.props().checkpointLocalPath("/opt/ml/ckpt")));
    }

    @Test
    void rejectsAZeroRuntime() {
        assertEquals("Test/Training: invalid maxRuntime '0 seconds': a whole number from 1 to 2419200 seconds",
                f.rejection(f.props().maxRuntime(Duration.seconds(0))));
    }

    @Test
    void rejectsARuntimeBeyond28Days() {
        Duration tooLong = Duration.seconds(28 * 86_400 + 1);
        assertEquals("Test/Training: invalid maxRuntime '" + tooLong.toHumanString()
                + "': a whole number from 1 to 2419200 seconds",
                f.rejection(f.props().maxRuntime(tooLong)));
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
        assertEquals("Test/Training: invalid maxWait '2 days': unset unless managedSpot is true (it bounds waiting "
                + "for spot capacity)", f.rejection(f.props().maxWait(Duration.days(2))));
    }

    @Test
    void rejectsMaxWaitShorterThanTheRuntime() {
        assertEquals("Test/Training: invalid maxWait '1 hour': at least maxRuntime (2 hours)",
                f.rejection(f.props().managedSpot(true).checkpointPrefix("checkpoints")
                        .maxRuntime(Duration.hours(2)).maxWait(Duration.hours(1))));
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
        assertEquals("Test/Training: invalid keepAlivePeriod '1 hour 1 second': 0 to 3600 seconds (SageMaker managed "
                + "warm pools)", f.rejection(f.props().keepAlivePeriod(Duration.seconds(3601))));
    }

    @Test
    void rejectsAKeepAlivePeriodWithManagedSpot() {
        assertEquals("Test/Training: invalid keepAlivePeriod '10 minutes': unset when managedSpot is true (managed "
                + "warm pools cannot be used with spot instances)", f.rejection(f.props().managedSpot(true)
                .checkpointPrefix("checkpoints").keepAlivePeriod(Duration.minutes(10))));
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
        assertEquals("Test/Training: invalid hyperParameters '101 entries': at most 100 entries",
                f.rejection(f.props().hyperParameters(entries(101))));
    }

    @Test
    void rejectsAHyperParameterKeyLongerThan256() {
        String key = "k".repeat(257);
        assertEquals("Test/Training: invalid hyperParameters key '" + key
                + "': at most 256 characters without line breaks",
                f.rejection(f.props().hyperParameters(Map.of(key, "1"))));
    }

    @Test
    void rejectsAHyperParameterValueLongerThan2500() {
        String value = "v".repeat(2501);
        assertEquals("Test/Training: invalid hyperParameters['layers'] '" + value
                + "': at most 2500 characters without line breaks",
                f.rejection(f.props().hyperParameters(Map.of("layers", value))));
    }

    @Test
    void acceptsTheLargestHyperParameters() {
        Map<String, String> hp = entries(99);
        hp.put("k".repeat(256), "v".repeat(2500));
        assertEquals(100, ((Map<?, ?>) request(f.props().hyperParameters(hp)).get("HyperParameters")).size());
    }

    @Test
    void rejectsMoreThan100EnvironmentVariables() {
        assertEquals("Test/Training: invalid environment '101 entries': at most 100 entries",
                f.rejection(f.props().environment(entries(101))));
    }

    @Test
    void rejectsAnEnvironmentKeyStartingWithADigit() {
        assertEquals("Test/Training: invalid environment key '1_WORKERS': at most 512 characters matching "
                + "[a-zA-Z_][a-zA-Z0-9_]*", f.rejection(f.props().environment(Map.of("1_WORKERS", "4"))));
    }

    @Test
    void rejectsAnEnvironmentKeyLongerThan512() {
        String key = "K".repeat(513);
        assertEquals("Test/Training: invalid environment key '" + key + "': at most 512 characters matching "
                + "[a-zA-Z_][a-zA-Z0-9_]*", f.rejection(f.props().environment(Map.of(key, "4"))));
    }

    @Test
    void rejectsAnEnvironmentValueLongerThan512() {
        String value = "v".repeat(513);
        assertEquals("Test/Training: invalid environment['WORKERS'] '" + value + "': at most 512 characters",
                f.rejection(f.props().environment(Map.of("WORKERS", value))));
    }

    @Test
    void rejectsMoreThan50Tags() {
        assertEquals("Test/Training: invalid tags '51 tags': at most 50 tags", f.rejection(f.props().tags(entries(51))));
    }

    @Test
    void rejectsATagKeyLongerThan128() {
        String key = "t".repeat(129);
        assertEquals("Test/Training: invalid tags key '" + key + "': 1 to 128 characters matching " + TAG_CHARACTERS,
                f.rejection(f.props().tags(Map.of(key, "ml"))));
    }

    @Test
    void rejectsATagValueLongerThan256() {
        String value = "v".repeat(257);
        assertEquals("Test/Training: invalid tags['team'] '" + value + "': at most 256 characters matching "
                + TAG_CHARACTERS,
                f.rejection(f.props().tags(Map.of("team", value))));
    }

    @Test
    void rejectsMoreThan40MetricDefinitions() {
        assertEquals("Test/Training: invalid metricDefinitions '41 entries': at most 40 entries",
                f.rejection(f.props().metricDefinitions(entries(41))));
    }

    @Test
    void rejectsAMetricNameLongerThan255() {
        String name = "m".repeat(256);
        assertEquals("Test/Training: invalid metricDefinitions name '" + name
                + "': 1 to 255 characters without line breaks",
                f.rejection(f.props().metricDefinitions(Map.of(name, "loss=(\\S+)"))));
    }

    @Test
    void rejectsAnEmptyMetricRegex() {
        assertEquals("Test/Training: invalid metricDefinitions['loss'] '': 1 to 500 characters without line breaks",
                f.rejection(f.props().metricDefinitions(Map.of("loss", ""))));
    }

    @Test
    void rejectsAMetricRegexLongerThan500() {
        String regex = "r".repeat(501);
        assertEquals("Test/Training: invalid metricDefinitions['loss'] '" + regex
                + "': 1 to 500 characters without line breaks",
                f.rejection(f.props().metricDefinitions(Map.of("loss", regex))));
    }

    @Test
    void rejectsAMissingOutputBucket() {
        assertEquals("Test/Training: invalid outputBucket 'null': the bucket that receives model artifacts",
                f.rejection(f.props().outputBucket(null)));
    }

    @Test
    void rejectsAnAlgorithmNameEndingInAHyphen() {
        assertRule(() -> f.define(f.props().trainingImage(null).algorithmName("my-algorithm-")), "Test/Training",
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
        assertRule(() -> f.define(f.props().containerEntrypoint(List.of("python", "-c\nprint(1)"))), "Test/Training",
                "containerEntrypoint[1]", "-c\nprint(1)", "a string of at most 256 characters without line breaks");
    }

    @Test
    void rejectsAHyperParameterKeyWithALineBreak() {
        assertRule(() -> f.define(f.props().hyperParameters(Map.of("learning\nrate", "0.1"))), "Test/Training",
                "hyperParameters key", "learning\nrate", "at most 256 characters without line breaks");
    }

    @Test
    void rejectsAHyperParameterValueWithALineBreak() {
        assertRule(() -> f.define(f.props().hyperParameters(Map.of("layers", "2\n3"))), "Test/Training",
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
        assertRule(() -> f.define(f.props().tags(Map.of("cost,center", "42"))), "Test/Training", "tags key",
                "cost,center", "1 to 128 characters matching " + TAG_CHARACTERS);
    }

    @Test
    void rejectsATagValueWithACharacterTagsDoNotTake() {
        assertRule(() -> f.define(f.props().tags(Map.of("team", "ml!"))), "Test/Training", "tags['team']", "ml!",
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
        assertRule(() -> f.define(f.props().metricDefinitions(Map.of("train\nloss", "loss=(\\S+)"))), "Test/Training",
                "metricDefinitions name", "train\nloss", "1 to 255 characters without line breaks");
    }

    @Test
    void rejectsAMetricRegexWithALineBreak() {
        assertRule(() -> f.define(f.props().metricDefinitions(Map.of("loss", "loss=\n(\\S+)"))), "Test/Training",
                "metricDefinitions['loss']", "loss=\n(\\S+)", "1 to 500 characters without line breaks");
    }

    @Test
    void rejectsAFractionalInstanceCount() {
        assertRule(() -> f.define(f.props().instanceCount(1.5)), "Test/Training", "instanceCount", 1.5,
                "a whole number of at least 1");
    }

    @Test
    void rejectsAFractionalVolumeSize() {
        assertRule(() -> f.define(f.props().volumeSizeGiB(99.5)), "Test/Training", "volumeSizeGiB", 99.5,
                "a whole number of at least 1 GiB");
    }

    @Test
    void rejectsACheckpointLocalPathWithALineBreak() {
        assertRule(() -> f.define(f.props().checkpointPrefix("checkpoints").checkpointLocalPath("/opt/ml/ck\npt")),
                "Test/Training", "checkpointLocalPath", "/opt/ml/ck\npt",
                "a directory of at most 4096 characters without line breaks");
    }

    @Test
    void rejectsAVolumeKeyWhoseArnTheApiRejects() {
        IKey key = Key.fromKeyArn(f.stack, "Given", "arn:aws:kms:us-east-1:123456789012:key/my key");
        assertRule(() -> f.define(f.props().volumeKey(key)), "Test/Training", "volumeKey",
                "arn:aws:kms:us-east-1:123456789012:key/my key",
                "a KMS key ARN of at most 2048 characters matching [a-zA-Z0-9:/_-]*");
    }

    @Test
    void rejectsARuntimeInFractionsOfASecond() {
        assertRule(() -> f.define(f.props().maxRuntime(Duration.millis(1500))), "Test/Training", "maxRuntime",
                "1 second 500 millis", "a whole number of seconds; a deploy-time value must be given as "
                        + "Duration.seconds(...) ('1500 millis' cannot be converted into a whole number of seconds.)");
    }

    @Test
    void rejectsAZeroMaxWait() {
        assertRule(() -> f.define(f.props().managedSpot(true).checkpointPrefix("checkpoints")
                        .maxWait(Duration.seconds(0))), "Test/Training", "maxWait", "0 seconds",
                "a whole number of at least 1 seconds");
    }
}
