package io.github.trainingdata.cdk.internal.dispatch;

import com.amazonaws.services.lambda.runtime.Context;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.protocols.jsoncore.JsonWriter;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;

/**
 * Serves {@value CustomResourceDispatcher#EFS_DIRECTORIES}: the directories are made by a function of their own, which
 * runs in the file system's VPC with its access point mounted, so onEvent invokes that function (named by the property
 * {@value CustomResourceDispatcher#DIRECTORIES_FUNCTION}) with the request, synchronously, and answers with its physical
 * id; isComplete is done at once.
 */
final class DirectoriesInvoker implements CustomResourceHandler {
    private final LambdaClient lambda;

    DirectoriesInvoker(LambdaClient lambda) {
        this.lambda = lambda;
    }

    @Override
    public Map<String, Object> onEvent(Map<String, Object> event, Context context) {
        Object properties = event.get("ResourceProperties");
        Object function = properties instanceof Map<?, ?> map ? map.get(CustomResourceDispatcher.DIRECTORIES_FUNCTION)
                : null;
        if (!(function instanceof String name) || name.isEmpty()) {
            throw new IllegalArgumentException("ResourceProperties." + CustomResourceDispatcher.DIRECTORIES_FUNCTION
                    + " must name the function that makes the directories");
        }
        Map<String, Object> request = new LinkedHashMap<>(event);
        // The directories function answers the framework, never CloudFormation: it gets no response URL.
        request.remove("ResponseURL");
        InvokeResponse response = lambda.invoke(b -> b.functionName(name)
                .payload(SdkBytes.fromByteArray(json(request))));
        String payload = response.payload() == null ? "" : response.payload().asUtf8String();
        if (response.functionError() != null) {
            throw new IllegalStateException("The EFS directories function " + name + " failed: " + payload);
        }
        JsonNode answer = payload.isBlank() ? null : JsonNode.parser().parse(payload);
        JsonNode physicalId = answer != null && answer.isObject() ? answer.asObject().get("PhysicalResourceId") : null;
        if (physicalId == null || !physicalId.isString()) {
            throw new IllegalStateException("The EFS directories function " + name + " answered no PhysicalResourceId: "
                    + payload);
        }
        context.getLogger().log(event.get("RequestType") + " " + physicalId.asString() + " by " + name);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("PhysicalResourceId", physicalId.asString());
        return result;
    }

    @Override
    public Map<String, Object> isComplete(Map<String, Object> event, Context context) {
        return Map.of("IsComplete", true);
    }

    /** The request as JSON: maps, lists, strings, numbers and booleans, as Lambda delivered them. */
    static byte[] json(Object value) {
        JsonWriter json = JsonWriter.create();
        write(json, value);
        return json.getBytes();
    }

    private static void write(JsonWriter json, Object value) {
        if (value instanceof Map<?, ?> map) {
            json.writeStartObject();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                json.writeFieldName(String.valueOf(entry.getKey()));
                write(json, entry.getValue());
            }
            json.writeEndObject();
        } else if (value instanceof List<?> list) {
            json.writeStartArray();
            for (Object item : list) {
                write(json, item);
            }
            json.writeEndArray();
        } else if (value instanceof Boolean bool) {
            json.writeValue(bool);
        } else if (value instanceof Number number) {
            json.writeNumber(number.toString());
        } else if (value == null) {
            json.writeNull();
        } else {
            json.writeValue(String.valueOf(value));
        }
    }
}
