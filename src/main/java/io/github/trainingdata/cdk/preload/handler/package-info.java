/**
 * Lambda code of the preload custom resource: starts, watches and stops executions of the preload state
 * machine, which checks the data, waits for FSx's metadata import and runs the SageMaker worker that warms
 * an FSx for Lustre cache. AWS SDK (Step Functions, SageMaker) only: no CDK and no SSM classes, so the
 * Lambda bundle stays small.
 */
package io.github.trainingdata.cdk.preload.handler;
