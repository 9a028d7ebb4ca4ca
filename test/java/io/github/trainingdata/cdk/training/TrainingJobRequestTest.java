package io.github.trainingdata.cdk.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketAttributes;

/** The canonical CreateTrainingJob request a definition renders. */
class TrainingJobRequestTest {
    private final TrainingFixture f = new TrainingFixture();

    private Map<String, Object> resolved(TrainingJobDefinition job) {
        return (Map<String, Object>) f.stack.resolve(job.getRequest());
    }

    private List<Map<String, Object>> channels(TrainingJobDefinition job) {
        return (List<Map<String, Object>>) resolved(job).get("InputDataConfig");
    }

    private static long seconds(Map<String, Object> request, String member) {
        return ((Number) ((Map<String, Object>) request.get("StoppingCondition")).get(member)).longValue();
    }

    @Test
    void rendersTheMembersInTheFixedOrder() {
        assertEquals(List.of("AlgorithmSpecification", "RoleArn", "InputDataConfig", "OutputDataConfig",
                "ResourceConfig", "StoppingCondition", "VpcConfig", "HyperParameters", "EnableManagedSpotTraining",
                "CheckpointConfig", "Tags"), new ArrayList<>(f.threeStoreJob().getRequest().keySet()));
    }

    @Test
    void rendersAnS3ChannelWithItsModeAndADirectoryUri() {
        Map<String, Object> s3 = channels(f.threeStoreJob()).get(0);
        assertEquals(Map.of("ChannelName", "validation",
                "DataSource", Map.of("S3DataSource", Map.of(
                        "S3DataType", "S3Prefix",
                        "S3Uri", "s3://team-datasets/imagenet/validation/",
                        "S3DataDistributionType", "FullyReplicated")),
                "InputMode", "FastFile"), s3);
    }

    @Test
    void rendersTheLustreChannelInFileModeUnderTheMountNameAndTheDatasetsPath() {
        TrainingJobDefinition job = f.threeStoreJob();
        Map<String, Object> lustre = channels(job).get(1);
        String fileSystem = f.stack.getLogicalId(f.lustre().getResource());
        assertEquals(Map.of("ChannelName", "train",
                "DataSource", Map.of("FileSystemDataSource", Map.of(
                        "FileSystemId", Map.of("Ref", fileSystem),
                        "FileSystemAccessMode", "ro",
                        "FileSystemType", "FSxLustre",
                        "DirectoryPath", Map.of("Fn::Join", List.of("", List.of("/",
                                Map.of("Fn::GetAtt", List.of(fileSystem, "LustreMountName")), "/imagenet/train"))))),
                "InputMode", "File"), lustre);
    }

    @Test
    void rendersTheEfsChannelInFileModeAtItsAbsoluteDirectory() {
        TrainingJobDefinition job = f.threeStoreJob();
        Map<String, Object> efs = channels(job).get(2);
        assertEquals(Map.of("ChannelName", "features",
                "DataSource", Map.of("FileSystemDataSource", Map.of(
                        "FileSystemId", f.stack.resolve(f.efs().getFileSystemId()),
                        "FileSystemAccessMode", "ro",
                        "FileSystemType", "EFS",
                        "DirectoryPath", "/features")),
                "InputMode", "File"), efs);
    }

    @Test
    void rendersFileSystemChannelsInFileModeWhateverTheJobDefault() {
        TrainingJobDefinition job = f.define(f.props().inputMode(ChannelInputMode.PIPE).channels(List.of(
                f.lustreChannel("train", "train"), f.efsChannel("features", "/features"))));
        assertEquals(List.of("File", "File"), channels(job).stream().map(c -> c.get("InputMode")).toList());
        assertEquals("Pipe", ((Map<String, Object>) resolved(job).get("AlgorithmSpecification"))
                .get("TrainingInputMode"));
    }

    @Test
    void runsInTheTrainingGroupAndOnlyTheDataSubnet() {
        Map<String, Object> request = resolved(f.threeStoreJob());
        assertEquals(2, f.network().getVpc().getIsolatedSubnets().size());
        Object trainingGroup = f.stack.resolve(f.network().getTrainingSecurityGroup().getSecurityGroupId());
        assertEquals(Map.of("SecurityGroupIds", List.of(trainingGroup),
                "Subnets", List.of(f.stack.resolve(f.network().getDataSubnet().getSubnetId()))),
                request.get("VpcConfig"));
    }

