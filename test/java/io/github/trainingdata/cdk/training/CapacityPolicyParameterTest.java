package io.github.trainingdata.cdk.training;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.trainingdata.cdk.Intrinsics;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import io.github.trainingdata.cdk.launch.CapacityPlan;
import io.github.trainingdata.cdk.launch.CapacityPlanAttempt;
import io.github.trainingdata.cdk.launch.CapacityRun;
import io.github.trainingdata.cdk.launch.MutableClock;
import io.github.trainingdata.cdk.launch.TrainingJobDescriptions;
import io.github.trainingdata.cdk.launch.TrainingJobLauncher;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.ssm.StringParameter;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.TrainingInputMode;

/**
 * The capacity policy's SSM parameter, which the SDK launcher reads: its resource and output, the plan it holds
 * (read back with {@link CapacityPlan}), the requests the launcher sends from it (the same as the state machine's
 * attempts), and the rule that it fit an SSM parameter.
 */
class CapacityPolicyParameterTest {
    private static final String CAPACITY = "CapacityError: Unable to provision requested ML compute capacity. Please "
            + "retry using a different ML instance type.";

    private final TrainingFixture f = new TrainingFixture();

    /** The job of {@link CapacityPolicyTest}: Lustre {@code train} and S3 {@code validation}, five attempts. */
    private TrainingJobDefinition defineWithPolicy() {
        return f.define(f.props().jobNamePrefix("resnet").instanceType("ml.p4d.24xlarge")
                .channels(List.of(f.lustreChannel("train", "train"), f.s3("validation").path("validation").build()))
                .capacityPolicy(CapacityPolicy.of(List.of(
                        CapacityStep.waitAndRetry(software.amazon.awscdk.Duration.minutes(10), 2),
                        CapacityStep.instanceTypes(List.of("ml.p4de.24xlarge", "ml.p5.48xlarge")),
                        CapacityStep.s3Fallback()))));
    }

    private String logicalId(StringParameter parameter) {
        return f.stack.getLogicalId((CfnElement) parameter.getNode().getDefaultChild());
    }

    /** @return the deployed value of {@code parameter}, deploy-time values as {@link Intrinsics} placeholders */
    private String deployedValue(Template template, StringParameter parameter) {
        Map<?, ?> resource = template.findResources("AWS::SSM::Parameter").get(logicalId(parameter));
        return Intrinsics.string(((Map<?, ?>) resource.get("Properties")).get("Value"));
    }

    @Test
    void theParameterAndItsOutputNameThePolicyForTheLauncher() {
        TrainingJobDefinition definition = defineWithPolicy();
        Template template = Template.fromStack(f.stack);

        String id = logicalId(definition.getCapacityPolicyParameter());
        assertTrue(id.startsWith("TrainingCapacityPolicy"), id);
        template.hasResource("AWS::SSM::Parameter", Map.of("Properties", Map.of(
                "Type", "String", "Tier", "Intelligent-Tiering",
                "Description", "Capacity policy (the attempts after a job fails for capacity) of Test/Training",
                "Value", Match.anyValue())));
        Map<String, Map<String, Object>> outputs = template.findOutputs("*");
        List<String> names = outputs.keySet().stream().filter(k -> k.startsWith("TrainingCapacityPolicyParameterName"))
                .toList();
        assertEquals(1, names.size(), outputs.keySet().toString());
        assertEquals(Map.of("Ref", id), outputs.get(names.get(0)).get("Value"));
    }

    @Test
    void withoutAPolicyThereIsNoParameterNorOutput() {
        TrainingJobDefinition definition = f.define(f.props().channels(List.of(f.lustreChannel("train", "train"))));
        Template template = Template.fromStack(f.stack);

        assertNull(definition.getCapacityPolicyParameter());
        template.resourceCountIs("AWS::SSM::Parameter", 1);
        assertTrue(template.findOutputs("*").keySet().stream().noneMatch(k -> k.contains("CapacityPolicy")));
    }

