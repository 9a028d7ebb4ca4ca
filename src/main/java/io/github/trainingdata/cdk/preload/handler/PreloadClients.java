package io.github.trainingdata.cdk.preload.handler;

import java.io.IOException;
import java.time.Duration;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.CloudFormationClientBuilder;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.SageMakerClientBuilder;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.SfnClientBuilder;

/**
 * The SDK clients of the {@link PreloadHandler}: how they are configured, and which of their errors are
 * worth another call.
 */
final class PreloadClients {
    private static final int MAX_ATTEMPTS = 5;
    /** Bounds each call with its retries, so an isComplete call returns "not complete" before Lambda's 2 minutes. */
    private static final Duration API_CALL_TIMEOUT = Duration.ofSeconds(40);

    private PreloadClients() {
    }

    /**
     * The settings the handler's clients run with: the URL-connection HTTP client, the SDK's standard retries
     * (which absorb brief throttling) with {@value #MAX_ATTEMPTS} attempts, and a 40-second limit per call.
     * Region and credentials come from the Lambda environment.
     */
    static ClientOverrideConfiguration clientConfiguration() {
        return ClientOverrideConfiguration.builder()
                .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(MAX_ATTEMPTS).build())
                .apiCallTimeout(API_CALL_TIMEOUT)
                .build();
    }

    static SfnClientBuilder stepFunctionsClientBuilder() {
        return SfnClient.builder().httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(clientConfiguration());
    }

    static CloudFormationClientBuilder cloudFormationClientBuilder() {
        return CloudFormationClient.builder().httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(clientConfiguration());
    }

    static SageMakerClientBuilder sageMakerClientBuilder() {
        return SageMakerClient.builder().httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(clientConfiguration());
    }

    /**
     * Throttling, 5xx answers, timeouts and I/O errors are worth another look; anything else (access denied,
     * a bad request) is not.
     *
     * @param e an error the SDK gave up on, after its own retries
     * @return whether a later call may succeed
     */
    static boolean isTransient(SdkException e) {
        if (e instanceof SdkServiceException service) {
            return service.isThrottlingException() || service.statusCode() >= 500;
        }
        return e.retryable() || e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException
                || e.getCause() instanceof IOException;
    }

    /**
     * @param e an error the SDK gave up on
     * @return whether IAM denied the call (the caller's policy does not cover the resource, for example a worker
     *         named under another prefix)
     */
    static boolean isAccessDenied(SdkException e) {
        return e instanceof AwsServiceException service && (service.statusCode() == 403
                || errorCode(service).startsWith("AccessDenied"));
    }

    /**
     * @param e an error of SageMaker's DescribeTrainingJob
     * @return whether it says the job does not exist (SageMaker answers ValidationException "Requested resource not
     *         found")
     */
    static boolean isNotFound(SdkException e) {
        return e instanceof AwsServiceException service && !service.isThrottlingException()
                && service.statusCode() == 400 && (errorCode(service).equals("ValidationException")
                        || errorCode(service).equals("ResourceNotFound"));
    }

    private static String errorCode(AwsServiceException e) {
        return e.awsErrorDetails() == null || e.awsErrorDetails().errorCode() == null ? ""
                : e.awsErrorDetails().errorCode();
    }
}
