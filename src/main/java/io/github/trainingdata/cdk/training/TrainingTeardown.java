package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.internal.CustomResourceProvider;
import io.github.trainingdata.cdk.internal.CustomResourceRole;
import io.github.trainingdata.cdk.internal.WildcardFindings;
import io.github.trainingdata.cdk.internal.handler.AssumedRoles;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.IStableAnyProducer;
import software.amazon.awscdk.Lazy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;
import software.constructs.IConstruct;

/**
 * What stops a stack's {@link TrainingJobDefinition}s' training when a definition is removed from the stack or the
 * stack is deleted: one custom resource {@value #RESOURCE_TYPE} per stack (child {@value #ID} of the stack) that lists
 * every definition of the stack ({@code Definitions}: each one's construct path as {@code Id}, state machine, job-name
 * prefix, security groups, subnets and job lifetime). An Update that drops a definition from the list stops that
 * definition's running executions, the jobs started under its prefix and their warm pools, and waits until they and
 * their network interfaces are gone; a Delete does so for every definition (at most 50 minutes; see
 * {@code TrainingTeardownHandler}). One resource per stack instead of one per definition (issue 27).
 *
 * <p>The handler is told every subnet a definition's jobs may run in (the job's own and, with a capacity policy's S3
 * fallback, the fallback's in other zones: {@link CapacityAttempts#subnetsOf}), since a job holds network interfaces in
 * the subnet it was placed in, and how long a job of the definition may live ({@code JobLifetimeSeconds}: its longest
 * run or spot wait, its keep-alive and {@link #START_AND_STOP_MARGIN_SECONDS}), so that each look lists only jobs created
 * since; omitted when a duration is a token (the handler then assumes SageMaker's longest).
 *
 * <p>Ordering. A definition removed from the stack is torn down in the update phase, when CloudFormation updates this
 * resource; the definition's own resources (state machine, roles, its TeardownRole) are deleted in the
 * cleanup phase, after every update, so its teardown still has them. On a stack delete, CloudFormation deletes a
 * resource before what it depends on, so the custom resource depends on what a stopping job still holds or needs
 * when it is in the same stack: each definition's TeardownRole, each state machine (with its role, whose policy lets Step Functions stop the job it
 * runs), each execution role (a stopping job still writes its output), the output buckets and volume keys, the jobs'
 * security groups and subnets and the VPC (with its S3 endpoint). Nothing depends on the custom resource, so the
 * dependencies add no cycle. What lives in another stack is deleted after this stack anyway.
 *
 * <p>The stack's provider ({@link CustomResourceProvider}) serves it. Each definition's calls act as the definition's
 * own role ({@code TeardownRole}, named in its entry as {@code RoleArn}), which trusts the provider's role alone and
 * holds what those calls need; the teardown's own role ({@code TrainingTeardown/HandlerRole}, its {@code RoleArn}) may
 * only read the stack's status. All are under the stack's custom-resource path
 * ({@link CustomResourceProvider#ROLE_PATH}), whose roles the provider's role may assume with its one statement, so it does not grow with the definitions.
 */
final class TrainingTeardown extends Construct {
    /** The custom resource's type. */
    static final String RESOURCE_TYPE = "Custom::TrainingTeardown";
    /** The construct id of the stack's teardown, at the stack's root. */
    static final String ID = "TrainingTeardown";
    /**
     * What a job's lifetime allows beyond its stopping condition and keep-alive: its start (provisioning) and its stop,
     * which no AWS text bounds (UNVERIFIED how long they take; a day is far more than either is seen to take). The
     * handler assumes the same day for a resource that states no lifetime.
     */
    static final long START_AND_STOP_MARGIN_SECONDS = 86_400;

    /** Each definition's entry, by construct path (the order they render in). */
    private final Map<String, Map<String, Object>> definitions = new TreeMap<>();
    private final CustomResource resource;

