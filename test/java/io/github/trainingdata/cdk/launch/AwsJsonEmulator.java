package io.github.trainingdata.cdk.launch;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.trainingdata.cdk.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * A loopback HTTP server that answers AWS awsJson1_1 calls (dispatching on {@code X-Amz-Target}) and form-encoded
 * Query API calls (CloudFormation's and EC2's: dispatching on {@code <signing name>.<Action>}, e.g.
 * {@code cloudformation.DescribeStacks} or {@code ec2.DescribeNetworkInterfaces}, answered in XML) with scripted
 * replies and records every request, so tests can drive the real SDK clients.
 */
public final class AwsJsonEmulator implements AutoCloseable {
    /**
     * One request as the client sent it.
     *
     * @param target        the {@code X-Amz-Target}, or a Query call's {@code <signing name>.<Action>}
     * @param body          the request body
     * @param authorization the {@code Authorization} header (a SigV4 signature names its credential scope)
     */
    public record Call(String target, String body, String authorization) {
        /**
         * The parsed body.
         *
         * @return the JSON body
         */
        public JsonNode json() {
            return Json.read(body);
        }
    }

    /** One scripted HTTP answer. */
    public record Reply(int status, String body) {
        /**
         * A success.
         *
         * @param json the response body
         * @return the reply
         */
        public static Reply ok(String json) {
            return new Reply(200, json);
        }

        /**
         * An AWS error in the awsJson1_1 shape.
         *
         * @param status  the HTTP status
         * @param type    the error code, e.g. {@code ResourceInUse}
         * @param message the error message
         * @return the reply
         */
        public static Reply error(int status, String type, String message) {
            return new Reply(status, "{\"__type\":\"" + type + "\",\"message\":\"" + message + "\"}");
        }

        /**
         * An AWS error in the awsQuery shape ({@code ErrorResponse} XML).
         *
         * @param status  the HTTP status
         * @param code    the error code, e.g. {@code Throttling}
         * @param message the error message
         * @return the reply
         */
        public static Reply queryError(int status, String code, String message) {
            return new Reply(status, "<ErrorResponse><Error><Type>" + (status >= 500 ? "Receiver" : "Sender")
                    + "</Type><Code>" + code + "</Code><Message>" + message + "</Message></Error>"
                    + "<RequestId>request-0</RequestId></ErrorResponse>");
        }
    }

    /** The signing name in a SigV4 Authorization header's credential scope. */
    private static final Pattern QUERY_SCOPE = Pattern.compile("Credential=[^/]+/[^/]+/[^/]+/([^/]+)/aws4_request");

    private final HttpServer server;
    private final List<Call> calls = new ArrayList<>();
    private final Map<String, Function<Call, Reply>> responders = new ConcurrentHashMap<>();

    /**
     * Starts the server on 127.0.0.1 and a free port.
     *
     * @throws IOException if the port cannot be opened
     */
    public AwsJsonEmulator() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    /**
     * Sets how one operation answers.
     *
     * @param target    the {@code X-Amz-Target}, e.g. {@code SageMaker.CreateTrainingJob}, or a Query call's
     *                  {@code Action}, e.g. {@code DescribeNetworkInterfaces}
     * @param responder computes the reply from the call
     * @return this emulator
     */
    public AwsJsonEmulator on(String target, Function<Call, Reply> responder) {
        responders.put(target, responder);
        return this;
    }

    /**
     * Sets an operation to answer with these replies in turn, repeating the last one.
     *
     * @param target  the {@code X-Amz-Target}
     * @param replies the replies
     * @return this emulator
     */
    public AwsJsonEmulator onSequence(String target, Reply... replies) {
        int[] next = {0};
        return on(target, call -> replies[Math.min(next[0]++, replies.length - 1)]);
    }

    /**
     * The requests received so far, in order.
     *
     * @return a copy of the recorded calls
     */
    public synchronized List<Call> calls() {
        return List.copyOf(calls);
    }

    /**
     * The requests received so far for one operation.
     *
     * @param target the {@code X-Amz-Target}
     * @return the matching calls, in order
     */
    public List<Call> calls(String target) {
        return calls().stream().filter(call -> call.target().equals(target)).toList();
    }

    /**
     * Where the emulator listens.
     *
     * @return {@code http://127.0.0.1:<port>}
     */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /**
     * Points a client builder here, with fake credentials and us-east-1, and builds it.
     *
     * @param builder the builder, with its own HTTP client and retry settings
     * @param <B>     the builder type
     * @param <C>     the client type
     * @return the client
     */
    public <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C> C connect(B builder) {
        return builder.endpointOverride(endpoint())
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create("AKIDTESTTESTTESTTEST", "fake-secret-key")))
                .region(Region.US_EAST_1)
                .build();
    }

    /**
     * A SageMaker client for this emulator.
     *
     * @return the client
     */
    public SageMakerClient sageMaker() {
        return connect(SageMakerClient.builder().httpClient(UrlConnectionHttpClient.create()));
    }

    /**
     * A Step Functions client for this emulator.
     *
     * @return the client
     */
    public SfnClient stepFunctions() {
        return connect(SfnClient.builder().httpClient(UrlConnectionHttpClient.create()));
    }

    /**
     * An SSM client for this emulator.
     *
     * @return the client
     */
    public SsmClient ssm() {
        return connect(SsmClient.builder().httpClient(UrlConnectionHttpClient.create()));
    }

    private void handle(HttpExchange exchange) throws IOException {
        String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
        if (target == null) {
            target = queryTarget(exchange.getRequestHeaders().getFirst("Authorization"), request);
        }
        Call call = new Call(target, request, exchange.getRequestHeaders().getFirst("Authorization"));
        synchronized (this) {
            calls.add(call);
        }
        Function<Call, Reply> responder = target == null ? null : responders.get(target);
        Reply reply = responder == null
                ? Reply.error(400, "UnknownOperationException", "No scripted reply for " + target)
                : responder.apply(call);
        byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type",
                reply.body().startsWith("<") ? "text/xml;charset=UTF-8" : "application/x-amz-json-1.1");
        exchange.getResponseHeaders().set("x-amzn-RequestId", "request-" + calls().size());
        exchange.sendResponseHeaders(reply.status(), body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /**
     * The target of an awsQuery call: the service's signing name (from the SigV4 credential scope) and the form's
     * {@code Action}, or null when the request is neither.
     */
    private static String queryTarget(String authorization, String body) {
        Matcher scope = authorization == null ? null : QUERY_SCOPE.matcher(authorization);
        if (scope == null || !scope.find()) {
            return null;
        }
        for (String pair : body.split("&")) {
            if (pair.startsWith("Action=")) {
                return scope.group(1) + "." + URLDecoder.decode(pair.substring(7), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    /**
     * A form field of an awsQuery call.
     *
     * @param call  the call
     * @param field the field, e.g. {@code StackName}
     * @return its decoded value, or null
     */
    public static String formField(Call call, String field) {
        for (String pair : call.body().split("&")) {
            if (pair.startsWith(field + "=")) {
                return URLDecoder.decode(pair.substring(field.length() + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