    @Test
    void rendersOutputsRoleAndDefaultsOfResources() {
        TrainingJobDefinition job = f.threeStoreJob();
        Map<String, Object> request = resolved(job);
        assertEquals(Map.of("TrainingImage", TrainingFixture.IMAGE, "TrainingInputMode", "File"),
                request.get("AlgorithmSpecification"));
        assertEquals(f.stack.resolve(job.getRole().getRoleArn()), request.get("RoleArn"));
        assertEquals(Map.of("S3OutputPath", "s3://team-datasets/training-output/"), request.get("OutputDataConfig"));
        assertEquals(Map.of("S3Uri", "s3://team-datasets/checkpoints/resnet/"), request.get("CheckpointConfig"));
        Map<String, Object> resources = (Map<String, Object>) request.get("ResourceConfig");
        assertEquals("ml.m5.xlarge", resources.get("InstanceType"));
        assertEquals(1, ((Number) resources.get("InstanceCount")).intValue());
        assertEquals(50, ((Number) resources.get("VolumeSizeInGB")).intValue());
        assertEquals(true, request.get("EnableManagedSpotTraining"));
    }

    @Test
    void rendersHyperParametersInKeyOrderAndTagsAsKeyValuePairs() {
        Map<String, Object> request = f.threeStoreJob().getRequest();
        Map<String, Object> hyperParameters = (Map<String, Object>) request.get("HyperParameters");
        assertEquals(List.of("batch-size", "epochs", "lr"), new ArrayList<>(hyperParameters.keySet()));
        assertEquals(Map.of("batch-size", "256", "epochs", "10", "lr", "0.1"), hyperParameters);
        assertEquals(List.of(Map.of("Key", "cost-center", "Value", "42"), Map.of("Key", "team", "Value", "ml")),
                request.get("Tags"));
    }

    @Test
    void rendersTheStoppingConditionInSecondsWithSpotWaitDefaultingToTheRuntime() {
        Map<String, Object> request = resolved(f.threeStoreJob());
        assertEquals(28_800L, seconds(request, "MaxRuntimeInSeconds"));
        assertEquals(28_800L, seconds(request, "MaxWaitTimeInSeconds"));
    }

    @Test
    void rendersAnExplicitSpotWait() {
        Map<String, Object> request = resolved(f.define(f.props().managedSpot(true).checkpointPrefix("ckpt")
                .maxRuntime(Duration.hours(2)).maxWait(Duration.hours(6))));
        assertEquals(7_200L, seconds(request, "MaxRuntimeInSeconds"));
        assertEquals(21_600L, seconds(request, "MaxWaitTimeInSeconds"));
    }

    @Test
    void rendersAnOnDemandJobWithoutSpotMembers() {
        Map<String, Object> request = resolved(f.define(f.props()));
        assertEquals(86_400L, seconds(request, "MaxRuntimeInSeconds"));
        assertFalse(((Map<?, ?>) request.get("StoppingCondition")).containsKey("MaxWaitTimeInSeconds"));
        assertFalse(request.containsKey("EnableManagedSpotTraining"));
    }

    @Test
    void rendersAnS3OnlyJobWithoutVpcConfig() {
        Map<String, Object> request = resolved(f.define(f.props().channels(List.of(f.s3("train").build()))));
        assertEquals(List.of("AlgorithmSpecification", "RoleArn", "InputDataConfig", "OutputDataConfig",
                "ResourceConfig", "StoppingCondition"), new ArrayList<>(request.keySet()));
    }

    @Test
    void rendersAnS3OnlyJobInAGivenNetwork() {
        Map<String, Object> request = resolved(f.define(f.props().network(f.network())
                .channels(List.of(f.s3("train").build()))));
        assertEquals(List.of(f.stack.resolve(f.network().getDataSubnet().getSubnetId())),
                ((Map<String, Object>) request.get("VpcConfig")).get("Subnets"));
    }

