package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.PolicyStatements;
import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.training.EfsChannel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awscdk.App;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.CfnParameter;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.efs.FileSystem;
import software.amazon.awscdk.services.efs.FileSystemAttributes;
import software.amazon.awscdk.services.s3.Bucket;
import software.constructs.Construct;
import software.constructs.IConstruct;

/**
 * The directories an {@link EfsStore} creates during the deploy: what its EFS channels and
 * {@link EfsStore#addDirectory} register, the custom resource and its function (VPC, access point, NFS
 * rules, IAM), the order of deployment and deletion, and the fallback that only lists the directories.
 */
class EfsDirectoriesTest {
    private static final String HANDLER = "io.github.trainingdata.cdk.storage.handler.EfsDirectoriesHandler::onEvent";
    private static final String PATH_RULE = "an absolute path from the EFS root such as /datasets/train, without '..' "
            + "or empty segments, at most 4096 characters without line breaks";

    private final App app = TestApps.app();
    private final Stack stack = new Stack(app, "Test");
    private final TrainingNetwork network = new TrainingNetwork(stack, "Network");

    private EfsStore store(EfsStoreProps.Builder props) {
        return new EfsStore(stack, "Efs", props.network(network).build());
    }

    private EfsStore store() {
        return store(EfsStoreProps.builder());
    }

