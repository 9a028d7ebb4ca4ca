package io.github.trainingdata.cdk.launch;

import java.util.Objects;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterNotFoundException;

/**
 * A CreateTrainingJob request document that a deployed stack stored in an SSM parameter; reads it and
 * starts jobs from it.
 */
public final class DeployedTrainingJobDefinition {
    private final SsmClient ssm;
    private final String parameterName;

    /**
     * Points at the parameter; nothing is read yet.
     *
     * @param ssm           the client to read with
     * @param parameterName the parameter's name
     */
    public DeployedTrainingJobDefinition(SsmClient ssm, String parameterName) {
        this.ssm = Objects.requireNonNull(ssm, "ssm");
        this.parameterName = Objects.requireNonNull(parameterName, "parameterName");
    }

    /**
     * Reads the document.
     *
     * @return the CreateTrainingJob request document
     * @throws IllegalArgumentException if the parameter does not exist
     */
    public String document() {
        try {
            return ssm.getParameter(r -> r.name(parameterName)).parameter().value();
        } catch (ParameterNotFoundException e) {
            throw new IllegalArgumentException("SSM parameter " + parameterName
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
