package io.github.trainingdata.cdk.preload;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.trainingdata.cdk.internal.CustomResourceProvider;
import io.github.trainingdata.cdk.Intrinsics;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.NagFindings;
import io.github.trainingdata.cdk.PolicyStatements;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.performance.PreloadDefaults;
import io.github.trainingdata.cdk.limits.SageMakerLimits;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.LustreLocation;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.CfnParameter;
import software.amazon.awscdk.CfnResource;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.fsx.LustreDataCompressionType;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.IConstruct;

/**
 * Construct tests of {@link LustrePreload}: the custom resource and the worker request it carries, the
 * bundled Java handlers and their IAM, how training waits for the warm-up, and the synth-time rules.
 */
class LustrePreloadTest {
    private static final String DISPATCHER = "io.github.trainingdata.cdk.internal.dispatch.CustomResourceDispatcher::handle";
    private static final String TRAIN_IMAGE = "123456789012.dkr.ecr.us-east-1.amazonaws.com/train:1";
    private static final String TOOLS_IMAGE = "123456789012.dkr.ecr.us-east-1.amazonaws.com/tools:1";
    /** The .sync integration's actions on the worker jobs, for the preload state machine. */
    private static final List<String> WORKER_ACTIONS = List.of("sagemaker:CreateTrainingJob",
            "sagemaker:DescribeTrainingJob", "sagemaker:StopTrainingJob", "sagemaker:ListTags");
    /** isComplete reads the worker's metrics and, on delete, stops it; only the state machine starts it. */
    private static final List<String> WATCHER_ACTIONS = List.of(
            "sagemaker:DescribeTrainingJob", "sagemaker:StopTrainingJob");
    private static final List<String> EXECUTION_ACTIONS = List.of("states:DescribeExecution",
            "states:GetExecutionHistory", "states:StopExecution");
    private static final Map<String, Object> ONLY_FOR_SAGEMAKER =
            Map.of("StringEquals", Map.of("iam:PassedToService", "sagemaker.amazonaws.com"));
    private static final ObjectMapper JSON = Json.MAPPER;
    /** The worker's name: the execution's, with {@code -<attempt>} from the second attempt on. */
    private static final String WORKER_NAME = "{% ($attempt = 1 ? $states.context.Execution.Name : "
            + "$states.context.Execution.Name & '-' & $attempt) %}";

    /**
     * Each preloaded cache's custom resources act as roles of their own: the provider function's role holds the same
     * one statement with 1 and 8 preloaded caches in a stack, and 8 synthesize (before, each added a policy to that
     * role, and about 3 or 4 reached IAM's 10,240 characters: CUSTOM_RESOURCE_GRANTS_SIZE).
     */
    @Test
    void theProvidersRoleIsTheSameWithOneAndEightPreloadedCachesAndEightSynthesize() {
        Map<Integer, List<Map<String, Object>>> statements = new LinkedHashMap<>();
        for (int count : List.of(1, 8)) {
            Fixture f = new Fixture();
            for (int i = 1; i <= count; i++) {
                LustreCache cache = i == 1 ? f.cache : f.cache("Lustre" + i, "");
                new LustrePreload(f.stack, "Preload" + i, f.props().cache(cache)
                        .image(TrainingImage.fromUri(TOOLS_IMAGE)).build());
            }
            f.synth();
            statements.put(count, PolicyStatements.statements(f.template, Map.of("Ref", f.providerRole())));
            assertEquals(2 * count, f.resources.entrySet().stream().filter(r -> "AWS::IAM::Role".equals(r.getValue()
                    .get("Type")) && r.getKey().contains("HandlerRole")).count(), "a role per cache and per preload");
        }
        assertEquals(List.of("states:StartExecution", "states:DescribeExecution", "sts:AssumeRole"), statements.get(1)
                .stream().map(statement -> statement.get("Action")).toList(), "its waiter's two and one AssumeRoles");
        assertEquals(statements.get(1), statements.get(8), "the provider's role does not grow with the caches");
    }

    /** A stack with a network, a data bucket and a Lustre cache; a definition and a preload when asked. */
    static final class Fixture {
        final Stack stack = TestApps.stack();
        final TrainingNetwork network = new TrainingNetwork(stack, "Network");
        final TrainingDataBucket data = new TrainingDataBucket(stack, "Data",
                TrainingDataBucketProps.builder().datasetPrefix("imagenet").build());
        final LustreCache cache = cache("Lustre", "");
        TrainingJobDefinition definition;
        LustrePreload preload;
        Template template;
        Map<String, Map<String, Object>> resources;

