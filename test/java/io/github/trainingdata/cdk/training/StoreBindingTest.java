package io.github.trainingdata.cdk.training;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.EfsStoreProps;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.s3.Bucket;

/**
 * A definition that reads a Lustre cache of another stack binds to it when each execution (or launch) starts: only the
 * publication's literal name crosses the stacks, never the file system id, mount name or data subnet.
 */
class StoreBindingTest {
    private final App app = TestApps.app();
    private final Stack data = new Stack(app, "Data", env("us-east-1"));
    private final TrainingDataBucket bucket = new TrainingDataBucket(data, "Bucket", TrainingDataBucketProps.builder()
            .bucket(Bucket.fromBucketName(data, "Existing", "team-datasets")).build());
    private final TrainingNetwork network = new TrainingNetwork(data, "Network");

    private static StackProps env(String region) {
        return StackProps.builder().env(Environment.builder().account("123456789012").region(region).build()).build();
    }

    private LustreCache cache(String id) {
        return new LustreCache(data, id, LustreCacheProps.builder().network(network)
                .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(bucket).prefix("imagenet").build()))
                .build());
    }

    private static TrainingJobDefinition define(Stack stack, LustreCache cache, TrainingDataBucket output) {
        return new TrainingJobDefinition(stack, "Training", TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri(TrainingFixture.IMAGE))
                .instanceType("ml.m5.xlarge")
                .outputBucket(output)
                .channels(List.of(LustreChannel.builder("train").cache(cache).path("train").build()))
                .build());
    }

    @Test
    void aDefinitionInAnotherStackReadsTheCacheAsPublishedWhenEachExecutionStarts() throws Exception {
        LustreCache cache = cache("Lustre");
        Stack team = new Stack(app, "Team", env("us-east-1"));
        define(team, cache, bucket);

        Template.fromStack(data).hasResourceProperties("AWS::SSM::Parameter", Match.objectLike(Map.of(
                "Name", "/training-data/stores/Data.Lustre", "Type", "String")));
        String teamTemplate = Json.MAPPER.writeValueAsString(Template.fromStack(team).toJSON());
        List<String> crossing = crossing(teamTemplate);
        assertFalse(crossing.isEmpty(), "the training security group still crosses: it is stable");
        for (String value : crossing) {
            assertFalse(value.contains("Lustre") || value.contains("Subnet"), "crosses at deploy time: " + value);
        }
        assertTrue(team.getDependencies().contains(data), "the data stack deploys first");

        String request = storedRequest(team);
        for (String placeholder : List.of("{{DataStore:/training-data/stores/Data.Lustre:FileSystemId}}",
                "/{{DataStore:/training-data/stores/Data.Lustre:MountName}}/imagenet/train",
                "{{DataStore:/training-data/stores/Data.Lustre:Subnets}}")) {
            assertTrue(request.contains(placeholder), placeholder + " in " + request);
        }

        // The definition also reads the training group across stacks, so it is checked as the template's text.
        for (String state : List.of("\"ReadDataStore0\":{\"Type\":\"Task\"",
                "\"Parameters\":{\"Name\":\"/training-data/stores/Data.Lustre\"}",
                "\"DirectoryPath.$\":\"States.Format('/{}/imagenet/train', $.dataStore0.Document.MountName)\"",
                "\"Subnets.$\":\"$subnets\"", "\"InputDataConfig.$\":\"$inputDataConfig\"")) {
            assertTrue(teamTemplate.contains(state.replace("\"", "\\\"")), state);
        }
        assertTrue(teamTemplate.contains("\"arn:aws:ssm:us-east-1:123456789012:parameter/training-data/stores/"
                + "Data.Lustre\""), "the state machine reads exactly the publication");
    }

    @Test
    void everyCapacityAttemptReadsTheBindingExceptTheS3FallbacksOwnChannels() throws Exception {
        LustreCache cache = cache("Lustre");
        Stack team = new Stack(app, "Team", env("us-east-1"));
        new TrainingJobDefinition(team, "Training", TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri(TrainingFixture.IMAGE))
                .instanceType("ml.p4d.24xlarge")
                .outputBucket(bucket)
                .channels(List.of(LustreChannel.builder("train").cache(cache).path("train").build()))
                .capacityPolicy(CapacityPolicy.of(List.of(
                        CapacityStep.instanceTypes(List.of("ml.p5.48xlarge")), CapacityStep.s3Fallback())))
                .build());
        String template = Json.MAPPER.writeValueAsString(Template.fromStack(team).toJSON()).replace("\\\"", "\"");
        assertTrue(template.contains("\"inputDataConfig.$\":\"$.dataStoreBinding.InputDataConfig\","
                + "\"boundInputDataConfig.$\":\"$.dataStoreBinding.InputDataConfig\""), "the first job's");
        assertTrue(template.contains("\"availabilityZones.$\":\"$.dataStoreBinding.AvailabilityZones\""), template);
        assertTrue(template.contains("\"CapacityAttempt1\":{\"Type\":\"Pass\",\"Comment\":\"Capacity attempt 1: a "
                + "new job on ml.p5.48xlarge\",\"Assign\":{"), "the next instance type");
        assertTrue(template.contains("\"inputDataConfig.$\":\"$boundInputDataConfig\",\"subnets.$\":\"$boundSubnets\""),
                "the next instance type reads the same cache");
        assertTrue(template.contains("\"S3DataSource\""), "the S3 fallback reads the dataset's S3 location");
    }

    @Test
    void anS3DefinitionInAnotherStacksNetworkReadsItsSubnetAndGroupAsPublished() throws Exception {
        Stack team = new Stack(app, "Team", env("us-east-1"));
        new TrainingJobDefinition(team, "Training", TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri(TrainingFixture.IMAGE))
                .instanceType("ml.m5.xlarge")
                .outputBucket(bucket)
                .network(network)
                .channels(List.of(S3Channel.builder("train").dataBucket(bucket).path("train").build()))
                .build());

        Template.fromStack(data).hasResourceProperties("AWS::SSM::Parameter", Match.objectLike(Map.of(
                "Name", "/training-data/networks/Data.Network", "Type", "String")));
        String request = storedRequest(team).replace("\\\"", "\"");
        assertTrue(request.contains("\"VpcConfig\":{\"SecurityGroupIds\":[\"{{DataStore:/training-data/networks/"
                + "Data.Network:SecurityGroupId}}\"],\"Subnets\":\"{{DataStore:/training-data/networks/Data.Network:"
                + "Subnets}}\"}"), request);
        String teamTemplate = Json.MAPPER.writeValueAsString(Template.fromStack(team).toJSON());
        for (String value : crossing(teamTemplate)) {
            assertFalse(value.contains("Subnet"), "crosses at deploy time: " + value);
        }
        assertTrue(team.getDependencies().contains(data), "the network's stack deploys first");
        JsonNode states = AslSimulator.definitionOf(team).get("States");
        assertEquals("/training-data/networks/Data.Network", states.get("ReadDataStore0").get("Parameters").get("Name")
                .asText());
        JsonNode bind = states.get("BindDataStores").get("Parameters");
        assertEquals("$.dataStore0.Document.Subnets", bind.get("Subnets.$").asText());
        assertEquals("States.Array($.dataStore0.Document.SecurityGroupId)", bind.get("SecurityGroupIds.$").asText());
        assertFalse(bind.has("InputDataConfig"), "the S3 channel is rendered at synth");
        JsonNode vpc = states.get("Train").get("Parameters").get("VpcConfig");
        assertEquals("$securityGroupIds", vpc.get("SecurityGroupIds.$").asText());
        assertEquals("$subnets", vpc.get("Subnets.$").asText());
        assertTrue(teamTemplate.contains("\"arn:aws:ssm:us-east-1:123456789012:parameter/training-data/networks/"
                + "Data.Network\""), "the state machine reads exactly the publication");
    }

    @Test
    void theS3FallbackRunsInTheNetworksStorageSubnetsAsPublished() throws Exception {
        LustreCache cache = cache("Lustre");
        Stack team = new Stack(app, "Team", env("us-east-1"));
        new TrainingJobDefinition(team, "Training", TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri(TrainingFixture.IMAGE))
                .instanceType("ml.p4d.24xlarge")
                .outputBucket(bucket)
                .channels(List.of(LustreChannel.builder("train").cache(cache).path("train").build()))
                .capacityPolicy(CapacityPolicy.of(List.of(CapacityStep.s3Fallback())))
                .build());
        String plan = Json.MAPPER.writeValueAsString(Template.fromStack(team).findResources("AWS::SSM::Parameter",
                Match.objectLike(Map.of("Properties", Match.objectLike(Map.of("Description",
                        Match.stringLikeRegexp("Capacity policy.*")))))));
        assertTrue(plan.contains("\\\"Subnets\\\":\\\"{{DataStore:/training-data/networks/Data.Network:"
                + "StorageSubnets}}\\\""), plan);
        assertTrue(plan.contains("{{DataStore:/training-data/networks/Data.Network:StorageZones}}"), plan);
        assertTrue(plan.contains("\\\"FirstAttempt\\\":{\\\"DataSources\\\":\\\"FSxLustre\\\",\\\"AvailabilityZones"
                + "\\\":[\\\"{{DataStore:/training-data/stores/Data.Lustre:AvailabilityZone}}\\\"]}"), "the zone the "
                + "cache is published in, when the launch starts: " + plan);
        JsonNode states = AslSimulator.definitionOf(team).get("States");
        assertEquals("$.dataStore1.Document.StorageSubnets",
                states.get("BindDataStores").get("Parameters").get("FallbackSubnets.$").asText());
        JsonNode attempt = states.get("CapacityAttempt1").get("Assign");
        assertEquals("$boundFallbackSubnets", attempt.get("subnets.$").asText());
        assertEquals("$boundFallbackAvailabilityZones", attempt.get("availabilityZones.$").asText());
        for (String value : crossing(Json.MAPPER.writeValueAsString(Template.fromStack(team).toJSON()))) {
            assertFalse(value.contains("Subnet"), "crosses at deploy time: " + value);
        }
    }

    @Test
    void aNetworkInAnotherRegionIsPublishedNowhereTheDefinitionCanReadIt() {
        Stack team = new Stack(app, "Team", env("us-west-2"));
        TrainingDataBucket output = new TrainingDataBucket(team, "Output", TrainingDataBucketProps.builder()
                .bucket(Bucket.fromBucketName(team, "Existing", "team-output")).build());
        assertRule("TRAINING_STORE_PUBLISHED", () -> new TrainingJobDefinition(team, "Training",
                TrainingJobDefinitionProps.builder()
                        .trainingImage(TrainingImage.fromUri(TrainingFixture.IMAGE))
                        .instanceType("ml.m5.xlarge")
                        .outputBucket(output)
                        .network(network)
                        .build()), "Team/Training", "network", "Data/Network", "a network in the definition's account "
                        + "and Region (123456789012, us-west-2): Data publishes it in 123456789012, us-east-1, so "
                        + "nobody publishes it where the definition runs");
    }

    @Test
    void inItsOwnStackADefinitionReferencesTheCachePlainly() {
        LustreCache cache = cache("Lustre");
        define(data, cache, bucket);
        JsonNode states = AslSimulator.definitionOf(data).get("States");
        assertFalse(states.has("ReadDataStore0"));
        Template.fromStack(data).resourcePropertiesCountIs("AWS::SSM::Parameter",
                Match.objectLike(Map.of("Name", "/training-data/stores/Data.Lustre")), 0);
    }

    @Test
    void aCacheInANestedStackOfTheDefinitionsStackIsReferencedPlainly() {
        software.amazon.awscdk.NestedStack nested = new software.amazon.awscdk.NestedStack(data, "Storage");
        LustreCache cache = new LustreCache(nested, "Lustre", LustreCacheProps.builder().network(network)
                .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(bucket).prefix("imagenet").build()))
                .build());
        define(data, cache, bucket);
        assertFalse(AslSimulator.trainingStateMachines(Template.fromStack(data)).toString().contains("ReadDataStore"),
                "the nested stack deploys with its parent: nothing to read at run time");
        assertEquals(null, cache.getNode().tryFindChild("Publication"));
    }

    @Test
    void aCacheInAnotherRegionIsPublishedNowhereTheDefinitionCanReadIt() {
        LustreCache cache = cache("Lustre");
        Stack team = new Stack(app, "Team", env("us-west-2"));
        TrainingDataBucket output = new TrainingDataBucket(team, "Output", TrainingDataBucketProps.builder()
                .bucket(Bucket.fromBucketName(team, "Existing", "team-output")).build());
        assertRule("TRAINING_STORE_PUBLISHED", () -> define(team, cache, output), "Team/Training", "channels[0].cache",
                "Data/Lustre", "a cache in the definition's account and Region (123456789012, us-west-2): Data "
                        + "publishes it in 123456789012, us-east-1, so nobody publishes it where the definition runs");
    }

    @Test
    void aCacheInAStackThatDependsOnTheDefinitionsStackCannotDeployFirst() {
        LustreCache cache = cache("Lustre");
        Stack team = new Stack(app, "Team", env("us-east-1"));
        data.addStackDependency(team);
        assertRule("TRAINING_STORE_STACK", () -> define(team, cache, bucket), "Team/Training", "channels[0].cache",
                "Data/Lustre", "a cache in a stack of the same stage that does not depend on Team (the definition's "
                        + "stack must depend on its stack, which then deploys first)");
    }

    @Test
    void aRequestTooLargeForItsParameterCannotReadACacheOfAnotherStack() {
        LustreCache cache = cache("Lustre");
        Stack team = new Stack(app, "Team", env("us-east-1"));
        Map<String, String> environment = new java.util.TreeMap<>();
        for (int i = 0; i < 20; i++) {
            environment.put("VARIABLE_" + i, "x".repeat(512));
        }
        assertRule("TRAINING_STORE_REQUEST_IN_PARAMETER", () -> new TrainingJobDefinition(team, "Training",
                TrainingJobDefinitionProps.builder()
                        .trainingImage(TrainingImage.fromUri(TrainingFixture.IMAGE))
                        .instanceType("ml.m5.xlarge")
                        .outputBucket(bucket)
                        .environment(environment)
                        .channels(List.of(LustreChannel.builder("train").cache(cache).path("train").build()))
                        .build()), "Team/Training", "channels[0].cache",
                "Data/Lustre (another stack's) for a request document of up to 11544 bytes", "a store and network "
                        + "of this stack, or a request document that fits the SSM parameter (8192 bytes): the state "
                        + "machine reads them at run time, so the SDK launcher reads the parameter's request");
    }

    @Test
    void underStrongOrUnsetReferencesACacheReadFromAnotherStackWarnsAboutTheUpgrade() {
        Map<String, Object> context = TestApps.context();
        context.remove("@aws-cdk/core:defaultCrossStackReferences");
        App unset = new App(software.amazon.awscdk.AppProps.builder().context(context).build());
        Stack dataStack = new Stack(unset, "Data", env("us-east-1"));
        TrainingDataBucket output = new TrainingDataBucket(dataStack, "Bucket", TrainingDataBucketProps.builder()
                .bucket(Bucket.fromBucketName(dataStack, "Existing", "team-datasets")).build());
        LustreCache cache = new LustreCache(dataStack, "Lustre", LustreCacheProps.builder()
                .network(new TrainingNetwork(dataStack, "Network"))
                .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(output).build())).build());
        define(new Stack(unset, "Team", env("us-east-1")), cache, output);
        software.amazon.awscdk.assertions.Annotations.fromStack(dataStack).hasWarning("/Data/Lustre",
                Match.stringLikeRegexp(".*is unset, which aws-cdk-lib treats as strong.*set it to \"both\" and run "
                        + "cdk deploy --all.*"));
        software.amazon.awscdk.assertions.Annotations.fromStack(dataStack).hasWarning("/Data/Network",
                Match.stringLikeRegexp(".*import the data subnet's id, whose export this release drops.*"));

        define(new Stack(app, "Team", env("us-east-1")), cache("Lustre"), bucket);
        software.amazon.awscdk.assertions.Annotations.fromStack(data).hasNoWarning("/Data/Lustre",
                Match.stringLikeRegexp(".*cdk deploy --all.*"));
    }

    @Test
    void aDefinitionInAnotherStackReadsAnEfsStoreAsPublishedAndDescribesTheAccountsFileSystems() throws Exception {
        EfsStore efs = new EfsStore(data, "Efs", EfsStoreProps.builder().network(network).build());
        Stack team = new Stack(app, "Team", env("us-east-1"));
        new TrainingJobDefinition(team, "Training", TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri(TrainingFixture.IMAGE))
                .instanceType("ml.m5.xlarge")
                .outputBucket(bucket)
                .channels(List.of(EfsChannel.builder("train").store(efs).directoryPath("/datasets/train").build()))
                .build());

        Template.fromStack(data).hasResourceProperties("AWS::SSM::Parameter", Match.objectLike(Map.of(
                "Name", "/training-data/stores/Data.Efs", "Type", "String")));
        String teamTemplate = Json.MAPPER.writeValueAsString(Template.fromStack(team).toJSON());
        List<String> crossing = crossing(teamTemplate);
        for (String value : crossing) {
            assertFalse(value.contains("Efs") || value.contains("Subnet"), "crosses at deploy time: " + value);
        }
        assertTrue(team.getDependencies().contains(data), "the data stack deploys first");

        String request = storedRequest(team);
        for (String placeholder : List.of("{{DataStore:/training-data/stores/Data.Efs:FileSystemId}}",
                "/datasets/train", "{{DataStore:/training-data/stores/Data.Efs:Subnets}}")) {
            assertTrue(request.contains(placeholder), placeholder + " in " + request);
        }
        for (String state : List.of("\"Parameters\":{\"Name\":\"/training-data/stores/Data.Efs\"}",
                "\"FileSystemId.$\":\"$.dataStore0.Document.FileSystemId\"", "\"FileSystemType\":\"EFS\"")) {
            assertTrue(teamTemplate.contains(state.replace("\"", "\\\"")), state);
        }
        assertFalse(teamTemplate.contains("MountName"), "an EFS store has no mount name");
        assertTrue(teamTemplate.contains("\"arn:aws:elasticfilesystem:us-east-1:123456789012:file-system/*\""),
                "the role describes the account's file systems, not one whose id a replacement changes");
    }

    @Test
    void anEfsStoreInAnotherRegionIsPublishedNowhereTheDefinitionCanReadIt() {
        EfsStore efs = new EfsStore(data, "Efs", EfsStoreProps.builder().network(network).build());
        Stack team = new Stack(app, "Team", env("us-west-2"));
        TrainingDataBucket output = new TrainingDataBucket(team, "Output", TrainingDataBucketProps.builder()
                .bucket(Bucket.fromBucketName(team, "Existing", "team-output")).build());
        assertRule("TRAINING_STORE_PUBLISHED", () -> new TrainingJobDefinition(team, "Training",
                TrainingJobDefinitionProps.builder()
                        .trainingImage(TrainingImage.fromUri(TrainingFixture.IMAGE))
                        .instanceType("ml.m5.xlarge")
                        .outputBucket(output)
                        .channels(List.of(EfsChannel.builder("train").store(efs).directoryPath("/d").build()))
                        .build()), "Team/Training", "channels[0].store", "Data/Efs",
                "an EFS store in the definition's account and Region (123456789012, us-west-2): Data publishes it in "
                        + "123456789012, us-east-1, so nobody publishes it where the definition runs");
    }

    @Test
    void twoStoresCannotPublishUnderOneName() {
        cache("Lustre-A").publication();
        LustreCache second = cache("Lustre A");
        assertRule("STORE_PUBLICATION_UNIQUE", second::publication, "Data/Lustre A", "publication name",
                "/training-data/stores/Data.Lustre-A", "a name no other store publishes under (Data/Lustre-A does): "
                        + "give one of them another construct id");
    }

    /** Every value {@code template} reads from another stack at deploy time (imports and stack outputs). */
    private static List<String> crossing(String template) throws IOException {
        List<String> crossing = new ArrayList<>();
        Json.MAPPER.readTree(template).findValues("Fn::ImportValue").forEach(v -> crossing.add(v.toString()));
        Json.MAPPER.readTree(template).findValues("Fn::GetStackOutput").forEach(v -> crossing.add(v.toString()));
        return crossing;
    }

    /** The SSM parameter that holds {@code stack}'s CreateTrainingJob request, as JSON. */
    private static String storedRequest(Stack stack) throws IOException {
        return Json.MAPPER.writeValueAsString(Template.fromStack(stack).findResources("AWS::SSM::Parameter",
                Match.objectLike(Map.of("Properties", Match.objectLike(Map.of("Description",
                        Match.stringLikeRegexp("CreateTrainingJob request.*")))))));
    }
}
