package io.github.trainingdata.cdk.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import io.github.trainingdata.cdk.preload.handler.RecordingContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvokeRequest;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.lambda.model.ResourceConflictException;
import software.amazon.awssdk.services.lambda.model.ResourceNotReadyException;

/**
 * The dispatcher's protocol: CloudFormation's request in, the response object put to a loopback {@code ResponseURL},
 * the waiter started and looked up through the real Step Functions client against a loopback emulator.
 */
class CustomResourceDispatcherTest {
    private static final String FUNCTION = "arn:aws:lambda:us-east-1:123456789012:function:Directories";
    private static final String WAITER = "arn:aws:states:us-east-1:123456789012:stateMachine:Waiter";
    private static final Instant NOW = Instant.parse("2026-11-28T22:00:00Z");
    private final List<String> calls = new ArrayList<>();
    private final List<String> made = new ArrayList<>();
    private final RecordingContext context = new RecordingContext();
    /** The response URL's answers in turn (the last repeats); what it received. */
    private final List<Integer> statuses = new ArrayList<>(List.of(200));
    private final List<String> puts = new ArrayList<>();
    private final List<String> contentTypes = new ArrayList<>();
    private HttpServer responses;
    private AwsJsonEmulator sfn;
    /** What the scripted handlers answer. */
    private Map<String, Object> onEventAnswer = new LinkedHashMap<>(Map.of("PhysicalResourceId", "resource-1"));
    private final List<Map<String, Object>> isCompleteAnswers = new ArrayList<>();
    private RuntimeException onEventError;

    @BeforeEach
    void start() throws IOException {
        responses = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        responses.createContext("/", exchange -> {
            synchronized (puts) {
                puts.add(exchange.getRequestMethod() + " " + new String(exchange.getRequestBody().readAllBytes(),
                        StandardCharsets.UTF_8));
                contentTypes.add(String.valueOf(exchange.getRequestHeaders().get("Content-Type")));
                int status = statuses.size() > 1 ? statuses.remove(0) : statuses.get(0);
                exchange.sendResponseHeaders(status, -1);
                exchange.close();
            }
        });
        responses.start();
        sfn = new AwsJsonEmulator()
                .on("AWSStepFunctions.DescribeExecution", call -> Reply.error(400, "ExecutionDoesNotExist",
                        "Execution Does Not Exist"))
                .on("AWSStepFunctions.StartExecution", call -> Reply.ok("{\"executionArn\":\"" + WAITER.replace(
                        "stateMachine", "execution") + ":" + call.json().get("name").asText()
                        + "\",\"startDate\":1.7E9}"));
    }

    @AfterEach
    void stop() {
        responses.stop(0);
        sfn.close();
    }

    /** A handler of {@code type} that records its calls and answers as scripted. */
    private Supplier<CustomResourceHandler> recording(String type) {
        return () -> {
            made.add(type);
            return CustomResourceHandler.of((event, context) -> {
                calls.add(type + " onEvent " + event.get("RequestType"));
                if (onEventError != null) {
                    throw onEventError;
                }
                return onEventAnswer;
            }, (event, context) -> {
                calls.add(type + " isComplete " + event.get("RequestType") + " " + event.get("PhysicalResourceId"));
                return isCompleteAnswers.isEmpty() ? Map.of("IsComplete", true) : isCompleteAnswers.remove(0);
            });
        };
    }

    private CustomResourceDispatcher dispatcher(Instant now) {
        Map<String, Supplier<CustomResourceHandler>> factories = new LinkedHashMap<>();
        for (String type : List.of(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION,
                CustomResourceDispatcher.LUSTRE_PRELOAD, CustomResourceDispatcher.TRAINING_TEARDOWN)) {
            factories.put(type, recording(type));
        }
        return new CustomResourceDispatcher(factories, () -> new WaiterExecutions(sfn.stepFunctions(), WAITER),
                new CloudFormationResponse(HttpClient.newHttpClient(), Duration.ZERO), Clock.fixed(now,
                ZoneOffset.UTC));
    }

    private CustomResourceDispatcher dispatcher() {
        return dispatcher(NOW);
    }

