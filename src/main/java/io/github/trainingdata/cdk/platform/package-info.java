/**
 * The one-call L3: {@code TrainingDataPlatform} picks the data source with the advisor (or takes yours) and wires the
 * network, the bucket, the store, its preload, the training-job definition and a dashboard.
 */
package io.github.trainingdata.cdk.platform;
