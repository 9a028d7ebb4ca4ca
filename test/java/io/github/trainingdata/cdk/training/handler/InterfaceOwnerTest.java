package io.github.trainingdata.cdk.training.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.trainingdata.cdk.training.handler.InterfaceOwner.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whose job an interface serves, by what its description and tag values name. */
class InterfaceOwnerTest {
    private static final String PREFIX = "train";

    private static InterfaceOwner owner(String description, String... tagValues) {
        return InterfaceOwner.of(new NetworkInterface("eni-0123", "subnet-0123", "in-use", "interface",
                "AROAEXAMPLE:sagemaker", description, List.of(tagValues)), PREFIX);
    }

    @Test
    void aJobOfTheDefinitionNamedInTheDescriptionOrATagInAnyCaseIsTheDefinitions() {
        assertEquals(new InterfaceOwner(Kind.DEFINITION, "train-0f8fad5b-d9cb-469f-a165-70867728950e"),
                owner("SageMaker: train-0f8fad5b-d9cb-469f-a165-70867728950e."));
        assertEquals(new InterfaceOwner(Kind.DEFINITION, "train-20251231-230000-ab12"),
                owner(null, "arn:aws:sagemaker:us-east-1:123456789012:training-job/train-20251231-230000-ab12"));
        assertEquals(Kind.DEFINITION, owner("TRAIN-0F8FAD5B-D9CB-469F-A165-70867728950E").kind());
    }

    @Test
    void anotherDefinitionsOrAPreloadWorkersJobIsAnotherJobEvenWhenItsPrefixStartsTheSame() {
        assertEquals(new InterfaceOwner(Kind.OTHER_JOB, "train-big-0f8fad5b-d9cb-469f-a165-70867728950e"),
                owner("train-big-0f8fad5b-d9cb-469f-a165-70867728950e"));
        assertEquals(Kind.OTHER_JOB, owner("trainer-20251231-230000-ab12").kind());
        assertEquals(new InterfaceOwner(Kind.OTHER_JOB, "warm-cache-1a2b3c4d-5e6f7a8b-0123456789ab"),
                owner("", "warm-cache-1a2b3c4d-5e6f7a8b-0123456789ab"));
    }

    @Test
    void anInterfaceThatNamesNoJobIsNobodysThatCanBeTold() {
        assertEquals(new InterfaceOwner(Kind.UNKNOWN, null), owner("network interface of a training job"));
        assertEquals(Kind.UNKNOWN, owner("0f8fad5b-d9cb-469f-a165-70867728950e", "eni-0123456789abcdef0").kind(),
                "a bare UUID or an interface id is not a job name");
        assertEquals(Kind.UNKNOWN, owner(null).kind());
    }

    @Test
    void theDefinitionsJobWinsOverAnotherNamedBeforeIt() {
        assertEquals(Kind.DEFINITION, owner("train-big-0f8fad5b-d9cb-469f-a165-70867728950e",
                "train-0f8fad5b-d9cb-469f-a165-70867728950e").kind());
    }
}