    private Map<String, Object> request(String type, String requestType) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("RequestType", requestType);
        event.put("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:dispatcher");
        event.put("ResponseURL", "http://127.0.0.1:" + responses.getAddress().getPort()
                + "/arn%3Aaws%3Acloudformation/stack%7CResource%7Creq-1?X-Amz-Signature=abc");
        event.put("StackId", "arn:aws:cloudformation:us-east-1:123456789012:stack/S/0f0e0d0c-aaaa-bbbb-cccc-000000000000");
        event.put("RequestId", "3f2c6a7e-1b2d-4c5e-8f90-123456789abc");
        event.put("ResourceType", type);
        event.put("LogicalResourceId", "Resource");
        event.put("ResourceProperties", Map.of("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:d"));
        return event;
    }

    private com.fasterxml.jackson.databind.JsonNode onlyResponse() {
        assertEquals(1, puts.size(), puts.toString());
        assertTrue(puts.get(0).startsWith("PUT "), puts.get(0));
        return Json.read(puts.get(0).substring(4));
    }

    private List<String> sfnCalls() {
        return sfn.calls().stream().map(AwsJsonEmulator.Call::target).toList();
    }

    @Test
    void aRequestCompleteAtOnceIsAnsweredWithTheResponseObjectAndStartsNoWaiter() {
        onEventAnswer = new LinkedHashMap<>(Map.of("PhysicalResourceId", "resource-1", "Data", Map.of("A", "1")));
        isCompleteAnswers.add(Map.of("IsComplete", true, "Data", Map.of("B", "2")));

        Map<String, Object> answer = dispatcher().handle(request(CustomResourceDispatcher.LUSTRE_PRELOAD, "Create"),
                context);

        assertEquals(Map.of("Status", "SUCCESS"), answer);
        assertEquals("{\"Status\":\"SUCCESS\",\"Reason\":\"SUCCESS\",\"PhysicalResourceId\":\"resource-1\","
                + "\"StackId\":\"arn:aws:cloudformation:us-east-1:123456789012:stack/S/0f0e0d0c-aaaa-bbbb-cccc-000000000000\","
                + "\"RequestId\":\"3f2c6a7e-1b2d-4c5e-8f90-123456789abc\",\"LogicalResourceId\":\"Resource\","
                + "\"Data\":{\"A\":\"1\",\"B\":\"2\"}}", puts.get(0).substring(4));
        assertEquals(List.of("[]"), contentTypes, "an empty content type, as the pre-signed URL was signed");
        assertEquals(List.of("Custom::LustrePreload onEvent Create",
                "Custom::LustrePreload isComplete Create resource-1"), calls);
        assertEquals(List.of("AWSStepFunctions.DescribeExecution"), sfnCalls());
        assertEquals(WAITER.replace("stateMachine", "execution") + ":3f2c6a7e-1b2d-4c5e-8f90-123456789abc",
                sfn.calls().get(0).json().get("executionArn").asText(), "the request's waiter, by its RequestId");
    }

    @Test
    void physicalIdsDefaultToTheRequestIdOnCreateAndTheOldIdOnUpdate() {
        onEventAnswer = new LinkedHashMap<>();
        dispatcher().handle(request(CustomResourceDispatcher.TRAINING_TEARDOWN, "Create"), context);
        Map<String, Object> update = request(CustomResourceDispatcher.TRAINING_TEARDOWN, "Update");
        update.put("PhysicalResourceId", "old-id");
        dispatcher().handle(update, context);

        assertEquals("3f2c6a7e-1b2d-4c5e-8f90-123456789abc", Json.read(puts.get(0).substring(4))
                .get("PhysicalResourceId").asText());
        assertEquals("old-id", Json.read(puts.get(1).substring(4)).get("PhysicalResourceId").asText());
    }

    @Test
    void aDeleteThatChangesThePhysicalIdFails() {
        onEventAnswer = new LinkedHashMap<>(Map.of("PhysicalResourceId", "other"));
        Map<String, Object> delete = request(CustomResourceDispatcher.TRAINING_TEARDOWN, "Delete");
        delete.put("PhysicalResourceId", "old-id");
        dispatcher().handle(delete, context);

        com.fasterxml.jackson.databind.JsonNode response = onlyResponse();
        assertEquals("FAILED", response.get("Status").asText());
        assertEquals("old-id", response.get("PhysicalResourceId").asText());
        assertTrue(response.get("Reason").asText().startsWith("A Delete cannot change the physical id from old-id "
                + "to other (logs: /aws/lambda/preload "), response.toString());
    }

    @Test
    void aCreateThatFailsGetsTheMarkerAndTheDeleteThatFollowsSucceedsWithoutTheHandler() {
        onEventError = new IllegalStateException("AccessDenied: fsx:CreateDataRepositoryAssociation");
        dispatcher().handle(request(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION, "Create"), context);
        com.fasterxml.jackson.databind.JsonNode created = onlyResponse();
        assertEquals("FAILED", created.get("Status").asText());
        assertEquals(CustomResourceDispatcher.CREATE_FAILED, created.get("PhysicalResourceId").asText());
        assertTrue(created.get("Reason").asText().startsWith("AccessDenied: fsx:CreateDataRepositoryAssociation"),
                created.toString());

        puts.clear();
        calls.clear();
        int sfnCallsBefore = sfn.calls().size();
        Map<String, Object> delete = request(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION, "Delete");
        delete.put("PhysicalResourceId", CustomResourceDispatcher.CREATE_FAILED);
        delete.put("RequestId", "9d1e0000-0000-4000-8000-000000000001");
        assertEquals(Map.of("Status", "SUCCESS"), dispatcher().handle(delete, context));
        com.fasterxml.jackson.databind.JsonNode deleted = onlyResponse();
        assertEquals("SUCCESS", deleted.get("Status").asText());
        assertEquals(CustomResourceDispatcher.CREATE_FAILED, deleted.get("PhysicalResourceId").asText());
        assertEquals(List.of(), calls, "the handler is not called for the failed Create's Delete");
        assertEquals(sfnCallsBefore, sfn.calls().size(), "nor the waiter looked for");
    }

    @Test
    void aCreateWhoseIsCompleteFailsAfterOnEventNamedTheResourceFailsUnderThatId() {
        isCompleteAnswers.add(Map.of("IsComplete", false, "Data", Map.of("A", "1")));
        dispatcher().handle(request(CustomResourceDispatcher.LUSTRE_PRELOAD, "Create"), context);
        com.fasterxml.jackson.databind.JsonNode response = onlyResponse();
        assertEquals("FAILED", response.get("Status").asText());
        assertEquals("resource-1", response.get("PhysicalResourceId").asText(), "its Delete reaches the handler");
        assertTrue(response.get("Reason").asText().startsWith("isComplete answered Data without IsComplete"));
    }

    @Test
    void aTypeItDoesNotServeFailsNamingTheTypesItServes() {
        dispatcher().handle(request("Custom::Other", "Create"), context);
        assertTrue(onlyResponse().get("Reason").asText().startsWith("ResourceType 'Custom::Other' is not served by this "
                + "provider; it serves [Custom::DataRepositoryAssociation, Custom::LustrePreload, "
                + "Custom::TrainingTeardown]"));
        assertEquals(List.of(), calls);
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

    /** The waiter's input for a request that was not complete at once. */
    private Map<String, Object> startsTheWaiter() {
        isCompleteAnswers.add(Map.of("IsComplete", false));
        Map<String, Object> answer = dispatcher().handle(request(CustomResourceDispatcher.LUSTRE_PRELOAD, "Create"),
                context);
        assertEquals(Map.of("Status", "WAITING"), answer);
        assertEquals(List.of(), puts, "no answer to CloudFormation yet");
        assertEquals(List.of("AWSStepFunctions.DescribeExecution", "AWSStepFunctions.StartExecution"), sfnCalls());
        com.fasterxml.jackson.databind.JsonNode start = sfn.calls("AWSStepFunctions.StartExecution").get(0).json();
        assertEquals(WAITER, start.get("stateMachineArn").asText());
        assertEquals("3f2c6a7e-1b2d-4c5e-8f90-123456789abc", start.get("name").asText());
        @SuppressWarnings("unchecked")
        Map<String, Object> input = Json.MAPPER.convertValue(Json.read(start.get("input").asText()), Map.class);
        return input;
    }

    @Test
    void aRequestNotCompleteAtOnceStartsItsWaiterNamedByTheRequestWithItsDeadline() {
        Map<String, Object> input = startsTheWaiter();
        assertEquals(CustomResourceDispatcher.IS_COMPLETE, input.get(CustomResourceDispatcher.PHASE));
        assertEquals(NOW.getEpochSecond() + 58 * 60, ((Number) input.get(CustomResourceDispatcher.DEADLINE))
                .longValue());
        assertEquals("resource-1", input.get("PhysicalResourceId"));
        assertEquals("Create", input.get("RequestType"));
        assertTrue(String.valueOf(input.get("ResponseURL")).startsWith("http://127.0.0.1:"));
    }

    @Test
    void aRepeatedDeliveryOfARequestThatHasAWaiterRunsNothing() {
        sfn.on("AWSStepFunctions.DescribeExecution", call -> Reply.ok("{\"executionArn\":\"" + call.json()
                .get("executionArn").asText() + "\",\"stateMachineArn\":\"" + WAITER + "\",\"status\":\"RUNNING\","
                + "\"startDate\":1.7E9}"));
        Map<String, Object> answer = dispatcher().handle(request(CustomResourceDispatcher.LUSTRE_PRELOAD, "Create"),
                context);
        assertEquals(Map.of("Status", "REPEATED"), answer);
        assertEquals(List.of(), calls, "onEvent is not run again");
        assertEquals(List.of(), puts);
    }

    @Test
    void aWaiterStartedByAnEarlierDeliveryIsLeftAlone() {
        sfn.on("AWSStepFunctions.StartExecution", call -> Reply.error(400, "ExecutionAlreadyExists",
                "Execution Already Exists"));
        isCompleteAnswers.add(Map.of("IsComplete", false));
        assertEquals(Map.of("Status", "WAITING"), dispatcher().handle(request(CustomResourceDispatcher.LUSTRE_PRELOAD,
                "Create"), context));
        assertEquals(List.of(), puts);
        assertTrue(context.lines().stream().anyMatch(line -> line.startsWith("A waiter for request")));
    }

    @Test
    void theWaitersCallsAnswerNotCompleteThenCompleteWithTheData() {
        Map<String, Object> input = startsTheWaiter();
        calls.clear();
        isCompleteAnswers.add(Map.of("IsComplete", false));
        isCompleteAnswers.add(Map.of("IsComplete", true, "Data", Map.of("ExecutionArn", "arn:x")));
        Map<String, Object> later = new LinkedHashMap<>(input);
        later.put(CustomResourceDispatcher.WAITER_RESULT, Map.of("IsComplete", false));

        assertEquals(Map.of("IsComplete", false), dispatcher(NOW.plusSeconds(30)).handle(later, context));
        assertEquals(List.of(), puts);
        assertEquals(Map.of("IsComplete", true), dispatcher(NOW.plusSeconds(60)).handle(later, context));
        com.fasterxml.jackson.databind.JsonNode response = onlyResponse();
        assertEquals("SUCCESS", response.get("Status").asText());
        assertEquals("resource-1", response.get("PhysicalResourceId").asText());
        assertEquals("{\"ExecutionArn\":\"arn:x\"}", response.get("Data").toString());
        assertEquals(List.of("Custom::LustrePreload isComplete Create resource-1",
                "Custom::LustrePreload isComplete Create resource-1"), calls, "no onEvent from the waiter");
    }

    @Test
    void pastTheDeadlineTheWaitersCallAnswersFailed() {
        Map<String, Object> input = startsTheWaiter();
        isCompleteAnswers.add(Map.of("IsComplete", false));
        assertEquals(Map.of("IsComplete", true), dispatcher(NOW.plusSeconds(58 * 60)).handle(input, context));
        com.fasterxml.jackson.databind.JsonNode response = onlyResponse();
        assertEquals("FAILED", response.get("Status").asText());
        assertEquals("resource-1", response.get("PhysicalResourceId").asText());
        assertTrue(response.get("Reason").asText().startsWith("Not complete after 58 minutes"), response.toString());
    }

    @Test
    void aWaiterCallThatFailedAfterItsRetriesIsAnsweredFailedWithItsError() {
        Map<String, Object> input = startsTheWaiter();
        calls.clear();
        input.put(CustomResourceDispatcher.WAITER_ERROR, Map.of("Error", "Lambda.Unknown", "Cause",
                "The function timed out"));
        assertEquals(Map.of("IsComplete", true), dispatcher().handle(input, context));
        com.fasterxml.jackson.databind.JsonNode response = onlyResponse();
        assertEquals("FAILED", response.get("Status").asText());
        assertEquals("The waiter's call to preload failed: Lambda.Unknown: The function timed out",
                response.get("Reason").asText());
        assertEquals(List.of(), calls);
    }

    @Test
    void aRefusedPutIsTriedAgain() {
        statuses.clear();
        statuses.addAll(List.of(500, 503, 200));
        dispatcher().handle(request(CustomResourceDispatcher.TRAINING_TEARDOWN, "Create"), context);
        assertEquals(3, puts.size());
        assertEquals(1, puts.stream().distinct().count(), "the same body each time");
    }

    @Test
    void aPutRefusedEveryTimeEndsARequestWithoutAnErrorButFailsTheWaitersCall() {
        statuses.clear();
        statuses.add(403);
        assertEquals(Map.of("Status", "SUCCESS"), dispatcher().handle(request(
                CustomResourceDispatcher.TRAINING_TEARDOWN, "Create"), context), "no error: Lambda would run it again");
        assertEquals(CloudFormationResponse.ATTEMPTS, puts.size());
        assertTrue(context.lines().stream().anyMatch(line -> line.startsWith("No response reached CloudFormation")));

        puts.clear();
        Map<String, Object> waiterCall = request(CustomResourceDispatcher.TRAINING_TEARDOWN, "Create");
        waiterCall.put("PhysicalResourceId", "resource-1");
        waiterCall.put(CustomResourceDispatcher.PHASE, CustomResourceDispatcher.IS_COMPLETE);
        assertThrows(UncheckedIOException.class, () -> dispatcher().handle(waiterCall, context),
                "the waiter retries its call");
        assertEquals(CloudFormationResponse.ATTEMPTS, puts.size());
    }

    @Test
    void aLongReasonIsShortenedToFitTheResponseBody() {
        Map<String, Object> request = request(CustomResourceDispatcher.TRAINING_TEARDOWN, "Update");
        String reason = "é\"".repeat(3000);
        byte[] body = CloudFormationResponse.body("FAILED", reason, "id", request, Map.of());
        assertTrue(body.length <= CloudFormationResponse.MAX_BODY_BYTES, body.length + " bytes");
        assertTrue(body.length > CloudFormationResponse.MAX_BODY_BYTES - 8, body.length + " bytes: as much as fits");
        com.fasterxml.jackson.databind.JsonNode response = Json.read(new String(body, StandardCharsets.UTF_8));
        assertTrue(response.get("Reason").asText().endsWith(" [...]"));
        assertTrue(reason.startsWith(response.get("Reason").asText().replace(" [...]", "")));
        assertEquals("FAILED", response.get("Status").asText());
    }

    @Test
    void aSuccessWhoseDataCannotFitBecomesAFailureThatSaysSo() {
        Map<String, Object> request = request(CustomResourceDispatcher.TRAINING_TEARDOWN, "Update");
        byte[] body = CloudFormationResponse.body("SUCCESS", "SUCCESS", "id", request, Map.of("Big", "x".repeat(5000)));
        com.fasterxml.jackson.databind.JsonNode response = Json.read(new String(body, StandardCharsets.UTF_8));
        assertEquals("FAILED", response.get("Status").asText());
        assertEquals("The response of Resource with its Data does not fit CloudFormation's 4096 bytes",
                response.get("Reason").asText());
        assertEquals(null, response.get("Data"));
    }

    /** What the waiter sends isComplete: the request merged with onEvent's answer. */
    private static Map<String, Object> waiterInput(Map<String, Object> request, Map<String, Object> onEvent) {
        Map<String, Object> input = new LinkedHashMap<>(request);
        input.putAll(onEvent);
        return input;
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

    private static Map<String, Object> requestOf(String type, String requestType) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("RequestType", requestType);
        event.put("ResourceType", type);
        event.put("RequestId", "req-1");
        event.put("LogicalResourceId", "Resource");
        event.put("ResponseURL", "https://cloudformation-custom-resource-response.example/presigned");
        return event;
    }

    private static Map<String, Object> directories(String requestType) {
        Map<String, Object> event = requestOf(CustomResourceDispatcher.EFS_DIRECTORIES, requestType);
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
