package io.github.trainingdata.cdk.internal;

import java.util.List;
import software.amazon.awscdk.Aspects;
import software.amazon.awscdk.IAspect;
import software.amazon.awscdk.services.iam.CfnRole;
import software.amazon.awscdk.services.iam.Policy;
import software.amazon.awscdk.services.iam.PolicyDocument;
import software.amazon.awscdk.services.iam.Role;
import software.constructs.IConstruct;

/**
 * Renders the statements a role is granted (aws-cdk-lib collects them in the role's {@code DefaultPolicy}, a separate
 * {@code AWS::IAM::Policy}) inline in the role instead: one {@code Policies} entry {@value #NAME} of the
 * {@code AWS::IAM::Role}, one resource fewer (issue 27). The statements are the same; a statement granted after this
 * call is inlined too, since the move happens when the app is synthesized (an aspect, before dependencies are
 * rendered): what depended on the role's policy then depends on the role, which holds the permissions itself.
 *
 * <p>CloudFormation updates the role's {@code Policies} in place (an inline policy is part of the role), so an
 * existing stack gets the inline policy in the update phase and loses the old {@code AWS::IAM::Policy} only in the
 * cleanup: the permissions are there throughout. IAM counts a role's inline policies together, whichever resource
 * writes them, so the size limit is the same.
 */
public final class InlinePolicy {
    /** The inline policy's name in the role. */
    static final String NAME = "Permissions";
    private static final String DEFAULT_POLICY = "DefaultPolicy";

    private InlinePolicy() {
    }

    /**
     * Makes {@code role}'s grants render inline in it.
     *
     * @param role a role this library created, without inline policies of its own
     */
    public static void of(Role role) {
        String path = role.getNode().getPath();
        Aspects.of(role).add(new IAspect() {
            @Override
            public void visit(IConstruct node) {
                if (node.getNode().getPath().equals(path)) {
                    inline(role);
                }
            }
        });
    }

    private static void inline(Role role) {
        if (!(role.getNode().tryFindChild(DEFAULT_POLICY) instanceof Policy policy)) {
            return;
        }
        PolicyDocument document = policy.getDocument();
        ((CfnRole) role.getNode().getDefaultChild()).setPolicies(List.of(CfnRole.PolicyProperty.builder()
                .policyName(NAME).policyDocument(document).build()));
        role.getNode().tryRemoveChild(DEFAULT_POLICY);
        // The removed policy's own check, kept: an identity policy names no principal and every statement a resource.
        role.getNode().addValidation(document::validateForIdentityPolicy);
    }
}
