package io.github.trainingdata.cdk.preload.handler;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A Lambda context whose logger keeps the lines, for assertions. */
public final class RecordingContext implements Context {
    private final List<String> lines = new ArrayList<>();
    private final int remainingMillis;
    private final String awsRequestId;

    /** A context with a minute left of the invocation. */
    public RecordingContext() {
        this(60_000);
    }

    /**
     * Another invocation's context, a minute left.
     *
     * @param awsRequestId what {@link #getAwsRequestId()} answers
     */
    public RecordingContext(String awsRequestId) {
        this(60_000, awsRequestId);
    }

    /**
     * A context with this much of the invocation left.
     *
     * @param remainingMillis what {@link #getRemainingTimeInMillis()} answers
     */
    public RecordingContext(int remainingMillis) {
        this(remainingMillis, "lambda-request-1");
    }

    private RecordingContext(int remainingMillis, String awsRequestId) {
        this.remainingMillis = remainingMillis;
        this.awsRequestId = awsRequestId;
    }

    /**
     * What the handler logged.
     *
     * @return the log lines, in order
     */
    public List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public LambdaLogger getLogger() {
        return new LambdaLogger() {
            @Override
            public void log(String message) {
                lines.add(message);
            }

            @Override
            public void log(byte[] message) {
                lines.add(new String(message, StandardCharsets.UTF_8));
            }
        };
    }

    @Override
    public String getAwsRequestId() {
        return awsRequestId;
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/preload";
    }

    @Override
    public String getLogStreamName() {
        return "2026/01/01/[$LATEST]0123456789abcdef";
    }

    @Override
    public String getFunctionName() {
        return "preload";
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:us-east-1:123456789012:function:preload";
    }

    @Override
    public CognitoIdentity getIdentity() {
        return null;
    }

    @Override
    public ClientContext getClientContext() {
        return null;
    }

    @Override
    public int getRemainingTimeInMillis() {
        return remainingMillis;
    }

    @Override
    public int getMemoryLimitInMB() {
        return 512;
    }
}
