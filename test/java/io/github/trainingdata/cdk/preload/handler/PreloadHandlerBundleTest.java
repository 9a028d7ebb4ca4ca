package io.github.trainingdata.cdk.preload.handler;

import io.github.trainingdata.cdk.LambdaBundle;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.ResponseUrlServer;
import com.fasterxml.jackson.databind.JsonNode;
import static io.github.trainingdata.cdk.launch.TrainingJobDescriptions.describe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.launch.AwsJsonEmulator;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the stack provider's dispatcher from the Lambda bundle alone (its classes and lib/ jars, nothing from the test
 * classpath), with the public no-arg constructor Lambda uses, against the loopback emulator (STS AssumeRole included:
 * each request acts as its resource's role): the preload's and the training definitions' teardown, which share the
 * bundle.
 */
public class PreloadHandlerBundleTest {
    private static final String BUNDLE = "/io/github/trainingdata/cdk/preload/preload-handler.zip";
    /** The resource's role, and the access key of its credentials. */
    public static final String ROLE = "arn:aws:iam::123456789012:role/training-data/custom-resource/S/HandlerRole";
    public static final String ROLE_KEY = "ASIAROLEROLEROLEROLE";
    /** The dispatcher's setting of its waiter (the environment variable's name, read as a system property here). */
    private static final String WAITER_ENVIRONMENT = "WAITER_STATE_MACHINE_ARN";
    private static final List<String> SYSTEM_PROPERTIES =
            List.of("aws.region", "aws.accessKeyId", "aws.secretAccessKey", "aws.endpointUrl", WAITER_ENVIRONMENT);
    private static final String WAITER = "arn:aws:states:us-east-1:123456789012:stateMachine:Waiter";

    @TempDir
    Path dir;
    private final Map<String, String> saved = new LinkedHashMap<>();
    private AwsJsonEmulator emulator;
    private ResponseUrlServer responses;

    /** Points the SDK's default chains (Region, credentials, endpoint) at the emulator, as Lambda's environment would. */
    @BeforeEach
    void environment() throws IOException {
        SYSTEM_PROPERTIES.forEach(name -> saved.put(name, System.getProperty(name)));
        emulator = new AwsJsonEmulator();
        System.setProperty("aws.region", "us-east-1");
        System.setProperty("aws.accessKeyId", "AKIDTESTTESTTESTTEST");
        System.setProperty("aws.secretAccessKey", "fake-secret-key");
        System.setProperty("aws.endpointUrl", emulator.endpoint().toString());
        System.setProperty(WAITER_ENVIRONMENT, WAITER);
        responses = new ResponseUrlServer();
    }

    /** Step Functions as the dispatcher's waiter and a handler see it: no waiter yet; the handler's own as given. */
    private void stepFunctions(String describe) {
        emulator.on("AWSStepFunctions.DescribeExecution", call -> call.json().get("executionArn").asText()
                .contains(":execution:Waiter:") ? Reply.error(400, "ExecutionDoesNotExist", "Execution Does Not Exist")
                : Reply.ok(describe));
        emulator.on("AWSStepFunctions.StartExecution", call -> Reply.ok("{\"executionArn\":\"arn\","
                + "\"startDate\":1767225600}"));
    }

    @AfterEach
    void restore() {
        emulator.close();
        responses.close();
        saved.forEach((name, value) -> {
            if (value == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, value);
            }
        });
    }

    private URLClassLoader unpackBundle() throws IOException {
        return LambdaBundle.unpack(BUNDLE, dir).classLoader();
    }

    private static Object lambdaContext(ClassLoader loader, List<String> logLines) throws ClassNotFoundException {
        Class<?> loggerType = loader.loadClass("com.amazonaws.services.lambda.runtime.LambdaLogger");
        Object logger = Proxy.newProxyInstance(loader, new Class<?>[] {loggerType}, (proxy, method, args) -> {
            logLines.add(String.valueOf(args[0]));
            return null;
        });
        Class<?> contextType = loader.loadClass("com.amazonaws.services.lambda.runtime.Context");
        return Proxy.newProxyInstance(loader, new Class<?>[] {contextType},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getLogger" -> logger;
                    case "getRemainingTimeInMillis" -> 60_000;
                    default -> null;
                });
    }

    /** A handler class of the bundle, instantiated as Lambda does, with a context that keeps its log lines. */
    private record BundledHandler(Object handler, Method onEvent, Method isComplete, Object context) {
        /** The dispatcher, whose one method serves onEvent and isComplete (told apart by what onEvent answered). */
        static BundledHandler load(ClassLoader loader, List<String> logLines) throws Exception {
            Class<?> handlerType = loader.loadClass("io.github.trainingdata.cdk.internal.dispatch.CustomResourceDispatcher");
            Class<?> contextType = loader.loadClass("com.amazonaws.services.lambda.runtime.Context");
            Method handle = handlerType.getMethod("handle", Map.class, contextType);
            return new BundledHandler(handlerType.getConstructor().newInstance(), handle, handle,
                    lambdaContext(loader, logLines));
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> onEvent(Map<String, Object> event) throws Exception {
            return (Map<String, Object>) onEvent.invoke(handler, event, context);
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> isComplete(Map<String, Object> event) throws Exception {
            return (Map<String, Object>) isComplete.invoke(handler, event, context);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theBundledHandlerStartsAndWatchesAPreloadExecution() throws Exception {
        try (URLClassLoader loader = unpackBundle()) {
            stepFunctions("{\"executionArn\":\"arn\",\"stateMachineArn\":\"arn\",\"status\":\"SUCCEEDED\","
                    + "\"startDate\":1767225600,\"output\":\"{\\\"Status\\\":\\\"WARMED\\\"}\"}");
            emulator.on("SageMaker.DescribeTrainingJob", call -> Reply.ok(describe(
                    call.json().required("TrainingJobName").textValue(), "Completed", "Completed")));

            assertThrows(ClassNotFoundException.class, () -> loader.loadClass("software.amazon.awssdk.services.ssm.SsmClient"));
            assertNotNull(loader.loadClass("software.amazon.awssdk.services.cloudformation.CloudFormationClient"),
                    "DescribeStacks tells a rollback from an update");
            assertThrows(ClassNotFoundException.class, () -> loader.loadClass("software.amazon.awscdk.Stack"));
            assertThrows(ClassNotFoundException.class,
                    () -> loader.loadClass("io.github.trainingdata.cdk.launch.TrainingJobRequestJson"));
            List<String> logLines = new ArrayList<>();
            emulator.on("sts.AssumeRole", call -> Reply.ok(assumed()));
            BundledHandler handler = BundledHandler.load(loader, logLines);

            Map<String, Object> event = new LinkedHashMap<>(Map.of("RequestType", "Create", "RequestId", "r-1",
                    "ResourceType", "Custom::LustrePreload",
                    "StackId", "arn:aws:cloudformation:us-east-1:123456789012:stack/S/1", "LogicalResourceId", "Preload",
                    "ResourceProperties", Map.of("WorkerJobNamePrefix", "warm", "WarmKey", "k", "WaitSeconds", "3300",
                            "StateMachineArn", "arn:aws:states:us-east-1:123456789012:stateMachine:Preload",
                            "FileSystemId", "fs-0123456789abcdef0", "DataLocations", List.of("s3://data/train/"),
                            "RoleArn", ROLE)));
            event.put("ResponseURL", responses.url());
            assertEquals(Map.of("Status", "SUCCESS"), handler.onEvent(event), "complete at once: answered");

            JsonNode response = responses.responses().get(0);
            assertEquals("WARMED", response.get("Data").get("Status").asText());
            assertEquals(List.of("AWSStepFunctions.DescribeExecution", "sts.AssumeRole",
                    "AWSStepFunctions.StartExecution", "AWSStepFunctions.DescribeExecution",
                    "SageMaker.DescribeTrainingJob"), emulator.calls().stream().map(AwsJsonEmulator.Call::target).toList());
            assertSignedAsTheRole();
            assertTrue(logLines.stream().anyMatch(line -> line.startsWith("Started preload execution "
                    + response.get("PhysicalResourceId").asText())), logLines.toString());
        }
    }

    @Test
    void theBundledTeardownHandlerStopsAJobAndLooksForItsNetworkInterfacesOverTheEc2QueryApi() throws Exception {
        try (URLClassLoader loader = unpackBundle()) {
            String job = "train-0f8fad5b-d9cb-469f-a165-70867728950e";
            String teardownRole = "arn:aws:iam::123456789012:role/training-data/custom-resource/S/TeardownRole";
            long created = Instant.now().minusSeconds(600).getEpochSecond();
            emulator.on("AWSStepFunctions.ListExecutions", call -> Reply.ok("{\"executions\":[]}"));
            stepFunctions("{}");
            emulator.onSequence("SageMaker.ListTrainingJobs", Reply.ok("{\"TrainingJobSummaries\":[{\"TrainingJobName\":\""
                    + job + "\",\"TrainingJobArn\":\"arn\",\"CreationTime\":" + created + ",\"TrainingJobStatus\":\"InProgress\"}]}"),
                    Reply.ok("{\"TrainingJobSummaries\":[{\"TrainingJobName\":\"" + job + "\",\"TrainingJobArn\":\"arn\","
                            + "\"CreationTime\":" + created + ",\"TrainingJobStatus\":\"Stopped\"}]}"));
            emulator.on("SageMaker.StopTrainingJob", call -> Reply.ok("{}"));
            emulator.on("ec2.DescribeNetworkInterfaces", call -> Reply.ok("<DescribeNetworkInterfacesResponse xmlns=\""
                    + "http://ec2.amazonaws.com/doc/2016-11-15/\"><networkInterfaceSet/></DescribeNetworkInterfacesResponse>"));
            emulator.on("cloudformation.DescribeStacks", call -> Reply.ok("<DescribeStacksResponse xmlns=\"http://"
                    + "cloudformation.amazonaws.com/doc/2010-05-15/\"><DescribeStacksResult><Stacks><member><StackName>S"
                    + "</StackName><StackId>arn:aws:cloudformation:us-east-1:123456789012:stack/S/1</StackId><CreationTime>"
                    + "2026-01-01T00:00:00Z</CreationTime><StackStatus>DELETE_IN_PROGRESS</StackStatus></member></Stacks>"
                    + "</DescribeStacksResult></DescribeStacksResponse>"));
            List<String> logLines = new ArrayList<>();
            emulator.on("sts.AssumeRole", call -> Reply.ok(assumed()));
            BundledHandler handler = BundledHandler.load(loader, logLines);

            Map<String, Object> event = new LinkedHashMap<>(Map.of("RequestType", "Delete", "RequestId", "r-1",
                    "ResourceType", "Custom::TrainingTeardown",
                    "StackId", "arn:aws:cloudformation:us-east-1:123456789012:stack/S/1", "LogicalResourceId", "Teardown",
                    "PhysicalResourceId", "Teardown-teardown", "ResourceProperties", Map.of("RoleArn", ROLE,
                            "Definitions", List.of(
                            Map.of("Id", "S/Training",
                                    "StateMachineArn", "arn:aws:states:us-east-1:123456789012:stateMachine:Training",
                                    "JobNamePrefix", "train", "SecurityGroupIds", List.of("sg-0123456789abcdef0"),
                                    "SubnetIds", List.of("subnet-0123456789abcdef0"), "RoleArn", teardownRole)))));
            event.put("ResponseURL", responses.url());
            assertEquals(Map.of("Status", "WAITING"), handler.onEvent(event));
            Map<String, Object> waiterInput = Json.MAPPER.convertValue(Json.read(emulator.calls(
                    "AWSStepFunctions.StartExecution").get(0).json().get("input").asText()), Map.class);

            assertEquals(Map.of("IsComplete", true), handler.isComplete(waiterInput));
            assertEquals("SUCCESS", responses.responses().get(0).get("Status").asText());
            assertEquals(List.of("AWSStepFunctions.DescribeExecution", "sts.AssumeRole", "cloudformation.DescribeStacks",
                    "sts.AssumeRole", "AWSStepFunctions.ListExecutions", "SageMaker.ListTrainingJobs", "SageMaker.StopTrainingJob",
                    "AWSStepFunctions.StartExecution", "AWSStepFunctions.ListExecutions", "SageMaker.ListTrainingJobs",
                    "ec2.DescribeNetworkInterfaces"), emulator.calls().stream().map(AwsJsonEmulator.Call::target)
                    .toList());
            assertEquals(List.of(ROLE, teardownRole), emulator.calls("sts.AssumeRole").stream()
                    .map(call -> AwsJsonEmulator.formField(call, "RoleArn")).toList(),
                    "the teardown's own role, then the definition's");
            assertTrue(emulator.calls("ec2.DescribeNetworkInterfaces").get(0).authorization()
                    .contains("/us-east-1/ec2/aws4_request"), logLines.toString());
            assertTrue(emulator.calls("cloudformation.DescribeStacks").get(0).authorization()
                    .contains("Credential=" + ROLE_KEY + "/"), "the teardown reads its stack as its own role");
        }
    }

    /**
     * Every call of the handler signs with the role's credentials; the AssumeRole and the dispatcher's first look for
     * the request's waiter with the function's own.
     */
    private void assertSignedAsTheRole() {
        for (AwsJsonEmulator.Call call : emulator.calls()) {
            String key = call.target().equals("sts.AssumeRole") || call == emulator.calls().get(0)
                    ? "AKIDTESTTESTTESTTEST" : ROLE_KEY;
            assertTrue(call.authorization().contains("Credential=" + key + "/"), call.target() + ": "
                    + call.authorization());
        }
    }

    /** An STS AssumeRole answer (awsQuery XML) with the role's temporary credentials. */
    public static String assumed() {
        return "<AssumeRoleResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><AssumeRoleResult>"
                + "<Credentials><AccessKeyId>" + ROLE_KEY + "</AccessKeyId><SecretAccessKey>role-secret"
                + "</SecretAccessKey><SessionToken>role-session-token</SessionToken>"
                + "<Expiration>2099-01-01T00:00:00Z</Expiration></Credentials><AssumedRoleUser>"
                + "<AssumedRoleId>AROAEXAMPLEEXAMPLE:session</AssumedRoleId><Arn>arn:aws:sts::123456789012:"
                + "assumed-role/HandlerRole/session</Arn></AssumedRoleUser></AssumeRoleResult>"
                + "<ResponseMetadata><RequestId>request-1</RequestId></ResponseMetadata></AssumeRoleResponse>";
    }
}
