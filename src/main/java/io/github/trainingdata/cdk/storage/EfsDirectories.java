package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.internal.CustomResourceRole;
import io.github.trainingdata.cdk.internal.LogGroups;
import io.github.trainingdata.cdk.internal.BundledAsset;
import io.github.trainingdata.cdk.internal.CustomResourceProvider;
import io.github.trainingdata.cdk.internal.handler.AssumedRoles;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.handler.EfsDirectoriesHandler;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import software.amazon.awscdk.Acknowledgment;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.IStableAnyProducer;
import software.amazon.awscdk.IStableListProducer;
import software.amazon.awscdk.IStableStringProducer;
import software.amazon.awscdk.Lazy;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.Validations;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.efs.AccessPoint;
import software.amazon.awscdk.services.efs.CfnAccessPoint;
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
 * ({@code efs-directories-handler.zip}) that runs in the network's data subnet, mounts the file system through
 * an access point acting as root (POSIX user 0:0; Lambda mounts EFS only through an access point), and creates
 * each directory with {@code mkdir -p} semantics (mode 755, never deleting). The stack's custom-resource provider
 * ({@link CustomResourceProvider}) invokes it from outside the VPC with the request, acting as the store's own role
 * ({@code HandlerRole}, which may only invoke this function), so the isolated subnet needs no internet access.
 *
 * <p>The access point's root is the top-level directory that all the directories share (e.g. {@code /features}
 * for {@code /features/imagenet} and {@code /features/coco}), which EFS creates owned by root with mode 755 when
 * it does not exist, so the function reaches nothing else (and AWS Control Tower's CT.ELASTICFILESYSTEM.PR.3,
 * an access point root other than {@code /}, holds). Only directories under different top-level directories, or
 * a deploy-time directory, need the file system's root {@code /}.
 *
 * <p>Deletion: the custom resource is retained (CloudFormation never asks it to delete, so a stack delete or
 * rollback never needs the function to mount), and the function's security group depends on the function's
 * role so that the role, whose permissions Lambda uses to delete the function's network interfaces, outlives
 * them.
 */
final class EfsDirectories extends Construct {
    static final String RESOURCE_TYPE = "Custom::EfsDirectories";
    /**
     * The custom resource's id. The last release's, served by a provider of its own, was {@code Resource};
     * CloudFormation cannot move a custom resource to another ServiceToken, so the resource served by the stack's
     * provider has a new id (a new logical id): the upgrade creates it (the directories exist, nothing changes) and
     * leaves the old one, retained, out of the stack in the update's cleanup.
     */
    static final String RESOURCE_ID = "Exist";
    static final String BUNDLE = "efs-directories-handler.zip";
    static final String HANDLER = EfsDirectoriesHandler.class.getName() + "::onEvent";
    /** The function's security group's description: constant, since {@code GroupDescription} is create-only. */
    static final String SECURITY_GROUP_DESCRIPTION = "Function that creates EFS directories: NFS to the file system only";
    /** One directory an access point may have as its root (EFS API reference, RootDirectory Path). */
    private static final Pattern ROOT_SEGMENT = Pattern.compile("(?!\\.)[^$#<>;`|&?{}^*/\\n]{1,99}");

    private final CustomResource resource;

