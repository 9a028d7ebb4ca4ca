package io.github.trainingdata.cdk.launch;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallingKnownType;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.protocols.jsoncore.JsonNodeParser;
import software.amazon.awssdk.services.sagemaker.model.CreateTrainingJobRequest;
import software.amazon.awssdk.utils.builder.SdkBuilder;

/**
 * Turns the canonical CreateTrainingJob request document (the API's JSON body, PascalCase members,
 * without {@code TrainingJobName}) into the SDK's {@link CreateTrainingJobRequest}.
 *
 * <p>The conversion walks the SDK model's own field metadata, so every member of the API is accepted
 * exactly as SageMaker names it, and the body the SDK sends is the document plus the job name.
 */
public final class TrainingJobRequestJson {
    private static final String JOB_NAME_MEMBER = "TrainingJobName";
    private static final JsonNodeParser PARSER = JsonNodeParser.create();

    private TrainingJobRequestJson() {
    }

    /**
     * Builds the request for one training job from the document.
     *
     * @param documentJson    the CreateTrainingJob request document, without {@code TrainingJobName}
     * @param trainingJobName the name of the job to start
     * @return the request, ready for {@code SageMakerClient.createTrainingJob}
     * @throws IllegalArgumentException if the document is not JSON, names a member the API does not have,
     *                                  has a value of the wrong JSON type, or already contains
     *                                  {@code TrainingJobName}; the message names the JSON path
     */
    public static CreateTrainingJobRequest toRequest(String documentJson, String trainingJobName) {
        Objects.requireNonNull(documentJson, "documentJson");
        Objects.requireNonNull(trainingJobName, "trainingJobName");
        JsonNode document = parse(documentJson);
        if (!document.isObject()) {
            throw new IllegalArgumentException(
                    "The CreateTrainingJob request document must be a JSON object, got " + describe(document));
        }
        if (document.asObject().containsKey(JOB_NAME_MEMBER)) {
            throw new IllegalArgumentException("The CreateTrainingJob request document must not contain "
                    + JOB_NAME_MEMBER + ": the job name is chosen when the job is started");
        }
        CreateTrainingJobRequest.Builder builder = CreateTrainingJobRequest.builder();
        fillStructure((SdkPojo) builder, document.asObject(), "");
        return builder.trainingJobName(trainingJobName).build();
    }

    /**
     * Builds a request, without a job name, from members of a request document parsed already.
     *
     * @param members CreateTrainingJob members as the API names them
     * @param path    where they are, for messages (e.g. {@code S3Fallback})
     * @return the request with those members
     * @throws IllegalArgumentException as {@link #toRequest(String, String)}, naming the path
     */
    static CreateTrainingJobRequest members(Map<String, JsonNode> members, String path) {
        CreateTrainingJobRequest.Builder builder = CreateTrainingJobRequest.builder();
        fillStructure((SdkPojo) builder, members, path);
        return builder.build();
    }

    private static JsonNode parse(String json) {
        try {
            return PARSER.parse(json);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "The CreateTrainingJob request document is not valid JSON: " + e.getMessage(), e);
        }
    }

    private static void fillStructure(SdkPojo builder, Map<String, JsonNode> members, String path) {
        Map<String, SdkField<?>> fieldsByName = new LinkedHashMap<>();
        for (SdkField<?> field : builder.sdkFields()) {
            fieldsByName.put(field.locationName(), field);
        }
        for (Map.Entry<String, JsonNode> member : members.entrySet()) {
            String memberPath = path.isEmpty() ? member.getKey() : path + "." + member.getKey();
            SdkField<?> field = fieldsByName.get(member.getKey());
            if (field == null) {
                throw new IllegalArgumentException("Unknown member " + memberPath
                        + " in the CreateTrainingJob request document; allowed here: " + fieldsByName.keySet());
            }
            field.set(builder, convert(field, member.getValue(), memberPath));
        }
    }

    private static Object convert(SdkField<?> field, JsonNode node, String path) {
        MarshallingKnownType type = field.marshallingType().getKnownType();
        switch (type) {
            case STRING:
                return expect(node.isString(), "a string", node, path).asString();
            case BOOLEAN:
                return expect(node.isBoolean(), "true or false", node, path).asBoolean();
            case INTEGER:
                return wholeNumber(node, path, Integer.MIN_VALUE, Integer.MAX_VALUE).intValueExact();
            case LONG:
                return wholeNumber(node, path, Long.MIN_VALUE, Long.MAX_VALUE).longValueExact();
            case SDK_POJO:
                SdkPojo nested = field.constructor().get();
                fillStructure(nested, expect(node.isObject(), "an object", node, path).asObject(), path);
                return ((SdkBuilder<?, ?>) nested).build();
            case LIST:
                SdkField<?> memberField = field.getRequiredTrait(ListTrait.class).memberFieldInfo();
                List<JsonNode> elements = expect(node.isArray(), "an array", node, path).asArray();
                List<Object> list = new ArrayList<>(elements.size());
                for (int i = 0; i < elements.size(); i++) {
                    list.add(convert(memberField, elements.get(i), path + "[" + i + "]"));
                }
                return list;
            case MAP:
                SdkField<?> valueField = field.getRequiredTrait(MapTrait.class).valueFieldInfo();
                Map<String, Object> map = new LinkedHashMap<>();
                for (Map.Entry<String, JsonNode> entry
                        : expect(node.isObject(), "an object", node, path).asObject().entrySet()) {
                    map.put(entry.getKey(), convert(valueField, entry.getValue(), path + "." + entry.getKey()));
                }
                return map;
            default:
                throw new IllegalArgumentException(
                        path + " has the SDK type " + type + ", which this converter does not support");
        }
    }

    private static BigDecimal wholeNumber(JsonNode node, String path, long min, long max) {
        BigDecimal value = new BigDecimal(expect(node.isNumber(), "a whole number", node, path).asNumber());
        if (value.stripTrailingZeros().scale() > 0
                || value.compareTo(BigDecimal.valueOf(min)) < 0 || value.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new IllegalArgumentException(
                    path + ": expected a whole number from " + min + " to " + max + ", got " + node.asNumber());
        }
        return value;
    }

    private static JsonNode expect(boolean matches, String expected, JsonNode node, String path) {
        if (!matches) {
            throw new IllegalArgumentException(path + ": expected " + expected + ", got " + describe(node));
        }
        return node;
    }

    private static String describe(JsonNode node) {
        if (node.isNull()) {
            return "null";
        }
        if (node.isObject()) {
            return "an object";
        }
        if (node.isArray()) {
            return "an array";
        }
        return (node.isString() ? "the string " : node.isNumber() ? "the number " : "the boolean ") + node;
    }
}
