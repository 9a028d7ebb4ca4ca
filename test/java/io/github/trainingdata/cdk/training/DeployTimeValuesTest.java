package io.github.trainingdata.cdk.training;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.github.trainingdata.cdk.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.CfnParameter;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.assertions.Template;

/**
 * CloudFormation parameters wherever a definition value may be one: never rejected by a check meant for literal
 * values, rendered as references, and never printed into the template as token text or as the number a token
 * stands in for.
 */
class DeployTimeValuesTest {
    private final TrainingFixture f = new TrainingFixture();

    private Number number(String id) {
        return CfnParameter.Builder.create(f.stack, id).type("Number").build().getValueAsNumber();
    }

    private String string(String id) {
        return CfnParameter.Builder.create(f.stack, id).type("String").build().getValueAsString();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> request(TrainingJobDefinitionProps.Builder props) {
        return (Map<String, Object>) f.stack.resolve(f.define(props).getRequest());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> member(Map<String, Object> request, String name) {
        return (Map<String, Object>) request.get(name);
    }

    /** The synthesized template (state machine, parameter, role) holds no token text and no token number. */
    private void assertNoTokenText() throws Exception {
        String template = Json.MAPPER.writeValueAsString(Template.fromStack(f.stack).toJSON());
        for (String leak : List.of("${Token[", "${token[", "#{Token[", "E+289", "e+289", "-2147483648")) {
            assertFalse(template.contains(leak), "the template contains " + leak);
        }
    }

    @Test
    void instanceCountTakesANumberParameter() throws Exception {
        Map<String, Object> request = request(f.props().instanceCount(number("Instances")));
        assertEquals(Map.of("Ref", "Instances"), member(request, "ResourceConfig").get("InstanceCount"));
        assertNoTokenText();
    }

    @Test
    void volumeSizeTakesANumberParameter() throws Exception {
        Map<String, Object> request = request(f.props().volumeSizeGiB(number("VolumeSize")));
        assertEquals(Map.of("Ref", "VolumeSize"), member(request, "ResourceConfig").get("VolumeSizeInGB"));
        assertNoTokenText();
    }

    @Test
    void maxRuntimeTakesANumberParameterInSeconds() throws Exception {
        Map<String, Object> request = request(f.props().maxRuntime(Duration.seconds(number("Runtime"))));
        assertEquals(Map.of("Ref", "Runtime"), member(request, "StoppingCondition").get("MaxRuntimeInSeconds"));
        assertNoTokenText();
    }

    @Test
    void maxWaitTakesANumberParameterInSeconds() throws Exception {
        Map<String, Object> request = request(f.props().managedSpot(true).checkpointPrefix("checkpoints")
                .maxRuntime(Duration.hours(2)).maxWait(Duration.seconds(number("Wait"))));
        assertEquals(Map.of("Ref", "Wait"), member(request, "StoppingCondition").get("MaxWaitTimeInSeconds"));
        assertNoTokenText();
    }

    @Test
    void rejectsAParameterDurationInAnotherUnitThanSeconds() {
        Number hours = number("Hours");
        assertRule("TRAINING_DURATION_SECONDS", () -> f.define(f.props().maxRuntime(Duration.hours(hours))), "Test/Training", "maxRuntime",
                "<token> hours", "a whole number of seconds; a deploy-time value must be given as Duration.seconds(...) "
                        + "(Duration must be specified as 'Duration.seconds()' here since its value comes from a token "
                        + "and cannot be converted (got Duration.hours))");
    }

    @Test
    void stringsTakeParametersWhereTheModelHasAPattern() throws Exception {
        Map<String, Object> request = request(f.props()
                .hyperParameters(Map.of("layers", string("Layers")))
                .environment(Map.of("MODE", string("Mode")))
                .tags(Map.of(string("TagKey"), string("TagValue")))
                .metricDefinitions(Map.of("loss", string("LossRegex")))
                .containerArguments(List.of(string("Argument")))
                .channels(List.of(f.s3(string("Channel")).build())));
        assertEquals(Map.of("layers", Map.of("Ref", "Layers")), request.get("HyperParameters"));
        assertEquals(List.of(Map.of("Key", Map.of("Ref", "TagKey"), "Value", Map.of("Ref", "TagValue"))),
                request.get("Tags"));
        assertEquals(Map.of("Ref", "Channel"),
                ((List<Map<String, Object>>) request.get("InputDataConfig")).get(0).get("ChannelName"));
        assertNoTokenText();
    }

    @Test
    void anAlgorithmNameTakesAParameter() throws Exception {
        Map<String, Object> request = request(f.props().trainingImage(null).algorithmName(string("Algorithm")));
        assertEquals(Map.of("Ref", "Algorithm"), member(request, "AlgorithmSpecification").get("AlgorithmName"));
        assertNoTokenText();
    }
}
