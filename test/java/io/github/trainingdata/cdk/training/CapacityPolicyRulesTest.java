package io.github.trainingdata.cdk.training;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.EfsStoreProps;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.ec2.SubnetSelection;

/** Each rule of a capacity policy, checked at synth. */
class CapacityPolicyRulesTest {
    private static final String PATH = "Test/Training";
    private final TrainingFixture f = new TrainingFixture();

    private void define(List<CapacityStep> steps) {
        f.define(f.props().channels(List.of(f.lustreChannel("train", "train"))).capacityPolicy(CapacityPolicy.of(steps)));
    }

    @Test
    void rejectsAPolicyWithoutSteps() {
        assertRule("CAPACITY_STEPS", () -> define(List.of()), PATH, "capacityPolicy.steps", "no steps",
                "at least one step (omit capacityPolicy for none)");
    }

    @Test
    void rejectsAPolicyForAManagedSpotJob() {
        assertRule("CAPACITY_NOT_MANAGED_SPOT", () -> f.define(f.props().channels(List.of(f.lustreChannel("train",
                "train"))).managedSpot(true).capacityPolicy(CapacityPolicy.of(List.of(CapacityStep.s3Fallback())))),
                PATH, "capacityPolicy", "set with managedSpot true", "unset when managedSpot is true: a managed Spot "
                + "job short of capacity waits for Spot capacity until MaxWaitTimeInSeconds instead of failing with "
                + "CapacityError, so the policy would never move on");
    }

    @Test
    void rejectsAWaitShorterThanASecond() {
        assertRule("CAPACITY_WAIT", () -> define(List.of(CapacityStep.waitAndRetry(Duration.millis(500), 1))), PATH,
                "capacityPolicy.steps[0].wait", "500 millis", "a literal whole number of seconds, at least 1 second");
    }

    @Test
    void rejectsZeroAttempts() {
        assertRule("CAPACITY_ATTEMPTS", () -> define(List.of(CapacityStep.waitAndRetry(Duration.minutes(5), 0))), PATH,
                "capacityPolicy.steps[0].attempts", 0, "a literal whole number from 1 to 20");
    }

    @Test
    void rejectsAnEmptyInstanceTypeList() {
        assertRule("CAPACITY_INSTANCE_TYPES", () -> define(List.of(CapacityStep.instanceTypes(List.of()))), PATH,
                "capacityPolicy.steps[0].instanceTypes", "[]", "at least one instance type");
    }

    @Test
    void rejectsAnInstanceTypeWithoutTheMlPrefix() {
        assertRule("CAPACITY_INSTANCE_TYPES", () -> define(List.of(CapacityStep.instanceTypes(List.of("p5.48xlarge")))), PATH,
                "capacityPolicy.steps[0].instanceTypes[0]", "p5.48xlarge",
                "one of the SageMaker training instance types (TrainingInstanceType, 145 values in the API model); e.g. "
                        + "ml.m5.xlarge, ml.g5.2xlarge, ml.p4d.24xlarge");
    }

    @Test
    void rejectsAnInstanceTypeSageMakerDoesNotTrainOn() {
        assertRule("CAPACITY_INSTANCE_TYPES", () -> define(List.of(CapacityStep.instanceTypes(List.of("ml.p5.96xlarge")))),
                PATH, "capacityPolicy.steps[0].instanceTypes[0]", "ml.p5.96xlarge", "one of the SageMaker training "
                        + "instance types (TrainingInstanceType, 145 values in the API model); of family p5: "
                        + "ml.p5.48xlarge, ml.p5.4xlarge");
    }

    @Test
    void rejectsTheJobsOwnInstanceTypeAgain() {
        assertRule("CAPACITY_INSTANCE_TYPES", () -> define(List.of(CapacityStep.instanceTypes(List.of("ml.m5.xlarge")))), PATH,
                "capacityPolicy.steps[0].instanceTypes[0]", "ml.m5.xlarge",
                "an instance type the job and earlier steps do not already use");
    }

    @Test
    void rejectsASecondS3Fallback() {
        assertRule("CAPACITY_ONE_FALLBACK", () -> define(List.of(CapacityStep.s3Fallback(), CapacityStep.s3Fallback())), PATH,
                "capacityPolicy.steps[1]", "a second s3Fallback", "one s3Fallback step");
    }

    @Test
    void rejectsAnS3FallbackInPipeMode() {
        assertRule("CAPACITY_FALLBACK_INPUT_MODE", () -> define(List.of(CapacityStep.s3Fallback(ChannelInputMode.PIPE))), PATH,
                "capacityPolicy.steps[0].inputMode", "PIPE", "FAST_FILE or FILE");
    }

