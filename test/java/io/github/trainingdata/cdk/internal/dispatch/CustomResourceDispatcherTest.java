package io.github.trainingdata.cdk.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.preload.handler.RecordingContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvokeRequest;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.lambda.model.ResourceConflictException;
import software.amazon.awssdk.services.lambda.model.ResourceNotReadyException;

class CustomResourceDispatcherTest {
    private static final String FUNCTION = "arn:aws:lambda:us-east-1:123456789012:function:Directories";
    private final List<String> calls = new ArrayList<>();
    private final List<String> made = new ArrayList<>();
    private final RecordingContext context = new RecordingContext();

    /** A handler of {@code type} that records its calls and answers as the framework expects. */
    private Supplier<CustomResourceHandler> recording(String type) {
        return () -> {
            made.add(type);
            return CustomResourceHandler.of((event, context) -> {
                calls.add(type + " onEvent " + event.get("RequestType"));
                Map<String, Object> answer = new LinkedHashMap<>();
                answer.put("PhysicalResourceId", type + "-id");
                return answer;
            }, (event, context) -> {
                calls.add(type + " isComplete " + event.get("RequestType") + " " + event.get("PhysicalResourceId"));
                return Map.of("IsComplete", true);
            });
        };
    }

    private CustomResourceDispatcher dispatcher() {
        Map<String, Supplier<CustomResourceHandler>> factories = new LinkedHashMap<>();
        for (String type : List.of(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION,
                CustomResourceDispatcher.LUSTRE_PRELOAD, CustomResourceDispatcher.TRAINING_TEARDOWN)) {
            factories.put(type, recording(type));
        }
        return new CustomResourceDispatcher(factories);
    }

