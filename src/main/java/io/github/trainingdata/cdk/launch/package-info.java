/** Launching training jobs from a deployed definition with the AWS SDK: no CDK classes here. */
package io.github.trainingdata.cdk.launch;
