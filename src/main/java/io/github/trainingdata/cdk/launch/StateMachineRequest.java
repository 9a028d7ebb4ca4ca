package io.github.trainingdata.cdk.launch;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.protocols.jsoncore.JsonWriter;

/**
 * Where a definition whose request is too large for its SSM parameter keeps it: the parameter holds
 * {@code {"RequestInStateMachine": {"StateMachineArn": …, "StateName": "Train", "CheckpointS3Uri": …}}}, and the
 * request is that state's {@code Parameters} in the state machine's definition (deployed with it, so always the
 * same request the state machine trains with), less what each execution fills in: {@code TrainingJobName.$} and
 * the checkpoint URI, whose base the pointer keeps.
 *
 * @param stateMachineArn the definition's state machine
 * @param stateName       the state whose Parameters are the request
 * @param checkpointS3Uri the base checkpoint URI, or null when the definition keeps no checkpoints
 */
record StateMachineRequest(String stateMachineArn, String stateName, String checkpointS3Uri) {
    private static final String CHECKPOINT_CONFIG = "CheckpointConfig";
    private static final String PATH_SUFFIX = ".$";

    /**
     * Reads a pointer from a parameter's value.
     *
     * @param parameterValue the SSM parameter's value
     * @return the pointer, or empty when the value is not one (it is then the request itself)
     * @throws IllegalArgumentException for a pointer without a state machine ARN or state name
     */
    static Optional<StateMachineRequest> from(String parameterValue) {
        return RequestPointer.members(parameterValue, DeployedTrainingJobDefinition.REQUEST_IN_STATE_MACHINE)
                .map(members -> new StateMachineRequest(
                        required(members, DeployedTrainingJobDefinition.STATE_MACHINE_ARN),
                        required(members, DeployedTrainingJobDefinition.STATE_NAME),
                        optional(members, DeployedTrainingJobDefinition.CHECKPOINT_S3_URI)));
    }

    /**
     * The request document the state machine's definition holds.
     *
     * @param definitionJson the state machine's definition, as DescribeStateMachine returns it
     * @return the CreateTrainingJob request document, without {@code TrainingJobName}
     * @throws IllegalArgumentException when the definition has no such state, or a member it cannot restore
     */
    String document(String definitionJson) {
        JsonNode definition = JsonNode.parser().parse(definitionJson);
        JsonNode parameters = definition.field("States").flatMap(states -> states.field(stateName))
                .flatMap(state -> state.field("Parameters")).filter(JsonNode::isObject)
                .orElseThrow(() -> new IllegalArgumentException("State machine " + stateMachineArn + " has no state "
                        + stateName + " with Parameters: is it a training definition's state machine?"));
        JsonWriter json = JsonWriter.create();
        json.writeStartObject();
        for (Map.Entry<String, JsonNode> member : parameters.asObject().entrySet()) {
            String name = member.getKey();
            if (name.equals("TrainingJobName" + PATH_SUFFIX)) {
                continue;
            }
            if (name.endsWith(PATH_SUFFIX)) {
                throw new IllegalArgumentException("State " + stateName + " of " + stateMachineArn + " computes "
                        + name + " at run time: it holds no request document");
            }
            json.writeFieldName(name);
            if (name.equals(CHECKPOINT_CONFIG)) {
                checkpointConfig(json, member.getValue());
            } else {
                write(json, member.getValue());
            }
        }
        json.writeEndObject();
        return new String(json.getBytes(), StandardCharsets.UTF_8);
    }

    /** The checkpoint configuration with its base URI in place of the per-execution {@code S3Uri.$}. */
    private void checkpointConfig(JsonWriter json, JsonNode config) {
        if (checkpointS3Uri == null) {
            throw new IllegalArgumentException("State " + stateName + " of " + stateMachineArn + " keeps checkpoints, "
                    + "but the parameter names no " + DeployedTrainingJobDefinition.CHECKPOINT_S3_URI);
        }
        json.writeStartObject();
        json.writeFieldName("S3Uri").writeValue(checkpointS3Uri);
        for (Map.Entry<String, JsonNode> member : config.asObject().entrySet()) {
            if (!member.getKey().endsWith(PATH_SUFFIX)) {
                json.writeFieldName(member.getKey());
                write(json, member.getValue());
            }
        }
        json.writeEndObject();
    }

    private static void write(JsonWriter json, JsonNode node) {
        if (node.isObject()) {
            json.writeStartObject();
            for (Map.Entry<String, JsonNode> member : node.asObject().entrySet()) {
                json.writeFieldName(member.getKey());
                write(json, member.getValue());
            }
            json.writeEndObject();
        } else if (node.isArray()) {
            json.writeStartArray();
            List<JsonNode> items = node.asArray();
            items.forEach(item -> write(json, item));
            json.writeEndArray();
        } else if (node.isString()) {
            json.writeValue(node.asString());
        } else if (node.isNumber()) {
            json.writeNumber(node.asNumber());
        } else if (node.isBoolean()) {
            json.writeValue(node.asBoolean());
        } else {
            json.writeNull();
        }
    }

    private static String required(Map<String, JsonNode> members, String name) {
        String value = optional(members, name);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("The request pointer has no " + name);
        }
        return value;
    }

    private static String optional(Map<String, JsonNode> members, String name) {
        JsonNode value = members.get(name);
        return value != null && value.isString() ? value.asString() : null;
    }
}
