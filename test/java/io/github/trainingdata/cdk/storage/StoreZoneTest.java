package io.github.trainingdata.cdk.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.CfnParameter;
import software.amazon.awscdk.Stack;

class StoreZoneTest {
    @Test
    void describesLiteralZonesByNameOrId() {
        assertEquals("REQUIRED us-east-1a", StoreZone.ofName(StoreZone.Affinity.REQUIRED, "us-east-1a").toString());
        assertEquals("PREFERRED id use1-az4", StoreZone.ofId(StoreZone.Affinity.PREFERRED, "use1-az4").toString());
    }

    @Test
    void describesADeployTimeZoneWithoutPrintingItsToken() {
        Stack stack = new Stack(new App(), "Zones");
        String zoneId = CfnParameter.Builder.create(stack, "ZoneId").build().getValueAsString();
        String zoneName = CfnParameter.Builder.create(stack, "ZoneName").build().getValueAsString();
        assertEquals("PREFERRED zone ID known only at deploy time",
                StoreZone.ofId(StoreZone.Affinity.PREFERRED, zoneId).toString());
        assertEquals("REQUIRED zone name known only at deploy time",
                StoreZone.ofName(StoreZone.Affinity.REQUIRED, zoneName).toString());
    }
}
