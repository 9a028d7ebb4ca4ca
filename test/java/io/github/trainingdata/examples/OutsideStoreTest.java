package io.github.trainingdata.examples;

import static io.github.trainingdata.cdk.PolicyStatements.allStatements;
import static io.github.trainingdata.cdk.PolicyStatements.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.examples.docs.SharedBucketExample;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.assertions.Template;

/**
 * A store written outside the library ({@link SharedBucketExample.SharedBucketStore}, an S3Store in the examples)
 * trains: an S3 channel and a direct read on it render its URIs, and the job's role gets exactly the grants the store
 * asked for, IAM conditions included.
 */
class OutsideStoreTest {
    @Test
    void aStoreWrittenOutsideTheLibraryTrainsThroughAChannelAndADirectRead() {
        SharedBucketExample stack = new SharedBucketExample(new App(), "Shared");
        TrainingJobDefinition job = (TrainingJobDefinition) stack.getNode().findChild("Training");
        Map<String, Object> request = job.getRequest();

        Map<?, ?> channel = (Map<?, ?>) ((List<?>) request.get("InputDataConfig")).get(0);
        Map<?, ?> s3 = (Map<?, ?>) ((Map<?, ?>) channel.get("DataSource")).get("S3DataSource");
        assertEquals("s3://team-a-datasets/images/train/", s3.get("S3Uri"));
        assertEquals("s3://team-a-datasets/images/val/", ((Map<?, ?>) request.get("Environment")).get("VALIDATION_URI"));
        assertEquals(null, request.get("VpcConfig"), "an S3 store without a zone needs no network");

        List<Map<String, Object>> gets = allStatements(Template.fromStack(stack)).stream()
                .filter(s -> strings(s.get("Action")).equals(List.of("s3:GetObject")) && s.containsKey("Condition"))
                .toList();
        assertEquals(1, gets.size(), "both prefixes in one statement with the store's condition: " + gets);
        assertEquals(Map.of("StringEquals", Map.of("s3:ExistingObjectTag/classification", "training")),
                gets.get(0).get("Condition"));
        assertEquals(2, ((List<?>) gets.get(0).get("Resource")).size());
    }
}
