/**
 * The one table of AWS API limits: every length, range, count and pattern the library checks, taken from the
 * service API models (SageMaker, FSx) and tested against them. Plain JDK (no CDK, no AWS SDK), so the CDK
 * constructs and the SDK-only packages ({@code launch}, {@code preload.handler}, which ship in the preload's
 * Lambda bundle) import the same rules.
 */
package io.github.trainingdata.cdk.limits;
