package io.github.trainingdata.cdk.internal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awscdk.Acknowledgment;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Validations;
import software.amazon.awscdk.customresources.LogOptions;
import software.amazon.awscdk.customresources.Provider;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.stepfunctions.LogLevel;
import software.constructs.Construct;
import software.constructs.IConstruct;

/**
 * aws-cdk-lib's Provider framework around this library's AWS SDK custom-resource handlers (the Lustre preload's, the
 * training definitions' teardown, the data repository associations'): the handler functions from their Lambda bundle,
 * the stack's one shared log group ({@link LogGroups#shared}) on the data layer's key, isComplete every 30 seconds, a logged and traced waiter ({@link WaiterTracing}),
 * and each of the framework's cdk-nag findings acknowledged with its reason: its invoke permission on the handlers'
 * and its own functions' versions ({@code <arn>:*}), the waiter's CloudWatch Logs vended delivery ({@code *}), and
 * AWS's basic Lambda execution policy on the framework's and the handlers' roles. For the library's constructs; the
 * grants are theirs.
 */
public final class HandlerProvider {
    /**
     * The SDK handlers' Lambda bundle (handler classes plus the AWS SDK jars for Step Functions and SageMaker) that
     * the Maven build puts next to the preload's classes; every function made here runs it, so a stack uploads it
     * once.
     */
    static final String SDK_HANDLERS = "/io/github/trainingdata/cdk/preload/preload-handler.zip";
    /** The waiter asks isComplete this often. */
    public static final Duration QUERY_INTERVAL = Duration.seconds(30);
    /** The longest the framework waits for isComplete by default: the custom resource's one hour. */
    public static final Duration TOTAL_TIMEOUT = Duration.minutes(60);

    private HandlerProvider() {
    }

    /** @return the SDK handlers' bundle on disk (see {@link BundledAsset}) */
    public static Path sdkHandlersBundle() {
        return BundledAsset.path(HandlerProvider.class, SDK_HANDLERS);
    }

    /**
     * A handler function running the SDK handlers' bundle; see {@link #function(Construct, String, String, String,
     * Path, IKey)}.
     */
    public static Function function(Construct scope, String id, String description, String handler, IKey logsKey) {
        return function(scope, id, description, handler, sdkHandlersBundle(), logsKey);
    }

    /**
     * A handler function running {@code bundle} on Java 25 with 512 MB for at most 2 minutes, logging to the stack's
     * shared log group ({@link LogGroups#shared}, on {@code logsKey} when given).
     *
     * @param scope       the scope
     * @param id          the function's id
     * @param description the function's description
     * @param handler     {@code <class>::<method>}
     * @param bundle      the Lambda bundle (see {@link BundledAsset})
     * @param logsKey     the data layer's key, or null
     * @return the function
     */
    public static Function function(Construct scope, String id, String description, String handler, Path bundle,
            IKey logsKey) {
        return Function.Builder.create(scope, id)
                .description(description)
                .runtime(Runtime.JAVA_25)
                .handler(handler)
                .code(Code.fromAsset(bundle.toString()))
                .memorySize(512)
                .timeout(Duration.minutes(2))
                .logGroup(LogGroups.shared(scope, logsKey))
                .build();
    }

    /** The Provider {@code Provider} under {@code scope}, giving up after {@link #TOTAL_TIMEOUT}; see below. */
    public static Provider provider(Construct scope, Function onEvent, Function isComplete, IKey logsKey) {
        return provider(scope, onEvent, isComplete, TOTAL_TIMEOUT, logsKey);
    }

    /**
     * The Provider {@code Provider} under {@code scope}: onEvent, then isComplete every {@link #QUERY_INTERVAL} for at
     * most {@code totalTimeout}; the waiter state machine logged at level ALL and traced; the framework's functions and
     * its waiter log to the stack's shared log group ({@link LogGroups#shared}).
     *
     * @param scope        the scope
     * @param onEvent      the onEvent handler
     * @param isComplete   the isComplete handler
     * @param totalTimeout how long isComplete is asked before the request fails: at most 1 hour, a multiple of 30 s
     * @param logsKey      the data layer's key, or null
     * @return the provider
     */
    public static Provider provider(Construct scope, Function onEvent, Function isComplete, Duration totalTimeout,
            IKey logsKey) {
        Provider provider = Provider.Builder.create(scope, "Provider")
                .onEventHandler(onEvent)
                .isCompleteHandler(isComplete)
                .queryInterval(QUERY_INTERVAL)
                .totalTimeout(totalTimeout)
                .disableWaiterStateMachineLogging(false)
                .waiterStateMachineLogOptions(LogOptions.builder()
                        .level(LogLevel.ALL).destination(LogGroups.shared(scope, logsKey)).build())
                .logGroup(LogGroups.shared(scope, logsKey))
                .build();
        WaiterTracing.enable(provider);
        acknowledgeFramework(provider, List.of(onEvent, isComplete));
        return provider;
    }

    /** The Provider framework's own findings, each acknowledged with why it is acceptable. */
    private static void acknowledgeFramework(Provider provider, List<Function> handlers) {
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
