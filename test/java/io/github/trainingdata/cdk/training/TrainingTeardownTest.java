package io.github.trainingdata.cdk.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.Intrinsics;
import io.github.trainingdata.cdk.PolicyStatements;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import io.github.trainingdata.examples.QuickstartStack;
import io.github.trainingdata.examples.PlatformCompositionApp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import io.github.trainingdata.cdk.Json;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Template;

/**
 * The teardown custom resource of a stack's definitions: what it is told of each, what it is deleted before, what it
 * may do, and that one teardown and one provider per stack serve every definition without ever changing its service
 * token.
 */
class TrainingTeardownTest {
    private static final String TYPE = TrainingTeardown.RESOURCE_TYPE;
    /** Stacks that share values: in one account and Region. */
    private static final StackProps ENV = StackProps.builder().env(Environment.builder().account("123456789012")
            .region("us-east-1").build()).build();

    /** @return the logical ids of the resources of {@code type} */
    private static List<String> ids(Template template, String type) {
        return new ArrayList<>(template.findResources(type).keySet());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> resource(Template template, String id) {
        return (Map<String, Object>) ((Map<String, Object>) template.toJSON().get("Resources")).get(id);
    }

    @SuppressWarnings("unchecked")
    private static Set<String> dependsOn(Template template, String id) {
        Object dependsOn = resource(template, id).get("DependsOn");
        return dependsOn == null ? Set.of() : new LinkedHashSet<>((List<String>) dependsOn);
    }

    /** The logical ids of the resources of {@code type} whose id starts with {@code prefix}. */
    private static Set<String> ids(Template template, String type, String prefix) {
        Set<String> ids = new LinkedHashSet<>();
        for (String id : template.findResources(type).keySet()) {
            if (id.startsWith(prefix)) {
                ids.add(id);
            }
        }
        return ids;
    }

    /** The statements of the policies of a role of the template, intrinsics evaluated. */
    /** @return the statements of one policy, intrinsics evaluated */
    private static List<?> policyStatements(Template template, String policy) {
        return (List<?>) Intrinsics.evaluate(PolicyStatements.of(resource(template, policy)));
    }

    /** @return the one entry of the stack's teardown's Definitions, intrinsics evaluated */
    private static Map<?, ?> onlyDefinition(Template t) {
        Map<?, ?> properties = (Map<?, ?>) Intrinsics.evaluate(t.findResources(TYPE).values().iterator().next()
                .get("Properties"));
        List<?> definitions = (List<?>) properties.get("Definitions");
        assertEquals(1, definitions.size(), definitions.toString());
        return (Map<?, ?>) definitions.get(0);
    }

    private static String only(Set<String> ids) {
        assertEquals(1, ids.size(), ids.toString());
        return ids.iterator().next();
    }

    @Test
    void theTeardownIsToldTheStateMachineThePrefixAndWhereTheJobsHoldNetworkInterfaces() {
        TrainingFixture f = new TrainingFixture();
        f.threeStoreJob();
        Template t = Template.fromStack(f.stack);

        String machine = only(ids(t, "AWS::StepFunctions::StateMachine", "TrainingStateMachine"));
        String group = only(ids(t, "AWS::EC2::SecurityGroup", "NetworkTrainingSecurityGroup"));
        String subnet = only(ids(t, "AWS::EC2::Subnet", "NetworkVpcDataSubnet1"));
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("Id", f.stack.getNode().getId() + "/Training");
        definition.put("StateMachineArn", Map.of("Ref", machine));
        definition.put("JobNamePrefix", "resnet");
        definition.put("SecurityGroupIds", List.of(Map.of("Fn::GetAtt", List.of(group, "GroupId"))));
        definition.put("SubnetIds", List.of(Map.of("Ref", subnet)));
        definition.put("JobLifetimeSeconds", 8 * 3600 + 86_400);
        definition.put("RoleArn", Map.of("Fn::GetAtt", List.of(only(ids(t, "AWS::IAM::Role", "TrainingTeardownRole")),
                "Arn")));
        t.hasResource(TYPE, Map.of("Properties", Map.of(
                "ServiceToken", Map.of("Fn::GetAtt", List.of(only(ids(t, "AWS::Lambda::Function",
                        "CustomResourceProviderHandler")), "Arn")),
                "Definitions", List.of(definition)),
                "DeletionPolicy", "Delete"));
    }

    @Test
    void withAnS3FallbackTheTeardownLooksInEverySubnetTheFallbackMayUseToo() {
        TrainingFixture f = new TrainingFixture();
        f.define(f.props().channels(List.of(f.lustreChannel("train", "train")))
                .capacityPolicy(CapacityPolicy.of(List.of(CapacityStep.s3Fallback()))));
        Template t = Template.fromStack(f.stack);

        Object subnets = onlyDefinition(t).get("SubnetIds");
        List<Object> fallback = Json.MAPPER.convertValue(AslSimulator.definitionOf(f.stack).get("States")
                .get("CapacityAttempt1").get("Assign").get("subnets"), List.class);
        Object own = Intrinsics.evaluate(Map.of("Ref", only(ids(t, "AWS::EC2::Subnet", "NetworkVpcDataSubnet1"))));
        List<Object> expected = new ArrayList<>(List.of(own));
        fallback.stream().filter(subnet -> !subnet.equals(own)).forEach(expected::add);
        assertEquals(expected, subnets, "the job's own subnet, then the fallback's other zones");
        assertEquals(2, expected.size(), expected.toString());
    }

    @Test
    void theJobLifetimeIsTheLongestRunOrSpotWaitPlusTheKeepAliveAndADay() {
        TrainingFixture f = new TrainingFixture();
        TrainingJobSpec spot = f.define(f.props().maxRuntime(Duration.hours(2)).managedSpot(true)
                .maxWait(Duration.hours(5))).getSpec();
        assertEquals(5 * 3600L + 86_400, TrainingTeardown.jobLifetimeSeconds(spot));
        TrainingFixture h = new TrainingFixture();
        TrainingJobSpec warm = h.define(h.props().maxRuntime(Duration.hours(2)).keepAlivePeriod(Duration.minutes(30)))
                .getSpec();
        assertEquals(2 * 3600L + 1800 + 86_400, TrainingTeardown.jobLifetimeSeconds(warm));
        TrainingFixture g = new TrainingFixture();
        TrainingJobSpec tokenRuntime = g.define(g.props().maxRuntime(Duration.seconds(
                Token.asNumber(Map.of("Ref", "MaxRuntime"))))).getSpec();
        assertEquals(null, TrainingTeardown.jobLifetimeSeconds(tokenRuntime),
                "a token is left to the handler, which then assumes SageMaker's longest");
    }

    @Test
    void theTeardownIsDeletedBeforeWhatAStoppingJobHoldsOrNeedsInItsStack() {
        TrainingFixture f = new TrainingFixture();
        f.threeStoreJob();
        Template t = Template.fromStack(f.stack);
        Set<String> dependsOn = dependsOn(t, only(new LinkedHashSet<>(ids(t, TYPE))));

        Set<String> expected = new LinkedHashSet<>();
        expected.addAll(ids(t, "AWS::StepFunctions::StateMachine", "TrainingStateMachine"));
        expected.addAll(ids(t, "AWS::IAM::Role", "TrainingStateMachineRole"));
        expected.addAll(ids(t, "AWS::IAM::Role", "TrainingExecutionRole"));
        expected.addAll(ids(t, "AWS::EC2::SecurityGroup", "NetworkTrainingSecurityGroup"));
        expected.addAll(ids(t, "AWS::EC2::Subnet", "NetworkVpc"));
        expected.addAll(ids(t, "AWS::EC2::VPC", "NetworkVpc"));
        expected.addAll(ids(t, "AWS::EC2::VPCEndpoint", "NetworkVpc"));
        expected.addAll(ids(t, "AWS::EC2::RouteTable", "NetworkVpc"));
        // (its own role, TrainingTeardownHandlerRole, it references: RoleArn)
        assertEquals(10, expected.size(), expected.toString());
        String role = only(ids(t, "AWS::IAM::Role", "TrainingTeardownRole"));
        assertEquals(Map.of("Fn::GetAtt", List.of(role, "Arn")), ((Map<?, ?>) ((List<?>) ((Map<?, ?>) resource(t,
                only(new LinkedHashSet<>(ids(t, TYPE)))).get("Properties")).get("Definitions")).get(0)).get("RoleArn"),
                "the teardown depends on the definition's role by its RoleArn");
        assertTrue(dependsOn.containsAll(expected), "missing " + difference(expected, dependsOn));
    }

    private static Set<String> difference(Set<String> a, Set<String> b) {
        Set<String> d = new LinkedHashSet<>(a);
        d.removeAll(b);
        return d;
    }

    @Test
    void aNetworkAndABucketInAnotherStackAreLeftToThatStacksLaterDelete() {
        App app = TestApps.app();
        Stack shared = new Stack(app, "Shared", ENV);
        TrainingNetwork network = new TrainingNetwork(shared, "Network");
        TrainingDataBucket data = new TrainingDataBucket(shared, "Data", TrainingDataBucketProps.builder().build());
        Stack training = new Stack(app, "Training", ENV);
        new TrainingJobDefinition(training, "Training", TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri(TrainingFixture.IMAGE)).instanceType("ml.m5.xlarge")
                .outputBucket(data).network(network).build());
        Template t = Template.fromStack(training);

        Set<String> dependsOn = dependsOn(t, only(new LinkedHashSet<>(ids(t, TYPE))));
        assertTrue(dependsOn.stream().allMatch(id -> resource(t, id) != null), dependsOn.toString());
        assertTrue(dependsOn.containsAll(ids(t, "AWS::IAM::Role", "TrainingExecutionRole")), dependsOn.toString());
        assertTrue(training.getDependencies().contains(shared), "the shared stack is deleted after the training stack");
        Map<?, ?> properties = (Map<?, ?>) ((List<?>) ((Map<?, ?>) resource(t, only(new LinkedHashSet<>(ids(t, TYPE))))
                .get("Properties")).get("Definitions")).get(0);
        // The jobs' subnet is read at run time (the network's publication): the wait looks in every subnet.
        assertEquals(List.of(), properties.get("SubnetIds"));
        Object group = ((List<?>) properties.get("SecurityGroupIds")).get(0);
        assertTrue(group instanceof Map<?, ?> reference && Set.of("Fn::ImportValue", "Fn::GetStackOutput")
                .containsAll(reference.keySet()), "a reference to the shared stack: " + group);
    }

