package io.github.trainingdata.cdk.internal;

import static io.github.trainingdata.cdk.internal.CoreResources.ordered;

import io.github.trainingdata.cdk.internal.dispatch.CustomResourceDispatcher;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.CfnResource;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.logs.ILogGroup;
import software.constructs.Construct;

/**
 * The stack provider's waiter ({@code CustomResourceProvider/waiter-state-machine}): a Step Functions state machine the
 * dispatcher starts for a request that did not complete at once. It waits {@value #QUERY_INTERVAL_SECONDS} seconds,
 * invokes the dispatcher with its input (the request marked {@code TrainingDataPhase}), keeps the answer under
 * {@code TrainingDataWaiter} and loops until the answer says complete; the dispatcher itself answers CloudFormation
 * and ends the loop at the request's deadline. A call that still fails after its retries is caught: the dispatcher is
 * invoked once more with the error under {@code TrainingDataWaiterError} and answers FAILED.
 *
 * <p>Logged at level ALL to the stack's shared log group without execution data (the input holds CloudFormation's
 * pre-signed response URL) and traced with X-Ray. Its role may invoke the dispatcher (by the name the provider gives
 * it, so that neither refers to the other's attributes) and, on {@code *} since neither supports resource-level
 * permissions, deliver its logs and write traces. A holder of a plain {@code Construct}, not a Java subclass of one
 * (as {@link DispatcherFunction}).
 */
final class ProviderWaiter {
    /** The construct id. */
    static final String ID = "waiter-state-machine";
    /** Seconds between the waiter's calls. */
    static final int QUERY_INTERVAL_SECONDS = CustomResourceDispatcher.QUERY_INTERVAL_SECONDS;
    /**
     * Errors of Step Functions' Lambda integration worth another call: Lambda's transient service errors and its
     * throttling (Step Functions guide, "Handle Lambda service exceptions"). A function error (an unhandled error,
     * a timeout: {@code Lambda.Unknown}) is retried twice by the next retrier.
     */
    static final List<String> LAMBDA_ERRORS = List.of("Lambda.ClientExecutionTimeoutException",
            "Lambda.ServiceException", "Lambda.AWSLambdaException", "Lambda.SdkClientException",
            "Lambda.TooManyRequestsException");
    /** The statements the role needs on {@code *}. */
    static final List<String> UNSCOPED_ACTIONS = List.of("logs:CreateLogDelivery", "logs:DeleteLogDelivery",
            "logs:DescribeLogGroups", "logs:DescribeResourcePolicies", "logs:GetLogDelivery", "logs:ListLogDeliveries",
            "logs:PutResourcePolicy", "logs:UpdateLogDelivery", "xray:GetSamplingRules", "xray:GetSamplingTargets",
            "xray:PutTelemetryRecords", "xray:PutTraceSegments");

    private final CfnResource stateMachine;
    private final CfnResource role;

    /**
     * @param scope       the stack's provider
     * @param dispatcher  the dispatcher's ARN (built from its name: no reference to the function)
     * @param logGroup    the stack's shared log group
     * @param findings    the stack's wildcard findings
     */
    ProviderWaiter(Construct scope, String dispatcher, ILogGroup logGroup, StackWildcardFindings findings) {
        Construct node = new Construct(scope, ID);
        this.role = CoreResources.role(new Construct(node, "Role"), Map.of("Service", "states.amazonaws.com"), null, List.of(), null,
                InlinePolicy.NAME, CoreResources.document(List.of(
                        CoreResources.allow(List.of("lambda:InvokeFunction"), List.of(dispatcher)),
                        CoreResources.allow(UNSCOPED_ACTIONS, List.of("*")))));
        this.stateMachine = CoreResources.resource(node, "Resource", "AWS::StepFunctions::StateMachine", ordered(
                "DefinitionString", Stack.of(scope).toJsonString(definition(dispatcher)),
                "LoggingConfiguration", ordered(
                        "Destinations", List.of(ordered("CloudWatchLogsLogGroup",
                                ordered("LogGroupArn", logGroup.getLogGroupArn()))),
                        "IncludeExecutionData", false,
                        "Level", "ALL"),
                "RoleArn", role.getAtt("Arn"),
                "TracingConfiguration", ordered("Enabled", true)));
        stateMachine.getNode().addDependency(role);
        WildcardFindings unscoped = new WildcardFindings(role.getNode().getScope());
        unscoped.add(List.of("*"), "CloudWatch Logs' vended log delivery (the waiter's logging) and X-Ray trace "
                + "upload support no resource-level permissions.");
        unscoped.acknowledge(findings);
    }

    /**
     * The waiter's Amazon States Language (JSONPath; maps in their order).
     *
     * @param dispatcher the dispatcher's ARN
     * @return the definition
     */
    static Map<String, Object> definition(String dispatcher) {
        Map<String, Object> states = new LinkedHashMap<>();
        states.put("Wait", ordered("Type", "Wait", "Seconds", QUERY_INTERVAL_SECONDS, "Next", "IsComplete"));
        Map<String, Object> check = invoke(dispatcher);
        check.put("ResultSelector", ordered("IsComplete.$", "$.Payload.IsComplete"));
        check.put("ResultPath", "$." + CustomResourceDispatcher.WAITER_RESULT);
        check.put("Catch", List.of(ordered("ErrorEquals", List.of("States.ALL"),
                "ResultPath", "$." + CustomResourceDispatcher.WAITER_ERROR, "Next", "ReportFailure")));
        check.put("Next", "Complete?");
        states.put("IsComplete", check);
        states.put("Complete?", ordered("Type", "Choice",
                "Choices", List.of(ordered("Variable", "$." + CustomResourceDispatcher.WAITER_RESULT + ".IsComplete",
                        "BooleanEquals", true, "Next", "Answered")),
                "Default", "Wait"));
        states.put("Answered", ordered("Type", "Succeed"));
        Map<String, Object> report = invoke(dispatcher);
        report.put("ResultPath", "$.TrainingDataWaiterReport");
        report.put("Next", "Failed");
        states.put("ReportFailure", report);
        states.put("Failed", ordered("Type", "Fail", "Error", "CustomResourceFailed",
                "Cause", "A call to the dispatcher failed after its retries; the dispatcher answered FAILED"));
        return ordered("Comment", "Asks the custom-resource dispatcher every " + QUERY_INTERVAL_SECONDS
                        + " seconds whether a request completed; the dispatcher answers CloudFormation",
                "StartAt", "Wait", "States", states);
    }

    /** A task invoking the dispatcher with the state's input, retrying Lambda's transient errors and a failed call. */
    private static Map<String, Object> invoke(String dispatcher) {
        return ordered("Type", "Task",
                "Resource", "arn:" + Aws.PARTITION + ":states:::lambda:invoke",
                "Parameters", ordered("FunctionName", dispatcher, "Payload.$", "$"),
                "Retry", List.of(
                        ordered("ErrorEquals", LAMBDA_ERRORS, "IntervalSeconds", 2, "MaxAttempts", 6,
                                "BackoffRate", 2),
                        ordered("ErrorEquals", List.of("States.ALL"), "IntervalSeconds", QUERY_INTERVAL_SECONDS,
                                "MaxAttempts", 2, "BackoffRate", 1)));
    }

    /** @return the state machine */
    CfnResource stateMachine() {
        return stateMachine;
    }
}
