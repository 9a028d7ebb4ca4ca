/**
 * The data stores a training job reads: {@code TrainingDataBucket} (S3), {@code LustreCache} with its
 * {@code LustreDataset}s (FSx for Lustre linked to S3 by data repository associations) and {@code EfsStore} (EFS, with
 * the directories its channels read created during the deploy), each with secure defaults or adopting an existing
 * resource.
 */
package io.github.trainingdata.cdk.storage;
