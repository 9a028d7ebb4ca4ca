package io.github.trainingdata.cdk.internal.dispatch;

import com.amazonaws.services.lambda.runtime.Context;
import io.github.trainingdata.cdk.internal.handler.AssumedRoles;
import io.github.trainingdata.cdk.internal.handler.CustomResourceEvent;
import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import io.github.trainingdata.cdk.preload.handler.PreloadHandler;
import io.github.trainingdata.cdk.storage.associations.DataRepositoryAssociationHandler;
import io.github.trainingdata.cdk.storage.handler.EfsDirectoriesHandler;
import io.github.trainingdata.cdk.training.handler.TrainingTeardownHandler;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.lambda.LambdaClient;

/**
 * The Lambda handler of a stack's one custom-resource provider (aws-cdk-lib's Provider framework, with this one
 * function as both its onEvent and its isComplete handler): each request goes to the handler of its
 * {@code ResourceType} (the constants below), acting as the resource's own role.
 *
 * <p>Every resource names its role ({@value AssumedRoles#ROLE_ARN}), which trusts this function's role alone and holds
 * what that resource's calls need; the function's own role may only assume the stack's such roles. The dispatcher
 * assumes the role in a session named after the request ({@link AssumedRoles}) and hands the request to a handler of
 * the type whose clients sign with the role's credentials, made for that role and request and kept for the request's
 * isComplete calls (the {@value #MAX_HANDLERS} most recent). A refused AssumeRole (a role created seconds ago, not yet
 * visible to STS) is tried again: onEvent waits up to {@link AssumedRoles#ON_EVENT_WAIT} and then fails the request;
 * isComplete answers "not complete yet", so the next call tries again, until the provider's total timeout. A Delete
 * of a preload or a teardown, whose Delete never fails, goes on instead ({@link #DELETE_WITHOUT_ROLE}): its role may
 * be gone for good, and failing it would leave the resource in DELETE_FAILED.
 *
 * <p>The framework calls onEvent with the CloudFormation request and isComplete with that request merged with what
 * onEvent returned, so the onEvent answer carries {@value #PHASE} = {@value #IS_COMPLETE}, which no CloudFormation
 * request holds: a request with it is an isComplete call, any other an onEvent call. The framework reports only the
 * physical id and {@code Data} to CloudFormation.
 */
