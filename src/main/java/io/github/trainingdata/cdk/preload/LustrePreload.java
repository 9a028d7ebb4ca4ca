package io.github.trainingdata.cdk.preload;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.advisor.ByteSize;
import io.github.trainingdata.cdk.advisor.EstimateModel;
import io.github.trainingdata.cdk.limits.FsxLimits;
import io.github.trainingdata.cdk.WildcardFindings;
import io.github.trainingdata.cdk.storage.KeyPrefix;
import io.github.trainingdata.cdk.limits.SageMakerLimits;
import io.github.trainingdata.cdk.storage.LogGroups;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.LustreLocation;
import io.github.trainingdata.cdk.training.Channel;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobBlueprint;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Acknowledgment;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.Validations;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.amazon.awscdk.services.stepfunctions.IStateMachine;
import software.amazon.awscdk.services.stepfunctions.LogLevel;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.amazon.awscdk.customresources.LogOptions;
import software.amazon.awscdk.customresources.Provider;
import software.constructs.Construct;
import software.constructs.IConstruct;

/**
 * Warms a {@link LustreCache} during the deploy, so the first epoch of the first job is not cold.
 *
 * <p>No FSx API loads file contents and a Lambda function cannot mount Lustre, so the work is done by a
 * <em>worker</em>: a short SageMaker training job that mounts the file system exactly as training will
 * (same VPC, subnet and security group, a File-mode FSxLustre channel per warmed directory) and runs a
 * warm-up script ({@code lfs hsm_restore} in bounded batches when the image has {@code lfs}, otherwise a
 * one-byte read of every file, which makes FSx load it whole), then checks that nothing is left to load.
 * It doubles as a deploy-time proof that training can reach the file system.
 *
 * <p>A state machine runs each warm-up: it first looks for one object at each data location (none: status
 * EMPTY, no worker: the usual first deploy, whose bucket is created by the same stack), then waits until
 * FSx has finished importing file metadata from S3 (files exist only once imported), then runs the worker.
 * A custom resource (aws-cdk-lib's Provider framework, Java handler on the AWS SDK) starts an execution on
 * create, and on update only when what is warmed changes (the file system, the data locations and the
 * directories they appear at, the dataset version); it stops a running one on delete and never fails a
 * delete. Retries reuse a deterministic name. When the deploy waits, it waits at most
 * {@link #MAX_WAITING_TIMEOUT}; a warm-up still running then no longer holds the deploy (status STARTED).
 */
public class LustrePreload extends Construct {
    /**
     * The longest a deploy waits for the warm-up: the Provider framework's one-hour limit, less a margin.
     * A warm-up still running then goes on while the deploy completes (status STARTED).
     */
    public static final Duration MAX_WAITING_TIMEOUT = Duration.minutes(55);
    private static final String HANDLER_CLASS = "io.github.trainingdata.cdk.preload.handler.PreloadHandler";
    private static final String WORKER_ROOT = "/opt/ml/input/data";

    private final LustreCache cache;
    private final boolean waitForCompletion;
    private final Duration maxTrainingWait;
    private final TrainingJobBlueprint worker;
    private final PreloadStateMachine stateMachine;
    private final CustomResource resource;

