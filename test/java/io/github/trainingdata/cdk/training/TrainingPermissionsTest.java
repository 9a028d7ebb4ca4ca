package io.github.trainingdata.cdk.training;

import static io.github.trainingdata.cdk.PolicyStatements.allStatements;
import static io.github.trainingdata.cdk.PolicyStatements.statements;
import static io.github.trainingdata.cdk.PolicyStatements.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.Intrinsics;
import io.github.trainingdata.cdk.NagFindings;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awscdk.CfnParameter;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.ecr.Repository;
import software.amazon.awscdk.services.iam.FromRoleArnOptions;
import software.amazon.awscdk.services.iam.Role;
import software.constructs.IConstruct;

/**
 * The IAM of a definition: a least-privilege execution role and the state machine's .sync grants. aws-cdk-lib
 * merges statements (minimizePolicies), so the checks look at which resources each action is allowed on,
 * with intrinsics evaluated to strings ({@link io.github.trainingdata.cdk.PolicyStatements#strings}).
 */
class TrainingPermissionsTest {
    private static final String PARTITION = "arn:REF(AWS::Partition)";
    private static final String BUCKET = PARTITION + ":s3:::team-datasets";

    private static TrainingFixture shared;
    private static Template threeStores;
    private static String executionRole;
    private static String stateMachineRole;

    @BeforeAll
    static void synthesizeOnce() {
        shared = new TrainingFixture();
        TrainingJobDefinition job = shared.threeStoreJob();
        threeStores = Template.fromStack(shared.stack);
        executionRole = logicalId(job.getRole());
        stateMachineRole = logicalId(job.getStateMachine().getNode().findChild("Role"));
    }

    private static String logicalId(IConstruct construct) {
        return Stack.of(construct).getLogicalId((CfnElement) construct.getNode().getDefaultChild());
    }

    /** @return the resources {@code action} is allowed on, evaluated, over all {@code statements} */
    private static Set<String> resourcesOf(List<Map<String, Object>> statements, String action) {
        Set<String> resources = new TreeSet<>();
        statements.stream().filter(s -> "Allow".equals(s.get("Effect")) && strings(s.get("Action")).contains(action))
                .forEach(s -> resources.addAll(strings(s.get("Resource"))));
        return resources;
    }

    /** @return every action the statements allow */
    private static Set<String> actionsOf(List<Map<String, Object>> statements) {
        Set<String> actions = new TreeSet<>();
        statements.forEach(s -> actions.addAll(strings(s.get("Action"))));
        return actions;
    }

    /** Asserts each of {@code actions} is allowed on exactly {@code resources} (none: not allowed at all). */
    private static void assertAllowedOnlyOn(Set<String> resources, List<Map<String, Object>> statements,
            List<String> actions) {
        for (String action : actions) {
            assertEquals(resources, resourcesOf(statements, action), action);
        }
    }

    private static Map<String, Object> onlyStatementWith(List<Map<String, Object>> statements, String action) {
        List<Map<String, Object>> found = statements.stream()
                .filter(s -> strings(s.get("Action")).contains(action)).toList();
        assertEquals(1, found.size(), action + " in " + statements);
        return found.get(0);
    }

    private static List<Map<String, Object>> executionStatements() {
        return statements(threeStores, Map.of("Ref", executionRole));
    }

    private static List<Map<String, Object>> stateMachineStatements() {
        return statements(threeStores, Map.of("Ref", stateMachineRole));
    }

    @Test
    void executionRoleIsAssumedBySageMakerOnly() {
        threeStores.hasResourceProperties("AWS::IAM::Role", Map.of(
                "AssumeRolePolicyDocument", Map.of("Version", "2012-10-17", "Statement", List.of(Map.of(
                        "Action", "sts:AssumeRole", "Effect", "Allow",
                        "Principal", Map.of("Service", "sagemaker.amazonaws.com")))),
                "Description", "Execution role of SageMaker training jobs defined by Test/Training"));
        assertEquals(List.of(), threeStores.findResources("AWS::IAM::Role", Match.objectLike(Map.of("Properties",
                Match.objectLike(Map.of("ManagedPolicyArns", Match.anyValue()))))).keySet().stream()
                .filter(id -> id.startsWith("Training")).toList(),
                "no managed policies on the training roles (the stack provider's functions have the basic execution policy)");
    }

