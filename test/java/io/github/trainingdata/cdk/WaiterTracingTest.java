package io.github.trainingdata.cdk;

import io.github.trainingdata.cdk.internal.WaiterTracing;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.customresources.Provider;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;

class WaiterTracingTest {

    @Test
    void theProviderFrameworksWaiterStateMachineIsTracedAndMayWriteTraces() {
        Stack stack = TestApps.stack();
        Code code = Code.fromInline("exports.handler = async () => ({})");
        Provider provider = Provider.Builder.create(stack, "Provider")
                .onEventHandler(Function.Builder.create(stack, "OnEvent").runtime(Runtime.NODEJS_22_X)
                        .handler("index.handler").code(code).build())
                .isCompleteHandler(Function.Builder.create(stack, "IsComplete").runtime(Runtime.NODEJS_22_X)
                        .handler("index.handler").code(code).build())
                .queryInterval(Duration.seconds(30))
                .build();

        WaiterTracing.enable(provider);

        Template t = Template.fromStack(stack);
        t.hasResourceProperties("AWS::StepFunctions::StateMachine", Map.of(
                "TracingConfiguration", Map.of("Enabled", true)));
        t.hasResourceProperties("AWS::IAM::Policy", Map.of("PolicyDocument", Map.of("Statement", Match.arrayWith(
                List.of(Map.of("Effect", "Allow", "Resource", "*", "Action", List.of("xray:GetSamplingRules",
                        "xray:GetSamplingTargets", "xray:PutTelemetryRecords", "xray:PutTraceSegments")))))));
    }
}