    EfsDirectories(EfsStore store, String id, Supplier<List<String>> directories, IKey logsKey) {
        super(store, id);
        TrainingNetwork network = store.getNetwork();
        IFileSystem fileSystem = store.getFileSystem();
        String root = Lazy.string((IStableStringProducer) () -> accessPointRoot(directories.get()));
        AccessPoint accessPoint = AccessPoint.Builder.create(this, "AccessPoint")
                .fileSystem(fileSystem)
                .posixUser(PosixUser.builder().uid("0").gid("0").build())
                .build();
        ((CfnAccessPoint) accessPoint.getNode().getDefaultChild()).addPropertyOverride("RootDirectory",
                Lazy.any((IStableAnyProducer) () -> rootDirectory(accessPointRoot(directories.get()))));
        SecurityGroup group = SecurityGroup.Builder.create(this, "SecurityGroup")
                .vpc(network.getVpc())
                .description(SECURITY_GROUP_DESCRIPTION)
                .allowAllOutbound(false)
                .build();
        Function function = Function.Builder.create(this, "Function")
                .description("Creates the directories EFS channels read on " + store.getNode().getPath())
                .runtime(Runtime.JAVA_25)
                .handler(HANDLER)
                .code(Code.fromAsset(BundledAsset.path(EfsDirectories.class, BUNDLE).toString()))
                .memorySize(512)
                .timeout(Duration.minutes(1))
                .environment(Map.of(EfsDirectoriesHandler.ROOT_VARIABLE, root))
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
                .logGroup(LogGroups.shared(this, logsKey))
                .build();
        group.getNode().addDependency(function.getRole());
        CustomResourceProvider provider = CustomResourceProvider.of(this, logsKey);
        CustomResourceRole role = provider.grant(this, "HandlerRole", "Invokes the function that creates an EFS store's "
                + "directories; assumed by the stack's custom-resource provider only", List.of(PolicyStatement.Builder
                .create().actions(List.of("lambda:InvokeFunction")).resources(List.of(function.getFunctionArn()))
                .build()));

        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put(EfsDirectoriesHandler.FILE_SYSTEM_ID, fileSystem.getFileSystemId());
        properties.put(EfsDirectoriesHandler.DIRECTORIES, Lazy.list((IStableListProducer) directories::get));
        properties.put(EfsDirectoriesHandler.FUNCTION, function.getFunctionArn());
        properties.put(AssumedRoles.ROLE_ARN, role.getRoleArn());
        this.resource = CustomResource.Builder.create(this, RESOURCE_ID)
                .serviceToken(provider.getServiceToken())
                .resourceType(RESOURCE_TYPE)
                .properties(properties)
                .removalPolicy(RemovalPolicy.RETAIN)
                .build();
        acknowledge(function);
    }

    /**
     * The top-level directory all {@code directories} are under, if it is a valid access point root (EFS API
     * reference, RootDirectory: no leading '.', none of {@code $#<>;`|&?{}^*}, at most 100 characters), else
     * {@code /}, also when a directory is a deploy-time value.
     */
    static String accessPointRoot(List<String> directories) {
        String shared = null;
        for (String directory : directories) {
            if (Token.isUnresolved(directory)) {
                return "/";
            }
            String top = Arrays.stream(directory.split("/")).filter(s -> !s.isEmpty() && !s.equals(".")).findFirst()
                    .orElse("");
            if (shared != null && !shared.equals(top)) {
                return "/";
            }
            shared = top;
        }
        return shared != null && ROOT_SEGMENT.matcher(shared).matches() ? "/" + shared : "/";
    }

    /** The access point's RootDirectory: below {@code /}, created (owner root, mode 755) when it does not exist. */
    private static Map<String, Object> rootDirectory(String root) {
        Map<String, Object> rootDirectory = new LinkedHashMap<>();
        rootDirectory.put("Path", root);
        if (!root.equals("/")) {
            Map<String, Object> creation = new LinkedHashMap<>();
            creation.put("OwnerUid", "0");
            creation.put("OwnerGid", "0");
            creation.put("Permissions", "755");
            rootDirectory.put("CreationInfo", creation);
        }
        return rootDirectory;
    }

    /** cdk-nag findings on the function's role, each with why it is acceptable. */
    private static void acknowledge(Function function) {
        String managed = "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/";
        Validations.of(function).acknowledge(Acknowledgment.builder().id(managed + "AWSLambdaVPCAccessExecutionRole]")
                .reason("AWS's VPC execution policy grants only the network-interface actions Lambda needs to attach "
                        + "the function to the data subnet (they support no resource-level permissions) and log "
                        + "writes.").build());
        Validations.of(function).acknowledge(Acknowledgment.builder().id(managed + "AWSLambdaBasicExecutionRole]")
                .reason("AWS's basic Lambda execution policy grants only logs:CreateLogGroup, CreateLogStream and "
                        + "PutLogEvents, which the function needs to log.").build());
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
