package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.internal.SubnetZoneIds;
import io.github.trainingdata.cdk.storage.StoreZone;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.constructs.IConstruct;

/**
 * Compares Availability Zones that may be deploy-time tokens. Environment-agnostic VPCs name their AZs
 * {@code Fn::Select [i, Fn::GetAZs ""]}: two such tokens over the same list with different indexes are
 * different zones, the same token is the same zone, anything else is unknown until deploy.
 */
final class AvailabilityZones {
    enum Match { SAME, DIFFERENT, UNKNOWN }

    private AvailabilityZones() {
    }

    static Match compare(IConstruct scope, String a, String b) {
        if (!Token.isUnresolved(a) && !Token.isUnresolved(b)) {
            return a.equals(b) ? Match.SAME : Match.DIFFERENT;
        }
        Stack stack = Stack.of(scope);
        Object ra = stack.resolve(a);
        Object rb = stack.resolve(b);
        if (ra.equals(rb)) {
            return Match.SAME;
        }
        List<?> sa = select(ra);
        List<?> sb = select(rb);
        if (sa != null && sb != null && sa.get(1).equals(sb.get(1)) && !sa.get(0).equals(sb.get(0))) {
            return Match.DIFFERENT;
        }
        return Match.UNKNOWN;
    }

    /**
     * Compares the zone of {@code subnet} with a store's zone: by name, or by ID (a new subnet's
     * {@code AvailabilityZoneId}, its property when set, else its attribute; an imported subnet's ID is unknown).
     */
    static Match compare(IConstruct scope, ISubnet subnet, StoreZone zone) {
        if (zone.getZoneName() != null) {
            return compare(scope, subnet.getAvailabilityZone(), zone.getZoneName());
        }
        String subnetZoneId = SubnetZoneIds.of(subnet);
        return subnetZoneId == null ? Match.UNKNOWN : compare(scope, subnetZoneId, zone.getZoneId());
    }

    /** @return {@code [index, list]} of an {@code Fn::Select} over {@code Fn::GetAZs}, else null */
    static List<?> select(Object resolved) {
        if (resolved instanceof Map<?, ?> map && map.get("Fn::Select") instanceof List<?> args && args.size() == 2
                && args.get(1) instanceof Map<?, ?> list && list.containsKey("Fn::GetAZs")) {
            return args;
        }
        return null;
    }
}
