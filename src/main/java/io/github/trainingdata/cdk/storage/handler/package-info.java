/**
 * Lambda code of the EFS directories custom resource: creates the directories EFS channels read. Plain
 * JDK only (no AWS SDK, no Lambda library, no CDK), so its bundle holds just these classes.
 */
package io.github.trainingdata.cdk.storage.handler;
