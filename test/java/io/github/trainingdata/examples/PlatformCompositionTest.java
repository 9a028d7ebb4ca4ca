package io.github.trainingdata.examples;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.NagFindings;
import io.github.trainingdata.cdk.Snapshots;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.preload.LustrePreload;
import io.github.trainingdata.cdk.preload.LustrePreloadProps;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.constructs.IConstruct;
import software.amazon.awscdk.services.ecr.Repository;

class PlatformCompositionTest {
    private static SharedDataStack data;
    private static List<SharedTrainingStack> teams;
    private static Template dataTemplate;

    @BeforeAll
    static void synthesizeOnce() {
        App app = TestApps.app();
        List<Stack> stacks = PlatformCompositionApp.build(app, PlatformCompositionApp.DATA,
                PlatformCompositionApp.TEAMS);
        data = (SharedDataStack) stacks.get(0);
        teams = stacks.subList(1, stacks.size()).stream().map(s -> (SharedTrainingStack) s).toList();
        dataTemplate = Template.fromStack(data);
    }

    @Test
    void theDataStackCreatesTheCacheItsPreloadAndTheRulesInTheExistingVpc() {
        dataTemplate.resourceCountIs("AWS::EC2::VPC", 0);
        dataTemplate.resourceCountIs("AWS::S3::Bucket", 0);
        dataTemplate.resourceCountIs("AWS::EFS::FileSystem", 0);
        dataTemplate.resourceCountIs("AWS::FSx::FileSystem", 1);
        dataTemplate.hasResourceProperties("AWS::FSx::FileSystem", Match.objectLike(Map.of(
                "FileSystemTypeVersion", "2.15",
                "SubnetIds", List.of("subnet-0a1b2c3d4e5f60001"))));
        dataTemplate.resourceCountIs("Custom::DataRepositoryAssociation", 3);
        for (String dataset : List.of("imagenet", "coco", "openimages")) {
            dataTemplate.hasResourceProperties("Custom::DataRepositoryAssociation", Match.objectLike(Map.of(
                    "FileSystemPath", "/" + dataset,
                    "DataRepositoryPath", "s3://team-training-data/vision/" + dataset + "/")));
        }
        dataTemplate.hasResourceProperties("AWS::EC2::SecurityGroupIngress", Map.of(
                "GroupId", "sg-0f1e2d3c4b5a69788", "FromPort", 2049, "ToPort", 2049));
        dataTemplate.resourceCountIs("Custom::LustrePreload", 1);
        dataTemplate.hasResourceProperties("Custom::LustrePreload", Match.objectLike(Map.of("DataLocations", List.of(
                "s3://team-training-data/vision/imagenet/", "s3://team-training-data/vision/coco/",
                "s3://team-training-data/vision/openimages/"))));
    }

    @Test
    void eachTeamsDefinitionReadsTheSharedCacheAndIsHeldBackByTheDataStacksPreload() {
        String preload = data.getLogicalId((CfnElement) data.getPreload().getResource().getNode().getDefaultChild());
        String pointer = data.getLogicalId((CfnElement) ((IConstruct) data.getPreload().getCurrentExecutionParameter())
                .getNode().getDefaultChild());
        assertEquals(2, teams.size());
        for (SharedTrainingStack team : teams) {
            Map<String, Map<String, Object>> machines = new java.util.LinkedHashMap<>(Template.fromStack(team)
                    .findResources("AWS::StepFunctions::StateMachine"));
            // The teardown provider's waiter is the other state machine.
            machines.keySet().removeIf(id -> id.contains("waiterstatemachine"));
            assertEquals(1, machines.size(), "one definition per team, no preload machine in the team's stack");
            String machine = machines.values().iterator().next().toString();
            assertTrue(machine.contains("/training-data/stores/TrainingDataShared.Lustre")
                    && !machine.contains("LustreF8935BA0"), "the cache is read as the data stack publishes it, when "
                    + "each execution starts; its id and mount name never cross at deploy time");
            // Only the pointer's name crosses the stacks: the execution is read from it when training starts.
            assertTrue(machine.contains("ssm:getParameter") && machine.contains(pointer)
                    && machine.contains("describeExecution"), "every execution waits for the data stack's preload");
            assertFalse(machine.contains(preload), "no per-warm attribute of the preload reaches the team's stack");
            assertTrue(team.getDependencies().contains(data), "the team's stack deploys after the warm-up");
            assertFalse(data.getDependencies().contains(team));
        }
    }

    @Test
    void theDataStackPublishesTheCacheOnceItsWarmUpIsTheCurrentOne() {
        String pointer = data.getLogicalId((CfnElement) ((IConstruct) data.getPreload().getCurrentExecutionParameter())
                .getNode().getDefaultChild());
        dataTemplate.hasResource("AWS::SSM::Parameter", Map.of(
                "Properties", Match.objectLike(Map.of("Name", "/training-data/stores/TrainingDataShared.Lustre")),
                "DependsOn", List.of(pointer)));
    }

    @Test
    void theTeamRoleIsGrantedWhatItsChannelsNeed() {
        Template.fromStack(teams.get(0)).hasResourceProperties("AWS::IAM::Policy", Map.of(
                "Roles", List.of("team-sagemaker-execution"),
                "PolicyDocument", Match.objectLike(Map.of("Statement", Match.arrayWith(List.of(Match.objectLike(Map.of(
                        "Action", Match.arrayWith(List.of("fsx:DescribeFileSystems"))))))))));
    }

    @Test
    void matchesTheSnapshots() throws Exception {
        Snapshots.assertMatches("SharedData", dataTemplate);
        for (SharedTrainingStack team : teams) {
            Snapshots.assertMatches("Shared" + team.getStackName(), Template.fromStack(team));
        }
    }

    @Test
    void passesTheAwsSolutionsPack() {
        assertEquals("", NagFindings.of(data), data.getStackName());
        for (Stack stack : teams) {
            assertEquals("", NagFindings.of(stack), stack.getStackName());
        }
    }

    @Test
    void aPreloadCannotBorrowADeployTimeImageFromAnotherStack() {
        App app = TestApps.app();
        SharedDataStack dataStack = new SharedDataStack(app, "Data", StackProps.builder().env(Environment.builder()
                .account("123456789012").region("us-east-1").build()).build(), PlatformCompositionApp.DATA);
        Stack trainingStack = new Stack(app, "Training");
        TrainingJobDefinition definition = new TrainingJobDefinition(trainingStack, "Resnet",
                TrainingJobDefinitionProps.builder()
                        .trainingImage(TrainingImage.fromEcrRepository(
                                Repository.fromRepositoryName(trainingStack, "Repo", "training"), "1"))
                        .instanceType("ml.p4d.24xlarge")
                        .outputBucket(dataStack.getDataBucket())
                        .channels(List.of(LustreChannel.builder("train").cache(dataStack.getLustre())
                                .dataset("imagenet").path("train").build()))
                        .build());
        assertRule("PRELOAD_IMAGE_CROSS_STACK", () -> new LustrePreload(dataStack, "TeamPreload", LustrePreloadProps.builder()
                .cache(dataStack.getLustre()).definition(definition).build()), "Data/TeamPreload", "image", null,
                "a worker image given here: the definition Training/Resnet is in another stack and its image is a "
                        + "deploy-time value of that stack, which this stack cannot reference without a dependency cycle");
    }
}
