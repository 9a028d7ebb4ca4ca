package io.github.trainingdata.cdk.training.handler;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import io.github.trainingdata.cdk.internal.handler.AssumedRoles;
import io.github.trainingdata.cdk.internal.handler.CustomResourceEvent;
import io.github.trainingdata.cdk.internal.handler.OwnStack;
import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.StackStatus;

/**
 * Handler of a stack's training teardown custom resource (run by the stack's custom-resource dispatcher, onEvent +
 * isComplete), which lists every training definition of the stack ({@link TeardownProperties#definitions}).
 *
 * <p>Create does nothing. Update tears down each definition the old properties list and the new ones do not (the
 * definition was removed from the stack: CloudFormation updates this resource in the update phase, while the removed
 * definition's state machine and roles, its TeardownRole among them, are deleted only in the cleanup, so they are all
 * still there); a
 * definition still listed is left alone, whatever changed in it. Delete tears down every definition, except while the
 * stack is {@code UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS} (DescribeStacks on its own stack): then the resource is
 * deleted because the failed update created it (its physical id never changes, so it is never replaced), and that
 * rollback keeps the definitions it lists that existed before (the upgrade from the last release adds the teardown to
 * a stack whose training may run), so it stops nothing; when the status cannot be read, it tears down. Neither
 * changes the physical id (a new one would make CloudFormation delete the old resource, and so stop all running
 * training, during a routine update). Tearing down waits until what the definitions ran has ended: each isComplete
 * takes one {@link TeardownPass look} per definition (stop the state machine's running executions, stop the jobs in
 * progress started under the definition's prefix, release their warm pools; once none runs, wait for its jobs'
 * network interfaces in every subnet they may use, telling them from other jobs' in the same security group by the
 * job they name, see {@link InterfaceOwner}), and is complete when nothing is left, or {@link #GIVE_UP_AFTER} after
 * the event began (then it logs what is left: CloudFormation goes on, and may fail to delete what is still held).
 * Each definition's calls act as its TeardownRole ({@link TeardownProperties#roleArn}, assumed with STS AssumeRole by
 * the function's own role, which the TeardownRole alone trusts; every entry names one, and the teardown resource's own
 * role only reads the stack's status); a refused or failed AssumeRole is tried again at the next look, until the
 * delete gives up. A teardown never fails: throttling, 5xx answers and timeouts mean "not complete yet"; other errors are logged and
 * not waited for; properties it cannot read (a resource of an earlier layout) stop nothing.
 */
public final class TrainingTeardownHandler {
    /**
     * The field onEvent returns on a Delete that stops nothing (a rollback's cleanup), which tells isComplete so (the
     * dispatcher passes onEvent's top-level fields on).
     */
    static final String LEFT_ALONE = "TeardownLeftAlone";
    /** The Data member, set by onEvent on Delete, that tells isComplete when the delete began (epoch seconds). */
    public static final String STARTED = "TeardownStarted";
    /**
     * How long a delete waits at most: within the stack provider's total timeout of 58 minutes with room for the
     * last look.
     */
    public static final Duration GIVE_UP_AFTER = Duration.ofMinutes(50);
    /** An invocation starts no call with less time left: one call with its retries, plus a margin to answer. */
    static final Duration CALL_RESERVE = SdkCalls.API_CALL_TIMEOUT.plusSeconds(5);
    private static final Map<String, Object> NOT_COMPLETE = Map.of("IsComplete", false);

    private final RoleClients roles;
    private final CloudFormationClient cloudFormation;
    private final Clock clock;

    /**
     * The handler the provider's dispatcher makes for a request: clients for the function's Region, the teardown
     * resource's role (DescribeStacks) and the definitions' roles, assumed with the function's own credentials.
     *
     * @param credentials the teardown resource's role's credentials
     */
    public TrainingTeardownHandler(AwsCredentialsProvider credentials) {
        this(RoleClients.fromEnvironment(), SdkCalls.configure(CloudFormationClient.builder())
                .credentialsProvider(credentials).build(), Clock.systemUTC());
    }