    /** Creates the preload. */
    public LustrePreload(Construct scope, String id, LustrePreloadProps props) {
        super(scope, id);
        this.cache = props.getCache();
        TrainingJobDefinition definition = props.getDefinition();
        // A definition in another stack lends nothing that would make this stack depend on it: the worker gets its
        // own role and output location here, and its image must be given or literal (else a dependency cycle).
        boolean ownStack = definition != null && Stack.of(definition) == Stack.of(this);
        TrainingImage image = workerImage(props, definition);
        Duration timeout = limit("timeout", props.getTimeout());
        Duration importTimeout = limit("importTimeout", props.getImportTimeout());
        int parallelism = bounded("parallelism", props.getParallelism(), WarmUpScript.DEFAULT_PARALLELISM, 1,
                WarmUpScript.MAX_PARALLELISM);
        int batchSize = bounded("batchSize", props.getBatchSize(), WarmUpScript.DEFAULT_BATCH_SIZE, 1, 10_000);
        this.waitForCompletion = waitForCompletion(props, parallelism);
        this.maxTrainingWait = Duration.seconds(importTimeout.toSeconds().longValue() + timeout.toSeconds().longValue()
                + PreloadStateMachine.MARGIN.toSeconds().longValue() * 2);
        if (definition != null) {
            requireHoldable(definition);
        }

        List<LustreLocation> locations = locations(props, definition);

        WarmUpScript script = WarmUpScript.load();
        Map<String, String> environment = new LinkedHashMap<>(script.environment());
        environment.put(WarmUpScript.ROOT_VARIABLE, WORKER_ROOT);
        environment.put(WarmUpScript.PARALLELISM_VARIABLE, Integer.toString(parallelism));
        environment.put(WarmUpScript.BATCH_SIZE_VARIABLE, Integer.toString(batchSize));
        this.worker = TrainingJobBlueprint.create(new Construct(this, "Worker"), TrainingJobDefinitionProps.builder()
                .jobNamePrefix(workerPrefix(definition))
                .trainingImage(image)
                .role(ownStack ? definition.getRole() : null)
                .outputBucket(ownStack ? definition.getSpec().getOutputBucket()
                        : locations.get(0).getDataset().getDataBucket())
                .outputPrefix(ownStack ? definition.getSpec().getOutputPrefix() + "/preload-worker" : "preload-worker")
                .instanceType(props.getWorkerInstanceType() != null ? props.getWorkerInstanceType() : "ml.m5.xlarge")
                .volumeSizeGiB(30)
                .maxRuntime(timeout)
                .containerEntrypoint(script.containerEntrypoint())
                .environment(environment)
                .metricDefinitions(WarmUpScript.metricDefinitions())
                .channels(workerChannels(locations))
                .network(cache.getNetwork())
                .build());
        List<DataLocation> dataLocations = dataLocations(locations);
        this.stateMachine = new PreloadStateMachine(this, "StateMachine", worker, dataLocations, importTimeout,
                timeout, cache.getEncryptionKey());

        Provider provider = provider();
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("WorkerJobNamePrefix", worker.getJobNamePrefix());
        properties.put("StateMachineArn", stateMachine.getStateMachine().getStateMachineArn());
        properties.put("FileSystemId", cache.getFileSystemId());
        properties.put("DataLocations", dataLocations.stream().map(DataLocation::uri).toList());
        properties.put("WarmKey", Stack.of(this).toJsonString(warmKey(locations, props.getDatasetVersion())));
        properties.put("WaitSeconds", waitForCompletion ? MAX_WAITING_TIMEOUT.toSeconds().toString() : "0");
        this.resource = CustomResource.Builder.create(this, "Resource")
                .serviceToken(provider.getServiceToken())
                .resourceType("Custom::LustrePreload")
                .properties(properties)
                .build();
        // The worker needs its role's policy (VPC, FSx, logs) before it starts, and the file system with its links
        // to S3 (a dependency on the cache covers every resource under it).
        resource.getNode().addDependency(worker.getRole());
        resource.getNode().addDependency(cache);

        if (definition != null) {
            holdBackTraining(definition);
        }
    }

    /**
     * The worker's channels: one read-only FSxLustre channel per location, mounted at
     * {@code /opt/ml/input/data/warm<i>}.
     */
    private List<Channel> workerChannels(List<LustreLocation> locations) {
        List<Channel> channels = new ArrayList<>();
        for (int i = 0; i < locations.size(); i++) {
            channels.add(LustreChannel.builder("warm" + i).cache(cache)
                    .dataset(locations.get(i).getDataset().getName()).path(locations.get(i).getPath()).build());
        }
        return channels;
    }

