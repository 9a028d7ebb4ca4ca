package io.github.trainingdata.cdk.training.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.Context;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.internal.handler.AssumedRoles;
import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Call;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import io.github.trainingdata.cdk.launch.MutableClock;
import io.github.trainingdata.cdk.preload.handler.RecordingContext;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * The teardown handler against a loopback emulator of Step Functions, SageMaker and EC2's Query API, with the real
 * SDK clients configured as in Lambda and the real SigV4-signed EC2 call: each test checks the calls the handler
 * makes and what it answers the Provider framework.
 */
class TrainingTeardownHandlerTest {
    private static final String LIST_EXECUTIONS = "AWSStepFunctions.ListExecutions";
    private static final String STOP_EXECUTION = "AWSStepFunctions.StopExecution";
    private static final String LIST_JOBS = "SageMaker.ListTrainingJobs";
    private static final String STOP_JOB = "SageMaker.StopTrainingJob";
    private static final String UPDATE_JOB = "SageMaker.UpdateTrainingJob";
    private static final String DESCRIBE_ENIS = "ec2.DescribeNetworkInterfaces";
    private static final String DESCRIBE_STACKS = "cloudformation.DescribeStacks";
    private static final String STATE_MACHINE = "arn:aws:states:us-east-1:123456789012:stateMachine:TrainingStateMachineA1B2";
    private static final String PREFIX = "train";
    private static final String GROUP = "sg-0123456789abcdef0";
    private static final List<String> SUBNETS = List.of("subnet-0aaaaaaaaaaaaaaaa", "subnet-0bbbbbbbbbbbbbbbb");
    /** The longest a job of the definition lives: 25 hours (as CloudFormation hands it over, a string). */
    private static final Duration LIFETIME = Duration.ofHours(25);
    /** The delete began at 2026-01-01T00:00:00Z. */
    private static final Instant STARTED = Instant.parse("2026-01-01T00:00:00Z");
    private static final Map<String, Object> NOT_COMPLETE = Map.of("IsComplete", false);
    private static final Map<String, Object> COMPLETE = Map.of("IsComplete", true);
    private static final String ASSUME_ROLE = "sts.AssumeRole";
    private static final String ROLE = "arn:aws:iam::123456789012:role/training-data/custom-resource/Training/TeardownRole1";
    /** The access keys of the function's own credentials (STS, CloudFormation) and of the definition's role. */
    private static final String OWN_KEY = "AKIDTESTTESTTESTTEST";
    private static final String ROLE_KEY = "ASIAROLEROLEROLEROLE";
    /** A job of the state machine and one of the launcher, both under {@link #PREFIX}. */
    private static final String EXECUTION_JOB = PREFIX + "-0f8fad5b-d9cb-469f-a165-70867728950e";
    private static final String LAUNCHED_JOB = PREFIX + "-20251231-230000-ab12";

