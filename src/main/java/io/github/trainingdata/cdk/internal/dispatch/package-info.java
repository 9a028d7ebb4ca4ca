/**
 * The Lambda handler of a stack's one custom-resource provider: it serves every asynchronous custom resource of the
 * library in the stack as aws-cdk-lib's Provider framework onEvent and isComplete handler, and hands each request to
 * the handler of its ResourceType. AWS SDK only, no CDK classes: it ships in the SDK handlers' Lambda bundle. Not part
 * of the API.
 */
package io.github.trainingdata.cdk.internal.dispatch;