    @Test
    void noStatementGrantsAnS3WildcardActionOrS3OnEveryResource() {
        List<Map<String, Object>> all = allStatements(threeStores);
        assertTrue(all.size() > 10, "all statements found: " + all.size());
        for (Map<String, Object> statement : all) {
            List<String> actions = strings(statement.get("Action"));
            List<String> s3 = actions.stream().filter(a -> a.equals("*") || a.toLowerCase().startsWith("s3:"))
                    .toList();
            s3.forEach(a -> assertFalse(a.contains("*"), "wildcard S3 action in " + statement));
            if (!s3.isEmpty()) {
                assertFalse(strings(statement.get("Resource")).contains("*"), "S3 on '*' in " + statement);
            }
        }
    }

    @Test
    void readsObjectsOnlyUnderTheChannelOutputAndCheckpointPrefixes() {
        assertEquals(Set.of(BUCKET + "/imagenet/validation/*", BUCKET + "/training-output/*",
                BUCKET + "/checkpoints/resnet/*"), resourcesOf(executionStatements(), "s3:GetObject"));
    }

    @Test
    void listsTheBucketOnlyUnderThosePrefixes() {
        Map<String, Object> list = onlyStatementWith(executionStatements(), "s3:ListBucket");
        assertEquals(List.of("s3:ListBucket"), strings(list.get("Action")));
        assertEquals(List.of(BUCKET), strings(list.get("Resource")));
        assertEquals(Map.of("StringLike", Map.of("s3:prefix", List.of("imagenet/validation", "imagenet/validation/*",
                "training-output", "training-output/*", "checkpoints/resnet", "checkpoints/resnet/*"))),
                list.get("Condition"));
    }

    @Test
    void writesOnlyUnderTheOutputAndCheckpointPrefixes() {
        assertAllowedOnlyOn(Set.of(BUCKET + "/training-output/*", BUCKET + "/checkpoints/resnet/*"),
                executionStatements(), List.of("s3:PutObject", "s3:AbortMultipartUpload"));
    }

    @Test
    void deletesOnlyUnderTheCheckpointPrefixWhichSageMakerKeepsInSync() {
        assertAllowedOnlyOn(Set.of(BUCKET + "/checkpoints/resnet/*"), executionStatements(),
                List.of("s3:DeleteObject"));
    }

    @Test
    void deletesNothingWithoutCheckpoints() {
        TrainingFixture f = new TrainingFixture();
        f.define(f.props());
        assertAllowedOnlyOn(Set.of(), allStatements(Template.fromStack(f.stack)), List.of("s3:DeleteObject"));
    }

    @Test
    void attachesToTheVpcAndDescribesTheFileSystems() {
        assertAllowedOnlyOn(Set.of("*"), executionStatements(), ExecutionPermissions.VPC_ACTIONS);
        assertAllowedOnlyOn(Set.of("*"), executionStatements(), List.of("fsx:DescribeFileSystems"));
        assertAllowedOnlyOn(Set.of("GETATT(" + logicalId(shared.efs().getFileSystem()) + ".Arn)"),
                executionStatements(), List.of("elasticfilesystem:DescribeFileSystems",
                        "elasticfilesystem:DescribeMountTargets"));
    }

    @Test
    void writesLogsOnlyToTrainingJobLogGroups() {
        String logGroups = PARTITION + ":logs:REF(AWS::Region):REF(AWS::AccountId):log-group:"
                + "/aws/sagemaker/TrainingJobs*";
        assertAllowedOnlyOn(Set.of(logGroups), executionStatements(), List.of("logs:CreateLogGroup",
                "logs:CreateLogStream", "logs:PutLogEvents", "logs:DescribeLogStreams"));
        assertEquals(Set.of("*"), resourcesOf(executionStatements(), "cloudwatch:PutMetricData"));
    }

    @Test
    void pullsOnlyFromTheImageRepository() {
        String repository = PARTITION + ":ecr:us-east-1:123456789012:repository/trainer";
        assertAllowedOnlyOn(Set.of(repository), executionStatements(), List.of("ecr:BatchCheckLayerAvailability",
                "ecr:GetDownloadUrlForLayer", "ecr:BatchGetImage"));
        assertEquals(Set.of("*"), resourcesOf(executionStatements(), "ecr:GetAuthorizationToken"));
    }

    @Test
    void pullsOnlyFromARepositoryOfTheApp() {
        TrainingFixture f = new TrainingFixture();
        TrainingJobDefinition job = f.define(f.props().trainingImage(TrainingImage.fromEcrRepository(
                Repository.fromRepositoryName(f.stack, "Repository", "training"), "latest")));
        List<Map<String, Object>> statements = statements(Template.fromStack(f.stack),
                Map.of("Ref", logicalId(job.getRole())));
        assertEquals(Set.of(PARTITION + ":ecr:REF(AWS::Region):REF(AWS::AccountId):repository/training"),
                resourcesOf(statements, "ecr:BatchGetImage"));
        assertEquals(Set.of("*"), resourcesOf(statements, "ecr:GetAuthorizationToken"));
    }

