/**
 * Lambda code of the data repository association custom resource ({@code Custom::DataRepositoryAssociation}):
 * links a directory of an FSx for Lustre file system to an S3 location, and moves the link in place when either
 * changes. AWS SDK (FSx) only, no CDK, so its bundle holds just these classes and the SDK.
 */
package io.github.trainingdata.cdk.storage.associations;
