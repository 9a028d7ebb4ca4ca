package io.github.trainingdata.cdk.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sagemaker.model.TrainingInputMode;

/** Reading a {@link CapacityPlan} from its JSON: every member, and what is refused with its JSON path. */
class CapacityPlanTest {
    @Test
    void readsEveryMember() {
        CapacityPlan plan = CapacityPlan.fromJson(TrainingJobLauncherCapacityTest.PLAN);

        assertEquals("S3+FSxLustre+EFS", plan.firstDataSources());
        assertEquals(List.of("us-east-1a"), plan.firstAvailabilityZones());
        assertEquals(List.of(
                new CapacityPlanAttempt(600, "ml.g5.2xlarge", false, "S3+FSxLustre+EFS", List.of("us-east-1a")),
                new CapacityPlanAttempt(0, "ml.g5.4xlarge", false, "S3+FSxLustre+EFS", List.of("us-east-1a")),
                new CapacityPlanAttempt(0, "ml.g5.4xlarge", true, "S3+EFS", List.of("us-east-1a", "us-east-1b"))),
                plan.attempts());
        assertEquals(3, plan.s3FallbackInputDataConfig().size());
        assertEquals("s3://training-data-123456789012/datasets/images/",
                plan.s3FallbackInputDataConfig().get(1).dataSource().s3DataSource().s3Uri());
        assertEquals(TrainingInputMode.FAST_FILE, plan.s3FallbackInputDataConfig().get(1).inputMode());
        assertEquals(TrainingJobLauncherCapacityTest.FALLBACK_SUBNETS, plan.s3FallbackSubnets());
    }

    @Test
    void aPlanWithoutS3FallbackHasNoFallbackChannels() {
        CapacityPlan plan = CapacityPlan.fromJson("{\"FirstAttempt\":{\"DataSources\":\"S3\",\"AvailabilityZones\":[]},"
                + "\"Attempts\":[{\"WaitSeconds\":60,\"InstanceType\":\"ml.m5.xlarge\",\"FromS3\":false,"
                + "\"DataSources\":\"S3\",\"AvailabilityZones\":[]}]}");

        assertEquals(List.of(), plan.s3FallbackInputDataConfig());
        assertEquals(List.of(), plan.s3FallbackSubnets());
        assertEquals(60, plan.attempts().get(0).waitSeconds());
    }

    private static String refused(String json) {
        return assertThrows(IllegalArgumentException.class, () -> CapacityPlan.fromJson(json)).getMessage();
    }

    @Test
    void refusesWhatIsNotAPlanNamingThePath() {
        String first = "\"FirstAttempt\":{\"DataSources\":\"S3\",\"AvailabilityZones\":[]}";
        String attempt = "\"WaitSeconds\":0,\"InstanceType\":\"ml.m5.xlarge\",\"DataSources\":\"S3\","
                + "\"AvailabilityZones\":[]";
        assertEquals("The capacity plan has no Attempts", refused("{" + first + "}"));
        assertEquals("Unknown member Attempts[0].Extra in the capacity plan; allowed here: [AvailabilityZones, "
                + "DataSources, FromS3, InstanceType, WaitSeconds]",
                refused("{" + first + ",\"Attempts\":[{" + attempt + ",\"FromS3\":false,\"Extra\":1}]}"));
        assertEquals("Attempts[0].FromS3 is true, but the plan has no S3Fallback",
                refused("{" + first + ",\"Attempts\":[{" + attempt + ",\"FromS3\":true}]}"));
        assertEquals("Attempts[0].WaitSeconds: expected a whole number of seconds, got -5",
                refused("{" + first + ",\"Attempts\":[{" + attempt.replace(":0,", ":-5,") + ",\"FromS3\":false}]}"));
        assertEquals("Unknown member S3Fallback.InputDataConfig[0].Bogus in the CreateTrainingJob request document; "
                + "allowed here: [ChannelName, DataSource, ContentType, CompressionType, RecordWrapperType, InputMode, "
                + "ShuffleConfig]", refused("{" + first + ",\"Attempts\":[],\"S3Fallback\":{\"InputDataConfig\":"
                        + "[{\"Bogus\":1}],\"Subnets\":[]}}"));
        assertEquals("The capacity plan is not valid JSON: ", refused("{").substring(0, 37));
    }
}
