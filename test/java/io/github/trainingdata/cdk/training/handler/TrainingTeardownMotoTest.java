package io.github.trainingdata.cdk.training.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.MotoServer;
import io.github.trainingdata.cdk.internal.handler.AssumedRoles;
import io.github.trainingdata.cdk.preload.handler.RecordingContext;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.TrainingInputMode;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * The teardown handler against moto, an independent implementation of SageMaker, EC2 and Step Functions: a delete
 * while the definition's jobs ran in two zones (the job's own subnet and, after a capacity policy's S3 fallback,
 * another zone's), next to a second definition's job in the same training security group.
 *
 * <p>Emulated here, because moto's SageMaker creates no network interfaces (and its jobs are {@code Completed} as
 * soon as they are created): each job's interface is created in moto's EC2 as SageMaker places it, in the subnet the
 * job ran in with the job's security group (VpcConfig), and with the job's name in its description or, for one, the
 * job's ARN in a tag value. That SageMaker writes the job's name there is UNVERIFIED (no AWS text says what it
 * writes); {@code TrainingTeardownHandlerTest} covers interfaces that name no job. Skipped without Python and moto,
 * except under {@code CI=true}.
 */
class TrainingTeardownMotoTest {
    private static final String PREFIX = "train";
    private static final String OWN_ZONE_JOB = PREFIX + "-0f8fad5b-d9cb-469f-a165-70867728950e";
    private static final String FALLBACK_JOB = PREFIX + "-1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed";
    private static final String OTHER_DEFINITIONS_JOB = "train-big-7c9e6679-7425-40de-944b-e07fc1f90ae7";
    private static final String STATE_MACHINE = "arn:aws:states:us-east-1:123456789012:stateMachine:Training";
    private static MotoServer moto;
    private static MotoEc2 ec2;
    private static String group;
    private static String ownSubnet;
    private static String fallbackSubnet;
    private static String ownZoneInterface;
    private static String fallbackInterface;
    private static String otherInterface;

    @BeforeAll
    static void createJobsAndTheirInterfaces() throws IOException, InterruptedException {
        moto = MotoServer.start();
        ec2 = new MotoEc2(moto);
        String vpc = MotoEc2.element(ec2.call("CreateVpc", Map.of("CidrBlock", "10.0.0.0/16")), "vpcId");
        ownSubnet = MotoEc2.element(ec2.call("CreateSubnet", Map.of("VpcId", vpc, "CidrBlock", "10.0.1.0/24",
                "AvailabilityZone", "us-east-1a")), "subnetId");
        fallbackSubnet = MotoEc2.element(ec2.call("CreateSubnet", Map.of("VpcId", vpc, "CidrBlock", "10.0.2.0/24",
                "AvailabilityZone", "us-east-1b")), "subnetId");
        group = MotoEc2.element(ec2.call("CreateSecurityGroup", Map.of("VpcId", vpc, "GroupName", "training",
                "GroupDescription", "training")), "groupId");
        try (SageMakerClient sageMaker = moto.client(SageMakerClient.builder())) {
            for (String job : List.of(OWN_ZONE_JOB, FALLBACK_JOB, OTHER_DEFINITIONS_JOB)) {
                String subnet = job.equals(FALLBACK_JOB) ? fallbackSubnet : ownSubnet;
                sageMaker.createTrainingJob(r -> r.trainingJobName(job)
                        .algorithmSpecification(a -> a.trainingImage("123456789012.dkr.ecr.us-east-1.amazonaws.com/t:1")
                                .trainingInputMode(TrainingInputMode.FILE))
                        .roleArn("arn:aws:iam::123456789012:role/training")
                        .outputDataConfig(o -> o.s3OutputPath("s3://output/models"))
                        .resourceConfig(c -> c.instanceType("ml.m5.xlarge").instanceCount(1).volumeSizeInGB(10))
                        .stoppingCondition(s -> s.maxRuntimeInSeconds(3600))
                        .vpcConfig(v -> v.subnets(subnet).securityGroupIds(group)));
            }
        }
        ownZoneInterface = jobInterface(ownSubnet, Map.of("Description", "SageMaker training job " + OWN_ZONE_JOB));
        fallbackInterface = jobInterface(fallbackSubnet, Map.of("TagSpecification.1.ResourceType", "network-interface",
                "TagSpecification.1.Tag.1.Key", "training-job", "TagSpecification.1.Tag.1.Value",
                "arn:aws:sagemaker:us-east-1:123456789012:training-job/" + FALLBACK_JOB));
        otherInterface = jobInterface(ownSubnet, Map.of("Description", "SageMaker training job " + OTHER_DEFINITIONS_JOB));
    }

    @AfterAll
    static void stop() {
        if (moto != null) {
            moto.close();
        }
    }

