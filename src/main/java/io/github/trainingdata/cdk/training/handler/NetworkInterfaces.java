package io.github.trainingdata.cdk.training.handler;

import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.ServiceMetadata;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;

/**
 * EC2's DescribeNetworkInterfaces over the EC2 Query API (a form-encoded POST, signed with the SDK's SigV4 signer,
 * answered in XML), so the handler bundle needs no EC2 SDK module (a 24 MB jar) for this one read-only call.
 * Errors come back as {@link AwsServiceException}s with EC2's error code and HTTP status, so
 * {@link SdkCalls#isTransient} tells throttling ({@code RequestLimitExceeded}) and 5xx answers from the rest;
 * network errors and timeouts are {@link SdkClientException}s caused by an {@link IOException}.
 */
final class NetworkInterfaces {
    /** The EC2 API version of the Query protocol (botocore {@code ec2/2016-11-15}). */
    static final String API_VERSION = "2016-11-15";
    private static final int PAGE_SIZE = 1000;
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(30);

    private final SdkHttpClient http;
    private final AwsCredentialsProvider credentials;
    private final Region region;
    private final URI endpoint;

    /**
     * A client for one Region's EC2 endpoint.
     *
     * @param http        the HTTP client
     * @param credentials signs each call
     * @param region      the signing Region
     * @param endpoint    EC2's endpoint, e.g. {@code https://ec2.us-east-1.amazonaws.com}
     */
    NetworkInterfaces(SdkHttpClient http, AwsCredentialsProvider credentials, Region region, URI endpoint) {
        this.http = Objects.requireNonNull(http, "http");
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.region = Objects.requireNonNull(region, "region");
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    }

    /**
     * The client Lambda runs with: the function's Region and credentials, and EC2's endpoint in that Region (or
     * the SDK's endpoint override {@code aws.endpointUrl} / {@code AWS_ENDPOINT_URL}, as the SDK clients honour it).
     *
     * @param credentials signs each call: the function's own, or those of a role it assumed
     * @return the client
     */
    static NetworkInterfaces fromEnvironment(AwsCredentialsProvider credentials) {
        Region region = new DefaultAwsRegionProviderChain().getRegion();
        String override = Optional.ofNullable(System.getProperty("aws.endpointUrl"))
                .orElse(System.getenv("AWS_ENDPOINT_URL"));
        URI endpoint = override != null ? URI.create(override)
                : URI.create("https://" + ServiceMetadata.of("ec2").endpointFor(region));
        return new NetworkInterfaces(UrlConnectionHttpClient.builder().socketTimeout(SOCKET_TIMEOUT).build(),
                credentials, region, endpoint);
    }

    /**
     * The network interfaces in any of {@code subnetIds} that carry {@code securityGroupId}: what stops EC2 from
     * deleting that group and those subnets.
     *
     * @param securityGroupId the group
     * @param subnetIds       the subnets; none: in any subnet
     * @return every such interface, all pages read
     * @throws AwsServiceException an error EC2 answered with
     * @throws SdkClientException  a network error or timeout
     */
    List<NetworkInterface> holding(String securityGroupId, List<String> subnetIds) {
        StringBuilder filters = new StringBuilder("Action=DescribeNetworkInterfaces&Version=" + API_VERSION)
                .append("&Filter.1.Name=group-id&Filter.1.Value.1=").append(encode(securityGroupId));
        if (!subnetIds.isEmpty()) {
            filters.append("&Filter.2.Name=subnet-id");
        }
        for (int i = 0; i < subnetIds.size(); i++) {
            filters.append("&Filter.2.Value.").append(i + 1).append('=').append(encode(subnetIds.get(i)));
        }
        filters.append("&MaxResults=").append(PAGE_SIZE);
        List<NetworkInterface> found = new ArrayList<>();
        String token = null;
        do {
            Element response = call(token == null ? filters.toString() : filters + "&NextToken=" + encode(token));
            Element set = child(response, "networkInterfaceSet");
            if (set != null) {
                for (Element item : children(set, "item")) {
                    found.add(new NetworkInterface(text(item, "networkInterfaceId"), text(item, "subnetId"),
                            text(item, "status"), text(item, "interfaceType"), text(item, "requesterId"),
                            text(item, "description"), tagValues(item)));
                }
            }
            token = text(response, "nextToken");
        } while (token != null && !token.isEmpty());
        return found;
    }

    /** The values of {@code <tagSet><item><key/><value/></item>…</tagSet>}, in order. */
    private static List<String> tagValues(Element item) {
        Element tags = child(item, "tagSet");
        List<String> values = new ArrayList<>();
        if (tags != null) {
            for (Element tag : children(tags, "item")) {
                String value = text(tag, "value");
                if (value != null) {
                    values.add(value);
                }
            }
        }
        return values;
    }

    private Element call(String form) {
        byte[] body = form.getBytes(StandardCharsets.UTF_8);
        SdkHttpFullRequest request = SdkHttpFullRequest.builder()
                .method(SdkHttpMethod.POST)
                .uri(endpoint)
                .putHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                .putHeader("Content-Length", Integer.toString(body.length))
                .build();
        SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r
                .identity(credentials.resolveCredentials())
                .request(request)
                .payload(ContentStreamProvider.fromByteArray(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "ec2")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region.id()));
        int status;
        byte[] answer;
        try {
            HttpExecuteResponse response = http.prepareRequest(HttpExecuteRequest.builder()
                    .request(signed.request())
                    .contentStreamProvider(signed.payload().orElse(null))
                    .build()).call();
            status = response.httpResponse().statusCode();
            try (InputStream in = response.responseBody().map(InputStream.class::cast)
                    .orElseGet(() -> new ByteArrayInputStream(new byte[0]))) {
                answer = in.readAllBytes();
            }
        } catch (IOException e) {
            throw SdkClientException.create("DescribeNetworkInterfaces: " + e.getMessage(), e);
        }
        Element root = parse(answer, status);
        if (status / 100 != 2) {
            throw error(root, status);
        }
        return root;
    }

    /** An EC2 error: {@code <Response><Errors><Error><Code/><Message/></Error></Errors>...}. */
    private static AwsServiceException error(Element root, int status) {
        Element errors = root == null ? null : child(root, "Errors");
        Element error = errors == null ? null : child(errors, "Error");
        String code = error == null ? "HTTP" + status : text(error, "Code");
        String message = error == null ? "EC2 answered HTTP " + status : text(error, "Message");
        return AwsServiceException.builder()
                .message(message)
                .statusCode(status)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(message).serviceName("EC2")
                        .build())
                .build();
    }

    private static Element parse(byte[] xml, int status) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(null);
            return builder.parse(new ByteArrayInputStream(xml)).getDocumentElement();
        } catch (SAXException | IOException e) {
            if (status / 100 != 2) {
                return null;
            }
            throw SdkClientException.create("DescribeNetworkInterfaces answered with a body that is not XML: "
                    + e.getMessage(), e);
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("This JVM's XML parser cannot be configured securely", e);
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && name.equals(element.getTagName())) {
                found.add(element);
            }
        }
        return found;
    }

    private static Element child(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static String text(Element parent, String name) {
        Element element = child(parent, name);
        return element == null ? null : element.getTextContent();
    }
}
