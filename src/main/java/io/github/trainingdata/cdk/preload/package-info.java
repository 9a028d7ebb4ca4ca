/**
 * Warming a Lustre cache during the deploy: {@code LustrePreload} runs a SageMaker worker job from its own state
 * machine, started by a custom resource, and holds back the training definitions that read the cache until the
 * warm-up that is current when they start has succeeded.
 */
package io.github.trainingdata.cdk.preload;
