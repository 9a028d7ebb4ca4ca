package io.github.trainingdata.cdk.training;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.training.AvailabilityZones.Match;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.ec2.ISubnet;

class AvailabilityZonesTest {
    private final Stack stack = TestApps.stack();

    private Match compare(String a, String b) {
        return AvailabilityZones.compare(stack, a, b);
    }

    @Test
    void equalLiteralsAreTheSameZone() {
        assertEquals(Match.SAME, compare("us-east-1a", "us-east-1a"));
    }

    @Test
    void differentLiteralsAreDifferentZones() {
        assertEquals(Match.DIFFERENT, compare("us-east-1a", "us-east-1b"));
    }

    @Test
    void theSameTokenIsTheSameZone() {
        String zone = Fn.select(0, Fn.getAzs());
        assertEquals(Match.SAME, compare(zone, zone));
        assertEquals(Match.SAME, compare(zone, Fn.select(0, Fn.getAzs())));
    }

    @Test
    void differentIndexesOfTheRegionsZonesAreDifferentZones() {
        assertEquals(Match.DIFFERENT, compare(Fn.select(0, Fn.getAzs()), Fn.select(1, Fn.getAzs())));
    }

    @Test
    void subnetsOfANewVpcInDifferentZonesAreDifferent() {
        List<ISubnet> subnets = new TrainingNetwork(stack, "Network").getVpc().getIsolatedSubnets();
        assertEquals(Match.DIFFERENT, compare(subnets.get(0).getAvailabilityZone(),
                subnets.get(1).getAvailabilityZone()));
        assertEquals(Match.SAME, compare(subnets.get(1).getAvailabilityZone(), subnets.get(1).getAvailabilityZone()));
    }

    @Test
    void differentIndexesOfDifferentRegionsAreUnknown() {
        assertEquals(Match.UNKNOWN, compare(Fn.select(0, Fn.getAzs()), Fn.select(1, Fn.getAzs("eu-west-1"))));
    }

    @Test
    void aTokenAgainstALiteralIsUnknown() {
        assertEquals(Match.UNKNOWN, compare(Fn.select(0, Fn.getAzs()), "us-east-1a"));
        assertEquals(Match.UNKNOWN, compare("us-east-1a", Fn.select(0, Fn.getAzs())));
    }

    @Test
    void otherTokensAreUnknown() {
        assertEquals(Match.UNKNOWN, compare(Fn.importValue("TrainingAz"), Fn.select(0, Fn.getAzs())));
        assertEquals(Match.UNKNOWN, compare(Fn.importValue("TrainingAz"), Fn.importValue("LustreAz")));
    }
}
