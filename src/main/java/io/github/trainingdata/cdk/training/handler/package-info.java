/**
 * Lambda code of the training definitions' teardown custom resource: on Delete it stops what a definition
 * started (its state machine's executions, its training jobs, their warm pools) and waits until they and their
 * network interfaces are gone, so that CloudFormation can delete the state machine, the roles and the network
 * next. AWS SDK (Step Functions, SageMaker) and a signed EC2 Query call only: no CDK classes, no EC2 SDK.
 */
package io.github.trainingdata.cdk.training.handler;