    /**
     * The S3 locations whose objects appear in the warmed directories: a dataset's association links its
     * file-system path to its S3 location, so {@code <path>} under it shows {@code s3://<dataset>/<path>/}.
     */
    private static List<DataLocation> dataLocations(List<LustreLocation> locations) {
        return locations.stream().map(location -> new DataLocation(location.getDataset().getDataBucket(),
                KeyPrefix.join(location.getDataset().getKeyPrefix(), location.getPath()))).toList();
    }

    /**
     * Holds back another definition that reads this cache, also one in another stack (for example a training
     * stack beside the data stack that holds the cache and its preload): it deploys after the preload when the
     * deploy waits, and each of its executions waits for the preload's execution. The definition given in the props
     * is held back already.
     *
     * @param definition a deployed definition with a Lustre channel on this cache
     */
    public void holdBack(TrainingJobDefinition definition) {
        requireHoldable(definition);
        holdBackTraining(definition);
    }

    /**
     * Training deploys after the preload when the deploy waits, and in every case each training execution first
     * waits for the preload's execution: it may still be importing or warming (no-wait, or a waiting deploy that
     * went on after {@link #MAX_WAITING_TIMEOUT}); an EMPTY preload has succeeded and holds nothing back.
     */
    private void holdBackTraining(TrainingJobDefinition definition) {
        if (waitForCompletion) {
            definition.deployAfter(resource);
        }
        definition.waitForExecution(getExecutionArn(), maxTrainingWait);
    }

    /**
     * Whether the deploy waits: as given, else by the estimated warm-up (FSx's metadata import of the files, then
     * the worker, by the advisor's model) against what a deploy can wait. Waiting is refused at synth when it is
     * forced for a warm-up estimated beyond that.
     */
    private boolean waitForCompletion(LustrePreloadProps props, int parallelism) {
        Boolean given = props.getWaitForCompletion();
        Long files = props.getFileCount();
        Long bytes = props.getTotalBytes();
        if (files == null || bytes == null || Boolean.FALSE.equals(given)) {
            return !Boolean.FALSE.equals(given);
        }
        if (files < 0 || bytes < 0) {
            throw ConfigurationError.of(this, files < 0 ? "fileCount" : "totalBytes", files < 0 ? files : bytes,
                    "0 or more");
        }
        Integer capacity = cache.getStorageCapacityGiB();
        double seconds = EstimateModel.lustreIndexingSeconds(files) + EstimateModel.preloadSeconds(files, bytes,
                capacity != null ? capacity : FsxLimits.SCRATCH_2_MIN_CAPACITY_GIB, parallelism);
        long limit = MAX_WAITING_TIMEOUT.toSeconds().longValue();
        if (seconds <= limit) {
            return true;
        }
        String estimate = String.format(Locale.ROOT, "%,d files (%s) are estimated to take %.1f h to import and warm "
                + "(advisor model: metadata import, then %d readers)", files, ByteSize.format(bytes), seconds / 3600,
                parallelism);
        if (Boolean.TRUE.equals(given)) {
            throw ConfigurationError.of(this, "waitForCompletion", true, "false: " + estimate + ", beyond the "
                    + MAX_WAITING_TIMEOUT.toMinutes().longValue() + " minutes a deploy can wait");
        }
        Annotations.of(this).addInfo(getNode().getPath() + ": the deploy does not wait for the preload: " + estimate
                + ", beyond the " + MAX_WAITING_TIMEOUT.toMinutes().longValue() + " minutes a deploy can wait; "
                + "training executions wait for it instead");
        return false;
    }

