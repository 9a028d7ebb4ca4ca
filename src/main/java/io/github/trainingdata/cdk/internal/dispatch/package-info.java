/**
 * The Lambda handler of a stack's one custom-resource provider: the service token of every asynchronous custom
 * resource of the library in the stack, it answers CloudFormation itself (starting the stack's waiter for a request
 * that does not complete at once) and hands each request to the handler of its ResourceType. AWS SDK only, no CDK
 * classes: it ships in the SDK handlers' Lambda bundle. Not part of the API.
 */
package io.github.trainingdata.cdk.internal.dispatch;
