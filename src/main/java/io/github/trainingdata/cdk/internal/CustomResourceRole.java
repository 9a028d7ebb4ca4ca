package io.github.trainingdata.cdk.internal;

import java.util.List;
import java.util.Map;
import software.amazon.awscdk.services.iam.PolicyDocument;
import software.constructs.Construct;

/**
 * The role of one custom resource of the library ({@link CustomResourceProvider#grant}): an {@code AWS::IAM::Role}
 * (this construct's {@code Resource}) holding what that resource's handler needs, inline, under the stack's
 * custom-resource path, trusted by the stack provider's role alone. The resource names it as its {@code RoleArn}.
 * Written as a core resource ({@link CoreResources}): the template is what aws-cdk-lib's {@code Role} wrote.
 */
public final class CustomResourceRole extends Construct {
    /** The name of the role's one inline policy. */
    static final String POLICY_NAME = "Grants";

    private final String roleArn;

    /**
     * @param scope          the construct whose custom resource needs the role
     * @param id             the role's id
     * @param description    the role's description
     * @param path           the role's IAM path
     * @param trustedRoleArn the provider's role, the only principal that may assume this one
     * @param grants         the statements, each scoped to that construct's resources
     */
    CustomResourceRole(Construct scope, String id, String description, String path, String trustedRoleArn,
            PolicyDocument grants) {
        super(scope, id);
        this.roleArn = CoreResources.role(this, Map.of("AWS", trustedRoleArn), description, List.of(), path,
                POLICY_NAME, grants).getAtt("Arn").toString();
    }

    /** @return the role's ARN */
    public String getRoleArn() {
        return roleArn;
    }
}
