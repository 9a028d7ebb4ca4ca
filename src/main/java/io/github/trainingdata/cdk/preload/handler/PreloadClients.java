package io.github.trainingdata.cdk.preload.handler;

import io.github.trainingdata.cdk.handler.SdkCalls;
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

    static SageMakerClientBuilder sageMakerClientBuilder() {
        return SdkCalls.configure(SageMakerClient.builder());
    }
}
