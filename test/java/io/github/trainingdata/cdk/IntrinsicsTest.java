package io.github.trainingdata.cdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The test helper other tests trust to read templates. */
class IntrinsicsTest {
    @Test
    void evaluatesJoinRefGetAttAndSelectWithPlaceholders() {
        Object arn = Map.of("Fn::Join", List.of("", List.of("arn:", Map.of("Ref", "AWS::Partition"), ":s3:::",
                Map.of("Fn::GetAtt", List.of("Bucket", "Name")), "/",
                Map.of("Fn::Select", List.of(1, List.of("a", "b"))), "/",
                Map.of("Fn::Select", List.of(0, Map.of("Fn::GetAZs", ""))))));
        assertEquals("arn:REF(AWS::Partition):s3:::GETATT(Bucket.Name)/b/SELECT(0,GETAZS())", Intrinsics.string(arn));
    }

    @Test
    void evaluatesInsideMapsAndListsAndKeepsOtherValues() {
        assertEquals(Map.of("Roles", List.of("REF(Role)"), "Count", 2, "Flag", true),
                Intrinsics.evaluate(Map.of("Roles", List.of(Map.of("Ref", "Role")), "Count", 2, "Flag", true)));
    }

    @Test
    void printsNumbersAndBooleansAsText() {
        assertEquals("3300", Intrinsics.string(3300));
        assertEquals("port 443 open true", Intrinsics.string(Map.of("Fn::Join", List.of(" ", List.of("port", 443,
                "open", true)))));
        assertThrows(IllegalArgumentException.class, () -> Intrinsics.string(List.of("a")));
        assertThrows(IllegalArgumentException.class, () -> Intrinsics.string(null));
    }

    @Test
    void splitsKnownStringsAndUsesTheGivenRefValues() {
        Object joined = Map.of("Fn::Join", List.of("", List.of(Map.of("Ref", "Image"), "/x")));
        Object host = Map.of("Fn::Select", List.of(1, Map.of("Fn::Split", List.of("/", joined))));
        assertEquals("team", Intrinsics.string(host, Map.of("Image", "registry/team/app")));
        assertEquals(List.of("a", "", "b"), Intrinsics.evaluate(Map.of("Fn::Split", List.of(".", "a..b"))));
        // A placeholder is never taken apart.
        assertEquals("SELECT(1,SPLIT(/,REF(Image)/x))", Intrinsics.string(host));
    }

    @Test
    void refusesAnUnknownIntrinsic() {
        assertThrows(IllegalArgumentException.class, () -> Intrinsics.evaluate(Map.of("Fn::Sub", "${AWS::Region}")));
    }
}
