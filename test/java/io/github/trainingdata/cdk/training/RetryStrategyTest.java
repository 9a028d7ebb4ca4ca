package io.github.trainingdata.cdk.training;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.github.trainingdata.cdk.Intrinsics;
import io.github.trainingdata.cdk.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.CfnParameter;
import software.amazon.awscdk.CfnParameterProps;

/**
 * SageMaker's own retries: {@code maximumRetryAttempts} is checked against the model's 1–30, rendered as
 * {@code RetryStrategy} into the request, and so into the SSM request document the launcher reads.
 */
class RetryStrategyTest {
    private final TrainingFixture f = new TrainingFixture();

    private Map<String, Object> resolved(TrainingJobDefinition job) {
        return (Map<String, Object>) f.stack.resolve(job.getRequest());
    }

    @Test
    void rendersTheRetryStrategyAfterTheEnvironment() {
        Map<String, Object> request = resolved(f.define(f.props().maximumRetryAttempts(3)
                .environment(Map.of("MODE", "train"))));
        assertEquals(Map.of("MaximumRetryAttempts", 3), request.get("RetryStrategy"));
        List<String> members = List.copyOf(request.keySet());
        assertEquals(members.indexOf("Environment") + 1, members.indexOf("RetryStrategy"));
    }

    @Test
    void leavesTheRetryStrategyOutByDefault() {
        assertFalse(resolved(f.define(f.props())).containsKey("RetryStrategy"));
    }

    @Test
    void rejectsZeroRetryAttempts() {
        assertRule("TRAINING_NUMBER_LIMIT", () -> f.define(f.props().maximumRetryAttempts(0)), "Test/Training", "maximumRetryAttempts", 0,
                "a whole number from 1 to 30 attempts");
    }

    @Test
    void rejectsMoreThanThirtyRetryAttempts() {
        assertRule("TRAINING_NUMBER_LIMIT", () -> f.define(f.props().maximumRetryAttempts(31)), "Test/Training", "maximumRetryAttempts", 31,
                "a whole number from 1 to 30 attempts");
    }

    @Test
    void acceptsADeployTimeRetryCount() {
        CfnParameter retries = new CfnParameter(f.stack, "Retries", CfnParameterProps.builder().type("Number").build());
        TrainingJobDefinition job = f.define(f.props().maximumRetryAttempts(retries.getValueAsNumber()));
        Object document = Json.tree(Intrinsics.string(f.stack.resolve(f.stack.toJsonString(job.getRequest())),
                Map.of("Retries", "30")));
        Map<?, ?> retry = (Map<?, ?>) ((Map<?, ?>) document).get("RetryStrategy");
        assertEquals(30, ((Number) retry.get("MaximumRetryAttempts")).intValue());
    }

    @Test
    void theRequestDocumentWithRetriesAndEveryStoreSatisfiesTheSageMakerModel() {
        f.define(f.props().jobNamePrefix("resnet").maximumRetryAttempts(30)
                .channels(List.of(f.s3("validation").path("validation").build(), f.lustreChannel("train", "train"),
                        f.efsChannel("features", "/features"))));
        SageMakerModelCheck.assertValid(f.stack, List.of());
    }
}
