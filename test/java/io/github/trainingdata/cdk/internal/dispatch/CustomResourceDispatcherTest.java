package io.github.trainingdata.cdk.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.internal.handler.AssumedRoles;
import io.github.trainingdata.cdk.internal.handler.CustomResourceEvent;
import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Call;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import io.github.trainingdata.cdk.preload.handler.PreloadHandler;
import io.github.trainingdata.cdk.preload.handler.RecordingContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvokeRequest;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.lambda.model.ResourceConflictException;
import software.amazon.awssdk.services.lambda.model.ResourceNotReadyException;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * The dispatcher's protocol: CloudFormation's request in, the response object put to a loopback {@code ResponseURL},
 * the waiter started and looked up through the real Step Functions client against a loopback emulator, each handler
 * acting as its resource's role, assumed through the real STS client against another.
 */
class CustomResourceDispatcherTest {
    private static final String FUNCTION = "arn:aws:lambda:us-east-1:123456789012:function:Directories";
    private static final String WAITER = "arn:aws:states:us-east-1:123456789012:stateMachine:Waiter";
    private static final Instant NOW = Instant.parse("2026-11-28T22:00:00Z");
    private static final String ROLE = "arn:aws:iam::123456789012:role/training-data/custom-resource/Data/HandlerRole1";
    private static final String ASSUME_ROLE = "sts.AssumeRole";
    /** The access keys of the function's own credentials (the emulator's) and of the role's. */
    private static final String OWN_KEY = "AKIDTESTTESTTESTTEST";
    private static final String ROLE_KEY = "ASIAROLEROLEROLEROLE";
    private final List<Duration> pauses = new ArrayList<>();
    /** STS and the handlers' own calls (the waiter's are on {@link #sfn}). */
    private AwsJsonEmulator emulator;
    private StsClient sts;
    /** What STS answers the next AssumeRole calls, one each; then it grants. */
    private final List<Reply> refusals = new ArrayList<>();
    private final List<SdkAutoCloseable> clients = new ArrayList<>();
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
    /** The attempt each handler call was marked with ({@link CustomResourceEvent#ATTEMPT}). */
    private final List<Object> attempts = new ArrayList<>();

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
        emulator = new AwsJsonEmulator();
        emulator.on(ASSUME_ROLE, call -> refusals.isEmpty() ? Reply.ok(assumed()) : refusals.remove(0));
        // One attempt per call: the tests see each refusal as the SDK reports it after its retries.
        sts = emulator.connect(SdkCalls.configure(StsClient.builder()).overrideConfiguration(SdkCalls
                .clientConfiguration().toBuilder().retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(1).build()).build()));
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
        clients.forEach(SdkAutoCloseable::close);
        sts.close();
        emulator.close();
    }

    /** An STS AssumeRole answer (awsQuery XML) with the role's temporary credentials. */
    private static String assumed() {
        return "<AssumeRoleResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><AssumeRoleResult>"
                + "<Credentials><AccessKeyId>" + ROLE_KEY + "</AccessKeyId><SecretAccessKey>role-secret"
                + "</SecretAccessKey><SessionToken>role-session-token</SessionToken>"
                + "<Expiration>2099-01-01T00:00:00Z</Expiration></Credentials><AssumedRoleUser>"
                + "<AssumedRoleId>AROAEXAMPLEEXAMPLE:session</AssumedRoleId><Arn>arn:aws:sts::123456789012:"
                + "assumed-role/HandlerRole1/session</Arn></AssumedRoleUser></AssumeRoleResult>"
                + "<ResponseMetadata><RequestId>request-1</RequestId></ResponseMetadata></AssumeRoleResponse>";
    }

    private static Reply refused() {
        return Reply.queryError(403, "AccessDenied", "User: arn:aws:sts::123456789012:assumed-role/Dispatcher/fn is "
                + "not authorized to perform: sts:AssumeRole on resource: " + ROLE);
    }

    /** A handler of {@code type} that records its calls and the access key it was given, and answers as scripted. */
    private Function<AwsCredentialsProvider, CustomResourceHandler> recording(String type) {
        return credentials -> {
            made.add(type + " " + credentials.resolveCredentials().accessKeyId());
            return CustomResourceHandler.of((event, context) -> {
                calls.add(type + " onEvent " + event.get("RequestType"));
                attempts.add(event.get(CustomResourceEvent.ATTEMPT));
                if (onEventError != null) {
                    throw onEventError;
                }
                return onEventAnswer;
            }, (event, context) -> {
                calls.add(type + " isComplete " + event.get("RequestType") + " " + event.get("PhysicalResourceId"));
                attempts.add(event.get(CustomResourceEvent.ATTEMPT));
                return isCompleteAnswers.isEmpty() ? Map.of("IsComplete", true) : isCompleteAnswers.remove(0);
            });
        };
    }

    private CustomResourceDispatcher dispatcher(Instant now) {
        Map<String, Function<AwsCredentialsProvider, CustomResourceHandler>> factories = new LinkedHashMap<>();
        for (String type : List.of(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION,
                CustomResourceDispatcher.LUSTRE_PRELOAD, CustomResourceDispatcher.TRAINING_TEARDOWN)) {
            factories.put(type, recording(type));
        }
        return dispatcher(factories, now);
    }

    private CustomResourceDispatcher dispatcher(Map<String, Function<AwsCredentialsProvider, CustomResourceHandler>>
            factories, Instant now) {
        return new CustomResourceDispatcher(factories, new AssumedRoles(sts, pauses::add),
                () -> new WaiterExecutions(sfn.stepFunctions(), WAITER),
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
        event.put("ResourceProperties", Map.of("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:d",
                AssumedRoles.ROLE_ARN, ROLE));
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
    void anErrorOfAHandlerIsAnsweredFailedInsteadOfLeavingCloudFormationWaiting() {
        // Thrown out of the function, it answers nothing: Lambda runs the request twice more, CloudFormation waits an hour.
        Map<String, Function<AwsCredentialsProvider, CustomResourceHandler>> factories = new LinkedHashMap<>();
        factories.put(CustomResourceDispatcher.LUSTRE_PRELOAD, credentials -> CustomResourceHandler.of((event, c) -> {
            throw new NoClassDefFoundError("software/amazon/awssdk/services/fsx/FSxClient");
        }, (event, c) -> Map.of("IsComplete", true)));
        factories.put(CustomResourceDispatcher.TRAINING_TEARDOWN, credentials -> CustomResourceHandler.of(
                (event, c) -> new LinkedHashMap<>(Map.of("PhysicalResourceId", "teardown-1")), (event, c) -> {
                    throw new StackOverflowError();
                }));

        assertEquals(Map.of("Status", "FAILED"), dispatcher(factories, NOW).handle(
                request(CustomResourceDispatcher.LUSTRE_PRELOAD, "Create"), context));
        com.fasterxml.jackson.databind.JsonNode onEvent = onlyResponse();
        assertEquals(CustomResourceDispatcher.CREATE_FAILED, onEvent.get("PhysicalResourceId").asText());
        assertTrue(onEvent.get("Reason").asText().startsWith("software/amazon/awssdk/services/fsx/FSxClient"),
                onEvent.toString());

        puts.clear();
        assertEquals(Map.of("Status", "FAILED"), dispatcher(factories, NOW).handle(
                request(CustomResourceDispatcher.TRAINING_TEARDOWN, "Create"), context));
        com.fasterxml.jackson.databind.JsonNode isComplete = onlyResponse();
        assertEquals("teardown-1", isComplete.get("PhysicalResourceId").asText());
        assertTrue(isComplete.get("Reason").asText().startsWith("java.lang.StackOverflowError"), isComplete.toString());
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
        assertEquals(List.of(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION + " " + ROLE_KEY), made,
                "one handler for the request (the same RequestId), signing with the role's credentials");
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
    void theDeadlineCountsFromTheRequestsArrivalNotFromTheEndOfOnEvent() {
        // onEvent may wait a minute for its role: CloudFormation's ServiceTimeout was already running.
        Instant[] now = {NOW};
        Clock moving = new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now[0];
            }
        };
        Map<String, Function<AwsCredentialsProvider, CustomResourceHandler>> factories = new LinkedHashMap<>();
        factories.put(CustomResourceDispatcher.LUSTRE_PRELOAD, credentials -> CustomResourceHandler.of((event, c) -> {
            now[0] = NOW.plusSeconds(90);
            return new LinkedHashMap<>(Map.of("PhysicalResourceId", "resource-1"));
        }, (event, c) -> Map.of("IsComplete", false)));
        CustomResourceDispatcher dispatcher = new CustomResourceDispatcher(factories,
                new AssumedRoles(sts, pauses::add), () -> new WaiterExecutions(sfn.stepFunctions(), WAITER),
                new CloudFormationResponse(HttpClient.newHttpClient(), Duration.ZERO), moving);

        assertEquals(Map.of("Status", "WAITING"), dispatcher.handle(
                request(CustomResourceDispatcher.LUSTRE_PRELOAD, "Create"), context));
        com.fasterxml.jackson.databind.JsonNode start = sfn.calls("AWSStepFunctions.StartExecution").get(0).json();
        assertEquals(NOW.getEpochSecond() + CustomResourceDispatcher.TOTAL_TIMEOUT_SECONDS,
                Json.read(start.get("input").asText()).get(CustomResourceDispatcher.DEADLINE).asLong());
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

    /** Step Functions as it answers DescribeExecution for waiters of the request: these names ended with a status. */
    private void endedWaiters(Map<String, String> statusByName) {
        sfn.on("AWSStepFunctions.DescribeExecution", call -> {
            String arn = call.json().get("executionArn").asText();
            String status = statusByName.get(arn.substring(arn.lastIndexOf(':') + 1));
            return status == null ? Reply.error(400, "ExecutionDoesNotExist", "Execution Does Not Exist")
                    : Reply.ok("{\"executionArn\":\"" + arn + "\",\"stateMachineArn\":\"" + WAITER
                    + "\",\"status\":\"" + status + "\",\"startDate\":1.7E9}");
        });
    }

    @Test
    void aRequestSentAgainAfterItsWaiterEndedIsAnewAttemptWithAWaiterOfItsOwn() {
        // CloudFormation retrying a failed deployment sends the request again with the same RequestId.
        endedWaiters(Map.of("3f2c6a7e-1b2d-4c5e-8f90-123456789abc", "SUCCEEDED"));
        isCompleteAnswers.add(Map.of("IsComplete", false));

        Map<String, Object> answer = dispatcher().handle(request(CustomResourceDispatcher.LUSTRE_PRELOAD, "Create"),
                context);

        assertEquals(Map.of("Status", "WAITING"), answer);
        assertEquals(List.of("Custom::LustrePreload onEvent Create",
                "Custom::LustrePreload isComplete Create resource-1"), calls, "onEvent runs again");
        assertEquals(List.of("AWSStepFunctions.DescribeExecution", "AWSStepFunctions.DescribeExecution",
                "AWSStepFunctions.StartExecution"), sfnCalls());
        assertEquals("3f2c6a7e-1b2d-4c5e-8f90-123456789abc-2",
                sfn.calls("AWSStepFunctions.StartExecution").get(0).json().get("name").asText());
        assertTrue(context.lines().stream().anyMatch(line -> line.contains("ended (SUCCEEDED)")), context.lines()
                .toString());
        assertEquals(List.of("3f2c6a7e-1b2d-4c5e-8f90-123456789abc-2", "3f2c6a7e-1b2d-4c5e-8f90-123456789abc-2"),
                attempts, "the handler is told which attempt it serves, the same in every delivery of it");
        assertTrue(sfn.calls("AWSStepFunctions.StartExecution").get(0).json().get("input").asText()
                .contains("\"TrainingDataAttempt\":\"3f2c6a7e-1b2d-4c5e-8f90-123456789abc-2\""), "and the waiter's calls");
    }

    @Test
    void aRequestSentAgainWhoseAttemptsWaiterRunsIsNotRunAgain() {
        endedWaiters(Map.of("3f2c6a7e-1b2d-4c5e-8f90-123456789abc", "FAILED",
                "3f2c6a7e-1b2d-4c5e-8f90-123456789abc-2", "RUNNING"));

        Map<String, Object> answer = dispatcher().handle(request(CustomResourceDispatcher.LUSTRE_PRELOAD, "Create"),
                context);

        assertEquals(Map.of("Status", "REPEATED"), answer);
        assertEquals(List.of(), calls);
        assertEquals(List.of(), puts);
    }

    @Test
    void aRequestSentAgainThatCompletesAtOnceIsAnsweredWithoutAWaiter() {
        endedWaiters(Map.of("3f2c6a7e-1b2d-4c5e-8f90-123456789abc", "FAILED"));

        Map<String, Object> answer = dispatcher().handle(request(CustomResourceDispatcher.LUSTRE_PRELOAD, "Create"),
                context);

        assertEquals(Map.of("Status", "SUCCESS"), answer);
        assertEquals("SUCCESS", onlyResponse().get("Status").asText());
        assertEquals(List.of("AWSStepFunctions.DescribeExecution", "AWSStepFunctions.DescribeExecution"), sfnCalls());
    }

    @Test
    void aDeleteSentMoreOftenThanTheNamedAttemptsIsServedWithAWaiterOfAUniqueName() {
        Map<String, String> ended = new LinkedHashMap<>();
        for (int attempt = 1; attempt <= WaiterExecutions.NAMED_ATTEMPTS; attempt++) {
            ended.put("3f2c6a7e-1b2d-4c5e-8f90-123456789abc" + (attempt == 1 ? "" : "-" + attempt), "FAILED");
        }
        endedWaiters(ended);
        isCompleteAnswers.add(Map.of("IsComplete", false));
        Map<String, Object> delete = request(CustomResourceDispatcher.TRAINING_TEARDOWN, "Delete");
        delete.put("PhysicalResourceId", "resource-1");

        Map<String, Object> answer = dispatcher().handle(delete, context);

        assertEquals(Map.of("Status", "WAITING"), answer, "served, not failed: a Delete must not end DELETE_FAILED");
        assertEquals(List.of("Custom::TrainingTeardown onEvent Delete",
                "Custom::TrainingTeardown isComplete Delete resource-1"), calls);
        String name = sfn.calls("AWSStepFunctions.StartExecution").get(0).json().get("name").asText();
        assertTrue(name.matches("3f2c6a7e-1b2d-4c5e-8f90-123456789abc-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}")
                && name.length() <= 80, name);
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
        assertTrue(context.lines().stream().anyMatch(line -> line.startsWith(
                "Waiter 3f2c6a7e-1b2d-4c5e-8f90-123456789abc was started before")), context.lines().toString());
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

    /** A request as the directories tests send it straight to their handler (no response URL is used). */
    private static Map<String, Object> requestOf(String type, String requestType) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("RequestType", requestType);
        event.put("ResourceType", type);
        event.put("RequestId", "req-1");
        event.put("LogicalResourceId", "Resource");
        event.put("ResponseURL", "https://cloudformation-custom-resource-response.example/presigned");
        event.put("ResourceProperties", Map.of("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:new",
                AssumedRoles.ROLE_ARN, ROLE));
        return event;
    }

    @Test
    void eachHandlerSignsAsItsResourcesRoleAssumedInASessionNamedAfterTheRequest() {
        CustomResourceDispatcher dispatcher = dispatcher();
        Map<String, Object> create = request(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION, "Create");
        dispatcher.handle(create, context);

        assertEquals(List.of(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION + " " + ROLE_KEY), made,
                "one handler for the request, signing with the role's credentials");
        List<Call> assumes = emulator.calls(ASSUME_ROLE);
        assertEquals(1, assumes.size(), "onEvent and the first isComplete share the credentials");
        assertEquals(ROLE, AwsJsonEmulator.formField(assumes.get(0), "RoleArn"));
        assertEquals("DataRepositoryAssociation-3f2c6a7e-1b2d-4c5e-8f90-123456789abc",
                AwsJsonEmulator.formField(assumes.get(0), "RoleSessionName"));
        assertTrue(assumes.get(0).authorization().contains("Credential=" + OWN_KEY + "/"), "assumed with the "
                + "function's own credentials");

        Map<String, Object> other = request(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION, "Create");
        other.put("RequestId", "req-2");
        dispatcher.handle(other, context);
        assertEquals(2, made.size(), "another request, another session: " + made);
        assertEquals("DataRepositoryAssociation-req-2", AwsJsonEmulator.formField(emulator.calls(ASSUME_ROLE).get(1),
                "RoleSessionName"));
    }

    @Test
    void aRefusedAssumeRoleInOnEventIsTriedAgainAfterGrowingPauses() {
        refusals.add(refused());
        refusals.add(refused());

        dispatcher().handle(request(CustomResourceDispatcher.LUSTRE_PRELOAD, "Create"), context);

        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(2)), pauses);
        assertEquals(3, emulator.calls(ASSUME_ROLE).size());
        assertEquals("Custom::LustrePreload onEvent Create", calls.get(0), "the handler runs once the role is granted");
        assertEquals("SUCCESS", onlyResponse().get("Status").asText());
    }

    @Test
    void aRoleStillRefusedAfterOneMinuteFailsTheCreateWithStsMessage() {
        for (int i = 0; i < 10; i++) {
            refusals.add(refused());
        }
        dispatcher().handle(request(CustomResourceDispatcher.LUSTRE_PRELOAD, "Create"), context);

        com.fasterxml.jackson.databind.JsonNode response = onlyResponse();
        assertEquals("FAILED", response.get("Status").asText());
        assertEquals(CustomResourceDispatcher.CREATE_FAILED, response.get("PhysicalResourceId").asText());
        assertTrue(response.get("Reason").asText().contains("not authorized to perform: sts:AssumeRole"),
                response.toString());
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 29L), pauses.stream().map(Duration::toSeconds).toList(),
                "60 seconds in all (AssumedRoles.ON_EVENT_WAIT)");
        assertEquals(List.of(), calls);
    }

    @Test
    void aRefusedAssumeRoleInAWaitersCallIsNotCompleteYetWithoutWaiting() {
        Map<String, Object> input = startsTheWaiter();
        calls.clear();
        refusals.add(refused());
        CustomResourceDispatcher otherInstance = dispatcher(NOW.plusSeconds(30));

        assertEquals(Map.of("IsComplete", false), otherInstance.handle(input, context));
        assertEquals(List.of(), pauses);
        assertTrue(String.join("\n", context.lines()).contains("Cannot assume " + ROLE + " yet"),
                context.lines().toString());
        assertEquals(List.of(), puts);
        assertEquals(Map.of("IsComplete", true), otherInstance.handle(input, context), "granted at the next call");
        assertEquals(List.of("Custom::LustrePreload isComplete Create resource-1"), calls);
        assertEquals("SUCCESS", onlyResponse().get("Status").asText());
    }

    /** The preload's handler, its clients on the emulator signing with the credentials the dispatcher gives. */
    private CustomResourceDispatcher preloads(Instant now) {
        Map<String, Function<AwsCredentialsProvider, CustomResourceHandler>> factories = new LinkedHashMap<>();
        factories.put(CustomResourceDispatcher.LUSTRE_PRELOAD, credentials -> {
            PreloadHandler handler = new PreloadHandler(client(SfnClient.builder(), credentials),
                    client(SageMakerClient.builder(), credentials), client(CloudFormationClient.builder(), credentials),
                    client(FSxClient.builder(), credentials), Clock.fixed(Instant.parse("2026-01-01T00:01:00Z"),
                            ZoneOffset.UTC));
            return CustomResourceHandler.of(handler::onEvent, handler::isComplete);
        });
        return dispatcher(factories, now);
    }

    private <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C extends SdkAutoCloseable> C client(
            B builder, AwsCredentialsProvider credentials) {
        C client = SdkCalls.configure(builder).endpointOverride(emulator.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(credentials).build();
        clients.add(client);
        return client;
    }

    /** A preload's request of {@code requestType}, with the properties the preload construct gives it. */
    private Map<String, Object> preload(String requestType) {
        Map<String, Object> request = request(CustomResourceDispatcher.LUSTRE_PRELOAD, requestType);
        request.put("StackId", "arn:aws:cloudformation:us-east-1:123456789012:stack/Data/1");
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("WorkerJobNamePrefix", "warm");
        properties.put("StateMachineArn", "arn:aws:states:us-east-1:123456789012:stateMachine:Preload");
        properties.put("FileSystemId", "fs-0123456789abcdef0");
        properties.put("DataLocations", List.of("s3://data/train/"));
        properties.put("WarmKey", "k1");
        properties.put("WaitSeconds", "3300");
        properties.put(AssumedRoles.ROLE_ARN, ROLE);
        request.put("ResourceProperties", properties);
        return request;
    }

    /**
     * The preload's real handler through the dispatcher: a role refused at first (created seconds before) is waited for
     * in onEvent, and in the waiter's call (another function instance) answered "not complete yet"; every call of the
     * handler signs as the preload's role.
     */
    @Test
    void thePreloadStartsItsExecutionAsItsRoleOnceStsGrantsIt() {
        emulator.on("AWSStepFunctions.StartExecution", call -> Reply.ok("{\"executionArn\":\"arn\","
                + "\"startDate\":1767225600}"));
        emulator.on("AWSStepFunctions.DescribeExecution", call -> Reply.ok("{\"executionArn\":\"arn\","
                + "\"stateMachineArn\":\"arn\",\"status\":\"RUNNING\",\"startDate\":1767225600}"));
        Map<String, Object> create = preload("Create");
        refusals.add(refused());

        assertEquals(Map.of("Status", "WAITING"), preloads(NOW).handle(create, context));
        assertEquals(List.of(Duration.ofSeconds(1)), pauses);
        Map<String, Object> input = Json.MAPPER.convertValue(Json.read(sfn.calls("AWSStepFunctions.StartExecution")
                .get(0).json().get("input").asText()), Map.class);
        refusals.add(refused());
        CustomResourceDispatcher otherInstance = preloads(NOW.plusSeconds(30));
        assertEquals(Map.of("IsComplete", false), otherInstance.handle(input, context), "refused: not complete yet");
        assertEquals(Map.of("IsComplete", false), otherInstance.handle(input, context), "running");

        assertEquals(List.of(ASSUME_ROLE, ASSUME_ROLE, "AWSStepFunctions.StartExecution",
                "AWSStepFunctions.DescribeExecution", ASSUME_ROLE, ASSUME_ROLE, "AWSStepFunctions.DescribeExecution"),
                emulator.calls().stream().map(Call::target).toList());
        for (Call call : emulator.calls()) {
            String key = call.target().equals(ASSUME_ROLE) ? OWN_KEY : ROLE_KEY;
            assertTrue(call.authorization().contains("Credential=" + key + "/"), call.target());
        }
        assertEquals(List.of(Duration.ofSeconds(1)), pauses, "a waiter's call does not wait in the invocation");
        assertEquals(List.of(), puts);
    }

    /**
     * A preload whose role is gone (or no longer trusts the function) when CloudFormation deletes it: no wait mends
     * that, and its Delete never fails. After onEvent's minute it goes on, each of its calls refused with STS's
     * answer before it is sent, and completes.
     */
    @Test
    void aPreloadDeleteWhoseRoleStaysRefusedGoesOnWithEachCallRefusedAndCompletes() {
        for (int i = 0; i < 20; i++) {
            refusals.add(refused());
        }
        Map<String, Object> delete = preload("Delete");
        delete.put("PhysicalResourceId", "warm-k1-0123456789abcdef");

        assertEquals(Map.of("Status", "SUCCESS"), preloads(NOW).handle(delete, context));
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 29L), pauses.stream().map(Duration::toSeconds).toList());
        assertEquals("warm-k1-0123456789abcdef", onlyResponse().get("PhysicalResourceId").asText());
        assertEquals(7, emulator.calls().size(), "7 AssumeRole attempts in onEvent");
        assertEquals(List.of(ASSUME_ROLE), emulator.calls().stream().map(Call::target).distinct().toList(),
                "no call of the handler is sent: " + emulator.calls());
        String log = String.join("\n", context.lines());
        assertTrue(log.contains("the Delete goes on, each of its calls refused"), log);
        assertTrue(log.contains("not authorized to perform: sts:AssumeRole"), "the refusal is logged: " + log);
    }

    /**
     * A teardown's Delete refused its role in a waiter's call reaches its handler, whose credentials refuse each call
     * with STS's answer; an association's Delete, whose handler fails on a refused call, is "not complete yet" in a
     * waiter's call and fails after onEvent's minute; a throttled AssumeRole is "not complete yet" for the teardown too.
     */
    @Test
    void onlyAPreloadOrTeardownDeleteGoesOnWithoutItsRole() {
        List<String> refusedWith = new ArrayList<>();
        Map<String, Function<AwsCredentialsProvider, CustomResourceHandler>> factories = new LinkedHashMap<>();
        factories.put(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION,
                recording(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION));
        factories.put(CustomResourceDispatcher.TRAINING_TEARDOWN, credentials -> CustomResourceHandler.of(
                (event, context) -> Map.of("PhysicalResourceId", "Resource-teardown"), (event, context) -> {
                    refusedWith.add(assertThrows(SdkException.class, credentials::resolveCredentials).getMessage());
                    return Map.of("IsComplete", true);
                }));
        CustomResourceDispatcher dispatcher = dispatcher(factories, NOW);
        Map<String, Object> teardown = request(CustomResourceDispatcher.TRAINING_TEARDOWN, "Delete");
        teardown.put("PhysicalResourceId", "Resource-teardown");
        teardown.put(CustomResourceDispatcher.PHASE, CustomResourceDispatcher.IS_COMPLETE);

        refusals.add(Reply.queryError(400, "Throttling", "Rate exceeded"));
        assertEquals(Map.of("IsComplete", false), dispatcher.handle(teardown, context), "throttled: not yet");
        refusals.add(refused());
        assertEquals(Map.of("IsComplete", true), dispatcher.handle(teardown, context));
        assertEquals(1, refusedWith.size());
        assertTrue(refusedWith.get(0).contains("not authorized to perform: sts:AssumeRole"), refusedWith.get(0));
        assertEquals("SUCCESS", onlyResponse().get("Status").asText());

        puts.clear();
        Map<String, Object> association = request(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION, "Delete");
        association.put("PhysicalResourceId", "fs-0123456789abcdef0:Resource");
        Map<String, Object> waiterCall = new LinkedHashMap<>(association);
        waiterCall.put(CustomResourceDispatcher.PHASE, CustomResourceDispatcher.IS_COMPLETE);
        refusals.add(refused());
        assertEquals(Map.of("IsComplete", false), dispatcher.handle(waiterCall, context));
        for (int i = 0; i < 10; i++) {
            refusals.add(refused());
        }
        dispatcher.handle(association, context);
        assertEquals("FAILED", onlyResponse().get("Status").asText());
        assertEquals(List.of(), calls, "the association's handler never ran");
    }

    /**
     * A warm function instance serves request after request, each with a handler of its own whose clients sign as the
     * request's role and are never closed: their calls are timed on threads the clients share, so the instance's
     * threads do not grow with the requests.
     */
    @Test
    void requestAfterRequestAddsNoThreads() {
        emulator.on("AWSStepFunctions.StartExecution", call -> Reply.ok("{\"executionArn\":\"arn\","
                + "\"startDate\":1767225600}"));
        emulator.on("AWSStepFunctions.DescribeExecution", call -> Reply.ok("{\"executionArn\":\"arn\","
                + "\"stateMachineArn\":\"arn\",\"status\":\"RUNNING\",\"startDate\":1767225600}"));
        CustomResourceDispatcher dispatcher = preloads(NOW);
        dispatcher.handle(preload("Create"), context);
        long before = sdkThreads();

        for (int i = 0; i < 2 * CustomResourceDispatcher.MAX_HANDLERS; i++) {
            Map<String, Object> create = preload("Create");
            create.put("RequestId", "req-" + i);
            assertEquals(Map.of("Status", "WAITING"), dispatcher.handle(create, context));
        }

        assertEquals(before, sdkThreads(), "threads of the SDK's clients alive");
    }

    private static long sdkThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .filter(thread -> thread.getName().startsWith("sdk-") || thread.getName().startsWith("training-data-"))
                .count();
    }

    @Test
    void aRequestThatNamesNoRoleFailsBeforeAnyCall() {
        Map<String, Object> create = request(CustomResourceDispatcher.LUSTRE_PRELOAD, "Create");
        create.put("ResourceProperties", Map.of("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:new"));
        dispatcher().handle(create, context);
        assertTrue(onlyResponse().get("Reason").asText().startsWith("ResourceProperties." + AssumedRoles.ROLE_ARN
                + " must name the role"));
        assertEquals(List.of(), emulator.calls());
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
        Map<String, Object> event = requestOf(CustomResourceDispatcher.EFS_DIRECTORIES, requestType);
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:new");
        properties.put("FileSystemId", "fs-0123456789abcdef0");
        properties.put("Directories", List.of("/features/imagenet"));
        properties.put(CustomResourceDispatcher.DIRECTORIES_FUNCTION, FUNCTION);
        properties.put(AssumedRoles.ROLE_ARN, ROLE);
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
    @SuppressWarnings("unchecked")
    void anUpdateOfTheRoleOnlyInvokesNothingAndKeepsThePhysicalId() {
        FakeLambda lambda = new FakeLambda("{\"PhysicalResourceId\":\"fs-0123456789abcdef0:directories\"}", null);
        DirectoriesInvoker invoker = new DirectoriesInvoker(lambda);
        Map<String, Object> update = directories("Update");
        update.put("PhysicalResourceId", "fs-0123456789abcdef0:directories");
        Map<String, Object> old = new LinkedHashMap<>((Map<String, Object>) update.get("ResourceProperties"));
        old.put(AssumedRoles.ROLE_ARN, ROLE + "Old");
        update.put("OldResourceProperties", old);

        assertEquals(Map.of("PhysicalResourceId", "fs-0123456789abcdef0:directories"), invoker.onEvent(update, context));
        assertEquals(List.of(), lambda.requests, "the directories stay as they are");

        old.put("Directories", List.of("/features/coco"));
        invoker.onEvent(update, context);
        assertEquals(1, lambda.requests.size(), "a changed directory list is invoked");
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
