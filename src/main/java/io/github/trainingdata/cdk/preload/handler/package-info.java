/**
 * Lambda code of the preload custom resource: starts, watches and stops the SageMaker worker job that
 * warms an FSx for Lustre cache. AWS SDK (SageMaker) only: no CDK and no SSM classes, so the Lambda
 * bundle stays small.
 */
package io.github.trainingdata.cdk.preload.handler;
