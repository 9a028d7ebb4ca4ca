package io.github.trainingdata.cdk.launch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.GetParametersResponse;
import software.amazon.awssdk.services.ssm.model.Parameter;

/**
 * Where a definition whose request the state machine renders at run time (it binds a store or network of another
 * stack) keeps a request too large for one SSM parameter: the parameter holds
 * {@code {"RequestParts": {"Prefix": "/training-data/requests/<path>/<hash>/part-", "Count": N}}}, and the request is
 * the values of the parameters {@code <Prefix>1} to {@code <Prefix>N}, joined in order.
 *
 * @param prefix the parts' name up to their number
 * @param count  how many parts there are
 */
record RequestParts(String prefix, int count) {
    /** The most names one GetParameters call takes (SSM API reference, GetParameters {@code Names}: 1 to 10). */
    static final int NAMES_PER_CALL = 10;

    /**
     * Reads a pointer from a parameter's value.
     *
     * @param parameterValue the SSM parameter's value
     * @return the pointer, or empty when the value is not one
     * @throws IllegalArgumentException for a pointer without a prefix or a positive count
     */
    static Optional<RequestParts> from(String parameterValue) {
        Optional<Map<String, JsonNode>> members =
                RequestPointer.members(parameterValue, DeployedTrainingJobDefinition.REQUEST_PARTS);
        if (members.isEmpty()) {
            return Optional.empty();
        }
        JsonNode prefix = members.get().get(DeployedTrainingJobDefinition.PARTS_PREFIX);
        JsonNode count = members.get().get(DeployedTrainingJobDefinition.PARTS_COUNT);
        if (prefix == null || !prefix.isString() || prefix.asString().isEmpty() || count == null || !count.isNumber()
                || !count.asNumber().matches("[1-9][0-9]{0,5}")) {
            throw new IllegalArgumentException("The request pointer " + parameterValue + " needs a "
                    + DeployedTrainingJobDefinition.PARTS_PREFIX + " and a positive whole "
                    + DeployedTrainingJobDefinition.PARTS_COUNT);
        }
        return Optional.of(new RequestParts(prefix.asString(), Integer.parseInt(count.asNumber())));
    }

    /** @return the parts' parameter names, in order */
    List<String> names() {
        List<String> names = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            names.add(prefix + i);
        }
        return names;
    }

    /**
     * Reads every part, {@value #NAMES_PER_CALL} per GetParameters call, and joins them.
     *
     * @param ssm     the client to read with
     * @param pointer the name of the parameter that points at the parts, for messages
     * @return the request document
     * @throws IllegalArgumentException naming every part that does not exist
     */
    String document(SsmClient ssm, String pointer) {
        List<String> names = names();
        Map<String, String> values = new HashMap<>();
        List<String> missing = new ArrayList<>();
        for (int from = 0; from < names.size(); from += NAMES_PER_CALL) {
            List<String> batch = names.subList(from, Math.min(names.size(), from + NAMES_PER_CALL));
            GetParametersResponse response = ssm.getParameters(r -> r.names(batch));
            for (Parameter parameter : response.parameters()) {
                values.put(parameter.name(), parameter.value());
            }
            missing.addAll(response.invalidParameters());
        }
        StringBuilder document = new StringBuilder();
        for (String name : names) {
            if (!values.containsKey(name) && !missing.contains(name)) {
                missing.add(name);
            }
            document.append(values.getOrDefault(name, ""));
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("SSM parameter " + pointer + " splits the request into " + count
                    + " parts, but " + String.join(", ", missing) + (missing.size() == 1 ? " does" : " do")
                    + " not exist: is the stack deployed (or being updated, which replaces the parts) in this "
                    + "account and Region?");
        }
        return document.toString();
    }
}