public final class CustomResourceDispatcher {
    /** The key, in what onEvent returns, that marks the framework's isComplete calls. */
    public static final String PHASE = "TrainingDataPhase";
    /** The value of {@value #PHASE} in isComplete calls. */
    public static final String IS_COMPLETE = "isComplete";
    /** A Lustre dataset's data repository association. */
    public static final String DATA_REPOSITORY_ASSOCIATION = "Custom::DataRepositoryAssociation";
    /** A Lustre cache's task guard (cancels the file system's tasks before it is deleted). */
    public static final String LUSTRE_TASK_GUARD = "Custom::LustreTaskGuard";
    /** A Lustre preload's warm-up. */
    public static final String LUSTRE_PRELOAD = "Custom::LustrePreload";
    /** A training definition's teardown. */
    public static final String TRAINING_TEARDOWN = "Custom::TrainingTeardown";
    /** An EFS store's directories, made by a function of their own in the VPC ({@link #DIRECTORIES_FUNCTION}). */
    public static final String EFS_DIRECTORIES = "Custom::EfsDirectories";
    /** ResourceProperties key of {@value #EFS_DIRECTORIES}: the ARN of the function that makes the directories. */
    public static final String DIRECTORIES_FUNCTION = EfsDirectoriesHandler.FUNCTION;
    /** The handlers kept (one per resource type, role and request). */
    static final int MAX_HANDLERS = 16;
    /**
     * The types whose Delete goes on when their role cannot be assumed (gone, or no longer trusting this function),
     * with credentials that refuse every call: their handlers' Delete never fails, a refused call is logged and not
     * waited for (the teardown acts for each definition as the definition's own role, which it assumes itself). Any
     * other type's Delete fails then, as its handler fails on a refused call (an association left linked must show).
     */
    static final Set<String> DELETE_WITHOUT_ROLE = Set.of(LUSTRE_PRELOAD, TRAINING_TEARDOWN);
    private static final Map<String, Object> NOT_COMPLETE = Map.of("IsComplete", false);
    private final Map<String, Function<AwsCredentialsProvider, CustomResourceHandler>> factories;
    private final AssumedRoles roles;
    private final Map<String, CustomResourceHandler> handlers = new LinkedHashMap<>(MAX_HANDLERS, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, CustomResourceHandler> eldest) {
            return size() > MAX_HANDLERS;
        }
    };

    /** The dispatcher Lambda instantiates: each type's handler with clients of the function's Region and the role. */
    public CustomResourceDispatcher() {
        this(defaults(), AssumedRoles.fromEnvironment());
    }

    /**
     * A dispatcher with its handlers and roles supplied.
     *
     * @param factories each resource type's handler, given the credentials of the resource's role
     * @param roles     assumes the resources' roles
     */
    CustomResourceDispatcher(Map<String, Function<AwsCredentialsProvider, CustomResourceHandler>> factories,
            AssumedRoles roles) {
        this.factories = Objects.requireNonNull(factories, "factories");
        this.roles = Objects.requireNonNull(roles, "roles");
    }

    /**
     * Hands the request to its type's handler: isComplete when it carries {@value #PHASE}, else onEvent, whose answer
     * then gets {@value #PHASE} so that the framework's isComplete calls carry it.
     *
     * @param event   the Provider framework's event
     * @param context the Lambda context
     * @return the type's handler's answer
     * @throws IllegalArgumentException for a resource type this provider does not serve, or a request that names no
     *                                  role
     * @throws SdkException             when onEvent cannot assume the role within {@link AssumedRoles#ON_EVENT_WAIT},
     *                                  or STS fails it in a way no wait mends (not for a Delete of a type in
     *                                  {@link #DELETE_WITHOUT_ROLE})
     */
    public Map<String, Object> handle(Map<String, Object> event, Context context) {
        Object type = event.get("ResourceType");
        Function<AwsCredentialsProvider, CustomResourceHandler> factory = factories.get(type);
        if (factory == null) {
            throw new IllegalArgumentException("ResourceType '" + type + "' is not served by this provider; it serves "
                    + factories.keySet());
        }
        CustomResourceEvent request = new CustomResourceEvent(event);
        String roleArn = roleArn(request);
        String session = AssumedRoles.sessionName(request);
        boolean isComplete = IS_COMPLETE.equals(event.get(PHASE));
        boolean goesOnWithoutRole = "Delete".equals(request.requestType()) && DELETE_WITHOUT_ROLE.contains(type);
        AwsCredentialsProvider credentials;
        try {
            credentials = isComplete ? roles.credentials(roleArn, session)
                    : roles.waitFor(roleArn, session, context.getLogger());
        } catch (SdkException e) {
            if (goesOnWithoutRole && !(isComplete && SdkCalls.isTransient(e))) {
                // Its role gone or no longer trusting this function: no wait mends that, and this Delete never fails.
                context.getLogger().log("Cannot assume " + roleArn + " (" + e.getMessage() + "): the Delete goes on, "
                        + "each of its calls refused with this error");
                return answer(factory.apply(AssumedRoles.refusing(e)), event, context, isComplete);
            }
            if (!isComplete || !AssumedRoles.worthAnotherTry(e)) {
                throw e;
            }
            context.getLogger().log("Cannot assume " + roleArn + " yet (not complete; the next call tries again): "
                    + e.getMessage());
            return NOT_COMPLETE;
        }
        CustomResourceHandler handler = handlers.computeIfAbsent(type + "|" + roleArn + "|" + session,
                key -> factory.apply(credentials));
        return answer(handler, event, context, isComplete);
    }

    /** The handler's answer: isComplete's as it is, onEvent's with {@value #PHASE}. */
    private static Map<String, Object> answer(CustomResourceHandler handler, Map<String, Object> event,
            Context context, boolean isComplete) {
        if (isComplete) {
            return handler.isComplete(event, context);
        }
        Map<String, Object> answer = new LinkedHashMap<>(handler.onEvent(event, context));
        answer.put(PHASE, IS_COMPLETE);
        return answer;
    }

    /** The role the request's resource names. */
    private static String roleArn(CustomResourceEvent request) {
        Object roleArn = request.resourceProperties().get(AssumedRoles.ROLE_ARN);
        if (!(roleArn instanceof String arn) || arn.isEmpty()) {
            throw new IllegalArgumentException("ResourceProperties." + AssumedRoles.ROLE_ARN + " must name the role "
                    + "the resource's handler acts as");
        }
        return arn;
    }

    private static Map<String, Function<AwsCredentialsProvider, CustomResourceHandler>> defaults() {
        Map<String, Function<AwsCredentialsProvider, CustomResourceHandler>> factories = new LinkedHashMap<>();
        Function<AwsCredentialsProvider, CustomResourceHandler> associations = credentials -> {
            DataRepositoryAssociationHandler handler = new DataRepositoryAssociationHandler(credentials);
            return CustomResourceHandler.of(handler::onEvent, handler::isComplete);
        };
        factories.put(DATA_REPOSITORY_ASSOCIATION, associations);
        factories.put(LUSTRE_TASK_GUARD, associations);
        factories.put(LUSTRE_PRELOAD, credentials -> {
            PreloadHandler handler = new PreloadHandler(credentials);
            return CustomResourceHandler.of(handler::onEvent, handler::isComplete);
        });
        factories.put(TRAINING_TEARDOWN, credentials -> {
            TrainingTeardownHandler handler = new TrainingTeardownHandler(credentials);
            return CustomResourceHandler.of(handler::onEvent, handler::isComplete);
        });
        factories.put(EFS_DIRECTORIES, credentials -> new DirectoriesInvoker(SdkCalls.configure(LambdaClient.builder())
                .credentialsProvider(credentials).build()));
        return factories;
    }
}
