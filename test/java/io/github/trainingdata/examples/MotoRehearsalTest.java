package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.JsonataAslSimulator;
import io.github.trainingdata.cdk.JsonataAslSimulator.Outcome;
import io.github.trainingdata.cdk.MotoServer;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.launch.DataStoreNotReadyException;
import io.github.trainingdata.cdk.launch.DeployedTrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.launch.TrainingJobLauncher;
import io.github.trainingdata.cdk.launch.TrainingJobNames;
import io.github.trainingdata.cdk.launch.TrainingJobRequestJson;
import io.github.trainingdata.cdk.preload.handler.PreloadHandler;
import io.github.trainingdata.cdk.preload.handler.RecordingContext;
import io.github.trainingdata.cdk.storage.StorePublication;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterType;

/**
 * A rehearsal of the deployed examples in moto, the AWS emulator: what a deploy would create, run against
 * emulated Step Functions, SageMaker, SSM and S3, with every CreateTrainingJob request that arrives checked
 * against botocore's SageMaker model.
 *
 * <p>Each training state machine is taken from the synthesized template, its DefinitionString resolved with
 * realistic deploy-time values ({@code .ci/cfn_resolve.py}). Two changes, and only these, make it run in moto:
 * the optimised {@code arn:aws:states:::sagemaker:createTrainingJob.sync} becomes its request-response form
 * {@code ...:createTrainingJob} (moto does not emulate .sync; the rehearsal makes that task end as .sync does, with
 * the job's description, or States.TaskFailed for a job that failed), and every Wait state waits 0 seconds (moto honours
 * {@code Seconds}, so the prerequisite poll's minute would make the test slow; the loop is the same). Retry
 * intervals are kept. {@code .ci/moto_rehearsal.py} closes the gaps of moto's interpreter (workflow variables and
 * JSONata, evaluated by jsonata; a Choice rule's Assign; camelCase AWS SDK integrations and their error names; the
 * optimised SageMaker integration's error names) as the Step Functions guide describes them; FailurePathsMotoTest
 * runs the training state machines through failures.
 *
 * <p>The preload state machine is JSONata throughout; moto's interpreter evaluates it, but the preload's S3, FSx and
 * worker calls are not emulated here: it is created in moto from its synthesized
 * definition, but its executions are only recorded (RUNNING until stopped) and the tests script the status they
 * report. Its custom-resource handler runs for real against moto's Step Functions and SageMaker.
 *
 * <p>Skipped without Python 3 and moto, except under {@code CI=true}.
 */
class MotoRehearsalTest {
    private static final ObjectMapper JSON = Json.MAPPER;
    private static final String SYNC = ":states:::sagemaker:createTrainingJob.sync";
    private static final String ROLE = "arn:aws:iam::123456789012:role/rehearsal";
    /** The training state machine of the example whose deploy does not wait for the preload (its estimate is too long). */
    private static final String NO_WAIT_STACK = "TrainingDataAdvisedPlatform";
    private static final String NO_WAIT_MACHINE = "PlatformTrainingStateMachineF0FE358C";
    /** Where the composition's data stack publishes its cache, which the teams' stacks read at run time. */
    private static final String PUBLISHED = "/training-data/stores/";
    private static final String SHARED_CACHE = PUBLISHED + "TrainingDataShared.Lustre";
    /** Where it publishes its EFS store, which the teams' EFS channels read at run time. */
    private static final String SHARED_EFS = PUBLISHED + "TrainingDataShared.Features";
    /** A team that reads S3 only, in the data stack's network (as the update catalogue's move-data-az-s3-team). */
    private static final String S3_TEAM = "Tabular";
    /** Its hyperparameters: about 15 KB, so its bound request is split across SSM parameters. */
    private static final Map<String, String> S3_TEAM_HYPERPARAMETERS = hyperParameters(10, 1500);
    /** Where it publishes its network, whose training security group the teams' jobs run in. */
    private static final String SHARED_NETWORK = StorePublication.NETWORK_NAME_PREFIX + "TrainingDataShared.Network";

    private static MotoServer moto;
    private static SfnClient sfn;
    private static SageMakerClient sageMaker;
    private static SsmClient ssm;
    private static S3Client s3;
    private static CloudFormationClient cloudFormation;
    private static FSxClient fsx;
    /** Stack name to resolved template. */
    private static final Map<String, JsonNode> TEMPLATES = new LinkedHashMap<>();
    /** State machines created in moto, by ARN. */
    private static final Set<String> CREATED = new LinkedHashSet<>();
    private static int machines;

    @BeforeAll
    static void deployIntoMoto() throws IOException {
        moto = MotoServer.start();
        sfn = moto.client(SfnClient.builder());
        sageMaker = moto.client(SageMakerClient.builder());
        ssm = moto.client(SsmClient.builder());
        s3 = moto.client(S3Client.builder().forcePathStyle(true));
        cloudFormation = moto.client(CloudFormationClient.builder());
        fsx = moto.client(FSxClient.builder());

        App app = TestApps.app();
        QuickstartStack quickstart = new QuickstartStack(app, "TrainingDataQuickstart");
        AdvisedPlatformStack advised = new AdvisedPlatformStack(app, NO_WAIT_STACK);
        List<TrainingSettings> teams = new ArrayList<>(PlatformCompositionApp.TEAMS);
        teams.add(new TrainingSettings(S3_TEAM, "xgb", null, "2.5.1-cpu-py311", "ml.m5.4xlarge", 1,
                S3_TEAM_HYPERPARAMETERS, false, null, null, null, null));
        List<Stack> composition = PlatformCompositionApp.build(app, PlatformCompositionApp.DATA, teams);
        resolve(List.of(quickstart), List.of(advised), composition);
        for (JsonNode template : TEMPLATES.values()) {
            for (JsonNode parameter : template.path("Resources")) {
                String parameterName = parameter.path("Properties").path("Name").asText();
                if (parameterName.startsWith(PUBLISHED)
                        || parameterName.startsWith(StorePublication.NETWORK_NAME_PREFIX)) {
                    publish(parameter.get("Properties").get("Name").asText(),
                            parameter.get("Properties").get("Value").asText());
                }
            }
        }
    }

    /** What CloudFormation does when it deploys a data stack: the store's publication holds its current values. */
    private static void publish(String name, String document) {
        ssm.putParameter(r -> r.name(name).type(ParameterType.STRING).value(document).overwrite(true));
    }

    @SafeVarargs
    private static void resolve(List<? extends Stack>... groups) throws IOException {
        Path dir = Files.createDirectories(Path.of("target", "rehearsal"));
        for (List<? extends Stack> group : groups) {
            List<Path> files = new ArrayList<>();
            for (Stack stack : group) {
                Path file = dir.resolve(stack.getStackName() + ".template.json");
                Files.writeString(file, JSON.writeValueAsString(Template.fromStack(stack).toJSON()));
                files.add(file);
            }
            List<JsonNode> resolved = moto.resolve(files);
            for (int i = 0; i < group.size(); i++) {
                TEMPLATES.put(group.get(i).getStackName(), resolved.get(i));
            }
        }
    }

