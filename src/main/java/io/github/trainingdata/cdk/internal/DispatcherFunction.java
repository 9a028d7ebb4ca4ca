package io.github.trainingdata.cdk.internal;

import static io.github.trainingdata.cdk.internal.CoreResources.ordered;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.AssetHashType;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.CfnResource;
import software.amazon.awscdk.services.logs.ILogGroup;
import software.amazon.awscdk.services.s3.assets.Asset;
import software.constructs.Construct;

/**
 * The stack provider's Java function ({@code CustomResourceProvider/Handler}): the SDK handlers' bundle run by
 * {@code CustomResourceDispatcher} on Java 25, named by the provider, with a role of its own that may log and do what
 * the provider's own work needs (start its waiter); each custom resource grants it more. Written with core resources
 * ({@link CoreResources}) and an S3 asset, it synthesizes what aws-cdk-lib's {@code Function} did with
 * the same settings (the same construct paths and logical ids, properties, {@code DependsOn} on the role and asset
 * metadata: the snapshots hold it), without loading the Java class of aws-cdk-lib's {@code Runtime} (its static
 * initializer reads every Lambda runtime aws-cdk-lib knows from node, 103 jsii round trips, about 50 ms of a cold
 * synth of the data layer) nor Lambda's generated resource classes (docs/performance.md). A holder of a plain
 * {@code Construct} ({@link #node}), not a Java subclass of one: jsii inspects each such subclass by reflection when
 * its first object is made.
 */
final class DispatcherFunction {
    /** What {@code Runtime.JAVA_25} renders. */
    static final String RUNTIME = "java25";
    /** The function's memory, MiB. */
    static final int MEMORY_MIB = 512;
    /**
     * The function's timeout, seconds (15 minutes, Lambda's most; aws-cdk-lib's Provider framework gives its functions
     * the same). The function answers CloudFormation itself: a delivery that times out sends no answer and Lambda runs
     * it again (twice, Lambda guide, asynchronous invocation), so the timeout must outlast the longest bounded path of
     * one delivery ({@code CustomResourceDispatcher#LONGEST_DELIVERY}), not only a handler's calls.
     */
    static final int TIMEOUT_SECONDS = 900;
    /** The AWS managed policy that lets the function log. */
    static final String BASIC_EXECUTION_POLICY = "service-role/AWSLambdaBasicExecutionRole";

    private final Construct node;
    private final CfnResource function;
    private final CfnResource role;

    /**
     * @param scope       the stack's provider
     * @param id          the function's id
     * @param name        the function's name
     * @param description the function's description
     * @param handler     the handler method, {@code class::method}
     * @param bundle      the Lambda bundle's path on disk
     * @param bundleHash  the bundle's SHA-256, which the build wrote beside it: the asset's custom hash
     * @param logGroup    the log group the function writes to
     * @param environment the function's environment variables
     * @param statements  what the function's own work needs, inline in its role ({@link CoreResources#allow})
     */
    DispatcherFunction(Construct scope, String id, String name, String description, String handler, String bundle,
            String bundleHash, ILogGroup logGroup, Map<String, String> environment, List<Map<String, Object>> statements) {
        this.node = new Construct(scope, id);
        this.role = CoreResources.role(new Construct(node, "ServiceRole"), Map.of("Service", "lambda.amazonaws.com"),
                null, List.of("arn:" + Aws.PARTITION + ":iam::aws:policy/" + BASIC_EXECUTION_POLICY), null,
                InlinePolicy.NAME, CoreResources.document(statements));
        // The bundle as aws-cdk-lib's Code.fromAsset stages it (an S3 asset at <function>/Code, deploy-time) without
        // Lambda's asset code: the same staged file, asset manifest entry and aws:asset metadata. A custom hash: the
        // build hashed the 30 MB bundle once; a synth would hash it again otherwise.
        Asset code = Asset.Builder.create(node, "Code").path(bundle).deployTime(true)
                .assetHashType(AssetHashType.CUSTOM).assetHash(bundleHash).build();
        // CloudFormation invokes it as the deploying principal and the waiter by its role's identity policy: no
        // resource-based permission.
        this.function = CoreResources.resource(node, "Resource", "AWS::Lambda::Function", ordered(
                "Code", ordered("S3Bucket", code.getS3BucketName(), "S3Key", code.getS3ObjectKey()),
                "Description", description,
                "Environment", ordered("Variables", new TreeMap<>(environment)),
                "FunctionName", name,
                "Handler", handler,
                "LoggingConfig", ordered("LogGroup", logGroup.getLogGroupName()),
                "MemorySize", MEMORY_MIB,
                "Role", role.getAtt("Arn"),
                "Runtime", RUNTIME,
                "Timeout", TIMEOUT_SECONDS));
        function.getNode().addDependency(role);
        code.addResourceMetadata(function, "Code");
    }

    /** @return the construct that stands for the function (aws-cdk-lib's {@code Function}'s place in the tree) */
    Construct node() {
        return node;
    }

    /** @return the function's resource */
    CfnResource function() {
        return function;
    }

    /** @return the function's role's resource */
    CfnResource role() {
        return role;
    }
}
