package io.github.trainingdata.cdk.storage.associations;

import io.github.trainingdata.cdk.LambdaBundle;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.ResponseUrlServer;
import com.fasterxml.jackson.databind.JsonNode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.launch.AwsJsonEmulator;
import java.io.IOException;
import io.github.trainingdata.cdk.internal.dispatch.CustomResourceDispatcher;
import io.github.trainingdata.cdk.preload.handler.PreloadHandlerBundleTest;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the handler from the SDK handlers' Lambda bundle alone (its classes and lib/ jars, nothing from the test
 * classpath), through the stack provider's dispatcher with the public no-arg constructor Lambda uses, against the
 * loopback FSx: the bundle carries the handlers and the SDKs they call, and nothing of the launcher or the CDK.
 */
class DataRepositoryAssociationHandlerBundleTest {
    private static final String BUNDLE = "/io/github/trainingdata/cdk/preload/preload-handler.zip";
    private static final List<String> SYSTEM_PROPERTIES =
            List.of("aws.region", "aws.accessKeyId", "aws.secretAccessKey", "aws.endpointUrl",
                    CustomResourceDispatcher.WAITER_ENVIRONMENT);
    private static final String WAITER = "arn:aws:states:us-east-1:123456789012:stateMachine:Waiter";

    @TempDir
    Path dir;

    private final List<String> entries = new ArrayList<>();

    private URLClassLoader unpackBundle() throws IOException {
        LambdaBundle bundle = LambdaBundle.unpack(BUNDLE, dir);
        entries.addAll(bundle.entries());
        return bundle.classLoader();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theBundledDispatcherLinksADirectoryFromTheSharedBundle() throws Exception {
        Map<String, String> saved = new LinkedHashMap<>();
        SYSTEM_PROPERTIES.forEach(name -> saved.put(name, System.getProperty(name)));
        try (AwsJsonEmulator emulator = new AwsJsonEmulator(); URLClassLoader loader = unpackBundle();
                ResponseUrlServer responses = new ResponseUrlServer()) {
            FakeFsx fsx = new FakeFsx(emulator, "fs-0123456789abcdef0");
            emulator.on("sts.AssumeRole", call -> AwsJsonEmulator.Reply.ok(PreloadHandlerBundleTest.assumed()));
            System.setProperty("aws.region", "us-east-1");
            System.setProperty("aws.accessKeyId", "AKIDTESTTESTTESTTEST");
            System.setProperty("aws.secretAccessKey", "fake-secret-key");
            System.setProperty("aws.endpointUrl", emulator.endpoint().toString());
            System.setProperty(CustomResourceDispatcher.WAITER_ENVIRONMENT, WAITER);
            emulator.on("AWSStepFunctions.DescribeExecution", call -> AwsJsonEmulator.Reply.error(400,
                    "ExecutionDoesNotExist", "Execution Does Not Exist"));
            emulator.on("AWSStepFunctions.StartExecution", call -> AwsJsonEmulator.Reply.ok("{\"executionArn\":\""
                    + WAITER.replace("stateMachine", "execution") + ":r-1\",\"startDate\":1767225600}"));

            for (String absent : List.of("software.amazon.awssdk.services.ssm.SsmClient",
                    "software.amazon.awscdk.Stack", "io.github.trainingdata.cdk.storage.LustreCache",
                    "io.github.trainingdata.cdk.launch.TrainingJobLauncher")) {
                assertThrows(ClassNotFoundException.class, () -> loader.loadClass(absent), absent);
            }
            List<String> packages = List.of("storage/associations/", "internal/handler/", "internal/dispatch/",
                    "preload/handler/", "training/handler/", "limits/", "launch/TrainingJobNames");
            assertTrue(entries.stream().filter(e -> e.startsWith("io/github/") && e.endsWith(".class"))
                    .allMatch(e -> packages.stream().anyMatch(p -> e.startsWith("io/github/trainingdata/cdk/" + p))),
                    entries.toString());
            Class<?> handlerType = loader.loadClass(CustomResourceDispatcher.class.getName());
            Object handler = handlerType.getConstructor().newInstance();
            Class<?> contextType = loader.loadClass("com.amazonaws.services.lambda.runtime.Context");
            Method handle = handlerType.getMethod("handle", Map.class, contextType);
            List<String> logLines = new ArrayList<>();
            Object context = lambdaContext(loader, contextType, logLines);

            Map<String, Object> event = new LinkedHashMap<>(Map.of("RequestType", "Create", "RequestId", "r-1",
                    "ResourceType", "Custom::DataRepositoryAssociation", "ResponseURL", responses.url(),
                    "StackId", "arn:aws:cloudformation:us-east-1:123456789012:stack/S/1",
                    "LogicalResourceId", "LustreAssociationsimagenet1A2B3C4D",
                    "ResourceProperties", Map.of("FileSystemId", "fs-0123456789abcdef0", "FileSystemPath", "/imagenet",
                            "DataRepositoryPath", "s3://team-datasets/imagenet/", "BatchImportMetaDataOnCreate", "true",
                            "RoleArn", PreloadHandlerBundleTest.ROLE)));
            assertEquals(Map.of("Status", "WAITING"), handle.invoke(handler, event, context), "not available at once");
            Map<String, Object> waiterInput = Json.MAPPER.convertValue(Json.read(emulator.calls(
                    "AWSStepFunctions.StartExecution").get(0).json().get("input").asText()), Map.class);
            fsx.tick();
            assertEquals(Map.of("IsComplete", true), handle.invoke(handler, waiterInput, context));

            JsonNode response = responses.responses().get(0);
            assertEquals("SUCCESS", response.get("Status").asText());
            assertEquals(fsx.associations().get(0).id, response.get("Data").get("AssociationId").asText());
            assertEquals("fs-0123456789abcdef0:LustreAssociationsimagenet1A2B3C4D",
                    response.get("PhysicalResourceId").asText());
            assertTrue(logLines.stream().anyMatch(l -> l.startsWith("Creating association")), logLines.toString());
            assertTrue(emulator.calls().stream().filter(call -> !call.target().equals("sts.AssumeRole")
                    && !call.target().startsWith("AWSStepFunctions.")).allMatch(call
                    -> call.authorization().contains("Credential=" + PreloadHandlerBundleTest.ROLE_KEY + "/")),
                    "FSx is called as the cache's role");
        } finally {
            saved.forEach((name, value) -> {
                if (value == null) {
                    System.clearProperty(name);
                } else {
                    System.setProperty(name, value);
                }
            });
        }
    }

    private static Object lambdaContext(ClassLoader loader, Class<?> contextType, List<String> logLines)
            throws ClassNotFoundException {
        Class<?> loggerType = loader.loadClass("com.amazonaws.services.lambda.runtime.LambdaLogger");
        Object logger = Proxy.newProxyInstance(loader, new Class<?>[] {loggerType}, (proxy, method, args) -> {
            logLines.add(String.valueOf(args[0]));
            return null;
        });
        return Proxy.newProxyInstance(loader, new Class<?>[] {contextType},
                (proxy, method, args) -> method.getName().equals("getLogger") ? logger : null);
    }
}
