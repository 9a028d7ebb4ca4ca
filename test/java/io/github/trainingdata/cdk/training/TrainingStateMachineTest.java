package io.github.trainingdata.cdk.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/** The .sync state machine and the SSM parameter: both carry the definition's one request. */
class TrainingStateMachineTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Numbers compare by value: the template writes 28800 where a resolved Java value may be 28800.0. */
    private static final Comparator<JsonNode> BY_VALUE = (a, b) -> a.isNumber() && b.isNumber()
            ? a.decimalValue().compareTo(b.decimalValue()) : (a.equals(b) ? 0 : 1);

    private static TrainingFixture f;
    private static TrainingJobDefinition job;
    private static Template template;
    private static JsonNode train;

    @BeforeAll
    static void synthesizeOnce() throws Exception {
        f = new TrainingFixture();
        job = f.threeStoreJob();
        template = Template.fromStack(f.stack);
        Map<String, Object> machine = (Map<String, Object>) template.findResources("AWS::StepFunctions::StateMachine")
                .values().iterator().next();
        Object definition = ((Map<String, Object>) machine.get("Properties")).get("DefinitionString");
        assertTrue(definition instanceof Map<?, ?> join && join.containsKey("Fn::Join"), "a Fn::Join: " + definition);
        JsonNode asl = JSON.readTree(Intrinsics.string(definition));
        assertEquals("Train", asl.get("StartAt").asText());
        List<String> states = new ArrayList<>();
        asl.get("States").fieldNames().forEachRemaining(states::add);
        assertEquals(List.of("Train"), states);
        train = asl.get("States").get("Train");
    }

    /** @return the definition's request, resolved and evaluated like the template's JSON */
    private static JsonNode expectedRequest() {
        return JSON.valueToTree(Intrinsics.evaluate(f.stack.resolve(job.getRequest())));
    }

    private static void assertSameJson(JsonNode expected, JsonNode actual) {
        assertTrue(expected.equals(BY_VALUE, actual), "expected " + expected + "\n but was " + actual);
    }

    @Test
    void isOneSyncTaskThatEnds() {
        assertEquals("Task", train.get("Type").asText());
        String resource = train.get("Resource").asText();
        assertTrue(resource.endsWith(":states:::sagemaker:createTrainingJob.sync"), resource);
        assertEquals("arn:REF(AWS::Partition):states:::sagemaker:createTrainingJob.sync", resource);
        assertTrue(train.get("End").asBoolean());
    }

    @Test
    void namesEachJobWithThePrefixAndAUuid() {
        assertEquals("States.Format('resnet-{}', States.UUID())", train.get("Parameters").get("TrainingJobName.$")
                .asText());
    }

    @Test
    void passesTheRequestMembersAsParameters() {
        ObjectNode parameters = train.get("Parameters").deepCopy();
        parameters.remove("TrainingJobName.$");
        assertSameJson(expectedRequest(), parameters);
        assertEquals("/GETATT(" + f.stack.getLogicalId(f.lustre().getResource()) + ".LustreMountName)/imagenet/train",
                parameters.get("InputDataConfig").get(1).get("DataSource").get("FileSystemDataSource")
                        .get("DirectoryPath").asText());
    }

    @Test
    void logsEverythingAndTraces() {
        Object logGroupArn = Match.objectLike(Map.of("Fn::GetAtt", Match.arrayWith(List.of("Arn"))));
        template.hasResourceProperties("AWS::StepFunctions::StateMachine", Map.of(
                "LoggingConfiguration", Match.objectLike(Map.of("Level", "ALL", "IncludeExecutionData", true,
                        "Destinations", List.of(Map.of("CloudWatchLogsLogGroup", Map.of("LogGroupArn", logGroupArn))))),
                "TracingConfiguration", Map.of("Enabled", true)));
    }

    @Test
    void storesTheSameRequestInTheParameter() throws Exception {
        Map<String, Object> parameter = (Map<String, Object>) template.findResources("AWS::SSM::Parameter")
                .values().iterator().next();
        Map<String, Object> properties = (Map<String, Object>) parameter.get("Properties");
        assertEquals("Intelligent-Tiering", properties.get("Tier"));
        assertSameJson(expectedRequest(), JSON.readTree(Intrinsics.string(properties.get("Value"))));
    }
}
