package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.WildcardFindings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.IStableStringProducer;
import software.amazon.awscdk.Lazy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.amazon.awscdk.services.stepfunctions.DefinitionBody;
import software.amazon.awscdk.services.stepfunctions.LogLevel;
import software.amazon.awscdk.services.stepfunctions.LogOptions;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * The Step Functions state machine of a {@link TrainingJobDefinition}: one
 * {@code sagemaker:createTrainingJob.sync} task that trains under {@code <prefix>-<UUID>}, so every
 * execution is a new job, with logging (ALL) and X-Ray tracing, and exactly the IAM the .sync
 * integration needs. The definition is rendered at synth from the definition's canonical request
 * (aws-cdk-lib's {@code SageMakerCreateTrainingJob} task cannot express file-system channels).
 */
final class TrainingStateMachine extends Construct {
    static final String TRAIN_STATE = "Train";
    private static final String SYNC_RULE = "StepFunctionsGetEventsForSageMakerTrainingJobsRule";

    private final TrainingJobDefinition definition;
    private final StateMachine stateMachine;

    TrainingStateMachine(Construct scope, String id, TrainingJobDefinition definition) {
        super(scope, id);
        this.definition = definition;
        Stack stack = Stack.of(this);
        LogGroup logs = LogGroup.Builder.create(this, "Logs").retention(RetentionDays.ONE_YEAR).build();
        this.stateMachine = StateMachine.Builder.create(this, "Resource")
                .definitionBody(DefinitionBody.fromString(
                        Lazy.string((IStableStringProducer) () -> stack.toJsonString(definitionJson()))))
                .logs(LogOptions.builder().destination(logs).level(LogLevel.ALL).includeExecutionData(true).build())
                .tracingEnabled(true)
                .build();

        String jobs = stack.formatArn(ArnComponents.builder().service("sagemaker").resource("training-job")
                .resourceName(definition.getJobNamePrefix() + "-*").arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
        List<String> jobActions = new ArrayList<>(List.of("sagemaker:CreateTrainingJob",
                "sagemaker:DescribeTrainingJob", "sagemaker:StopTrainingJob", "sagemaker:ListTags"));
        if (definition.props().getTags() != null && !definition.props().getTags().isEmpty()) {
            jobActions.add("sagemaker:AddTags");
        }
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create().actions(jobActions).resources(List.of(jobs)).build());
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                .actions(List.of("iam:PassRole"))
                .resources(List.of(definition.getRole().getRoleArn()))
                .conditions(Map.of("StringEquals", Map.of("iam:PassedToService", "sagemaker.amazonaws.com")))
                .build());
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                .actions(List.of("events:PutTargets", "events:PutRule", "events:DescribeRule"))
                .resources(List.of(stack.formatArn(ArnComponents.builder().service("events").resource("rule")
                        .resourceName(SYNC_RULE).arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build())))
                .build());
        WildcardFindings findings = new WildcardFindings(stateMachine.getRole());
        findings.add(List.of(jobs), "Each execution creates one job named '" + definition.getJobNamePrefix()
                + "-<UUID>'; the state machine may manage only jobs with that prefix.");
        findings.add(List.of("*"), "Added by aws-cdk-lib for X-Ray trace upload and CloudWatch Logs vended log "
                + "delivery, which support no resource-level permissions.");
        findings.acknowledge();
    }

    StateMachine getStateMachine() {
        return stateMachine;
    }

    /** The Amazon States Language document, built when the template is resolved. */
    private Map<String, Object> definitionJson() {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("TrainingJobName.$", "States.Format('" + definition.getJobNamePrefix() + "-{}', States.UUID())");
        parameters.putAll(definition.getRequest());
        Map<String, Object> train = new LinkedHashMap<>();
        train.put("Type", "Task");
        train.put("Comment", "Train one job with the definition's request; waits until the job ends");
        train.put("Resource", "arn:" + Stack.of(this).getPartition() + ":states:::sagemaker:createTrainingJob.sync");
        train.put("Parameters", parameters);
        train.put("End", true);
        Map<String, Object> states = new LinkedHashMap<>();
        states.put(TRAIN_STATE, train);
        Map<String, Object> asl = new LinkedHashMap<>();
        asl.put("Comment", "SageMaker training job " + definition.getNode().getPath());
        asl.put("StartAt", TRAIN_STATE);
        asl.put("States", states);
        return asl;
    }
}
