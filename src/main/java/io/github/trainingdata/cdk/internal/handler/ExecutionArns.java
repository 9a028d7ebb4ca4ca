package io.github.trainingdata.cdk.internal.handler;

/** A Step Functions execution's ARN, known from its state machine's ARN and its name before it is started. */
public final class ExecutionArns {
    private static final String STATE_MACHINE = ":stateMachine:";

    private ExecutionArns() {
    }

    /**
     * @param stateMachineArn {@code arn:<partition>:states:<region>:<account>:stateMachine:<name>}
     * @param name            the execution's name
     * @return {@code arn:<partition>:states:<region>:<account>:execution:<state machine name>:<name>}
     */
    public static String of(String stateMachineArn, String name) {
        return stateMachineArn.replace(STATE_MACHINE, ":execution:") + ":" + name;
    }
}
