package io.github.trainingdata.cdk.internal;

import java.util.List;
import java.util.Map;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.stepfunctions.StateMachine;

/**
 * What a state machine with a {@code sagemaker:createTrainingJob.sync} task needs besides the job actions (Step
 * Functions guide, "IAM policies for SageMaker AI"): passing the execution role to SageMaker only, and the
 * EventBridge rule through which Step Functions learns that a job ended. The training definitions and the
 * preload's worker use it alike.
 */
public final class SyncTrainingPermissions {
    private static final String SYNC_RULE = "StepFunctionsGetEventsForSageMakerTrainingJobsRule";

    private SyncTrainingPermissions() {
    }

    /**
     * Grants {@code iam:PassRole} on {@code executionRole} to SageMaker and the managed rule's actions.
     *
     * @param stateMachine  the state machine that runs the .sync task
     * @param executionRole the role its jobs run with
     */
    public static void grant(StateMachine stateMachine, IRole executionRole) {
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                .actions(List.of("iam:PassRole"))
                .resources(List.of(executionRole.getRoleArn()))
                .conditions(Map.of("StringEquals", Map.of("iam:PassedToService", "sagemaker.amazonaws.com")))
                .build());
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                .actions(List.of("events:PutTargets", "events:PutRule", "events:DescribeRule"))
                .resources(List.of(Stack.of(stateMachine).formatArn(ArnComponents.builder().service("events")
                        .resource("rule").resourceName(SYNC_RULE).arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build())))
                .build());
    }
}
