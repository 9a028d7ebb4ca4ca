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
import software.amazon.awscdk.services.ecr.Repository;

class PlatformCompositionTest {
    private static App app;
    private static SharedDataStack data;
    private static SharedTrainingStack training;
    private static Template dataTemplate;
    private static Template trainingTemplate;

    @BeforeAll
    static void synthesizeOnce() {
        app = TestApps.app();
        StackProps env = StackProps.builder()
                .env(Environment.builder().account("123456789012").region("us-east-1").build()).build();
        data = new SharedDataStack(app, "TrainingDataShared", env);
        training = new SharedTrainingStack(app, "TrainingTeamVision", env, data);
        dataTemplate = Template.fromStack(data);
        trainingTemplate = Template.fromStack(training);
    }

    @Test
    void theDataStackCreatesOnlyTheCacheAndTheRulesInTheExistingVpc() {
        dataTemplate.resourceCountIs("AWS::EC2::VPC", 0);
        dataTemplate.resourceCountIs("AWS::S3::Bucket", 0);
        dataTemplate.resourceCountIs("AWS::EFS::FileSystem", 0);
        dataTemplate.resourceCountIs("AWS::FSx::FileSystem", 1);
        dataTemplate.hasResourceProperties("AWS::FSx::FileSystem", Match.objectLike(Map.of(
                "FileSystemTypeVersion", "2.15",
                "SubnetIds", List.of("subnet-0a1b2c3d4e5f60001"))));
        dataTemplate.resourceCountIs("Custom::DataRepositoryAssociation", 2);
        for (String dataset : List.of("imagenet", "coco")) {
            dataTemplate.hasResourceProperties("Custom::DataRepositoryAssociation", Match.objectLike(Map.of(
                    "FileSystemPath", "/" + dataset,
                    "DataRepositoryPath", "s3://team-training-data/vision/" + dataset + "/")));
        }
        dataTemplate.hasResourceProperties("AWS::EC2::SecurityGroupIngress", Map.of(
                "GroupId", "sg-0f1e2d3c4b5a69788", "FromPort", 2049, "ToPort", 2049));
    }

    @Test
    void bothDefinitionsShareTheCacheAcrossStacks() {
        Map<String, Map<String, Object>> trainingMachines = trainingTemplate.findResources(
                "AWS::StepFunctions::StateMachine");
        String preloadMachine = training.getLogicalId((CfnElement) training.getPreload().getStateMachine().getNode()
                .getDefaultChild());
        List<Map<String, Object>> definitions = trainingMachines.entrySet().stream()
                .filter(m -> !m.getKey().equals(preloadMachine) && m.getValue().toString().contains("createTrainingJob.sync"))
                .map(Map.Entry::getValue).toList();
        assertEquals(2, definitions.size());
        for (Map<String, Object> machine : definitions) {
            assertTrue(machine.toString().contains("StackName=TrainingDataShared"),
                    "the cache id and mount name come from the data stack");
            assertTrue(machine.get("DependsOn").toString().contains(training.getLogicalId(
                    (CfnElement) training.getPreload().getResource().getNode().getDefaultChild())),
                    "neither definition deploys before the shared cache is warm");
        }
        assertTrue(training.getDependencies().contains(data));
    }

    @Test
    void theTeamRoleIsGrantedWhatItsChannelsNeed() {
        trainingTemplate.hasResourceProperties("AWS::IAM::Policy", Map.of(
                "Roles", List.of("team-sagemaker-execution"),
                "PolicyDocument", Match.objectLike(Map.of("Statement", Match.arrayWith(List.of(Match.objectLike(Map.of(
                        "Action", Match.arrayWith(List.of("fsx:DescribeFileSystems"))))))))));
    }

    @Test
    void matchesTheSnapshots() throws Exception {
        Snapshots.assertMatches("SharedData", dataTemplate);
        Snapshots.assertMatches("SharedTraining", trainingTemplate);
    }

    @Test
    void passesTheAwsSolutionsPack() {
        for (Stack stack : List.<Stack>of(data, training)) {
            assertEquals("", NagFindings.of(stack), stack.getStackName());
        }
    }

    @Test
    void aDataStackMayHoldTheCacheAndItsPreloadAndATrainingStackTheDefinitionsItHoldsBack() {
        App app = TestApps.app();
        Environment env = Environment.builder().account("123456789012").region("us-east-1").build();
        SharedDataStack dataStack = new SharedDataStack(app, "Data", StackProps.builder().env(env).build());
        LustrePreload preload = new LustrePreload(dataStack, "Preload", LustrePreloadProps.builder()
                .cache(dataStack.getLustre())
                .image(TrainingImage.fromUri("123456789012.dkr.ecr.us-east-1.amazonaws.com/preload-worker:1"))
                .locations(List.of(dataStack.getLustre().location("imagenet", "train")))
                .build());
        Stack trainingStack = new Stack(app, "Training", StackProps.builder().env(env).build());
        TrainingJobDefinition definition = readingTheSharedCache(trainingStack, dataStack);
        preload.holdBack(definition);

        app.synth(); // a dependency cycle between the stacks would fail here
        assertTrue(trainingStack.getDependencies().contains(dataStack));
        assertFalse(dataStack.getDependencies().contains(trainingStack));
        String states = Template.fromStack(trainingStack).findResources("AWS::StepFunctions::StateMachine").toString();
        assertTrue(states.contains("describeExecution"), "training waits for the preload's execution");
    }

    @Test
    void aPreloadCannotBorrowADeployTimeImageFromAnotherStack() {
        App app = TestApps.app();
        SharedDataStack dataStack = new SharedDataStack(app, "Data", StackProps.builder().env(Environment.builder()
                .account("123456789012").region("us-east-1").build()).build());
        Stack trainingStack = new Stack(app, "Training");
        TrainingJobDefinition definition = readingTheSharedCache(trainingStack, dataStack);
        assertRule(() -> new LustrePreload(dataStack, "Preload", LustrePreloadProps.builder()
                .cache(dataStack.getLustre()).definition(definition).build()), "Data/Preload", "image", null,
                "a worker image given here: the definition Training/Resnet is in another stack and its image is a "
                        + "deploy-time value of that stack, which this stack cannot reference without a dependency cycle");
    }

    /** A definition in its own stack whose image is a repository of that stack, reading the shared cache. */
    private static TrainingJobDefinition readingTheSharedCache(Stack trainingStack, SharedDataStack dataStack) {
        return new TrainingJobDefinition(trainingStack, "Resnet", TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromEcrRepository(
                        Repository.fromRepositoryName(trainingStack, "Repo", "training"), "1"))
                .instanceType("ml.p4d.24xlarge")
                .outputBucket(dataStack.getDataBucket())
                .channels(List.of(LustreChannel.builder("train").cache(dataStack.getLustre())
                        .dataset("imagenet").path("train").build()))
                .build());
    }
}
