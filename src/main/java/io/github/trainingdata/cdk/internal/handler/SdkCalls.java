package io.github.trainingdata.cdk.internal.handler;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * How the custom-resource handlers call AWS: the SDK client settings they share, and which errors are worth
 * another call (a custom resource answers those with "not complete yet", never with a failure).
 */
public final class SdkCalls {
    /** Attempts of one call, the SDK's standard retries included. */
    static final int MAX_ATTEMPTS = 5;
    /**
     * Bounds each call with its retries, so that an invocation returns (an isComplete "not complete") well before the
     * dispatcher's timeout.
     */
    public static final Duration API_CALL_TIMEOUT = Duration.ofSeconds(40);
    /** The name of the threads that time the handlers' calls. */
    static final String TIMER_THREAD = "training-data-sdk-timer";
    /**
     * The one executor every handler client times its calls with. The SDK's default gives each client a pool of its
     * own whose threads (up to 5) live until the client is closed; the dispatcher makes a handler's clients for each
     * request (they sign as the request's role) and never closes them, so a warm function instance would gather
     * threads with every request, towards Lambda's limit of 1,024 per execution environment.
     */
    private static final ScheduledThreadPoolExecutor TIMER = timer();

    private SdkCalls() {
    }

    /**
     * The settings the handlers' clients run with: the SDK's standard retries (which absorb brief throttling)
     * with {@value #MAX_ATTEMPTS} attempts, and a 40-second limit per call, timed on one thread that all clients
     * share. Region and credentials come from the Lambda environment.
     *
     * @return the override configuration
     */
    public static ClientOverrideConfiguration clientConfiguration() {
        return ClientOverrideConfiguration.builder()
                .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(MAX_ATTEMPTS).build())
                .apiCallTimeout(API_CALL_TIMEOUT)
                .scheduledExecutorService(TIMER)
                .build();
    }

    private static ScheduledThreadPoolExecutor timer() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, TIMER_THREAD);
            thread.setDaemon(true);
            return thread;
        });
        // A call's timeout is cancelled when the call ends: drop it then, not 40 s later.
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    /**
     * Gives a client builder the handlers' settings: the URL-connection HTTP client (the smallest, and the only one
     * in the handlers' bundle) and {@link #clientConfiguration()}.
     *
     * @param builder a service client's builder
     * @param <B>     the builder type
     * @param <C>     the client type
     * @return the builder
     */
    public static <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C> B configure(B builder) {
        builder.httpClient(UrlConnectionHttpClient.create());
        return builder.overrideConfiguration(clientConfiguration());
    }

    /**
     * Throttling, 5xx answers, timeouts and I/O errors are worth another look; anything else (access denied,
     * a bad request) is not.
     *
     * @param e an error the SDK gave up on, after its own retries
     * @return whether a later call may succeed
     */
    public static boolean isTransient(SdkException e) {
        if (e instanceof SdkServiceException service) {
            return service.isThrottlingException() || service.statusCode() >= 500;
        }
        return e.retryable() || e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException
                || e.getCause() instanceof IOException;
    }
}
