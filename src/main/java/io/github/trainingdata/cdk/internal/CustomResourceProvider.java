package io.github.trainingdata.cdk.internal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import software.amazon.awscdk.Acknowledgment;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Validations;
import software.amazon.awscdk.customresources.LogOptions;
import software.amazon.awscdk.customresources.Provider;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.Policy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.stepfunctions.LogLevel;
import software.constructs.Construct;
import software.constructs.IConstruct;

/**
 * The stack's one provider for the library's asynchronous custom resources (data repository associations and the
 * Lustre task guard, preloads, training teardowns, EFS directories), at the stack's root ({@value #ID}), made by the
 * first construct that needs it: one Java function ({@code CustomResourceDispatcher}, the SDK handlers' bundle) that
 * aws-cdk-lib's Provider framework calls as both onEvent and isComplete and that hands each request to the handler of
 * its ResourceType, the framework's three functions with two roles (onEvent's; isComplete's and onTimeout's), and
 * its waiter state machine (logged and traced, {@link WaiterTracing}), all logging to the stack's shared log group ({@link LogGroups#shared}) on the first caller's
 * key.
 *
 * <p>The function's role starts with no permission beyond its logs. Each custom resource grants it what its calls need
 * in a policy of its own ({@link #grant}), under the resource's construct, that the resource depends on: CloudFormation
 * deletes a removed resource in the update's cleanup, after the update, and the policy only after the resource, so a
 * Delete keeps its grants (a statement in one shared policy would be gone by then). The role is the union of the
 * stack's grants; each grant is scoped to the resources of the construct that asked for it.
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
    public static final Duration QUERY_INTERVAL = Duration.seconds(30);
    /**
     * The longest the framework asks isComplete: above the preload's longest wait (55 minutes) and a teardown's (50),
     * below a custom resource's ServiceTimeout of at most 3600 s, so that the framework, not CloudFormation, reports a
     * request that does not complete.
     */
    public static final Duration TOTAL_TIMEOUT = Duration.minutes(58);
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
    private final Provider provider;
    /** The fewest characters the grants so far ({@link #grant}) count as in the function's role. */
    private int grantsCharacters;

    private CustomResourceProvider(Stack stack, IKey logsKey) {
        super(stack, ID);
        this.handlerScope = new DispatcherFunction(this, "Handler", "The library's custom resources of stack "
                + stack.getStackName() + " (data repository associations, task guards, preloads, training teardowns, "
                + "EFS directories)", HANDLER, sdkHandlersBundle().toString(), LogGroups.shared(this, logsKey));
        this.handler = handlerScope.function();
        // One role for the framework's onEvent (it starts the waiter), one for its isComplete and onTimeout (the
        // waiter runs them): a single role would make the waiter depend on its own policy.
        Role onEventRole = frameworkRole("FrameworkOnEventRole");
        Role completeRole = frameworkRole("FrameworkCompleteRole");
        this.provider = Provider.Builder.create(this, "Provider")
                .onEventHandler(handler)
                .isCompleteHandler(handler)
                .frameworkOnEventRole(onEventRole)
                .frameworkCompleteAndTimeoutRole(completeRole)
                .queryInterval(QUERY_INTERVAL)
                .totalTimeout(TOTAL_TIMEOUT)
                .disableWaiterStateMachineLogging(false)
                .waiterStateMachineLogOptions(LogOptions.builder()
                        .level(LogLevel.ALL).destination(LogGroups.shared(this, logsKey)).build())
                .logGroup(LogGroups.shared(this, logsKey))
                .build();
        WaiterTracing.enable(provider);
        acknowledgeFramework(List.of(onEventRole, completeRole));
    }

    private Role frameworkRole(String id) {
        return Role.Builder.create(this, id)
                .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
                .managedPolicies(List.of(ManagedPolicy.fromAwsManagedPolicyName(
                        "service-role/AWSLambdaBasicExecutionRole")))
                .build();
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

    /** @return the SDK handlers' bundle on disk (see {@link BundledAsset}) */
    public static Path sdkHandlersBundle() {
        return BundledAsset.path(CustomResourceProvider.class, SDK_HANDLERS);
    }

    /** @return the service token of the stack's custom resources */
    public String getServiceToken() {
        return provider.getServiceToken();
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

    /** The framework's and the function's own findings, each acknowledged with why it is acceptable. */
    private void acknowledgeFramework(List<IRole> frameworkRoles) {
        WildcardFindings findings = new WildcardFindings(provider);
        List<IFunction> functions = new ArrayList<>(List.of(handler));
        for (IConstruct child : provider.getNode().getChildren()) {
            if (child instanceof IFunction function) {
                functions.add(function);
            }
        }
        for (IFunction function : functions) {
            findings.add(List.of(function.getFunctionArn() + ":*"), "The Provider framework invokes the provider's "
                    + "function and its own by ARN; ':*' covers their versions and aliases only.");
        }
        findings.add(List.of("*"), "Added by aws-cdk-lib for the waiter state machine's CloudWatch Logs vended "
                + "delivery, which supports no resource-level permissions.");
        findings.acknowledge();
        List<Construct> scopes = new ArrayList<>(List.of(provider, handlerScope));
        for (IRole role : frameworkRoles) {
            WildcardFindings roleFindings = new WildcardFindings(role);
            for (IFunction function : functions) {
                roleFindings.add(List.of(function.getFunctionArn() + ":*"), "The Provider framework invokes the "
                        + "provider's function and its own by ARN; ':*' covers their versions and aliases only.");
            }
            roleFindings.acknowledge();
            scopes.add((Construct) role);
        }
        for (Construct scope : scopes) {
            Validations.of(scope).acknowledge(Acknowledgment.builder().id(BASIC_EXECUTION).reason(
                    BASIC_EXECUTION_REASON).build());
        }
    }
}