    /**
     * A deploy-time URI (here a parameter) is taken apart by CloudFormation: the ARN below is what the policy's
     * intrinsics evaluate to once the parameter has the value, in the partition of the stack.
     */
    @ParameterizedTest
    @CsvSource({
        "123456789012.dkr.ecr.eu-west-1.amazonaws.com/trainer:1.0, aws, arn:aws:ecr:eu-west-1:123456789012:repository/trainer",
        "123456789012.dkr.ecr.us-east-1.amazonaws.com/worker, aws, arn:aws:ecr:us-east-1:123456789012:repository/worker",
        "123456789012.dkr.ecr.eu-west-1.amazonaws.com/team/preload/worker@sha256:"
                + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef, aws, "
                + "arn:aws:ecr:eu-west-1:123456789012:repository/team/preload/worker",
        "123456789012.dkr.ecr.cn-north-1.amazonaws.com.cn/team/worker:2, aws-cn, "
                + "arn:aws-cn:ecr:cn-north-1:123456789012:repository/team/worker",
        "123456789012.dkr.ecr-fips.us-gov-west-1.amazonaws.com/worker:3, aws-us-gov, "
                + "arn:aws-us-gov:ecr:us-gov-west-1:123456789012:repository/worker",
        // Not an ECR URI: an ARN that names no repository, rather than a failing deploy.
        "registry.example.com/app:1, aws, arn:aws:ecr::registry:repository/"
    })
    void aDeployTimeImageUriIsPulledFromTheRepositoryItNames(String uri, String partition, String arn) {
        TrainingFixture f = new TrainingFixture();
        CfnParameter image = CfnParameter.Builder.create(f.stack, "Image").build();
        TrainingJobDefinition job = f.define(f.props().trainingImage(TrainingImage.fromUri(image.getValueAsString())));
        List<Map<String, Object>> rendered = statements(Template.fromStack(f.stack), Map.of("Ref", logicalId(job.getRole())));
        Map<String, Object> pull = rendered.stream().filter(st -> strings(st.get("Action")).contains("ecr:BatchGetImage"))
                .findFirst().orElseThrow();
        assertEquals(Set.of("ecr:BatchCheckLayerAvailability", "ecr:GetDownloadUrlForLayer", "ecr:BatchGetImage"),
                Set.copyOf(strings(pull.get("Action"))));
        assertEquals(arn, Intrinsics.string(pull.get("Resource"), Map.of("Image", uri, "AWS::Partition", partition)));
        assertEquals(Set.of("*"), resourcesOf(rendered, "ecr:GetAuthorizationToken"));
    }

    @Test
    void aDeployTimeImagesPullGrantNeedsNoNewAcknowledgement() {
        TrainingFixture f = new TrainingFixture();
        CfnParameter image = CfnParameter.Builder.create(f.stack, "Image").build();
        f.define(f.props().trainingImage(TrainingImage.fromUri(image.getValueAsString()))
                .channels(List.of(f.s3("train").path("train").build())));
        // The repository ARN is intrinsics without a wildcard; ecr:GetAuthorizationToken on * is acknowledged.
        assertEquals("", NagFindings.of(f.stack));
    }

    @Test
    void aDeployTimeImageOnAnotherRegistryGetsNoPullButAWarning() {
        TrainingFixture f = new TrainingFixture();
        CfnParameter tag = CfnParameter.Builder.create(f.stack, "Tag").build();
        TrainingJobDefinition job = f.define(f.props().trainingImage(
                TrainingImage.fromUri("registry.example.com/app:" + tag.getValueAsString())));
        List<Map<String, Object>> statements = statements(Template.fromStack(f.stack),
                Map.of("Ref", logicalId(job.getRole())));
        assertEquals(Set.of(), resourcesOf(statements, "ecr:BatchGetImage"));
        assertEquals(Set.of(), resourcesOf(statements, "ecr:GetAuthorizationToken"));
        Annotations.fromStack(f.stack).hasWarning("/Test/Training", Match.stringLikeRegexp("Test/Training: "
                + "trainingImage is a deploy-time value on the registry registry.example.com, not Amazon ECR .*use "
                + "TrainingImage.fromEcrRepository\\(repository, tag\\), or grant ecr:BatchGetImage, .*"));
    }

