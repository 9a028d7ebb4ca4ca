package io.github.trainingdata.cdk.launch;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.protocols.jsoncore.JsonWriter;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterNotFoundException;

/**
 * Fills in what a request document (or capacity plan) reads of stores and networks in other stacks when a launch
 * starts. A definition that reads a Lustre cache or an EFS store of another stack, or runs in a network of another
 * stack, stores {@code {{DataStore:<parameter>:<member>}}} where a published value goes (a store's
 * {@code FileSystemId}, a cache's {@code MountName} inside a {@code DirectoryPath}, as the whole value of
 * {@code VpcConfig.Subnets} the {@code Subnets}, the network's training {@code SecurityGroupId}, and in the capacity
 * plan the S3 fallback's {@code StorageSubnets} and {@code StorageZones}); this reads each named SSM parameter once,
 * now, and puts the current values in. A missing parameter, or one without a value a job needs, fails the launch with a
 * {@link DataStoreNotReadyException} naming the store and the parameter: no job mounts a file system that is gone.
 */
public final class DataStoreBindings {
    /** A placeholder: the parameter's name, then the member of its document. */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{DataStore:([A-Za-z0-9_./-]+):([A-Za-z]+)}}");
    /** A placeholder that is a whole JSON string (a list member such as Subnets replaces the string). */
    private static final Pattern WHOLE = Pattern.compile("\"" + PLACEHOLDER.pattern() + "\"");
    /** JSON's whitespace. */
    private static final String WS = "[ \\t\\n\\r]*";
    /** A JSON string (a backslash written {@code \x5c}, which JSONata's regular-expression scanner reads right). */
    private static final String STRING = "\"(?:[^\"\\x5c\\x00-\\x1f]|\\x5c(?:[\"\\x5c/bfnrt]|u[0-9a-fA-F]{4}))*\"";
    private static final String SCALAR = "(?:" + STRING + "|-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true"
            + "|false|null)";
    private static final String VALUE = "(?:" + SCALAR + "|\\[" + WS + "(?:" + SCALAR + "(?:" + WS + "," + WS + SCALAR
            + ")*)?" + WS + "\\])";
    private static final String MEMBER = STRING + WS + ":" + WS + VALUE;
    /**
     * A publication's document: a JSON object whose members are strings, numbers, booleans, nulls or lists of them
     * (a regular expression, anchored, the same in Java and JSONata). The training state machine parses a value only
     * once it matches, so that a value that is not JSON fails as {@code DataStoreIncomplete}, never in the parse.
     */
    public static final String DOCUMENT = "^" + WS + "\\{" + WS + "(?:" + MEMBER + "(?:" + WS + "," + WS + MEMBER
            + ")*)?" + WS + "\\}" + WS + "$";
    /** A published {@code FileSystemId} (anchored; the same in Java and JSONata). */
    public static final String FILE_SYSTEM_ID = "^fs-[0-9a-f]{8,}$";
    /** A published Lustre {@code MountName}. */
    public static final String MOUNT_NAME = "^[A-Za-z0-9_-]{1,8}$";
    /** Each of the published {@code Subnets} and {@code StorageSubnets}. */
    public static final String SUBNET_ID = "^subnet-[0-9a-z]+$";
    /** A published {@code SecurityGroupId}. */
    public static final String SECURITY_GROUP_ID = "^sg-[0-9a-z]+$";

    private DataStoreBindings() {
    }

    /**
     * @param ssm          the client to read the parameters with
     * @param documentJson a CreateTrainingJob request document, maybe with placeholders
     * @return the document with every placeholder filled in (the same document when it has none)
     * @throws DataStoreNotReadyException when a store's parameter does not exist or lacks a value
     */
    public static String resolve(SsmClient ssm, String documentJson) {
        Objects.requireNonNull(ssm, "ssm");
        Map<String, Map<String, JsonNode>> documents = new LinkedHashMap<>();
        Matcher whole = WHOLE.matcher(documentJson);
        StringBuilder out = new StringBuilder();
        while (whole.find()) {
            JsonNode value = member(ssm, documents, whole.group(1), whole.group(2));
            whole.appendReplacement(out, Matcher.quoteReplacement(json(value)));
        }
        whole.appendTail(out);
        Matcher inner = PLACEHOLDER.matcher(out.toString());
        StringBuilder filled = new StringBuilder();
        while (inner.find()) {
            JsonNode value = member(ssm, documents, inner.group(1), inner.group(2));
            String text = json(value);
            // Inside a JSON string: the value's own JSON string without its quotes.
            inner.appendReplacement(filled, Matcher.quoteReplacement(text.substring(1, text.length() - 1)));
        }
        inner.appendTail(filled);
        return filled.toString();
    }

    /** The member of the parameter's document, read once per parameter and checked. */
    private static JsonNode member(SsmClient ssm, Map<String, Map<String, JsonNode>> documents, String parameter,
            String member) {
        Map<String, JsonNode> document = documents.computeIfAbsent(parameter, name -> read(ssm, name));
        String store = document.get("Store") != null && document.get("Store").isString()
                ? document.get("Store").asString() : "the store";
        JsonNode value = document.get(member);
        String problem = problem(member, value);
        if (problem != null) {
            throw new DataStoreNotReadyException("DataStoreIncomplete", parameter, "SSM parameter " + parameter
                    + " does not hold what jobs need of " + store + ": " + member + " " + problem + ". Is its stack "
                    + "half-deployed, or was the parameter changed by hand? Deploy the stack that owns the store again",
                    null);
        }
        return value;
    }

    private static String problem(String member, JsonNode value) {
        if (value == null || value.isNull()) {
            return "is missing";
        }
        return switch (member) {
            case "FileSystemId" -> matches(value, FILE_SYSTEM_ID) ? null : "is not a file system id (fs-...)";
            case "MountName" -> matches(value, MOUNT_NAME) ? null : "is not a mount name (1 to 8 letters and digits)";
            case "Subnets", "StorageSubnets" -> value.isArray() && !value.asArray().isEmpty()
                    && value.asArray().stream().allMatch(subnet -> matches(subnet, SUBNET_ID)) ? null
                    : "is not a non-empty list of subnet ids";
            case "StorageZones" -> value.isArray() && !value.asArray().isEmpty()
                    && value.asArray().stream().allMatch(JsonNode::isString) ? null
                    : "is not a non-empty list of Availability Zones";
            case "SecurityGroupId" -> matches(value, SECURITY_GROUP_ID) ? null : "is not a security group id (sg-...)";
            default -> value.isString() ? null : "is not a string";
        };
    }

    private static boolean matches(JsonNode value, String pattern) {
        return value.isString() && Pattern.compile(pattern).matcher(value.asString()).matches();
    }

    private static Map<String, JsonNode> read(SsmClient ssm, String name) {
        String value;
        try {
            value = ssm.getParameter(r -> r.name(name)).parameter().value();
        } catch (ParameterNotFoundException e) {
            throw new DataStoreNotReadyException("DataStoreNotPublished", name, "SSM parameter " + name + ", where a "
                    + "store of another stack publishes what jobs read of it, does not exist: deploy the stack that "
                    + "owns the store first (is it deployed in this account and Region?)", e);
        }
        if (!Pattern.compile(DOCUMENT).matcher(value).matches()) {
            throw new DataStoreNotReadyException("DataStoreIncomplete", name, "SSM parameter " + name
                    + " does not hold a store's JSON document (an object of strings, numbers and lists of them)", null);
        }
        return JsonNode.parser().parse(value).asObject();
    }

    private static String json(JsonNode node) {
        JsonWriter writer = JsonWriter.create();
        write(writer, node);
        return new String(writer.getBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static void write(JsonWriter json, JsonNode node) {
        if (node.isArray()) {
            json.writeStartArray();
            List<JsonNode> items = node.asArray();
            items.forEach(item -> write(json, item));
            json.writeEndArray();
        } else {
            json.writeValue(node.asString());
        }
    }
}
