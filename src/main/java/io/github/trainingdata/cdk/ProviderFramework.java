package io.github.trainingdata.cdk;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awscdk.Acknowledgment;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Validations;
import software.amazon.awscdk.customresources.LogOptions;
import software.amazon.awscdk.customresources.Provider;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.logs.ILogGroup;
import software.amazon.awscdk.services.stepfunctions.LogLevel;
import software.constructs.Construct;
import software.constructs.IConstruct;

/**
 * aws-cdk-lib's Provider framework as this library's asynchronous custom resources use it (the preload, the data
 * repository associations): isComplete every 30 seconds until a total timeout, the waiter state machine logged in
 * full and traced ({@link WaiterTracing}), the framework's log group given, and every cdk-nag finding the framework
 * brings acknowledged with its reason: its invoke permission on the handlers' and its own functions' versions
 * ({@code <arn>:*}), the waiter's CloudWatch Logs vended delivery ({@code *}), and AWS's basic Lambda execution
 * policy on the framework's and the handlers' roles.
 */
public final class ProviderFramework {
    private ProviderFramework() {
    }

    /**
     * Creates the Provider {@code Provider} under {@code scope}.
     *
     * @param scope        the scope
     * @param onEvent      the onEvent handler
     * @param isComplete   the isComplete handler
     * @param totalTimeout how long isComplete is asked before the request fails (at most 1 hour), a multiple of 30 s
     * @param waiterLogs   the waiter state machine's log group
     * @param providerLogs the framework functions' log group
     * @return the provider
     */
    public static Provider create(Construct scope, Function onEvent, Function isComplete, Duration totalTimeout,
            ILogGroup waiterLogs, ILogGroup providerLogs) {
        Provider provider = Provider.Builder.create(scope, "Provider")
                .onEventHandler(onEvent)
                .isCompleteHandler(isComplete)
                .queryInterval(Duration.seconds(30))
                .totalTimeout(totalTimeout)
                .disableWaiterStateMachineLogging(false)
                .waiterStateMachineLogOptions(LogOptions.builder().level(LogLevel.ALL).destination(waiterLogs).build())
                .logGroup(providerLogs)
                .build();
        WaiterTracing.enable(provider);
        acknowledge(provider, List.of(onEvent, isComplete));
        return provider;
    }

    private static void acknowledge(Provider provider, List<Function> handlers) {
        WildcardFindings findings = new WildcardFindings(provider);
        List<IFunction> functions = new ArrayList<>(handlers);
        for (IConstruct child : provider.getNode().getChildren()) {
            if (child instanceof IFunction function) {
                functions.add(function);
            }
        }
        for (IFunction function : functions) {
            findings.add(List.of(function.getFunctionArn() + ":*"), "The Provider framework invokes the handler "
                    + "functions and its own by ARN; ':*' covers their versions and aliases only.");
        }
        findings.add(List.of("*"), "Added by aws-cdk-lib for the waiter state machine's CloudWatch Logs vended "
                + "delivery, which supports no resource-level permissions.");
        findings.acknowledge();
        String basicExecution = "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/"
                + "AWSLambdaBasicExecutionRole]";
        List<Construct> scopes = new ArrayList<>(List.of(provider));
        scopes.addAll(handlers);
        for (Construct scope : scopes) {
            Validations.of(scope).acknowledge(Acknowledgment.builder().id(basicExecution).reason("AWS's basic Lambda "
                    + "execution policy grants only logs:CreateLogGroup, CreateLogStream and PutLogEvents, which the "
                    + "custom-resource functions need to log.").build());
        }
    }
}