    @Test
    void theTeardownMayStopOnlyItsDefinitionsExecutionsAndJobs() {
        TrainingFixture f = new TrainingFixture();
        f.define(f.props().jobNamePrefix("ResNet").network(f.network()));
        Template t = Template.fromStack(f.stack);
        String machine = only(ids(t, "AWS::StepFunctions::StateMachine", "TrainingStateMachine"));
        String role = only(ids(t, "AWS::IAM::Role", "TrainingTeardownRole"));
        String provider = only(ids(t, "AWS::IAM::Role", "CustomResourceProviderHandlerServiceRole"));
        String prefix = "arn:REF(AWS::Partition):sagemaker:REF(AWS::Region):REF(AWS::AccountId):training-job/";

        assertEquals(List.of(
                Map.of("Action", "states:ListExecutions", "Effect", "Allow", "Resource", "REF(" + machine + ")"),
                Map.of("Action", "states:StopExecution", "Effect", "Allow", "Resource",
                        "arn:REF(AWS::Partition):states:REF(AWS::Region):REF(AWS::AccountId):execution:GETATT("
                                + machine + ".Name):*"),
                Map.of("Action", "sagemaker:ListTrainingJobs", "Effect", "Allow", "Resource", "*"),
                Map.of("Action", List.of("sagemaker:StopTrainingJob", "sagemaker:UpdateTrainingJob"), "Effect", "Allow",
                        "Resource", List.of(prefix + "ResNet-*", prefix + "resnet-*")),
                Map.of("Action", "ec2:DescribeNetworkInterfaces", "Effect", "Allow", "Resource", "*",
                        "Condition", Map.of("StringEquals", Map.of("ec2:Region", "REF(AWS::Region)")))),
                policyStatements(t, role));
        Map<?, ?> properties = (Map<?, ?>) Intrinsics.evaluate(resource(t, role).get("Properties"));
        assertEquals(Map.of("Version", "2012-10-17", "Statement", List.of(Map.of("Action", "sts:AssumeRole",
                "Effect", "Allow", "Principal", Map.of("AWS", "GETATT(" + provider + ".Arn)")))),
                properties.get("AssumeRolePolicyDocument"), "only the stack's provider function may assume it");
        assertEquals("/training-data/custom-resource/REF(AWS::Region)/REF(AWS::StackName)/", properties.get("Path"));
        String waiter = only(ids(t, "AWS::StepFunctions::StateMachine", "CustomResourceProviderwaiterstatemachine"));
        assertEquals(List.of(Map.of("Action", "states:StartExecution", "Effect", "Allow", "Resource",
                "GETATT(" + waiter + ".Arn)"), Map.of("Action", "states:DescribeExecution", "Effect", "Allow",
                "Resource", "arn:REF(AWS::Partition):states:REF(AWS::Region):REF(AWS::AccountId):execution:GETATT("
                        + waiter + ".Name):*"),
                Map.of("Action", "sts:AssumeRole", "Effect", "Allow", "Resource",
                "arn:REF(AWS::Partition):iam::REF(AWS::AccountId):role/training-data/custom-resource/REF(AWS::Region)/"
                        + "REF(AWS::StackName)/*")),
                Intrinsics.evaluate(PolicyStatements.statements(t, Map.of("Ref", provider))),
                "the provider function may only start its waiter and assume the stack's custom-resource roles");
        String own = only(ids(t, "AWS::IAM::Role", "TrainingTeardownHandlerRole"));
        assertEquals(List.of(Map.of("Action", "cloudformation:DescribeStacks", "Effect", "Allow", "Resource",
                "REF(AWS::StackId)")), policyStatements(t, own), "the teardown's own role only reads its stack's status "
                + "(a Delete in a rollback's cleanup stops nothing)");
        assertEquals(Map.of("Fn::GetAtt", List.of(own, "Arn")), ((Map<?, ?>) resource(t, only(new LinkedHashSet<>(
                ids(t, TYPE)))).get("Properties")).get("RoleArn"), "the teardown names its own role");
    }

