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
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Validations;
import software.amazon.awscdk.services.iam.PolicyDocument;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.logs.LogGroup;
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
 *
 * <p>The function's role may only log, start the waiter and describe its executions, and assume the stack's
 * custom-resource roles: one statement per stack ({@value #ASSUME_ROLES_ID}: {@code sts:AssumeRole} on the roles under
 * the IAM path {@value #ROLE_PATH}{@code <Region>/<stack name>/}), whatever the number of resources. Each custom resource gets
 * what its calls need in a role of its own ({@link #grant}: the statements inline, that path, trusted by the
 * function's role alone), whose ARN it passes as its property {@code RoleArn}; the dispatcher assumes that role for
 * the resource's requests. The resource references the role, and the role depends on the statement, so CloudFormation
 * creates the resource after both and deletes it before them: also a resource removed from the stack, deleted in the
 * update's cleanup, still has its role.
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
    /** One custom resource's role fits IAM's limit. */
    public static final SynthRule GRANTS_SIZE = SynthRule.of("CUSTOM_RESOURCE_GRANTS_SIZE",
            "TrainingJobDefinition, LustreCache, LustrePreload, EfsStore (a stack's custom resources)", "HandlerRole",
            "the statements one custom resource's role holds (a cache's associations, a preload, an EFS store's "
                    + "directories, a training definition's teardown) at most " + MAX_ROLE_POLICY_CHARACTERS
                    + " characters: give the construct fewer datasets, buckets or keys",
            "IAM and AWS STS quotas (role policy size: the inline policies of a role together, at most 10,240 "
                    + "characters, whitespace not counted)");
    /**
     * The IAM path of every custom-resource role of the library, followed by the stack's Region and name (a stack's
     * name is unique in its account and Region only, and IAM is global): the provider's function may assume the roles
     * under its own stack's path only.
     */
    public static final String ROLE_PATH = "/training-data/custom-resource/";
    /** The id, under the provider, of the policy that lets its function assume the stack's custom-resource roles. */
    static final String ASSUME_ROLES_ID = "AssumeRoles";

    private static final String BASIC_EXECUTION = "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/"
            + "service-role/AWSLambdaBasicExecutionRole]";
    private static final String BASIC_EXECUTION_REASON = "AWS's basic Lambda execution policy grants only "
            + "logs:CreateLogGroup, CreateLogStream and PutLogEvents, which the custom-resource functions need to log.";

    private final DispatcherFunction handlerScope;
    /** The function's ARN, the service token. */
    private final String serviceToken;
    /** The function's role's ARN. */
    private final String handlerRoleArn;
    private final ProviderWaiter waiter;
    /** The stack's wildcard findings. */
    private final StackWildcardFindings findings;
    /** The function's one statement, made with the stack's first custom-resource role ({@link #assumeRoles}). */
    private IConstruct assumeRoles;

    private CustomResourceProvider(Stack stack, IKey logsKey) {
        super(stack, ID);
        String name = Fn.join("", List.of(FUNCTION_NAME_PREFIX, Fn.select(2, Fn.split("/", stack.getStackId()))));
        String dispatcherArn = stack.formatArn(ArnComponents.builder().service("lambda").resource("function")
                .resourceName(name).arnFormat(ArnFormat.COLON_RESOURCE_NAME).build());
        LogGroup logGroup = LogGroups.shared(this, logsKey);
        // Looked up once for the provider's three findings (the stack's first findings, in the data layer).
        this.findings = StackWildcardFindings.of(stack);
        this.waiter = new ProviderWaiter(this, dispatcherArn, logGroup, findings);
        String waiterArn = waiter.stateMachine().getAtt("Arn").toString();
        String executions = stack.formatArn(ArnComponents.builder().service("states").resource("execution")
                .resourceName(waiter.stateMachine().getAtt("Name").toString() + ":*")
                .arnFormat(ArnFormat.COLON_RESOURCE_NAME).build());
        this.handlerScope = new DispatcherFunction(this, "Handler", name, "The library's custom resources of stack "
                + stack.getStackName() + " (data repository associations, task guards, preloads, training teardowns, "
                + "EFS directories)", HANDLER, sdkHandlersBundle().toString(), sdkHandlersHash(),
                logGroup,
                Map.of(CustomResourceDispatcher.WAITER_ENVIRONMENT, waiterArn), List.of(
                        CoreResources.allow(List.of("states:StartExecution"), List.of(waiterArn)),
                        CoreResources.allow(List.of("states:DescribeExecution"), List.of(executions))));
        this.serviceToken = handlerScope.function().getAtt("Arn").toString();
        this.handlerRoleArn = handlerScope.role().getAtt("Arn").toString();
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
        return serviceToken;
    }

    /** @return the role of the function that serves every request (its resource is the default child) */
    public IConstruct getHandlerRole() {
        return handlerScope.role().getNode().getScope();
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
    public CustomResourceRole grant(Construct scope, String id, String description, List<PolicyStatement> statements) {
        PolicyDocument document = PolicyDocument.Builder.create().statements(statements).build();
        // Counted at the fewest characters it can resolve to: past the limit, IAM surely refuses it.
        int size = PolicySize.atLeast(Stack.of(this).resolve(document));
        if (size > MAX_ROLE_POLICY_CHARACTERS) {
            throw ConfigurationError.of(GRANTS_SIZE, scope, id, size + " characters at least",
                    GRANTS_SIZE.getAllowed());
        }
        CustomResourceRole role = new CustomResourceRole(scope, id, description, stackRolePath(), handlerRoleArn,
                document);
        role.getNode().addDependency(assumeRoles());
        return role;
    }

    /** The IAM path of this stack's custom-resource roles: {@value #ROLE_PATH}{@code <Region>/<stack name>/}. */
    private static String stackRolePath() {
        return ROLE_PATH + Aws.REGION + "/" + Aws.STACK_NAME + "/";
    }

    /**
     * The function's one statement, whatever the number of custom resources: {@code sts:AssumeRole} on the roles under
     * its stack's path (naming each role would grow the function's role with each resource again).
     */
    private IConstruct assumeRoles() {
        if (assumeRoles == null) {
            Stack stack = Stack.of(this);
            String roles = stack.formatArn(ArnComponents.builder().service("iam").region("").resource("role")
                    .resourceName(stackRolePath().substring(1) + "*")
                    .arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
            assumeRoles = CoreResources.policy(this, ASSUME_ROLES_ID, CoreResources.document(List.of(
                    CoreResources.allow(List.of("sts:AssumeRole"), List.of(roles)))), handlerScope.role())
                    .getNode().getScope();
            WildcardFindings assumable = new WildcardFindings(assumeRoles);
            assumable.add(List.of(roles), "The stack's provider may assume this stack's custom-resource roles only "
                    + "(their IAM path names the stack's Region and name); each trusts that provider's role alone and "
                    + "holds only what its resource's calls need.");
            assumable.acknowledge(findings);
        }
        return assumeRoles;
    }

    /** The function's own findings, each acknowledged with why it is acceptable. */
    private void acknowledge(String executions) {
        WildcardFindings executionFindings = new WildcardFindings(handlerScope.node());
        executionFindings.add(List.of(executions), "The dispatcher looks up the waiter executions of a CloudFormation request "
                + "by their names (the request's id, then <id>-2 to -5 for the attempts of a retried deployment), so "
                + "that a delivery Lambda repeats while a waiter runs is not run again: any execution of the stack's "
                + "waiter state machine, and no other's.");
        executionFindings.acknowledge(findings);
        Validations.of(handlerScope.node()).acknowledge(Acknowledgment.builder().id(BASIC_EXECUTION).reason(
                BASIC_EXECUTION_REASON).build());
    }
}
