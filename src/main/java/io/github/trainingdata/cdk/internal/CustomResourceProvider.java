package io.github.trainingdata.cdk.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import io.github.trainingdata.cdk.internal.dispatch.CustomResourceDispatcher;
import software.amazon.awscdk.Acknowledgment;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Validations;
import software.amazon.awscdk.services.iam.Policy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.lambda.IFunction;
import software.constructs.Construct;
import software.constructs.IConstruct;

/**
 * The stack's one provider for the library's asynchronous custom resources (data repository associations and the
 * Lustre task guard, preloads, training teardowns, EFS directories), at the stack's root ({@value #ID}), made by the
 * first construct that needs it, written by the library (no aws-cdk-lib Provider framework): one Java function
 * ({@code CustomResourceDispatcher}, the SDK handlers' bundle, {@link DispatcherFunction}) that is every custom
 * resource's service token, hands each request to the handler of its ResourceType and answers CloudFormation itself,
 * and a waiter state machine ({@link ProviderWaiter}) it starts for a request that does not complete at once, both
 * logging to the stack's shared log group ({@link LogGroups#shared}) on the first caller's key.
 *
 * <p>The function is named {@value #FUNCTION_NAME_PREFIX}{@code <stack id's UUID>} so that the waiter (its definition
 * and its role's permission) can name it without referring to it: the function refers to the waiter (its ARN in the
 * environment, its role may start it), and a custom resource, which refers to the function, is created after both.
 * Its role may start the waiter and describe the waiter's executions, nothing else, before grants.
 *
 * <p>Each custom resource grants the function's role what its calls need in a policy of its own ({@link #grant}),
 * under the resource's construct, that the resource depends on: CloudFormation deletes a removed resource in the
 * update's cleanup, after the update, and the policy only after the resource, so a Delete keeps its grants (a statement
 * in one shared policy would be gone by then). The role is the union of the stack's grants; each grant is scoped to the
 * resources of the construct that asked for it.
 */
public final class CustomResourceProvider extends Construct {
    /** The provider's id at the stack's root. */
    static final String ID = "CustomResourceProvider";
    /**
     * The SDK handlers' Lambda bundle (the dispatcher and every handler class plus the AWS SDK jars they call) that the
     * Maven build puts next to the preload's classes.
     */
    static final String SDK_HANDLERS = "/io/github/trainingdata/cdk/preload/preload-handler.zip";
    /** The dispatcher's handler, named as a string: synthesizing must not load it (the SDK is a run-time dependency). */
    static final String HANDLER = "io.github.trainingdata.cdk.internal.dispatch.CustomResourceDispatcher::handle";
    /** The waiter asks isComplete this often. */
    public static final Duration QUERY_INTERVAL = Duration.seconds(CustomResourceDispatcher.QUERY_INTERVAL_SECONDS);
    /**
     * The longest a request may take before the dispatcher answers FAILED: above the preload's longest wait (55
     * minutes) and a teardown's (50), below a custom resource's ServiceTimeout (default and maximum 3600 s), so that
     * the provider, not CloudFormation, reports a request that does not complete.
     */
    public static final Duration TOTAL_TIMEOUT = Duration.seconds(CustomResourceDispatcher.TOTAL_TIMEOUT_SECONDS);
    /** The dispatcher's name, before the stack id's UUID (23 + 36 characters, within Lambda's 64). */
    static final String FUNCTION_NAME_PREFIX = "training-data-provider-";
    /**
     * The most characters IAM allows a role's inline policies together, whitespace not counted (IAM and AWS STS quotas:
     * "Role policy size cannot exceed 10,240 characters", the sum of all inline policies; an {@code AWS::IAM::Policy} is
     * an inline policy).
     */
    static final int MAX_ROLE_POLICY_CHARACTERS = 10_240;
    /** The stack's custom resources' grants together fit the provider's role. */
    public static final SynthRule GRANTS_SIZE = SynthRule.of("CUSTOM_RESOURCE_GRANTS_SIZE",
            "TrainingJobDefinition, LustreCache, LustrePreload, EfsStore (a stack's custom resources)", "ProviderGrants",
            "the grants of a stack's custom resources (one per cache, association, preload and EFS store, and one "
                    + "per stack for the training teardown) together at most " + MAX_ROLE_POLICY_CHARACTERS + " characters, the inline policies "
                    + "of the stack provider's one role: put some of the stores in another stack",
            "IAM and AWS STS quotas (role policy size: the inline policies of a role together, at most 10,240 "
                    + "characters, whitespace not counted)");

    private static final String BASIC_EXECUTION = "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/"
            + "service-role/AWSLambdaBasicExecutionRole]";
    private static final String BASIC_EXECUTION_REASON = "AWS's basic Lambda execution policy grants only "
            + "logs:CreateLogGroup, CreateLogStream and PutLogEvents, which the custom-resource functions need to log.";

    private final DispatcherFunction handlerScope;
    private final IFunction handler;
    private final ProviderWaiter waiter;
    /** The fewest characters the grants so far ({@link #grant}) count as in the function's role. */
    private int grantsCharacters;

