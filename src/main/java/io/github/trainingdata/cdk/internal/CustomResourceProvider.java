package io.github.trainingdata.cdk.internal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import software.amazon.awscdk.Acknowledgment;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Validations;
import software.amazon.awscdk.customresources.LogOptions;
import software.amazon.awscdk.customresources.Provider;
import software.amazon.awscdk.services.iam.ArnPrincipal;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.Policy;
import software.amazon.awscdk.services.iam.PolicyDocument;
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
 * <p>The function's role may only log and assume the stack's custom-resource roles: one statement per stack
 * ({@value #ASSUME_ROLES_ID}: {@code sts:AssumeRole} on the roles under the IAM path {@value #ROLE_PATH}{@code <stack
 * name>/}), whatever the number of resources. Each custom resource gets what its calls need in a role of its own
 * ({@link #grant}: the statements inline, that path, trusted by the function's role alone), whose ARN it passes as its
 * property {@code RoleArn}; the dispatcher assumes that role for the resource's requests. The resource references the
 * role, and the role depends on the statement, so CloudFormation creates the resource after both and deletes it
 * before them: also a resource removed from the stack, deleted in the update's cleanup, still has its role.
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
    /** One custom resource's role fits IAM's limit. */
    public static final SynthRule GRANTS_SIZE = SynthRule.of("CUSTOM_RESOURCE_GRANTS_SIZE",
            "TrainingJobDefinition, LustreCache, LustrePreload, EfsStore (a stack's custom resources)", "HandlerRole",
            "the statements one custom resource's role holds (a cache's associations, a preload, an EFS store's "
                    + "directories, a training definition's teardown) at most " + MAX_ROLE_POLICY_CHARACTERS
                    + " characters: give the construct fewer datasets, buckets or keys",
            "IAM and AWS STS quotas (role policy size: the inline policies of a role together, at most 10,240 "
                    + "characters, whitespace not counted)");
    /**
     * The IAM path of every custom-resource role of the library, followed by the stack's name: the provider's function
     * may assume the roles under its own stack's path only.
     */
    public static final String ROLE_PATH = "/training-data/custom-resource/";
    /** The id, under the provider, of the policy that lets its function assume the stack's custom-resource roles. */
    static final String ASSUME_ROLES_ID = "AssumeRoles";

    private static final String BASIC_EXECUTION = "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/"
            + "service-role/AWSLambdaBasicExecutionRole]";
    private static final String BASIC_EXECUTION_REASON = "AWS's basic Lambda execution policy grants only "
            + "logs:CreateLogGroup, CreateLogStream and PutLogEvents, which the custom-resource functions need to log.";

    private final DispatcherFunction handlerScope;
    private final IFunction handler;
    private final Provider provider;
    /** The function's one statement, made with the stack's first custom-resource role ({@link #assumeRoles}). */
    private Policy assumeRoles;

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
     * A role {@code id} under {@code scope} holding what one custom resource's handler needs (the statements inline),
     * under the stack's custom-resource path, that only the provider's function may assume; pass its ARN to the
     * resource as {@code RoleArn} (the reference orders the resource after the role, and its delete before).
     *
     * @param scope       the construct whose custom resource needs the statements
     * @param id          the role's id
     * @param description the role's description (fixed text: no construct path)
     * @param statements  the statements, each scoped to that construct's resources
     * @return the role
     */
    public Role grant(Construct scope, String id, String description, List<PolicyStatement> statements) {
        PolicyDocument document = PolicyDocument.Builder.create().statements(statements).build();
        // Counted at the fewest characters it can resolve to: past the limit, IAM surely refuses it.
        int size = PolicySize.atLeast(Stack.of(this).resolve(document));
        if (size > MAX_ROLE_POLICY_CHARACTERS) {
            throw ConfigurationError.of(GRANTS_SIZE, scope, id, size + " characters at least",
                    GRANTS_SIZE.getAllowed());
        }
        Role role = Role.Builder.create(scope, id)
                .path(ROLE_PATH + Aws.STACK_NAME + "/")
                .description(description)
                .assumedBy(new ArnPrincipal(handler.getRole().getRoleArn()))
                .inlinePolicies(Map.of("Grants", document))
                .build();
        role.getNode().addDependency(assumeRoles());
        return role;
    }

    /**
     * The function's one statement, whatever the number of custom resources: {@code sts:AssumeRole} on the roles under
     * its stack's path (naming each role would grow the function's role with each resource again).
     */
    private Policy assumeRoles() {
        if (assumeRoles == null) {
            Stack stack = Stack.of(this);
            String roles = stack.formatArn(ArnComponents.builder().service("iam").region("").resource("role")
                    .resourceName(ROLE_PATH.substring(1) + Aws.STACK_NAME + "/*")
                    .arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
            assumeRoles = Policy.Builder.create(this, ASSUME_ROLES_ID)
                    .roles(List.of(handler.getRole()))
                    .statements(List.of(PolicyStatement.Builder.create().actions(List.of("sts:AssumeRole"))
                            .resources(List.of(roles)).build()))
                    .build();
            WildcardFindings findings = new WildcardFindings(assumeRoles);
            findings.add(List.of(roles), "The stack's provider may assume this stack's custom-resource roles only "
                    + "(their IAM path names the stack); each trusts that provider's role alone and holds only what "
                    + "its resource's calls need.");
            findings.acknowledge();
        }
        return assumeRoles;
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
