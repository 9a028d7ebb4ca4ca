package io.github.trainingdata.cdk.internal;

import software.amazon.awscdk.Stack;
import software.constructs.IConstruct;

/**
 * Which constructs CloudFormation deploys together: a stack with its nested stacks. A value of a construct in another
 * deployment is passed at deploy time (an export or a stack output) and is not updated when that construct is
 * replaced, so values a replacement changes must not cross (docs/composition.md).
 */
public final class Deployments {
    private Deployments() {
    }

    /**
     * @param reader a construct that would read {@code other}'s values
     * @param other  the construct read
     * @return whether they deploy separately (not one stack, nor a nested stack of it or of its parent)
     */
    public static boolean separate(IConstruct reader, IConstruct other) {
        return top(Stack.of(reader)) != top(Stack.of(other));
    }

    /** @return the stack CloudFormation deploys {@code stack} with: itself, or a nested stack's top-level parent */
    private static Stack top(Stack stack) {
        Stack top = stack;
        while (top.getNestedStackParent() != null) {
            top = top.getNestedStackParent();
        }
        return top;
    }
}
