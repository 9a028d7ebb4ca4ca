package io.github.trainingdata.cdk.internal;

import io.github.trainingdata.cdk.internal.WildcardFindings;
import java.util.List;
import software.amazon.awscdk.customresources.Provider;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.stepfunctions.CfnStateMachine;
import software.constructs.IConstruct;

/**
 * Turns on AWS X-Ray tracing for the waiter state machine of aws-cdk-lib's Provider framework, which offers
 * no option for it (aws-cdk-lib 2.272.0: {@code WaiterStateMachine} renders a {@code CfnStateMachine} without
 * {@code TracingConfiguration}). Tracing gets the same X-Ray permissions aws-cdk-lib's {@code StateMachine}
 * grants when {@code tracingEnabled} is set.
 */
public final class WaiterTracing {
    private static final String WAITER_ID = "waiter-state-machine";

    private WaiterTracing() {
    }

    /**
     * Traces the provider's waiter state machine and lets its role write traces.
     *
     * @param provider a Provider with an isComplete handler (which gives it a waiter state machine)
     */
    public static void enable(Provider provider) {
        IConstruct waiter = provider.getNode().findChild(WAITER_ID);
        ((CfnStateMachine) waiter.getNode().getDefaultChild()).setTracingConfiguration(
                CfnStateMachine.TracingConfigurationProperty.builder().enabled(true).build());
        IRole role = (IRole) waiter.getNode().findChild("Role");
        role.addToPrincipalPolicy(PolicyStatement.Builder.create()
                .actions(List.of("xray:PutTraceSegments", "xray:PutTelemetryRecords", "xray:GetSamplingRules",
                        "xray:GetSamplingTargets"))
                .resources(List.of("*"))
                .build());
        WildcardFindings findings = new WildcardFindings(role);
        findings.add(List.of("*"), "X-Ray trace upload and the CloudWatch Logs vended delivery of the Provider "
                + "framework's waiter state machine support no resource-level permissions.");
        findings.acknowledge();
    }
}
