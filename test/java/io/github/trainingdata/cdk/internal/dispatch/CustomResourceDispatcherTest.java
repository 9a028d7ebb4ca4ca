package io.github.trainingdata.cdk.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.internal.handler.AssumedRoles;
import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Call;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import io.github.trainingdata.cdk.preload.handler.PreloadHandler;
import io.github.trainingdata.cdk.preload.handler.RecordingContext;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
 * The dispatcher hands each request to its type's handler, made for the resource's role and the request, with
 * credentials of that role from STS AssumeRole (a loopback emulator of STS's Query API, with the real SDK client and
 * credentials provider), and tries a refused AssumeRole again: onEvent after recorded pauses, isComplete at its next call.
 */
class CustomResourceDispatcherTest {
    private static final String FUNCTION = "arn:aws:lambda:us-east-1:123456789012:function:Directories";
    private static final String ROLE = "arn:aws:iam::123456789012:role/training-data/custom-resource/Data/HandlerRole1";
    private static final String ASSUME_ROLE = "sts.AssumeRole";
    /** The access keys of the function's own credentials (the emulator's) and of the role's. */
    private static final String OWN_KEY = "AKIDTESTTESTTESTTEST";
    private static final String ROLE_KEY = "ASIAROLEROLEROLEROLE";
    private final List<String> calls = new ArrayList<>();
    private final List<String> made = new ArrayList<>();
    private final List<Duration> pauses = new ArrayList<>();
    private final RecordingContext context = new RecordingContext();
    private AwsJsonEmulator emulator;
    private StsClient sts;
    /** What STS answers the next AssumeRole calls, one each; then it grants. */
    private final List<Reply> refusals = new ArrayList<>();
    private final List<SdkAutoCloseable> clients = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        emulator = new AwsJsonEmulator();
        emulator.on(ASSUME_ROLE, call -> refusals.isEmpty() ? Reply.ok(assumed()) : refusals.remove(0));
        // One attempt per call: the tests see each refusal as the SDK reports it after its retries.
        sts = emulator.connect(SdkCalls.configure(StsClient.builder()).overrideConfiguration(SdkCalls
                .clientConfiguration().toBuilder().retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(1).build()).build()));
    }

    @AfterEach
    void stop() {
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

    /** A handler of {@code type} that records its calls, and the access key it was given, and answers as expected. */
    private Function<AwsCredentialsProvider, CustomResourceHandler> recording(String type) {
        return credentials -> {
            made.add(type + " " + credentials.resolveCredentials().accessKeyId());
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
        Map<String, Function<AwsCredentialsProvider, CustomResourceHandler>> factories = new LinkedHashMap<>();
        for (String type : List.of(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION,
                CustomResourceDispatcher.LUSTRE_PRELOAD, CustomResourceDispatcher.TRAINING_TEARDOWN)) {
            factories.put(type, recording(type));
        }
        return new CustomResourceDispatcher(factories, new AssumedRoles(sts, pauses::add));
    }

    private static Map<String, Object> request(String type, String requestType) {
        return request(type, requestType, "req-1");
    }

    private static Map<String, Object> request(String type, String requestType, String requestId) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("RequestType", requestType);
        event.put("ResourceType", type);
        event.put("RequestId", requestId);
        event.put("LogicalResourceId", "Resource");
        event.put("ResponseURL", "https://cloudformation-custom-resource-response.example/presigned");
        event.put("ResourceProperties", Map.of("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:new",
                AssumedRoles.ROLE_ARN, ROLE));
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
    void eachHandlerSignsAsItsResourcesRoleAssumedInASessionNamedAfterTheRequest() {
        CustomResourceDispatcher dispatcher = dispatcher();
        Map<String, Object> create = request(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION, "Create");
        Map<String, Object> answer = dispatcher.handle(create, context);
        dispatcher.handle(waiterInput(create, answer), context);
        dispatcher.handle(waiterInput(create, answer), context);

        assertEquals(List.of(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION + " " + ROLE_KEY), made,
                "one handler for the request, signing with the role's credentials");
        List<Call> assumes = emulator.calls(ASSUME_ROLE);
        assertEquals(1, assumes.size(), "the request's isComplete calls keep its credentials");
        assertEquals(ROLE, AwsJsonEmulator.formField(assumes.get(0), "RoleArn"));
        assertEquals("DataRepositoryAssociation-req-1", AwsJsonEmulator.formField(assumes.get(0), "RoleSessionName"));
        assertTrue(assumes.get(0).authorization().contains("Credential=" + OWN_KEY + "/"), "assumed with the "
                + "function's own credentials");

        dispatcher.handle(request(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION, "Create", "req-2"), context);
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
        assertEquals(List.of("Custom::LustrePreload onEvent Create"), calls, "the handler runs once the role is granted");
    }

    @Test
    void aRoleStillRefusedAfterOneMinuteFailsOnEventWithStsMessage() {
        for (int i = 0; i < 10; i++) {
            refusals.add(refused());
        }
        SdkException e = assertThrows(SdkException.class,
                () -> dispatcher().handle(request(CustomResourceDispatcher.LUSTRE_PRELOAD, "Create"), context));

        assertTrue(e.getMessage().contains("not authorized to perform: sts:AssumeRole"), e.getMessage());
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 29L), pauses.stream().map(Duration::toSeconds).toList(),
                "60 seconds in all (AssumedRoles.ON_EVENT_WAIT)");
        assertEquals(List.of(), calls);
    }

    @Test
    void aRefusedAssumeRoleInIsCompleteIsNotCompleteYetWithoutWaiting() {
        CustomResourceDispatcher dispatcher = dispatcher();
        Map<String, Object> create = request(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION, "Create");
        Map<String, Object> answer = dispatcher.handle(create, context);
        Map<String, Object> otherInstance = request(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION, "Create",
                "req-2");
        Map<String, Object> waiter = waiterInput(otherInstance, answer);
        refusals.add(refused());

        assertEquals(Map.of("IsComplete", false), dispatcher.handle(waiter, context));
        assertEquals(List.of(), pauses);
        assertTrue(String.join("\n", context.lines()).contains("Cannot assume " + ROLE + " yet"),
                context.lines().toString());
        assertEquals(Map.of("IsComplete", true), dispatcher.handle(waiter, context), "granted at the next call");
        assertEquals(List.of("Custom::DataRepositoryAssociation onEvent Create",
                "Custom::DataRepositoryAssociation isComplete Create Custom::DataRepositoryAssociation-id"), calls);
    }

    /** The preload's handler, its clients on the emulator signing with the credentials the dispatcher gives. */
    private CustomResourceDispatcher preloads() {
        Map<String, Function<AwsCredentialsProvider, CustomResourceHandler>> factories = new LinkedHashMap<>();
        factories.put(CustomResourceDispatcher.LUSTRE_PRELOAD, credentials -> {
            PreloadHandler handler = new PreloadHandler(client(SfnClient.builder(), credentials),
                    client(SageMakerClient.builder(), credentials), client(CloudFormationClient.builder(), credentials),
                    client(FSxClient.builder(), credentials), Clock.fixed(Instant.parse("2026-01-01T00:01:00Z"),
                            ZoneOffset.UTC));
            return CustomResourceHandler.of(handler::onEvent, handler::isComplete);
        });
        return new CustomResourceDispatcher(factories, new AssumedRoles(sts, pauses::add));
    }

    private <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C extends SdkAutoCloseable> C client(
            B builder, AwsCredentialsProvider credentials) {
        C client = SdkCalls.configure(builder).endpointOverride(emulator.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(credentials).build();
        clients.add(client);
        return client;
    }

    /**
     * The preload's real handler through the dispatcher: a role refused at first (created seconds before) is waited for
     * in onEvent, and in isComplete (another function instance) answered "not complete yet"; every call of the handler
     * signs as the preload's role.
     */
    @Test
    void thePreloadStartsItsExecutionAsItsRoleOnceStsGrantsIt() {
        emulator.on("AWSStepFunctions.StartExecution", call -> Reply.ok("{\"executionArn\":\"arn\","
                + "\"startDate\":1767225600}"));
        emulator.on("AWSStepFunctions.DescribeExecution", call -> Reply.ok("{\"executionArn\":\"arn\","
                + "\"stateMachineArn\":\"arn\",\"status\":\"RUNNING\",\"startDate\":1767225600}"));
        Map<String, Object> create = preload("Create");
        refusals.add(refused());

        Map<String, Object> answer = preloads().handle(create, context);
        assertEquals(List.of(Duration.ofSeconds(1)), pauses);
        refusals.add(refused());
        Map<String, Object> waiter = waiterInput(create, answer);
        CustomResourceDispatcher otherInstance = preloads();
        assertEquals(Map.of("IsComplete", false), otherInstance.handle(waiter, context), "refused: not complete yet");
        assertEquals(Map.of("IsComplete", false), otherInstance.handle(waiter, context), "running");

        assertEquals(List.of(ASSUME_ROLE, ASSUME_ROLE, "AWSStepFunctions.StartExecution", ASSUME_ROLE, ASSUME_ROLE,
                "AWSStepFunctions.DescribeExecution"), emulator.calls().stream().map(Call::target).toList());
        for (Call call : emulator.calls()) {
            String key = call.target().equals(ASSUME_ROLE) ? OWN_KEY : ROLE_KEY;
            assertTrue(call.authorization().contains("Credential=" + key + "/"), call.target());
        }
        assertEquals(List.of(Duration.ofSeconds(1)), pauses, "isComplete does not wait in the invocation");
    }

    /** A preload's request of {@code requestType}, with the properties the preload construct gives it. */
    private static Map<String, Object> preload(String requestType) {
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
     * A preload whose role is gone (or no longer trusts the function) when CloudFormation deletes it: no wait mends
     * that, and its Delete never fails. After onEvent's minute it goes on, each of its calls refused with STS's
     * answer before it is sent, and isComplete completes (a role still refused there is not waited for either).
     */
    @Test
    void aPreloadDeleteWhoseRoleStaysRefusedGoesOnWithEachCallRefusedAndCompletes() {
        for (int i = 0; i < 20; i++) {
            refusals.add(refused());
        }
        Map<String, Object> delete = preload("Delete");
        delete.put("PhysicalResourceId", "warm-k1-0123456789abcdef");

        Map<String, Object> answer = preloads().handle(delete, context);
        assertEquals("warm-k1-0123456789abcdef", answer.get("PhysicalResourceId"));
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 29L), pauses.stream().map(Duration::toSeconds).toList());
        assertEquals(true, preloads().handle(waiterInput(delete, answer), context).get("IsComplete"));

        assertEquals(8, emulator.calls().size(), "7 AssumeRole attempts in onEvent, 1 in isComplete");
        assertEquals(List.of(ASSUME_ROLE), emulator.calls().stream().map(Call::target).distinct().toList(),
                "no call of the handler is sent: " + emulator.calls());
        String log = String.join("\n", context.lines());
        assertTrue(log.contains("the Delete goes on, each of its calls refused"), log);
        assertTrue(log.contains("not authorized to perform: sts:AssumeRole"), "the refusal is logged: " + log);
    }

    /**
     * A teardown's Delete refused its role in isComplete reaches its handler, whose credentials refuse each call with
     * STS's answer (the teardown assumes each definition's role itself and gives up after its own 50 minutes, which a
     * "not complete yet" until the provider's timeout would skip, ending in DELETE_FAILED). An association's Delete,
     * whose handler fails on a refused call, still waits in isComplete and fails in onEvent; a throttled AssumeRole is
     * "not complete yet" for the teardown too.
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
        CustomResourceDispatcher dispatcher = new CustomResourceDispatcher(factories, new AssumedRoles(sts,
                pauses::add));
        Map<String, Object> teardown = request(CustomResourceDispatcher.TRAINING_TEARDOWN, "Delete");
        teardown.put("PhysicalResourceId", "Resource-teardown");
        Map<String, Object> waiter = waiterInput(teardown, Map.of(CustomResourceDispatcher.PHASE,
                CustomResourceDispatcher.IS_COMPLETE));

        refusals.add(Reply.queryError(400, "Throttling", "Rate exceeded"));
        assertEquals(Map.of("IsComplete", false), dispatcher.handle(waiter, context), "throttled: not yet");
        refusals.add(refused());
        assertEquals(Map.of("IsComplete", true), dispatcher.handle(waiter, context));
        assertEquals(1, refusedWith.size());
        assertTrue(refusedWith.get(0).contains("not authorized to perform: sts:AssumeRole"), refusedWith.get(0));

        Map<String, Object> association = request(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION, "Delete");
        association.put("PhysicalResourceId", "fs-0123456789abcdef0:Resource");
        refusals.add(refused());
        assertEquals(Map.of("IsComplete", false), dispatcher.handle(waiterInput(association, Map.of(
                CustomResourceDispatcher.PHASE, CustomResourceDispatcher.IS_COMPLETE)), context));
        for (int i = 0; i < 10; i++) {
            refusals.add(refused());
        }
        assertThrows(SdkException.class, () -> dispatcher.handle(association, context));
        assertEquals(List.of(), calls, "the association's handler never ran");
    }

    /**
     * A warm function instance serves request after request, each with a handler of its own whose clients sign as the
     * request's role and are never closed: their calls are timed on threads the clients share, so the instance's
     * threads do not grow with the requests (the SDK's default, a pool per client, kept each client's threads alive:
     * 2 more per preload request here, towards Lambda's 1,024 per execution environment).
     */
    @Test
    void requestAfterRequestAddsNoThreads() {
        emulator.on("AWSStepFunctions.StartExecution", call -> Reply.ok("{\"executionArn\":\"arn\","
                + "\"startDate\":1767225600}"));
        emulator.on("AWSStepFunctions.DescribeExecution", call -> Reply.ok("{\"executionArn\":\"arn\","
                + "\"stateMachineArn\":\"arn\",\"status\":\"RUNNING\",\"startDate\":1767225600}"));
        CustomResourceDispatcher dispatcher = preloads();
        Map<String, Object> first = preload("Create");
        dispatcher.handle(waiterInput(first, dispatcher.handle(first, context)), context);
        long before = sdkThreads();

        for (int i = 0; i < 2 * CustomResourceDispatcher.MAX_HANDLERS; i++) {
            Map<String, Object> create = preload("Create");
            create.put("RequestId", "req-" + i);
            Map<String, Object> answer = dispatcher.handle(create, context);
            assertEquals(Map.of("IsComplete", false), dispatcher.handle(waiterInput(create, answer), context));
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
        assertThrows(IllegalArgumentException.class, () -> dispatcher().handle(create, context));
        assertEquals(List.of(), emulator.calls());
        assertEquals(List.of(), calls);
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
