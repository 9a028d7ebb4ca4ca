package io.github.trainingdata.examples;

import io.github.trainingdata.cdk.training.CapacityPolicy;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.ecr.Repository;
import software.constructs.Construct;

/**
 * The settings of one training-job definition that a platform team changes from one deploy to the next. Each
 * example starts from its own defaults and a change is one {@code with...} call, e.g.
 * {@code QuickstartStack.TRAINING.withInstanceType("ml.p4d.24xlarge")}.
 *
 * @param name            the definition's construct id (in the composition also its team's stack name)
 * @param jobNamePrefix   the job-name prefix
 * @param dataset         the cache dataset the job's Lustre channel reads (null where the example has one; in the
 *                        composition, a team that reads S3 only)
 * @param imageTag        the training image's tag (the repository is the example's)
 * @param instanceType    the instance type
 * @param instanceCount   the instance count
 * @param hyperParameters the hyperparameters (rendered sorted)
 * @param managedSpot     whether the job runs on spot capacity
 * @param checkpointPrefix the checkpoint prefix (null: no checkpoints)
 * @param keepAlive       the warm pool's keep-alive period (null: no warm pool)
 * @param roleArn         an existing execution role (null: a new one)
 * @param capacityPolicy  what the state machine does when SageMaker has no capacity (null: none)
 */
public record TrainingSettings(String name, String jobNamePrefix, String dataset, String imageTag,
        String instanceType, int instanceCount, Map<String, String> hyperParameters, boolean managedSpot,
        String checkpointPrefix, Duration keepAlive, String roleArn, CapacityPolicy capacityPolicy) {

    /** Copies the hyperparameters into a sorted map. */
    public TrainingSettings {
        hyperParameters = Collections.unmodifiableMap(new TreeMap<>(hyperParameters));
    }

    /** @return a second definition like this one, under another construct id and job-name prefix */
    public TrainingSettings named(String otherName, String otherPrefix) {
        return new TrainingSettings(otherName, otherPrefix, dataset, imageTag, instanceType, instanceCount,
                hyperParameters, managedSpot, checkpointPrefix, keepAlive, roleArn, capacityPolicy);
    }

    /** @return these settings with another job-name prefix */
    public TrainingSettings withJobNamePrefix(String prefix) {
        return new TrainingSettings(name, prefix, dataset, imageTag, instanceType, instanceCount, hyperParameters,
                managedSpot, checkpointPrefix, keepAlive, roleArn, capacityPolicy);
    }

    /** @return these settings with another image tag */
    public TrainingSettings withImageTag(String tag) {
        return new TrainingSettings(name, jobNamePrefix, dataset, tag, instanceType, instanceCount, hyperParameters,
                managedSpot, checkpointPrefix, keepAlive, roleArn, capacityPolicy);
    }

    /** @return these settings with another instance type */
    public TrainingSettings withInstanceType(String type) {
        return new TrainingSettings(name, jobNamePrefix, dataset, imageTag, type, instanceCount, hyperParameters,
                managedSpot, checkpointPrefix, keepAlive, roleArn, capacityPolicy);
    }

    /** @return these settings with another instance count */
    public TrainingSettings withInstanceCount(int count) {
        return new TrainingSettings(name, jobNamePrefix, dataset, imageTag, instanceType, count, hyperParameters,
                managedSpot, checkpointPrefix, keepAlive, roleArn, capacityPolicy);
    }

    /** @return these settings with the hyperparameter set */
    public TrainingSettings withHyperParameter(String key, String value) {
        Map<String, String> changed = new TreeMap<>(hyperParameters);
        changed.put(key, value);
        return new TrainingSettings(name, jobNamePrefix, dataset, imageTag, instanceType, instanceCount, changed,
                managedSpot, checkpointPrefix, keepAlive, roleArn, capacityPolicy);
    }

    /**
     * @return these settings on spot capacity, with checkpoints under the prefix (spot jobs resume from them), and
     *     without a capacity policy (a managed-spot job waits for capacity instead: rule CAPACITY_NOT_MANAGED_SPOT)
     */
    public TrainingSettings withSpot(String checkpoints) {
        return new TrainingSettings(name, jobNamePrefix, dataset, imageTag, instanceType, instanceCount,
                hyperParameters, true, checkpoints, keepAlive, roleArn, null);
    }

    /** @return these settings with a warm pool kept alive for the period */
    public TrainingSettings withKeepAlive(Duration period) {
        return new TrainingSettings(name, jobNamePrefix, dataset, imageTag, instanceType, instanceCount,
                hyperParameters, managedSpot, checkpointPrefix, period, roleArn, capacityPolicy);
    }

    /** @return these settings with another capacity policy (null: none) */
    public TrainingSettings withCapacityPolicy(CapacityPolicy policy) {
        return new TrainingSettings(name, jobNamePrefix, dataset, imageTag, instanceType, instanceCount,
                hyperParameters, managedSpot, checkpointPrefix, keepAlive, roleArn, policy);
    }

    /**
     * @param image the image (the example's repository at {@link #imageTag})
     * @return a definition's props with these settings; the example adds its channels, bucket and limits
     */
    TrainingJobDefinitionProps.Builder props(TrainingImage image) {
        TrainingJobDefinitionProps.Builder props = TrainingJobDefinitionProps.builder()
                .jobNamePrefix(jobNamePrefix)
                .trainingImage(image)
                .instanceType(instanceType)
                .instanceCount(instanceCount)
                .checkpointPrefix(checkpointPrefix)
                .keepAlivePeriod(keepAlive)
                .capacityPolicy(capacityPolicy);
        if (!hyperParameters.isEmpty()) {
            props.hyperParameters(hyperParameters);
        }
        return managedSpot ? props.managedSpot(true) : props;
    }

    /**
     * The settings of a platform's job: these settings on the image {@code training:<imageTag>} of the scope's
     * account, without the instances, which the platform takes from the profile it sizes the data path for.
     *
     * @param scope where the image repository is referenced
     * @return the job's props for {@code TrainingDataPlatformProps.trainingJob}
     */
    TrainingJobDefinitionProps platformJob(Construct scope) {
        return props(TrainingImage.fromEcrRepository(Repository.fromRepositoryName(scope, "ImageRepository", "training"),
                imageTag)).instanceType(null).instanceCount(null).build();
    }
}
