package io.github.trainingdata.cdk.internal.dispatch;

import com.amazonaws.services.lambda.runtime.Context;
import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import io.github.trainingdata.cdk.preload.handler.PreloadHandler;
import io.github.trainingdata.cdk.storage.associations.DataRepositoryAssociationHandler;
import io.github.trainingdata.cdk.storage.handler.EfsDirectoriesHandler;
import io.github.trainingdata.cdk.training.handler.TrainingTeardownHandler;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import software.amazon.awssdk.services.lambda.LambdaClient;

/**
 * The Lambda handler of a stack's one custom-resource provider (aws-cdk-lib's Provider framework, with this one
 * function as both its onEvent and its isComplete handler): each request goes to the handler of its
 * {@code ResourceType} (the constants below), made once per function instance, when a request of its type first arrives.
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
    private final Map<String, Supplier<CustomResourceHandler>> factories;
    private final Map<String, CustomResourceHandler> handlers = new HashMap<>();

    /** The dispatcher Lambda instantiates: each type's handler with the clients of the function's Region and role. */
    public CustomResourceDispatcher() {
        this(defaults());
    }

    /**
     * A dispatcher with its handlers supplied.
     *
     * @param factories each resource type's handler, made when a request of the type first arrives
     */
    CustomResourceDispatcher(Map<String, Supplier<CustomResourceHandler>> factories) {
        this.factories = Objects.requireNonNull(factories, "factories");
    }

    /**
     * Hands the request to its type's handler: isComplete when it carries {@value #PHASE}, else onEvent, whose answer
     * then gets {@value #PHASE} so that the framework's isComplete calls carry it.
     *
     * @param event   the Provider framework's event
     * @param context the Lambda context
     * @return the type's handler's answer
     * @throws IllegalArgumentException for a resource type this provider does not serve
     */
    public Map<String, Object> handle(Map<String, Object> event, Context context) {
        Object type = event.get("ResourceType");
        Supplier<CustomResourceHandler> factory = factories.get(type);
        if (factory == null) {
            throw new IllegalArgumentException("ResourceType '" + type + "' is not served by this provider; it serves "
                    + factories.keySet());
        }
        CustomResourceHandler handler = handlers.computeIfAbsent((String) type, t -> factory.get());
        if (IS_COMPLETE.equals(event.get(PHASE))) {
            return handler.isComplete(event, context);
        }
        Map<String, Object> answer = new LinkedHashMap<>(handler.onEvent(event, context));
        answer.put(PHASE, IS_COMPLETE);
        return answer;
    }

    private static Map<String, Supplier<CustomResourceHandler>> defaults() {
        Map<String, Supplier<CustomResourceHandler>> factories = new LinkedHashMap<>();
        Supplier<CustomResourceHandler> associations = () -> {
            DataRepositoryAssociationHandler handler = new DataRepositoryAssociationHandler();
            return CustomResourceHandler.of(handler::onEvent, handler::isComplete);
        };
        factories.put(DATA_REPOSITORY_ASSOCIATION, associations);
        factories.put(LUSTRE_TASK_GUARD, associations);
        factories.put(LUSTRE_PRELOAD, () -> {
            PreloadHandler handler = new PreloadHandler();
            return CustomResourceHandler.of(handler::onEvent, handler::isComplete);
        });
        factories.put(TRAINING_TEARDOWN, () -> {
            TrainingTeardownHandler handler = new TrainingTeardownHandler();
            return CustomResourceHandler.of(handler::onEvent, handler::isComplete);
        });
        factories.put(EFS_DIRECTORIES, () -> new DirectoriesInvoker(SdkCalls.configure(LambdaClient.builder()).build()));
        return factories;
    }
}
