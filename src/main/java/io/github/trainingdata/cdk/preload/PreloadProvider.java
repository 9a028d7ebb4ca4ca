package io.github.trainingdata.cdk.preload;

import io.github.trainingdata.cdk.internal.CustomResourceProvider;
import io.github.trainingdata.cdk.internal.CustomResourceRole;
import io.github.trainingdata.cdk.internal.WildcardFindings;
import java.util.List;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * The role the stack's provider ({@link CustomResourceProvider}) acts as to serve a preload's
 * {@code Custom::LustrePreload}: start, list, describe and stop executions of the preload's state machine (a rollback's
 * Update restores an earlier execution instead of starting one, after asking whether its own stack rolls back), cancel
 * their FSx import tasks, and describe and stop the worker jobs; the preload's own role ({@code HandlerRole}).
 */
final class PreloadProvider {
    private PreloadProvider() {
    }

    /**
     * The role as which the stack's provider starts, lists, describes and stops executions of {@code machine},
     * describes the stack, cancels the executions' import tasks and describes and stops the worker jobs named
     * {@code <workerPrefix>-*}.
     *
     * @return the role (the preload's custom resource names it as its {@code RoleArn})
     */
    static CustomResourceRole grant(Construct scope, StateMachine machine, String workerPrefix, IKey logsKey) {
        Stack stack = Stack.of(scope);
        String executions = stack.formatArn(ArnComponents.builder().service("states")
                .resource("execution").resourceName(machine.getStateMachineName() + ":*")
                .arnFormat(ArnFormat.COLON_RESOURCE_NAME).build());
        String workers = stack.formatArn(ArnComponents.builder().service("sagemaker")
                .resource("training-job").resourceName(workerPrefix + "-*")
                .arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
        String tasks = stack.formatArn(ArnComponents.builder().service("fsx").resource("task")
                .resourceName("*").arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
        CustomResourceRole role = CustomResourceProvider.of(scope, logsKey).grant(scope, "HandlerRole", "Starts, watches and stops a "
                + "Lustre preload's warm-ups; assumed by the stack's custom-resource provider only", List.of(
                // A rollback's Update looks up the execution of the restored configuration and asks whether the stack
                // rolls back, and a request sent again asks whether the stack still runs an operation: only this
                // state machine's executions, only this stack.
                PolicyStatement.Builder.create().actions(List.of("states:StartExecution", "states:ListExecutions"))
                        .resources(List.of(machine.getStateMachineArn())).build(),
                PolicyStatement.Builder.create().actions(List.of("cloudformation:DescribeStacks"))
                        .resources(List.of(stack.getStackId())).build(),
                PolicyStatement.Builder.create()
                        .actions(List.of("states:DescribeExecution", "states:GetExecutionHistory", "states:StopExecution"))
                        .resources(List.of(executions)).build(),
                // A stopped execution's import task goes on and keeps the file system from being deleted: cancel it.
                PolicyStatement.Builder.create().actions(List.of("fsx:DescribeDataRepositoryTasks"))
                        .resources(List.of("*")).build(),
                PolicyStatement.Builder.create().actions(List.of("fsx:CancelDataRepositoryTask"))
                        .resources(List.of(tasks)).build(),
                PolicyStatement.Builder.create().actions(List.of("sagemaker:DescribeTrainingJob",
                        "sagemaker:StopTrainingJob")).resources(List.of(workers)).build()));
        WildcardFindings findings = new WildcardFindings(role);
        findings.add(List.of(executions), "The preload handler may describe, read the history of (for the id of "
                + "the execution's FSx import task) and stop only executions of its own state machine, named '"
                + workerPrefix + "-<8 hex of WarmKey>-<12 hex of the CloudFormation request>'.");
        findings.add(List.of("*"), "fsx:DescribeDataRepositoryTasks supports no resource-level permissions; it "
                + "reads task descriptions only.");
        findings.add(List.of(tasks), "FSx generates a task's id when the preload execution creates it; the handler "
                + "cancels only the task whose id its execution's history records.");
        findings.add(List.of(workers), "The preload handler may describe (for its metrics) and stop only its "
                + "own worker jobs, named '" + workerPrefix + "-<8 hex>-<12 hex>[-<attempt>]' after their "
                + "execution.");
        findings.acknowledge();
        return role;
    }
}