    @AfterAll
    static void stopMoto() {
        if (moto != null) {
            moto.close();
        }
    }

    /** Every training state machine of the examples, as (stack, logical id, checkpoint prefix or null). */
    static Stream<Arguments> trainingMachines() {
        return Stream.of(Arguments.of("TrainingDataQuickstart", "TrainingStateMachine8350BA52", "checkpoints/quickstart"),
                Arguments.of(NO_WAIT_STACK, NO_WAIT_MACHINE, null),
                Arguments.of("TrainingTeamVision", "VisionStateMachineEDD2524C", null),
                Arguments.of("TrainingTeamDetection", "DetectionStateMachine0947F28E", null));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("trainingMachines")
    void everyExecutionTrainsOneJobWithAValidUniqueNameAndItsOwnCheckpointPrefix(String stack, String machine,
            String checkpointPrefix) {
        String arn = createInMoto(stack, machine);
        preloadReports(stack, machine, List.of("SUCCEEDED"));
        int before = requests().size();

        List<String> executions = List.of(UUID.randomUUID().toString(), UUID.randomUUID().toString());
        for (String execution : executions) {
            assertEquals("SUCCEEDED", run(arn, execution, "{}").get("status").asText(), stack + " " + machine);
        }

        List<JsonNode> trained = requests().subList(before, requests().size());
        assertEquals(2, trained.size(), "one CreateTrainingJob per execution");
        Set<String> names = new LinkedHashSet<>();
        String prefix = trainingPrefix(stack, machine);
        for (int i = 0; i < trained.size(); i++) {
            JsonNode request = trained.get(i);
            String name = request.get("TrainingJobName").asText();
            assertTrue(TrainingJobNames.isValidName(name) && name.startsWith(prefix + "-"), name);
            names.add(name);
            if (checkpointPrefix != null) {
                assertEquals(bucketUri(request) + checkpointPrefix + "/" + executions.get(i) + "/",
                        request.get("CheckpointConfig").get("S3Uri").asText(), "the execution's own checkpoints");
            } else {
                assertFalse(request.has("CheckpointConfig"), "the definition keeps no checkpoints");
            }
        }
        assertEquals(2, names.size(), "each execution trains under its own name: " + names);
        assertEquals(List.of(), problems(), "requests that arrived at SageMaker, against botocore's model");
    }

    @Test
    void resumeFromReusesTheNamedRunsCheckpointPrefixOnlyWhenItHoldsCheckpoints() {
        String stack = "TrainingDataQuickstart";
        String machine = "TrainingStateMachine8350BA52";
        String arn = createInMoto(stack, machine);
        preloadReports(stack, machine, List.of("SUCCEEDED"));
        String first = UUID.randomUUID().toString();
        assertEquals("SUCCEEDED", run(arn, first, "{}").get("status").asText());
        JsonNode firstRequest = requests().get(requests().size() - 1);
        String firstPrefix = firstRequest.get("CheckpointConfig").get("S3Uri").asText();
        String bucket = firstPrefix.substring("s3://".length()).split("/", 2)[0];
        s3.createBucket(r -> r.bucket(bucket));
        int before = requests().size();

        JsonNode nothingYet = run(arn, UUID.randomUUID().toString(), resumeFrom(first));
        assertEquals("FAILED", nothingYet.get("status").asText());
        assertEquals("NoCheckpointsToResume", nothingYet.get("failure").asText());
        assertEquals(before, requests().size(), "no job trains from scratch when the named run left no checkpoints");

        String key = firstPrefix.substring(("s3://" + bucket + "/").length()) + "checkpoint-00001.pt";
        s3.putObject(r -> r.bucket(bucket).key(key), RequestBody.fromString("weights"));
        String resumed = UUID.randomUUID().toString();
        assertEquals("SUCCEEDED", run(arn, resumed, resumeFrom(first)).get("status").asText());
        JsonNode request = requests().get(requests().size() - 1);
        assertEquals(before + 1, requests().size());
        assertEquals(firstPrefix, request.get("CheckpointConfig").get("S3Uri").asText(), "the named run's prefix");
        assertNotEquals(firstRequest.get("TrainingJobName").asText(), request.get("TrainingJobName").asText());

        for (String invalid : List.of("{\"resumeFrom\": \"\"}", "{\"resumeFrom\": 7}")) {
            JsonNode result = run(arn, UUID.randomUUID().toString(), invalid);
            assertEquals("InvalidResumeFrom", result.get("failure").asText(), invalid);
        }
        assertEquals(before + 1, requests().size());
        assertEquals(List.of(), problems());
    }

    @Test
    void resumeFromFailsWhereTheDefinitionKeepsNoCheckpoints() {
        String arn = createInMoto(NO_WAIT_STACK, NO_WAIT_MACHINE);
        preloadReports(NO_WAIT_STACK, NO_WAIT_MACHINE, List.of("SUCCEEDED"));
        int before = requests().size();

        JsonNode result = run(arn, UUID.randomUUID().toString(), resumeFrom("an-earlier-run"));
        assertEquals("ResumeWithoutCheckpoints", result.get("failure").asText());
        assertEquals(before, requests().size());
    }

    @ParameterizedTest(name = "preload {0}")
    @ValueSource(strings = {"SUCCEEDED", "RUNNING,SUCCEEDED", "RUNNING,PENDING_REDRIVE,RUNNING,SUCCEEDED"})
    void trainingStartsOnlyOnceThePreloadExecutionSucceeded(String statuses) {
        String arn = createInMoto(NO_WAIT_STACK, NO_WAIT_MACHINE);
        String preload = preloadReports(NO_WAIT_STACK, NO_WAIT_MACHINE, List.of(statuses.split(",")));
        int before = requests().size();

        assertEquals("SUCCEEDED", run(arn, UUID.randomUUID().toString(), "{}").get("status").asText());
        assertEquals(statuses.split(",").length, moto.call(Map.of("cmd", "execution-describes", "arn", preload))
                .get("count").asInt(), "one look per status: it waited while the preload ran");
        List<JsonNode> trained = requests().subList(before, requests().size());
        assertEquals(1, trained.size());
        assertTrue(trained.get(0).get("TrainingJobName").asText().startsWith(trainingPrefix(NO_WAIT_STACK,
                NO_WAIT_MACHINE) + "-"));
        assertEquals(List.of(), problems());
    }

    @ParameterizedTest(name = "preload {0}")
    @ValueSource(strings = {"FAILED", "TIMED_OUT", "ABORTED", "RUNNING,FAILED"})
    void aPreloadExecutionThatFailedTimedOutOrWasAbortedFailsTrainingWithoutAJob(String statuses) {
        String arn = createInMoto(NO_WAIT_STACK, NO_WAIT_MACHINE);
        preloadReports(NO_WAIT_STACK, NO_WAIT_MACHINE, List.of(statuses.split(",")));
        int before = requests().size();

        JsonNode result = run(arn, UUID.randomUUID().toString(), "{}");
        assertEquals("FAILED", result.get("status").asText());
        assertEquals("PreloadFailed", result.get("failure").asText());
        assertEquals(before, requests().size(), "no training job was started");
    }

    @Test
    void afterAReWarmTrainingWaitsForTheNewWarmUpNeverForTheStaleOne() {
        String arn = createInMoto(NO_WAIT_STACK, NO_WAIT_MACHINE);
        // The warm-up a re-warm superseded ended badly; the new one is still warming, then succeeds.
        String stale = preloadReports(NO_WAIT_STACK, NO_WAIT_MACHINE, List.of("ABORTED"));
        String stateMachine = stale.substring(0, stale.lastIndexOf(':')).replace(":execution:", ":stateMachine:");
        String current = sfn.startExecution(r -> r.stateMachineArn(stateMachine)
                .name("rewarm-" + UUID.randomUUID())).executionArn();
        moto.call(Map.of("cmd", "script-execution", "arn", current, "statuses", List.of("RUNNING", "SUCCEEDED")));
        // What CloudFormation does with the data stack's update: the parameter now names the new execution.
        ssm.putParameter(r -> r.name(currentExecutionParameter(NO_WAIT_STACK, NO_WAIT_MACHINE))
                .type(ParameterType.STRING).value(current).overwrite(true));
        int staleLooks = moto.call(Map.of("cmd", "execution-describes", "arn", stale)).get("count").asInt();
        int before = requests().size();

        assertEquals("SUCCEEDED", run(arn, UUID.randomUUID().toString(), "{}").get("status").asText());
        assertEquals(before + 1, requests().size(), "one job, after the new warm-up succeeded");
        assertEquals(2, moto.call(Map.of("cmd", "execution-describes", "arn", current)).get("count").asInt());
        assertEquals(staleLooks, moto.call(Map.of("cmd", "execution-describes", "arn", stale)).get("count").asInt(),
                "the superseded warm-up is never looked at");
    }

    @Test
    void aPreloadExecutionWhoseRecordIsGoneHoldsNothingBack() {
        String arn = createInMoto(NO_WAIT_STACK, NO_WAIT_MACHINE);
        String preload = preloadReports(NO_WAIT_STACK, NO_WAIT_MACHINE, List.of("SUCCEEDED"));
        moto.call(Map.of("cmd", "forget-execution", "arn", preload));
        int before = requests().size();

        // DescribeExecution is eventually consistent: the state machine looks three more times (5, 10, 20 s) first.
        assertEquals("SUCCEEDED", run(arn, UUID.randomUUID().toString(), "{}").get("status").asText());
        assertEquals(before + 1, requests().size());
    }

    @Test
    void theLauncherStartsTheDeployedRequestFromSsmWithCheckpointsUnderTheJobNameAndItsChannelsFindTheData()
            throws InterruptedException {
        JsonNode template = TEMPLATES.get("TrainingDataQuickstart");
        String document = resourcesOfType(template, "AWS::SSM::Parameter").stream()
                .filter(p -> p.get("Properties").path("Description").asText().startsWith("CreateTrainingJob request"))
                .findFirst().orElseThrow().get("Properties").get("Value")
                .asText();
        String name = "/rehearsal/quickstart/request";
        ssm.putParameter(r -> r.name(name).type(ParameterType.STRING).value(document).overwrite(true));
        String bucket = uploadDataset(template, "validation/shard-000000.tar");

        TrainingJobLauncher launcher = new TrainingJobLauncher(sageMaker);
        String job = launcher.start(new DeployedTrainingJobDefinition(ssm, name).document(), "quickstart");
        assertEquals("Completed", launcher.waitForCompletion(job, Duration.ofSeconds(1), Duration.ofMinutes(1),
                line -> { }).trainingJobStatusAsString());

        JsonNode request = requestNamed(job);
        assertEquals(List.of(), problems());
        String base = readTree(document).get("CheckpointConfig").get("S3Uri").asText();
        assertEquals(base + job + "/", request.get("CheckpointConfig").get("S3Uri").asText(),
                "each launched job syncs checkpoints under its own name");
        for (JsonNode channel : request.get("InputDataConfig")) {
            JsonNode source = channel.path("DataSource").path("S3DataSource");
            if (!source.isMissingNode()) {
                String uri = source.get("S3Uri").asText();
                assertTrue(uri.startsWith("s3://" + bucket + "/"), uri);
                String prefix = uri.substring(("s3://" + bucket + "/").length());
                assertTrue(s3.listObjectsV2(r -> r.bucket(bucket).prefix(prefix)).keyCount() > 0,
                        "channel " + channel.get("ChannelName").asText() + " finds the uploaded data at " + uri);
            }
        }
        assertTrue(request.get("OutputDataConfig").get("S3OutputPath").asText().startsWith("s3://" + bucket + "/"));
    }

    @Test
    void aTeamsExecutionReadsTheSharedCacheAsPublishedWhenItStartsAndFailsAtOnceWithoutIt() {
        String stack = "TrainingTeamVision";
        String machine = "VisionStateMachineEDD2524C";
        String arn = createInMoto(stack, machine);
        preloadReports(stack, machine, List.of("SUCCEEDED"));
        String deployed = ssm.getParameter(r -> r.name(SHARED_CACHE)).parameter().value();
        String deployedEfs = ssm.getParameter(r -> r.name(SHARED_EFS)).parameter().value();
        String deployedNetwork = ssm.getParameter(r -> r.name(SHARED_NETWORK)).parameter().value();
        try {
            int before = requests().size();
            assertEquals("SUCCEEDED", run(arn, UUID.randomUUID().toString(), "{}").get("status").asText());
            JsonNode published = readTree(deployed);
            assertReads(requests().get(before), published);
            assertReadsEfs(requests().get(before), readTree(deployedEfs));
            assertRunsIn(requests().get(before), readTree(deployedNetwork));

            // The network's training group, as published now (say the data stack was given another): bound the same way.
            ObjectNode otherGroup = ((ObjectNode) readTree(deployedNetwork)).put("SecurityGroupId", "sg-0fedcba9876543210");
            publish(SHARED_NETWORK, otherGroup.toString());
            assertEquals("SUCCEEDED", run(arn, UUID.randomUUID().toString(), "{}").get("status").asText());
            assertRunsIn(requests().get(requests().size() - 1), otherGroup);
            ObjectNode noGroup = otherGroup.deepCopy();
            noGroup.remove("SecurityGroupId");
            publish(SHARED_NETWORK, noGroup.toString());
            JsonNode groupless = run(arn, UUID.randomUUID().toString(), "{}");
            assertEquals("DataStoreIncomplete", groupless.get("failure").asText(), groupless.toString());
            assertTrue(groupless.get("cause").asText().contains(SHARED_NETWORK)
                    && groupless.get("cause").asText().contains("TrainingDataShared/Network"), groupless.toString());
            publish(SHARED_NETWORK, deployedNetwork);
            before += 1;

            // The data stack replaced the EFS file system (e.g. another performance mode): the next execution mounts
            // the new one; a publication without an id fails the execution at once, naming the store.
            ObjectNode newEfs = ((ObjectNode) readTree(deployedEfs)).put("FileSystemId", "fs-0eeeeffff00001111");
            publish(SHARED_EFS, newEfs.toString());
            assertEquals("SUCCEEDED", run(arn, UUID.randomUUID().toString(), "{}").get("status").asText());
            assertReadsEfs(requests().get(requests().size() - 1), newEfs);
            ObjectNode noId = newEfs.deepCopy();
            noId.remove("FileSystemId");
            publish(SHARED_EFS, noId.toString());
            JsonNode efsIncomplete = run(arn, UUID.randomUUID().toString(), "{}");
            assertEquals("DataStoreIncomplete", efsIncomplete.get("failure").asText());
            assertTrue(efsIncomplete.get("cause").asText().contains(SHARED_EFS)
                    && efsIncomplete.get("cause").asText().contains("TrainingDataShared/Features"),
                    efsIncomplete.toString());
            publish(SHARED_EFS, deployedEfs);
            before += 1;

            // The data stack replaced the cache (another AZ and subnet): the next execution mounts the new one.
            ObjectNode replaced = published.deepCopy();
            replaced.put("FileSystemId", "fs-0aaaabbbbccccdddd").put("MountName", "newmnt01")
                    .put("AvailabilityZone", "us-east-1b").putArray("Subnets").add("subnet-0b1b2c3d4e5f60002");
            publish(SHARED_CACHE, replaced.toString());
            assertEquals("SUCCEEDED", run(arn, UUID.randomUUID().toString(), "{}").get("status").asText());
            assertReads(requests().get(requests().size() - 1), replaced);
            assertEquals(before + 2, requests().size());

            ObjectNode halfReplaced = replaced.deepCopy();
            halfReplaced.remove("MountName");
            publish(SHARED_CACHE, halfReplaced.toString());
            JsonNode incomplete = run(arn, UUID.randomUUID().toString(), "{}");
            assertEquals("DataStoreIncomplete", incomplete.get("failure").asText());
            assertTrue(incomplete.get("cause").asText().contains(SHARED_CACHE)
                    && incomplete.get("cause").asText().contains("TrainingDataShared/Lustre"), incomplete.toString());

            // BindDataStores reads the zone for the job's subnets: without it the check fails, not the Pass state.
            ObjectNode withoutZone = replaced.deepCopy();
            withoutZone.remove("AvailabilityZone");
            publish(SHARED_CACHE, withoutZone.toString());
            JsonNode zoneless = run(arn, UUID.randomUUID().toString(), "{}");
            assertEquals("DataStoreIncomplete", zoneless.get("failure").asText(), zoneless.toString());

            ssm.deleteParameter(r -> r.name(SHARED_CACHE));
            JsonNode missing = run(arn, UUID.randomUUID().toString(), "{}");
            assertEquals("DataStoreNotPublished", missing.get("failure").asText());
            assertTrue(missing.get("cause").asText().contains(SHARED_CACHE), missing.toString());
            assertEquals(before + 2, requests().size(), "no job starts without the store");
            assertEquals(List.of(), problems());
        } finally {
            publish(SHARED_CACHE, deployed);
            publish(SHARED_EFS, deployedEfs);
            publish(SHARED_NETWORK, deployedNetwork);
        }
    }

    @Test
    void anS3TeamsExecutionAndLaunchRunInTheNetworkAsPublishedAlsoAfterADataAzMove() throws InterruptedException {
        String stack = "TrainingTeam" + S3_TEAM;
        JsonNode template = TEMPLATES.get(stack);
        String machine = null;
        for (Iterator<String> ids = template.get("Resources").fieldNames(); ids.hasNext(); ) {
            String id = ids.next();
            if (id.startsWith(S3_TEAM + "StateMachine") && "AWS::StepFunctions::StateMachine".equals(
                    template.get("Resources").get(id).path("Type").asText())) {
                machine = id;
            }
        }
        String arn = createInMoto(stack, machine);
        String pointer = resourcesOfType(template, "AWS::SSM::Parameter").stream()
                .filter(p -> p.get("Properties").path("Description").asText().startsWith("CreateTrainingJob request"))
                .findFirst().orElseThrow().get("Properties").get("Value").asText();
        // About 15 KB of hyperparameters: the request is split, each part written as CloudFormation resolves it.
        assertEquals(2, readTree(pointer).path("RequestParts").path("Count").asInt(), pointer);
        Map<Integer, String> parts = new java.util.TreeMap<>();
        for (JsonNode part : resourcesOfType(template, "AWS::SSM::Parameter")) {
            String name = part.get("Properties").path("Name").asText();
            if (name.startsWith(TrainingJobDefinition.REQUEST_PARTS_NAME_PREFIX)) {
                publish(name, part.get("Properties").get("Value").asText());
                parts.put(Integer.valueOf(name.substring(name.lastIndexOf('-') + 1)),
                        part.get("Properties").get("Value").asText());
            }
        }
        String document = String.join("", parts.values());
        assertTrue(document.contains("{{DataStore:" + SHARED_NETWORK + ":Subnets}}"), document);
        String requestName = "/rehearsal/tabular/request";
        ssm.putParameter(r -> r.name(requestName).type(ParameterType.STRING).value(pointer).overwrite(true));
        String deployed = ssm.getParameter(r -> r.name(SHARED_NETWORK)).parameter().value();
        try {
            assertEquals("SUCCEEDED", run(arn, UUID.randomUUID().toString(), "{}").get("status").asText());
            assertRunsInNetwork(requests().get(requests().size() - 1), readTree(deployed));
            TrainingJobLauncher launcher = new TrainingJobLauncher(sageMaker);
            String job = launcher.start(new DeployedTrainingJobDefinition(ssm, requestName).document(), "xgb");
            assertRunsInNetwork(requestNamed(job), readTree(deployed));
            assertEquals(JSON.valueToTree(S3_TEAM_HYPERPARAMETERS), requestNamed(job).get("HyperParameters"));

            // The data stack moved the data AZ: another data subnet in another zone. No team stack is deployed again;
            // the next execution and launch run there.
            ObjectNode moved = ((ObjectNode) readTree(deployed)).put("AvailabilityZone", "us-east-1b");
            moved.putArray("Subnets").add("subnet-0a1b2c3d4e5f60002");
            publish(SHARED_NETWORK, moved.toString());
            assertEquals("SUCCEEDED", run(arn, UUID.randomUUID().toString(), "{}").get("status").asText());
            assertRunsInNetwork(requests().get(requests().size() - 1), moved);
            String next = launcher.start(new DeployedTrainingJobDefinition(ssm, requestName).document(), "xgb");
            assertRunsInNetwork(requestNamed(next), moved);
            assertEquals(List.of(), problems());
        } finally {
            publish(SHARED_NETWORK, deployed);
        }
    }

    /** {@code count} hyperparameters {@code p00}… of {@code length} characters each. */
    private static Map<String, String> hyperParameters(int count, int length) {
        Map<String, String> hyperParameters = new java.util.TreeMap<>();
        for (int i = 0; i < count; i++) {
            hyperParameters.put(String.format("p%02d", i), String.valueOf((char) ('a' + i)).repeat(length));
        }
        return hyperParameters;
    }

    /** The request runs in the published network's data subnet and training security group. */
    private static void assertRunsInNetwork(JsonNode request, JsonNode network) {
        assertEquals(network.get("Subnets"), request.get("VpcConfig").get("Subnets"), request.toString());
        assertRunsIn(request, network);
    }

    /** Publications the SDK launcher refuses: (what is wrong, the parameter, its value given the deployed one). */
    static Stream<Arguments> refusedPublications() {
        return Stream.of(
                Arguments.of("not JSON", SHARED_CACHE, (java.util.function.UnaryOperator<ObjectNode>) d -> null),
                Arguments.of("a malformed subnet", SHARED_CACHE, (java.util.function.UnaryOperator<ObjectNode>) d -> {
                    d.putArray("Subnets").add("subnet-0a1b2c3d4e5f60001").add("sub net");
                    return d;
                }),
                Arguments.of("no mount name", SHARED_CACHE, (java.util.function.UnaryOperator<ObjectNode>) d -> {
                    d.remove("MountName");
                    return d;
                }),
                Arguments.of("a malformed mount name", SHARED_CACHE, (java.util.function.UnaryOperator<ObjectNode>) d ->
                        d.put("MountName", "mount/name")),
                Arguments.of("an empty subnet list", SHARED_CACHE, (java.util.function.UnaryOperator<ObjectNode>) d -> {
                    d.putArray("Subnets");
                    return d;
                }),
                Arguments.of("a nested object", SHARED_EFS, (java.util.function.UnaryOperator<ObjectNode>) d -> {
                    d.putObject("Extra").put("a", "b");
                    return d;
                }),
                Arguments.of("a numeric id", SHARED_EFS, (java.util.function.UnaryOperator<ObjectNode>) d ->
                        d.put("FileSystemId", 12345678)),
                Arguments.of("a malformed security group", SHARED_NETWORK,
                        (java.util.function.UnaryOperator<ObjectNode>) d -> d.put("SecurityGroupId", "group-1")));
    }

    @ParameterizedTest(name = "{0} in {1}")
    @MethodSource("refusedPublications")
    void aPublicationTheLauncherRefusesFailsTheExecutionAsDataStoreIncompleteNamingStoreAndParameter(String what,
            String parameter, java.util.function.UnaryOperator<ObjectNode> change) {
        String arn = createInMoto("TrainingTeamVision", "VisionStateMachineEDD2524C");
        preloadReports("TrainingTeamVision", "VisionStateMachineEDD2524C", List.of("SUCCEEDED"));
        String deployed = ssm.getParameter(r -> r.name(parameter)).parameter().value();
        ObjectNode changed = change.apply((ObjectNode) readTree(deployed));
        String value = changed == null ? "{\"FileSystemId\": \"fs-0123456789abcdef0\"," : changed.toString();
        String store = parameter.equals(SHARED_NETWORK) ? "TrainingDataShared/Network"
                : parameter.equals(SHARED_EFS) ? "TrainingDataShared/Features" : "TrainingDataShared/Lustre";
        String request = resourcesOfType(TEMPLATES.get("TrainingTeamVision"), "AWS::SSM::Parameter").stream()
                .filter(p -> p.get("Properties").path("Description").asText().startsWith("CreateTrainingJob request"))
                .findFirst().orElseThrow().get("Properties").get("Value").asText();
        String requestName = "/rehearsal/vision/request";
        ssm.putParameter(r -> r.name(requestName).type(ParameterType.STRING).value(request).overwrite(true));
        int before = requests().size();
        try {
            publish(parameter, value);
            JsonNode failed = run(arn, UUID.randomUUID().toString(), "{}");
            assertEquals("DataStoreIncomplete", failed.get("failure").asText(), what + ": " + failed);
            assertTrue(failed.get("cause").asText().contains(parameter) && failed.get("cause").asText().contains(store),
                    failed.toString());
            DataStoreNotReadyException refused = org.junit.jupiter.api.Assertions.assertThrows(
                    DataStoreNotReadyException.class, () -> new DeployedTrainingJobDefinition(ssm, requestName).document());
            assertEquals("DataStoreIncomplete", refused.getError(), what);
            assertEquals(parameter, refused.getParameterName());
            assertEquals(before, requests().size(), "no job starts");
        } finally {
            publish(parameter, deployed);
        }
    }

    @Test
    void theLauncherReadsTheSharedCacheAsPublishedWhenItStarts() throws InterruptedException {
        JsonNode template = TEMPLATES.get("TrainingTeamDetection");
        String document = resourcesOfType(template, "AWS::SSM::Parameter").stream()
                .filter(p -> p.get("Properties").path("Description").asText().startsWith("CreateTrainingJob request"))
                .findFirst().orElseThrow().get("Properties").get("Value").asText();
        assertTrue(document.contains("{{DataStore:" + SHARED_CACHE + ":FileSystemId}}"), document);
        assertTrue(document.contains("{{DataStore:" + SHARED_EFS + ":FileSystemId}}"), document);
        String name = "/rehearsal/detection/request";
        ssm.putParameter(r -> r.name(name).type(ParameterType.STRING).value(document).overwrite(true));
        String deployed = ssm.getParameter(r -> r.name(SHARED_CACHE)).parameter().value();
        try {
            TrainingJobLauncher launcher = new TrainingJobLauncher(sageMaker);
            String job = launcher.start(new DeployedTrainingJobDefinition(ssm, name).document(), "detr");
            assertEquals("Completed", launcher.waitForCompletion(job, Duration.ofSeconds(1), Duration.ofMinutes(1),
                    line -> { }).trainingJobStatusAsString());
            assertReads(requestNamed(job), readTree(deployed));
            assertReadsEfs(requestNamed(job), readTree(ssm.getParameter(r -> r.name(SHARED_EFS)).parameter().value()));
            assertRunsIn(requestNamed(job), readTree(ssm.getParameter(r -> r.name(SHARED_NETWORK)).parameter().value()));
            assertEquals(List.of(), problems());

            ssm.deleteParameter(r -> r.name(SHARED_CACHE));
            int before = requests().size();
            DataStoreNotReadyException e = org.junit.jupiter.api.Assertions.assertThrows(
                    DataStoreNotReadyException.class, () -> new DeployedTrainingJobDefinition(ssm, name).document());
            assertEquals("DataStoreNotPublished", e.getError());
            assertEquals(SHARED_CACHE, e.getParameterName());
            assertEquals(before, requests().size());
        } finally {
            publish(SHARED_CACHE, deployed);
        }
    }

    /** The request's EFS channel mounts the published file system, at the channel's own directory. */
    private static void assertReadsEfs(JsonNode request, JsonNode published) {
        List<JsonNode> efs = new ArrayList<>();
        for (JsonNode channel : request.get("InputDataConfig")) {
            JsonNode fs = channel.path("DataSource").path("FileSystemDataSource");
            if ("EFS".equals(fs.path("FileSystemType").asText())) {
                efs.add(fs);
            }
        }
        assertEquals(1, efs.size(), request.toString());
        assertEquals(published.get("FileSystemId").asText(), efs.get(0).get("FileSystemId").asText());
        assertTrue(efs.get(0).get("DirectoryPath").asText().startsWith("/features/"), efs.toString());
    }

    /** The request runs in the published network's training security group (the first). */
    private static void assertRunsIn(JsonNode request, JsonNode network) {
        assertEquals(network.get("SecurityGroupId").asText(),
                request.get("VpcConfig").get("SecurityGroupIds").get(0).asText(), request.toString());
    }

    /** The request's Lustre channel and subnets are the published cache's. */
    private static void assertReads(JsonNode request, JsonNode published) {
        JsonNode lustre = null;
        for (JsonNode channel : request.get("InputDataConfig")) {
            JsonNode fs = channel.path("DataSource").path("FileSystemDataSource");
            if ("FSxLustre".equals(fs.path("FileSystemType").asText())) {
                lustre = fs;
            }
        }
        assertTrue(lustre != null, request.toString());
        assertEquals(published.get("FileSystemId").asText(), lustre.get("FileSystemId").asText());
        assertTrue(lustre.get("DirectoryPath").asText().startsWith("/" + published.get("MountName").asText() + "/"),
                lustre.toString());
        assertEquals(published.get("Subnets"), request.get("VpcConfig").get("Subnets"));
    }

    @Test
    void thePreloadHandlerStartsOneExecutionEvenWhenCreateIsRetriedAndTheDeployWaitsUntilItSucceeded() {
        String stack = "TrainingDataQuickstart";
        Map<String, Object> event = createEvent(stack);
        assertNotEquals("0", properties(event).get("WaitSeconds"), "the quickstart's deploy waits for the preload");
        String stateMachine = preloadStateMachine(stack);
        PreloadHandler handler = new PreloadHandler(sfn, sageMaker, cloudFormation, fsx, Clock.systemUTC());
        int before = executionsOf(stateMachine).size();

        Map<String, Object> created = handler.onEvent(event, new RecordingContext());
        String name = (String) created.get("PhysicalResourceId");
        Map<String, Object> retried = handler.onEvent(event, new RecordingContext());
        assertEquals(created, retried, "a retried Create answers the same");
        List<ExecutionListItem> executions = executionsOf(stateMachine);
        assertEquals(before + 1, executions.size(), "a retried Create starts no second execution");
        String executionArn = (String) ((Map<?, ?>) created.get("Data")).get(PreloadHandler.EXECUTION_ARN);
        DescribeExecutionResponse execution = sfn.describeExecution(r -> r.executionArn(executionArn));
        assertEquals(name, execution.name());
        assertEquals(ExecutionStatus.RUNNING, execution.status());
        JsonNode input = readTree(execution.input());
        assertEquals(properties(event).get("DataLocations"), JSON.convertValue(input.get("DataLocations").findValues("Uri"),
                List.class));
        assertEquals(properties(event).get("FileSystemId"), input.get("FileSystemId").asText());

        event.put("PhysicalResourceId", name);
        event.put("Data", created.get("Data"));
        assertEquals(false, handler.isComplete(event, new RecordingContext()).get("IsComplete"), "RUNNING: not yet");

        // What the Warm state sends, the preload state machine run with this execution's name and input (moto cannot
        // evaluate JSONata): the worker's request, checked by the recorder.
        ObjectNode request = workerRequest(stack, name, input);
        assertEquals(name, request.remove("TrainingJobName").asText(), "the first worker is named like its execution");
        sageMaker.createTrainingJob(TrainingJobRequestJson.toRequest(request.toString(), name));
        moto.call(Map.of("cmd", "script-execution", "arn", executionArn, "statuses", List.of("SUCCEEDED"),
                "output", Map.of("Status", "WARMED", "WorkerJobName", name, "EmptyLocations", List.of())));
        Map<String, Object> complete = handler.isComplete(event, new RecordingContext());
        assertEquals(true, complete.get("IsComplete"));
        assertEquals("WARMED", ((Map<?, ?>) complete.get("Data")).get(PreloadHandler.STATUS));
        assertEquals(List.of(), problems(), "the worker's request, as the Warm state sends it");

        event.put("RequestType", "Delete");
        assertEquals(name, handler.onEvent(event, new RecordingContext()).get("PhysicalResourceId"));
        assertEquals(true, handler.isComplete(event, new RecordingContext()).get("IsComplete"),
                "a finished preload whose worker completed is deleted at once");
    }

    /** The preload's Create as its first delivery runs it, its execution then stopped (ABORTED) as a failed one. */
    private Map<String, Object> createdThenStopped(PreloadHandler handler, Map<String, Object> event) {
        Map<String, Object> created = handler.onEvent(event, new RecordingContext());
        String arn = (String) ((Map<?, ?>) created.get("Data")).get(PreloadHandler.EXECUTION_ARN);
        sfn.stopExecution(r -> r.executionArn(arn).error("WorkerFailed").cause("the first delivery's warm-up"));
        return created;
    }

    /**
     * A retried deployment sends the failed Create again with the same RequestId (aws-cdk#35957): moto's Step Functions
     * refuses the first execution's name again once it ended (here stopped: ABORTED), and the handler starts the
     * request's next one. (While it runs, moto answers the same name and input with that execution, as AWS does.)
     */
    @Test
    void aRetriedCreateWhosePreloadExecutionFailedStartsTheRequestsNextExecution() {
        String stack = "TrainingDataShared";
        Map<String, Object> event = createEvent(stack);
        String stateMachine = preloadStateMachine(stack);
        PreloadHandler handler = new PreloadHandler(sfn, sageMaker, cloudFormation, fsx, Clock.systemUTC());
        int before = executionsOf(stateMachine).size();
        Map<String, Object> created = createdThenStopped(handler, event);
        String first = (String) ((Map<?, ?>) created.get("Data")).get(PreloadHandler.EXECUTION_ARN);

        Map<String, Object> retried = handler.onEvent(event, new RecordingContext());

        String second = (String) ((Map<?, ?>) retried.get("Data")).get(PreloadHandler.EXECUTION_ARN);
        assertNotEquals(first, second);
        assertEquals(before + 2, executionsOf(stateMachine).size(), "one more execution, no more");
        DescribeExecutionResponse execution = sfn.describeExecution(r -> r.executionArn(second));
        assertEquals(retried.get("PhysicalResourceId"), execution.name());
        assertEquals(ExecutionStatus.RUNNING, execution.status());
        assertEquals(sfn.describeExecution(r -> r.executionArn(first)).input(), execution.input(), "the same input");
    }

    /**
     * A late duplicate of that Create, delivered once the stack is done with it (here a stack moto created:
     * CREATE_COMPLETE, read through moto's DescribeStacks), starts no next execution: the failed one is kept.
     */
    @Test
    void aLateDuplicateOfAFailedPreloadCreateAfterTheStackSettledStartsNothing() {
        String stack = "TrainingDataShared";
        Map<String, Object> event = createEvent(stack);
        event.put("StackId", cloudFormation.createStack(r -> r.stackName("Settled" + UUID.randomUUID().toString()
                .substring(0, 8)).templateBody("{\"Resources\":{\"Topic\":{\"Type\":\"AWS::SNS::Topic\"}}}"))
                .stackId());
        String stateMachine = preloadStateMachine(stack);
        PreloadHandler handler = new PreloadHandler(sfn, sageMaker, cloudFormation, fsx, Clock.systemUTC());
        int before = executionsOf(stateMachine).size();
        Map<String, Object> created = createdThenStopped(handler, event);
        RecordingContext duplicate = new RecordingContext();

        Map<String, Object> late = handler.onEvent(event, duplicate);

        assertEquals(created.get("PhysicalResourceId"), late.get("PhysicalResourceId"));
        assertEquals(before + 1, executionsOf(stateMachine).size(), "no next execution");
        assertTrue(duplicate.lines().stream().anyMatch(line -> line.endsWith(" is CREATE_COMPLETE")),
                duplicate.lines().toString());
    }

    @Test
    void deletingAPreloadStopsItsRunningExecutionAndCompletes() {
        String stack = "TrainingDataShared";
        Map<String, Object> event = createEvent(stack);
        preloadStateMachine(stack);
        PreloadHandler handler = new PreloadHandler(sfn, sageMaker, cloudFormation, fsx, Clock.systemUTC());
        Map<String, Object> created = handler.onEvent(event, new RecordingContext());
        String executionArn = (String) ((Map<?, ?>) created.get("Data")).get(PreloadHandler.EXECUTION_ARN);
        assertEquals(ExecutionStatus.RUNNING, sfn.describeExecution(r -> r.executionArn(executionArn)).status());

        event.put("RequestType", "Delete");
        event.put("PhysicalResourceId", created.get("PhysicalResourceId"));
        assertEquals(created.get("PhysicalResourceId"), handler.onEvent(event, new RecordingContext())
                .get("PhysicalResourceId"));
        assertEquals(ExecutionStatus.ABORTED, sfn.describeExecution(r -> r.executionArn(executionArn)).status());
        assertEquals(true, handler.isComplete(event, new RecordingContext()).get("IsComplete"),
                "stopped before any worker started: nothing holds the VPC");
    }

    // ------------------------------------------------------------------------------------------ helpers

    /** Creates the resolved state machine in moto (.sync made request-response, waits 0 s) and returns its ARN. */
    private static String createInMoto(String stack, String machine) {
        ObjectNode definition = definition(stack, machine);
        rehearsable(definition);
        return sfn.createStateMachine(r -> r.name(machine + "-" + ++machines).roleArn(ROLE)
                .definition(definition.toString())).stateMachineArn();
    }

    private static ObjectNode definition(String stack, String machine) {
        return (ObjectNode) readTree(TEMPLATES.get(stack).get("Resources").get(machine).get("Properties")
                .get("DefinitionString").asText());
    }

    private static void rehearsable(JsonNode node) {
        if (node instanceof ObjectNode object) {
            if (object.path("Resource").asText().endsWith(SYNC)) {
                object.put("Resource", object.get("Resource").asText().replace(".sync", ""));
            }
            if ("Wait".equals(object.path("Type").asText())) {
                object.remove(List.of("SecondsPath", "Timestamp", "TimestampPath"));
                object.put("Seconds", 0);
            }
        }
        node.forEach(MotoRehearsalTest::rehearsable);
    }

    /**
     * Makes the preload execution the training state machine waits for exist in moto (an execution of the preload
     * state machine, created from its synthesized definition, recorded but not interpreted), puts its ARN into the
     * parameter training reads it from (as CloudFormation does from the preload's {@code ExecutionArn}), and makes it
     * report {@code statuses} to its next DescribeExecution calls.
     *
     * @return the execution's ARN
     */
    private static String preloadReports(String stack, String machine, List<String> statuses) {
        String parameter = currentExecutionParameter(stack, machine);
        String execution = pointer(parameter).asText();
        ssm.putParameter(r -> r.name(parameter).type(ParameterType.STRING).value(execution).overwrite(true));
        String stateMachine = execution.substring(0, execution.lastIndexOf(':')).replace(":execution:", ":stateMachine:");
        createPreloadStateMachine(stack, stateMachine);
        try {
            sfn.describeExecution(r -> r.executionArn(execution));
        } catch (ExecutionDoesNotExistException e) {
            sfn.startExecution(r -> r.stateMachineArn(stateMachine).name(execution.substring(execution.lastIndexOf(':') + 1)));
        }
        moto.call(Map.of("cmd", "script-execution", "arn", execution, "statuses", statuses));
        return execution;
    }

    /** The name of the parameter the training state machine reads the preload's current execution from. */
    private static String currentExecutionParameter(String stack, String machine) {
        return definition(stack, machine).get("States").get("FindPrerequisite0").get("Parameters").get("Name").asText();
    }

    /**
     * The resolved value of the parameter named {@code name} (named {@code CFN-<logical id>-<hash>} by the resolver,
     * as CloudFormation names a parameter without a Name), in whichever example stack defines it.
     */
    private static JsonNode pointer(String name) {
        String logicalId = name.split("-")[1];
        return TEMPLATES.values().stream().map(t -> t.path("Resources").path(logicalId))
                .filter(r -> "AWS::SSM::Parameter".equals(r.path("Type").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no parameter " + name + " in the examples"))
                .path("Properties").path("Value");
    }

    /** The stack's preload state machine in moto, under its resolved name, from its synthesized definition. */
    private static String preloadStateMachine(String stack) {
        String arn = properties(createEvent(stack)).get("StateMachineArn").toString();
        createPreloadStateMachine(stack, arn);
        return arn;
    }

    private static void createPreloadStateMachine(String stack, String arn) {
        if (!CREATED.add(arn)) {
            return;
        }
        // The resolver names a state machine '<logical id>-<hash>'; a team's preload lives in the data stack.
        String name = arn.substring(arn.lastIndexOf(':') + 1);
        String logicalId = name.substring(0, name.lastIndexOf('-'));
        JsonNode machine = Stream.concat(Stream.of(TEMPLATES.get(stack)), TEMPLATES.values().stream())
                .map(template -> template.get("Resources").get(logicalId))
                .filter(resource -> resource != null && isPreload(resource))
                .findFirst().orElseThrow(() -> new AssertionError("no preload state machine " + logicalId));
        String created = sfn.createStateMachine(r -> r.name(arn.substring(arn.lastIndexOf(':') + 1)).roleArn(ROLE)
                .definition(machine.get("Properties").get("DefinitionString").asText())).stateMachineArn();
        assertEquals(arn, created);
        moto.call(Map.of("cmd", "record-only", "stateMachineArn", arn));
    }

    /** A CloudFormation Create of the stack's preload custom resource, with its resolved properties. */
    private static Map<String, Object> createEvent(String stack) {
        JsonNode preload = resourcesOfType(TEMPLATES.get(stack), "Custom::LustrePreload").get(0).get("Properties");
        Map<String, Object> properties = JSON.convertValue(preload, new TypeReference<Map<String, Object>>() { });
        properties.remove("ServiceToken");
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("RequestType", "Create");
        event.put("RequestId", UUID.randomUUID().toString());
        event.put("StackId", "arn:aws:cloudformation:us-east-1:123456789012:stack/" + stack + "/" + UUID.randomUUID());
        event.put("LogicalResourceId", "Preload");
        event.put("ResourceProperties", properties);
        return event;
    }

    private static Map<?, ?> properties(Map<String, Object> event) {
        return (Map<?, ?>) event.get("ResourceProperties");
    }

    /**
     * The worker's CreateTrainingJob request: the Warm state's Arguments as the stack's preload state machine, run by
     * {@link JsonataAslSimulator} with this execution's name and input, sends them when every location holds data
     * and FSx's import task succeeds.
     */
    @SuppressWarnings("unchecked")
    private static ObjectNode workerRequest(String stack, String executionName, JsonNode input) {
        JsonNode machine = resourcesOfType(TEMPLATES.get(stack), "AWS::StepFunctions::StateMachine").stream()
                .filter(MotoRehearsalTest::isPreload)
                .findFirst().orElseThrow();
        Map<String, Object> definition = (Map<String, Object>) Json.value(machine.get("Properties").get("DefinitionString")
                .asText());
        List<Object> sent = new ArrayList<>();
        JsonataAslSimulator.Run run = new JsonataAslSimulator(definition).run(executionName, Json.value(input.toString()),
                Instant.now(), call -> {
                    if (call.resource().endsWith(":s3:listObjectsV2")) {
                        return Outcome.result(Map.of("KeyCount", 1, "Contents", List.of(Map.of("Key", "train/0.jpg"))));
                    }
                    if (call.resource().endsWith(":fsx:createDataRepositoryTask")) {
                        return Outcome.result(Map.of("DataRepositoryTask", Map.of("TaskId", "task-0123456789abcdef0")));
                    }
                    if (call.resource().endsWith(":fsx:describeDataRepositoryTasks")) {
                        return Outcome.result(Map.of("DataRepositoryTasks", List.of(Map.of("Lifecycle", "SUCCEEDED"))));
                    }
                    sent.add(call.arguments());
                    return Outcome.result(Map.of("TrainingJobStatus", "Completed"));
                });
        assertEquals("SUCCEEDED", run.status(), run.toString());
        assertEquals(1, sent.size());
        return JSON.valueToTree(sent.get(0));
    }

    /** The preload's state machine is JSONata throughout; the training state machine's Fail states are JSONata too. */
    private static boolean isPreload(JsonNode machine) {
        String definition = machine.get("Properties").get("DefinitionString").asText();
        return definition.contains("\"QueryLanguage\":\"JSONata\"") && !definition.contains("\"NameTrainingJob\"");
    }

    private static List<ExecutionListItem> executionsOf(String stateMachineArn) {
        return sfn.listExecutions(r -> r.stateMachineArn(stateMachineArn)).executions();
    }

    private static String resumeFrom(String execution) {
        return "{\"resumeFrom\": \"" + execution + "\"}";
    }

    private static String trainingPrefix(String stack, String machine) {
        String format = definition(stack, machine).findValue("trainingJobName.$").asText();
        return format.substring(format.indexOf('\'') + 1, format.indexOf("-{}"));
    }

    /** {@code s3://<bucket>/} of the request's output location: the definition's data bucket. */
    private static String bucketUri(JsonNode request) {
        String output = request.get("OutputDataConfig").get("S3OutputPath").asText();
        return "s3://" + output.substring("s3://".length()).split("/", 2)[0] + "/";
    }

    private static JsonNode run(String stateMachineArn, String name, String input) {
        String execution = sfn.startExecution(r -> r.stateMachineArn(stateMachineArn).name(name).input(input))
                .executionArn();
        return moto.call(Map.of("cmd", "await-execution", "arn", execution, "timeout", 120));
    }

    /** Uploads one object under the dataset's S3 location (its data repository association) and returns the bucket. */
    private static String uploadDataset(JsonNode template, String relativeKey) {
        String repository = resourcesOfType(template, "Custom::DataRepositoryAssociation").get(0).get("Properties")
                .get("DataRepositoryPath").asText();
        String bucketAndPrefix = repository.substring("s3://".length());
        String bucket = bucketAndPrefix.split("/", 2)[0];
        String datasetPrefix = bucketAndPrefix.substring(bucket.length() + 1);
        s3.createBucket(r -> r.bucket(bucket));
        s3.putObject(r -> r.bucket(bucket).key(datasetPrefix + relativeKey), RequestBody.fromString("data"));
        return bucket;
    }

    private static List<JsonNode> resourcesOfType(JsonNode template, String type) {
        List<JsonNode> found = new ArrayList<>();
        template.get("Resources").forEach(r -> {
            if (type.equals(r.get("Type").asText())) {
                found.add(r);
            }
        });
        assertNotEquals(0, found.size(), "no " + type);
        return found;
    }

    private static JsonNode readTree(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("not JSON: " + json, e);
        }
    }

    private static List<JsonNode> requests() {
        List<JsonNode> all = new ArrayList<>();
        moto.call(Map.of("cmd", "training-requests")).get("requests").forEach(all::add);
        return all;
    }

    private static JsonNode requestNamed(String name) {
        return requests().stream().filter(r -> name.equals(r.get("TrainingJobName").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("SageMaker received no CreateTrainingJob for " + name));
    }

    private static List<String> problems() {
        List<String> all = new ArrayList<>();
        moto.call(Map.of("cmd", "training-requests")).get("problems").forEach(p -> all.add(p.asText()));
        return all;
    }
}
