package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.internal.InlinePolicy;
import io.github.trainingdata.cdk.internal.InternalApi;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.Collections;
import java.util.Map;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.constructs.Construct;

/**
 * A training job ready to be started: its resolved {@link TrainingJobSpec}, where it runs, its execution role with
 * every grant the job needs, and the CreateTrainingJob request rendered from them (without the job name). It
 * deploys nothing that starts a job: a {@link TrainingJobDefinition} deploys it as a state machine and an SSM
 * parameter; the Lustre preload runs it as its warm-up worker from its own state machine.
 */
@InternalApi
public final class TrainingJobBlueprint {
    private final TrainingJobSpec spec;
    private final JobPlacement placement;
    private final IRole role;
    private final StoreBinding binding;
    private final Map<String, Object> request;

    private TrainingJobBlueprint(TrainingJobSpec spec, JobPlacement placement, IRole role, StoreBinding binding) {
        this.spec = spec;
        this.placement = placement;
        this.role = role;
        this.binding = binding;
        this.request = Collections.unmodifiableMap(TrainingJobRequest.render(spec, placement, role.getRoleArn(),
                binding));
    }

    /**
     * Resolves and checks {@code props}, places the job, and grants its execution role: the given one, else a new
     * role {@code ExecutionRole} under {@code scope}.
     *
     * @param scope the construct the job belongs to (its id is the default job-name prefix; errors name its path)
     * @param props the job's settings
     * @return the blueprint
     * @throws io.github.trainingdata.cdk.ConfigurationError when a setting breaks a rule
     */
    public static TrainingJobBlueprint create(Construct scope, TrainingJobDefinitionProps props) {
        TrainingJobSpec spec = TrainingJobSpec.resolve(scope, props);
        JobPlacement placement = JobPlacement.of(scope, spec);
        TrainingJobRules.checkRole(scope, spec);
        IRole role = spec.getRole();
        if (role == null) {
            Role created = Role.Builder.create(scope, "ExecutionRole")
                    .assumedBy(new ServicePrincipal("sagemaker.amazonaws.com"))
                    .description("Execution role of SageMaker training jobs defined by " + scope.getNode().getPath())
                    .build();
            InlinePolicy.of(created);
            role = created;
        }
        ExecutionPermissions.grant(scope, role, spec, placement);
        for (TrainingChannel channel : spec.getChannels()) {
            channel.bind(scope);
        }
        return new TrainingJobBlueprint(spec, placement, role, StoreBinding.of(scope, spec, placement));
    }

    /** @return the resolved settings */
    public TrainingJobSpec getSpec() {
        return spec;
    }

    /** @return the job-name prefix; each job is named {@code <prefix>-<unique suffix>} */
    public String getJobNamePrefix() {
        return spec.getJobNamePrefix();
    }

    /** @return the network the job runs in, or null when it runs outside any VPC */
    public TrainingNetwork getNetwork() {
        return placement.network();
    }

    /** @return where the job runs: its network, security groups and subnets */
    JobPlacement getPlacement() {
        return placement;
    }

    /** @return the caches of other stacks the job reads at run time (none: empty) */
    StoreBinding getBinding() {
        return binding;
    }

    /** @return the execution role */
    public IRole getRole() {
        return role;
    }

    /**
     * The canonical CreateTrainingJob request without {@code TrainingJobName}: PascalCase API members in a fixed
     * order, values may be tokens.
     *
     * @return the request (unmodifiable)
     */
    public Map<String, Object> getRequest() {
        return request;
    }
}
