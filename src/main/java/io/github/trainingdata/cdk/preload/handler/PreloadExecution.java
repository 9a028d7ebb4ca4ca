package io.github.trainingdata.cdk.preload.handler;

import java.nio.charset.StandardCharsets;
import java.util.List;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.protocols.jsoncore.JsonWriter;

/**
 * One execution of the preload state machine: its ARN, named after the worker so a retried request finds
 * it, the input the handler starts it with, and the status its output reports.
 */
final class PreloadExecution {
    private static final String STATE_MACHINE = ":stateMachine:";

    private PreloadExecution() {
    }

    /**
     * @param stateMachineArn {@code arn:<partition>:states:<region>:<account>:stateMachine:<name>}
     * @param name            the execution's name
     * @return {@code arn:<partition>:states:<region>:<account>:execution:<state machine name>:<name>}
     */
    static String arn(String stateMachineArn, String name) {
        return stateMachineArn.replace(STATE_MACHINE, ":execution:") + ":" + name;
    }

    /**
     * The execution input, rendered in a fixed order so that the same request always sends the same input
     * (StartExecution is idempotent only for the same name and input).
     *
     * @param workerJobName the worker's name
     * @param fileSystemId  the file system
     * @param locations     the data locations
     * @return the input JSON
     */
    static String input(String workerJobName, String fileSystemId, List<S3Location> locations) {
        JsonWriter json = JsonWriter.create();
        json.writeStartObject();
        json.writeFieldName(PreloadExecutionInput.WORKER_JOB_NAME).writeValue(workerJobName);
        json.writeFieldName(PreloadExecutionInput.FILE_SYSTEM_ID).writeValue(fileSystemId);
        json.writeFieldName(PreloadExecutionInput.DATA_LOCATIONS).writeStartArray();
        for (S3Location location : locations) {
            json.writeStartObject();
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
     * @param output a succeeded execution's output
     * @return its {@value PreloadStatus#OUTPUT_FIELD} field, or empty when there is none
     */
    static String status(String output) {
        if (output == null || output.isBlank()) {
            return "";
        }
        JsonNode node = JsonNode.parser().parse(output);
        if (!node.isObject()) {
            return "";
        }
        JsonNode status = node.asObject().get(PreloadStatus.OUTPUT_FIELD);
        return status != null && status.isString() ? status.asString() : "";
    }
}
