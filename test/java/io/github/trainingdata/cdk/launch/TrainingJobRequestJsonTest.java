package io.github.trainingdata.cdk.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.CreateTrainingJobRequest;
import software.amazon.awssdk.services.sagemaker.model.FileSystemType;
import software.amazon.awssdk.services.sagemaker.model.TrainingInputMode;

class TrainingJobRequestJsonTest {
    private static final String CREATE = "SageMaker.CreateTrainingJob";
    private static final String ARN_REPLY = "{\"TrainingJobArn\":\"arn:aws:sagemaker:us-east-1:123456789012:training-job/x\"}";

    @Test
    void everyMemberOfTheSdkModelIsSentExactlyAsWritten() throws Exception {
        String document = ModelSampleDocument.createTrainingJob();
        List<String> leaves = new ArrayList<>();
        Json.leafPaths(Json.tree(document), "", leaves);
        assertTrue(leaves.size() >= 100, "the sample covers the model: " + leaves.size() + " leaves");
        assertTrue(leaves.containsAll(List.of("InputDataConfig[0].DataSource.FileSystemDataSource.DirectoryPath",
                "InputDataConfig[0].ShuffleConfig.Seed", "VpcConfig.Subnets[0]", "CheckpointConfig.LocalPath",
                "EnableManagedSpotTraining")), leaves.toString());

        try (AwsJsonEmulator emulator = new AwsJsonEmulator();
                SageMakerClient sageMaker = emulator.sageMaker()) {
            emulator.on(CREATE, call -> AwsJsonEmulator.Reply.ok(ARN_REPLY));
            sageMaker.createTrainingJob(TrainingJobRequestJson.toRequest(document, "every-member"));
            assertEquals(Json.treeWith(document, "TrainingJobName", "every-member"),
                    Json.tree(emulator.calls(CREATE).get(0).body()));
        }
    }

    @Test
    void membersBecomeTypedSdkValues() {
        CreateTrainingJobRequest request = TrainingJobRequestJson.toRequest("""
                {"AlgorithmSpecification": {"TrainingInputMode": "File"},
                 "InputDataConfig": [{"ChannelName": "cache", "DataSource": {"FileSystemDataSource":
                     {"FileSystemType": "FSxLustre", "DirectoryPath": "/mnt/train"}}}],
                 "ResourceConfig": {"InstanceCount": 3}}
                """, "job-1");
        assertEquals("job-1", request.trainingJobName());
        assertEquals(TrainingInputMode.FILE, request.algorithmSpecification().trainingInputMode());
        assertEquals(FileSystemType.F_SX_LUSTRE,
                request.inputDataConfig().get(0).dataSource().fileSystemDataSource().fileSystemType());
        assertEquals(3, request.resourceConfig().instanceCount());
    }

    @Test
    void unknownMemberIsRejectedWithItsPath() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TrainingJobRequestJson.toRequest("""
                {"InputDataConfig": [{"ChannelName": "a"},
                  {"ChannelName": "b", "DataSource": {"S3DataSource": {"S3Url": "s3://b/p"}}}]}
                """, "job"));
        assertTrue(e.getMessage().startsWith("Unknown member InputDataConfig[1].DataSource.S3DataSource.S3Url "),
                e.getMessage());
        assertTrue(e.getMessage().contains("S3Uri"), "lists the allowed members: " + e.getMessage());
    }

    @Test
    void wrongJsonTypeIsRejectedWithItsPath() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TrainingJobRequestJson.toRequest("""
                {"InputDataConfig": [{"ChannelName": "a"},
                  {"ChannelName": "b", "DataSource": {"S3DataSource": {"S3Uri": 5}}}]}
                """, "job"));
        assertEquals("InputDataConfig[1].DataSource.S3DataSource.S3Uri: expected a string, got the number 5",
                e.getMessage());
    }

    @Test
    void mapValuesAndListsAreTypeChecked() {
        assertEquals("HyperParameters.epochs: expected a string, got the number 10",
                assertThrows(IllegalArgumentException.class, () -> TrainingJobRequestJson.toRequest(
                        "{\"HyperParameters\": {\"epochs\": 10}}", "job")).getMessage());
        assertEquals("Tags: expected an array, got an object",
                assertThrows(IllegalArgumentException.class, () -> TrainingJobRequestJson.toRequest(
                        "{\"Tags\": {\"Key\": \"a\"}}", "job")).getMessage());
        assertEquals("EnableManagedSpotTraining: expected true or false, got the string \"true\"",
                assertThrows(IllegalArgumentException.class, () -> TrainingJobRequestJson.toRequest(
                        "{\"EnableManagedSpotTraining\": \"true\"}", "job")).getMessage());
        assertEquals("VpcConfig: expected an object, got null",
                assertThrows(IllegalArgumentException.class, () -> TrainingJobRequestJson.toRequest(
                        "{\"VpcConfig\": null}", "job")).getMessage());
    }

    @Test
    void integersMustBeWholeAndInRange() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainingJobRequestJson.toRequest(
                "{\"ResourceConfig\": {\"InstanceCount\": 1.5}}", "job")).getMessage()
                .startsWith("ResourceConfig.InstanceCount: expected a whole number"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainingJobRequestJson.toRequest(
                "{\"StoppingCondition\": {\"MaxRuntimeInSeconds\": 3000000000}}", "job")).getMessage()
                .startsWith("StoppingCondition.MaxRuntimeInSeconds: expected a whole number from -2147483648"));
        assertEquals(2, TrainingJobRequestJson.toRequest(
                "{\"ResourceConfig\": {\"InstanceCount\": 2.0}}", "job").resourceConfig().instanceCount());
    }

    @Test
    void documentWithTrainingJobNameIsRejected() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainingJobRequestJson.toRequest(
                "{\"TrainingJobName\": \"x\"}", "job")).getMessage().contains("must not contain TrainingJobName"));
    }

    @Test
    void documentMustBeAJsonObject() {
        assertEquals("The CreateTrainingJob request document must be a JSON object, got an array",
                assertThrows(IllegalArgumentException.class,
                        () -> TrainingJobRequestJson.toRequest("[]", "job")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> TrainingJobRequestJson.toRequest("{\"RoleArn\": ", "job")).getMessage()
                .startsWith("The CreateTrainingJob request document is not valid JSON"));
    }
}
