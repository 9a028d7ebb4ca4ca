package io.github.trainingdata.cdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A loopback stand-in for CloudFormation's pre-signed response URL: it keeps each response body put to it. */
public final class ResponseUrlServer implements AutoCloseable {
    private final HttpServer server;
    private final List<String> bodies = new ArrayList<>();

    /**
     * Starts the server on 127.0.0.1 and a free port.
     *
     * @throws IOException if the port cannot be opened
     */
    public ResponseUrlServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            synchronized (bodies) {
                bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
    }

    /** @return the URL a request names as its {@code ResponseURL} */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/stack%7CResource%7Crequest?X-Amz-Signature=a";
    }

    /** @return the response bodies received, parsed, in order */
    public List<JsonNode> responses() {
        synchronized (bodies) {
            return bodies.stream().map(Json::read).toList();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