    @Test
    void eachDefinitionKeepsItsOwnRoleWhichTheTeardownDependsOn() {
        TrainingFixture f = new TrainingFixture();
        f.define(f.props().jobNamePrefix("first"));
        new TrainingJobDefinition(f.stack, "Second", f.props().jobNamePrefix("second").build());
        Template t = Template.fromStack(f.stack);

        String teardown = only(new LinkedHashSet<>(ids(t, TYPE)));
        for (String definition : List.of("Training", "Second")) {
            // Removed from the stack, a definition's role is deleted in the cleanup, after the teardown's update: the
            // teardown depends on it through the role's ARN in the definition's entry.
            String role = only(ids(t, "AWS::IAM::Role", definition + "TeardownRole"));
            assertTrue(((List<?>) ((Map<?, ?>) resource(t, teardown).get("Properties")).get("Definitions")).stream()
                    .anyMatch(entry -> Map.of("Fn::GetAtt", List.of(role, "Arn")).equals(((Map<?, ?>) entry)
                            .get("RoleArn"))), "CloudFormation deletes " + role + " after " + teardown);
        }
    }

    @Test
    void theProviderRoleDoesNotGrowWithTheDefinitionsSoFortyFitOneStack() {
        // Each definition's teardown permissions are its own role's: the provider's role (10,240 characters of
        // inline policies in all) holds one statement per stack, and CUSTOM_RESOURCE_GRANTS_SIZE no longer fires.
        Map<Integer, List<Map<String, Object>>> providerStatements = new LinkedHashMap<>();
        for (int count : List.of(1, 20, 40)) {
            TrainingFixture f = new TrainingFixture();
            List<TrainingChannel> channels = List.of(f.s3("validation").build());
            for (int i = 1; i <= count; i++) {
                new TrainingJobDefinition(f.stack, "Training" + i, f.props().jobNamePrefix("team" + i)
                        .channels(channels).build());
            }
            Template t = Template.fromStack(f.stack);
            providerStatements.put(count, PolicyStatements.statements(t, Map.of("Ref",
                    only(ids(t, "AWS::IAM::Role", "CustomResourceProviderHandlerServiceRole")))));
            assertEquals(count, ids(t, "AWS::IAM::Role", "Training").stream()
                    .filter(id -> id.contains("TeardownRole")).count());
        }
        assertEquals(providerStatements.get(1), providerStatements.get(20), "the provider's role is the same");
        assertEquals(providerStatements.get(1), providerStatements.get(40), "the provider's role is the same");
    }

