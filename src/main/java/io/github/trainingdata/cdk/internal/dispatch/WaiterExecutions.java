package io.github.trainingdata.cdk.internal.dispatch;

import com.amazonaws.services.lambda.runtime.Context;
import io.github.trainingdata.cdk.internal.handler.ExecutionArns;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The stack's waiter state machine, as the dispatcher starts and looks for its executions: one per attempt of a
 * CloudFormation request that did not complete at once, named by the request's {@code RequestId} (the first attempt)
 * or {@code <RequestId>-<n>} (the n-th, n from 2). Step Functions keeps an execution's name for 90 days and answers a
 * second StartExecution of the same name and input while the first runs with the first one's answer; with another
 * input, or once it ended, with {@code ExecutionAlreadyExists} (StartExecution, API reference), so an attempt never
 * gets two waiters. CloudFormation sends a request again with the same {@code RequestId} when a failed deployment is
 * retried (aws-cdk issue 35957, accepted by its maintainers; no AWS page says so): the earlier attempt's waiter has
 * ended by then, so an ended waiter means a new attempt, and a running one a delivery of the attempt it serves.
 */
final class WaiterExecutions {
    /**
     * The attempts of one request whose waiters are named by their number (a failed deployment retried four times);
     * each costs the later ones a look-up, which {@link CustomResourceDispatcher#LONGEST_DELIVERY} counts. A later
     * attempt's waiter gets a name of its own ({@code <RequestId>-<random UUID>}), so it is served too (a Delete never
     * fails for it), though a duplicate delivery of that attempt is not recognized.
     */
    static final int NAMED_ATTEMPTS = 5;
    private final SfnClient sfn;
    private final String stateMachineArn;

    /**
     * @param sfn             the Step Functions client
     * @param stateMachineArn the waiter's ARN
     */
    WaiterExecutions(SfnClient sfn, String stateMachineArn) {
        this.sfn = Objects.requireNonNull(sfn, "sfn");
        this.stateMachineArn = Objects.requireNonNull(stateMachineArn, "stateMachineArn");
    }

    /**
     * The name a delivery of the request gives its waiter: that of the first attempt without one, when every earlier
     * attempt's waiter has ended.
     *
     * @param requestId a CloudFormation request's id
     * @param context   the Lambda context (its logger)
     * @return the name, or empty when a waiter of the request runs (an earlier delivery of the same attempt started it)
     */
    Optional<String> nameFor(String requestId, Context context) {
        for (int attempt = 1; attempt <= NAMED_ATTEMPTS; attempt++) {
            String name = attempt == 1 ? requestId : requestId + "-" + attempt;
            DescribeExecutionResponse execution;
            try {
                execution = sfn.describeExecution(b -> b.executionArn(ExecutionArns.of(stateMachineArn, name)));
            } catch (ExecutionDoesNotExistException e) {
                return Optional.of(name);
            }
            if (execution.status() == ExecutionStatus.RUNNING || execution.status() == ExecutionStatus.PENDING_REDRIVE) {
                return Optional.empty();
            }
            context.getLogger().log("Waiter " + name + " of an earlier attempt of this request ended ("
                    + execution.statusAsString() + "): CloudFormation sent the request again");
        }
        String name = requestId + "-" + UUID.randomUUID();
        context.getLogger().log("The request's first " + NAMED_ATTEMPTS + " attempts ended: this one's waiter is " + name);
        return Optional.of(name);
    }

    /**
     * Starts an attempt's waiter; one started already (by an earlier delivery of the same attempt) is left alone.
     *
     * @param name    the execution's name ({@link #nameFor})
     * @param input   the execution's input
     * @param context the Lambda context (its logger)
     */
    void start(String name, byte[] input, Context context) {
        try {
            String arn = sfn.startExecution(b -> b.stateMachineArn(stateMachineArn).name(name)
                    .input(new String(input, StandardCharsets.UTF_8))).executionArn();
            context.getLogger().log("Waiting for the request in " + arn);
        } catch (ExecutionAlreadyExistsException e) {
            context.getLogger().log("Waiter " + name + " was started before: " + e.getMessage());
        }
    }
}
