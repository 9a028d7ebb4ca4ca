package io.github.trainingdata.cdk.launch;

import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.StateMachineDoesNotExistException;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterNotFoundException;

/**
 * A CreateTrainingJob request document that a deployed stack stored in an SSM parameter; reads it and
 * starts jobs from it.
 *
 * <p>The parameter holds the document itself, or, when the document could be larger than an SSM parameter value
 * may be (8 KB), a pointer {@code {"RequestInStateMachine": {"StateMachineArn": …, "StateName": "Train",
 * "CheckpointS3Uri": …}}} to the definition's state machine, whose training state holds the same request: then
 * the document is read from the state machine's definition (DescribeStateMachine), which needs an
 * {@link SfnClient}.
 */
public final class DeployedTrainingJobDefinition {
    /** The pointer's only member: where the request is kept. */
    public static final String REQUEST_IN_STATE_MACHINE = "RequestInStateMachine";
    /** The pointer's state machine ARN. */
    public static final String STATE_MACHINE_ARN = "StateMachineArn";
    /** The pointer's state whose Parameters hold the request. */
    public static final String STATE_NAME = "StateName";
    /** The pointer's base checkpoint URI (each run syncs a prefix under it), absent without checkpoints. */
    public static final String CHECKPOINT_S3_URI = "CheckpointS3Uri";

    private final SsmClient ssm;
    private final SfnClient stepFunctions;
    private final String parameterName;

    /**
     * Points at the parameter; nothing is read yet. Reads documents the parameter holds itself; see
     * {@link #DeployedTrainingJobDefinition(SsmClient, SfnClient, String)} for larger ones.
     *
     * @param ssm           the client to read with
     * @param parameterName the parameter's name
     */
    public DeployedTrainingJobDefinition(SsmClient ssm, String parameterName) {
        this.ssm = Objects.requireNonNull(ssm, "ssm");
        this.stepFunctions = null;
        this.parameterName = Objects.requireNonNull(parameterName, "parameterName");
    }

    /**
     * Points at the parameter; nothing is read yet. Reads every document, also one kept in the state machine.
     *
     * @param ssm           the client to read the parameter with
     * @param stepFunctions the client to read a state machine's definition with
     * @param parameterName the parameter's name
     */
    public DeployedTrainingJobDefinition(SsmClient ssm, SfnClient stepFunctions, String parameterName) {
        this.ssm = Objects.requireNonNull(ssm, "ssm");
        this.stepFunctions = Objects.requireNonNull(stepFunctions, "stepFunctions");
        this.parameterName = Objects.requireNonNull(parameterName, "parameterName");
    }

    /**
     * Reads the document.
     *
     * <p>What the document reads of a store in another stack (a Lustre cache's id, mount name and subnets) is read
     * now, from the SSM parameter where that store publishes it ({@link DataStoreBindings}).
     *
     * @return the CreateTrainingJob request document
     * @throws IllegalArgumentException if the parameter or the state machine it points at does not exist
     * @throws DataStoreNotReadyException if a store the document reads is not published, or lacks a value
     * @throws IllegalStateException    if the parameter points at a state machine and this reader has no
     *                                  {@link SfnClient}
     */
    public String document() {
        String value = read(parameterName);
        Optional<StateMachineRequest> pointer = StateMachineRequest.from(value);
        if (pointer.isEmpty()) {
            return DataStoreBindings.resolve(ssm, value);
        }
        String arn = pointer.get().stateMachineArn();
        if (stepFunctions == null) {
            throw new IllegalStateException("SSM parameter " + parameterName + " points at the request in state machine "
                    + arn + " (it is larger than an SSM parameter holds): read it with "
                    + "new DeployedTrainingJobDefinition(ssm, stepFunctions, parameterName)");
        }
        try {
            return pointer.get().document(stepFunctions.describeStateMachine(r -> r.stateMachineArn(arn)).definition());
        } catch (StateMachineDoesNotExistException e) {
            throw new IllegalArgumentException("State machine " + arn + ", which SSM parameter " + parameterName
                    + " points at, does not exist: is the stack deployed in this account and Region?", e);
        }
    }

    /**
     * Reads the definition's capacity policy, which a definition with one keeps in a second parameter (its output
     * {@code CapacityPolicyParameterName}), with the same client; see
     * {@link TrainingJobLauncher#runWithCapacityPlan}.
     *
     * @param policyParameterName the capacity policy parameter's name
     * <p>What the plan reads of a network or store in another stack (the S3 fallback's subnets and zones, the zones
     * of attempts in the data subnet) is read now, from its publication ({@link DataStoreBindings}).
     *
     * @return the plan
     * @throws IllegalArgumentException if the parameter does not exist or holds no capacity plan
     * @throws DataStoreNotReadyException if a network or store the plan reads is not published, or lacks a value
     */
    public CapacityPlan capacityPlan(String policyParameterName) {
        return CapacityPlan.fromJson(DataStoreBindings.resolve(ssm,
                read(Objects.requireNonNull(policyParameterName, "policyParameterName"))));
    }

    private String read(String name) {
        try {
            return ssm.getParameter(r -> r.name(name)).parameter().value();
        } catch (ParameterNotFoundException e) {
            throw new IllegalArgumentException("SSM parameter " + name
                    + " does not exist: is the stack deployed in this account and Region?", e);
        }
    }

    /**
     * Reads the document and starts a job from it, with fresh checkpoints.
     *
     * @param launcher      the launcher to start the job with
     * @param jobNamePrefix the job name prefix
     * @return the name of the started job
     */
    public String launch(TrainingJobLauncher launcher, String jobNamePrefix) {
        return launcher.start(document(), jobNamePrefix);
    }

    /**
     * Reads the document and starts a job on the checkpoints of an earlier run, see
     * {@link TrainingJobLauncher#resume(String, String, String)}.
     *
     * @param launcher      the launcher to start the job with
     * @param jobNamePrefix the job name prefix
     * @param earlierRun    the job or execution whose checkpoints to resume
     * @return the name of the started job
     */
    public String resume(TrainingJobLauncher launcher, String jobNamePrefix, String earlierRun) {
        return launcher.resume(document(), jobNamePrefix, earlierRun);
    }
}
