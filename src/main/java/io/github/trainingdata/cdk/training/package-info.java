/**
 * The SageMaker training job, defined once and launched many times: {@code TrainingJobDefinition} with its channels
 * ({@code S3Channel}, {@code LustreChannel}, {@code EfsChannel}), checked against the CreateTrainingJob rules at synth
 * and deployed as a Step Functions state machine and an SSM parameter holding the request.
 */
package io.github.trainingdata.cdk.training;