    @Test
    void anS3OnlyJobHasNoVpcOrFileSystemActions() {
        TrainingFixture f = new TrainingFixture();
        TrainingJobDefinition job = f.define(f.props().channels(List.of(f.s3("train").path("train").build())));
        List<Map<String, Object>> statements = allStatements(Template.fromStack(f.stack));
        assertAllowedOnlyOn(Set.of(), statements, ExecutionPermissions.VPC_ACTIONS);
        assertAllowedOnlyOn(Set.of(), statements, List.of("fsx:DescribeFileSystems",
                "elasticfilesystem:DescribeFileSystems", "elasticfilesystem:DescribeMountTargets"));
        assertEquals(Set.of(BUCKET + "/imagenet/train/*", BUCKET + "/training-output/*"),
                resourcesOf(statements, "s3:GetObject"));
        assertEquals(null, job.getNetwork());
    }

    @Test
    void aManifestChannelReadsTheDatasetPrefix() {
        TrainingFixture f = new TrainingFixture();
        f.define(f.props().channels(List.of(f.s3("train").path("manifests/train.manifest")
                .dataType(S3ChannelDataType.MANIFEST_FILE).build())));
        assertEquals(Set.of(BUCKET + "/imagenet/*", BUCKET + "/training-output/*"),
                resourcesOf(allStatements(Template.fromStack(f.stack)), "s3:GetObject"));
    }

    @Test
    void executionRoleIsGrantedNothingElse() {
        Set<String> expected = new TreeSet<>(ExecutionPermissions.VPC_ACTIONS);
        expected.addAll(List.of("logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents",
                "logs:DescribeLogStreams", "cloudwatch:PutMetricData", "ecr:GetAuthorizationToken",
                "ecr:BatchCheckLayerAvailability", "ecr:GetDownloadUrlForLayer", "ecr:BatchGetImage", "s3:ListBucket",
                "s3:GetObject", "s3:PutObject", "s3:AbortMultipartUpload", "s3:DeleteObject", "fsx:DescribeFileSystems",
                "elasticfilesystem:DescribeFileSystems", "elasticfilesystem:DescribeMountTargets"));
        assertEquals(expected, actionsOf(executionStatements()));
    }

    @Test
    void stateMachineIsGrantedNothingElseBeyondLogDeliveryAndTracing() {
        Set<String> own = new TreeSet<>(actionsOf(stateMachineStatements()));
        own.removeIf(a -> a.startsWith("logs:") || a.startsWith("xray:"));
        assertEquals(Set.of("sagemaker:CreateTrainingJob", "sagemaker:DescribeTrainingJob", "sagemaker:StopTrainingJob",
                "sagemaker:ListTags", "sagemaker:AddTags", "iam:PassRole", "events:PutTargets", "events:PutRule",
                "events:DescribeRule", "s3:ListBucket"), own);
    }

    @Test
    void stateMachineMayListOnlyTheCheckpointPrefixToFindCheckpointsToResume() {
        Map<String, Object> list = onlyStatementWith(stateMachineStatements(), "s3:ListBucket");
        assertEquals(List.of("s3:ListBucket"), strings(list.get("Action")));
        assertEquals(List.of(BUCKET), strings(list.get("Resource")));
        assertEquals(Map.of("StringLike", Map.of("s3:prefix", List.of("checkpoints/resnet/*"))), list.get("Condition"));
    }

    @Test
    void stateMachineManagesOnlyJobsWithThePrefix() {
        String jobs = PARTITION + ":sagemaker:REF(AWS::Region):REF(AWS::AccountId):training-job/resnet-*";
        assertAllowedOnlyOn(Set.of(jobs), stateMachineStatements(), List.of("sagemaker:CreateTrainingJob",
                "sagemaker:DescribeTrainingJob", "sagemaker:StopTrainingJob", "sagemaker:ListTags",
                "sagemaker:AddTags"));
    }

    @Test
    void stateMachinePassesOnlyTheExecutionRoleToSageMaker() {
        Map<String, Object> pass = onlyStatementWith(stateMachineStatements(), "iam:PassRole");
        assertEquals(List.of("iam:PassRole"), strings(pass.get("Action")));
        assertEquals(List.of("GETATT(" + executionRole + ".Arn)"), strings(pass.get("Resource")));
        assertEquals(Map.of("StringEquals", Map.of("iam:PassedToService", "sagemaker.amazonaws.com")),
                pass.get("Condition"));
        assertEquals(1, allStatements(threeStores).stream()
                .filter(s -> strings(s.get("Action")).contains("iam:PassRole")).count());
    }