    private AwsJsonEmulator emulator;
    private MutableClock clock;
    private TrainingTeardownHandler handler;
    private RecordingContext context;
    private final List<SdkAutoCloseable> clients = new ArrayList<>();
    /** The pauses between AssumeRole attempts (none: isComplete tries again at its next call). */
    private final List<Duration> pauses = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        emulator = new AwsJsonEmulator();
        emulator.on(STOP_EXECUTION, call -> Reply.ok("{\"stopDate\":1767225700}"));
        emulator.on(STOP_JOB, call -> Reply.ok("{}"));
        emulator.on(UPDATE_JOB, call -> Reply.ok("{\"TrainingJobArn\":\"arn\"}"));
        emulator.on(LIST_EXECUTIONS, call -> Reply.ok("{\"executions\":[]}"));
        emulator.on(LIST_JOBS, call -> Reply.ok(jobs()));
        emulator.on(DESCRIBE_ENIS, call -> Reply.ok(interfaces(null)));
        emulator.on(ASSUME_ROLE, call -> Reply.ok(assumed()));
        stackIs("DELETE_IN_PROGRESS");
        clock = new MutableClock(STARTED.plusSeconds(90));
        handler = handler(SdkCalls.clientConfiguration());
        context = new RecordingContext();
    }

    @AfterEach
    void stop() {
        clients.forEach(SdkAutoCloseable::close);
        emulator.close();
    }

    private TrainingTeardownHandler handler(ClientOverrideConfiguration configuration) {
        Function<AwsCredentialsProvider, TeardownClients> make = credentials -> {
            SfnClient sfn = SdkCalls.configure(SfnClient.builder()).overrideConfiguration(configuration)
                    .endpointOverride(emulator.endpoint()).credentialsProvider(credentials).region(Region.US_EAST_1)
                    .build();
            SageMakerClient sageMaker = SdkCalls.configure(SageMakerClient.builder())
                    .overrideConfiguration(configuration).endpointOverride(emulator.endpoint())
                    .credentialsProvider(credentials).region(Region.US_EAST_1).build();
            clients.add(sfn);
            clients.add(sageMaker);
            return new TeardownClients(sfn, sageMaker, new NetworkInterfaces(UrlConnectionHttpClient.create(),
                    credentials, Region.US_EAST_1, emulator.endpoint()));
        };
        StsClient sts = emulator.connect(SdkCalls.configure(StsClient.builder()).overrideConfiguration(configuration));
        clients.add(sts);
        CloudFormationClient cloudFormation = emulator.connect(SdkCalls.configure(CloudFormationClient.builder())
                .overrideConfiguration(configuration));
        clients.add(cloudFormation);
        return new TrainingTeardownHandler(new RoleClients(new AssumedRoles(sts, pauses::add), make), cloudFormation,
                clock);
    }

    /** DescribeStacks (awsQuery, XML) reports the stack in this status. */
    private void stackIs(String status) {
        emulator.on(DESCRIBE_STACKS, call -> Reply.ok("<DescribeStacksResponse xmlns=\"http://cloudformation.amazonaws"
                + ".com/doc/2010-05-15/\"><DescribeStacksResult><Stacks><member><StackName>Training</StackName>"
                + "<StackId>arn:aws:cloudformation:us-east-1:123456789012:stack/Training/4a1e2b30</StackId>"
                + "<CreationTime>2026-01-01T00:00:00Z</CreationTime><StackStatus>" + status + "</StackStatus></member>"
                + "</Stacks></DescribeStacksResult><ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata>"
                + "</DescribeStacksResponse>"));
    }

    /** An STS AssumeRole answer (awsQuery XML) with the role's temporary credentials. */
    private static String assumed() {
        return "<AssumeRoleResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><AssumeRoleResult>"
                + "<Credentials><AccessKeyId>" + ROLE_KEY + "</AccessKeyId><SecretAccessKey>role-secret"
                + "</SecretAccessKey><SessionToken>role-session-token</SessionToken>"
                + "<Expiration>2099-01-01T00:00:00Z</Expiration></Credentials><AssumedRoleUser>"
                + "<AssumedRoleId>AROAEXAMPLEEXAMPLE:training-teardown</AssumedRoleId><Arn>arn:aws:sts::123456789012:"
                + "assumed-role/TeardownRole/training-teardown</Arn></AssumedRoleUser></AssumeRoleResult>"
                + "<ResponseMetadata><RequestId>request-1</RequestId></ResponseMetadata></AssumeRoleResponse>";
    }

    @Test
    void aDefinitionsCallsActAsItsTeardownRole() {
        emulator.on(LIST_JOBS, call -> Reply.ok(jobs(job(EXECUTION_JOB, "Stopped", STARTED.minusSeconds(600), null))));
        emulator.on(DESCRIBE_ENIS, call -> Reply.ok(interfaces(null, "eni-01")));

        assertEquals(NOT_COMPLETE, handler.isComplete(deleting(inVpc()), context));

        Call assume = emulator.calls(ASSUME_ROLE).get(0);
        assertEquals(ROLE, AwsJsonEmulator.formField(assume, "RoleArn"));
        assertEquals("TrainingTeardown-req-1", AwsJsonEmulator.formField(assume, "RoleSessionName"),
                "the session names the request");
        assertTrue(assume.authorization().contains("Credential=" + OWN_KEY + "/"), "assumed with the handler's own");
        List<Call> teardown = emulator.calls().stream().filter(call -> !call.target().equals(ASSUME_ROLE)).toList();
        assertTrue(teardown.stream().map(Call::target).toList().containsAll(List.of(LIST_EXECUTIONS, LIST_JOBS,
                DESCRIBE_ENIS)), targets().toString());
        for (Call call : teardown) {
            assertTrue(call.authorization().contains("Credential=" + ROLE_KEY + "/"), call.target()
                    + " signed with the role's credentials: " + call.authorization());
        }
        handler.isComplete(deleting(inVpc()), context);
        assertEquals(1, emulator.calls(ASSUME_ROLE).size(), "the role's credentials are kept until they expire");
    }

    /** Every entry names its TeardownRole: there are no other credentials its calls could use. */
    @Test
    void anEntryWithoutAnIamRoleArnIsRefused() {
        Map<String, Object> properties = inVpc();
        properties.remove("RoleArn");
        assertEquals("ResourceProperties.Definitions[0].RoleArn must be an IAM role ARN, got 'null'",
                assertThrows(IllegalArgumentException.class, () -> handler.onEvent(event("Create", properties),
                        context)).getMessage());
        properties.put("RoleArn", "TeardownRole");
        assertEquals("ResourceProperties.Definitions[0].RoleArn must be an IAM role ARN, got 'TeardownRole'",
                assertThrows(IllegalArgumentException.class, () -> handler.onEvent(event("Create", properties),
                        context)).getMessage());
        assertEquals(List.of(), emulator.calls());
    }

    @Test
    void aRefusedAssumeRoleIsTriedAgainUntilTheDeleteGivesUp() {
        emulator.on(ASSUME_ROLE, call -> Reply.queryError(403, "AccessDenied", "not authorized to perform "
                + "sts:AssumeRole"));

        assertEquals(NOT_COMPLETE, handler.isComplete(deleting(inVpc()), context));
        assertEquals(List.of(ASSUME_ROLE), targets(), "nothing called without the role");
        assertTrue(String.join("\n", context.lines()).contains("cannot assume " + ROLE + " (will try again)"),
                context.lines().toString());
        assertEquals(List.of(), pauses, "isComplete does not wait in the invocation");

        clock.advance(TrainingTeardownHandler.GIVE_UP_AFTER);
        assertEquals(COMPLETE, handler.isComplete(deleting(inVpc()), context));
        assertTrue(String.join("\n", context.lines()).contains("gives up: cannot assume " + ROLE),
                context.lines().toString());
    }

    /** A handler whose clients give up at once, so the tests see the error the SDK would raise after its retries. */
    private TrainingTeardownHandler withoutSdkRetries() {
        return handler(SdkCalls.clientConfiguration().toBuilder()
                .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(1).build()).build());
    }

    private static Map<String, Object> properties(String prefix, List<String> groups, List<String> subnets) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:framework-onEvent");
        properties.put("StateMachineArn", STATE_MACHINE);
        properties.put("JobNamePrefix", prefix);
        properties.put("SecurityGroupIds", groups);
        properties.put("SubnetIds", subnets);
        properties.put("JobLifetimeSeconds", Long.toString(LIFETIME.toSeconds()));
        properties.put("RoleArn", ROLE);
        return properties;
    }

    /** The stack's teardown properties with {@code definitions} (each as {@link #properties} gives it) listed. */
    @SafeVarargs
    private static Map<String, Object> stack(Map<String, Object>... definitions) {
        Map<String, Object> properties = new LinkedHashMap<>();
        List<Map<String, Object>> listed = new ArrayList<>();
        for (Map<String, Object> definition : definitions) {
            properties.put("ServiceToken", definition.getOrDefault("ServiceToken", ""));
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("Id", definition.getOrDefault("Id", "Training/Training"));
            definition.forEach((name, value) -> {
                if (!name.equals("ServiceToken") && !name.equals("Id")) {
                    entry.put(name, value);
                }
            });
            listed.add(entry);
        }
        properties.put("Definitions", listed);
        return properties;
    }

    private static Map<String, Object> inVpc() {
        return properties(PREFIX, List.of(GROUP, "sg-0fedcba9876543210"), SUBNETS);
    }

    private static Map<String, Object> event(String requestType, Map<String, Object> properties) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("RequestType", requestType);
        event.put("RequestId", "req-1");
        event.put("StackId", "arn:aws:cloudformation:us-east-1:123456789012:stack/Training/4a1e2b30");
        event.put("LogicalResourceId", "TrainingTeardown5C4D2E1F");
        event.put("ResourceType", "Custom::TrainingTeardown");
        event.put("ResourceProperties", stack(properties));
        if (!requestType.equals("Create")) {
            event.put("PhysicalResourceId", "TrainingTeardown5C4D2E1F-teardown");
        }
        return event;
    }

    /** The isComplete event of a Delete whose onEvent answered at {@link #STARTED}. */
    private static Map<String, Object> deleting(Map<String, Object> properties) {
        Map<String, Object> event = event("Delete", properties);
        event.put("Data", Map.of(TrainingTeardownHandler.STARTED, Long.toString(STARTED.getEpochSecond())));
        return event;
    }

    private Map<String, Object> isComplete() {
        return handler.isComplete(deleting(inVpc()), context);
    }

    private List<String> targets() {
        return emulator.calls().stream().map(Call::target).toList();
    }

    private List<String> stopped(String target, String member) {
        return emulator.calls(target).stream().map(call -> call.json().required(member).textValue()).toList();
    }

    private static String execution(String name) {
        return "{\"executionArn\":\"" + executionArn(name) + "\",\"stateMachineArn\":\"" + STATE_MACHINE
                + "\",\"name\":\"" + name + "\",\"status\":\"RUNNING\",\"startDate\":1767225000}";
    }

    private static String executionArn(String name) {
        return STATE_MACHINE.replace(":stateMachine:", ":execution:") + ":" + name;
    }

    /** A training-job summary; {@code ended} is null for a job that has not ended. */
    private static String job(String name, String status, Instant ended, String warmPool) {
        return "{\"TrainingJobName\":\"" + name + "\",\"TrainingJobArn\":\"arn:aws:sagemaker:us-east-1:123456789012:"
                + "training-job/" + name.toLowerCase() + "\",\"CreationTime\":1767222000,\"TrainingJobStatus\":\""
                + status + "\",\"LastModifiedTime\":" + (ended != null ? ended : STARTED).getEpochSecond()
                + (ended != null ? ",\"TrainingEndTime\":" + ended.getEpochSecond() : "")
                + (warmPool != null ? ",\"WarmPoolStatus\":{\"Status\":\"" + warmPool + "\"}" : "") + "}";
    }

    /** A summary of a job created at {@code created} that has not ended. */
    private static String created(String name, String status, Instant created) {
        return "{\"TrainingJobName\":\"" + name + "\",\"TrainingJobArn\":\"arn:aws:sagemaker:us-east-1:123456789012:"
                + "training-job/" + name + "\",\"CreationTime\":" + created.getEpochSecond() + ",\"TrainingJobStatus\":\""
                + status + "\",\"LastModifiedTime\":" + created.getEpochSecond() + "}";
    }

    private static String jobs(String... summaries) {
        return "{\"TrainingJobSummaries\":[" + String.join(",", summaries) + "]}";
    }

    private static String interfaces(String nextToken, String... ids) {
        return interfaceSet(nextToken, List.of(ids).stream()
                .map(id -> eni(id, SUBNETS.get(0), "network interface of a training job", null)).toArray(String[]::new));
    }

    /** One interface of a DescribeNetworkInterfaces answer, in the training group; {@code tag}, if given, its one tag's value. */
    private static String eni(String id, String subnet, String description, String tag) {
        return "<item><networkInterfaceId>" + id + "</networkInterfaceId><subnetId>" + subnet + "</subnetId>"
                + "<description>" + description + "</description><interfaceType>interface</interfaceType>"
                + "<requesterId>AROAEXAMPLE:sagemaker</requesterId><requesterManaged>true</requesterManaged>"
                + "<status>in-use</status><groupSet><item><groupId>" + GROUP + "</groupId><groupName>training"
                + "</groupName></item></groupSet>"
                + (tag != null ? "<tagSet><item><key>job</key><value>" + tag + "</value></item></tagSet>" : "") + "</item>";
    }

    private static String interfaceSet(String nextToken, String... items) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DescribeNetworkInterfacesResponse "
                + "xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\"><requestId>59dbff89-35bd-4eac-99ed-be587EXAMPLE"
                + "</requestId><networkInterfaceSet>" + String.join("", items) + "</networkInterfaceSet>"
                + (nextToken != null ? "<nextToken>" + nextToken + "</nextToken>" : "")
                + "</DescribeNetworkInterfacesResponse>";
    }

    private static Reply ec2Error(int status, String code) {
        return new Reply(status, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Response><Errors><Error><Code>" + code
                + "</Code><Message>" + code + " message</Message></Error></Errors><RequestID>ea966190</RequestID>"
                + "</Response>");
    }

    /** A form-encoded Query body as name to value, in order. */
    private static Map<String, String> form(String body) {
        Map<String, String> form = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            String[] parts = pair.split("=", 2);
            form.put(URLDecoder.decode(parts[0], StandardCharsets.UTF_8), URLDecoder.decode(parts[1], StandardCharsets.UTF_8));
        }
        return form;
    }

    @Test
    void createAndUpdateCallNothingAndKeepThePhysicalId() {
        assertEquals(Map.of("PhysicalResourceId", "TrainingTeardown5C4D2E1F-teardown"),
                handler.onEvent(event("Create", inVpc()), context));
        assertEquals(COMPLETE, handler.isComplete(event("Create", inVpc()), context));
        Map<String, Object> update = event("Update", properties("renamed", List.of(), List.of()));
        update.put("OldResourceProperties", stack(inVpc()));
        assertEquals(Map.of("PhysicalResourceId", "TrainingTeardown5C4D2E1F-teardown"), handler.onEvent(update, context),
                "a new physical id would make CloudFormation delete this one, stopping running training");
        assertEquals(COMPLETE, handler.isComplete(update, context));
        assertEquals(List.of(), emulator.calls());
    }

    /** An Update from another provider (another ServiceToken) keeps the physical id and stops nothing. */
    @Test
    void anUpdateFromAnotherProviderStopsNothingAndKeepsThePhysicalId() {
        Map<String, Object> old = inVpc();
        old.put("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:TrainingTeardownProviderframeworkonEvent");
        Map<String, Object> update = event("Update", inVpc());
        update.put("OldResourceProperties", stack(old));

        Map<String, Object> answer = handler.onEvent(update, context);
        Map<String, Object> waiting = new LinkedHashMap<>(update);
        waiting.putAll(answer);

        assertEquals(Map.of("PhysicalResourceId", "TrainingTeardown5C4D2E1F-teardown"), answer);
        assertEquals(COMPLETE, handler.isComplete(waiting, context));
        assertEquals(List.of(), emulator.calls(), "no execution, job or warm pool is stopped");
    }

    /** A new role ARN for the teardown and for a definition (roles replaced) stops nothing. */
    @Test
    @SuppressWarnings("unchecked")
    void anUpdateOfTheRolesOnlyStopsNothingAndKeepsThePhysicalId() {
        Map<String, Object> update = event("Update", inVpc());
        Map<String, Object> now = (Map<String, Object>) update.get("ResourceProperties");
        now.put("RoleArn", ROLE + "New");
        Map<String, Object> oldEntry = inVpc();
        oldEntry.put("RoleArn", ROLE + "Old");
        Map<String, Object> old = stack(oldEntry);
        old.put("RoleArn", ROLE + "Older");
        update.put("OldResourceProperties", old);

        Map<String, Object> answer = handler.onEvent(update, context);
        Map<String, Object> waiting = new LinkedHashMap<>(update);
        waiting.putAll(answer);

        assertEquals(Map.of("PhysicalResourceId", "TrainingTeardown5C4D2E1F-teardown"), answer);
        assertEquals(COMPLETE, handler.isComplete(waiting, context));
        assertEquals(List.of(), emulator.calls(), "no execution, job or warm pool is stopped");
    }

    /** A definition of its own id, prefix and state machine, outside a VPC. */
    private static Map<String, Object> definition(String id, String prefix) {
        Map<String, Object> properties = properties(prefix, List.of(), List.of());
        properties.put("Id", id);
        properties.put("StateMachineArn", STATE_MACHINE + "-" + prefix);
        return properties;
    }

    @Test
    void anUpdateThatRemovesADefinitionTearsDownThatOneOnly() {
        emulator.on(LIST_EXECUTIONS, call -> Reply.ok("{\"executions\":[]}"));
        emulator.on(LIST_JOBS, call -> Reply.ok(jobs()));
        Map<String, Object> update = event("Update", definition("Training/First", "first"));
        update.put("OldResourceProperties", stack(definition("Training/First", "first"),
                definition("Training/Second", "second")));

        Map<String, Object> answer = handler.onEvent(update, context);
        assertEquals(Map.of("PhysicalResourceId", "TrainingTeardown5C4D2E1F-teardown", "Data",
                Map.of("TeardownStarted", Long.toString(STARTED.getEpochSecond() + 90))), answer);
        Map<String, Object> waiting = new LinkedHashMap<>(update);
        waiting.putAll(answer);
        assertEquals(COMPLETE, handler.isComplete(waiting, context));
        assertEquals(List.of(STATE_MACHINE + "-second"), stopped(LIST_EXECUTIONS, "stateMachineArn"),
                "only the removed definition's state machine");
        assertEquals(List.of("second"), stopped(LIST_JOBS, "NameContains"), "only the removed definition's jobs");
    }

    @Test
    void aDeleteTearsDownEveryDefinition() {
        emulator.on(LIST_EXECUTIONS, call -> Reply.ok("{\"executions\":[]}"));
        emulator.on(LIST_JOBS, call -> Reply.ok(jobs()));
        Map<String, Object> delete = event("Delete", definition("Training/First", "first"));
        delete.put("ResourceProperties", stack(definition("Training/First", "first"),
                definition("Training/Second", "second")));
        delete.put("Data", Map.of(TrainingTeardownHandler.STARTED, Long.toString(STARTED.getEpochSecond())));

        assertEquals(COMPLETE, handler.isComplete(delete, context));
        assertEquals(List.of(STATE_MACHINE + "-first", STATE_MACHINE + "-second"),
                stopped(LIST_EXECUTIONS, "stateMachineArn"));
    }

    @Test
    void anUpdateFromTheEarlierOneResourcePerDefinitionLayoutStopsNothing() {
        Map<String, Object> update = event("Update", inVpc());
        update.put("OldResourceProperties", inVpc());

        Map<String, Object> answer = handler.onEvent(update, context);
        Map<String, Object> waiting = new LinkedHashMap<>(update);
        waiting.putAll(answer);
        assertEquals(COMPLETE, handler.isComplete(waiting, context));
        assertEquals(List.of(), emulator.calls());
        assertTrue(context.lines().get(0).startsWith("Cannot tell what the earlier definitions ran (nothing stopped)"),
                context.lines().toString());
    }

    @Test
    void createRejectsADefinitionListedTwice() {
        Map<String, Object> create = event("Create", inVpc());
        create.put("ResourceProperties", stack(inVpc(), inVpc()));
        assertEquals("ResourceProperties.Definitions[1].Id 'Training/Training' names a definition twice",
                assertThrows(IllegalArgumentException.class, () -> handler.onEvent(create, context)).getMessage());
    }

    @Test
    void createRejectsBadPropertiesByName() {
        Map<String, Object> properties = inVpc();
        properties.put("JobNamePrefix", "-bad");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> handler.onEvent(event("Create", properties),
                context)).getMessage().startsWith("ResourceProperties.Definitions[0].JobNamePrefix: Invalid training job name prefix '-bad'"));
        properties.put("JobNamePrefix", PREFIX);
        properties.put("SecurityGroupIds", List.of());
        assertEquals("ResourceProperties.Definitions[0].SecurityGroupIds must be set with SubnetIds (both empty: a job outside a VPC; "
                + "groups alone: jobs in subnets read at run time)", assertThrows(IllegalArgumentException.class,
                        () -> handler.onEvent(event("Create", properties), context)).getMessage());
        properties.put("SecurityGroupIds", List.of(GROUP));
        properties.put("JobLifetimeSeconds", "0");
        assertEquals("ResourceProperties.Definitions[0].JobLifetimeSeconds must be a positive whole number of seconds, got '0'",
                assertThrows(IllegalArgumentException.class, () -> handler.onEvent(event("Create", properties), context))
                        .getMessage());
        properties.put("StateMachineArn", "TrainingStateMachine");
        assertEquals("ResourceProperties.Definitions[0].StateMachineArn must be a state machine ARN, got 'TrainingStateMachine'",
                assertThrows(IllegalArgumentException.class, () -> handler.onEvent(event("Create", properties), context))
                        .getMessage());
        assertEquals(List.of(), emulator.calls());
    }

    @Test
    void deleteNotesWhenItBeganAndOnlyAsksForTheStacksStatus() {
        assertEquals(Map.of("PhysicalResourceId", "TrainingTeardown5C4D2E1F-teardown", "Data",
                Map.of("TeardownStarted", Long.toString(STARTED.getEpochSecond() + 90))),
                handler.onEvent(event("Delete", inVpc()), context));
        assertEquals(List.of(DESCRIBE_STACKS), emulator.calls().stream().map(Call::target).toList());
        assertTrue(emulator.calls().get(0).body().contains("StackName=arn%3Aaws%3Acloudformation%3Aus-east-1%3A"
                + "123456789012%3Astack%2FTraining%2F4a1e2b30"), emulator.calls().get(0).body());
    }

    /**
     * A Delete while the stack cleans up after a rolled-back update: that update created the teardown (the upgrade
     * from the last release adds it), and the rollback keeps the definitions it lists, so nothing is stopped.
     */
    @Test
    void aDeleteInTheCleanupOfARollbackStopsNothing() {
        stackIs("UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS");
        emulator.on(LIST_EXECUTIONS, call -> Reply.ok("{\"executions\":[" + execution("nightly-1") + "]}"));
        Map<String, Object> delete = event("Delete", inVpc());

        Map<String, Object> answer = handler.onEvent(delete, context);
        Map<String, Object> waiting = new LinkedHashMap<>(delete);
        waiting.putAll(answer);

        assertEquals(Map.of("PhysicalResourceId", "TrainingTeardown5C4D2E1F-teardown",
                TrainingTeardownHandler.LEFT_ALONE, "true"), answer);
        assertEquals(COMPLETE, handler.isComplete(waiting, context));
        assertEquals(List.of(DESCRIBE_STACKS), emulator.calls().stream().map(Call::target).toList(),
                "no execution, job or warm pool is stopped");
    }

    /** When the stack's status cannot be read, a Delete tears down, as a stack's deletion needs. */
    @Test
    void aDeleteThatCannotReadTheStacksStatusTearsDown() {
        emulator.on(DESCRIBE_STACKS, call -> Reply.queryError(403, "AccessDenied", "not authorized"));

        assertEquals(Map.of("PhysicalResourceId", "TrainingTeardown5C4D2E1F-teardown", "Data",
                Map.of("TeardownStarted", Long.toString(STARTED.getEpochSecond() + 90))),
                handler.onEvent(event("Delete", inVpc()), context));
    }

    @Test
    void deleteStopsRunningExecutionsAndJobsInProgressThenWaitsUntilTheyAndTheirNetworkInterfacesAreGone() {
        emulator.onSequence(LIST_EXECUTIONS,
                Reply.ok("{\"executions\":[" + execution("nightly-1") + "],\"nextToken\":\"page-2\"}"),
                Reply.ok("{\"executions\":[" + execution("nightly-2") + "]}"),
                Reply.ok("{\"executions\":[]}"));
        emulator.onSequence(LIST_JOBS,
                Reply.ok(jobs(job(EXECUTION_JOB, "InProgress", null, null), job(LAUNCHED_JOB, "Stopping", null, null),
                        job(PREFIX + "-1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", "Completed", STARTED.minusSeconds(86_400), null))),
                Reply.ok(jobs(job(EXECUTION_JOB, "Stopped", STARTED.plusSeconds(60), null),
                        job(LAUNCHED_JOB, "Stopped", STARTED.plusSeconds(30), null))));
        emulator.onSequence(DESCRIBE_ENIS, Reply.ok(interfaces(null, "eni-0a1b2c3d4e5f60718")), Reply.ok(interfaces(null)));

        assertEquals(NOT_COMPLETE, isComplete(), "executions and a job stopped, another job still stopping");
        assertEquals(List.of(ASSUME_ROLE, LIST_EXECUTIONS, STOP_EXECUTION, LIST_EXECUTIONS, STOP_EXECUTION, LIST_JOBS,
                STOP_JOB), targets());
        assertEquals(Json.tree("{\"executionArn\":\"" + executionArn("nightly-1") + "\",\"error\":\"TrainingDefinitionDeleted\","
                + "\"cause\":\"CloudFormation deleted the training definition (its teardown stops what it started)\"}"),
                Json.tree(emulator.calls(STOP_EXECUTION).get(0).body()));
        assertEquals(List.of(executionArn("nightly-1"), executionArn("nightly-2")), stopped(STOP_EXECUTION, "executionArn"));
        assertEquals(List.of(EXECUTION_JOB), stopped(STOP_JOB, "TrainingJobName"));
        assertEquals(Json.tree("{\"stateMachineArn\":\"" + STATE_MACHINE + "\",\"statusFilter\":\"RUNNING\",\"maxResults\":100}"),
                Json.tree(emulator.calls(LIST_EXECUTIONS).get(0).body()));
        assertEquals(Json.tree("{\"NameContains\":\"train\",\"CreationTimeAfter\":"
                + STARTED.plusSeconds(90).minus(LIFETIME).getEpochSecond() + ",\"MaxResults\":100,"
                + "\"SortBy\":\"CreationTime\",\"SortOrder\":\"Descending\"}"),
                Json.tree(emulator.calls(LIST_JOBS).get(0).body()));
        assertTrue(context.lines().get(context.lines().size() - 1).startsWith("Teardown of train, waited 90 of 3000 s: "
                + "running executions: " + executionArn("nightly-1") + ", " + executionArn("nightly-2")
                + "; training jobs: " + EXECUTION_JOB + " (InProgress), " + LAUNCHED_JOB + " (Stopping)"),
                context.lines().toString());

        assertEquals(NOT_COMPLETE, isComplete(), "the jobs ended, but one network interface is still held");
        assertTrue(context.lines().get(context.lines().size() - 1).endsWith("network interfaces: eni-0a1b2c3d4e5f60718 "
                + "(in-use, " + SUBNETS.get(0) + ", type interface, requester AROAEXAMPLE:sagemaker, 'network interface "
                + "of a training job')"),
                context.lines().toString());
        assertEquals(COMPLETE, isComplete());
        assertEquals(List.of(LIST_EXECUTIONS, LIST_JOBS, DESCRIBE_ENIS, LIST_EXECUTIONS, LIST_JOBS, DESCRIBE_ENIS),
                targets().subList(7, 13), "the role assumed once");
    }

    @Test
    void jobsOfAnotherPrefixAreLeftAloneAlsoWhenTheirPrefixStartsTheSame() {
        emulator.on(LIST_JOBS, call -> Reply.ok(jobs(
                job("trainer-0f8fad5b-d9cb-469f-a165-70867728950e", "InProgress", null, null),
                job("train-big-0f8fad5b-d9cb-469f-a165-70867728950e", "InProgress", null, null),
                job("train-big-20251231-230000-ab12", "InProgress", null, "Available"),
                job("warm-train-0123456789ab", "InProgress", null, null),
                job("train-manual-run", "InProgress", null, null),
                job(EXECUTION_JOB, "InProgress", null, null))));

        isComplete();

        assertEquals(List.of(EXECUTION_JOB), stopped(STOP_JOB, "TrainingJobName"));
        assertEquals(List.of(), emulator.calls(UPDATE_JOB));
    }

    @Test
    void retainedWarmPoolsAreReleasedAndWaitedFor() {
        emulator.onSequence(LIST_JOBS,
                Reply.ok(jobs(job(EXECUTION_JOB, "Completed", STARTED.minusSeconds(600), "Available"),
                        job(LAUNCHED_JOB, "InProgress", null, "InUse"))),
                Reply.ok(jobs(job(EXECUTION_JOB, "Completed", STARTED.minusSeconds(600), "Terminated"),
                        job(LAUNCHED_JOB, "Stopped", STARTED.plusSeconds(60), "Terminated"))));

        assertEquals(NOT_COMPLETE, isComplete());
        assertEquals(List.of(Json.tree("{\"TrainingJobName\":\"" + EXECUTION_JOB + "\",\"ResourceConfig\":"
                + "{\"KeepAlivePeriodInSeconds\":0}}")), emulator.calls(UPDATE_JOB).stream().map(call -> Json.tree(call.body()))
                .toList());
        assertEquals(List.of(LAUNCHED_JOB), stopped(STOP_JOB, "TrainingJobName"));
        assertTrue(context.lines().get(context.lines().size() - 1).endsWith("warm pools: " + EXECUTION_JOB
                + " (Available), " + LAUNCHED_JOB + " (InUse)"), context.lines().toString());

        assertEquals(COMPLETE, isComplete(), "pools terminated, jobs ended, no network interface left");
        assertEquals(1, emulator.calls(UPDATE_JOB).size());
    }

    @Test
    void theNetworkInterfacesAreThoseInTheJobsSubnetsWithItsTrainingGroupReadPageByPageWithASignedCall() {
        emulator.on(LIST_JOBS, call -> Reply.ok(jobs(job(EXECUTION_JOB, "Stopped", STARTED.minusSeconds(600), null))));
        emulator.onSequence(DESCRIBE_ENIS, Reply.ok(interfaces("token/2+", "eni-01")), Reply.ok(interfaces(null, "eni-02")));

        assertEquals(NOT_COMPLETE, isComplete());

        List<Call> calls = emulator.calls(DESCRIBE_ENIS);
        Map<String, String> first = new LinkedHashMap<>();
        first.put("Action", "DescribeNetworkInterfaces");
        first.put("Version", "2016-11-15");
        first.put("Filter.1.Name", "group-id");
        first.put("Filter.1.Value.1", GROUP);
        first.put("Filter.2.Name", "subnet-id");
        first.put("Filter.2.Value.1", SUBNETS.get(0));
        first.put("Filter.2.Value.2", SUBNETS.get(1));
        first.put("MaxResults", "1000");
        assertEquals(first, form(calls.get(0).body()));
        Map<String, String> second = new LinkedHashMap<>(first);
        second.put("NextToken", "token/2+");
        assertEquals(second, form(calls.get(1).body()));
        assertTrue(calls.get(0).authorization().startsWith("AWS4-HMAC-SHA256 Credential=" + ROLE_KEY + "/"),
                calls.get(0).authorization());
        assertTrue(calls.get(0).authorization().contains("/us-east-1/ec2/aws4_request, SignedHeaders="),
                calls.get(0).authorization());
        assertTrue(context.lines().get(context.lines().size() - 1).contains("network interfaces: eni-01 (in-use"),
                context.lines().toString());
        assertTrue(context.lines().get(context.lines().size() - 1).contains(", eni-02 (in-use"), context.lines().toString());
    }

    @Test
    void jobsWhoseSubnetsAreReadAtRunTimeAreLookedForInEverySubnet() {
        emulator.on(LIST_JOBS, call -> Reply.ok(jobs(job(EXECUTION_JOB, "Stopped", STARTED.minusSeconds(600), null))));
        emulator.on(DESCRIBE_ENIS, call -> Reply.ok(interfaces(null, "eni-01")));

        assertEquals(NOT_COMPLETE, handler.isComplete(deleting(properties(PREFIX, List.of(GROUP), List.of())), context));

        Map<String, String> filters = new LinkedHashMap<>();
        filters.put("Action", "DescribeNetworkInterfaces");
        filters.put("Version", "2016-11-15");
        filters.put("Filter.1.Name", "group-id");
        filters.put("Filter.1.Value.1", GROUP);
        filters.put("MaxResults", "1000");
        assertEquals(filters, form(emulator.calls(DESCRIBE_ENIS).get(0).body()));
    }

    @Test
    void noNetworkInterfaceIsWaitedForWithoutAJobWithinTheLastHourOrOutsideAVpc() {
        emulator.on(LIST_JOBS, call -> Reply.ok(jobs(job(EXECUTION_JOB, "Completed", STARTED.minusSeconds(3_600), null))));
        emulator.on(DESCRIBE_ENIS, call -> Reply.ok(interfaces(null, "eni-of-something-else")));

        assertEquals(COMPLETE, isComplete(), "a job that ended over an hour ago holds no interface any more");
        emulator.on(LIST_JOBS, call -> Reply.ok(jobs(job(EXECUTION_JOB, "InProgress", null, null))));
        emulator.on(STOP_JOB, call -> Reply.error(400, "ValidationException", "The job has already ended"));
        assertEquals(COMPLETE, handler.isComplete(deleting(properties(PREFIX, List.of(), List.of())), context),
                "outside a VPC a job holds no interface in the stack's network");
        assertEquals(List.of(), emulator.calls(DESCRIBE_ENIS));
    }

    @Test
    void jobsAreListedNewestFirstOnlyAsFarBackAsTheDefinitionsJobsLive() {
        String young = PREFIX + "-1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed";
        Instant oldest = STARTED.plusSeconds(90).minus(LIFETIME);
        emulator.onSequence(LIST_JOBS, Reply.ok("{\"TrainingJobSummaries\":["
                + created(young, "InProgress", oldest.plusSeconds(1)) + ","
                + created(EXECUTION_JOB, "InProgress", oldest.minusSeconds(1)) + "],\"NextToken\":\"page-2\"}"),
                Reply.ok(jobs()));

        assertEquals(NOT_COMPLETE, isComplete());

        assertEquals(List.of(young), stopped(STOP_JOB, "TrainingJobName"), "a job created before the lifetime has ended");
        assertEquals(1, emulator.calls(LIST_JOBS).size(), "older pages are not read");
        Map<String, Object> withoutLifetime = inVpc();
        withoutLifetime.remove("JobLifetimeSeconds");
        handler.isComplete(deleting(withoutLifetime), context);
        assertEquals(STARTED.plusSeconds(90).minus(TeardownProperties.LONGEST_LIFETIME).getEpochSecond(),
                emulator.calls(LIST_JOBS).get(1).json().required("CreationTimeAfter").asLong(),
                "an entry without a lifetime (a deploy-time duration): SageMaker's longest is assumed");
    }

    @Test
    void eachInterfaceIsWaitedForUnlessItNamesAnotherJob() {
        emulator.on(LIST_JOBS, call -> Reply.ok(jobs(job(EXECUTION_JOB, "Stopped", STARTED.minusSeconds(600), null),
                job(LAUNCHED_JOB, "Stopped", STARTED.minusSeconds(300), null))));
        String other = eni("eni-other", SUBNETS.get(0), "Training job train-big-0f8fad5b-d9cb-469f-a165-70867728950e",
                null);
        String preload = eni("eni-preload", SUBNETS.get(0), "[warm-cache-1a2b3c4d-5e6f7a8b-0123456789ab]", null);
        emulator.onSequence(DESCRIBE_ENIS, Reply.ok(interfaceSet(null,
                eni("eni-own-zone", SUBNETS.get(0), "Training job " + EXECUTION_JOB, null),
                eni("eni-fallback-zone", SUBNETS.get(1), "", "arn:aws:sagemaker:us-east-1:123456789012:training-job/"
                        + LAUNCHED_JOB),
                eni("eni-unnamed", SUBNETS.get(1), "network interface", null), other, preload)),
                Reply.ok(interfaceSet(null, other, preload)));

        assertEquals(NOT_COMPLETE, isComplete());
        String line = context.lines().get(context.lines().size() - 1);
        assertTrue(line.contains("network interfaces: eni-own-zone (in-use, " + SUBNETS.get(0) + ", type interface, "
                + "requester AROAEXAMPLE:sagemaker, 'Training job " + EXECUTION_JOB + "') of " + EXECUTION_JOB
                + ", eni-fallback-zone (in-use, " + SUBNETS.get(1) + ", type interface, requester AROAEXAMPLE:sagemaker, "
                + "'') of " + LAUNCHED_JOB + ", eni-unnamed (in-use, " + SUBNETS.get(1)), line);
        assertTrue(line.endsWith("other jobs' network interfaces (not waited for): eni-other (in-use, " + SUBNETS.get(0)
                + ", type interface, requester AROAEXAMPLE:sagemaker, 'Training job train-big-0f8fad5b-d9cb-469f-a165-"
                + "70867728950e') of train-big-0f8fad5b-d9cb-469f-a165-70867728950e, eni-preload (in-use, "
                + SUBNETS.get(0) + ", type interface, requester AROAEXAMPLE:sagemaker, '[warm-cache-1a2b3c4d-5e6f7a8b-"
                + "0123456789ab]') of warm-cache-1a2b3c4d-5e6f7a8b-0123456789ab"), line);

        assertEquals(COMPLETE, isComplete(), "only other jobs' interfaces are left");
        assertTrue(context.lines().get(context.lines().size() - 1).startsWith("Teardown of train: nothing left running; "
                + "other jobs' network interfaces (not waited for): eni-other"), context.lines().toString());
    }

    @Test
    void aPrefixWithCapitalsIsListedAsGivenAndInLowercase() {
        emulator.on(LIST_JOBS, call -> Reply.ok(jobs(job("Train-0f8fad5b-d9cb-469f-a165-70867728950e", "InProgress", null, null))));

        handler.isComplete(deleting(properties("Train", List.of(GROUP), SUBNETS)), context);

        assertEquals(List.of("Train", "train"), stopped(LIST_JOBS, "NameContains"));
        assertEquals(List.of("Train-0f8fad5b-d9cb-469f-a165-70867728950e"), stopped(STOP_JOB, "TrainingJobName"),
                "listed twice, stopped once");
    }

    @Test
    void throttlingServerErrorsAndTimeoutsMeanNotCompleteYet() {
        TrainingTeardownHandler impatient = withoutSdkRetries();
        Map<String, Object> event = deleting(inVpc());
        emulator.onSequence(LIST_EXECUTIONS, Reply.error(400, "ThrottlingException", "Rate exceeded"),
                Reply.ok("{\"executions\":[]}"));
        emulator.onSequence(LIST_JOBS, Reply.ok(jobs(job(EXECUTION_JOB, "Stopped", STARTED, null))),
                Reply.error(500, "InternalFailure", "Internal failure"),
                Reply.ok(jobs(job(EXECUTION_JOB, "Stopped", STARTED, null))));
        emulator.onSequence(DESCRIBE_ENIS, ec2Error(400, "RequestLimitExceeded"), ec2Error(500, "InternalError"),
                Reply.ok(interfaces(null)));

        assertEquals(NOT_COMPLETE, impatient.isComplete(event, context), "Step Functions throttled");
        assertEquals(NOT_COMPLETE, impatient.isComplete(event, context), "SageMaker 500");
        assertEquals(NOT_COMPLETE, impatient.isComplete(event, context), "EC2 throttled");
        assertEquals(NOT_COMPLETE, impatient.isComplete(event, context), "EC2 500");
        assertEquals(COMPLETE, impatient.isComplete(event, context));
        assertTrue(context.lines().get(0).startsWith("Could not list the running executions of " + STATE_MACHINE
                + " (transient, will look again): Rate exceeded"), context.lines().toString());
        assertTrue(context.lines().stream().anyMatch(line -> line.startsWith("Could not describe the network interfaces "
                + "with security group " + GROUP + " in subnets " + SUBNETS + " (transient, will look again): "
                + "RequestLimitExceeded message")), context.lines().toString());
    }

    @Test
    void anUnreachableServiceMeansNotCompleteYet() {
        TrainingTeardownHandler impatient = withoutSdkRetries();
        emulator.close();

        assertEquals(NOT_COMPLETE, impatient.isComplete(deleting(inVpc()), context));
    }

    @Test
    void otherErrorsAreLoggedAndNotWaitedFor() {
        emulator.on(LIST_EXECUTIONS, call -> Reply.error(400, "AccessDeniedException", "not authorized to list"));
        emulator.on(LIST_JOBS, call -> Reply.ok(jobs(job(EXECUTION_JOB, "InProgress", null, null),
                job(LAUNCHED_JOB, "Completed", STARTED, "Available"))));
        emulator.on(STOP_JOB, call -> Reply.error(400, "ValidationException", "The job has already ended"));
        emulator.on(UPDATE_JOB, call -> Reply.error(400, "ResourceNotFound", "No warm pool"));
        emulator.on(DESCRIBE_ENIS, call -> ec2Error(403, "UnauthorizedOperation"));

        assertEquals(COMPLETE, isComplete());
        assertEquals(List.of(
                "Could not list the running executions of " + STATE_MACHINE + " (ignored, the delete does not wait for "
                        + "it): not authorized to list",
                "Could not stop training job " + EXECUTION_JOB + " (ignored, the delete does not wait for it): The job "
                        + "has already ended",
                "Could not release the warm pool of " + LAUNCHED_JOB + " (ignored, the delete does not wait for it): "
                        + "No warm pool",
                "Could not describe the network interfaces with security group " + GROUP + " in subnets " + SUBNETS
                        + " (ignored, the delete does not wait for it): UnauthorizedOperation message",
                "Teardown of train: nothing left running"),
                context.lines().stream().map(line -> line.replaceAll(" \\(Service: .*", "")).toList());
    }

    @Test
    void aDeleteGivesUpAfterFiftyMinutes() {
        emulator.on(LIST_JOBS, call -> Reply.ok(jobs(job(LAUNCHED_JOB, "Stopping", null, null))));
        clock.advance(Duration.ofMinutes(50).minusSeconds(91));
        assertEquals(NOT_COMPLETE, isComplete());

        clock.advance(Duration.ofSeconds(1));
        assertEquals(COMPLETE, isComplete());
        assertEquals("Teardown of train gives up waiting after 50 minutes (CloudFormation goes on and may fail "
                + "to delete what is still held): training jobs: " + LAUNCHED_JOB + " (Stopping)",
                context.lines().get(context.lines().size() - 1));
    }

    /**
     * A retried deployment sends the Delete again with the same RequestId (aws-cdk#35957), and onEvent runs again: the
     * deadline counts from this delivery's onEvent, not from the request, so a retry long after the first delivery
     * waits its own 50 minutes for what still runs (the RequestId only names the role sessions).
     */
    @Test
    void aRetriedDeleteWaitsItsOwnFiftyMinutes() {
        emulator.on(LIST_JOBS, call -> Reply.ok(jobs(job(LAUNCHED_JOB, "Stopping", null, null))));
        clock.advance(Duration.ofHours(2));
        Map<String, Object> retry = event("Delete", inVpc());
        Map<String, Object> waiting = new LinkedHashMap<>(retry);
        waiting.putAll(handler.onEvent(retry, context));

        assertEquals(Map.of(TrainingTeardownHandler.STARTED, Long.toString(clock.instant().getEpochSecond())),
                waiting.get("Data"));
        assertEquals(NOT_COMPLETE, handler.isComplete(waiting, context), "not given up at once");
        clock.advance(TrainingTeardownHandler.GIVE_UP_AFTER);
        assertEquals(COMPLETE, handler.isComplete(waiting, context));
    }

    @Test
    void withoutItsStartTimeADeleteTakesOneLookAndGoesOn() {
        emulator.on(LIST_JOBS, call -> Reply.ok(jobs(job(LAUNCHED_JOB, "Stopping", null, null))));
        Map<String, Object> event = event("Delete", inVpc());

        assertEquals(COMPLETE, handler.isComplete(event, context));
        assertEquals(List.of(ASSUME_ROLE, LIST_EXECUTIONS, LIST_JOBS), targets());
    }

    @Test
    void aDeleteWithBadPropertiesCallsNothingAndGoesOn() {
        assertEquals(COMPLETE, handler.isComplete(deleting(Map.of("JobNamePrefix", PREFIX)), context));
        assertEquals(List.of(), emulator.calls());
        assertTrue(context.lines().get(0).startsWith("Cannot tell what the definitions run (nothing stopped, the delete "
                + "goes on): ResourceProperties.Definitions[0].StateMachineArn"), context.lines().toString());
    }

    @Test
    void anInvocationWithoutTimeForAnotherCallStartsNoneAndIsNotComplete() {
        RecordingContext late = new RecordingContext(44_000);

        assertEquals(NOT_COMPLETE, handler.isComplete(deleting(inVpc()), late));
        assertEquals(List.of(), emulator.calls(), "not even AssumeRole");
        assertEquals(List.of("Teardown of train cannot assume " + ROLE + " (will try again): no time left in this "
                + "invocation"), late.lines());

        // The AssumeRole takes what was left: the look after it starts no call.
        RecordingContext lines = new RecordingContext();
        Context roleTakesTheTime = (Context) Proxy.newProxyInstance(Context.class.getClassLoader(),
                new Class<?>[] {Context.class}, (proxy, method, args) -> method.getName().equals("getRemainingTimeInMillis")
                        ? (emulator.calls(ASSUME_ROLE).isEmpty() ? 60_000 : 44_000) : method.invoke(lines, args));
        assertEquals(NOT_COMPLETE, handler.isComplete(deleting(inVpc()), roleTakesTheTime));
        assertEquals(List.of(ASSUME_ROLE), targets());
        assertTrue(lines.lines().get(0).endsWith("not seen yet: executions (no time left in this invocation), training "
                + "jobs (no time left in this invocation)"), lines.lines().toString());
    }
}
