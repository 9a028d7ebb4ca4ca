package io.github.trainingdata.cdk.preload;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.WildcardFindings;
import io.github.trainingdata.cdk.storage.KeyPrefix;
import io.github.trainingdata.cdk.storage.LogGroups;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.training.Channel;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Acknowledgment;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Validations;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.stepfunctions.LogLevel;
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
 * <p>A custom resource (aws-cdk-lib's Provider framework, Java handler on the AWS SDK) starts the worker
 * on create, re-warms on update only when what is warmed changes (paths, import path, dataset version),
 * stops a running worker on delete and never fails a delete. Retries reuse a deterministic worker name.
 * A failed worker fails the deploy with SageMaker's FailureReason; a timeout stops it. When the deploy does
 * not wait, the definition's state machine waits for the worker before it trains.
 */
public class LustrePreload extends Construct {
    /** The longest a deploy can wait: the Provider framework's one-hour limit, less a margin. */
    public static final Duration MAX_WAITING_TIMEOUT = Duration.minutes(55);
    private static final String HANDLER_CLASS = "io.github.trainingdata.cdk.preload.handler.PreloadHandler";
    private static final String WORKER_ROOT = "/opt/ml/input/data";

    private final LustreCache cache;
    private final boolean waitForCompletion;
    private final TrainingJobDefinition worker;
    private final CustomResource resource;

    /** Creates the preload. */
    public LustrePreload(Construct scope, String id, LustrePreloadProps props) {
        super(scope, id);
        this.cache = props.getCache();
        this.waitForCompletion = !Boolean.FALSE.equals(props.getWaitForCompletion());
        TrainingJobDefinition definition = props.getDefinition();
        TrainingImage image = workerImage(props, definition);
        List<String> paths = paths(props);
        Duration timeout = timeout(props);
        int parallelism = bounded("parallelism", props.getParallelism(), 8, 1, 64);
        int batchSize = bounded("batchSize", props.getBatchSize(), 256, 1, 10_000);
        if (definition != null) {
            requireReads(definition);
            if (definition.getStateMachine() == null) {
                throw ConfigurationError.of(this, "definition", definition.getNode().getPath(),
                        "a deployed definition (deploy is false, so there is no state machine to hold back until "
                                + "the cache is warm)");
            }
        }

        WarmUpScript script = WarmUpScript.load();
        Map<String, String> environment = new LinkedHashMap<>(script.environment());
        environment.put(WarmUpScript.ROOT_VARIABLE, WORKER_ROOT);
        environment.put(WarmUpScript.PARALLELISM_VARIABLE, Integer.toString(parallelism));
        environment.put(WarmUpScript.BATCH_SIZE_VARIABLE, Integer.toString(batchSize));
        List<Channel> channels = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            channels.add(LustreChannel.builder("warm" + i).cache(cache).path(paths.get(i)).build());
        }
        this.worker = new TrainingJobDefinition(this, "Worker", TrainingJobDefinitionProps.builder()
                .deploy(false)
                .jobNamePrefix(workerPrefix(definition))
                .trainingImage(image)
                .role(definition != null ? definition.getRole() : null)
                .dataBucket(definition != null ? definition.getDataBucket() : cache.getDataBucket())
                .outputPrefix(definition != null ? definition.getOutputPrefix() + "/preload-worker" : "preload-worker")
                .instanceType(props.getWorkerInstanceType() != null ? props.getWorkerInstanceType() : "ml.m5.xlarge")
                .volumeSizeGiB(30)
                .maxRuntime(timeout)
                .containerEntrypoint(script.containerEntrypoint())
                .environment(environment)
                .metricDefinitions(WarmUpScript.metricDefinitions())
                .channels(channels)
                .network(cache.getNetwork())
                .build());

        Provider provider = provider(timeout);
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("WorkerJobNamePrefix", worker.getJobNamePrefix());
        properties.put("WorkerRequest", Stack.of(this).toJsonString(worker.getRequest()));
        properties.put("WarmKey", Stack.of(this).toJsonString(List.of(cache.getImportPath(), paths,
                props.getDatasetVersion() != null ? props.getDatasetVersion() : "")));
        properties.put("TimeoutSeconds", timeout.toSeconds().toString());
        properties.put("Wait", Boolean.toString(waitForCompletion));
        this.resource = CustomResource.Builder.create(this, "Resource")
                .serviceToken(provider.getServiceToken())
                .resourceType("Custom::LustrePreload")
                .properties(properties)
                .build();
        // The worker needs its role's policy (VPC, FSx, logs) before it starts, and the file system itself.
        resource.getNode().addDependency(worker.getRole());
        resource.getNode().addDependency(cache);

        if (definition != null) {
            if (waitForCompletion) {
                definition.deployAfter(resource);
            } else {
                definition.waitForTrainingJob(getWorkerJobName());
            }
        }
    }

    private TrainingImage workerImage(LustrePreloadProps props, TrainingJobDefinition definition) {
        if (props.getImage() != null) {
            return props.getImage();
        }
        if (definition != null && definition.getTrainingImage() != null) {
            return definition.getTrainingImage();
        }
        throw ConfigurationError.of(this, "image", null, definition == null
                ? "a worker image when the preload belongs to no definition (a Linux image with /bin/sh and GNU coreutils "
                        + "and findutils)"
                : "a worker image: the definition " + definition.getNode().getPath()
                        + " uses an algorithm name, not an image the worker could run");
    }

    private List<String> paths(LustrePreloadProps props) {
        List<String> paths = props.getPaths() != null ? props.getPaths() : List.of("");
        if (paths.isEmpty() || paths.size() > TrainingJobDefinition.MAX_CHANNELS) {
            throw ConfigurationError.of(this, "paths", paths.size() + " paths",
                    "1 to " + TrainingJobDefinition.MAX_CHANNELS + " directories (one worker channel each)");
        }
        for (int i = 0; i < paths.size(); i++) {
            KeyPrefix.check(this, "paths[" + i + "]", paths.get(i));
        }
        if (new HashSet<>(paths).size() != paths.size()) {
            throw ConfigurationError.of(this, "paths", paths, "distinct directories");
        }
        return paths;
    }

    private Duration timeout(LustrePreloadProps props) {
        Duration timeout = props.getTimeout() != null ? props.getTimeout()
                : waitForCompletion ? Duration.minutes(50) : Duration.hours(12);
        long seconds = timeout.toSeconds().longValue();
        if (seconds < 60) {
            throw ConfigurationError.of(this, "timeout", timeout.toHumanString(), "at least 1 minute");
        }
        if (waitForCompletion && seconds > MAX_WAITING_TIMEOUT.toSeconds().longValue()) {
            throw ConfigurationError.of(this, "timeout", timeout.toHumanString(), "at most 55 minutes while the "
                    + "deploy waits (a custom resource may take one hour); set waitForCompletion(false) for longer "
                    + "warm-ups, and training will wait for the worker instead");
        }
        if (seconds > TrainingJobDefinition.MAX_RUNTIME.toSeconds().longValue()) {
            throw ConfigurationError.of(this, "timeout", timeout.toHumanString(), "at most 28 days");
        }
        return timeout;
    }

    private int bounded(String field, Integer value, int fallback, int min, int max) {
        int v = value != null ? value : fallback;
        if (v < min || v > max) {
            throw ConfigurationError.of(this, field, v, min + " to " + max);
        }
        return v;
    }

    private void requireReads(TrainingJobDefinition definition) {
        boolean reads = definition.getChannels().stream()
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
     * machine cannot touch the workers nor the workers' handler the training jobs.
     */
    private static String workerPrefix(TrainingJobDefinition definition) {
        String base = definition != null ? definition.getJobNamePrefix().toLowerCase(Locale.ROOT) : "preload";
        String trimmed = base.length() > 21 ? base.substring(0, 21).replaceAll("-+$", "") : base;
        return "warm-" + trimmed;
    }

    private Provider provider(Duration timeout) {
        Code code = Code.fromAsset(HandlerBundle.path().toString());
        Function onEvent = handler("OnEvent", "onEvent", code);
        Function isComplete = handler("IsComplete", "isComplete", code);
        String workers = Stack.of(this).formatArn(ArnComponents.builder().service("sagemaker")
                .resource("training-job").resourceName(worker.getJobNamePrefix() + "-*")
                .arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
        grantWorkerJobs(onEvent, workers, List.of("sagemaker:CreateTrainingJob", "sagemaker:DescribeTrainingJob",
                "sagemaker:StopTrainingJob"), "start, describe and stop");
        grantWorkerJobs(isComplete, workers, List.of("sagemaker:DescribeTrainingJob", "sagemaker:StopTrainingJob"),
                "describe and stop");
        onEvent.addToRolePolicy(PolicyStatement.Builder.create()
                .actions(List.of("iam:PassRole"))
                .resources(List.of(worker.getRole().getRoleArn()))
                .conditions(Map.of("StringEquals", Map.of("iam:PassedToService", "sagemaker.amazonaws.com")))
                .build());
        Provider provider = Provider.Builder.create(this, "Provider")
                .onEventHandler(onEvent)
                .isCompleteHandler(isComplete)
                .queryInterval(Duration.seconds(30))
                .totalTimeout(Duration.minutes(60))
                .disableWaiterStateMachineLogging(false)
                .waiterStateMachineLogOptions(LogOptions.builder().level(LogLevel.ALL).destination(
                        LogGroups.create(this, "WaiterLogs", cache.getDataBucket().getEncryptionKey())).build())
                .logGroup(LogGroups.create(this, "ProviderLogs", cache.getDataBucket().getEncryptionKey()))
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

    private void grantWorkerJobs(Function function, String workers, List<String> actions, String what) {
        function.addToRolePolicy(PolicyStatement.Builder.create().actions(actions).resources(List.of(workers)).build());
        WildcardFindings findings = new WildcardFindings(function.getRole());
        findings.add(List.of(workers), "The preload handler may " + what + " only its own worker jobs, named '"
                + worker.getJobNamePrefix() + "-<hash of the CloudFormation request>'.");
        findings.acknowledge();
    }

    private Function handler(String id, String method, Code code) {
        LogGroup logs = LogGroups.create(this, id + "Logs", cache.getDataBucket().getEncryptionKey());
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

    /** @return the worker's training job name (a deploy-time attribute) */
    public String getWorkerJobName() {
        return resource.getAttString("WorkerJobName");
    }

    /** @return the number of files warmed (only when the deploy waits) */
    public String getFilesWarmed() {
        return waitedAttribute("FilesWarmed");
    }

    /** @return the bytes warmed (only when the deploy waits) */
    public String getBytesWarmed() {
        return waitedAttribute("BytesWarmed");
    }

    /** @return the warm-up's duration in seconds (only when the deploy waits) */
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

    /** @return the worker's definition (request and execution role; not deployed on its own) */
    public TrainingJobDefinition getWorker() {
        return worker;
    }

    /** @return the custom resource */
    public CustomResource getResource() {
        return resource;
    }
}
