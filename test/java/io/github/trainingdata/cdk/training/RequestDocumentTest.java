package io.github.trainingdata.cdk.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.Intrinsics;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator;
import io.github.trainingdata.cdk.limits.SageMakerLimits;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import io.github.trainingdata.cdk.launch.DeployedTrainingJobDefinition;
import io.github.trainingdata.cdk.storage.DataEncryption;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.CfnParameter;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.ecr.Repository;
import software.amazon.awscdk.services.iam.FromRoleArnOptions;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * Where a definition keeps its request: in its SSM parameter when the document cannot exceed 8 KB (measured at synth:
 * literal parts exactly, each deploy-time value by the most it can resolve to), else in its state machine, which
 * the parameter then points at and the SDK launcher reads.
 */
class RequestDocumentTest {
    private static final String ROLE = "arn:aws:iam::123456789012:role/training";

    /** Props whose request is literal: the fixture's image and bucket, and an existing role by ARN. */
    private static TrainingJobDefinitionProps.Builder literal(TrainingFixture f) {
        return f.props().jobNamePrefix("resnet").role(Role.fromRoleArn(f.stack, "Given", ROLE,
                FromRoleArnOptions.builder().mutable(false).build()));
    }

    private static long bound(TrainingJobDefinition definition) {
        return RequestDocumentBound.of(definition.getRequestParameter().getStack(), definition.getRequest());
    }

    /** The SSM parameter's Value in the template: a string, or a Fn::Join of literal parts and intrinsics. */
    private static Object parameterValue(TrainingFixture f) {
        Map<String, Map<String, Object>> parameters = Template.fromStack(f.stack).findResources("AWS::SSM::Parameter");
        return ((Map<?, ?>) parameters.values().iterator().next().get("Properties")).get("Value");
    }

    /** The request document as the template renders it: a string, or a Fn::Join of literal parts and intrinsics. */
    private static Object document(TrainingJobDefinition definition) {
        return definition.getRequestParameter().getStack().resolve(definition.getRequestParameter().getStack()
                .toJsonString(definition.getRequest()));
    }

