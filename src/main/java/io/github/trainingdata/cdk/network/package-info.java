/**
 * The network training and its data stores share: {@code TrainingNetwork} (a new VPC with isolated subnets, an S3
 * gateway endpoint and flow logs, or an existing {@code IVpc}), the data subnet that fixes the data Availability Zone,
 * and the training security group.
 */
package io.github.trainingdata.cdk.network;