    @Test
    void deployAfterHoldsBackThePolicyParameterToo() {
        TrainingJobDefinition definition = defineWithPolicy();
        TrainingJobDefinition other = new TrainingJobDefinition(f.stack, "First",
                f.props().channels(List.of(f.s3("x").build())).build());
        definition.deployAfter(other.getStateMachine());

        assertTrue(definition.getCapacityPolicyParameter().getNode().getDependencies()
                .contains(other.getStateMachine()));
    }

    @Test
    void thePlanReadBackIsThePolicysAttempts() {
        TrainingJobDefinition definition = defineWithPolicy();
        Template template = Template.fromStack(f.stack);

        CapacityPlan plan = CapacityPlan.fromJson(deployedValue(template, definition.getCapacityPolicyParameter()));

        assertEquals("FSxLustre+S3", plan.firstDataSources());
        List<String> dataZone = plan.firstAvailabilityZones();
        assertEquals(1, dataZone.size(), dataZone.toString());
        List<String> anyZone = plan.attempts().get(4).availabilityZones();
        assertEquals(2, anyZone.size(), anyZone.toString());
        assertTrue(anyZone.contains(dataZone.get(0)), anyZone + " " + dataZone);
        assertEquals(List.of(
                new CapacityPlanAttempt(600, "ml.p4d.24xlarge", false, "FSxLustre+S3", dataZone),
                new CapacityPlanAttempt(600, "ml.p4d.24xlarge", false, "FSxLustre+S3", dataZone),
                new CapacityPlanAttempt(0, "ml.p4de.24xlarge", false, "FSxLustre+S3", dataZone),
                new CapacityPlanAttempt(0, "ml.p5.48xlarge", false, "FSxLustre+S3", dataZone),
                new CapacityPlanAttempt(0, "ml.p5.48xlarge", true, "S3", anyZone)), plan.attempts());
        assertEquals("s3://team-datasets/imagenet/train/",
                plan.s3FallbackInputDataConfig().get(0).dataSource().s3DataSource().s3Uri());
        assertEquals(TrainingInputMode.FAST_FILE, plan.s3FallbackInputDataConfig().get(0).inputMode());
        assertEquals("validation", plan.s3FallbackInputDataConfig().get(1).channelName());
        assertEquals(2, plan.s3FallbackSubnets().size());
    }

    @Test
    void theLauncherSendsTheSameAttemptsAsTheStateMachine() throws Exception {
        TrainingJobDefinition definition = defineWithPolicy();
        Template template = Template.fromStack(f.stack);
        String document = deployedValue(template, definition.getRequestParameter());
        CapacityPlan plan = CapacityPlan.fromJson(deployedValue(template, definition.getCapacityPolicyParameter()));
        int failures = 5;

        List<Object> launched = new ArrayList<>();
        try (AwsJsonEmulator emulator = new AwsJsonEmulator(); SageMakerClient sageMaker = emulator.sageMaker()) {
            emulator.on("SageMaker.CreateTrainingJob", call -> Reply.ok("{\"TrainingJobArn\":\"arn\"}"));
            emulator.on("SageMaker.DescribeTrainingJob", call -> {
                String job = call.json().required("TrainingJobName").textValue();
                return emulator.calls("SageMaker.CreateTrainingJob").size() <= failures
                        ? Reply.ok(TrainingJobDescriptions.describe(job, "Failed", "Failed",
                                "\"FailureReason\":\"" + CAPACITY + "\","))
                        : Reply.ok(TrainingJobDescriptions.describe(job, "Completed", "Completed"));
            });
            MutableClock clock = new MutableClock(Instant.parse("2026-03-04T05:06:07Z"));
            CapacityRun run = new TrainingJobLauncher(sageMaker, clock, clock.sleeper(), new Random(5))
                    .runWithCapacityPlan(document, plan, "resnet", null, Duration.ofSeconds(30), Duration.ofDays(1),
                            line -> { });
            assertTrue(run.completed());
            for (AwsJsonEmulator.Call call : emulator.calls("SageMaker.CreateTrainingJob")) {
                launched.add(withoutJobName(Json.tree(call.body())));
            }
        }

        AslSimulator.Run execution = new AslSimulator(AslSimulator.definitionOf(f.stack)).run("exec-1",
                Json.MAPPER.createObjectNode(), CapacityPolicyTest.sageMaker(java.util.Collections.nCopies(failures,
                        CAPACITY), false), false);
        List<Object> executed = new ArrayList<>();
        for (AslSimulator.Call call : execution.calls()) {
            if (call.resource().endsWith(":createTrainingJob.sync")) {
                executed.add(withoutJobName(Json.tree(call.parameters().toString())));
            }
        }
        assertEquals(failures + 1, launched.size());
        assertEquals(executed, launched);
    }

