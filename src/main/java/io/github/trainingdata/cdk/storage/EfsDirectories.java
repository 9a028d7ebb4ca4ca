package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.BundledAsset;
import io.github.trainingdata.cdk.WildcardFindings;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.handler.EfsDirectoriesHandler;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awscdk.Acknowledgment;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.IStableListProducer;
import software.amazon.awscdk.Lazy;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Validations;
import software.amazon.awscdk.customresources.Provider;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.efs.AccessPoint;
import software.amazon.awscdk.services.efs.IFileSystem;
import software.amazon.awscdk.services.efs.PosixUser;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.FileSystemConfig;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.kms.IKey;
import software.constructs.Construct;

/**
 * The custom resource that makes an {@link EfsStore}'s directories exist: a Java function on the plain JDK
 * ({@code efs-directories-handler.zip}) that runs in the network's data subnet, mounts the file system's
 * root through an access point acting as root (POSIX user 0:0; Lambda mounts EFS only through an access
 * point), and creates each directory with {@code mkdir -p} semantics (mode 755, never deleting). aws-cdk-lib's
 * Provider framework calls it from outside the VPC, so the isolated subnet needs no internet access.
 *
 * <p>Deletion: the custom resource is retained (CloudFormation never asks it to delete, so a stack delete or
 * rollback never needs the function to mount), and the function's security group depends on the function's
 * role so that the role, whose permissions Lambda uses to delete the function's network interfaces, outlives
 * them.
 */
final class EfsDirectories extends Construct {
    static final String RESOURCE_TYPE = "Custom::EfsDirectories";
    static final String BUNDLE = "efs-directories-handler.zip";
    static final String HANDLER = EfsDirectoriesHandler.class.getName() + "::onEvent";

    private final CustomResource resource;

    EfsDirectories(EfsStore store, String id, Supplier<List<String>> directories, IKey logsKey) {
        super(store, id);
        TrainingNetwork network = store.getNetwork();
        IFileSystem fileSystem = store.getFileSystem();
        AccessPoint accessPoint = AccessPoint.Builder.create(this, "AccessPoint")
                .fileSystem(fileSystem)
                .path("/")
                .posixUser(PosixUser.builder().uid("0").gid("0").build())
                .build();
        SecurityGroup group = SecurityGroup.Builder.create(this, "SecurityGroup")
                .vpc(network.getVpc())
                .description("Function that creates the directories of " + store.getNode().getPath()
                        + ": NFS to the file system only")
                .allowAllOutbound(false)
                .build();
        Function function = Function.Builder.create(this, "Function")
                .description("Creates the directories EFS channels read on " + store.getNode().getPath())
                .runtime(Runtime.JAVA_25)
                .handler(HANDLER)
                .code(Code.fromAsset(BundledAsset.path(EfsDirectories.class, BUNDLE).toString()))
                .memorySize(512)
                .timeout(Duration.minutes(1))
                .vpc(network.getVpc())
                .vpcSubnets(network.getTrainingSubnets())
                .securityGroups(List.of(group))
                .filesystem(new AccessPointMount(FileSystemConfig.builder()
                        .arn(accessPoint.getAccessPointArn())
                        .localMountPath(EfsDirectoriesHandler.MOUNT_PATH)
                        .connections(fileSystem.getConnections())
                        .dependency(List.of(fileSystem.getMountTargetsAvailable()))
                        .policies(List.of(PolicyStatement.Builder.create()
                                .actions(List.of("elasticfilesystem:ClientMount", "elasticfilesystem:ClientWrite",
                                        "elasticfilesystem:ClientRootAccess"))
                                .resources(List.of(fileSystem.getFileSystemArn()))
                                .conditions(Map.of("StringEquals", Map.of("elasticfilesystem:AccessPointArn",
                                        accessPoint.getAccessPointArn())))
                                .build()))
                        .build()))
                .logGroup(LogGroups.create(this, "FunctionLogs", logsKey))
                .build();
        group.getNode().addDependency(function.getRole());
        Provider provider = Provider.Builder.create(this, "Provider")
                .onEventHandler(function)
                .logGroup(LogGroups.create(this, "ProviderLogs", logsKey))
                .build();

        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put(EfsDirectoriesHandler.FILE_SYSTEM_ID, fileSystem.getFileSystemId());
        properties.put(EfsDirectoriesHandler.DIRECTORIES, Lazy.list((IStableListProducer) directories::get));
        this.resource = CustomResource.Builder.create(this, "Resource")
                .serviceToken(provider.getServiceToken())
                .resourceType(RESOURCE_TYPE)
                .properties(properties)
                .removalPolicy(RemovalPolicy.RETAIN)
                .build();
        acknowledge(function, provider);
    }

    /** cdk-nag findings on the function's and the framework's roles, each with why it is acceptable. */
    private static void acknowledge(Function function, Provider provider) {
        String managed = "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/";
        Validations.of(function).acknowledge(Acknowledgment.builder().id(managed + "AWSLambdaVPCAccessExecutionRole]")
                .reason("AWS's VPC execution policy grants only the network-interface actions Lambda needs to attach "
                        + "the function to the data subnet (they support no resource-level permissions) and log "
                        + "writes.").build());
        for (Construct scope : List.<Construct>of(function, provider)) {
            Validations.of(scope).acknowledge(Acknowledgment.builder().id(managed + "AWSLambdaBasicExecutionRole]")
                    .reason("AWS's basic Lambda execution policy grants only logs:CreateLogGroup, CreateLogStream and "
                            + "PutLogEvents, which the custom-resource functions need to log.").build());
        }
        WildcardFindings findings = new WildcardFindings(provider);
        findings.add(List.of(function.getFunctionArn() + ":*"), "The Provider framework invokes the directories "
                + "function by ARN; ':*' covers its versions and aliases only.");
        findings.acknowledge();
    }

    /** @return the custom resource (retained on delete; its Delete never removes anything) */
    CustomResource getResource() {
        return resource;
    }

    /** Mounts an access point with the caller's own least-privilege statement (aws-cdk-lib's grants ClientMount on '*'). */
    private static final class AccessPointMount extends software.amazon.awscdk.services.lambda.FileSystem {
        AccessPointMount(FileSystemConfig config) {
            super(config);
        }
    }
}