    private TrainingTeardown(Stack stack, CustomResourceProvider provider) {
        super(stack, ID);
        // A Delete asks whether the stack cleans up after a rolled-back update (then it stops nothing): this stack
        // only.
        CustomResourceRole role = provider.grant(this, "HandlerRole", "Reads the stack's status for the training teardown; assumed "
                + "by the stack's custom-resource provider only", List.of(PolicyStatement.Builder.create()
                .actions(List.of("cloudformation:DescribeStacks")).resources(List.of(stack.getStackId())).build()));
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("Definitions", Lazy.any((IStableAnyProducer) () -> new ArrayList<>(definitions.values())));
        properties.put(AssumedRoles.ROLE_ARN, role.getRoleArn());
        this.resource = CustomResource.Builder.create(this, "Resource")
                .serviceToken(provider.getServiceToken())
                .resourceType(RESOURCE_TYPE)
                .properties(properties)
                .build();
    }

    /**
     * Adds the definition {@code scope} to its stack's teardown, creating the teardown with the stack's first.
     *
     * @param scope   the definition
     * @param job     its blueprint
     * @param machine its state machine
     * @return the stack's teardown custom resource
     */
    static CustomResource create(Construct scope, TrainingJobBlueprint job, TrainingStateMachine machine) {
        JobPlacement placement = job.getPlacement();
        Stack stack = Stack.of(scope);
        CustomResourceProvider provider = CustomResourceProvider.of(stack,
                job.getSpec().getOutputBucket().getEncryptionKey());
        CustomResourceRole role = role(provider, scope, machine.getStateMachine(), job.getJobNamePrefix(),
                placement.network() != null);
        TrainingTeardown teardown = stack.getNode().tryFindChild(ID) instanceof TrainingTeardown existing ? existing
                : new TrainingTeardown(stack, provider);

        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("Id", scope.getNode().getPath());
        properties.put("StateMachineArn", machine.getStateMachine().getStateMachineArn());
        properties.put("JobNamePrefix", job.getJobNamePrefix());
        properties.put("SecurityGroupIds", placement.securityGroups().stream().map(ISecurityGroup::getSecurityGroupId)
                .toList());
        // Subnets read at run time (a cache of another stack) are not known here: the wait looks in every subnet.
        properties.put("SubnetIds", job.getBinding().bindsSubnets() ? List.of() : subnets(job));
        Number lifetime = jobLifetimeSeconds(job.getSpec());
        if (lifetime != null) {
            properties.put("JobLifetimeSeconds", lifetime);
        }
        properties.put("RoleArn", role.getRoleArn());
        teardown.definitions.put(scope.getNode().getPath(), properties);
        CustomResource resource = teardown.resource;
        // The role is deleted after the teardown (in the cleanup, also when only this definition is removed): the
        // entry's RoleArn (Fn::GetAtt) makes the teardown depend on it.
        for (IConstruct held : held(job, machine)) {
            if (Stack.of(held) == stack) {
                resource.getNode().addDependency(held);
            }
        }
        return resource;
    }

    /** @return the ids of every subnet a job of the definition may run in, each once, the job's own first */
    private static List<String> subnets(TrainingJobBlueprint job) {
        Set<ISubnet> subnets = new LinkedHashSet<>(CapacityAttempts.subnetsOf(job, false));
        if (job.getPlacement().network() != null && CapacityAttempts.s3Fallback(job.getSpec()) != null) {
            subnets.addAll(CapacityAttempts.subnetsOf(job, true));
        }
        return subnets.stream().map(ISubnet::getSubnetId).distinct().toList();
    }

    /**
     * @return the longest a job of {@code spec} may live after it was created, in seconds: its longest run or spot wait,
     *     its keep-alive and the start-and-stop margin; null when one of them is a token
     */
    static Number jobLifetimeSeconds(TrainingJobSpec spec) {
        List<Duration> parts = new ArrayList<>(List.of(spec.getMaxRuntime()));
        if (spec.getMaxWait() != null) {
            parts.add(spec.getMaxWait());
        }
        long run = 0;
        for (Duration part : parts) {
            if (Token.isUnresolved(part.toSeconds())) {
                return null;
            }
            run = Math.max(run, part.toSeconds().longValue());
        }
        long keepAlive = 0;
        if (spec.getKeepAlivePeriod() != null) {
            if (Token.isUnresolved(spec.getKeepAlivePeriod().toSeconds())) {
                return null;
            }
            keepAlive = spec.getKeepAlivePeriod().toSeconds().longValue();
        }
        return run + keepAlive + START_AND_STOP_MARGIN_SECONDS;
    }

