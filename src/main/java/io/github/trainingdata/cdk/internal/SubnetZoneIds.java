package io.github.trainingdata.cdk.internal;

import software.amazon.awscdk.services.ec2.CfnSubnet;
import software.amazon.awscdk.services.ec2.ISubnet;

/**
 * The Availability Zone ID of a subnet ({@code use1-az4}: the same physical zone in every account, unlike a zone name):
 * the {@code AvailabilityZoneId} a subnet of this app was given, else its {@code AvailabilityZoneId} attribute (a
 * deploy-time value), else null (an imported subnet, whose ID the app cannot know).
 */
public final class SubnetZoneIds {
    private SubnetZoneIds() {
    }

    /** @return the zone ID of {@code subnet}: a literal, a deploy-time attribute, or null when unknown */
    public static String of(ISubnet subnet) {
        if (subnet.getNode().getDefaultChild() instanceof CfnSubnet cfn) {
            return cfn.getAvailabilityZoneId() != null ? cfn.getAvailabilityZoneId() : cfn.getAttrAvailabilityZoneId();
        }
        return null;
    }
}