    @Test
    void rejectsAnS3FallbackWithoutALustreChannel() {
        assertRule("CAPACITY_FALLBACK_CHANNELS", () -> f.define(f.props().channels(List.of(f.s3("train").build()))
                .capacityPolicy(CapacityPolicy.of(List.of(CapacityStep.s3Fallback())))), PATH,
                "capacityPolicy.steps[0]", "s3Fallback without a Lustre channel",
                "a job with at least one LustreChannel (it is what the fallback replaces)");
    }

    @Test
    void rejectsAnS3FallbackWithAOneZoneEfsChannel() {
        EfsStore oneZone = new EfsStore(f.stack, "OneZoneEfs", EfsStoreProps.builder().network(f.network())
                .oneZone(true).build());
        assertRule("CAPACITY_FALLBACK_CHANNELS", () -> f.define(f.props().channels(List.of(f.lustreChannel("train", "train"),
                EfsChannel.builder("features").store(oneZone).directoryPath("/features").build())).capacityPolicy(
                        CapacityPolicy.of(List.of(CapacityStep.s3Fallback())))), PATH, "capacityPolicy.steps",
                // The data AZ is a deploy-time value here (an environment-agnostic stack): named as one, not as text.
                "s3Fallback that could train only in [<deploy-time value>] (channels "
                        + "'features' are reachable nowhere else)", "channels reachable from another Availability Zone "
                        + "of the network: an EFS file system of this library in Regional mode (a mount target in each "
                        + "storage subnet), not One Zone or an existing one");
    }

    @Test
    void rejectsAnS3FallbackWithGivenSubnets() {
        assertRule("CAPACITY_FALLBACK_CHANNELS", () -> f.define(f.props().channels(List.of(f.lustreChannel("train", "train")))
                .vpcSubnets(SubnetSelection.builder().subnets(List.of(f.network().getDataSubnet())).build())
                .capacityPolicy(CapacityPolicy.of(List.of(CapacityStep.s3Fallback())))), PATH,
                "capacityPolicy.steps[0]", "s3Fallback with vpcSubnets set",
                "vpcSubnets unset: the fallback trains in every training subnet of the network");
    }

    @Test
    void rejectsMoreThanTwentyAttemptsInAll() {
        assertRule("CAPACITY_STEPS", () -> define(List.of(CapacityStep.waitAndRetry(Duration.minutes(1), 20),
                CapacityStep.instanceTypes(List.of("ml.p5.48xlarge")))), PATH, "capacityPolicy.steps", "21 attempts",
                "at most 20 attempts in all");
    }

    @Test
    void rejectsAPolicyForARequestWithADeployTimeValueLargerThanAParameter() {
        // A template parameter without MaxLength: bounded only by the hyperparameter's limit, 2,500 characters.
        String rate = software.amazon.awscdk.CfnParameter.Builder.create(f.stack, "LearningRate").build()
                .getValueAsString();
        assertRule("CAPACITY_REQUEST_IN_PARAMETER", () -> f.define(f.props().channels(List.of(f.lustreChannel("train", "train")))
                .hyperParameters(java.util.Map.of("learning_rate", rate))
                .capacityPolicy(CapacityPolicy.of(List.of(CapacityStep.waitAndRetry(Duration.minutes(5), 1))))),
                PATH, "capacityPolicy", "set for a request whose deploy-time value HyperParameters.{} may have 10000 bytes",
                "unset, or deploy-time values of at most 8192 bytes each: with a policy the state machine's request "
                        + "changes per attempt, so the SDK launcher reads the request from SSM parameters, split "
                        + "between whole deploy-time values");
    }

    @Test
    void splitsAPolicysRequestTooLargeForOneParameterAcrossParameters() {
        java.util.Map<String, String> environment = new java.util.TreeMap<>();
        for (int i = 0; i < 20; i++) {
            environment.put("VARIABLE_" + i, "x".repeat(512));
        }
        TrainingJobDefinition definition = f.define(f.props().channels(List.of(f.lustreChannel("train", "train")))
                .environment(environment)
                .capacityPolicy(CapacityPolicy.of(List.of(CapacityStep.waitAndRetry(Duration.minutes(5), 1)))));

        assertEquals(2, definition.getRequestParts().size(), "about 11 KB in parts of at most 8 KB");
        String pointer = software.amazon.awscdk.assertions.Template.fromStack(f.stack)
                .findResources("AWS::SSM::Parameter").values().stream()
                .map(resource -> ((java.util.Map<?, ?>) resource.get("Properties")).get("Value"))
                .filter(value -> value instanceof String text && text.contains("RequestParts"))
                .map(String.class::cast).findFirst().orElseThrow();
        assertTrue(pointer.startsWith("{\"RequestParts\":{\"Prefix\":\"/training-data/requests/Test.Training/"),
                pointer);
        assertTrue(pointer.endsWith("/part-\",\"Count\":2}}"), pointer);
    }
}