    private static Map<String, Object> request(String type, String requestType) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("RequestType", requestType);
        event.put("ResourceType", type);
        event.put("RequestId", "req-1");
        event.put("LogicalResourceId", "Resource");
        event.put("ResponseURL", "https://cloudformation-custom-resource-response.example/presigned");
        event.put("ResourceProperties", Map.of("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:new"));
        return event;
    }

    /** What aws-cdk-lib's framework sends isComplete: the request merged with onEvent's answer. */
    private static Map<String, Object> waiterInput(Map<String, Object> request, Map<String, Object> onEvent) {
        Map<String, Object> input = new LinkedHashMap<>(request);
        input.putAll(onEvent);
        return input;
    }

    @Test
    void eachRequestGoesToItsTypesHandlerAndIsCompleteIsToldApartByWhatOnEventAnswered() {
        CustomResourceDispatcher dispatcher = dispatcher();
        Map<String, Object> create = request(CustomResourceDispatcher.LUSTRE_PRELOAD, "Create");

        Map<String, Object> answer = dispatcher.handle(create, context);
        assertEquals(Map.of("PhysicalResourceId", "Custom::LustrePreload-id", CustomResourceDispatcher.PHASE,
                CustomResourceDispatcher.IS_COMPLETE), answer);
        assertEquals(Map.of("IsComplete", true), dispatcher.handle(waiterInput(create, answer), context));
        Map<String, Object> update = request(CustomResourceDispatcher.TRAINING_TEARDOWN, "Update");
        update.put("PhysicalResourceId", "Resource-teardown");
        dispatcher.handle(update, context);

        assertEquals(List.of("Custom::LustrePreload onEvent Create",
                "Custom::LustrePreload isComplete Create Custom::LustrePreload-id",
                "Custom::TrainingTeardown onEvent Update"), calls, "an Update (it has a physical id) is an onEvent");
    }

    @Test
    void aTypesHandlerIsMadeOnceWhenItsFirstRequestArrives() {
        CustomResourceDispatcher dispatcher = dispatcher();
        assertEquals(List.of(), made);
        for (int i = 0; i < 3; i++) {
            dispatcher.handle(request(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION, "Create"), context);
        }
        assertEquals(List.of(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION), made);
    }

    @Test
    void aTypeItDoesNotServeFailsNamingTheTypesItServes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> dispatcher().handle(request("Custom::Other", "Create"), context));
        assertEquals("ResourceType 'Custom::Other' is not served by this provider; it serves "
                + "[Custom::DataRepositoryAssociation, Custom::LustrePreload, Custom::TrainingTeardown]", e.getMessage());
        assertEquals(List.of(), calls);
    }

    /** A Lambda client that records each invocation and answers with {@code payload} (and a function error). */
    private static final class FakeLambda implements LambdaClient {
        final List<InvokeRequest> requests = new ArrayList<>();
        /** Thrown by the first invocations, one each, before the function answers. */
        final List<RuntimeException> refusals = new ArrayList<>();
        private final String payload;
        private final String functionError;

        FakeLambda(String payload, String functionError) {
            this.payload = payload;
            this.functionError = functionError;
        }

        @Override
        public InvokeResponse invoke(InvokeRequest request) {
            requests.add(request);
            if (!refusals.isEmpty()) {
                throw refusals.remove(0);
            }
            return InvokeResponse.builder().statusCode(200).functionError(functionError)
                    .payload(SdkBytes.fromUtf8String(payload)).build();
        }

        @Override
        public String serviceName() {
            return "lambda";
        }

        @Override
        public void close() {
        }
    }

    private static Map<String, Object> directories(String requestType) {
        Map<String, Object> event = request(CustomResourceDispatcher.EFS_DIRECTORIES, requestType);
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:new");
        properties.put("FileSystemId", "fs-0123456789abcdef0");
        properties.put("Directories", List.of("/features/imagenet"));
        properties.put(CustomResourceDispatcher.DIRECTORIES_FUNCTION, FUNCTION);
        event.put("ResourceProperties", properties);
        return event;
    }

    @Test
    void theDirectoriesFunctionGetsTheRequestWithoutTheResponseUrlAndNamesTheResource() {
        FakeLambda lambda = new FakeLambda("{\"PhysicalResourceId\":\"fs-0123456789abcdef0:directories\"}", null);
        DirectoriesInvoker invoker = new DirectoriesInvoker(lambda);

        Map<String, Object> answer = invoker.onEvent(directories("Create"), context);

        assertEquals(Map.of("PhysicalResourceId", "fs-0123456789abcdef0:directories"), answer);
        assertEquals(FUNCTION, lambda.requests.get(0).functionName());
        JsonNode sent = JsonNode.parser().parse(lambda.requests.get(0).payload().asUtf8String());
        assertEquals("Create", sent.asObject().get("RequestType").asString());
        assertEquals(null, sent.asObject().get("ResponseURL"), "only the provider answers CloudFormation");
        assertEquals("/features/imagenet", sent.asObject().get("ResourceProperties").asObject().get("Directories")
                .asArray().get(0).asString());
        assertEquals(Map.of("IsComplete", true), invoker.isComplete(directories("Create"), context));
    }

    @Test
    void anInactiveOrPendingDirectoriesFunctionIsInvokedAgainByIsCompleteUntilItAnswers() {
        FakeLambda lambda = new FakeLambda("{\"PhysicalResourceId\":\"fs-0123456789abcdef0:directories\"}", null);
        // What Lambda answers an idle VPC function's first invoke, then one while it is Pending again.
        lambda.refusals.add(ResourceNotReadyException.builder().statusCode(502)
                .message("The function is inactive and its VPC connection is no longer available").build());
        lambda.refusals.add(ResourceConflictException.builder().statusCode(409)
                .message("The operation cannot be performed at this time. The function is currently in the following "
                        + "state: Pending").build());
        DirectoriesInvoker invoker = new DirectoriesInvoker(lambda);
        Map<String, Object> update = directories("Update");
        update.put("PhysicalResourceId", "fs-0123456789abcdef0:directories");

        Map<String, Object> answer = invoker.onEvent(update, context);
        assertEquals("fs-0123456789abcdef0:directories", answer.get("PhysicalResourceId"));
        Map<String, Object> waiter = waiterInput(update, answer);
        waiter.put(CustomResourceDispatcher.PHASE, CustomResourceDispatcher.IS_COMPLETE);
        assertEquals(Map.of("IsComplete", false), invoker.isComplete(waiter, context), "still Pending");
        assertEquals(Map.of("IsComplete", true, "PhysicalResourceId", "fs-0123456789abcdef0:directories"),
                invoker.isComplete(waiter, context));

        assertEquals(3, lambda.requests.size());
        JsonNode sent = JsonNode.parser().parse(lambda.requests.get(2).payload().asUtf8String());
        assertEquals(null, sent.asObject().get("ResponseURL"));
        assertEquals(null, sent.asObject().get(CustomResourceDispatcher.PHASE));
        assertEquals(null, sent.asObject().get("DirectoriesFunctionNotReady"));
        assertEquals("fs-0123456789abcdef0:directories", sent.asObject().get("PhysicalResourceId").asString());
    }

    @Test
    void aFailedDirectoriesFunctionFailsTheRequestWithItsError() {
        DirectoriesInvoker invoker = new DirectoriesInvoker(new FakeLambda(
                "{\"errorMessage\":\"/features exists but is not a directory\"}", "Unhandled"));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> invoker.onEvent(directories("Update"), context));
        assertTrue(e.getMessage().contains("/features exists but is not a directory"), e.getMessage());
    }

    @Test
    void aDirectoriesResourceWithoutItsFunctionFailsBeforeAnyCall() {
        FakeLambda lambda = new FakeLambda("{}", null);
        Map<String, Object> event = directories("Create");
        ((Map<?, ?>) event.get("ResourceProperties")).remove(CustomResourceDispatcher.DIRECTORIES_FUNCTION);
        assertThrows(IllegalArgumentException.class, () -> new DirectoriesInvoker(lambda).onEvent(event, context));
        assertEquals(List.of(), lambda.requests);
    }
}