    @Test
    void rendersTheOptionalMembers() {
        Key volumeKey = new Key(f.stack, "VolumeKey");
        Map<String, Object> request = resolved(f.define(f.props()
                .inputMode(ChannelInputMode.FAST_FILE)
                .instanceCount(4)
                .volumeSizeGiB(200)
                .volumeKey(volumeKey)
                .metricDefinitions(Map.of("val:loss", "val_loss=(\\S+)", "train:loss", "loss=(\\S+)"))
                .containerEntrypoint(List.of("python", "train.py"))
                .containerArguments(List.of("--epochs", "10"))
                .environment(Map.of("WORKERS", "8", "NCCL_DEBUG", "INFO"))
                .checkpointPrefix("ckpt")
                .checkpointLocalPath("/opt/ml/ckpt")
                .networkIsolation(true)
                .interContainerTrafficEncryption(true)));
        assertEquals(Map.of("TrainingImage", TrainingFixture.IMAGE, "TrainingInputMode", "FastFile",
                "MetricDefinitions", List.of(Map.of("Name", "train:loss", "Regex", "loss=(\\S+)"),
                        Map.of("Name", "val:loss", "Regex", "val_loss=(\\S+)")),
                "ContainerEntrypoint", List.of("python", "train.py"),
                "ContainerArguments", List.of("--epochs", "10")), request.get("AlgorithmSpecification"));
        Map<String, Object> resources = (Map<String, Object>) request.get("ResourceConfig");
        assertEquals(List.of(4, 200), List.of(((Number) resources.get("InstanceCount")).intValue(),
                ((Number) resources.get("VolumeSizeInGB")).intValue()));
        assertEquals(f.stack.resolve(volumeKey.getKeyArn()), resources.get("VolumeKmsKeyId"));
        assertEquals(Map.of("NCCL_DEBUG", "INFO", "WORKERS", "8"), request.get("Environment"));
        assertEquals(Map.of("S3Uri", "s3://team-datasets/ckpt/", "LocalPath", "/opt/ml/ckpt"),
                request.get("CheckpointConfig"));
        assertEquals(true, request.get("EnableNetworkIsolation"));
        assertEquals(true, request.get("EnableInterContainerTrafficEncryption"));
    }

    @Test
    void rendersAWarmPoolKeepAliveInTheResourceConfig() {
        Map<String, Object> resources = (Map<String, Object>) resolved(f.define(f.props()
                .keepAlivePeriod(Duration.hours(1)))).get("ResourceConfig");
        assertEquals(3600, ((Number) resources.get("KeepAlivePeriodInSeconds")).intValue());
    }

    @Test
    void rendersTheOutputKeyOfAnEncryptedBucket() {
        Key key = new Key(f.stack, "DataKey");
        TrainingDataBucket encrypted = new TrainingDataBucket(f.stack, "Encrypted", TrainingDataBucketProps.builder()
                .bucket(Bucket.fromBucketAttributes(f.stack, "EncryptedBucket", BucketAttributes.builder()
                        .bucketName("secure-datasets").encryptionKey(key).build()))
                .build());
        Map<String, Object> request = resolved(f.define(f.props().outputBucket(encrypted)));
        assertEquals(Map.of("S3OutputPath", "s3://secure-datasets/training-output/",
                "KmsKeyId", f.stack.resolve(key.getKeyArn())), request.get("OutputDataConfig"));
    }

    @Test
    void defaultsTheJobNamePrefixToTheConstructIdInLowercase() {
        TrainingJobDefinition job = new TrainingJobDefinition(f.stack, "ResNet50 Training v2", f.props().build());
        assertEquals("resnet50-training-v2", job.getJobNamePrefix());
    }

    @Test
    void defaultsTheJobNamePrefixToAValidTruncationOfALongId() {
        TrainingJobDefinition job = new TrainingJobDefinition(f.stack, "ABCDEFGHIJKLMNOPQRSTUVWXY_Z",
                f.props().build());
        assertEquals("abcdefghijklmnopqrstuvwxy", job.getJobNamePrefix());
    }

    @Test
    void defaultsTheJobNamePrefixToTrainingForAnIdWithoutLettersOrDigits() {
        TrainingJobDefinition job = new TrainingJobDefinition(f.stack, "__", f.props().build());
        assertEquals("training", job.getJobNamePrefix());
    }
}