    @Test
    void oneTeardownAndOneProviderPerStackServeEveryDefinitionAndTheServiceTokenNeverDependsOnThem() {
        TrainingFixture f = new TrainingFixture();
        f.define(f.props().jobNamePrefix("first"));
        new TrainingJobDefinition(f.stack, "Second", f.props().jobNamePrefix("second").build());
        Template t = Template.fromStack(f.stack);

        String teardown = only(new LinkedHashSet<>(ids(t, TYPE)));
        assertEquals(List.of("second", "first"), ((List<?>) ((Map<?, ?>) resource(t, teardown).get("Properties"))
                .get("Definitions")).stream().map(d -> ((Map<?, ?>) d).get("JobNamePrefix")).toList(),
                "one teardown lists both definitions, by construct path");
        String onEvent = only(ids(t, "AWS::Lambda::Function", "CustomResourceProviderHandler"));
        t.resourcePropertiesCountIs(TYPE, Map.of("ServiceToken", Map.of("Fn::GetAtt", List.of(onEvent, "Arn"))), 1);
        assertEquals(1, ids(t, "AWS::Lambda::Function", "CustomResourceProvider").size(), "one function");
        TrainingFixture other = new TrainingFixture();
        new TrainingJobDefinition(other.stack, "Second", other.props().jobNamePrefix("second").build());
        assertEquals(onEvent, only(ids(Template.fromStack(other.stack), "AWS::Lambda::Function",
                "CustomResourceProviderHandler")), "the same service token whichever definition came first");
        for (String definition : List.of("first", "second")) {
            String role = only(ids(t, "AWS::IAM::Role", definition.equals("first") ? "TrainingTeardownRole"
                    : "SecondTeardownRole"));
            List<String> statements = new ArrayList<>();
            for (Object statement : policyStatements(t, role)) {
                statements.add(String.valueOf(((Map<?, ?>) statement).get("Resource")));
            }
            assertTrue(statements.stream().anyMatch(r -> r.contains("training-job/" + definition + "-*")),
                    statements.toString());
            assertEquals(1, statements.stream().filter("*"::equals).count(),
                    "ListTrainingJobs, and outside a VPC no network-interface describe: " + statements);
        }
    }

