package io.github.trainingdata.cdk.launch;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/** Turns JSON text into plain Java values (maps, lists, strings, booleans, normalized numbers) for equality. */
public final class JsonTrees {
    private JsonTrees() {
    }

    /**
     * Parses JSON into a tree that compares by value, with member order ignored and numbers compared
     * numerically ({@code 1} equals {@code 1.0}).
     *
     * @param json the JSON text
     * @return maps, lists, strings, booleans, BigDecimals and nulls
     */
    public static Object tree(String json) {
        return plain(JsonNode.parser().parse(json));
    }

    /**
     * The same as {@link #tree(String)}, for a parsed node.
     *
     * @param node the node
     * @return the plain value
     */
    public static Object plain(JsonNode node) {
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            node.asObject().forEach((key, value) -> map.put(key, plain(value)));
            return map;
        }
        if (node.isArray()) {
            return node.asArray().stream().map(JsonTrees::plain).toList();
        }
        if (node.isNumber()) {
            return new BigDecimal(node.asNumber()).stripTrailingZeros();
        }
        if (node.isString()) {
            return node.asString();
        }
        if (node.isBoolean()) {
            return node.asBoolean();
        }
        return null;
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