    private TrainingImage workerImage(LustrePreloadProps props, TrainingJobDefinition definition) {
        if (props.getImage() != null) {
            return props.getImage();
        }
        if (definition != null && definition.getSpec().getTrainingImage() != null) {
            String uri = definition.getSpec().getTrainingImage().getUri();
            if (Token.isUnresolved(uri) && Stack.of(definition) != Stack.of(this)) {
                throw ConfigurationError.of(this, "image", null, "a worker image given here: the definition "
                        + definition.getNode().getPath() + " is in another stack and its image is a deploy-time value "
                        + "of that stack, which this stack cannot reference without a dependency cycle");
            }
            return definition.getSpec().getTrainingImage();
        }
        throw ConfigurationError.of(this, "image", null, definition == null
                ? "a worker image when the preload belongs to no definition (a Linux image with /bin/sh and GNU coreutils "
                        + "and findutils)"
                : "a worker image: the definition " + definition.getNode().getPath()
                        + " uses an algorithm name, not an image the worker could run");
    }

    /**
     * What is warmed: the given locations, else what the definition's channels on this cache read, else the
     * root of every dataset of the cache. One worker channel each.
     */
    private List<LustreLocation> locations(LustrePreloadProps props, TrainingJobDefinition definition) {
        List<LustreLocation> locations = props.getLocations() != null ? props.getLocations()
                : definition != null ? definition.getSpec().getChannels().stream()
                        .filter(c -> c instanceof LustreChannel l && l.getCache() == cache)
                        .map(c -> ((LustreChannel) c).location()).toList()
                : cache.getDatasets().stream().map(d -> cache.location(d.getName(), "")).toList();
        if (locations.isEmpty() || locations.size() > TrainingJobDefinition.MAX_CHANNELS) {
            throw ConfigurationError.of(this, "locations", locations.size() + " locations",
                    "1 to " + TrainingJobDefinition.MAX_CHANNELS + " directories (one worker channel each)");
        }
        Set<List<String>> distinct = new HashSet<>();
        for (int i = 0; i < locations.size(); i++) {
            LustreLocation location = locations.get(i);
            if (location.getCache() != cache) {
                throw ConfigurationError.of(this, "locations[" + i + "]", location.getCache().getNode().getPath(),
                        "a location of the cache being warmed, " + cache.getNode().getPath());
            }
            if (!distinct.add(List.of(location.getDataset().getName(), location.getPath()))) {
                throw ConfigurationError.of(this, "locations[" + i + "]",
                        location.getDataset().getName() + "/" + location.getPath(), "distinct directories");
            }
        }
        return locations;
    }

    /**
     * What decides re-warming: the file system (a replaced cache is cold), each warmed dataset's link
     * (file-system path to S3 location), the warmed directories, and the dataset version.
     */
    private List<Object> warmKey(List<LustreLocation> locations, String datasetVersion) {
        List<Object> warmed = new ArrayList<>();
        for (LustreLocation location : locations) {
            LustreDataset dataset = location.getDataset();
            warmed.add(List.of(dataset.getFileSystemPath(), dataset.getS3Uri(), location.getPath()));
        }
        return List.of(cache.getFileSystemId(), warmed, datasetVersion != null ? datasetVersion : "");
    }

    /** A time limit: the given one (1 minute to 28 days) or 12 hours. */
    private Duration limit(String field, Duration given) {
        Duration limit = given != null ? given : Duration.hours(12);
        long seconds = limit.toSeconds().longValue();
        if (seconds < 60 || seconds > TrainingJobDefinition.MAX_RUNTIME.toSeconds().longValue()) {
            throw ConfigurationError.of(this, field, limit.toHumanString(), "1 minute to 28 days");
        }
        return limit;
    }

    private int bounded(String field, Integer value, int fallback, int min, int max) {
        int v = value != null ? value : fallback;
        if (v < min || v > max) {
            throw ConfigurationError.of(this, field, v, min + " to " + max);
        }
        return v;
    }

