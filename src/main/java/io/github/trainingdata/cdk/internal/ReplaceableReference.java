package io.github.trainingdata.cdk.internal;

import software.amazon.awscdk.CfnResource;
import software.amazon.awscdk.CrossStackReferences;
import software.amazon.awscdk.ReferenceStrength;

/**
 * Lets other stacks read a resource that a routine change may replace (the Lustre file system, the data subnet)
 * without blocking that replacement. Under CDK's default strong references a consumer imports an export, and
 * "you can't modify or remove an output value that is referenced by another stack" (CloudFormation,
 * {@code Fn::ImportValue}): replacing the resource would fail the producing stack's update. With
 * {@link ReferenceStrength#BOTH} the producer keeps the export (so an upgrade never removes one a deployed consumer
 * still imports) and adds a plain output, and consumers read that output with {@code Fn::GetStackOutput}: the
 * producer deploys the replacement, and each consumer picks the new value up at its next deploy ({@code cdk deploy
 * --all} deploys them after the producer).
 *
 * <p>Applied only where the app leaves {@code @aws-cdk/core:defaultCrossStackReferences} unset: an explicit
 * {@code weak} already gives this, and an explicit {@code strong} is the app's choice (see docs/composition.md, "Across
 * stacks, only stable names are shared").
 */
public final class ReplaceableReference {
    /** The context key of CDK's app-wide cross-stack reference strength. */
    public static final String CONTEXT_KEY = "@aws-cdk/core:defaultCrossStackReferences";

    private ReplaceableReference() {
    }

    /** @param resource a resource that may be replaced while other stacks read it */
    public static void applyTo(CfnResource resource) {
        if (resource.getNode().tryGetContext(CONTEXT_KEY) == null) {
            CrossStackReferences.of(resource).produce(ReferenceStrength.BOTH);
        }
    }
}
