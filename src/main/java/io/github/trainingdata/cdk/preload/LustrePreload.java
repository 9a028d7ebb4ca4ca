package io.github.trainingdata.cdk.preload;

import io.github.trainingdata.cdk.performance.PreloadDefaults;
import io.github.trainingdata.cdk.internal.CustomResourceProvider;
import io.github.trainingdata.cdk.internal.CustomResourceRole;
import io.github.trainingdata.cdk.internal.KeyPrefix;
import io.github.trainingdata.cdk.internal.handler.AssumedRoles;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreLocation;
import io.github.trainingdata.cdk.training.TrainingChannel;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.TrainingJobBlueprint;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.ssm.IStringParameter;
import software.amazon.awscdk.services.ssm.ParameterTier;
import software.amazon.awscdk.services.ssm.StringParameter;
import software.amazon.awscdk.services.stepfunctions.IStateMachine;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

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
 * <p>A state machine runs each warm-up: it looks for one object at each data location (none anywhere: status
 * EMPTY, no worker: the usual first deploy, whose bucket is created by the same stack), starts FSx's metadata import
 * of the locations that hold data and waits for that task (files exist only once imported), then runs the worker
 * on those locations only (some empty: status PARTIAL, the execution still succeeds and names them), retrying what
 * is transient (throttling, limits, IAM propagation, capacity) with new job names. A custom resource ({@code WarmUp},
 * served by the stack's custom-resource provider, Java handler on the AWS SDK) starts an execution on create, and on update only when what is
 * warmed changes (the file system, the data locations and the directories they appear at, the dataset version);
 * during a rollback it starts nothing and restores the execution of the configuration rolled back to; it stops a
 * running one on delete and never fails a delete. Retries reuse a deterministic name. When the deploy waits, it
 * waits at most {@link #MAX_WAITING_TIMEOUT}; a warm-up still running then no longer holds the deploy (status
 * STARTED).
 */
public class LustrePreload extends Construct {
    /** The preload's custom resource type. */
    static final String RESOURCE_TYPE = "Custom::LustrePreload";
    /**
     * The custom resource's id under the preload. The last release's, served by a provider of its own, was
     * {@code Resource}; CloudFormation cannot move a custom resource to another ServiceToken, so the resource served by
     * the stack's provider has a new id (a new logical id): the upgrade creates it (a warm-up) and deletes the old one,
     * through the old provider, in the update's cleanup.
     */
    static final String RESOURCE_ID = "WarmUp";
    /**
     * The longest a deploy waits for the warm-up: within the stack provider's 58 minutes and a custom resource's hour.
     * A warm-up still running then goes on while the deploy completes (status STARTED).
     */
    public static final Duration MAX_WAITING_TIMEOUT = Duration.seconds(PreloadDefaults.MAX_DEPLOY_WAIT_SECONDS);
    private static final String WORKER_ROOT = "/opt/ml/input/data";

    private final LustreCache cache;
    private final List<LustreLocation> locations;
    private final boolean waitForCompletion;
    private final Duration maxTrainingWait;
    private final TrainingJobBlueprint worker;
    private final PreloadStateMachine stateMachine;
    private final CustomResource resource;
    private final StringParameter currentExecution;

    /** Creates the preload. */
    public LustrePreload(Construct scope, String id, LustrePreloadProps props) {
        super(scope, id);
        PreloadSpec spec = new PreloadSpec(this, props);
        this.cache = props.getCache();
        TrainingJobDefinition definition = props.getDefinition();
        // A definition in another stack lends nothing that would make this stack depend on it: the worker gets its
        // own role and output location here, and its image must be given or literal (else a dependency cycle).
        boolean ownStack = definition != null && Stack.of(definition) == Stack.of(this);
        this.waitForCompletion = spec.waitForCompletion;
        this.maxTrainingWait = spec.maxTrainingWait();
        this.locations = spec.locations;

        WarmUpScript script = WarmUpScript.load();
        Map<String, String> environment = new LinkedHashMap<>(script.environment());
        environment.put(WarmUpScript.ROOT_VARIABLE, WORKER_ROOT);
        environment.put(WarmUpScript.PARALLELISM_VARIABLE, Integer.toString(spec.parallelism));
        environment.put(WarmUpScript.BATCH_SIZE_VARIABLE, Integer.toString(spec.batchSize));
        this.worker = TrainingJobBlueprint.create(new Construct(this, "Worker"), TrainingJobDefinitionProps.builder()
                .jobNamePrefix(spec.workerPrefix)
                .trainingImage(spec.image)
                .role(ownStack ? definition.getRole() : null)
                .outputBucket(ownStack ? definition.getSpec().getOutputBucket()
                        : locations.get(0).getDataset().getDataBucket())
                .outputPrefix(ownStack ? definition.getSpec().getOutputPrefix() + "/preload-worker" : "preload-worker")
                .instanceType(props.getWorkerInstanceType() != null ? props.getWorkerInstanceType()
                        : PreloadDefaults.DEFAULT_WORKER_INSTANCE_TYPE)
                .volumeSizeGiB(30)
                .maxRuntime(spec.timeout)
                .containerEntrypoint(script.containerEntrypoint())
                .environment(environment)
                .metricDefinitions(WarmUpScript.metricDefinitions())
                .channels(workerChannels(locations))
                .network(cache.getNetwork())
                .build());
        List<DataLocation> dataLocations = dataLocations(locations);
        this.stateMachine = new PreloadStateMachine(this, "StateMachine", worker, cache.getFileSystemId(),
                dataLocations, spec.importTimeout, spec.timeout, cache.getEncryptionKey());

        CustomResourceRole handlerRole = PreloadProvider.grant(this, stateMachine.getStateMachine(), worker.getJobNamePrefix(),
                cache.getEncryptionKey());
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("WorkerJobNamePrefix", worker.getJobNamePrefix());
        properties.put("StateMachineArn", stateMachine.getStateMachine().getStateMachineArn());
        properties.put("FileSystemId", cache.getFileSystemId());
        properties.put("DataLocations", dataLocations.stream().map(DataLocation::uri).toList());
        properties.put("WarmKey", Stack.of(this).toJsonString(spec.warmKey(props.getDatasetVersion())));
        properties.put("WaitSeconds", waitForCompletion ? MAX_WAITING_TIMEOUT.toSeconds().toString() : "0");
        // The role the provider acts as; the reference keeps it until the resource is deleted (also when the preload
        // is removed from the stack).
        properties.put(AssumedRoles.ROLE_ARN, handlerRole.getRoleArn());
        this.resource = CustomResource.Builder.create(this, RESOURCE_ID)
                .serviceToken(CustomResourceProvider.of(this, cache.getEncryptionKey()).getServiceToken())
                .resourceType(RESOURCE_TYPE)
                .properties(properties)
                .build();
        // The worker needs its role's policy (VPC, FSx, logs) before it starts, and the file system with its links
        // to S3 (a dependency on the cache covers every resource under it).
        resource.getNode().addDependency(worker.getRole());
        resource.getNode().addDependency(cache);
        this.currentExecution = StringParameter.Builder.create(this, "CurrentExecution")
                .description("ARN of the Lustre preload's current warm-up execution: training waits for it")
                .stringValue(getExecutionArn())
                .tier(ParameterTier.STANDARD)
                .build();
        // Training in other stacks reads a replaced cache only once this warm-up is the current one.
        cache.publishAfter(currentExecution);

        if (definition != null) {
            holdBackTraining(definition);
        }
    }

    /**
     * The worker's channels: one read-only FSxLustre channel per location, mounted at
     * {@code /opt/ml/input/data/warm<i>}.
     */
    private List<TrainingChannel> workerChannels(List<LustreLocation> locations) {
        List<TrainingChannel> channels = new ArrayList<>();
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
     * @param definition a definition with a Lustre channel on this cache
     */
    public void holdBack(TrainingJobDefinition definition) {
        PreloadRules.requireReads(this, cache, definition);
        holdBackTraining(definition);
    }

    /**
     * Training deploys after the preload when the deploy waits, and in every case each training execution first
     * waits for the preload's execution that is current when it starts, looked up in {@link
     * #getCurrentExecutionParameter()}: it may still be importing or warming (no-wait, or a waiting deploy that went
     * on after {@link #MAX_WAITING_TIMEOUT}); an EMPTY preload has succeeded and holds nothing back. Only the
     * parameter's and the state machine's names reach the definition, so a re-warm changes nothing another stack
     * imports.
     */
    private void holdBackTraining(TrainingJobDefinition definition) {
        if (waitForCompletion) {
            definition.deployAfter(resource);
        }
        definition.waitForCurrentExecution(currentExecution, stateMachine.getStateMachine(), maxTrainingWait);
    }

    /**
     * @return the worker's training job name (a deploy-time attribute): the last attempt's once the deploy saw the
     *         warm-up succeed, else the first attempt's (the execution's name); the job exists only once the data is
     *         imported, and never when the preload found no data (status EMPTY)
     */
    public String getWorkerJobName() {
        return resource.getAttString("WorkerJobName");
    }

    /**
     * @return the ARN of the preload's state machine execution that is current for the resource's properties (a
     *         deploy-time attribute that changes with every warm-up; after a rollback, the restored configuration's): it
     *         SUCCEEDS when training may go on (WARMED, PARTIAL, EMPTY). Refer to it only in this stack; other stacks
     *         read {@link #getCurrentExecutionParameter()} at run time, so a warm-up never changes a value they import
     */
    public String getExecutionArn() {
        return resource.getAttString("ExecutionArn");
    }

    /**
     * @return the SSM parameter holding the ARN of the current warm-up execution (CloudFormation updates it with
     *         every warm-up, and restores it on rollback); its name is stable, so any stack may wait on it
     */
    public IStringParameter getCurrentExecutionParameter() {
        return currentExecution;
    }

    /**
     * @return what the deploy saw (a deploy-time attribute): WARMED, PARTIAL (some locations held no object and were
     *         not warmed, see {@link #getEmptyLocations()}), EMPTY, STARTED (the deploy did not wait for the result),
     *         FAILED (an update's warm-up failed), UNKNOWN; see {@code PreloadStatus}
     */
    public String getStatus() {
        return resource.getAttString("Status");
    }

    /** @return the number of files warmed (only when the deploy waits; 0 unless WARMED or PARTIAL) */
    public String getFilesWarmed() {
        return waitedAttribute("FilesWarmed");
    }

    /** @return the bytes warmed (only when the deploy waits; 0 unless WARMED or PARTIAL) */
    public String getBytesWarmed() {
        return waitedAttribute("BytesWarmed");
    }

    /** @return the warm-up's duration in seconds (only when the deploy waits; 0 unless WARMED or PARTIAL) */
    public String getSeconds() {
        return waitedAttribute("Seconds");
    }

    /**
     * @return the data locations ({@code s3://bucket/prefix/}) that held no object and were not warmed,
     *         comma-separated, empty when none (only when the deploy waits)
     */
    public String getEmptyLocations() {
        return waitedAttribute("EmptyLocations");
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

    /** @return the directories warmed, one worker channel each, in order */
    public List<LustreLocation> getLocations() {
        return locations;
    }

    /** @return whether the deploy waits for the warm-up (then the results are attributes too) */
    public boolean isWaitForCompletion() {
        return waitForCompletion;
    }

    /** @return the worker's execution role: the definition's when it is in this stack, else the worker's own */
    public IRole getWorkerRole() {
        return worker.getRole();
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
