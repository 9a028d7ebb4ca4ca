package io.github.trainingdata.cdk.preload.handler;

import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.CloudFormationClientBuilder;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.fsx.FSxClientBuilder;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.SageMakerClientBuilder;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.SfnClientBuilder;

/** The SDK clients of the {@link PreloadHandler}, configured as {@link SdkCalls#clientConfiguration()} says. */
final class PreloadClients {
    private PreloadClients() {
    }

    static SfnClientBuilder stepFunctionsClientBuilder() {
        return SdkCalls.configure(SfnClient.builder());
    }

    static CloudFormationClientBuilder cloudFormationClientBuilder() {
        return SdkCalls.configure(CloudFormationClient.builder());
    }

    static FSxClientBuilder fsxClientBuilder() {
        return SdkCalls.configure(FSxClient.builder());
    }

    static SageMakerClientBuilder sageMakerClientBuilder() {
        return SdkCalls.configure(SageMakerClient.builder());
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
