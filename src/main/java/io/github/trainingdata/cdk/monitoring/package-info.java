/** Monitoring: a CloudWatch dashboard of the training-data path, from storage through preload to training outcomes. */
package io.github.trainingdata.cdk.monitoring;
