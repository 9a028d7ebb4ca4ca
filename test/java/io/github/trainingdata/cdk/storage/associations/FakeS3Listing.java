package io.github.trainingdata.cdk.storage.associations;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3's ListObjectsV2 behind a loopback HTTP server (path-style REST XML, as the S3 API reference shows it): each
 * location {@code s3://bucket/prefix/} holds a set number of objects (10 unless told), served in pages of
 * {@code max-keys} with a continuation token. Records each listed location.
 */
final class FakeS3Listing implements AutoCloseable {
    private final HttpServer server;
    private final Map<String, Long> counts = new HashMap<>();
    private final List<String> listed = new ArrayList<>();

    FakeS3Listing() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String bucket = exchange.getRequestURI().getPath().substring(1);
            Map<String, String> query = new HashMap<>();
            String raw = exchange.getRequestURI().getRawQuery();
            for (String pair : raw == null ? new String[0] : raw.split("&")) {
                int eq = pair.indexOf('=');
                query.put(eq < 0 ? pair : pair.substring(0, eq),
                        eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
            String location = "s3://" + bucket + "/" + query.getOrDefault("prefix", "");
            long total;
            synchronized (this) {
                listed.add(location);
                total = counts.getOrDefault(location, 10L);
            }
            long from = Long.parseLong(query.getOrDefault("continuation-token", "0"));
            long page = Long.parseLong(query.getOrDefault("max-keys", "1000"));
            long keys = Math.max(0, Math.min(page, total - from));
            boolean truncated = from + keys < total;
            String body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult "
                    + "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>" + bucket + "</Name><Prefix>"
                    + query.getOrDefault("prefix", "") + "</Prefix><KeyCount>" + keys + "</KeyCount><MaxKeys>" + page
                    + "</MaxKeys><IsTruncated>" + truncated + "</IsTruncated>"
                    + (truncated ? "<NextContinuationToken>" + (from + keys) + "</NextContinuationToken>" : "")
                    + "</ListBucketResult>";
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/xml");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
    }

    /** The location holds this many objects. */
    synchronized void holds(String location, long objects) {
        counts.put(location, objects);
    }

    /** @return the locations listed so far, one entry per page */
    synchronized List<String> listed() {
        return List.copyOf(listed);
    }

    /** @return an S3 client for this server, path-style, with fake credentials and us-east-1 */
    S3Client client() {
        return LocationObjects.clientBuilder()
                .endpointOverride(URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create("AKIDTESTTESTTESTTEST", "fake-secret-key")))
                .region(Region.US_EAST_1)
                .build();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
