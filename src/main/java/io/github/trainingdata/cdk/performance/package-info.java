/**
 * What the data path's resources deliver, as the stores, the preload and the advisor all need it: FSx for Lustre
 * capacity steps, usable space and throughput per TiB of each deployment type and tier ({@code Sizing},
 * {@code LustreTier}, {@code CacheThroughput}), the preload's defaults and its time model ({@code PreloadDefaults},
 * {@code PreloadModel}, {@code PreloadWorker}, {@code WarmUpPath}), byte units ({@code ByteSize}), and the one table
 * of the published figures they rest on ({@code PublishedFigures}, {@code InstanceFacts}). Plain JDK (no CDK), below
 * {@code storage} and {@code preload}, which size and check with it, and below the advisor, which estimates with it;
 * it imports nothing of the library but {@code limits}.
 */
package io.github.trainingdata.cdk.performance;
