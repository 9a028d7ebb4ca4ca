package io.github.trainingdata.cdk.internal.dispatch;

import com.amazonaws.services.lambda.runtime.Context;
import java.util.Map;
import java.util.function.BiFunction;

/** One custom resource type's handler, as the dispatcher calls it: onEvent once, then isComplete until done. */
interface CustomResourceHandler {
    /**
     * @param event   the CloudFormation request
     * @param context the Lambda context
     * @return at least {@code PhysicalResourceId}
     */
    Map<String, Object> onEvent(Map<String, Object> event, Context context);

    /**
     * @param event   the request with what onEvent returned
     * @param context the Lambda context
     * @return {@code IsComplete} and, when complete, optionally {@code Data}
     */
    Map<String, Object> isComplete(Map<String, Object> event, Context context);

    /**
     * @param onEvent    the type's onEvent
     * @param isComplete the type's isComplete
     * @return a handler calling them
     */
    static CustomResourceHandler of(BiFunction<Map<String, Object>, Context, Map<String, Object>> onEvent,
            BiFunction<Map<String, Object>, Context, Map<String, Object>> isComplete) {
        return new CustomResourceHandler() {
            @Override
            public Map<String, Object> onEvent(Map<String, Object> event, Context context) {
                return onEvent.apply(event, context);
            }

            @Override
            public Map<String, Object> isComplete(Map<String, Object> event, Context context) {
                return isComplete.apply(event, context);
            }
        };
    }
}
