package io.github.trainingdata.cdk.launch;

/**
 * A launch read a store of another stack when it started and found it not ready: the SSM parameter where the store
 * publishes what jobs read of it does not exist (its stack is not deployed), or lacks a value a job needs (a store
 * half-replaced, or a parameter changed by hand). No job was started.
 */
public final class DataStoreNotReadyException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** The error name, as the training state machine's execution fails with it too. */
    private final String error;
    private final String parameterName;

    /**
     * @param error         {@code DataStoreNotPublished} or {@code DataStoreIncomplete}
     * @param parameterName the store's publication parameter
     * @param message       what is wrong, naming the store and the parameter
     * @param cause         the SDK's error, or null
     */
    DataStoreNotReadyException(String error, String parameterName, String message, Throwable cause) {
        super(error + ": " + message, cause);
        this.error = error;
        this.parameterName = parameterName;
    }

    /** @return {@code DataStoreNotPublished} or {@code DataStoreIncomplete} */
    public String getError() {
        return error;
    }

    /** @return the store's publication parameter */
    public String getParameterName() {
        return parameterName;
    }
}
