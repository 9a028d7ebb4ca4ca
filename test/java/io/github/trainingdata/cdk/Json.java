package io.github.trainingdata.cdk;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tests' one JSON reader (Jackson, which jsii brings): strict, so anything malformed, a duplicate member or
 * trailing text fails the read with an {@link IllegalArgumentException}. Three views of the same text:
 * {@link #read} a Jackson tree, {@link #value} plain Java values as Jackson maps them, {@link #tree} plain values
 * that compare by value (numbers normalized).
 */
public final class Json {
    /** The shared mapper, configured strictly; for tests that also build or convert Jackson trees. */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private Json() {
    }

    /** @return {@code json} as a Jackson tree */
    public static JsonNode read(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("malformed JSON: " + json, e);
        }
    }

    /**
     * @return {@code json} as ordered maps, lists, strings, booleans, nulls and numbers (Integer or Long for whole
     *     numbers, Double for the rest)
     */
    public static Object value(String json) {
        try {
            return MAPPER.readValue(json, Object.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("malformed JSON: " + json, e);
        }
    }

    /**
     * Parses JSON into a tree that compares by value, with member order ignored and numbers compared
     * numerically ({@code 1} equals {@code 1.0}).
     *
     * @param json the JSON text
     * @return maps, lists, strings, booleans, BigDecimals and nulls
     */
    public static Object tree(String json) {
        try {
            return plain(MAPPER.reader().with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).readTree(json));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("malformed JSON: " + json, e);
        }
    }

    private static Object plain(JsonNode node) {
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            node.properties().forEach(e -> map.put(e.getKey(), plain(e.getValue())));
            return map;
        }
        if (node.isArray()) {
            return node.valueStream().map(Json::plain).toList();
        }
        if (node.isNumber()) {
            return node.decimalValue().stripTrailingZeros();
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isNull()) {
            return null;
        }
        throw new IllegalArgumentException("not JSON: " + node);
    }

    /**
     * Parses a JSON object and adds one string member.
     *
     * @param json  a JSON object
     * @param name  the member to add
     * @param value its value
     * @return the plain tree with the member added
     */
    @SuppressWarnings("unchecked")
    public static Object treeWith(String json, String name, String value) {
        Map<String, Object> map = (Map<String, Object>) tree(json);
        map.put(name, value);
        return map;
    }

    /**
     * The body a launcher sends for a document: the document plus the job name, with the checkpoint URI replaced.
     *
     * @param json          a CreateTrainingJob request document with a {@code CheckpointConfig}
     * @param jobName       the job name
     * @param checkpointUri the {@code CheckpointConfig.S3Uri} the job syncs
     * @return the plain tree
     */
    @SuppressWarnings("unchecked")
    public static Object treeWithJob(String json, String jobName, String checkpointUri) {
        Map<String, Object> map = (Map<String, Object>) treeWith(json, "TrainingJobName", jobName);
        ((Map<String, Object>) map.get("CheckpointConfig")).put("S3Uri", checkpointUri);
        return map;
    }

    /**
     * Collects the dotted paths of every leaf value, for checking how much of a model a document covers.
     *
     * @param tree  a plain tree
     * @param path  the path of {@code tree}
     * @param paths receives the leaf paths
     */
    public static void leafPaths(Object tree, String path, List<String> paths) {
        if (tree instanceof Map<?, ?> map) {
            map.forEach((key, value) -> leafPaths(value, path.isEmpty() ? key.toString() : path + "." + key, paths));
        } else if (tree instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                leafPaths(list.get(i), path + "[" + i + "]", paths);
            }
        } else {
            paths.add(path);
        }
    }
}