    /** A deployed definition reading {@code paths} of {@code efs}, one channel each. */
    private static TrainingJobDefinition definition(Construct scope, String id, EfsStore efs, String... paths) {
        List<io.github.trainingdata.cdk.training.TrainingChannel> channels = new ArrayList<>();
        for (int i = 0; i < paths.length; i++) {
            channels.add(EfsChannel.builder("c" + i).store(efs).directoryPath(paths[i]).build());
        }
        Stack stack = Stack.of(scope);
        return new TrainingJobDefinition(scope, id, TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri("123456789012.dkr.ecr.us-east-1.amazonaws.com/trainer:1.0"))
                .instanceType("ml.m5.xlarge")
                .outputBucket(new TrainingDataBucket(scope, id + "Data", TrainingDataBucketProps.builder()
                        .bucket(Bucket.fromBucketName(stack, id + "Bucket", "team-datasets")).build()))
                .channels(channels)
                .build());
    }

    private String logicalId(Template t, String type) {
        Map<String, Map<String, Object>> found = t.findResources(type);
        assertEquals(1, found.size(), type);
        return found.keySet().iterator().next();
    }

    private Object resolve(String value) {
        return stack.resolve(value);
    }

    @Test
    void aChannelsDirectoryIsCreatedByACustomResourceThatIsRetainedAndNeverDeletes() {
        EfsStore efs = store();
        definition(stack, "Training", efs, "/features");
        Template t = Template.fromStack(stack);

        t.resourceCountIs("Custom::EfsDirectories", 1);
        t.hasResource("Custom::EfsDirectories", Map.of(
                "DeletionPolicy", "Retain",
                "UpdateReplacePolicy", "Retain",
                "Properties", Map.of(
                        "ServiceToken", Match.anyValue(),
                        "FileSystemId", resolve(efs.getFileSystemId()),
                        "Directories", List.of("/features"))));
    }

    @Test
    void collectsEveryDirectoryOnceSortedWithoutTrailingSlashesOrTheRoot() {
        EfsStore efs = store();
        definition(stack, "Resnet", efs, "/features/imagenet", "/labels/");
        definition(stack, "Vit", efs, "/features/imagenet", "/");
        efs.addDirectory("/checkpoints");
        efs.addDirectory("/labels");
        Template t = Template.fromStack(stack);

        assertEquals(List.of("/checkpoints", "/features/imagenet", "/labels"), efs.getDirectories());
        t.hasResourceProperties("Custom::EfsDirectories", Map.of(
                "Directories", List.of("/checkpoints", "/features/imagenet", "/labels")));
    }

    @Test
    void aStoreNobodyReadsDeploysNoFunction() {
        store();
        Template t = Template.fromStack(stack);

        t.resourceCountIs("Custom::EfsDirectories", 0);
        assertEquals(0, t.findResources("AWS::Lambda::Function", Map.of("Properties", Match.objectLike(
                Map.of("Handler", HANDLER)))).size());
        t.resourceCountIs("AWS::EFS::AccessPoint", 0);
    }

    @Test
    void theFunctionMountsTheDirectoriesTopLevelDirectoryThroughAnAccessPointActingAsRootInTheDataSubnet() {
        EfsStore efs = store();
        efs.addDirectory("/features/imagenet");
        efs.addDirectory("/features/coco");
        Template t = Template.fromStack(stack);
        String accessPoint = logicalId(t, "AWS::EFS::AccessPoint");

        t.hasResourceProperties("AWS::EFS::AccessPoint", Map.of(
                "FileSystemId", resolve(efs.getFileSystemId()),
                "RootDirectory", Map.of("Path", "/features",
                        "CreationInfo", Map.of("OwnerUid", "0", "OwnerGid", "0", "Permissions", "755")),
                "PosixUser", Map.of("Uid", "0", "Gid", "0")));
        t.hasResourceProperties("AWS::Lambda::Function", Map.of(
                "Handler", HANDLER,
                "Runtime", "java25",
                "Timeout", 60,
                "Environment", Map.of("Variables", Map.of("ACCESS_POINT_ROOT", "/features")),
                "FileSystemConfigs", List.of(Map.of(
                        "Arn", Match.objectLike(Map.of("Fn::Join", List.of("", Match.arrayWith(List.of(
                                ":access-point/", Map.of("Ref", accessPoint)))))),
                        "LocalMountPath", "/mnt/efs")),
                "VpcConfig", Map.of(
                        "SubnetIds", List.of(resolve(network.getDataSubnet().getSubnetId())),
                        "SecurityGroupIds", List.of(Map.of("Fn::GetAtt",
                                List.of(logicalId(t, "AWS::EC2::SecurityGroup", "Efs/Directories/SecurityGroup"), "GroupId"))))));
    }

    @Test
    void directoriesUnderDifferentTopLevelDirectoriesNeedTheFileSystemsRoot() {
        EfsStore efs = store();
        efs.addDirectory("/features/imagenet");
        efs.addDirectory("/labels");
        Template t = Template.fromStack(stack);

        t.hasResourceProperties("AWS::EFS::AccessPoint", Map.of("RootDirectory", Map.of("Path", "/")));
        t.hasResourceProperties("AWS::Lambda::Function", Map.of(
                "Environment", Map.of("Variables", Map.of("ACCESS_POINT_ROOT", "/"))));
    }

    @Test
    void theAccessPointRootIsTheSharedTopLevelDirectoryWhenItIsAValidRoot() {
        assertEquals("/features", EfsDirectories.accessPointRoot(List.of("/features")));
        assertEquals("/features", EfsDirectories.accessPointRoot(List.of("/features/a", "/./features/b/c")));
        assertEquals("/", EfsDirectories.accessPointRoot(List.of("/features/a", "/labels/a")));
        assertEquals("/", EfsDirectories.accessPointRoot(List.of("/.hidden/a")));
        assertEquals("/", EfsDirectories.accessPointRoot(List.of("/a$b/c")));
        assertEquals("/" + "d".repeat(99), EfsDirectories.accessPointRoot(List.of("/" + "d".repeat(99) + "/x")));
        assertEquals("/", EfsDirectories.accessPointRoot(List.of("/" + "d".repeat(100) + "/x")));
        CfnParameter path = CfnParameter.Builder.create(stack, "Path").build();
        assertEquals("/", EfsDirectories.accessPointRoot(List.of("/features/a", path.getValueAsString())));
    }

    /** The logical id of the resource at {@code path} (below the stack; a construct stands for its default child). */
    private String logicalId(Template t, String type, String path) {
        IConstruct node = stack;
        for (String id : path.split("/")) {
            node = node.getNode().findChild(id);
        }
        if (!(node instanceof CfnElement)) {
            node = node.getNode().getDefaultChild();
        }
        String id = stack.getLogicalId((CfnElement) node);
        assertTrue(t.findResources(type).containsKey(id), id + " is a " + type);
        return id;
    }

    @Test
    void nfsIsTheOnlyTrafficBetweenTheFunctionAndTheFileSystem() {
        EfsStore efs = store();
        efs.addDirectory("/features");
        Template t = Template.fromStack(stack);
        Map<String, Object> function = Map.of("Fn::GetAtt", List.of(logicalId(t, "AWS::EC2::SecurityGroup",
                "Efs/Directories/SecurityGroup"), "GroupId"));
        Object fileSystem = resolve(efs.getConnections().getSecurityGroups().get(0).getSecurityGroupId());

        t.hasResourceProperties("AWS::EC2::SecurityGroupIngress", Map.of("GroupId", fileSystem,
                "SourceSecurityGroupId", function, "IpProtocol", "tcp", "FromPort", 2049, "ToPort", 2049));
        Map<String, Map<String, Object>> egress = t.findResources("AWS::EC2::SecurityGroupEgress",
                Map.of("Properties", Match.objectLike(Map.of("GroupId", function))));
        assertEquals(List.of(Map.of("GroupId", function, "DestinationSecurityGroupId", fileSystem,
                "IpProtocol", "tcp", "FromPort", 2049, "ToPort", 2049)), egress.values().stream()
                .map(EfsDirectoriesTest::withoutDescription).toList());
        t.hasResourceProperties("AWS::EC2::SecurityGroup", Map.of(
                "GroupDescription", "Function that creates EFS directories: NFS to the file system only",
                "SecurityGroupEgress", Match.absent()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withoutDescription(Map<String, Object> resource) {
        Map<String, Object> properties = new HashMap<>((Map<String, Object>) resource.get("Properties"));
        properties.remove("Description");
        return properties;
    }

    /** Matches a message that starts with {@code text} (the pattern runs in JavaScript, so it is escaped here). */
    private static Object message(String text) {
        return Match.stringLikeRegexp("^" + text.replaceAll("[\\\\^$.|?*+()\\[\\]{}]", "\\\\$0"));
    }

    @Test
    void theFunctionMayMountWriteAndActAsRootOnlyThroughItsAccessPoint() {
        EfsStore efs = store();
        efs.addDirectory("/features");
        Template t = Template.fromStack(stack);
        String accessPoint = logicalId(t, "AWS::EFS::AccessPoint");
        String role = logicalId(t, "AWS::IAM::Role", "Efs/Directories/Function/ServiceRole");

        Object accessPointArn = Match.objectLike(Map.of("Fn::Join", List.of("", Match.arrayWith(List.of(
                ":access-point/", Map.of("Ref", accessPoint))))));
        Map<String, Object> statement = Map.of(
                "Effect", "Allow",
                "Action", List.of("elasticfilesystem:ClientMount", "elasticfilesystem:ClientRootAccess",
                        "elasticfilesystem:ClientWrite"),
                "Resource", resolve(efs.getFileSystem().getFileSystemArn()),
                "Condition", Map.of("StringEquals", Map.of("elasticfilesystem:AccessPointArn", accessPointArn)));
        t.hasResourceProperties("AWS::IAM::Policy", Map.of("Roles", List.of(Map.of("Ref", role)),
                "PolicyDocument", Map.of("Version", "2012-10-17", "Statement", List.of(statement))));
        t.hasResourceProperties("AWS::IAM::Role", Map.of("ManagedPolicyArns", List.of(
                Match.objectLike(Map.of("Fn::Join", List.of("", Match.arrayWith(List.of(
                        ":iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"))))),
                Match.objectLike(Map.of("Fn::Join", List.of("", Match.arrayWith(List.of(
                        ":iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole"))))))));
    }

    @Test
    void theFunctionWaitsForEveryMountTargetAndTheNfsRules() {
        EfsStore efs = store();
        efs.addDirectory("/features");
        Template t = Template.fromStack(stack);
        List<String> dependsOn = dependsOn(t, logicalId(t, "AWS::Lambda::Function", "Efs/Directories/Function"));

        for (String mountTarget : t.findResources("AWS::EFS::MountTarget").keySet()) {
            assertTrue(dependsOn.contains(mountTarget), mountTarget + " in " + dependsOn);
        }
        assertTrue(dependsOn.contains(egressOf(t, logicalId(t, "AWS::EC2::SecurityGroup", "Efs/Directories/SecurityGroup"))));
        assertTrue(dependsOn.contains(ingressFrom(t, logicalId(t, "AWS::EC2::SecurityGroup", "Efs/Directories/SecurityGroup"))));
    }

    private static String egressOf(Template t, String group) {
        return onlyKey(t.findResources("AWS::EC2::SecurityGroupEgress", Map.of("Properties", Match.objectLike(
                Map.of("GroupId", Map.of("Fn::GetAtt", List.of(group, "GroupId")))))));
    }

    private static String ingressFrom(Template t, String group) {
        return onlyKey(t.findResources("AWS::EC2::SecurityGroupIngress", Map.of("Properties", Match.objectLike(
                Map.of("SourceSecurityGroupId", Map.of("Fn::GetAtt", List.of(group, "GroupId")))))));
    }

    private static String onlyKey(Map<String, ?> found) {
        assertEquals(1, found.size(), found.keySet().toString());
        return found.keySet().iterator().next();
    }

    @SuppressWarnings("unchecked")
    private static List<String> dependsOn(Template t, String logicalId) {
        Object value = ((Map<String, Map<String, Object>>) t.toJSON().get("Resources")).get(logicalId).get("DependsOn");
        return value == null ? List.of() : (List<String>) value;
    }

    @Test
    void theFunctionsRoleIsDeletedOnlyAfterItsSecurityGroupSoLambdaCanReleaseTheNetworkInterfaces() {
        store().addDirectory("/features");
        Template t = Template.fromStack(stack);
        List<String> dependsOn = dependsOn(t, logicalId(t, "AWS::EC2::SecurityGroup", "Efs/Directories/SecurityGroup"));

        assertTrue(dependsOn.contains(logicalId(t, "AWS::IAM::Role", "Efs/Directories/Function/ServiceRole")), dependsOn.toString());
        assertTrue(dependsOn.contains(logicalId(t, "AWS::IAM::Policy", "Efs/Directories/Function/ServiceRole/DefaultPolicy")), dependsOn.toString());
    }

    @Test
    void theStacksProviderOutsideTheVpcInvokesOnlyTheDirectoriesFunctionWhichIsInTheVpc() {
        store().addDirectory("/features");
        Template t = Template.fromStack(stack);
        String provider = logicalId(t, "AWS::Lambda::Function", "CustomResourceProvider/Handler");
        String function = logicalId(t, "AWS::Lambda::Function", "Efs/Directories/Function");
        String role = logicalId(t, "AWS::IAM::Role", "Efs/Directories/HandlerRole");

        Map<?, ?> outside = (Map<?, ?>) t.findResources("AWS::Lambda::Function").get(provider).get("Properties");
        assertFalse(outside.containsKey("VpcConfig"), outside.toString());
        assertTrue(((Map<?, ?>) t.findResources("AWS::Lambda::Function").get(function).get("Properties"))
                .containsKey("VpcConfig"));
        Map<String, Object> resource = t.findResources("Custom::EfsDirectories").values().iterator().next();
        Map<?, ?> properties = (Map<?, ?>) resource.get("Properties");
        assertEquals(Map.of("Fn::GetAtt", List.of(provider, "Arn")), properties.get("ServiceToken"));
        assertEquals(logicalId(t, "Custom::EfsDirectories", "Efs/Directories/Exist"),
                t.findResources("Custom::EfsDirectories").keySet().iterator().next(), "a logical id the last release "
                + "(Efs/Directories/Resource, on a provider of its own) did not have: its token could not change");
        assertEquals(Map.of("Fn::GetAtt", List.of(function, "Arn")), properties.get("DirectoriesFunction"));
        assertEquals(Map.of("Fn::GetAtt", List.of(role, "Arn")), properties.get("RoleArn"), "the resource names its "
                + "role, which outlives it");
        assertEquals(List.of(Map.of("Action", "lambda:InvokeFunction", "Effect", "Allow",
                "Resource", Map.of("Fn::GetAtt", List.of(function, "Arn")))), PolicyStatements.of(
                t.findResources("AWS::IAM::Role").get(role)), "the store's role may only invoke its function");
    }

    @Test
    void theDefinitionDeploysAfterTheDirectoriesExist() {
        EfsStore efs = store();
        definition(stack, "Training", efs, "/features");
        Template t = Template.fromStack(stack);
        String directories = logicalId(t, "Custom::EfsDirectories");

        assertTrue(dependsOn(t, logicalId(t, "AWS::StepFunctions::StateMachine", "Training/StateMachine/Resource"))
                .contains(directories));
        assertTrue(dependsOn(t, logicalId(t, "AWS::SSM::Parameter")).contains(directories));
    }

    @Test
    void aDefinitionInAnotherStackDeploysAfterTheStoresStack() {
        EfsStore efs = store();
        Stack training = new Stack(app, "Training");
        definition(training, "Training", efs, "/features");

        Template.fromStack(stack).hasResourceProperties("Custom::EfsDirectories",
                Map.of("Directories", List.of("/features")));
        Template.fromStack(training).resourceCountIs("Custom::EfsDirectories", 0);
        assertTrue(training.getDependencies().contains(stack));
    }

    @Test
    void aDeployTimePathOfAnotherStackIsNotPassedToTheStoresStack() {
        EfsStore efs = store();
        Stack training = new Stack(app, "Training");
        // Bounded, so the bound request fits its SSM parameter (TRAINING_STORE_REQUEST_IN_PARAMETER).
        String path = CfnParameter.Builder.create(training, "Path").maxLength(64).build().getValueAsString();
        definition(training, "Training", efs, path);

        assertEquals(List.of(), efs.getDirectories());
        Annotations.fromStack(training).hasWarning("/Training/Training", message("Training/Training: channel 'c0' "
                + "reads a directory given as a deploy-time value of another stack than its EFS store Test/Efs, which "
                + "therefore cannot create it: "));
        Template.fromStack(stack).resourceCountIs("Custom::EfsDirectories", 0);
    }

    @Test
    void aChannelsDeployTimePathInTheStoresStackIsCreated() {
        EfsStore efs = store();
        CfnParameter path = CfnParameter.Builder.create(stack, "Path").build();
        definition(stack, "Training", efs, path.getValueAsString());

        Template.fromStack(stack).hasResourceProperties("Custom::EfsDirectories",
                Map.of("Directories", List.of(Map.of("Ref", "Path"))));
        Annotations.fromStack(stack).hasNoWarning("/Test/Training", Match.anyValue());
    }

    @Test
    void acceptsADeployTimePathInTheStoresStack() {
        EfsStore efs = store();
        CfnParameter path = CfnParameter.Builder.create(stack, "Path").build();
        efs.addDirectory(path.getValueAsString());

        Template.fromStack(stack).hasResourceProperties("Custom::EfsDirectories",
                Map.of("Directories", List.of(Map.of("Ref", "Path"))));
    }

    static Stream<String> badDirectories() {
        return Stream.of("features", "/features/../etc", "/features/..", "/features//imagenet", "/" + "d".repeat(4096));
    }

    @ParameterizedTest(name = "bad directory {index}")
    @MethodSource("badDirectories")
    void rejectsADirectoryThatIsRelativeEscapesHasEmptySegmentsOrIsTooLong(String path) {
        EfsStore efs = store();
        assertRule("EFS_PATH_FORMAT", () -> efs.addDirectory(path),
                "Test/Efs", "directory", path, PATH_RULE);
    }

    @Test
    void rejectsNoDirectory() {
        EfsStore efs = store();
        assertRule("EFS_PATH_REQUIRED", () -> efs.addDirectory(null),
                "Test/Efs", "directory", "null", "an absolute path from the EFS root such as /datasets/train");
    }

    @Test
    void acceptsTheLongestPath() {
        EfsStore efs = store();
        String path = "/" + "d".repeat(4095);
        efs.addDirectory(path);
        assertEquals(List.of(path), efs.getDirectories());
    }

    @Test
    void withoutCreationTheDeployListsTheDirectoriesInAnOutputAndWarnsAtSynth() {
        EfsStore efs = store(EfsStoreProps.builder().createDirectories(false));
        CfnParameter path = CfnParameter.Builder.create(stack, "Path").build();
        definition(stack, "Training", efs, "/features", path.getValueAsString());
        Template t = Template.fromStack(stack);

        assertFalse(efs.isCreatingDirectories());
        t.resourceCountIs("Custom::EfsDirectories", 0);
        t.resourceCountIs("AWS::EFS::AccessPoint", 0);
        t.hasOutput("*", Map.of(
                "Description", "Directories to create on the EFS file system Test/Efs before a training job reads them "
                        + "(createDirectories is false)",
                "Value", Map.of("Fn::Join", List.of("", List.of(Map.of("Ref", "Path"), ", /features")))));
        Annotations a = Annotations.fromStack(stack);
        a.hasWarning("/Test/Efs", message("Test/Efs: create /features on the file system before a training job reads "
                + "it (createDirectories is false)"));
        a.hasWarning("/Test/Efs", message("Test/Efs: create the directory given as a deploy-time value (it is in the "
                + "stack output DirectoriesToCreate) on the file system before a training job reads it "
                + "(createDirectories is false)"));
    }

    @Test
    void anExistingFileSystemGetsItsDirectoriesThroughItsOwnSecurityGroup() {
        SecurityGroup group = SecurityGroup.Builder.create(stack, "ExistingGroup").vpc(network.getVpc()).build();
        EfsStore efs = store(EfsStoreProps.builder().fileSystem(FileSystem.fromFileSystemAttributes(stack, "Existing",
                FileSystemAttributes.builder().fileSystemId("fs-0123456789abcdef0").securityGroup(group).build())));
        definition(stack, "Training", efs, "/features");
        Template t = Template.fromStack(stack);

        t.hasResourceProperties("AWS::EFS::AccessPoint", Map.of("FileSystemId", "fs-0123456789abcdef0"));
        t.hasResourceProperties("Custom::EfsDirectories", Map.of("FileSystemId", "fs-0123456789abcdef0",
                "Directories", List.of("/features")));
        t.hasResourceProperties("AWS::EC2::SecurityGroupIngress", Map.of(
                "GroupId", resolve(group.getSecurityGroupId()), "FromPort", 2049,
                "SourceSecurityGroupId", Map.of("Fn::GetAtt", List.of(logicalId(t, "AWS::EC2::SecurityGroup",
                        "Efs/Directories/SecurityGroup"), "GroupId"))));
    }

    @Test
    void aOneZoneFileSystemIsReachedFromTheDataSubnetAfterItsOneMountTarget() {
        EfsStore efs = store(EfsStoreProps.builder().oneZone(true));
        efs.addDirectory("/features");
        Template t = Template.fromStack(stack);

        t.hasResourceProperties("AWS::Lambda::Function", Map.of("Handler", HANDLER, "VpcConfig", Match.objectLike(
                Map.of("SubnetIds", List.of(resolve(network.getDataSubnet().getSubnetId()))))));
        assertTrue(dependsOn(t, logicalId(t, "AWS::Lambda::Function", "Efs/Directories/Function"))
                .contains(logicalId(t, "AWS::EFS::MountTarget")));
    }

    @Test
    void warnsWhereLambdaCannotMountEfs() {
        Stack calgary = new Stack(TestApps.app(), "Calgary", StackProps.builder()
                .env(Environment.builder().account("123456789012").region("ca-west-1").build()).build());
        TrainingNetwork net = new TrainingNetwork(calgary, "Network");
        new EfsStore(calgary, "Efs", EfsStoreProps.builder().network(net).build()).addDirectory("/features");

        Annotations.fromStack(calgary).hasWarning("/Calgary/Efs", message("Calgary/Efs: Lambda cannot mount EFS in "
                + "ca-west-1, so the directories cannot be created during the deploy; set createDirectories(false) and "
                + "create them yourself"));
    }

    @Test
    void synthesizesInABareApp() {
        Stack bare = new Stack(new App(), "Bare");
        EfsStore efs = new EfsStore(bare, "Efs", EfsStoreProps.builder().network(new TrainingNetwork(bare, "Network"))
                .build());
        definition(bare, "Training", efs, "/features");

        Template.fromStack(bare).resourceCountIs("Custom::EfsDirectories", 1);
    }
}