        LustreCache cache(String id, String prefix) {
            return new LustreCache(stack, id, LustreCacheProps.builder().network(network)
                    .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(data).prefix(prefix).build())).build());
        }

        /** @return the directories {@code paths} of the cache's dataset */
        List<LustreLocation> at(LustreCache of, List<String> paths) {
            return paths.stream().map(path -> of.location("imagenet", path)).toList();
        }

        TrainingJobDefinitionProps.Builder definitionProps(String jobNamePrefix) {
            return TrainingJobDefinitionProps.builder()
                    .jobNamePrefix(jobNamePrefix)
                    .trainingImage(TrainingImage.fromUri(TRAIN_IMAGE))
                    .instanceType("ml.p3.2xlarge")
                    .outputBucket(data)
                    .channels(List.of(LustreChannel.builder("train").cache(cache).path("train").build()));
        }

        Fixture define(TrainingJobDefinitionProps.Builder props) {
            definition = new TrainingJobDefinition(stack, "Training", props.build());
            return this;
        }

        /** Props for a preload of this cache, for the definition when there is one. */
        LustrePreloadProps.Builder props() {
            return LustrePreloadProps.builder().cache(cache).definition(definition);
        }

        /** Adds the preload and synthesizes the stack. */
        Fixture preload(LustrePreloadProps.Builder props) {
            preload = new LustrePreload(stack, "Preload", props.build());
            return synth();
        }

        @SuppressWarnings("unchecked")
        Fixture synth() {
            template = Template.fromStack(stack);
            resources = (Map<String, Map<String, Object>>) template.toJSON().get("Resources");
            return this;
        }

        /** @return a property of a preload's custom resource, as deployed */
        String property(LustrePreload of, String name) {
            return Intrinsics.string(properties(id(of.getResource())).get(name));
        }

        /** Adds the preload without synthesizing, for the rules checked at construction. */
        void add(LustrePreloadProps.Builder props) {
            new LustrePreload(stack, "Preload", props.build());
        }

        String id(IConstruct construct) {
            return stack.getLogicalId((CfnElement) construct.getNode().getDefaultChild());
        }

        /** @return a token's value as deployed, with the placeholders of {@link Intrinsics} */
        String value(String token) {
            return Intrinsics.string(stack.resolve(token));
        }

        String preloadId() {
            return id(preload.getResource());
        }

        String currentExecutionId() {
            return id((IConstruct) preload.getCurrentExecutionParameter());
        }

        Map<String, Object> preloadProperties() {
            return properties(preloadId());
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> properties(String logicalId) {
            return (Map<String, Object>) resources.get(logicalId).get("Properties");
        }

        @SuppressWarnings("unchecked")
        List<String> dependsOn(IConstruct construct) {
            Object dependsOn = resources.get(id(construct)).get("DependsOn");
            return dependsOn == null ? List.of() : (List<String>) dependsOn;
        }

        /** @return the preload state machine's definition, evaluated and parsed */
        JsonNode preloadDefinition(LustrePreload of) throws IOException {
            return JSON.readTree(Intrinsics.string(properties(id(of.getStateMachine())).get("DefinitionString")));
        }

        /**
         * @return the worker's CreateTrainingJob request, as the state machine's Warm state sends it when every
         *         location holds data: without its name, with every channel CheckData assigns
         */
        JsonNode workerRequest() throws IOException {
            JsonNode definition = preloadDefinition(preload);
            ObjectNode arguments = ((ObjectNode) definition.at("/States/Warm/Arguments")).deepCopy();
            assertEquals(WORKER_NAME, arguments.remove("TrainingJobName").asText());
            assertEquals("{% [$filter($workerChannels, function($c, $i) { $found[$i] > 0 })] %}",
                    arguments.get("InputDataConfig").asText(), "only the channels of locations that hold data");
            arguments.set("InputDataConfig", definition.at("/States/CheckData/Assign/workerChannels"));
            return arguments;
        }

        /** @return the training state machine's definition, evaluated and parsed */
        JsonNode trainingDefinition() throws IOException {
            return JSON.readTree(Intrinsics.string(
                    properties(id(definition.getStateMachine())).get("DefinitionString")));
        }

        /** @return the statements of the preload's grants to the stack's provider, resources evaluated */
        List<Map<String, Object>> grants(LustrePreload of) {
            return PolicyStatements.of(template.toJSON().get("Resources") instanceof Map<?, ?> all
                    ? (Map<String, Object>) all.get(id(of.getNode().findChild("HandlerRole"))) : Map.of()).stream()
                    .map(s -> {
                        Map<String, Object> statement = new LinkedHashMap<>(s);
                        statement.put("Resource", Intrinsics.evaluate(s.get("Resource")));
                        return (Map<String, Object>) statement;
                    }).toList();
        }

        /** @return the logical id of the role of the stack's provider function */
        String providerRole() {
            return id(CustomResourceProvider.of(stack, null).getHandlerRole());
        }

        /** @return the statements of every policy attached to the role, resources evaluated */
        List<Map<String, Object>> statements(String roleLogicalId) {
            return PolicyStatements.statements(template, Map.of("Ref", roleLogicalId)).stream().map(s -> {
                Map<String, Object> statement = new LinkedHashMap<>(s);
                statement.put("Resource", Intrinsics.evaluate(s.get("Resource")));
                return statement;
            }).toList();
        }
    }

    private static Fixture withDefinition(String jobNamePrefix) {
        Fixture f = new Fixture();
        return f.define(f.definitionProps(jobNamePrefix));
    }

    /** {@code warm-<id>-<8 hex of the preload's address, after its "c8" marker>}. */
    private static String workerPrefix(String id, LustrePreload preload) {
        return "warm-" + id + "-" + preload.getNode().getAddr().substring(2, 10);
    }

    private static String workerJobs(String workerPrefix) {
        return "arn:REF(AWS::Partition):sagemaker:REF(AWS::Region):REF(AWS::AccountId):training-job/" + workerPrefix + "-*";
    }

    private static Map<String, Object> statement(Object actions, Object resource) {
        return Map.of("Action", actions, "Effect", "Allow", "Resource", resource);
    }

    /** The statements with each list of actions sorted, as aws-cdk-lib's policy minimization renders them. */
    private static List<Map<String, Object>> sortedActions(List<Map<String, Object>> statements) {
        return statements.stream().map(s -> {
            Map<String, Object> copy = new LinkedHashMap<>(s);
            if (s.get("Action") instanceof List<?> actions) {
                copy.put("Action", actions.stream().map(String::valueOf).sorted().toList());
            }
            return (Map<String, Object>) copy;
        }).toList();
    }

    private static Map<String, Object> watcherStatement(String workerPrefix) {
        return statement(WATCHER_ACTIONS, workerJobs(workerPrefix));
    }

    private static Map<String, Object> passRoleStatement(String roleArn) {
        return Map.of("Action", "iam:PassRole", "Condition", ONLY_FOR_SAGEMAKER, "Effect", "Allow",
                "Resource", roleArn);
    }

    /** The statements of a preload's grants to the stack's provider. */
    private static List<Map<String, Object>> grantStatements(Fixture f, LustrePreload of) {
        String machine = f.id(of.getStateMachine());
        Map<String, Object> executions = statement(EXECUTION_ACTIONS,
                "arn:REF(AWS::Partition):states:REF(AWS::Region):REF(AWS::AccountId):execution:GETATT(" + machine + ".Name):*");
        String prefix = f.property(of, "WorkerJobNamePrefix");
        Map<String, Object> describeTasks = statement("fsx:DescribeDataRepositoryTasks", "*");
        Map<String, Object> cancelTasks = statement("fsx:CancelDataRepositoryTask",
                "arn:REF(AWS::Partition):fsx:REF(AWS::Region):REF(AWS::AccountId):task/*");
        return List.of(statement(List.of("states:ListExecutions", "states:StartExecution"), "REF(" + machine + ")"),
                statement("cloudformation:DescribeStacks", "REF(AWS::StackId)"), executions, describeTasks, cancelTasks,
                watcherStatement(prefix));
    }

    private static Map<String, String> workerEnvironment(int parallelism, int batchSize) {
        Map<String, String> environment = new LinkedHashMap<>(WarmUpScript.load().environment());
        environment.put("PRELOAD_ROOT", "/opt/ml/input/data");
        environment.put("PRELOAD_PARALLELISM", Integer.toString(parallelism));
        environment.put("PRELOAD_BATCH_SIZE", Integer.toString(batchSize));
        return environment;
    }

    private static Map<String, String> metricDefinitions(JsonNode request) {
        Map<String, String> metrics = new LinkedHashMap<>();
        request.at("/AlgorithmSpecification/MetricDefinitions")
                .forEach(m -> metrics.put(m.get("Name").asText(), m.get("Regex").asText()));
        return metrics;
    }

    private static Map<?, ?> map(JsonNode node) {
        return JSON.convertValue(node, Map.class);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** A preload of train/ and val/ for a definition; the deploy waits (the default). */
    @Nested
    class Waiting {
        static Fixture f;

        @BeforeAll
        static void synthesize() {
            f = withDefinition("resnet");
            f.preload(f.props().locations(f.at(f.cache, List.of("train", "val"))));
        }

        @Test
        void isACustomLustrePreloadThatStartsItsStateMachineAndWaits55Minutes() {
            String bucket = f.value(f.data.getBucketName());
            Map<String, Object> expected = new LinkedHashMap<>();
            expected.put("WorkerJobNamePrefix", workerPrefix("preload", f.preload));
            expected.put("StateMachineArn", "REF(" + f.id(f.preload.getStateMachine()) + ")");
            expected.put("FileSystemId", f.value(f.cache.getFileSystemId()));
            expected.put("DataLocations", List.of("s3://" + bucket + "/imagenet/train/", "s3://" + bucket + "/imagenet/val/"));
            expected.put("WaitSeconds", "3300");
            Map<String, Object> properties = f.preloadProperties();
            for (Map.Entry<String, Object> entry : expected.entrySet()) {
                Object actual = properties.get(entry.getKey());
                assertEquals(entry.getValue(), actual instanceof List<?> list
                        ? list.stream().map(Intrinsics::string).toList() : Intrinsics.string(actual), entry.getKey());
            }
            assertEquals(List.of("ServiceToken", "WorkerJobNamePrefix", "StateMachineArn", "FileSystemId",
                    "DataLocations", "WarmKey", "WaitSeconds", "RoleArn"), new ArrayList<>(properties.keySet()));
            f.template.resourceCountIs("Custom::LustrePreload", 1);
        }

        @Test
        void workerMountsEachPathAsAFileModeLustreChannel() throws IOException {
            String mount = "/" + f.value(f.cache.getMountName());
            String channels = """
                    [%s, %s]""".formatted(channel("warm0", mount + "/imagenet/train"), channel("warm1", mount + "/imagenet/val"));
            JsonNode request = f.workerRequest();
            assertEquals(JSON.readTree(channels), request.get("InputDataConfig"));
            assertEquals("File", request.at("/AlgorithmSpecification/TrainingInputMode").asText());
        }

        private String channel(String name, String directory) {
            return """
                    {"ChannelName": "%s", "InputMode": "File", "DataSource": {"FileSystemDataSource": {
                      "FileSystemId": "%s", "FileSystemAccessMode": "ro", "FileSystemType": "FSxLustre",
                      "DirectoryPath": "%s"}}}""".formatted(name, f.value(f.cache.getFileSystemId()), directory);
        }

        @Test
        void workerRunsTheWarmUpScriptInTheDefinitionsImage() throws IOException {
            JsonNode request = f.workerRequest();
            assertEquals(TRAIN_IMAGE, request.at("/AlgorithmSpecification/TrainingImage").asText());
            assertEquals(WarmUpScript.load().containerEntrypoint(),
                    JSON.convertValue(request.at("/AlgorithmSpecification/ContainerEntrypoint"), List.class));
            assertEquals(workerEnvironment(PreloadDefaults.DEFAULT_PARALLELISM, PreloadDefaults.DEFAULT_BATCH_SIZE),
                    map(request.get("Environment")));
            assertEquals(WarmUpScript.metricDefinitions(), metricDefinitions(request));
            assertEquals(4, request.at("/AlgorithmSpecification/MetricDefinitions").size());
        }

        @Test
        void workerRunsAsTheDefinitionInItsNetworkAndWritesBesideItsOutput() throws IOException {
            JsonNode request = f.workerRequest();
            assertEquals(f.value(f.definition.getRole().getRoleArn()), request.get("RoleArn").asText());
            assertEquals(Map.of(
                    "SecurityGroupIds", List.of(f.value(f.network.getTrainingSecurityGroup().getSecurityGroupId())),
                    "Subnets", List.of(f.value(f.network.getDataSubnet().getSubnetId()))),
                    map(request.get("VpcConfig")));
            assertEquals(Map.of("S3OutputPath", "s3://" + f.value(f.data.getBucketName())
                    + "/training-output/preload-worker/"), map(request.get("OutputDataConfig")));
            assertEquals(Map.of("InstanceType", "ml.m5.xlarge", "InstanceCount", 1, "VolumeSizeInGB", 30),
                    map(request.get("ResourceConfig")));
            assertEquals(Map.of("MaxRuntimeInSeconds", 43200), map(request.get("StoppingCondition")));
        }

        @Test
        void noStringOfTheWorkerRequestReadsAsAJsonataExpression() throws IOException {
            List<String> strings = new ArrayList<>();
            collectStrings(f.workerRequest(), strings);
            assertTrue(strings.size() > 10, strings.toString());
            for (String value : strings) {
                assertFalse(value.startsWith("{%") && value.endsWith("%}"), value);
            }
        }

        private void collectStrings(JsonNode node, List<String> strings) {
            if (node.isTextual()) {
                strings.add(node.asText());
            }
            node.forEach(child -> collectStrings(child, strings));
        }

        @Test
        void theStateMachineChecksEachLocationImportsThoseWithDataThenRunsTheWorkerWithRetries() throws IOException {
            JsonNode asl = f.preloadDefinition(f.preload);
            assertEquals("JSONata", asl.get("QueryLanguage").asText());
            assertEquals(12 * 3600 + 55 * 60 + 12 * 3600 + 3600, asl.get("TimeoutSeconds").asInt(),
                    "import, the worker's retry window, the worker, and an hour for the rest");
            Map<String, String> transitions = new LinkedHashMap<>();
            asl.get("States").fields().forEachRemaining(state -> {
                List<String> next = new ArrayList<>();
                state.getValue().path("Choices").forEach(rule -> next.add(rule.get("Next").asText()));
                state.getValue().path("Catch").forEach(catcher -> next.add("catch:" + catcher.get("Next").asText()));
                for (String field : List.of("Default", "Next")) {
                    if (state.getValue().has(field)) {
                        next.add(state.getValue().get(field).asText());
                    }
                }
                transitions.put(state.getKey(), state.getValue().get("Type").asText() + " " + next);
            });
            Map<String, String> expected = new LinkedHashMap<>();
            expected.put("CheckData", "Map [AnyData]");
            expected.put("AnyData", "Choice [Empty, StartImport]");
            expected.put("Empty", "Succeed []");
            expected.put("StartImport", "Task [catch:ImportBusy, DescribeImport]");
            expected.put("ImportBusy", "Choice [WaitToStartImport, ImportNotFinished, ImportNotStarted]");
            expected.put("WaitToStartImport", "Wait [StartImport]");
            expected.put("ImportNotStarted", "Fail []");
            expected.put("DescribeImport", "Task [ImportDone]");
            expected.put("ImportDone", "Choice [Warm, ImportFailed, ImportNotFinished, WaitForImport]");
            expected.put("WaitForImport", "Wait [DescribeImport]");
            expected.put("ImportFailed", "Fail []");
            expected.put("ImportNotFinished", "Fail []");
            expected.put("Warm", "Task [catch:WorkerRetry]");
            expected.put("WorkerRetry", "Choice [WaitToRetryWorker, WorkerFailed]");
            expected.put("WaitToRetryWorker", "Wait [Warm]");
            expected.put("WorkerFailed", "Fail []");
            assertEquals(expected, transitions);
            JsonNode states = asl.get("States");
            assertEquals(87, states.at("/WaitForImport/Seconds").asInt());
            assertEquals(87, states.at("/WaitToStartImport/Seconds").asInt(), "both import loops share the interval");
            assertEquals("arn:REF(AWS::Partition):states:::aws-sdk:fsx:createDataRepositoryTask",
                    states.at("/StartImport/Resource").asText());
            assertEquals(JSON.readTree("""
                    {"Type": "IMPORT_METADATA_FROM_REPOSITORY",
                     "FileSystemId": "{% $states.context.Execution.Input.FileSystemId %}", "Paths": "{% $withData %}",
                     "Report": {"Enabled": false}, "ClientRequestToken": "{% $states.context.Execution.Name %}"}"""),
                    states.at("/StartImport/Arguments"));
            assertEquals(JSON.readTree("""
                    {"ErrorEquals": ["FSx.DataRepositoryTaskExecutingException"], "MaxAttempts": 0}"""),
                    states.at("/StartImport/Retry/0"), "a busy file system is waited for, not retried five times");
            assertEquals(JSON.readTree("{\"TaskIds\": [\"{% $importTaskId %}\"]}"), states.at("/DescribeImport/Arguments"));
            assertEquals("arn:REF(AWS::Partition):states:::sagemaker:createTrainingJob.sync",
                    states.at("/Warm/Resource").asText());
            String retry = """
                    [{"ErrorEquals": ["States.TaskFailed"], "IntervalSeconds": 5, "MaxAttempts": 5, "BackoffRate": 2,
                      "MaxDelaySeconds": 60, "JitterStrategy": "FULL"}]""";
            assertEquals(JSON.readTree(retry), states.at("/CheckData/ItemProcessor/States/ListOneObject/Retry"));
            assertEquals(JSON.readTree(retry), states.at("/DescribeImport/Retry"));
        }

        @Test
        void theStateMachineLogsEverythingAndTraces() {
            Map<String, Object> machine = f.properties(f.id(f.preload.getStateMachine()));
            assertEquals(Map.of("Enabled", true), machine.get("TracingConfiguration"));
            Map<?, ?> logging = (Map<?, ?>) machine.get("LoggingConfiguration");
            assertEquals("ALL", logging.get("Level"));
            assertEquals(true, logging.get("IncludeExecutionData"));
        }

        @Test
        void theStateMachineMayListOnlyTheDataLocationsAndRunOnlyTheWorker() {
            StateMachine machine = (StateMachine) f.preload.getStateMachine();
            List<Map<String, Object>> statements = sortedActions(f.statements(f.id(machine.getRole())));
            String bucket = f.value(f.data.getBucket().getBucketArn());
            List<Map<String, Object>> expected = sortedActions(List.of(
                    Map.of("Action", "s3:ListBucket", "Condition",
                            Map.of("StringEquals", Map.of("s3:prefix", List.of("imagenet/train/", "imagenet/val/"))),
                            "Effect", "Allow", "Resource", bucket),
                    Map.of("Action", "fsx:CreateDataRepositoryTask", "Effect", "Allow", "Resource", List.of(
                            "arn:REF(AWS::Partition):fsx:REF(AWS::Region):REF(AWS::AccountId):file-system/"
                                    + f.value(f.cache.getFileSystemId()),
                            "arn:REF(AWS::Partition):fsx:REF(AWS::Region):REF(AWS::AccountId):task/*")),
                    statement(WORKER_ACTIONS, workerJobs(workerPrefix("preload", f.preload))),
                    passRoleStatement(f.value(f.definition.getRole().getRoleArn())),
                    statement(List.of("events:PutTargets", "events:PutRule", "events:DescribeRule"),
                            "arn:REF(AWS::Partition):events:REF(AWS::Region):REF(AWS::AccountId):rule/"
                                    + "StepFunctionsGetEventsForSageMakerTrainingJobsRule")));
            assertEquals(expected, statements.stream().filter(s -> !"*".equals(s.get("Resource"))).toList());
            List<String> onAnyResource = statements.stream().filter(s -> "*".equals(s.get("Resource")))
                    .flatMap(s -> ((List<?>) s.get("Action")).stream()).map(String::valueOf).toList();
            assertTrue(onAnyResource.contains("fsx:DescribeDataRepositoryTasks"), onAnyResource.toString());
            assertEquals(List.of(), onAnyResource.stream().filter(a -> !a.equals("fsx:DescribeDataRepositoryTasks")
                    && !a.startsWith("logs:") && !a.startsWith("xray:")).toList(),
                    "besides FSx, only aws-cdk-lib's log delivery and X-Ray actions, which have no resource-level permissions");
        }

        @Test
        void startsAfterTheFileSystemWithEveryResourceUnderItAndTheWorkerRoleWithItsPolicy() {
            IConstruct role = f.definition.getRole();
            List<String> dependsOn = f.dependsOn(f.preload.getResource());
            // The role holds its policy inline (InlinePolicy): depending on the role is depending on its permissions.
            assertTrue(role.getNode().tryFindChild("DefaultPolicy") == null, "no separate policy");
            List<String> required = new ArrayList<>(List.of(f.id(role)));
            f.cache.getNode().findAll().stream().filter(c -> c instanceof CfnResource)
                    .forEach(c -> required.add(f.stack.getLogicalId((CfnElement) c)));
            assertTrue(required.contains(f.id(f.cache)), required.toString());
            for (String id : required) {
                assertTrue(dependsOn.contains(id), id + " in " + dependsOn);
            }
        }

        @Test
        void theStacksProviderRunsTheBundledZipOnJava25() throws IOException {
            f.template.resourcePropertiesCountIs("AWS::Lambda::Function", Map.of("Handler", DISPATCHER), 1);
            List<Object> keys = new ArrayList<>();
            Map<String, Object> function = f.template.findResources("AWS::Lambda::Function", Map.of("Properties",
                    Match.objectLike(Map.of("Handler", DISPATCHER, "Runtime", "java25"))))
                    .values().iterator().next();
            keys.add(((Map<?, ?>) ((Map<?, ?>) function.get("Properties")).get("Code")).get("S3Key"));
            String key = (String) keys.get(0);
            assertTrue(key.endsWith(".zip"), key);

            Path outdir = Path.of(((App) f.stack.getNode().getRoot()).getOutdir());
            JsonNode asset = JSON.readTree(outdir.resolve("Test.assets.json").toFile())
                    .get("files").get(key.substring(0, key.length() - ".zip".length()));
            assertEquals("file", asset.at("/source/packaging").asText(), "uploaded as it is, not zipped again");
            String path = asset.at("/source/path").asText();
            assertTrue(path.endsWith(".zip"), path);
            assertEquals(-1L, Files.mismatch(outdir.resolve(path), CustomResourceProvider.sdkHandlersBundle()), "the asset is the bundle");
        }

        @Test
        void theBundleHoldsTheHandlerClassesButNotTheLauncher() throws IOException {
            try (ZipFile zip = new ZipFile(CustomResourceProvider.sdkHandlersBundle().toFile())) {
                assertNotNull(zip.getEntry("io/github/trainingdata/cdk/preload/handler/PreloadHandler.class"));
                assertNotNull(zip.getEntry("io/github/trainingdata/cdk/launch/TrainingJobNames.class"));
                assertEquals(null, zip.getEntry("io/github/trainingdata/cdk/launch/TrainingJobLauncher.class"));
            }
        }

        @Test
        void theProviderMayStartListDescribeAndStopExecutionsOfItsStateMachineAndStopItsWorkers() {
            assertEquals(grantStatements(f, f.preload), f.grants(f.preload));
            assertEquals(Map.of("Fn::GetAtt", List.of(f.id(f.preload.getNode().findChild("HandlerRole")), "Arn")),
                    f.properties(f.id(f.preload.getResource())).get("RoleArn"), "the preload names its role, which "
                    + "outlives it");
        }

        @Test
        void theProviderRoleHasOnlyTheBasicLambdaPolicyBesidesItsGrants() {
            Object managed = f.properties(f.providerRole()).get("ManagedPolicyArns");
            assertEquals(List.of("arn:REF(AWS::Partition):iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"),
                    ((List<?>) managed).stream().map(Intrinsics::string).toList());
        }

        @Test
        void onlyThePreloadStateMachineMayRunWorkersOrPassARole() {
            String machineRole = f.id(((StateMachine) f.preload.getStateMachine()).getRole());
            Map<String, List<String>> granted = new LinkedHashMap<>();
            f.resources.keySet().stream()
                    .filter(id -> (id.startsWith("Preload") || id.startsWith("CustomResourceProvider"))
                            && "AWS::IAM::Role".equals(f.resources.get(id).get("Type")))
                    .forEach(id -> {
                        List<String> actions = f.statements(id).stream()
                                .flatMap(s -> PolicyStatements.elements(s.get("Action")).stream())
                                .map(String::valueOf)
                                .filter(a -> a.equals("sagemaker:CreateTrainingJob") || a.equals("iam:PassRole")
                                        || a.equals("*") || a.equals("sagemaker:*") || a.equals("iam:*"))
                                .sorted().toList();
                        if (!actions.isEmpty()) {
                            granted.put(id, actions);
                        }
                    });
            assertEquals(Map.of(machineRole, List.of("iam:PassRole", "sagemaker:CreateTrainingJob")), granted,
                    "the stack provider's role (the preload's grants with the cache's and the definition's) starts "
                            + "and passes nothing");
            assertTrue(grantStatements(f, f.preload).contains(watcherStatement(f.property(f.preload,
                    "WorkerJobNamePrefix"))), "it may describe and stop the preload's own workers");
        }

        @Test
        void trainingIsDeployedAfterThePreloadAndStillWaitsForItsExecution() throws IOException {
            assertTrue(f.dependsOn(f.definition.getStateMachine()).contains(f.preloadId()));
            assertTrue(f.dependsOn(f.definition.getRequestParameter()).contains(f.preloadId()));
            // A waiting deploy goes on after 55 minutes (STARTED): training then waits for the rest.
            JsonNode states = f.trainingDefinition().get("States");
            assertEquals("arn:REF(AWS::Partition):states:::aws-sdk:sfn:describeExecution",
                    states.at("/DescribePrerequisite0/Resource").asText());
        }

        @Test
        void resultsAreAttributesOfTheCustomResource() {
            Map<String, String> attributes = new LinkedHashMap<>();
            attributes.put("WorkerJobName", f.preload.getWorkerJobName());
            attributes.put("ExecutionArn", f.preload.getExecutionArn());
            attributes.put("Status", f.preload.getStatus());
            attributes.put("FilesWarmed", f.preload.getFilesWarmed());
            attributes.put("BytesWarmed", f.preload.getBytesWarmed());
            attributes.put("Seconds", f.preload.getSeconds());
            attributes.put("EmptyLocations", f.preload.getEmptyLocations());
            attributes.forEach((name, token) -> assertEquals(
                    Map.of("Fn::GetAtt", List.of(f.preloadId(), name)), f.stack.resolve(token), name));
        }

        @Test
        void passesTheAwsSolutionsPack() {
            assertEquals("", NagFindings.of(f.stack));
        }
    }

    /** A preload for a definition that the deploy does not wait for; training waits instead. */
    @Nested
    class NotWaiting {
        static Fixture f;

        @BeforeAll
        static void synthesize() {
            f = withDefinition("resnet");
            f.preload(f.props().locations(f.at(f.cache, List.of("train"))).waitForCompletion(false).parallelism(16)
                    .batchSize(1000));
        }

        @Test
        void theDeployDoesNotWaitAndTheWarmUpMayTakeTwelveHoursAfterATwelveHourImport() throws IOException {
            assertEquals("0", f.preloadProperties().get("WaitSeconds"));
            JsonNode request = f.workerRequest();
            assertEquals(43200, request.at("/StoppingCondition/MaxRuntimeInSeconds").asInt());
            assertEquals(workerEnvironment(16, 1000), map(request.get("Environment")));
            assertEquals(12 * 3600 + 55 * 60 + 12 * 3600 + 3600, f.preloadDefinition(f.preload).get("TimeoutSeconds")
                    .asInt(), "import, the worker's retry window, worker, and an hour for the data check and the worker's "
                    + "start and stop");
        }

        @Test
        void trainingIsNotDeployedAfterThePreload() {
            assertFalse(f.dependsOn(f.definition.getStateMachine()).contains(f.preloadId()));
            assertFalse(f.dependsOn(f.definition.getRequestParameter()).contains(f.preloadId()));
        }

        @Test
        void trainingFirstWaitsUntilTheCurrentPreloadExecutionHasSucceeded() throws IOException {
            JsonNode asl = f.trainingDefinition();
            JsonNode states = asl.get("States");
            assertEquals("StartWaitingForPrerequisites", states.at("/RejectResume/Default").asText());
            assertEquals("FindPrerequisite0", states.at("/StartWaitingForPrerequisites/Next").asText());
            // The execution is looked up when waiting starts: the pointer's name is stable, its value changes per warm.
            JsonNode find = states.get("FindPrerequisite0");
            assertEquals("arn:REF(AWS::Partition):states:::aws-sdk:ssm:getParameter", find.get("Resource").asText());
            assertEquals(JSON.readTree("{\"Name\": \"REF(%s)\"}".formatted(f.currentExecutionId())),
                    find.get("Parameters"));
            assertEquals(JSON.readTree("{\"ExecutionArn.$\": \"$.Parameter.Value\"}"), find.get("ResultSelector"));
            assertEquals("$.prerequisite0Execution", find.get("ResultPath").asText());
            assertEquals("Ssm.ParameterNotFoundException", find.at("/Catch/0/ErrorEquals/0").asText());
            assertEquals("PrerequisiteParameterNotFound", states.at("/" + find.at("/Catch/0/Next").asText() + "/Error")
                    .asText());
            assertEquals("DescribePrerequisite0", find.get("Next").asText());
            JsonNode describe = states.get("DescribePrerequisite0");
            assertEquals("arn:REF(AWS::Partition):states:::aws-sdk:sfn:describeExecution", describe.get("Resource").asText());
            assertEquals(JSON.readTree("{\"ExecutionArn.$\": \"$.prerequisite0Execution.ExecutionArn\"}"),
                    describe.get("Parameters"));
            assertEquals(JSON.readTree("""
                    {"Variable": "$.prerequisite0.Status", "StringEquals": "SUCCEEDED", "Next": "NameTrainingJob"}"""),
                    states.at("/CheckPrerequisite0/Choices/0"));
            assertEquals(JSON.readTree("""
                    {"Or": [{"Variable": "$.prerequisite0.Status", "StringEquals": "RUNNING"},
                            {"Variable": "$.prerequisite0.Status", "StringEquals": "PENDING_REDRIVE"}]}"""),
                    ((ObjectNode) states.at("/CheckPrerequisite0/Choices/3").deepCopy()).without(List.of("Next", "Assign")));
            assertEquals("PreloadFailed", states.at("/PrerequisiteFailed0/Error").asText());
            // A gone record (Step Functions keeps executions 90 days) means it is over: train.
            assertEquals("NameTrainingJob", states.at("/DescribePrerequisite0/Catch/0/Next").asText());
            assertEquals("Sfn.ExecutionDoesNotExistException",
                    states.at("/DescribePrerequisite0/Catch/0/ErrorEquals/0").asText());
            assertEquals("arn:REF(AWS::Partition):states:::sagemaker:createTrainingJob.sync", states.at("/Train/Resource").asText());
        }

        @Test
        void thePointerHoldsTheCurrentExecutionArn() {
            assertEquals(Map.of("Fn::GetAtt", List.of(f.preloadId(), "ExecutionArn")),
                    f.properties(f.currentExecutionId()).get("Value"));
            assertEquals("Standard", f.properties(f.currentExecutionId()).get("Tier"));
        }

        @Test
        void trainingMayReadThePointerAndDescribeThePreloadExecutions() {
            StateMachine training = (StateMachine) f.definition.getStateMachine();
            List<Map<String, Object>> statements = f.statements(f.id(training.getRole()));
            Map<String, Object> describe = Map.of("Action", "states:DescribeExecution", "Effect", "Allow",
                    "Resource", "arn:REF(AWS::Partition):states:REF(AWS::Region):REF(AWS::AccountId):execution:GETATT("
                            + f.id(f.preload.getStateMachine()) + ".Name):*");
            assertTrue(statements.contains(describe), statements.toString());
            assertTrue(statements.stream().anyMatch(s -> String.valueOf(s.get("Action")).contains("ssm:GetParameter")
                    && String.valueOf(s.get("Resource")).contains("parameter/REF(" + f.currentExecutionId() + ")")),
                    statements.toString());
        }

        @Test
        void theNamesAndTheStatusAreAttributesButTheResultsAreNot() {
            assertEquals(Map.of("Fn::GetAtt", List.of(f.preloadId(), "WorkerJobName")),
                    f.stack.resolve(f.preload.getWorkerJobName()));
            assertEquals(Map.of("Fn::GetAtt", List.of(f.preloadId(), "ExecutionArn")),
                    f.stack.resolve(f.preload.getExecutionArn()));
            assertEquals(Map.of("Fn::GetAtt", List.of(f.preloadId(), "Status")), f.stack.resolve(f.preload.getStatus()));
            String why = " is known only when the deploy waits for the warm-up (waitForCompletion is false)";
            assertEquals("Test/Preload: FilesWarmed" + why,
                    assertThrows(IllegalStateException.class, f.preload::getFilesWarmed).getMessage());
            assertEquals("Test/Preload: BytesWarmed" + why,
                    assertThrows(IllegalStateException.class, f.preload::getBytesWarmed).getMessage());
            assertEquals("Test/Preload: Seconds" + why,
                    assertThrows(IllegalStateException.class, f.preload::getSeconds).getMessage());
            assertEquals("Test/Preload: EmptyLocations" + why,
                    assertThrows(IllegalStateException.class, f.preload::getEmptyLocations).getMessage());
        }

        @Test
        void passesTheAwsSolutionsPack() {
            assertEquals("", NagFindings.of(f.stack));
        }
    }

    /** A preload of the whole file system that belongs to no definition. */
    @Nested
    class Standalone {
        static Fixture f;

        @BeforeAll
        static void synthesize() {
            f = new Fixture();
            f.preload(f.props().image(TrainingImage.fromUri(TOOLS_IMAGE)));
        }

        @Test
        void theWorkerHasItsOwnRoleImageAndOutputPrefix() throws IOException {
            IConstruct role = f.preload.getWorkerRole();
            assertEquals("Test/Preload/Worker/ExecutionRole", role.getNode().getPath());
            JsonNode request = f.workerRequest();
            assertEquals(f.value(f.preload.getWorkerRole().getRoleArn()), request.get("RoleArn").asText());
            assertEquals(TOOLS_IMAGE, request.at("/AlgorithmSpecification/TrainingImage").asText());
            assertEquals("s3://" + f.value(f.data.getBucketName()) + "/preload-worker/",
                    request.at("/OutputDataConfig/S3OutputPath").asText());
            assertEquals("/" + f.value(f.cache.getMountName()) + "/imagenet",
                    request.at("/InputDataConfig/0/DataSource/FileSystemDataSource/DirectoryPath").asText());
            assertEquals(1, request.get("InputDataConfig").size());
            assertEquals(workerPrefix("preload", f.preload), f.preloadProperties().get("WorkerJobNamePrefix"));
        }

        @Test
        void theStateMachinePassesTheWorkersOwnRole() {
            List<Map<String, Object>> statements = sortedActions(
                    f.statements(f.id(((StateMachine) f.preload.getStateMachine()).getRole())));
            assertTrue(statements.contains(passRoleStatement(f.value(f.preload.getWorkerRole().getRoleArn()))),
                    statements.toString());
            assertTrue(statements.containsAll(sortedActions(List.of(statement(WORKER_ACTIONS, workerJobs(workerPrefix("preload", f.preload)))))),
                    statements.toString());
            IConstruct role = f.preload.getWorkerRole();
            List<String> dependsOn = f.dependsOn(f.preload.getResource());
            assertTrue(dependsOn.contains(f.id(role)), dependsOn.toString());
            assertTrue(role.getNode().tryFindChild("DefaultPolicy") == null, "its policy is inline in the role");
        }

        @Test
        void deploysNoTrainingStateMachineForTheWorker() {
            // The one parameter is the pointer to the current execution, not a request document.
            assertEquals(List.of(f.currentExecutionId()),
                    List.copyOf(f.template.findResources("AWS::SSM::Parameter").keySet()));
            // The stack's provider's waiter serves the preload and the cache's associations alike.
            List<String> machines = f.template.findResources("AWS::StepFunctions::StateMachine").keySet().stream()
                    .sorted().toList();
            assertEquals(2, machines.size(), machines.toString());
            assertTrue(machines.get(0).startsWith("CustomResourceProviderwaiterstatemachine"), machines.toString());
            assertEquals(f.id(f.preload.getStateMachine()), machines.get(1));
        }

        @Test
        void theDataLocationIsTheImportPath() {
            assertEquals(List.of("s3://" + f.value(f.data.getBucketName()) + "/imagenet/"),
                    ((List<?>) f.preloadProperties().get("DataLocations")).stream().map(Intrinsics::string).toList());
        }

        @Test
        void passesTheAwsSolutionsPack() {
            assertEquals("", NagFindings.of(f.stack));
        }
    }

    /** The import loop's interval and the bucket root as a data location. */
    @Nested
    class Limits {
        @Test
        void theImportLoopStaysFarBelowTheExecutionHistoryLimit() {
            for (long importSeconds : List.of(60L, 43_200L, 28L * 86_400)) {
                long interval = PreloadStateMachine.pollSeconds(importSeconds);
                long polls = (importSeconds + interval - 1) / interval + 1;
                assertTrue(interval >= 60, "at least a minute: " + interval);
                assertTrue(polls <= PreloadStateMachine.MAX_POLLS + 1, importSeconds + " s: " + polls + " polls");
                assertTrue(polls * 9 <= 25_000 / 5, "about 9 events a poll, at most a fifth of the 25,000-event history");
            }
            assertEquals(87, PreloadStateMachine.pollSeconds(43_200));
            assertEquals(60, PreloadStateMachine.pollSeconds(60));
        }

        @Test
        void aBucketRootLocationListsTheWholeBucket() {
            Stack stack = TestApps.stack();
            TrainingNetwork network = new TrainingNetwork(stack, "Network");
            TrainingDataBucket data = new TrainingDataBucket(stack, "Data",
                    TrainingDataBucketProps.builder().datasetPrefix("").build());
            LustreCache cache = new LustreCache(stack, "Lustre", LustreCacheProps.builder().network(network)
                    .datasets(List.of(LustreDataset.builder("all").dataBucket(data).build())).build());
            LustrePreload preload = new LustrePreload(stack, "Preload", LustrePreloadProps.builder().cache(cache)
                    .image(TrainingImage.fromUri(TOOLS_IMAGE)).build());
            Template template = Template.fromStack(stack);

            Map<String, Object> properties = template.findResources("Custom::LustrePreload").values().iterator().next();
            assertEquals(List.of("s3://" + Intrinsics.string(stack.resolve(data.getBucketName())) + "/"),
                    ((List<?>) ((Map<?, ?>) properties.get("Properties")).get("DataLocations")).stream()
                            .map(Intrinsics::string).toList());
            template.hasResourceProperties("AWS::IAM::Policy", Match.objectLike(Map.of(
                    "Roles", List.of(stack.resolve(((StateMachine) preload.getStateMachine()).getRole().getRoleName())),
                    "PolicyDocument", Match.objectLike(Map.of("Statement", Match.arrayWith(List.of(Map.of(
                            "Action", "s3:ListBucket", "Effect", "Allow",
                            "Resource", stack.resolve(data.getBucket().getBucketArn())))))))));
        }

        @Test
        void synthesizesInABareAppAndPassesTheAwsSolutionsPack() {
            App app = new App();
            Stack stack = new Stack(app, "Bare");
            TrainingNetwork network = new TrainingNetwork(stack, "Network");
            TrainingDataBucket data = new TrainingDataBucket(stack, "Data", TrainingDataBucketProps.builder()
                    .bucket(Bucket.fromBucketName(stack, "Existing", "team-datasets")).datasetPrefix("imagenet").build());
            LustreCache cache = new LustreCache(stack, "Lustre", LustreCacheProps.builder().network(network)
                    .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(data).build())).build());
            new LustrePreload(stack, "Preload", LustrePreloadProps.builder().cache(cache)
                    .image(TrainingImage.fromUri(TOOLS_IMAGE)).waitForCompletion(false).build());

            Template.fromStack(stack).resourceCountIs("Custom::LustrePreload", 1);
            assertEquals("", NagFindings.of(stack));
        }
    }

    /** What the worker is named after: the preload, never the definition (whose prefix a user may rename). */
    @Nested
    class WorkerJobNamePrefix {
        static Fixture f;
        static LustrePreload longId;
        static LustrePreload oddId;
        static LustrePreload symbols;
        static LustrePreload deployTimeDefinition;
        static TrainingJobDefinition parameterPrefixed;

        @BeforeAll
        static void synthesize() {
            f = new Fixture();
            longId = preloadFor("abcdefghijklmnopqrstuvwxyz", "ImagenetResnetPreloadForTraining");
            oddId = preloadFor("resnet", "Data_Set.42__-More");
            symbols = preloadFor("vit", "___");
            CfnParameter prefix = CfnParameter.Builder.create(f.stack, "Prefix").type("String").build();
            parameterPrefixed = new TrainingJobDefinition(f.stack, "ParameterPrefixed",
                    f.definitionProps(prefix.getValueAsString()).build());
            deployTimeDefinition = new LustrePreload(f.stack, "ParameterPrefixedPreload",
                    f.props().definition(parameterPrefixed).build());
            f.synth();
        }

        /** Adds a preload {@code id} for a new definition with this job-name prefix. */
        private static LustrePreload preloadFor(String jobNamePrefix, String id) {
            TrainingJobDefinition reader = new TrainingJobDefinition(f.stack, jobNamePrefix,
                    f.definitionProps(jobNamePrefix).build());
            return new LustrePreload(f.stack, id, f.props().definition(reader).build());
        }

        @Test
        void aLongIdIsCutToLeaveRoomForTheAddressHash() {
            String prefix = f.property(longId, "WorkerJobNamePrefix");
            assertEquals(workerPrefix("imagenetresn", longId), prefix);
            assertEquals(SageMakerLimits.JOB_NAME_PREFIX.getMax().intValue(), prefix.length());
            assertEquals(grantStatements(f, longId), f.grants(longId));
            assertTrue(grantStatements(f, longId).contains(watcherStatement(prefix)));
        }

        @Test
        void otherCharactersBecomeSingleHyphensAndACutLosesItsTrailingHyphens() {
            assertEquals(workerPrefix("data-set-42", oddId), f.property(oddId, "WorkerJobNamePrefix"),
                    "data-set-42-more cut to 12 is data-set-42-: trimmed");
            assertEquals("warm-" + symbols.getNode().getAddr().substring(2, 10),
                    f.property(symbols, "WorkerJobNamePrefix"), "nothing of the id is left");
        }

        @Test
        void theDefinitionsPrefixDoesNotMatterEvenAtDeployTime() {
            String prefix = f.property(deployTimeDefinition, "WorkerJobNamePrefix");
            assertEquals(workerPrefix("parameterpre", deployTimeDefinition), prefix);
            assertTrue(SageMakerLimits.JOB_NAME_PREFIX.accepts(prefix));
            assertEquals(grantStatements(f, deployTimeDefinition), f.grants(deployTimeDefinition));
        }

        @Test
        void renamingTheDefinitionsPrefixKeepsTheWorkersPrefix() {
            Fixture before = withDefinition("resnet");
            before.preload(before.props());
            Fixture after = withDefinition("resnet-v2");
            after.preload(after.props());
            assertEquals(before.property(before.preload, "WorkerJobNamePrefix"),
                    after.property(after.preload, "WorkerJobNamePrefix"));
        }
    }

    /** WarmKey: what the handler compares to decide whether an update re-warms. */
    @Nested
    class WarmKey {
        static Fixture f;
        static LustreCache raw;
        static final Map<String, LustrePreload> PRELOADS = new LinkedHashMap<>();

        @BeforeAll
        static void synthesize() {
            f = new Fixture();
            raw = f.cache("Raw", "raw");
            add("Reference", f.cache, List.of("train", "val"), "v1");
            add("Same", f.cache, List.of("train", "val"), "v1");
            add("OtherPaths", f.cache, List.of("train"), "v1");
            add("OtherVersion", f.cache, List.of("train", "val"), "v2");
            add("OtherImport", raw, List.of("train", "val"), "v1");
            add("Unversioned", f.cache, List.of("train"), null);
            f.synth();
        }

        private static void add(String id, LustreCache cache, List<String> paths, String datasetVersion) {
            PRELOADS.put(id, new LustrePreload(f.stack, id, LustrePreloadProps.builder().cache(cache)
                    .image(TrainingImage.fromUri(TOOLS_IMAGE)).locations(f.at(cache, paths)).datasetVersion(datasetVersion)
                    .build()));
        }

        private static String warmKey(String preload) {
            return f.property(PRELOADS.get(preload), "WarmKey");
        }

        @Test
        void namesTheFileSystemEachDatasetsLinkTheDirectoriesAndTheDatasetVersion() {
            String bucket = f.value(f.data.getBucketName());
            assertEquals("[\"" + f.value(raw.getFileSystemId()) + "\",[[\"/imagenet\",\"s3://" + bucket + "/imagenet/raw/\",\"train\"],"
                    + "[\"/imagenet\",\"s3://" + bucket + "/imagenet/raw/\",\"val\"]],\"v1\"]", warmKey("OtherImport"));
            assertEquals("[\"" + f.value(f.cache.getFileSystemId()) + "\",[[\"/imagenet\",\"s3://" + bucket
                    + "/imagenet/\",\"train\"]],\"\"]", warmKey("Unversioned"));
        }

        @Test
        void isTheSameForTheSameInputs() {
            assertEquals(warmKey("Reference"), warmKey("Same"));
        }

        @Test
        void changesWithThePaths() {
            assertNotEquals(warmKey("Reference"), warmKey("OtherPaths"));
        }

        @Test
        void changesWithTheDatasetVersion() {
            assertNotEquals(warmKey("Reference"), warmKey("OtherVersion"));
        }

        @Test
        void changesWithTheFileSystemAndItsLink() {
            assertNotEquals(warmKey("Reference"), warmKey("OtherImport"));
        }
    }

    /** The synth-time rules, one test each, with the full message. */
    @Nested
    class Rules {
        private LustrePreloadProps.Builder standalone(Fixture f) {
            return f.props().image(TrainingImage.fromUri(TOOLS_IMAGE));
        }

        private void addStandalone(UnaryOperator<LustrePreloadProps.Builder> props) {
            Fixture f = new Fixture();
            f.add(props.apply(standalone(f)));
        }

        /** @return the custom resource's WaitSeconds for a standalone preload: "3300" when the deploy waits, else "0" */
        private String waitSeconds(UnaryOperator<LustrePreloadProps.Builder> props) {
            Fixture f = new Fixture();
            LustrePreload preload = new LustrePreload(f.stack, "Preload", props.apply(standalone(f)).build());
            f.synth();
            return f.property(preload, "WaitSeconds");
        }

        @Test
        void needsAnImageWithoutADefinition() {
            Fixture f = new Fixture();
            assertRule("PRELOAD_IMAGE_REQUIRED", () -> f.add(f.props()),
                    "Test/Preload", "image", "null",
                    "a worker image when the preload belongs to no definition (a Linux image with /bin/sh and GNU "
                            + "coreutils and findutils)");
        }

        @Test
        void needsAnImageWhenTheDefinitionUsesAnAlgorithmName() {
            Fixture f = new Fixture();
            f.define(f.definitionProps("resnet").trainingImage(null)
                    .algorithmName("arn:aws:sagemaker:us-east-1:123456789012:algorithm/resnet"));
            assertRule("PRELOAD_IMAGE_REQUIRED", () -> f.add(f.props()),
                    "Test/Preload", "image", "null",
                    "a worker image: the definition Test/Training uses an algorithm name, not an image the worker "
                            + "could run");
        }

        @Test
        void theDefinitionMustReadTheCache() {
            Fixture f = new Fixture();
            LustreCache other = f.cache("Other", "");
            f.define(f.definitionProps("resnet")
                    .channels(List.of(LustreChannel.builder("train").cache(other).path("train").build())));
            assertRule("PRELOAD_DEFINITION_READS_CACHE", () -> f.add(f.props()),
                    "Test/Preload", "definition", "Test/Training",
                    "a definition with a LustreChannel on Test/Lustre (warming a cache the job does not read would "
                            + "only delay it)");
        }

        @Test
        void needsTheCacheToWarm() {
            Fixture f = new Fixture();
            assertRule("PRELOAD_CACHE", () -> new LustrePreload(f.stack, "Preload", standalone(f).cache(null).build()), "Test/Preload",
                    "cache", null, "the LustreCache to warm");
        }

        @Test
        void refusesACacheOfAnotherStackWhoseIdAReplacementChanges() {
            Fixture f = new Fixture();
            Stack ops = new Stack((software.constructs.Construct) f.stack.getNode().getScope(), "Ops");
            assertRule("PRELOAD_CACHE_STACK", () -> new LustrePreload(ops, "Preload", standalone(f).build()),
                    "Ops/Preload", "cache", "Test/Lustre", "a cache of the preload's stack: the worker mounts it by id "
                            + "and the warm key holds the id, which a replacement changes, and a value passed across "
                            + "stacks at deploy time is not updated then; create the preload in the stack that owns "
                            + "the cache");
        }

        @Test
        void needsAtLeastOneLocation() {
            Fixture f = new Fixture();
            assertRule("PRELOAD_LOCATION_COUNT", () -> new LustrePreload(f.stack, "Preload", standalone(f).locations(List.of()).build()),
                    "Test/Preload", "locations", "0 locations", "1 to 20 directories (one worker channel each)");
        }

        @Test
        void takesAtMostTwentyLocations() {
            Fixture f = new Fixture();
            List<String> paths = IntStream.range(0, 21).mapToObj(i -> "part" + i).toList();
            assertRule("PRELOAD_LOCATION_COUNT", () -> new LustrePreload(f.stack, "Preload", standalone(f).locations(f.at(f.cache, paths)).build()),
                    "Test/Preload", "locations", "21 locations", "1 to 20 directories (one worker channel each)");
            assertDoesNotThrow(() -> new LustrePreload(f.stack, "Twenty", standalone(f)
                    .locations(f.at(f.cache, paths.subList(0, 20))).build()));
        }

        @Test
        void locationsAreOfTheCacheBeingWarmed() {
            Fixture f = new Fixture();
            LustreCache other = f.cache("Other", "other");
            assertRule("PRELOAD_LOCATION_OF_CACHE", () -> new LustrePreload(f.stack, "Preload", standalone(f)
                    .locations(List.of(f.cache.location("imagenet", "train"), other.location("imagenet", "val"))).build()),
                    "Test/Preload", "locations[1]", "Test/Other", "a location of the cache being warmed, Test/Lustre");
        }

        @Test
        void locationsAreDistinct() {
            Fixture f = new Fixture();
            assertRule("PRELOAD_LOCATION_DISTINCT", () -> new LustrePreload(f.stack, "Preload", standalone(f)
                    .locations(f.at(f.cache, List.of("train", "val", "train"))).build()),
                    "Test/Preload", "locations[2]", "imagenet/train", "distinct directories");
        }

        @Test
        void aTimeoutAwsCdkLibCannotConvertToWholeSecondsOrADeployTimeOneIsRefusedNamingTheField() {
            assertRule("PRELOAD_TIMEOUT", () -> addStandalone(p -> p.timeout(Duration.millis(90_500))),
                    "Test/Preload", "timeout", "1 minute 30 seconds", "a literal whole number of seconds "
                            + "from 1 minute to 28 days (the preload's state machine and its estimate add it up, so it "
                            + "cannot be a deploy-time value)");
            assertRule("PRELOAD_TIMEOUT", () -> addStandalone(p -> p.importTimeout(Duration.minutes(
                    Token.asNumber(Fn.importValue("Minutes"))))),
                    "Test/Preload", "importTimeout", "<token> minutes", "a literal whole number of seconds from 1 minute "
                            + "to 28 days (the preload's state machine and its estimate add it up, so it cannot be a "
                            + "deploy-time value)");
        }

        @Test
        void theWorkerTrainsOnAnInstanceTypeSageMakerOffers() {
            assertRule("PRELOAD_WORKER_INSTANCE_TYPE", () -> addStandalone(p -> p.workerInstanceType("ml.c5.4xlarg")),
                    "Test/Preload", "workerInstanceType", "ml.c5.4xlarg", "one of the SageMaker training instance "
                            + "types (TrainingInstanceType, 145 values in the API model); of family c5: ml.c5.xlarge, "
                            + "ml.c5.2xlarge, ml.c5.4xlarge, ml.c5.9xlarge, ml.c5.18xlarge");
        }

        @Test
        void theTimeoutIsOneMinuteTo28Days() {
            assertRule("PRELOAD_TIMEOUT", () -> addStandalone(p -> p.timeout(Duration.seconds(59))),
                    "Test/Preload", "timeout", "59 seconds", "1 minute to 28 days");
            assertRule("PRELOAD_TIMEOUT", () -> addStandalone(p -> p.waitForCompletion(false).timeout(Duration.days(29))),
                    "Test/Preload", "timeout", "29 days", "1 minute to 28 days");
        }

        @Test
        void theImportTimeoutIsOneMinuteTo28Days() {
            assertRule("PRELOAD_TIMEOUT", () -> addStandalone(p -> p.importTimeout(Duration.seconds(59))),
                    "Test/Preload", "importTimeout", "59 seconds", "1 minute to 28 days");
            assertRule("PRELOAD_TIMEOUT", () -> addStandalone(p -> p.importTimeout(Duration.days(29))),
                    "Test/Preload", "importTimeout", "29 days", "1 minute to 28 days");
        }

        @Test
        void parallelismIsOneTo512() {
            assertRule("PRELOAD_RANGE", () -> addStandalone(p -> p.parallelism(0)),
                    "Test/Preload", "parallelism", "0", "1 to 512");
            assertRule("PRELOAD_RANGE", () -> addStandalone(p -> p.parallelism(513)),
                    "Test/Preload", "parallelism", "513", "1 to 512");
        }

        @Test
        void aForcedWaitForAWarmUpBeyondWhatADeployCanWaitIsRefused() {
            Fixture f = new Fixture();
            // 12 M files: the import takes 12 M / 2 M per hour = 21,600 s; the worker 340 s to start, then on the read
            // path max((12 M x 0.04 + 1,000,000 MB / 100) / 128 = 3828 s, 1,000,000 MB / 117.1875 MB/s = 8533 s): 8.5 h.
            assertRule("PRELOAD_WAIT_ESTIMATE", () -> new LustrePreload(f.stack, "Preload", standalone(f).waitForCompletion(true)
                    .fileCount(12_000_000L).totalBytes(1_000_000_000_000L).build()), "Test/Preload", "waitForCompletion",
                    true, "false: 12,000,000 files (1 TB) are estimated to take 8.5 h to import and warm (advisor "
                            + "model: metadata import, then the worker's read path, 128 readers), beyond the 55 minutes "
                            + "a deploy can wait");
        }

        @Test
        void aWarmUpBeyondWhatADeployCanWaitDoesNotHoldTheDeploy() {
            Fixture f = new Fixture();
            LustrePreload preload = new LustrePreload(f.stack, "Preload", standalone(f)
                    .fileCount(12_000_000L).totalBytes(1_000_000_000_000L).build());
            f.synth();
            assertEquals("0", f.property(preload, "WaitSeconds"));
            software.amazon.awscdk.assertions.Annotations.fromStack(f.stack).hasInfo("/Test/Preload",
                    Match.stringLikeRegexp("Test/Preload: the deploy does not wait for the preload: 12,000,000 files .*"
                            + "training executions wait for it instead"));
        }

        @Test
        void aWarmUpThatFitsADeployIsWaitedFor() {
            // 54 s of import + 340 s of start + max((30,000 x 0.04 + 1,000 / 100) / 128 = 9.5 s, 1,000 / 117.1875 = 8.5 s).
            assertEquals("3300", waitSeconds(p -> p.fileCount(30_000L).totalBytes(1_000_000_000L)));
        }

        @Test
        void theWaitDecisionModelsTheLfsPathWhenTheImageHasLfs() {
            // 1.45 M files of 10 KB on 1200 GiB: 2610 s of import + 340 s of start, then
            // - read path: (1.45 M x 0.04 + 14,500 / 100) / 128 = 454.3 s, 3404 s in all: beyond 3300 s;
            // - lfs path: max(29,000 calls x 0.14 / 128 = 31.7 s, 14,500 / 117.1875 = 123.7 s) + 0.04 s for the last
            //   file + 10 s + 2 x 5665 calls x 0.14 / 128 = 22.4 s of verifying: 146.2 s, 3096 s in all.
            assertEquals("0", waitSeconds(p -> p.fileCount(1_450_000L).totalBytes(14_500_000_000L)));
            assertEquals("3300", waitSeconds(p -> p.workerImageHasLfs(true).fileCount(1_450_000L)
                    .totalBytes(14_500_000_000L)));
        }

        @Test
        void theWorkersNetworkBoundsTheReadPath() {
            // 4 TB in 1,000 files on 48,000 GiB (4687.5 MB/s of loading): the ml.m5.xlarge's 1250 MB/s take 3200 s, with
            // 1.8 s of import and 340 s of start 3542 s: beyond 3300 s. An ml.p4d.24xlarge worker (400 Gbit/s) leaves
            // the cache as the bound: 4,000,000 / 4687.5 = 853 s, 1195 s in all.
            for (String type : List.of("ml.m5.xlarge", "ml.p4d.24xlarge")) {
                Fixture f = new Fixture();
                LustreCache large = new LustreCache(f.stack, "Large", LustreCacheProps.builder().network(f.network)
                        .storageCapacityGiB(48_000)
                        .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(f.data).build())).build());
                LustrePreload preload = new LustrePreload(f.stack, "Preload", LustrePreloadProps.builder().cache(large)
                        .image(TrainingImage.fromUri(TOOLS_IMAGE)).workerInstanceType(type)
                        .fileCount(1000L).totalBytes(4_000_000_000_000L).build());
                f.synth();
                assertEquals(type.equals("ml.m5.xlarge") ? "0" : "3300", f.property(preload, "WaitSeconds"), type);
            }
        }

        @Test
        void theWarmedBytesMustFitTheCache() {
            // 1200 GiB hold 1200 x 11/12 = 1100 GiB = 1,181,116,006,400 bytes of file data.
            assertRule("PRELOAD_TOTAL_BYTES_FIT", () -> addStandalone(p -> p.totalBytes(1_181_116_006_401L)), "Test/Preload", "totalBytes",
                    1_181_116_006_401L, "at most 1,181,116,006,400 bytes (1.2 TB), the file data Test/Lustre's 1200 GiB "
                            + "hold (FSx keeps file data in about 11/12 of the storage capacity); a cache of 2400 GiB or "
                            + "more holds them");
            assertDoesNotThrow(() -> addStandalone(p -> p.totalBytes(1_181_116_006_400L)));
        }

        @Test
        void bytesBeyondACompressedOrExistingCacheAreAWarning() {
            Fixture f = new Fixture();
            LustreCache compressed = new LustreCache(f.stack, "Compressed", LustreCacheProps.builder().network(f.network)
                    .dataCompression(LustreDataCompressionType.LZ4)
                    .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(f.data).build())).build());
            new LustrePreload(f.stack, "Preload", LustrePreloadProps.builder().cache(compressed)
                    .image(TrainingImage.fromUri(TOOLS_IMAGE)).totalBytes(2_000_000_000_000L).build());
            f.synth();
            software.amazon.awscdk.assertions.Annotations.fromStack(f.stack).hasWarning("/Test/Preload",
                    Match.stringLikeRegexp("Test/Preload: totalBytes 2,000,000,000,000 is more than 1,181,116,006,400 "
                            + "bytes .* the preload loads only what fits unless compression makes it fit.*"));
        }

        @Test
        void batchSizeIsOneTo10000() {
            assertRule("PRELOAD_RANGE", () -> addStandalone(p -> p.batchSize(0)),
                    "Test/Preload", "batchSize", "0", "1 to 10000");
            assertRule("PRELOAD_RANGE", () -> addStandalone(p -> p.batchSize(10_001)),
                    "Test/Preload", "batchSize", "10001", "1 to 10000");
        }

        @Test
        void estimatesAreZeroOrMore() {
            assertRule("PRELOAD_FILE_COUNT", () -> addStandalone(p -> p.fileCount(-1L)),
                    "Test/Preload", "fileCount", "-1", "0 or more");
            assertRule("PRELOAD_TOTAL_BYTES", () -> addStandalone(p -> p.totalBytes(-1L)),
                    "Test/Preload", "totalBytes", "-1", "0 or more");
        }

        @Test
        void acceptsEveryBound() {
            List<UnaryOperator<LustrePreloadProps.Builder>> bounds = List.of(
                    p -> p.timeout(Duration.minutes(1)).importTimeout(Duration.minutes(1)).parallelism(1).batchSize(1),
                    p -> p.timeout(Duration.days(28)).importTimeout(Duration.days(28)).parallelism(64).batchSize(10_000),
                    p -> p.waitForCompletion(false).timeout(Duration.days(28)));
            for (UnaryOperator<LustrePreloadProps.Builder> props : bounds) {
                Fixture f = new Fixture();
                assertDoesNotThrow(() -> new LustrePreload(f.stack, "Preload", props.apply(standalone(f)).build()));
            }
        }
    }
}