    /** An interface as SageMaker places a job's: in its subnet, with its security group. */
    private static String jobInterface(String subnet, Map<String, String> attributes)
            throws IOException, InterruptedException {
        Map<String, String> parameters = new LinkedHashMap<>(Map.of("SubnetId", subnet, "SecurityGroupId.1", group));
        parameters.putAll(attributes);
        return MotoEc2.element(ec2.call("CreateNetworkInterface", parameters), "networkInterfaceId");
    }


    @Test
    void aDeleteWaitsForItsJobsInterfacesInBothZonesAndNotForAnotherDefinitionsInTheSameGroup()
            throws IOException, InterruptedException {
        NetworkInterfaces enis = new NetworkInterfaces(UrlConnectionHttpClient.create(),
                StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTESTTESTTESTTEST", "fake-secret-key")),
                Region.US_EAST_1, moto.endpoint());
        RecordingContext context = new RecordingContext();
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("Id", "Training/Training");
        properties.put("StateMachineArn", STATE_MACHINE);
        properties.put("JobNamePrefix", PREFIX);
        properties.put("SecurityGroupIds", List.of(group));
        properties.put("SubnetIds", List.of(ownSubnet, fallbackSubnet));
        properties.put("JobLifetimeSeconds", "93600");
        properties.put("RoleArn", "arn:aws:iam::123456789012:role/training-data/custom-resource/Training/TeardownRole");
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("RequestType", "Delete");
        event.put("RequestId", "req-1");
        event.put("ResourceType", "Custom::TrainingTeardown");
        event.put("PhysicalResourceId", "TrainingTeardown-teardown");
        event.put("ResourceProperties", Map.of("Definitions", List.of(properties)));
        event.put("Data", Map.of(TrainingTeardownHandler.STARTED, Long.toString(Instant.now().getEpochSecond())));

        // The entry names its teardown role: moto's STS AssumeRole gives the credentials every call then signs with.
        List<String> keys = new ArrayList<>();
        List<SdkAutoCloseable> closing = new ArrayList<>();
        try (StsClient sts = moto.client(StsClient.builder());
                CloudFormationClient cloudFormation = moto.client(CloudFormationClient.builder())) {
            TrainingTeardownHandler handler = new TrainingTeardownHandler(new RoleClients(new AssumedRoles(sts, duration -> {
                throw new AssertionError("no pause in isComplete");
            }), credentials -> {
                keys.add(credentials.resolveCredentials().accessKeyId());
                SfnClient roleSfn = SfnClient.builder().endpointOverride(moto.endpoint()).region(Region.US_EAST_1)
                        .credentialsProvider(credentials).httpClient(UrlConnectionHttpClient.create()).build();
                SageMakerClient roleSageMaker = SageMakerClient.builder().endpointOverride(moto.endpoint())
                        .region(Region.US_EAST_1).credentialsProvider(credentials)
                        .httpClient(UrlConnectionHttpClient.create()).build();
                closing.add(roleSfn);
                closing.add(roleSageMaker);
                return new TeardownClients(roleSfn, roleSageMaker, new NetworkInterfaces(UrlConnectionHttpClient.create(),
                        credentials, Region.US_EAST_1, moto.endpoint()));
            }), cloudFormation, Clock.systemUTC());

            assertEquals(Map.of("IsComplete", false), handler.isComplete(event, context));
            String line = context.lines().get(context.lines().size() - 1);
            assertTrue(line.contains("network interfaces: " + ownZoneInterface + " (available, " + ownSubnet), line);
            assertTrue(line.contains(") of " + OWN_ZONE_JOB + ", " + fallbackInterface + " (available, " + fallbackSubnet), line);
            assertTrue(line.endsWith("other jobs' network interfaces (not waited for): " + otherInterface
                    + " (available, " + ownSubnet + ", type interface, requester AIDAIT2UOQQY3AUEMOTO, 'SageMaker training "
                    + "job " + OTHER_DEFINITIONS_JOB + "') of " + OTHER_DEFINITIONS_JOB), line);

            ec2.call("DeleteNetworkInterface", Map.of("NetworkInterfaceId", ownZoneInterface));
            ec2.call("DeleteNetworkInterface", Map.of("NetworkInterfaceId", fallbackInterface));

            assertEquals(Map.of("IsComplete", true), handler.isComplete(event, context),
                    "the other definition's interface, still in the group and subnet, does not hold the delete");
            assertEquals(List.of(otherInterface), enis.holding(group, List.of(ownSubnet, fallbackSubnet)).stream()
                    .map(NetworkInterface::id).toList());
            assertEquals(1, keys.size(), "one AssumeRole, its credentials kept: " + keys);
            assertTrue(!keys.get(0).equals("test") && !keys.get(0).isEmpty(), "the assumed role's key: " + keys);
        } finally {
            closing.forEach(SdkAutoCloseable::close);
        }
    }
}