    private void requireHoldable(TrainingJobDefinition definition) {
        boolean reads = definition.getSpec().getChannels().stream()
                .anyMatch(c -> c instanceof LustreChannel l && l.getCache() == cache);
        if (!reads) {
            throw ConfigurationError.of(this, "definition", definition.getNode().getPath(),
                    "a definition with a LustreChannel on " + cache.getNode().getPath()
                            + " (warming a cache the job does not read would only delay it)");
        }
    }

    /**
     * {@code warm-<definition prefix>}: lowercase, as SageMaker writes names in ARNs (the handler's IAM
     * policy matches them), and outside the definition's own {@code <prefix>-*} jobs, so the training state
     * machine cannot touch the workers nor the workers' handler the training jobs. A deploy-time prefix cannot
     * be lower-cased at synth: the workers are then named after the definition's construct address instead.
     */
    private static String workerPrefix(TrainingJobDefinition definition) {
        String prefix = definition != null ? definition.getJobNamePrefix() : "preload";
        String base = Token.isUnresolved(prefix) ? definition.getNode().getAddr() : prefix.toLowerCase(Locale.ROOT);
        int room = SageMakerLimits.JOB_NAME_PREFIX.getMax().intValue() - "warm-".length();
        String trimmed = base.length() > room ? base.substring(0, room).replaceAll("-+$", "") : base;
        return "warm-" + trimmed;
    }

