package io.github.trainingdata.cdk.training.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.trainingdata.cdk.MotoServer;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** EC2 Query calls to moto's EC2, for tests that lay out the VPC, subnets and interfaces a teardown looks at. */
final class MotoEc2 {
    private final MotoServer moto;

    MotoEc2(MotoServer moto) {
        this.moto = moto;
    }

    /** One EC2 Query call to moto, which reads the service and Region from the credential scope, not the signature. */
    String call(String action, Map<String, String> parameters) throws IOException, InterruptedException {
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

    /** The text of the first {@code element} of an EC2 answer. */
    static String element(String xml, String element) {
        Matcher m = Pattern.compile("<" + element + ">([^<]+)</" + element + ">").matcher(xml);
        if (!m.find()) {
            throw new AssertionError(element + " not in " + xml.replace("\n", " "));
        }
        return m.group(1);
    }
}
