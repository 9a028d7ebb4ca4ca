package io.github.trainingdata.cdk.training.handler;

import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The clients one definition's teardown calls with, all signing with the credentials of the definition's TeardownRole
 * ({@link RoleClients}).
 *
 * @param stepFunctions     lists and stops the definition's executions
 * @param sageMaker         lists and stops its jobs, releases their warm pools
 * @param networkInterfaces describes its jobs' network interfaces
 */
record TeardownClients(SfnClient stepFunctions, SageMakerClient sageMaker, NetworkInterfaces networkInterfaces) {
}
