package io.github.trainingdata.cdk.internal.handler;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.Stack;
import software.amazon.awssdk.services.cloudformation.model.StackStatus;

/**
 * The status of the stack a custom-resource request comes from (DescribeStacks on the request's StackId): what a
 * handler asks when the request alone cannot tell an update or a delete from a rollback's.
 */
public final class OwnStack {
    private OwnStack() {
    }

    /**
     * Whether the request's stack is in {@code status}.
     *
     * @param cloudFormation the client (its role may DescribeStacks on the stack)
     * @param request        the request
     * @param status         the status asked about
     * @param log            logs the status, or why it cannot be told
     * @param otherwise      what the handler does when the status cannot be told (an error after the SDK's retries),
     *                       in the log line "Could not tell whether stack ... {@code otherwise}"
     * @return whether it is; false when that cannot be told
     */
    public static boolean is(CloudFormationClient cloudFormation, CustomResourceEvent request, StackStatus status,
            LambdaLogger log, String otherwise) {
        try {
            return status(cloudFormation, request, log).map(StackStatus::fromValue).orElse(null) == status;
        } catch (SdkException e) {
            log.log("Could not tell whether stack " + request.stackId() + " " + otherwise + ": " + e.getMessage());
            return false;
        }
    }

    /**
     * Whether the request's stack is known to run no operation: its status does not end in {@code _IN_PROGRESS}
     * (every status of an operation under way does: CloudFormation's StackStatus values). CloudFormation sends
     * custom-resource requests only during an operation, so a request delivered then is a late duplicate of one the
     * stack is done with (Lambda may deliver an event more than once: Lambda guide, asynchronous invocation).
     *
     * @param cloudFormation the client (its role may DescribeStacks on the stack)
     * @param request        the request
     * @param log            logs the status, or why it cannot be told
     * @return whether it is idle; false when it runs an operation or that cannot be told
     */
    public static boolean idle(CloudFormationClient cloudFormation, CustomResourceEvent request, LambdaLogger log) {
        try {
            return status(cloudFormation, request, log).map(status -> !status.endsWith("_IN_PROGRESS")).orElse(true);
        } catch (SdkException e) {
            log.log("Could not tell whether stack " + request.stackId() + " runs an operation (taken as running one): "
                    + e.getMessage());
            return false;
        }
    }

    /** The stack's status as DescribeStacks writes it, logged; empty when there is no such stack. */
    private static Optional<String> status(CloudFormationClient cloudFormation, CustomResourceEvent request,
            LambdaLogger log) {
        Optional<String> current = cloudFormation.describeStacks(r -> r.stackName(request.stackId())).stacks().stream()
                .findFirst().map(Stack::stackStatusAsString);
        log.log("Stack " + request.stackId() + " is " + current.orElse("not found"));
        return current;
    }
}