    @Test
    void aJobOutsideAVpcHoldsNoNetworkInterfaceToWaitFor() {
        TrainingFixture f = new TrainingFixture();
        f.define(f.props().jobNamePrefix("s3only").channels(List.of(f.s3("train").path("train").build())));
        Template t = Template.fromStack(f.stack);

        assertEquals(List.of(), onlyDefinition(t).get("SecurityGroupIds"));
        assertEquals(List.of(), onlyDefinition(t).get("SubnetIds"));
    }

    @Test
    void theExampleStacksHaveNoDependencyCycle() {
        App app = TestApps.app();
        List<Stack> stacks = new java.util.ArrayList<>(List.of(new QuickstartStack(app, "Quickstart")));
        stacks.addAll(PlatformCompositionApp.build(app, PlatformCompositionApp.DATA, PlatformCompositionApp.TEAMS));
        for (Stack stack : stacks) {
            Map<String, Set<String>> edges = edges(Template.fromStack(stack));
            assertEquals(List.of(), cycle(edges), stack.getStackName());
        }
    }

    /** Every resource's dependencies in its template: DependsOn, Ref and Fn::GetAtt of another resource. */
    @SuppressWarnings("unchecked")
    private static Map<String, Set<String>> edges(Template template) {
        Map<String, Object> resources = (Map<String, Object>) template.toJSON().get("Resources");
        Map<String, Set<String>> edges = new HashMap<>();
        resources.forEach((id, body) -> {
            Set<String> to = new HashSet<>();
            collect(body, to);
            to.retainAll(resources.keySet());
            edges.put(id, to);
        });
        return edges;
    }

    private static void collect(Object node, Set<String> to) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> {
                if (key.equals("Ref") && value instanceof String id) {
                    to.add(id);
                } else if (key.equals("Fn::GetAtt") && value instanceof List<?> att) {
                    to.add(String.valueOf(att.get(0)));
                } else if (key.equals("DependsOn")) {
                    Stream.of(value instanceof List<?> list ? list.toArray() : new Object[] {value})
                            .forEach(id -> to.add(String.valueOf(id)));
                } else {
                    collect(value, to);
                }
            });
        } else if (node instanceof List<?> list) {
            list.forEach(item -> collect(item, to));
        }
    }

    /** A dependency cycle, as the list of its resources, or an empty list. */
    private static List<String> cycle(Map<String, Set<String>> edges) {
        Map<String, Integer> state = new HashMap<>();
        for (String start : edges.keySet()) {
            List<String> path = new ArrayList<>();
            if (visit(start, edges, state, path)) {
                return path;
            }
        }
        return List.of();
    }

    private static boolean visit(String id, Map<String, Set<String>> edges, Map<String, Integer> state, List<String> path) {
        int seen = state.getOrDefault(id, 0);
        if (seen == 2) {
            return false;
        }
        path.add(id);
        if (seen == 1) {
            return true;
        }
        state.put(id, 1);
        for (String next : edges.getOrDefault(id, Set.of())) {
            if (visit(next, edges, state, path)) {
                return true;
            }
        }
        state.put(id, 2);
        path.remove(path.size() - 1);
        return false;
    }
}
