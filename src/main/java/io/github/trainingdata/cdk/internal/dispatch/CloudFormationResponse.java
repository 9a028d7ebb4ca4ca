package io.github.trainingdata.cdk.internal.dispatch;

import com.amazonaws.services.lambda.runtime.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Answers CloudFormation for a custom resource: the response object ({@code Status}, {@code Reason},
 * {@code PhysicalResourceId}, {@code StackId}, {@code RequestId}, {@code LogicalResourceId}, {@code Data}) put as JSON
 * to the request's pre-signed {@code ResponseURL}, with an empty content type (CloudFormation's guide, custom resource
 * response objects: "The total size of the response body can't exceed 4096 bytes"; the reason is shortened to fit).
 * A put that fails (an I/O error or a status other than 2xx) is tried {@value #ATTEMPTS} times, waiting 1, 2, 4 and 8
 * seconds between tries.
 */
final class CloudFormationResponse {
    /** The most bytes CloudFormation takes in a response body. */
    static final int MAX_BODY_BYTES = 4096;
    /** Tries of one put. */
    static final int ATTEMPTS = 5;
    /** The limit of one try's request. */
    static final Duration TRY_TIMEOUT = Duration.ofSeconds(30);
    /** The longest a send of the Lambda's sender takes: every try to its limit, and the pauses between them. */
    static final Duration LONGEST = TRY_TIMEOUT.multipliedBy(ATTEMPTS).plusSeconds(1 + 2 + 4 + 8);
    private static final String SHORTENED = " [...]";
    private final HttpClient http;
    private final Duration firstPause;

    /** The sender a Lambda function uses: 10-second connect and 30-second request limits, 1 s before the 2nd try. */
    CloudFormationResponse() {
        this(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build(), Duration.ofSeconds(1));
    }

    /**
     * @param http       the HTTP client
     * @param firstPause the pause before the second try (doubled before each further one)
     */
    CloudFormationResponse(HttpClient http, Duration firstPause) {
        this.http = http;
        this.firstPause = firstPause;
    }

    /**
     * Sends the response.
     *
     * @param status     {@code SUCCESS} or {@code FAILED}
     * @param reason     why (shortened to fit the body)
     * @param physicalId the resource's physical id
     * @param request    the request answered (its ids and {@code ResponseURL})
     * @param data       the attributes, empty when there are none
     * @param context    the Lambda context (its logger)
     * @throws UncheckedIOException when no try succeeded
     */
    void send(String status, String reason, String physicalId, Map<String, Object> request, Map<String, Object> data,
            Context context) {
        byte[] body = body(status, reason, physicalId, request, data);
        URI url = URI.create(String.valueOf(request.get("ResponseURL")));
        context.getLogger().log(status + " " + request.get("LogicalResourceId") + " " + physicalId + " ("
                + body.length + " bytes) to " + url.getScheme() + "://" + url.getHost() + url.getPath());
        HttpRequest put = HttpRequest.newBuilder(url)
                .timeout(TRY_TIMEOUT)
                .header("Content-Type", "")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        Duration pause = firstPause;
        String failure = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                HttpResponse<String> response = http.send(put, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() / 100 == 2) {
                    return;
                }
                failure = "HTTP " + response.statusCode() + " " + response.body();
            } catch (IOException e) {
                failure = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UncheckedIOException(new IOException("interrupted", e));
            }
            context.getLogger().log("The response put failed (try " + attempt + " of " + ATTEMPTS + "): " + failure);
            if (attempt < ATTEMPTS) {
                pause(pause);
                pause = pause.multipliedBy(2);
            }
        }
        throw new UncheckedIOException(new IOException("CloudFormation's response URL refused the response "
                + ATTEMPTS + " times; the last: " + failure));
    }

    private static void pause(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted", e));
        }
    }

    /**
     * The response body, at most {@value #MAX_BODY_BYTES} bytes: a reason that does not fit is shortened (ending in
     * {@value #SHORTENED}); a success whose {@code Data} alone does not fit becomes a failure that says so.
     *
     * @return the JSON body
     */
    static byte[] body(String status, String reason, String physicalId, Map<String, Object> request,
            Map<String, Object> data) {
        byte[] body = render(status, reason, physicalId, request, data);
        if (body.length <= MAX_BODY_BYTES) {
            return body;
        }
        // The longest prefix of the reason (in code points) whose body fits: JSON may escape a character to 6 bytes.
        int[] codePoints = reason.codePoints().toArray();
        int fits = -1;
        int low = 0;
        int high = codePoints.length;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            byte[] candidate = render(status, new String(codePoints, 0, middle) + SHORTENED, physicalId, request, data);
            if (candidate.length <= MAX_BODY_BYTES) {
                fits = middle;
                body = candidate;
                low = middle + 1;
            } else {
                high = middle - 1;
            }
        }
        if (fits >= 0) {
            return body;
        }
        String tooLarge = "The response of " + request.get("LogicalResourceId") + " with its Data does not fit "
                + "CloudFormation's " + MAX_BODY_BYTES + " bytes";
        return render("FAILED", tooLarge, physicalId, request, Map.of());
    }

    private static byte[] render(String status, String reason, String physicalId, Map<String, Object> request,
            Map<String, Object> data) {
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("Status", status);
        response.put("Reason", reason);
        response.put("PhysicalResourceId", physicalId);
        response.put("StackId", request.get("StackId"));
        response.put("RequestId", request.get("RequestId"));
        response.put("LogicalResourceId", request.get("LogicalResourceId"));
        if (!data.isEmpty()) {
            response.put("Data", data);
        }
        return JsonText.of(response);
    }
}
