package io.github.trainingdata.cdk.internal.dispatch;

import com.amazonaws.services.lambda.runtime.Context;
import io.github.trainingdata.cdk.internal.handler.ExecutionArns;
import java.util.Objects;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;

/**
 * The stack's waiter state machine, as the dispatcher starts and looks for its executions: one per CloudFormation
 * request that did not complete at once, named by the request's {@code RequestId}. Step Functions keeps an execution's
 * name for 90 days and answers a second StartExecution of the same name and input while the first runs with the first
 * one's answer; with another input, or once it ended, with {@code ExecutionAlreadyExists} (StartExecution, API
 * reference), so a request never gets two waiters.
 */
final class WaiterExecutions {
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
     * @param requestId a CloudFormation request's id
     * @return whether a waiter was started for the request (running or ended)
     */
    boolean started(String requestId) {
        try {
            sfn.describeExecution(b -> b.executionArn(ExecutionArns.of(stateMachineArn, requestId)));
            return true;
        } catch (ExecutionDoesNotExistException e) {
            return false;
        }
    }

    /**
     * Starts the request's waiter; one started already (by an earlier delivery of the same request) is left alone.
     *
     * @param requestId the request's id, the execution's name
     * @param input     the execution's input
     * @param context   the Lambda context (its logger)
     */
    void start(String requestId, byte[] input, Context context) {
        try {
            String arn = sfn.startExecution(b -> b.stateMachineArn(stateMachineArn).name(requestId)
                    .input(new String(input, java.nio.charset.StandardCharsets.UTF_8))).executionArn();
            context.getLogger().log("Waiting for request " + requestId + " in " + arn);
        } catch (ExecutionAlreadyExistsException e) {
            context.getLogger().log("A waiter for request " + requestId + " was started before: " + e.getMessage());
        }
    }
}
