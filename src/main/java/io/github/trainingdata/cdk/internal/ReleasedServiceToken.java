package io.github.trainingdata.cdk.internal;

import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;
import software.constructs.Construct;

/**
 * Keeps the service token of a custom resource that a released version of the library served with a Provider
 * framework of its own ({@code Custom::LustrePreload}, {@code Custom::EfsDirectories}): CloudFormation refuses to change
 * a custom resource's ServiceToken ("Updates aren't supported", AWS::CloudFormation::CustomResource; the registry
 * schema lists it as create-only), so the function the token names, that framework's onEvent function at
 * {@code <scope>/Provider/framework-onEvent}, stays where it was, updated in place into a forwarder: it hands
 * each request, unchanged, to the stack's provider ({@link CustomResourceProvider}) by an asynchronous invoke, as
 * CloudFormation invoked it. The rest of the old framework (its isComplete, onTimeout and waiter, their roles) leaves
 * the stack once the request has been served.
 */
public final class ReleasedServiceToken {
    /** Where a released provider's onEvent function lived under its construct. */
    static final String PROVIDER_ID = "Provider";
    static final String FUNCTION_ID = "framework-onEvent";
    /**
     * The forwarder, on Node.js 24 (the runtime aws-cdk-lib 2.272.0 gives its Provider framework's functions): the AWS
     * SDK that Lambda's Node.js runtimes include invokes the stack's provider with the event.
     */
    static final String CODE = String.join("\n",
            "const { LambdaClient, InvokeCommand } = require('@aws-sdk/client-lambda');",
            "const lambda = new LambdaClient({});",
            "exports.handler = async (event) => {",
            "  await lambda.send(new InvokeCommand({ FunctionName: process.env.PROVIDER_FUNCTION,",
            "    InvocationType: 'Event', Payload: JSON.stringify(event) }));",
            "};");

    private ReleasedServiceToken() {
    }

    /**
     * The service token of a custom resource under {@code scope} that a released version served with its own Provider
     * framework: the forwarder at that framework's onEvent address.
     *
     * @param scope    the construct that held the released provider ({@code Provider})
     * @param provider the stack's provider
     * @param logsKey  the data layer's key, or null
     * @return the forwarder's ARN
     */
    public static String of(Construct scope, CustomResourceProvider provider, IKey logsKey) {
        Construct released = new Construct(scope, PROVIDER_ID);
        Function forwarder = Function.Builder.create(released, FUNCTION_ID)
                .description("Forwards the requests of " + scope.getNode().getPath() + " (a custom resource of an "
                        + "earlier release, whose service token cannot change) to the stack's custom-resource provider")
                .runtime(Runtime.NODEJS_24_X)
                .handler("index.handler")
                .code(Code.fromInline(CODE))
                .memorySize(128)
                .timeout(Duration.seconds(30))
                .role(provider.forwarderRole())
                .environment(Map.of("PROVIDER_FUNCTION", provider.getServiceToken()))
                .logGroup(LogGroups.shared(scope, logsKey))
                .build();
        return forwarder.getFunctionArn();
    }
}
