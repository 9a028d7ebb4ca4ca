package io.github.trainingdata.cdk.preload.handler;

import io.github.trainingdata.cdk.internal.handler.Sha256;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.protocols.jsoncore.JsonWriter;

/**
 * One execution of the preload state machine: its name, the input the handler starts it with, and what its output
 * reports.
 *
 * <p>An execution is named {@code <WorkerJobNamePrefix>-<8 hex of sha256(WarmKey)>-<12 hex of sha256(request)>}
 * (at most 26 + 22 = 48 characters): the request part makes a repeated delivery of a CloudFormation request find the
 * execution it started instead of starting another, the WarmKey part says which configuration it warmed, so that a
 * rollback can find the execution of the configuration it restores ({@code ListExecutions}). Its first worker has
 * the same name ({@link WorkerAttempts}).
 *
 * <p>CloudFormation sends a retried deployment's request again with the same {@code RequestId} (aws-cdk#35957; no AWS
 * page says so), and Step Functions keeps a name 90 days, answering {@code ExecutionAlreadyExists} for a closed
 * execution whatever the input (StartExecution, API reference). So a request has up to {@value #MAX_ATTEMPTS} names:
 * attempt 1 digests the request as before, attempt {@code n} digests the request plus {@code |n}. The names keep the
 * shape and length, the WarmKey digest among them, so IAM scopes, {@link #warms}, rollbacks and the dashboard read
 * them as before.
 */
final class PreloadExecution {
    private static final int WARM_KEY_HEX_DIGITS = 8;
    private static final int REQUEST_HEX_DIGITS = 12;
    /**
     * The most executions one CloudFormation request starts: a retry of the request starts the next attempt only when
     * the last one ended without success, so each is a deploy someone retried after a failed warm-up.
     */
    static final int MAX_ATTEMPTS = 5;

    private PreloadExecution() {
    }

    /**
     * @param prefix  the worker job-name prefix
     * @param warmKey the WarmKey property of the configuration the execution warms
     * @param request what identifies the CloudFormation request
     * @return the execution's name
     */
    static String name(String prefix, String warmKey, String request) {
        return prefix + "-" + Sha256.hex(warmKey).substring(0, WARM_KEY_HEX_DIGITS) + "-"
                + Sha256.hex(request).substring(0, REQUEST_HEX_DIGITS);
    }

    /**
     * @param prefix  the worker job-name prefix
     * @param warmKey the WarmKey property of the configuration the execution warms
     * @param request what identifies the CloudFormation request
     * @param attempt 1 to {@value #MAX_ATTEMPTS}: which of the request's executions
     * @return the attempt's execution name: {@link #name(String, String, String)} of the request, plus {@code |n}
     *         from the second attempt on
     */
    static String name(String prefix, String warmKey, String request, int attempt) {
        if (attempt < 1 || attempt > MAX_ATTEMPTS) {
            throw new IllegalArgumentException("attempt " + attempt + " is not 1 to " + MAX_ATTEMPTS);
        }
        return name(prefix, warmKey, attempt == 1 ? request : request + "|" + attempt);
    }

    /**
     * @param name    an execution's name (or a physical id)
     * @param prefix  the worker job-name prefix
     * @param warmKey a WarmKey
     * @return whether the name is that of an execution under {@code prefix} that warmed {@code warmKey}
     */
    static boolean warms(String name, String prefix, String warmKey) {
        String expected = prefix + "-" + Sha256.hex(warmKey).substring(0, WARM_KEY_HEX_DIGITS) + "-";
        return name.startsWith(expected) && Pattern.matches("[0-9a-f]{" + REQUEST_HEX_DIGITS + "}",
                name.substring(expected.length()));
    }

    /**
     * The execution input, rendered in a fixed order so that the same request always sends the same input
     * (StartExecution is idempotent only for the same name and input).
     *
     * @param fileSystemId the file system
     * @param locations    the data locations, in the order of the worker's channels
     * @return the input JSON
     */
    static String input(String fileSystemId, List<S3Location> locations) {
        JsonWriter json = JsonWriter.create();
        json.writeStartObject();
        json.writeFieldName(PreloadExecutionInput.FILE_SYSTEM_ID).writeValue(fileSystemId);
        json.writeFieldName(PreloadExecutionInput.DATA_LOCATIONS).writeStartArray();
        for (S3Location location : locations) {
            json.writeStartObject();
            json.writeFieldName(PreloadExecutionInput.URI).writeValue(location.uri());
            json.writeFieldName(PreloadExecutionInput.BUCKET).writeValue(location.bucket());
            if (!location.prefix().isEmpty()) {
                json.writeFieldName(PreloadExecutionInput.PREFIX).writeValue(location.prefix());
                json.writeFieldName(PreloadExecutionInput.START_AFTER).writeValue(location.prefix());
            }
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
        return new String(json.getBytes(), StandardCharsets.UTF_8);
    }

    /**
     * What a succeeded execution reports.
     *
     * @param status         its {@link PreloadStatus}, or empty when the output has none
     * @param workerJobName  the worker that warmed the cache, or null when the output names none
     * @param emptyLocations the data locations that held no object
     */
    record Output(String status, String workerJobName, List<String> emptyLocations) {
        /**
         * Reads an execution's output; anything missing or malformed reads as absent.
         *
         * @param output the execution's output JSON
         * @return what it reports
         */
        static Output parse(String output) {
            JsonNode node = output == null || output.isBlank() ? null : JsonNode.parser().parse(output);
            if (node == null || !node.isObject()) {
                return new Output("", null, List.of());
            }
            JsonNode status = node.asObject().get(PreloadExecutionOutput.STATUS);
            JsonNode worker = node.asObject().get(PreloadExecutionOutput.WORKER_JOB_NAME);
            JsonNode empty = node.asObject().get(PreloadExecutionOutput.EMPTY_LOCATIONS);
            List<String> emptyLocations = new ArrayList<>();
            if (empty != null && empty.isArray()) {
                empty.asArray().stream().filter(JsonNode::isString).map(JsonNode::asString).forEach(emptyLocations::add);
            }
            return new Output(status != null && status.isString() ? status.asString() : "",
                    worker != null && worker.isString() ? worker.asString() : null, List.copyOf(emptyLocations));
        }
    }
}