    @Test
    void stateMachineManagesOnlyTheSyncEventsRule() {
        String rule = PARTITION + ":events:REF(AWS::Region):REF(AWS::AccountId):rule/"
                + "StepFunctionsGetEventsForSageMakerTrainingJobsRule";
        assertAllowedOnlyOn(Set.of(rule), stateMachineStatements(), List.of("events:PutTargets", "events:PutRule",
                "events:DescribeRule"));
    }

    @Test
    void stateMachineMayNotTagWithoutTags() {
        TrainingFixture f = new TrainingFixture();
        f.define(f.props().jobNamePrefix("plain"));
        List<Map<String, Object>> statements = allStatements(Template.fromStack(f.stack));
        assertEquals(Set.of(), resourcesOf(statements, "sagemaker:AddTags"));
        assertEquals(Set.of(PARTITION + ":sagemaker:REF(AWS::Region):REF(AWS::AccountId):training-job/plain-*"),
                resourcesOf(statements, "sagemaker:CreateTrainingJob"));
    }

    @Test
    void aPrefixWithCapitalsIsAllowedAsGivenAndInLowercase() {
        TrainingFixture f = new TrainingFixture();
        f.define(f.props().jobNamePrefix("ResNet"));
        List<Map<String, Object>> statements = allStatements(Template.fromStack(f.stack));
        String jobs = PARTITION + ":sagemaker:REF(AWS::Region):REF(AWS::AccountId):training-job/";
        assertEquals(Set.of(jobs + "ResNet-*", jobs + "resnet-*"), resourcesOf(statements, "sagemaker:CreateTrainingJob"));
    }

    @Test
    void aVolumeKeyMayBeGrantedToTheInstancesVolumesOnly() {
        TrainingFixture f = new TrainingFixture();
        software.amazon.awscdk.services.kms.Key key = new software.amazon.awscdk.services.kms.Key(f.stack, "Volume");
        f.define(f.props().jobNamePrefix("encrypted").volumeKey(key));
        Map<String, Object> grant = onlyStatementWith(allStatements(Template.fromStack(f.stack)), "kms:CreateGrant");
        assertEquals(List.of("kms:CreateGrant"), strings(grant.get("Action")));
        assertEquals(Map.of("Bool", Map.of("kms:GrantIsForAWSResource", "true")), grant.get("Condition"));
    }

    @Test
    void anImmutableGivenRoleIsWarnedAbout() {
        TrainingFixture f = new TrainingFixture();
        f.define(f.props().jobNamePrefix("given").role(Role.fromRoleArn(f.stack, "Given",
                "arn:aws:iam::123456789012:role/training", FromRoleArnOptions.builder().mutable(false).build())));
        Annotations.fromStack(f.stack).hasWarning("/Test/Training", Match.stringLikeRegexp(
                "Test/Training: the execution role Test/Given is immutable, so it gets none of the grants its "
                        + "channels, outputs and image need; grant them outside this app or import it mutable.*"));
    }

    @Test
    void aGivenRoleGetsTheSameGrantsThroughAPolicy() {
        TrainingFixture f = new TrainingFixture();
        String arn = "arn:aws:iam::123456789012:role/training";
        f.define(f.props().jobNamePrefix("given").role(Role.fromRoleArn(f.stack, "Given", arn,
                FromRoleArnOptions.builder().mutable(true).build())).channels(List.of(f.s3("train").path("train")
                .build())));
        Template template = Template.fromStack(f.stack);
        List<Map<String, Object>> statements = statements(template, "training");

        template.resourcePropertiesCountIs("AWS::IAM::Role", Map.of("AssumeRolePolicyDocument", Match.objectLike(Map.of(
                "Statement", List.of(Match.objectLike(Map.of("Principal", Map.of("Service", "sagemaker.amazonaws.com")))))
        )), 0);
        template.hasResourceProperties("AWS::IAM::Role", Map.of("AssumeRolePolicyDocument", Match.objectLike(Map.of(
                "Statement", List.of(Match.objectLike(Map.of("Principal", Map.of("Service", "states.amazonaws.com")))))
        )));
        assertEquals(Set.of(BUCKET + "/imagenet/train/*", BUCKET + "/training-output/*"),
                resourcesOf(statements, "s3:GetObject"));
        assertEquals(Set.of(BUCKET + "/training-output/*"), resourcesOf(statements, "s3:PutObject"));
        assertEquals(Set.of(PARTITION + ":ecr:us-east-1:123456789012:repository/trainer"),
                resourcesOf(statements, "ecr:BatchGetImage"));
        assertEquals(Set.of(arn), resourcesOf(allStatements(template), "iam:PassRole"));
    }
}