    @Test
    void everyRequestTheLauncherSendsFromTheDeployedParametersSatisfiesTheSageMakerModel() throws Exception {
        TrainingJobDefinition definition = defineWithPolicy();
        Map<String, String> deployed = SageMakerModelCheck.deployedParameterValues(f.stack);
        String document = deployed.get(logicalId(definition.getRequestParameter()));
        CapacityPlan plan = CapacityPlan.fromJson(deployed.get(logicalId(definition.getCapacityPolicyParameter())));
        List<Map<String, Object>> requests = new ArrayList<>();
        try (AwsJsonEmulator emulator = new AwsJsonEmulator(); SageMakerClient sageMaker = emulator.sageMaker()) {
            emulator.on("SageMaker.CreateTrainingJob", call -> Reply.ok("{\"TrainingJobArn\":\"arn\"}"));
            emulator.on("SageMaker.DescribeTrainingJob", call -> Reply.ok(TrainingJobDescriptions.describe(
                    call.json().required("TrainingJobName").textValue(), "Failed", "Failed",
                    "\"FailureReason\":\"" + CAPACITY + "\",")));
            MutableClock clock = new MutableClock(Instant.parse("2026-03-04T05:06:07Z"));
            CapacityRun run = new TrainingJobLauncher(sageMaker, clock, clock.sleeper(), new Random(5))
                    .runWithCapacityPlan(document, plan, "resnet", null, Duration.ofSeconds(30), Duration.ofDays(1),
                            line -> { });
            assertEquals(6, run.attempts().size());
            for (AwsJsonEmulator.Call call : emulator.calls("SageMaker.CreateTrainingJob")) {
                requests.add((Map<String, Object>) Json.tree(call.body()));
            }
        }
        assertTrue(((String) ((Map<?, ?>) requests.get(5).get("VpcConfig")).get("Subnets").toString())
                .matches("\\[subnet-[0-9a-f]+, subnet-[0-9a-f]+\\]"), requests.get(5).toString());
        SageMakerModelCheck.assertValid(f.stack, requests);
    }

    private static Object withoutJobName(Object request) {
        Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) request);
        copy.remove("TrainingJobName");
        return copy;
    }

    @Test
    void rejectsAPolicyTooLargeForItsParameter() {
        List<TrainingChannel> channels = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            channels.add(f.lustreChannel("c" + i, "p".repeat(500) + i));
        }
        assertRule("CAPACITY_POLICY_IN_PARAMETER", () -> f.define(f.props().channels(channels)
                .capacityPolicy(CapacityPolicy.of(List.of(CapacityStep.waitAndRetry(software.amazon.awscdk.Duration.minutes(1), 12),
                        CapacityStep.s3Fallback())))),
                "Test/Training", "capacityPolicy", "a policy document of up to 8234 bytes",
                "a policy whose document (each attempt with its Availability Zones, the S3 fallback's channels and "
                        + "subnets) fits its SSM parameter (8192 bytes), which the SDK launcher reads: fewer attempts "
                        + "or channels");
    }
}
