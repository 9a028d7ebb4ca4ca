/**
 * What the library's own packages share and users do not call: cdk-nag acknowledgements per finding
 * ({@code WildcardFindings}), Lambda bundles from the classpath ({@code BundledAsset}), the stack's one
 * custom-resource provider around the SDK handlers ({@code CustomResourceProvider}: its dispatcher function and waiter
 * state machine), log groups on the data layer's key
 * ({@code LogGroups}), S3 key-prefix and EFS directory rules ({@code KeyPrefix}, {@code EfsDirectoryPath}), the IAM of
 * a {@code createTrainingJob.sync} task ({@code SyncTrainingPermissions}), a subnet's zone ID ({@code SubnetZoneIds}) and cross-stack references that never block a
 * replacement ({@code ReplaceableReference}). Not part of the API: any of it may change in any release.
 */
package io.github.trainingdata.cdk.internal;