    /** A handler with its clients and clock supplied ({@code cloudFormation} tells the stack's status). */
    TrainingTeardownHandler(RoleClients roles, CloudFormationClient cloudFormation, Clock clock) {
        this.roles = Objects.requireNonNull(roles, "roles");
        this.cloudFormation = Objects.requireNonNull(cloudFormation, "cloudFormation");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Handles Create, Update and Delete; only Delete calls AWS (DescribeStacks).
     *
     * @param event   the CloudFormation request
     * @param context the Lambda context
     * @return {@code PhysicalResourceId} (on Create {@code <LogicalResourceId>-teardown}, then never changed) and,
     *         for a Delete or an Update that removes a definition, {@code Data} with {@value #STARTED}, or, for a
     *         Delete in a rollback's cleanup, {@value #LEFT_ALONE}
     * @throws IllegalArgumentException on Create or Update, when a property is missing or malformed
     */
    public Map<String, Object> onEvent(Map<String, Object> event, Context context) {
        CustomResourceEvent request = new CustomResourceEvent(event);
        Map<String, Object> response = new LinkedHashMap<>();
        switch (request.requestType()) {
            case "Create" -> {
                TeardownProperties.definitions(request.resourceProperties());
                response.put("PhysicalResourceId", request.logicalResourceId() + "-teardown");
            }
            case "Update" -> {
                TeardownProperties.definitions(request.resourceProperties());
                response.put("PhysicalResourceId", request.physicalResourceId());
                if (!removed(request, context.getLogger()).isEmpty()) {
                    response.put("Data", started());
                }
            }
            case "Delete" -> {
                response.put("PhysicalResourceId", request.physicalResourceId());
                if (OwnStack.is(cloudFormation, request, StackStatus.UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS,
                        context.getLogger(), "cleans up after a rollback (tearing down)")) {
                    context.getLogger().log("Deleted by the cleanup of a rolled-back update, which created it and keeps "
                            + "the definitions it lists: nothing is stopped");
                    response.put(LEFT_ALONE, "true");
                } else {
                    response.put("Data", started());
                }
            }
            default -> throw new IllegalArgumentException("Unknown RequestType " + request.requestType());
        }
        return response;
    }

    private Map<String, Object> started() {
        return Map.of(STARTED, Long.toString(clock.instant().getEpochSecond()));
    }

    /**
     * Tells the dispatcher whether the teardown of the removed (Update) or of every (Delete) definition is
     * done; Create, and an Update that removes none, are at once.
     *
     * @param event   the request, with the Data onEvent returned
     * @param context the Lambda context
     * @return {@code IsComplete}
     */
    public Map<String, Object> isComplete(Map<String, Object> event, Context context) {
        CustomResourceEvent request = new CustomResourceEvent(event);
        LambdaLogger log = context.getLogger();
        Map<String, TeardownProperties> definitions;
        switch (request.requestType()) {
            case "Update" -> definitions = removed(request, log);
            case "Delete" -> {
                if (request.field(LEFT_ALONE).isPresent()) {
                    return Map.of("IsComplete", true);
                }
                try {
                    definitions = TeardownProperties.definitions(request.resourceProperties());
                } catch (IllegalArgumentException e) {
                    log.log("Cannot tell what the definitions run (nothing stopped, the delete goes on): "
                            + e.getMessage());
                    return Map.of("IsComplete", true);
                }
            }
            default -> definitions = Map.of();
        }
        if (definitions.isEmpty()) {
            return Map.of("IsComplete", true);
        }
        Instant now = clock.instant();
        Duration waited = waited(request, now);
        boolean complete = true;
        for (TeardownProperties properties : definitions.values()) {
            if (context.getRemainingTimeInMillis() <= CALL_RESERVE.toMillis()) {
                // AssumeRole is a call too: none starts without the time for it.
                complete &= !lookAgain(properties, "cannot assume " + properties.roleArn(),
                        "no time left in this invocation", waited, log);
                continue;
            }
            TeardownClients clients;
            try {
                clients = roles.of(properties.roleArn(), AssumedRoles.sessionName(request));
            } catch (SdkException e) {
                // A refused AssumeRole is looked at again too: IAM may not yet show a role or trust just changed.
                complete &= !lookAgain(properties, "cannot assume " + properties.roleArn(), e.getMessage(), waited, log);
                continue;
            }
            Leftovers left = new TeardownPass(clients.stepFunctions(), clients.sageMaker(),
                    clients.networkInterfaces(), properties,
                    () -> context.getRemainingTimeInMillis() > CALL_RESERVE.toMillis(), log, now).run();
            if (left.none()) {
                log.log("Teardown of " + properties.jobNamePrefix() + ": nothing left running" + left.notWaitedFor());
            } else if (waited == null || waited.compareTo(GIVE_UP_AFTER) >= 0) {
                log.log("Teardown of " + properties.jobNamePrefix() + " gives up waiting" + (waited == null ? ""
                        : " after " + waited.toMinutes() + " minutes") + " (CloudFormation goes on and may fail "
                        + "to delete what is still held): " + left.summary());
            } else {
                log.log("Teardown of " + properties.jobNamePrefix() + ", waited " + waited.toSeconds() + " of "
                        + GIVE_UP_AFTER.toSeconds() + " s: " + left.summary());
                complete = false;
            }
        }
        return complete ? Map.of("IsComplete", true) : NOT_COMPLETE;
    }

    /**
     * Logs why a definition was not looked at.
     *
     * @return whether a later look is waited for: false once the delete gives up (or cannot tell when it began)
     */
    private static boolean lookAgain(TeardownProperties properties, String what, String why, Duration waited,
            LambdaLogger log) {
        if (waited == null || waited.compareTo(GIVE_UP_AFTER) >= 0) {
            log.log("Teardown of " + properties.jobNamePrefix() + " gives up: " + what + ": " + why);
            return false;
        }
        log.log("Teardown of " + properties.jobNamePrefix() + " " + what + " (will try again): " + why);
        return true;
    }

    /**
     * The definitions an Update removes: listed in the old properties, not in the new ones. Old properties that
     * cannot be read (a resource of an earlier layout) remove none.
     */
    private static Map<String, TeardownProperties> removed(CustomResourceEvent request, LambdaLogger log) {
        Map<String, TeardownProperties> removed;
        try {
            removed = new LinkedHashMap<>(TeardownProperties.definitions(request.oldResourceProperties()));
        } catch (IllegalArgumentException e) {
            log.log("Cannot tell what the earlier definitions ran (nothing stopped): " + e.getMessage());
            return Map.of();
        }
        removed.keySet().removeAll(TeardownProperties.definitions(request.resourceProperties()).keySet());
        return removed;
    }

    /** How long ago the delete began, or null when onEvent's Data does not say (then the delete waits no longer). */
    private static Duration waited(CustomResourceEvent request, Instant now) {
        Object started = request.data().get(STARTED);
        try {
            return Duration.between(Instant.ofEpochSecond(Long.parseLong(String.valueOf(started))), now);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