    private CustomResourceProvider(Stack stack, IKey logsKey) {
        super(stack, ID);
        String name = Fn.join("", List.of(FUNCTION_NAME_PREFIX, Fn.select(2, Fn.split("/", stack.getStackId()))));
        String dispatcherArn = stack.formatArn(ArnComponents.builder().service("lambda").resource("function")
                .resourceName(name).arnFormat(ArnFormat.COLON_RESOURCE_NAME).build());
        this.waiter = new ProviderWaiter(this, dispatcherArn, LogGroups.shared(this, logsKey));
        String waiterArn = waiter.stateMachine().getAttrArn();
        String executions = stack.formatArn(ArnComponents.builder().service("states").resource("execution")
                .resourceName(waiter.stateMachine().getAttrName() + ":*").arnFormat(ArnFormat.COLON_RESOURCE_NAME)
                .build());
        this.handlerScope = new DispatcherFunction(this, "Handler", name, "The library's custom resources of stack "
                + stack.getStackName() + " (data repository associations, task guards, preloads, training teardowns, "
                + "EFS directories)", HANDLER, sdkHandlersBundle().toString(), sdkHandlersHash(),
                LogGroups.shared(this, logsKey),
                Map.of(CustomResourceDispatcher.WAITER_ENVIRONMENT, waiterArn), List.of(
                        PolicyStatement.Builder.create().actions(List.of("states:StartExecution"))
                                .resources(List.of(waiterArn)).build(),
                        PolicyStatement.Builder.create().actions(List.of("states:DescribeExecution"))
                                .resources(List.of(executions)).build()));
        this.handler = handlerScope.function();
        acknowledge(executions);
    }

    /**
     * The stack's provider, created by the first caller (whose key encrypts the shared log group it logs to).
     *
     * @param scope   any construct of the stack
     * @param logsKey the data layer's key, or null
     * @return the stack's provider
     */
    public static CustomResourceProvider of(Construct scope, IKey logsKey) {
        Stack stack = Stack.of(scope);
        IConstruct existing = stack.getNode().tryFindChild(ID);
        return existing instanceof CustomResourceProvider shared ? shared : new CustomResourceProvider(stack, logsKey);
    }

    /**
     * @return the SDK handlers' bundle's SHA-256 in hex, which the Maven build writes beside it
     *     ({@code preload-handler.zip.sha256})
     * @throws IllegalStateException if the build did not write it
     */
    public static String sdkHandlersHash() {
        try (InputStream in = CustomResourceProvider.class.getResourceAsStream(SDK_HANDLERS + ".sha256")) {
            if (in == null) {
                throw new IllegalStateException(SDK_HANDLERS + ".sha256 is missing from the classpath: build the "
                        + "library with Maven (process-classes writes it)");
            }
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim().split("\\s+")[0];
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + SDK_HANDLERS + ".sha256", e);
        }
    }

    /** @return the SDK handlers' bundle on disk (see {@link BundledAsset}) */
    public static Path sdkHandlersBundle() {
        return BundledAsset.path(CustomResourceProvider.class, SDK_HANDLERS);
    }

    /** @return the service token of the stack's custom resources: the dispatcher's ARN */
    public String getServiceToken() {
        return handler.getFunctionArn();
    }

    /** @return the function that serves every request */
    public IFunction getHandler() {
        return handler;
    }

    /**
     * Gives the provider's function what one custom resource needs, in a policy {@code ProviderGrants} under
     * {@code scope} (make the custom resource depend on it).
     *
     * @param scope      the construct whose custom resource needs the grants
     * @param statements the statements, each scoped to that construct's resources
     * @return the policy
     */
    public Policy grant(Construct scope, List<PolicyStatement> statements) {
        Policy policy = Policy.Builder.create(scope, "ProviderGrants")
                .roles(List.of(handler.getRole()))
                .statements(statements)
                .build();
        // Counted at the fewest characters each can resolve to: past the limit, IAM surely refuses the last one.
        int size = PolicySize.atLeast(Stack.of(this).resolve(policy.getDocument()));
        grantsCharacters += size;
        if (grantsCharacters > MAX_ROLE_POLICY_CHARACTERS) {
            throw ConfigurationError.of(GRANTS_SIZE, scope, "ProviderGrants", grantsCharacters
                    + " characters at least (" + size + " of them this construct's)", GRANTS_SIZE.getAllowed());
        }
        return policy;
    }

    /** The function's own findings, each acknowledged with why it is acceptable. */
    private void acknowledge(String executions) {
        WildcardFindings findings = new WildcardFindings(handlerScope);
        findings.add(List.of(executions), "The dispatcher looks up the waiter execution of a CloudFormation request "
                + "by its name, the request's id, to run a request Lambda delivers again only once: any execution of "
                + "the stack's waiter state machine, and no other's.");
        findings.acknowledge();
        Validations.of(handlerScope).acknowledge(Acknowledgment.builder().id(BASIC_EXECUTION).reason(
                BASIC_EXECUTION_REASON).build());
    }
}
