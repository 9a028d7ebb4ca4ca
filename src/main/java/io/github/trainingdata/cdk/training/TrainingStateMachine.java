package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.WildcardFindings;
import io.github.trainingdata.cdk.storage.LogGroups;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.IStableStringProducer;
import software.amazon.awscdk.Lazy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.logs.LogGroup;
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
    private final List<String> prerequisiteJobs = new ArrayList<>();

    TrainingStateMachine(Construct scope, String id, TrainingJobDefinition definition) {
        super(scope, id);
        this.definition = definition;
        Stack stack = Stack.of(this);
        LogGroup logs = LogGroups.create(this, "Logs", definition.getDataBucket().getEncryptionKey());
        this.stateMachine = StateMachine.Builder.create(this, "Resource")
                .definitionBody(DefinitionBody.fromString(
                        Lazy.string((IStableStringProducer) () -> stack.toJsonString(definitionJson()))))
                .logs(LogOptions.builder().destination(logs).level(LogLevel.ALL).includeExecutionData(true).build())
                .tracingEnabled(true)
                .build();

        List<String> jobs = arnNames(definition.getJobNamePrefix() + "-*").stream()
                .map(name -> stack.formatArn(ArnComponents.builder().service("sagemaker").resource("training-job")
                        .resourceName(name).arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build()))
                .toList();
        List<String> jobActions = new ArrayList<>(List.of("sagemaker:CreateTrainingJob",
                "sagemaker:DescribeTrainingJob", "sagemaker:StopTrainingJob", "sagemaker:ListTags"));
        if (definition.props().getTags() != null && !definition.props().getTags().isEmpty()) {
            jobActions.add("sagemaker:AddTags");
        }
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create().actions(jobActions).resources(jobs).build());
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
        findings.add(jobs, "Each execution creates one job named '" + definition.getJobNamePrefix()
                + "-<UUID>'; the state machine may manage only jobs with that prefix.");
        findings.add(List.of("*"), "Added by aws-cdk-lib for X-Ray trace upload and CloudWatch Logs vended log "
                + "delivery, which support no resource-level permissions.");
        findings.acknowledge();
    }

    StateMachine getStateMachine() {
        return stateMachine;
    }

    /** Adds a wait, before training, until {@code jobName} has completed. */
    void waitFor(String jobName) {
        prerequisiteJobs.add(jobName);
        stateMachine.addToRolePolicy(PolicyStatement.Builder.create()
                .actions(List.of("sagemaker:DescribeTrainingJob"))
                .resources(List.of(Stack.of(this).formatArn(ArnComponents.builder().service("sagemaker")
                        .resource("training-job").resourceName(jobName).arnFormat(ArnFormat.SLASH_RESOURCE_NAME)
                        .build())))
                .build());
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
        for (int i = 0; i < prerequisiteJobs.size(); i++) {
            String next = i + 1 < prerequisiteJobs.size() ? "DescribePrerequisite" + (i + 1) : TRAIN_STATE;
            states.putAll(waitStates(i, prerequisiteJobs.get(i), next));
        }
        states.put(TRAIN_STATE, train);
        Map<String, Object> asl = new LinkedHashMap<>();
        asl.put("Comment", "SageMaker training job " + definition.getNode().getPath());
        asl.put("StartAt", prerequisiteJobs.isEmpty() ? TRAIN_STATE : "DescribePrerequisite0");
        asl.put("States", states);
        return asl;
    }

    /** Describe the job; Completed goes on, InProgress/Stopping waits a minute and looks again, else fail. */
    private Map<String, Object> waitStates(int index, String jobName, String next) {
        String describe = "DescribePrerequisite" + index;
        String check = "CheckPrerequisite" + index;
        String wait = "WaitForPrerequisite" + index;
        String failed = "PrerequisiteFailed" + index;
        String resultPath = "$.prerequisite" + index;

        Map<String, Object> describeState = new LinkedHashMap<>();
        describeState.put("Type", "Task");
        describeState.put("Resource", "arn:" + Stack.of(this).getPartition()
                + ":states:::aws-sdk:sagemaker:describeTrainingJob");
        describeState.put("Parameters", Map.of("TrainingJobName", jobName));
        describeState.put("ResultSelector", Map.of("Status.$", "$.TrainingJobStatus"));
        describeState.put("ResultPath", resultPath);
        describeState.put("Next", check);

        Map<String, Object> completed = statusEquals(resultPath, "Completed");
        completed.put("Next", next);
        Map<String, Object> running = new LinkedHashMap<>();
        running.put("Or", List.of(statusEquals(resultPath, "InProgress"), statusEquals(resultPath, "Stopping")));
        running.put("Next", wait);
        Map<String, Object> checkState = new LinkedHashMap<>();
        checkState.put("Type", "Choice");
        checkState.put("Choices", List.of(completed, running));
        checkState.put("Default", failed);

        Map<String, Object> waitState = new LinkedHashMap<>();
        waitState.put("Type", "Wait");
        waitState.put("Seconds", 60);
        waitState.put("Next", describe);

        Map<String, Object> failState = new LinkedHashMap<>();
        failState.put("Type", "Fail");
        failState.put("Error", "PrerequisiteJobNotCompleted");
        failState.put("Cause", "A training job this one waits for (for example the cache preload) failed or was "
                + "stopped; see its FailureReason in SageMaker");

        Map<String, Object> states = new LinkedHashMap<>();
        states.put(describe, describeState);
        states.put(check, checkState);
        states.put(wait, waitState);
        states.put(failed, failState);
        return states;
    }

    private static Map<String, Object> statusEquals(String resultPath, String status) {
        Map<String, Object> rule = new LinkedHashMap<>();
        rule.put("Variable", resultPath + ".Status");
        rule.put("StringEquals", status);
        return rule;
    }

    /**
     * The names under which IAM may see a job: as given and, when it has capitals, in lowercase, since
     * SageMaker has written names lowercase in training-job ARNs and IAM matches ARNs case-sensitively.
     */
    static List<String> arnNames(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.equals(name) ? List.of(name) : List.of(name, lower);
    }
}
