package io.github.trainingdata.cdk.training.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.trainingdata.cdk.MotoServer;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
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
    private static String group;
    private static String otherGroup;
    private static String subnet;
    private static String otherSubnet;
    private static String inBoth;

    @BeforeAll
    static void createNetwork() throws IOException, InterruptedException {
        moto = MotoServer.start();
        String vpc = id(ec2("CreateVpc", Map.of("CidrBlock", "10.0.0.0/16")), "vpcId");
        subnet = id(ec2("CreateSubnet", Map.of("VpcId", vpc, "CidrBlock", "10.0.1.0/24")), "subnetId");
        otherSubnet = id(ec2("CreateSubnet", Map.of("VpcId", vpc, "CidrBlock", "10.0.2.0/24")), "subnetId");
        group = id(ec2("CreateSecurityGroup", Map.of("VpcId", vpc, "GroupName", "training",
                "GroupDescription", "training")), "groupId");
        otherGroup = id(ec2("CreateSecurityGroup", Map.of("VpcId", vpc, "GroupName", "other",
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
        return id(ec2("CreateNetworkInterface", Map.of("SubnetId", subnetId, "SecurityGroupId.1", groupId,
                "Description", "network interface of a training job")), "networkInterfaceId");
    }

    /** One EC2 Query call to moto, which reads the service and Region from the credential scope, not the signature. */
    private static String ec2(String action, Map<String, String> parameters) throws IOException, InterruptedException {
        Map<String, String> form = new LinkedHashMap<>(Map.of("Action", action, "Version", NetworkInterfaces.API_VERSION));
        form.putAll(parameters);
        String body = form.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(moto.endpoint())
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDTESTTESTTESTTEST/20260101/us-east-1/ec2/"
                        + "aws4_request, SignedHeaders=host, Signature=0")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

    private static String id(String xml, String element) {
        Matcher m = Pattern.compile("<" + element + ">([^<]+)</" + element + ">").matcher(xml);
        if (!m.find()) {
            throw new AssertionError(element + " not in " + xml.replace("\n", " "));
        }
        return m.group(1);
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