    /** What a stopping job holds or needs, wherever it lives. */
    private static List<IConstruct> held(TrainingJobBlueprint job, TrainingStateMachine machine) {
        List<IConstruct> held = new ArrayList<>(List.of(machine, job.getRole(), job.getSpec().getOutputBucket()));
        if (job.getSpec().getVolumeKey() != null) {
            held.add(job.getSpec().getVolumeKey());
        }
        JobPlacement placement = job.getPlacement();
        held.addAll(placement.securityGroups());
        held.addAll(placement.subnets());
        TrainingNetwork network = placement.network();
        if (network != null) {
            held.add(network.getVpc());
        }
        return held;
    }

    /**
     * A role {@code TeardownRole} under the definition {@code scope} (the stack's custom-resource path, {@link
     * CustomResourceProvider#grant}), that only the stack provider's role may assume, whose inline policy lets it list
     * and stop the executions of {@code machine}, list jobs and stop and release those named {@code <prefix>-*} (also
     * in lowercase), and, for a job in a VPC, describe network interfaces. Each definition has its own, so that removing a definition from the
     * stack keeps its role while the teardown tears it down (CloudFormation deletes it in the cleanup, after the
     * teardown's update has stopped what the definition ran), and so that the provider's own role does not grow with
     * each definition (IAM caps a role's inline policies at 10,240 characters together).
     */
    private static CustomResourceRole role(CustomResourceProvider provider, Construct scope, StateMachine machine, String prefix,
            boolean inVpc) {
        Stack stack = Stack.of(scope);
        String executions = stack.formatArn(ArnComponents.builder().service("states").resource("execution")
                .resourceName(machine.getStateMachineName() + ":*").arnFormat(ArnFormat.COLON_RESOURCE_NAME).build());
        List<String> jobs = TrainingStateMachine.arnNames(prefix + "-*").stream()
                .map(name -> stack.formatArn(ArnComponents.builder().service("sagemaker").resource("training-job")
                        .resourceName(name).arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build()))
                .toList();
        List<PolicyStatement> statements = new ArrayList<>(List.of(
                PolicyStatement.Builder.create().actions(List.of("states:ListExecutions"))
                        .resources(List.of(machine.getStateMachineArn())).build(),
                PolicyStatement.Builder.create().actions(List.of("states:StopExecution"))
                        .resources(List.of(executions)).build(),
                PolicyStatement.Builder.create().actions(List.of("sagemaker:ListTrainingJobs"))
                        .resources(List.of("*")).build(),
                PolicyStatement.Builder.create()
                        .actions(List.of("sagemaker:StopTrainingJob", "sagemaker:UpdateTrainingJob"))
                        .resources(jobs).build()));
        if (inVpc) {
            statements.add(PolicyStatement.Builder.create().actions(List.of("ec2:DescribeNetworkInterfaces"))
                    .resources(List.of("*"))
                    .conditions(Map.of("StringEquals", Map.of("ec2:Region", Aws.REGION))).build());
        }
        CustomResourceRole role = provider.grant(scope, "TeardownRole", "Stops what a training definition runs when it is removed "
                + "or its stack deleted; assumed by the stack's custom-resource provider only", statements);
        WildcardFindings findings = new WildcardFindings(role);
        findings.add(List.of(executions), "On delete the teardown stops the running executions of this state "
                + "machine only; their names are chosen at each start.");
        findings.add(jobs, "On delete the teardown stops the jobs and releases the warm pools of the definition "
                + "whose jobs are named '" + prefix + "-<unique suffix>' (IAM may see the name in lowercase).");
        findings.add(List.of("*"), "sagemaker:ListTrainingJobs and ec2:DescribeNetworkInterfaces support no "
                + "resource-level permissions (Service Authorization Reference): the teardown lists jobs by name "
                + "and acts only on its definition's own; describing network interfaces is read-only and limited "
                + "to the stack's Region.");
        findings.acknowledge();
        return role;
    }
}
