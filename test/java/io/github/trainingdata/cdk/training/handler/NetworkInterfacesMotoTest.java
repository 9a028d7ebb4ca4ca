package io.github.trainingdata.cdk.training.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.trainingdata.cdk.MotoServer;
import java.io.IOException;
import java.net.URI;





import java.util.List;
import java.util.Map;



import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;

/**
 * The teardown's EC2 Query call against moto's EC2, an independent implementation of the API: the signed form it
 * sends is understood (filters by security group and subnets) and the XML moto answers is read. Skipped
 * without Python and moto, except under {@code CI=true}.
 */
class NetworkInterfacesMotoTest {
    private static MotoServer moto;
    private static MotoEc2 ec2;
    private static String group;
    private static String otherGroup;
    private static String subnet;
    private static String otherSubnet;
    private static String inBoth;

    @BeforeAll
    static void createNetwork() throws IOException, InterruptedException {
        moto = MotoServer.start();
        ec2 = new MotoEc2(moto);
        String vpc = MotoEc2.element(ec2.call("CreateVpc", Map.of("CidrBlock", "10.0.0.0/16")), "vpcId");
        subnet = MotoEc2.element(ec2.call("CreateSubnet", Map.of("VpcId", vpc, "CidrBlock", "10.0.1.0/24")), "subnetId");
        otherSubnet = MotoEc2.element(ec2.call("CreateSubnet", Map.of("VpcId", vpc, "CidrBlock", "10.0.2.0/24")), "subnetId");
        group = MotoEc2.element(ec2.call("CreateSecurityGroup", Map.of("VpcId", vpc, "GroupName", "training",
                "GroupDescription", "training")), "groupId");
        otherGroup = MotoEc2.element(ec2.call("CreateSecurityGroup", Map.of("VpcId", vpc, "GroupName", "other",
                "GroupDescription", "other")), "groupId");
        inBoth = networkInterface(subnet, group);
        networkInterface(subnet, group);
        networkInterface(otherSubnet, otherGroup);
        networkInterface(subnet, otherGroup);
    }

    @AfterAll
    static void stop() {
        if (moto != null) {
            moto.close();
        }
    }

    private static String networkInterface(String subnetId, String groupId) throws IOException, InterruptedException {
        return MotoEc2.element(ec2.call("CreateNetworkInterface", Map.of("SubnetId", subnetId, "SecurityGroupId.1", groupId,
                "Description", "network interface of a training job")), "networkInterfaceId");
    }


    @Test
    void findsTheInterfacesInTheSubnetsThatCarryTheGroup() {
        NetworkInterfaces enis = new NetworkInterfaces(UrlConnectionHttpClient.create(),
                StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTESTTESTTESTTEST", "fake-secret-key")),
                Region.US_EAST_1, URI.create(moto.endpoint().toString()));

        List<NetworkInterface> found = enis.holding(group, List.of(subnet, otherSubnet));

        assertEquals(2, found.size(), found.toString());
        assertEquals(inBoth, found.get(0).id());
        assertEquals("network interface of a training job", found.get(0).description());
        assertEquals(List.of(), enis.holding(group, List.of(otherSubnet)));
    }
}
