package io.github.trainingdata.cdk.preload;

import io.github.trainingdata.cdk.internal.HandlerProvider;
import io.github.trainingdata.cdk.internal.WildcardFindings;
import java.util.List;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.customresources.Provider;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * The preload's custom-resource provider: the Java handler (start, describe and stop executions, cancel their FSx
 * import tasks) as aws-cdk-lib's
 * Provider framework onEvent and isComplete functions ({@link HandlerProvider}), with least-privilege grants. onEvent
 * may also list its state machine's executions and describe its own stack (a rollback's Update restores an earlier
 * execution instead of starting one).
 */
final class PreloadProvider {
    private static final String HANDLER_CLASS = "io.github.trainingdata.cdk.preload.handler.PreloadHandler";

    private PreloadProvider() {
    }

    /**
     * The Provider (onEvent and isComplete handlers, aws-cdk-lib's waiter) under {@code scope}, allowed to start,
     * describe and stop executions of {@code machine} and to describe and stop the worker jobs named
     * {@code <workerPrefix>-*}; onEvent may also list the machine's executions and describe the stack.
     */
    static Provider create(Construct scope, StateMachine machine, String workerPrefix, IKey logsKey) {
        Function onEvent = handler(scope, "OnEvent", "onEvent", logsKey);
        Function isComplete = handler(scope, "IsComplete", "isComplete", logsKey);
        machine.grantStartExecution(onEvent);
        // A rollback's Update looks up the execution of the restored configuration and asks whether the stack rolls
        // back: only this state machine's executions, only this stack.
        onEvent.addToRolePolicy(PolicyStatement.Builder.create()
                .actions(List.of("states:ListExecutions")).resources(List.of(machine.getStateMachineArn())).build());
        onEvent.addToRolePolicy(PolicyStatement.Builder.create()
                .actions(List.of("cloudformation:DescribeStacks")).resources(List.of(Stack.of(scope).getStackId()))
                .build());
        String executions = Stack.of(scope).formatArn(ArnComponents.builder().service("states")
                .resource("execution").resourceName(machine.getStateMachineName() + ":*")
                .arnFormat(ArnFormat.COLON_RESOURCE_NAME).build());
        String workers = Stack.of(scope).formatArn(ArnComponents.builder().service("sagemaker")
                .resource("training-job").resourceName(workerPrefix + "-*")
                .arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
        String tasks = Stack.of(scope).formatArn(ArnComponents.builder().service("fsx").resource("task")
                .resourceName("*").arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
        for (Function function : List.of(onEvent, isComplete)) {
            WildcardFindings findings = new WildcardFindings(function.getRole());
            function.addToRolePolicy(PolicyStatement.Builder.create()
                    .actions(List.of("states:DescribeExecution", "states:GetExecutionHistory", "states:StopExecution"))
                    .resources(List.of(executions)).build());
            findings.add(List.of(executions), "The preload handler may describe, read the history of (for the id of "
                    + "the execution's FSx import task) and stop only executions of its own state machine, named '"
                    + workerPrefix + "-<8 hex of WarmKey>-<12 hex of the CloudFormation request>'.");
            // A stopped execution's import task goes on and keeps the file system from being deleted: cancel it.
            function.addToRolePolicy(PolicyStatement.Builder.create()
                    .actions(List.of("fsx:DescribeDataRepositoryTasks")).resources(List.of("*")).build());
            findings.add(List.of("*"), "fsx:DescribeDataRepositoryTasks supports no resource-level permissions; it "
                    + "reads task descriptions only.");
            function.addToRolePolicy(PolicyStatement.Builder.create()
                    .actions(List.of("fsx:CancelDataRepositoryTask")).resources(List.of(tasks)).build());
            findings.add(List.of(tasks), "FSx generates a task's id when the preload execution creates it; the handler "
                    + "cancels only the task whose id its execution's history records.");
            if (function == isComplete) {
                function.addToRolePolicy(PolicyStatement.Builder.create()
                        .actions(List.of("sagemaker:DescribeTrainingJob", "sagemaker:StopTrainingJob"))
                        .resources(List.of(workers)).build());
                findings.add(List.of(workers), "The preload handler may describe (for its metrics) and stop only its "
                        + "own worker jobs, named '" + workerPrefix + "-<8 hex>-<12 hex>[-<attempt>]' after their "
                        + "execution.");
            }
            findings.acknowledge();
        }
        return HandlerProvider.provider(scope, onEvent, isComplete, logsKey);
    }

    private static Function handler(Construct scope, String id, String method, IKey logsKey) {
        return HandlerProvider.function(scope, id, "Lustre preload custom resource (" + method + ") of "
                + scope.getNode().getPath(), HANDLER_CLASS + "::" + method, logsKey);
    }
}
