package io.github.trainingdata.cdk.internal.dispatch;

import com.amazonaws.services.lambda.runtime.Context;
import io.github.trainingdata.cdk.internal.handler.AssumedRoles;
import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.lambda.model.ResourceConflictException;

/**
 * Serves {@value CustomResourceDispatcher#EFS_DIRECTORIES}: the directories are made by a function of their own, which
 * runs in the file system's VPC with its access point mounted, so onEvent invokes that function (named by the property
 * {@value CustomResourceDispatcher#DIRECTORIES_FUNCTION}) with the request, synchronously, and answers with its physical
 * id; isComplete is then done at once. A function in a VPC that is not ready to be invoked (Pending after it is
 * created, or Inactive after weeks idle: "When you try to invoke a function that is inactive, the invocation fails and
 * Lambda sets the function to pending state until the function resources are recreated", Lambda guide, function
 * states), or a throttled or failing invoke, does not fail the request: onEvent marks it {@value #NOT_READY} and
 * isComplete invokes again until the function answers.
 * An Update that changes nothing but the role the provider acts as ({@value AssumedRoles#ROLE_ARN}) invokes nothing.
 */
final class DirectoriesInvoker implements CustomResourceHandler {
    /** The key, in what onEvent returns, that tells isComplete the function has yet to be invoked successfully. */
    static final String NOT_READY = "DirectoriesFunctionNotReady";
    private final LambdaClient lambda;

    DirectoriesInvoker(LambdaClient lambda) {
        this.lambda = lambda;
    }

    @Override
    public Map<String, Object> onEvent(Map<String, Object> event, Context context) {
        String name = functionName(event);
        if (onlyTheRoleChanged(event)) {
            context.getLogger().log("Only the role changed: the directories stay as they are");
            return new LinkedHashMap<>(Map.of("PhysicalResourceId", event.get("PhysicalResourceId")));
        }
        try {
            return invoke(event, name, context);
        } catch (SdkException e) {
            if (!notReady(e)) {
                throw e;
            }
            context.getLogger().log(name + " cannot be invoked yet (" + e.getMessage() + "); isComplete tries again");
            Map<String, Object> result = new LinkedHashMap<>();
            if (event.get("PhysicalResourceId") instanceof String physicalId) {
                result.put("PhysicalResourceId", physicalId);
            }
            result.put(NOT_READY, "true");
            return result;
        }
    }

    @Override
    public Map<String, Object> isComplete(Map<String, Object> event, Context context) {
        if (!"true".equals(event.get(NOT_READY))) {
            return Map.of("IsComplete", true);
        }
        String name = functionName(event);
        try {
            Map<String, Object> result = invoke(event, name, context);
            result.put("IsComplete", true);
            return result;
        } catch (SdkException e) {
            if (!notReady(e)) {
                throw e;
            }
            context.getLogger().log(name + " cannot be invoked yet (" + e.getMessage() + ")");
            return Map.of("IsComplete", false);
        }
    }

    private static String functionName(Map<String, Object> event) {
        Object properties = event.get("ResourceProperties");
        Object function = properties instanceof Map<?, ?> map ? map.get(CustomResourceDispatcher.DIRECTORIES_FUNCTION)
                : null;
        if (!(function instanceof String name) || name.isEmpty()) {
            throw new IllegalArgumentException("ResourceProperties." + CustomResourceDispatcher.DIRECTORIES_FUNCTION
                    + " must name the function that makes the directories");
        }
        return name;
    }

    /** Whether the request is an Update whose properties differ from the old ones in the role only. */
    private static boolean onlyTheRoleChanged(Map<String, Object> event) {
        if (!"Update".equals(event.get("RequestType")) || !(event.get("ResourceProperties") instanceof Map<?, ?> now)
                || !(event.get("OldResourceProperties") instanceof Map<?, ?> old)) {
            return false;
        }
        Map<Object, Object> nowWithoutRole = new LinkedHashMap<>(now);
        Map<Object, Object> oldWithoutRole = new LinkedHashMap<>(old);
        nowWithoutRole.remove(AssumedRoles.ROLE_ARN);
        oldWithoutRole.remove(AssumedRoles.ROLE_ARN);
        return nowWithoutRole.equals(oldWithoutRole);
    }

    /** A function not ready to run (Pending, Inactive: a conflict or ResourceNotReady), throttling, 5xx, timeouts. */
    private static boolean notReady(SdkException e) {
        return e instanceof ResourceConflictException || SdkCalls.isTransient(e);
    }

    /** Invokes the function with the CloudFormation request (as it arrived, without what the framework added). */
    private Map<String, Object> invoke(Map<String, Object> event, String name, Context context) {
        Map<String, Object> request = new LinkedHashMap<>(event);
        // The directories function answers the dispatcher, never CloudFormation: it gets no response URL.
        request.remove("ResponseURL");
        request.remove(CustomResourceDispatcher.PHASE);
        request.remove(CustomResourceDispatcher.DEADLINE);
        request.remove(NOT_READY);
        if ("Create".equals(event.get("RequestType"))) {
            request.remove("PhysicalResourceId");
        }
        InvokeResponse response = lambda.invoke(b -> b.functionName(name)
                .payload(SdkBytes.fromByteArray(JsonText.of(request))));
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
}