    /** The bytes of the literal parts of a rendered value (already escaped as JSON). */
    private static long literalBytes(Object value) {
        if (value instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8).length;
        }
        List<?> parts = (List<?>) ((List<?>) ((Map<?, ?>) value).get("Fn::Join")).get(1);
        return parts.stream().filter(String.class::isInstance)
                .mapToLong(part -> ((String) part).getBytes(StandardCharsets.UTF_8).length).sum();
    }

    @Test
    void aLiteralDocumentIsCountedExactlyAsJsonEscapesIt() {
        TrainingFixture f = new TrainingFixture();
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("QUOTED", "say \"hi\" \\ back");
        environment.put("LINES", "one\ntwo\tthree\u0001");
        environment.put("UNICODE", "Grüße, 東京 🚀");
        TrainingJobDefinition definition = f.define(literal(f).environment(environment)
                .tags(Map.of("équipe", "vision")));

        Object value = parameterValue(f);
        assertTrue(value instanceof String, "a literal document: " + value);
        assertEquals(((String) value).getBytes(StandardCharsets.UTF_8).length, bound(definition));
    }

    @Test
    void aSplitDocumentIsCutBetweenCharactersIntoPartsThatJoinToTheRenderedDocument() {
        TrainingFixture f = new TrainingFixture();
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("QUOTED", "say \"hi\" \\ back");
        environment.put("LINES", "one\ntwo\tthree\u0001");
        environment.put("UNICODE", "Grüße, 東京 🚀".repeat(20));
        TrainingJobDefinition definition = f.define(literal(f).environment(environment));

        RequestSplit split = RequestDocumentBound.split(f.stack, definition.getRequest(), 100);

        StringBuilder joined = new StringBuilder();
        for (String part : split.parts()) {
            assertTrue(part.getBytes(StandardCharsets.UTF_8).length <= 100, part);
            joined.append(part);
        }
        assertEquals(document(definition), joined.toString());
        assertTrue(split.fits());
    }

    @Test
    void eachResourceReferenceCountsAsTheMostItsResourceTypeCanHold() {
        TrainingFixture f = new TrainingFixture();
        TrainingDataBucket encrypted = new TrainingDataBucket(f.stack, "Encrypted", TrainingDataBucketProps.builder()
                .encryption(DataEncryption.KMS).build());
        TrainingJobDefinition definition = f.define(f.props().jobNamePrefix("resnet").outputBucket(encrypted)
                .channels(List.of(f.lustreChannel("train", "train"), f.efsChannel("features", "/features"))));

        long roleArn = "arn::iam:::role/".length() + 10 + 12 + 64;
        long keyArn = "arn::kms:::key/".length() + 10 + 25 + 12 + 36;
        long lustreIdAndMountName = 21 + 8;
        long efsId = 21;
        long outputBucketName = 63;
        long securityGroupAndSubnet = 32 + 32;
        assertEquals(roleArn + keyArn + lustreIdAndMountName + efsId + outputBucketName + securityGroupAndSubnet,
                bound(definition) - literalBytes(document(definition)));
        assertEquals(102, roleArn, "a role with the default path");
        assertEquals(98, keyArn);
    }

    @Test
    void pseudoParametersCountAsTheLongestTheyCanBe() {
        TrainingFixture f = new TrainingFixture();
        TrainingJobDefinition definition = f.define(literal(f).trainingImage(TrainingImage.fromEcrRepository(
                Repository.fromRepositoryName(f.stack, "Repo", "trainer"), "1.0")));

        long accountRegionUrlSuffix = 12 + 25 + 20;
        assertEquals(accountRegionUrlSuffix, bound(definition) - literalBytes(document(definition)));
    }

    @Test
    void anyOtherDeployTimeValueCountsAsTheMostItsMemberMayHold() {
        TrainingFixture f = new TrainingFixture();
        CfnParameter learningRate = CfnParameter.Builder.create(f.stack, "LearningRate").build();
        CfnParameter instances = CfnParameter.Builder.create(f.stack, "Instances").type("Number").build();
        TrainingJobDefinition definition = f.define(literal(f)
                .hyperParameters(Map.of("lr", learningRate.getValueAsString()))
                .environment(Map.of("IMAGE_TAG", Fn.importValue("ImageTag")))
                .instanceCount(instances.getValueAsNumber()));

        long hyperParameterValue = 2500 * 4;
        long environmentValue = 512 * 4;
        long number = 20;
        assertEquals(hyperParameterValue + environmentValue + number, bound(definition) - literalBytes(document(definition)));
    }

    @Test
    void aTemplateParameterWithAMaxLengthCountsAsThatManyEscapedCharacters() {
        TrainingFixture f = new TrainingFixture();
        CfnParameter learningRate = CfnParameter.Builder.create(f.stack, "LearningRate").maxLength(16).build();
        TrainingJobDefinition definition = f.define(literal(f)
                .hyperParameters(Map.of("lr", learningRate.getValueAsString())));

        assertEquals(16 * 6, bound(definition) - literalBytes(document(definition)));
    }

    @Test
    void aRequestThatCannotExceedEightKilobytesIsKeptInTheParameter() {
        TrainingFixture f = new TrainingFixture();
        TrainingJobDefinition definition = f.define(padded(f, 8192));

        assertEquals(8192, bound(definition));
        Object value = parameterValue(f);
        assertEquals(8192, ((String) value).getBytes(StandardCharsets.UTF_8).length);
        assertEquals(document(definition), value);
    }

    @Test
    void aRequestThatMayExceedEightKilobytesIsKeptInTheStateMachineWhichTheParameterPointsAt() {
        TrainingFixture f = new TrainingFixture();
        TrainingJobDefinition definition = f.define(padded(f, 8193).checkpointPrefix("checkpoints/resnet"));
        Template template = Template.fromStack(f.stack);
        String machine = AslSimulator.trainingStateMachines(template).keySet().iterator().next();

        assertEquals(Map.of("RequestInStateMachine", Map.of("StateMachineArn", "REF(" + machine + ")",
                "StateName", "Train", "CheckpointS3Uri", "s3://team-datasets/checkpoints/resnet/")),
                Json.value(Intrinsics.string(parameterValue(f))));
        Annotations.fromStack(f.stack).hasInfo("/Test/Training", Match.stringLikeRegexp("Test/Training: the request "
                + "document may have up to 82\\d\\d bytes, more than an SSM parameter value may \\(8192\\): the parameter "
                + "points at the state machine's training state.*"));
        assertTrue(bound(definition) > 8192);
    }

    /** Literal props whose document has exactly {@code bytes} bytes (hyperparameter values make up the rest). */
    private static TrainingJobDefinitionProps.Builder padded(TrainingFixture f, int bytes) {
        Map<String, String> padding = new LinkedHashMap<>(Map.of("p0", "", "p1", "", "p2", "", "p3", ""));
        TrainingFixture probe = new TrainingFixture();
        long missing = bytes - bound(probe.define(literal(probe).hyperParameters(padding)));
        for (String key : List.copyOf(padding.keySet())) {
            int length = (int) Math.min(missing, SageMakerLimits.HYPER_PARAMETER_VALUE.getMax());
            padding.put(key, "p".repeat(length));
            missing -= length;
        }
        return literal(f).hyperParameters(padding);
    }

    @Test
    void theLauncherReadsTheSameRequestFromTheStateMachine() throws IOException {
        TrainingFixture f = new TrainingFixture();
        CfnParameter learningRate = CfnParameter.Builder.create(f.stack, "LearningRate").build();
        TrainingJobDefinition definition = f.define(f.props().jobNamePrefix("resnet").checkpointPrefix("checkpoints")
                .hyperParameters(Map.of("lr", learningRate.getValueAsString(), "other", "x"))
                .channels(List.of(f.lustreChannel("train", "train"))));
        Template template = Template.fromStack(f.stack);
        Object machine = AslSimulator.trainingStateMachines(template).values().iterator().next();
        String definitionJson = Intrinsics.string(((Map<?, ?>) ((Map<?, ?>) machine).get("Properties"))
                .get("DefinitionString"));
        String pointer = Intrinsics.string(parameterValue(f));
        assertTrue(pointer.startsWith("{\"RequestInStateMachine\""), pointer);

        try (AwsJsonEmulator emulator = new AwsJsonEmulator(); SsmClient ssm = emulator.ssm();
                SfnClient sfn = emulator.stepFunctions()) {
            emulator.on("AmazonSSM.GetParameter", call -> Reply.ok(Json.MAPPER.createObjectNode().set("Parameter",
                    Json.MAPPER.createObjectNode().put("Name", "/p").put("Type", "String").put("Value", pointer))
                    .toString()));
            emulator.on("AWSStepFunctions.DescribeStateMachine", call -> Reply.ok(Json.MAPPER.createObjectNode()
                    .put("stateMachineArn", "arn:aws:states:us-east-1:123456789012:stateMachine:Training")
                    .put("name", "Training").put("definition", definitionJson).put("roleArn", "arn")
                    .put("type", "STANDARD").put("creationDate", 1767225600).toString()));

            String read = new DeployedTrainingJobDefinition(ssm, sfn, "/p").document();

            assertEquals(Json.tree(Intrinsics.string(f.stack.resolve(f.stack.toJsonString(definition.getRequest())))),
                    Json.tree(read));
        }
    }

    @Test
    void theLargestValidRequestIsKeptInTheStateMachineAndItsPointerIsSmall() {
        TrainingFixture f = new TrainingFixture();
        Map<String, String> hyperParameters = new LinkedHashMap<>();
        Map<String, String> environment = new LinkedHashMap<>();
        Map<String, String> tags = new LinkedHashMap<>();
        for (int i = 0; i < 100; i++) {
            hyperParameters.put(String.format("h%03d", i) + "k".repeat(252), "v".repeat(2500));
            environment.put(String.format("E%03d", i) + "K".repeat(508), "w".repeat(512));
            if (i < 50) {
                tags.put(String.format("t%02d", i) + "k".repeat(125), "x".repeat(256));
            }
        }
        f.define(literal(f).hyperParameters(hyperParameters).environment(environment).tags(tags));

        String pointer = Intrinsics.string(parameterValue(f));
        assertTrue(pointer.startsWith("{\"RequestInStateMachine\"") && pointer.length() < 4096, pointer);
    }
}
