package io.github.trainingdata.cdk.internal.dispatch;

import com.amazonaws.services.lambda.runtime.Context;
import io.github.trainingdata.cdk.internal.handler.AssumedRoles;
import io.github.trainingdata.cdk.internal.handler.CustomResourceEvent;
import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import io.github.trainingdata.cdk.preload.handler.PreloadHandler;
import io.github.trainingdata.cdk.storage.associations.DataRepositoryAssociationHandler;
import io.github.trainingdata.cdk.storage.handler.EfsDirectoriesHandler;
import io.github.trainingdata.cdk.training.handler.TrainingTeardownHandler;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The Lambda handler of a stack's one custom-resource provider, and the service token of every custom resource of the
 * library in the stack. CloudFormation invokes it asynchronously with a request; it hands the request to the handler
 * of its {@code ResourceType} (the constants below), runs that handler's onEvent, then its isComplete once, and when
 * complete answers CloudFormation itself ({@link CloudFormationResponse}). When not complete it starts the stack's
 * waiter state machine (named by the {@code RequestId} and the attempt), which waits {@value #QUERY_INTERVAL_SECONDS} seconds, invokes
 * this function again with the request marked {@value #PHASE} = {@value #IS_COMPLETE} (which no CloudFormation request
 * holds) and loops until complete; past {@value #TOTAL_TIMEOUT_SECONDS} seconds, or when the waiter's call fails after
 * its retries, this function answers FAILED.
 *
 * <p>Every resource names its role ({@value AssumedRoles#ROLE_ARN}), which trusts this function's role alone and holds
 * what that resource's calls need; the function's own role may only assume the stack's such roles (and start its
 * waiter). The dispatcher assumes the role in a session named after the request ({@link AssumedRoles}) and hands the
 * request to a handler of the type whose clients sign with the role's credentials, made for that role and request and
 * kept for the request's isComplete calls (the {@value #MAX_HANDLERS} most recent). A refused AssumeRole (a role
 * created seconds ago, not yet visible to STS) is tried again: onEvent waits up to {@link AssumedRoles#ON_EVENT_WAIT}
 * and then fails the request; a waiter's call counts as "not complete yet", so the next call tries again, until the
 * deadline. A Delete of a preload or a teardown, whose Delete never fails, goes on instead
 * ({@link #DELETE_WITHOUT_ROLE}): its role may be gone for good, and failing it would leave the resource in
 * DELETE_FAILED.
 *
 * <p>The semantics of aws-cdk-lib's Provider framework, which the handlers were written for, are kept: a Create whose
 * onEvent names no physical id gets the {@code RequestId}, an Update or a Delete keeps the request's; a Delete may not
 * change it; {@code Data} (onEvent's, then isComplete's) is sent only with the completion; an error answers FAILED with
 * its message, an {@link Error} of a handler too (a class that cannot be loaded or initialised, a stack overflow):
 * thrown out of this function, it would answer nothing, Lambda would run the request twice more, and CloudFormation
 * would wait for the resource's ServiceTimeout (an hour); a Create that fails before it has a physical id answers
 * {@value #CREATE_FAILED}, and the Delete CloudFormation then sends for that id is answered SUCCESS without calling
 * the handler, so it never ends in DELETE_FAILED.
 *
 * <p>Lambda retries an asynchronous invocation that failed or timed out, twice by default, and may deliver an event
 * more than once even without an error (Lambda guide, asynchronous invocation). A request whose waiter runs was taken
 * over by an earlier delivery: it is not run again. A delivery after a crash before that point runs onEvent again, as
 * the framework's did; the handlers' onEvent calls are written to be repeated. CloudFormation sends a request again
 * with the same {@code RequestId} when a failed deployment is retried ({@link WaiterExecutions}): once every earlier
 * waiter of the request has ended, a delivery is a new attempt, run in full with a waiter of its own. The handler is
 * told which attempt it serves ({@link CustomResourceEvent#ATTEMPT}, named like the attempt's waiter), the same in
 * every delivery of that attempt whatever Lambda invocation runs it.
 */
public final class CustomResourceDispatcher {
    /** The key, in the waiter's calls, that marks them. */
    public static final String PHASE = "TrainingDataPhase";
    /** The value of {@value #PHASE} in the waiter's calls. */
    public static final String IS_COMPLETE = "isComplete";
    /** The key, in the waiter's calls, of the epoch second after which a request that is not complete fails. */
    public static final String DEADLINE = "TrainingDataDeadline";
    /** The key under which the waiter keeps this function's answer ({@code IsComplete}) between its calls. */
    public static final String WAITER_RESULT = "TrainingDataWaiter";
    /** The key under which the waiter passes the error of a call that failed after its retries. */
    public static final String WAITER_ERROR = "TrainingDataWaiterError";
    /** The environment variable that holds the waiter state machine's ARN. */
    public static final String WAITER_ENVIRONMENT = "WAITER_STATE_MACHINE_ARN";
    /** The physical id of a Create that failed before its handler named one. */
    public static final String CREATE_FAILED = "TrainingData::CustomResource::CreateFailed";
    /** The waiter asks isComplete this often, seconds. */
    public static final int QUERY_INTERVAL_SECONDS = 30;
    /**
     * The longest a request may take, seconds (58 minutes): above the preload's longest wait (55 minutes) and a
     * teardown's (50), below a custom resource's ServiceTimeout (default and maximum 3600 s), so that this function,
     * not CloudFormation, reports a request that does not complete.
     */
    public static final int TOTAL_TIMEOUT_SECONDS = 58 * 60;
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
    /**
     * The longest one delivery of a request may take with every call at its limit: the look-ups of its attempts'
     * waiters ({@link WaiterExecutions#NAMED_ATTEMPTS} at most), onEvent's wait for its role and the AssumeRole and
     * handler calls (allowing ten), the waiter's start, and the answer's puts with their pauses. The dispatcher's
     * timeout outlasts it: a delivery that times out answers nothing, and Lambda runs it again.
     */
    public static final Duration LONGEST_DELIVERY = AssumedRoles.ON_EVENT_WAIT
            .plus(SdkCalls.API_CALL_TIMEOUT.multipliedBy(WaiterExecutions.NAMED_ATTEMPTS + 11L))
            .plus(CloudFormationResponse.LONGEST);
    /** The handlers kept (one per resource type, role and request). */
    static final int MAX_HANDLERS = 16;
    /**
     * The types whose Delete goes on when their role cannot be assumed (gone, or no longer trusting this function),
     * with credentials that refuse every call: their handlers' Delete never fails, a refused call is logged and not
     * waited for (the teardown acts for each definition as the definition's own role, which it assumes itself). Any
     * other type's Delete fails then, as its handler fails on a refused call (an association left linked must show).
     */
    static final Set<String> DELETE_WITHOUT_ROLE = Set.of(LUSTRE_PRELOAD, TRAINING_TEARDOWN);
    private final Map<String, Function<AwsCredentialsProvider, CustomResourceHandler>> factories;
    private final AssumedRoles roles;
    private final Map<String, CustomResourceHandler> handlers = new LinkedHashMap<>(MAX_HANDLERS, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, CustomResourceHandler> eldest) {
            return size() > MAX_HANDLERS;
        }
    };
    private final Supplier<WaiterExecutions> waiter;
    private final CloudFormationResponse response;
    private final Clock clock;
    private WaiterExecutions waiterExecutions;

    /**
     * The dispatcher Lambda instantiates: each type's handler with clients of the function's Region and the resource's
     * role, the waiter with the function's own.
     */
    public CustomResourceDispatcher() {
        this(defaults(), AssumedRoles.fromEnvironment(), () -> new WaiterExecutions(
                SdkCalls.configure(SfnClient.builder()).build(),
                waiterArn()),
                new CloudFormationResponse(), Clock.systemUTC());
    }

    /**
     * The waiter's ARN: the environment variable {@value #WAITER_ENVIRONMENT} (the provider sets it), else the system
     * property of that name (as the SDK reads its settings from either).
     */
    private static String waiterArn() {
        String arn = System.getenv(WAITER_ENVIRONMENT);
        return Objects.requireNonNull(arn != null ? arn : System.getProperty(WAITER_ENVIRONMENT), WAITER_ENVIRONMENT);
    }

    /**
     * A dispatcher with its parts supplied.
     *
     * @param factories each resource type's handler, given the credentials of the resource's role
     * @param roles     assumes the resources' roles
     * @param waiter    the waiter's executions, made when first needed
     * @param response  the sender of CloudFormation responses
     * @param clock     the clock the deadline is read from
     */
    CustomResourceDispatcher(Map<String, Function<AwsCredentialsProvider, CustomResourceHandler>> factories,
            AssumedRoles roles, Supplier<WaiterExecutions> waiter, CloudFormationResponse response, Clock clock) {
        this.factories = Objects.requireNonNull(factories, "factories");
        this.roles = Objects.requireNonNull(roles, "roles");
        this.waiter = Objects.requireNonNull(waiter, "waiter");
        this.response = Objects.requireNonNull(response, "response");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Serves a CloudFormation request, or a waiter's call ({@value #PHASE} = {@value #IS_COMPLETE}).
     *
     * @param event   the request or the waiter's input
     * @param context the Lambda context
     * @return for the waiter, {@code IsComplete}; for a request, {@code Status}: SUCCESS or FAILED (answered),
     *     WAITING (a waiter follows it) or REPEATED (an earlier delivery's waiter follows it)
     */
    public Map<String, Object> handle(Map<String, Object> event, Context context) {
        context.getLogger().log(event.get("RequestType") + " " + event.get("ResourceType") + " "
                + event.get("LogicalResourceId") + " " + event.get("PhysicalResourceId") + " (request "
                + event.get("RequestId") + (IS_COMPLETE.equals(event.get(PHASE)) ? ", waiter" : "") + ")");
        if (IS_COMPLETE.equals(event.get(PHASE))) {
            return waiterCall(event, context);
        }
        return request(event, context);
    }

    private Map<String, Object> request(Map<String, Object> request, Context context) {
        if ("Delete".equals(request.get("RequestType")) && CREATE_FAILED.equals(request.get("PhysicalResourceId"))) {
            context.getLogger().log("The Create of this resource failed: nothing to delete");
            return answered(request, "SUCCESS", "SUCCESS", CREATE_FAILED, Map.of(), context);
        }
        // The deadline counts from the request's arrival: CloudFormation's ServiceTimeout runs from before it.
        long received = clock.instant().getEpochSecond();
        Map<String, Object> resourceEvent;
        CustomResourceHandler handler;
        String waiterName;
        try {
            Optional<String> attempt = waiter().nameFor(String.valueOf(request.get("RequestId")), context);
            if (attempt.isEmpty()) {
                context.getLogger().log("A waiter follows this request since an earlier delivery: not run again");
                return Map.of("Status", "REPEATED");
            }
            waiterName = attempt.get();
            Map<String, Object> attempted = new LinkedHashMap<>(request);
            attempted.put(CustomResourceEvent.ATTEMPT, waiterName);
            handler = handler(attempted, context, false);
            resourceEvent = resourceEvent(attempted, handler.onEvent(attempted, context));
        } catch (RuntimeException | Error e) {
            return failed(request, e, context);
        }
        return check(handler, resourceEvent, new Delivery(received, waiterName), context);
    }

    /**
     * A request's delivery, as isComplete's first check sees it.
     *
     * @param received   the epoch second it arrived
     * @param waiterName the name its waiter takes if it is not complete
     */
    private record Delivery(long received, String waiterName) {
    }

    private Map<String, Object> waiterCall(Map<String, Object> input, Context context) {
        Map<String, Object> resourceEvent = new LinkedHashMap<>(input);
        resourceEvent.remove(WAITER_RESULT);
        Object error = resourceEvent.remove(WAITER_ERROR);
        if (error != null) {
            Map<?, ?> details = error instanceof Map<?, ?> map ? map : Map.of();
            String reason = "The waiter's call to " + context.getFunctionName() + " failed: " + details.get("Error")
                    + ": " + details.get("Cause");
            sendOrThrow(resourceEvent, "FAILED", reason, physicalId(resourceEvent), Map.of(), context);
            return Map.of("IsComplete", true);
        }
        CustomResourceHandler handler;
        try {
            handler = handler(resourceEvent, context, true);
        } catch (RuntimeException e) {
            sendOrThrow(resourceEvent, "FAILED", reason(e, context), physicalId(resourceEvent), Map.of(), context);
            return Map.of("IsComplete", true);
        }
        Map<String, Object> answer = check(handler, resourceEvent, null, context);
        return Map.of("IsComplete", !"WAITING".equals(answer.get("Status")));
    }

    /**
     * Runs isComplete once: answers CloudFormation when complete (or failed, or past the deadline).
     *
     * @param delivery the request's delivery; for a waiter's call, null
     */
    private Map<String, Object> check(CustomResourceHandler handler, Map<String, Object> resourceEvent,
            Delivery delivery, Context context) {
        boolean first = delivery != null;
        Map<String, Object> result;
        try {
            // No handler: its role cannot be assumed yet, which counts as not complete.
            result = handler == null ? Map.of("IsComplete", false) : handler.isComplete(resourceEvent, context);
            if (!Boolean.TRUE.equals(result.get("IsComplete")) && result.get("Data") instanceof Map<?, ?> data
                    && !data.isEmpty()) {
                throw new IllegalStateException("isComplete answered Data without IsComplete: " + data.keySet());
            }
        } catch (RuntimeException | Error e) {
            return first ? failed(resourceEvent, e, context) : failedOrThrow(resourceEvent, e, context);
        }
        if (Boolean.TRUE.equals(result.get("IsComplete"))) {
            Map<String, Object> data = new LinkedHashMap<>();
            if (resourceEvent.get("Data") instanceof Map<?, ?> onEventData) {
                onEventData.forEach((key, value) -> data.put(String.valueOf(key), value));
            }
            if (result.get("Data") instanceof Map<?, ?> completeData) {
                completeData.forEach((key, value) -> data.put(String.valueOf(key), value));
            }
            String named = named(result.get("PhysicalResourceId"));
            String physicalId = named != null ? named : physicalId(resourceEvent);
            return first ? answered(resourceEvent, "SUCCESS", "SUCCESS", physicalId, data, context)
                    : sendOrThrow(resourceEvent, "SUCCESS", "SUCCESS", physicalId, data, context);
        }
        if (first) {
            Map<String, Object> input = new LinkedHashMap<>(resourceEvent);
            input.put(PHASE, IS_COMPLETE);
            input.put(DEADLINE, delivery.received() + TOTAL_TIMEOUT_SECONDS);
            try {
                waiter().start(delivery.waiterName(), JsonText.of(input), context);
            } catch (RuntimeException e) {
                return failed(resourceEvent, e, context);
            }
            return Map.of("Status", "WAITING");
        }
        Object deadline = resourceEvent.get(DEADLINE);
        if (deadline instanceof Number seconds && clock.instant().getEpochSecond() >= seconds.longValue()) {
            return sendOrThrow(resourceEvent, "FAILED", "Not complete after " + TOTAL_TIMEOUT_SECONDS / 60
                    + " minutes (" + context.getFunctionName() + " logs each check)", physicalId(resourceEvent),
                    Map.of(), context);
        }
        return Map.of("Status", "WAITING");
    }

    /** The request merged with onEvent's answer and the physical id the framework semantics give it. */
    private static Map<String, Object> resourceEvent(Map<String, Object> request, Map<String, Object> onEvent) {
        Map<String, Object> answer = onEvent == null ? Map.of() : onEvent;
        String named = named(answer.get("PhysicalResourceId"));
        String physicalId = named != null ? named
                : "Create".equals(request.get("RequestType")) ? String.valueOf(request.get("RequestId"))
                : String.valueOf(request.get("PhysicalResourceId"));
        if ("Delete".equals(request.get("RequestType")) && !physicalId.equals(request.get("PhysicalResourceId"))) {
            throw new IllegalStateException("A Delete cannot change the physical id from "
                    + request.get("PhysicalResourceId") + " to " + physicalId);
        }
        Map<String, Object> event = new LinkedHashMap<>(request);
        event.putAll(answer);
        event.put("PhysicalResourceId", physicalId);
        return event;
    }

    /**
     * The request's handler, acting as the resource's role.
     *
     * @return the handler, or null for a waiter's call whose role cannot be assumed yet (not complete yet)
     */
    private CustomResourceHandler handler(Map<String, Object> event, Context context, boolean waiterCall) {
        Object type = event.get("ResourceType");
        Function<AwsCredentialsProvider, CustomResourceHandler> factory = factories.get(type);
        if (factory == null) {
            throw new IllegalArgumentException("ResourceType '" + type + "' is not served by this provider; it serves "
                    + factories.keySet());
        }
        CustomResourceEvent request = new CustomResourceEvent(event);
        String roleArn = roleArn(request);
        String session = AssumedRoles.sessionName(request);
        boolean goesOnWithoutRole = "Delete".equals(request.requestType()) && DELETE_WITHOUT_ROLE.contains(type);
        AwsCredentialsProvider credentials;
        try {
            credentials = waiterCall ? roles.credentials(roleArn, session)
                    : roles.waitFor(roleArn, session, context.getLogger());
        } catch (SdkException e) {
            if (goesOnWithoutRole && !(waiterCall && SdkCalls.isTransient(e))) {
                // Its role gone or no longer trusting this function: no wait mends that, and this Delete never fails.
                context.getLogger().log("Cannot assume " + roleArn + " (" + e.getMessage() + "): the Delete goes on, "
                        + "each of its calls refused with this error");
                return factory.apply(AssumedRoles.refusing(e));
            }
            if (!waiterCall || !AssumedRoles.worthAnotherTry(e)) {
                throw e;
            }
            context.getLogger().log("Cannot assume " + roleArn + " yet (not complete; the next call tries again): "
                    + e.getMessage());
            return null;
        }
        return handlers.computeIfAbsent(type + "|" + roleArn + "|" + session, key -> factory.apply(credentials));
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

    private WaiterExecutions waiter() {
        if (waiterExecutions == null) {
            waiterExecutions = waiter.get();
        }
        return waiterExecutions;
    }

    /** FAILED for a request: a Create without a physical id gets {@value #CREATE_FAILED}. */
    private Map<String, Object> failed(Map<String, Object> event, Throwable e, Context context) {
        String physicalId = named(event.get("PhysicalResourceId")) == null && "Create".equals(event.get("RequestType"))
                ? CREATE_FAILED : physicalId(event);
        return answered(event, "FAILED", reason(e, context), physicalId, Map.of(), context);
    }

    private Map<String, Object> failedOrThrow(Map<String, Object> event, Throwable e, Context context) {
        return sendOrThrow(event, "FAILED", reason(e, context), physicalId(event), Map.of(), context);
    }

    private static String reason(Throwable e, Context context) {
        context.getLogger().log("Failed: " + e);
        String message = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
        return message + " (logs: " + context.getLogGroupName() + " " + context.getLogStreamName() + ")";
    }

    /** The event's physical id, or its request id when it names none. */
    private static String physicalId(Map<String, Object> event) {
        String named = named(event.get("PhysicalResourceId"));
        return named != null ? named : String.valueOf(event.get("RequestId"));
    }

    /** A physical id as named: a non-empty string, else null. */
    private static String named(Object physicalId) {
        return physicalId instanceof String id && !id.isEmpty() ? id : null;
    }

    /**
     * Answers a request's first delivery; a put that fails on every try is logged and not thrown, so that Lambda does
     * not run the request again (CloudFormation then fails the resource at its ServiceTimeout).
     */
    private Map<String, Object> answered(Map<String, Object> request, String status, String reason, String physicalId,
            Map<String, Object> data, Context context) {
        try {
            response.send(status, reason, physicalId, request, data, context);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            // (IllegalArgumentException: a ResponseURL that is no URL)
            context.getLogger().log("No response reached CloudFormation: " + e.getMessage());
        }
        return Map.of("Status", status);
    }

    /** Answers for the waiter: a put that fails on every try fails the waiter's call, which the waiter retries. */
    private Map<String, Object> sendOrThrow(Map<String, Object> event, String status, String reason,
            String physicalId, Map<String, Object> data, Context context) {
        response.send(status, reason, physicalId, event, data, context);
        return Map.of("Status", status);
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