    private Provider provider() {
        Code code = Code.fromAsset(HandlerBundle.path().toString());
        Function onEvent = handler("OnEvent", "onEvent", code);
        Function isComplete = handler("IsComplete", "isComplete", code);
        StateMachine machine = stateMachine.getStateMachine();
        machine.grantStartExecution(onEvent);
        String executions = Stack.of(this).formatArn(ArnComponents.builder().service("states")
                .resource("execution").resourceName(machine.getStateMachineName() + ":*")
                .arnFormat(ArnFormat.COLON_RESOURCE_NAME).build());
        String workers = Stack.of(this).formatArn(ArnComponents.builder().service("sagemaker")
                .resource("training-job").resourceName(worker.getJobNamePrefix() + "-*")
                .arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
        for (Function function : List.of(onEvent, isComplete)) {
            WildcardFindings findings = new WildcardFindings(function.getRole());
            function.addToRolePolicy(PolicyStatement.Builder.create()
                    .actions(List.of("states:DescribeExecution", "states:StopExecution"))
                    .resources(List.of(executions)).build());
            findings.add(List.of(executions), "The preload handler may describe and stop only executions of its own "
                    + "state machine, named '" + worker.getJobNamePrefix() + "-<hash of the CloudFormation request>'.");
            if (function == isComplete) {
                function.addToRolePolicy(PolicyStatement.Builder.create()
                        .actions(List.of("sagemaker:DescribeTrainingJob", "sagemaker:StopTrainingJob"))
                        .resources(List.of(workers)).build());
                findings.add(List.of(workers), "The preload handler may describe (for its metrics) and stop only its "
                        + "own worker jobs, named '" + worker.getJobNamePrefix() + "-<hash of the CloudFormation request>'.");
            }
            findings.acknowledge();
        }
        Provider provider = Provider.Builder.create(this, "Provider")
                .onEventHandler(onEvent)
                .isCompleteHandler(isComplete)
                .queryInterval(Duration.seconds(30))
                .totalTimeout(Duration.minutes(60))
                .disableWaiterStateMachineLogging(false)
                .waiterStateMachineLogOptions(LogOptions.builder().level(LogLevel.ALL).destination(
                        LogGroups.create(this, "WaiterLogs", cache.getEncryptionKey())).build())
                .logGroup(LogGroups.create(this, "ProviderLogs", cache.getEncryptionKey()))
                .build();
        WaiterTracing.enable(provider);
        acknowledgeFramework(provider, List.of(onEvent, isComplete));
        return provider;
    }

    /** The Provider framework's own findings, each acknowledged with why it is acceptable. */
    private void acknowledgeFramework(Provider provider, List<Function> handlers) {
        WildcardFindings findings = new WildcardFindings(provider);
        List<IFunction> functions = new ArrayList<>(handlers);
        for (IConstruct child : provider.getNode().getChildren()) {
            if (child instanceof IFunction function) {
                functions.add(function);
            }
        }
        for (IFunction function : functions) {
            findings.add(List.of(function.getFunctionArn() + ":*"), "The Provider framework invokes the handler "
                    + "functions and its own by ARN; ':*' covers their versions and aliases only.");
        }
        findings.add(List.of("*"), "Added by aws-cdk-lib for the waiter state machine's CloudWatch Logs vended "
                + "delivery, which supports no resource-level permissions.");
        findings.acknowledge();
        String basicExecution = "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/"
                + "AWSLambdaBasicExecutionRole]";
        for (Construct scope : List.<Construct>of(provider, handlers.get(0), handlers.get(1))) {
            Validations.of(scope).acknowledge(Acknowledgment.builder().id(basicExecution).reason("AWS's basic Lambda "
                    + "execution policy grants only logs:CreateLogGroup, CreateLogStream and PutLogEvents, which the "
                    + "custom-resource functions need to log.").build());
        }
    }

    private Function handler(String id, String method, Code code) {
        LogGroup logs = LogGroups.create(this, id + "Logs", cache.getEncryptionKey());
        return Function.Builder.create(this, id)
                .description("Lustre preload custom resource (" + method + ") of " + getNode().getPath())
                .runtime(Runtime.JAVA_25)
                .handler(HANDLER_CLASS + "::" + method)
                .code(code)
                .memorySize(512)
                .timeout(Duration.minutes(2))
                .logGroup(logs)
                .build();
    }

    /**
     * @return the worker's training job name (a deploy-time attribute); the job exists only once the data is
     *         imported, and never when the preload found no data (status EMPTY)
     */
    public String getWorkerJobName() {
        return resource.getAttString("WorkerJobName");
    }

    /**
     * @return the ARN of the preload's state machine execution (a deploy-time attribute): what training should wait
     *         for, since it covers every outcome, also an empty location and a failure before the worker
     */
    public String getExecutionArn() {
        return resource.getAttString("ExecutionArn");
    }

    /**
     * @return what the deploy saw (a deploy-time attribute): WARMED, EMPTY, STARTED (the deploy did not wait for
     *         the result), FAILED (an update's warm-up failed), UNKNOWN; see {@code PreloadStatus}
     */
    public String getStatus() {
        return resource.getAttString("Status");
    }

    /** @return the number of files warmed (only when the deploy waits; 0 unless the status is WARMED) */
    public String getFilesWarmed() {
        return waitedAttribute("FilesWarmed");
    }

    /** @return the bytes warmed (only when the deploy waits; 0 unless the status is WARMED) */
    public String getBytesWarmed() {
        return waitedAttribute("BytesWarmed");
    }

    /** @return the warm-up's duration in seconds (only when the deploy waits; 0 unless the status is WARMED) */
    public String getSeconds() {
        return waitedAttribute("Seconds");
    }

    private String waitedAttribute(String name) {
        if (!waitForCompletion) {
            throw new IllegalStateException(getNode().getPath() + ": " + name + " is known only when the deploy "
                    + "waits for the warm-up (waitForCompletion is false)");
        }
        return resource.getAttString(name);
    }

    /** @return the cache being warmed */
    public LustreCache getCache() {
        return cache;
    }

    /** @return the worker's blueprint: its request and execution role, run by the preload's state machine */
    public TrainingJobBlueprint getWorker() {
        return worker;
    }

    /** @return the state machine that runs each warm-up */
    public IStateMachine getStateMachine() {
        return stateMachine.getStateMachine();
    }

    /** @return the custom resource */
    public CustomResource getResource() {
        return resource;
    }
}
