package io.github.trainingdata.cdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.internal.CustomResourceProvider;
import io.github.trainingdata.cdk.internal.dispatch.CustomResourceDispatcher;
import io.github.trainingdata.examples.QuickstartStack;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * The quickstart's asynchronous custom resources (an association and the task guard, the preload, the training
 * teardown, the EFS directories) share the stack's one provider: one dispatcher function, their service token, and its
 * waiter state machine, each with a role of its own; the last release's preload and EFS directories, whose ServiceToken
 * cannot change, are replaced by resources of new logical ids; each resource keeps its own grants until it is deleted.
 */
class CustomResourceProviderTest {
    private static final String DISPATCHER = "io.github.trainingdata.cdk.internal.dispatch.CustomResourceDispatcher::handle";
    private static QuickstartStack stack;
    private static Template t;
    private static Map<String, Map<String, Object>> resources;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void synthesize() {
        stack = new QuickstartStack(TestApps.app(), "TrainingDataQuickstart");
        t = Template.fromStack(stack);
        resources = (Map<String, Map<String, Object>>) t.toJSON().get("Resources");
    }

    private static Map<?, ?> properties(String id) {
        return (Map<?, ?>) resources.get(id).get("Properties");
    }

    private static String id(Object reference) {
        Object value = reference instanceof Map<?, ?> map ? map.values().iterator().next() : reference;
        return value instanceof List<?> att ? String.valueOf(att.get(0)) : String.valueOf(value);
    }

    /** @return the custom resources served by the library's provider, by logical id */
    private static Map<String, Map<String, Object>> served() {
        Map<String, Map<String, Object>> served = new java.util.LinkedHashMap<>();
        resources.forEach((id, resource) -> {
            if (String.valueOf(resource.get("Type")).startsWith("Custom::")
                    && !"Custom::VpcRestrictDefaultSG".equals(resource.get("Type"))) {
                served.put(id, resource);
            }
        });
        return served;
    }

    @Test
    void theDispatchersTimeoutOutlastsOneDeliveryWithEveryCallAtItsLimit() {
        // A delivery that times out answers CloudFormation nothing and Lambda runs it again (onEvent included).
        Map<?, ?> properties = (Map<?, ?>) t.findResources("AWS::Lambda::Function", Map.of("Properties",
                Map.of("Handler", DISPATCHER))).values().iterator().next().get("Properties");
        long timeout = ((Number) properties.get("Timeout")).longValue();
        assertTrue(timeout >= CustomResourceDispatcher.LONGEST_DELIVERY.toSeconds(), timeout + " s < "
                + CustomResourceDispatcher.LONGEST_DELIVERY);
    }

    @Test
    void theDispatcherIsTheServiceTokenOfEveryTypeItKnows() {
        t.resourcePropertiesCountIs("AWS::Lambda::Function", Map.of("Handler", DISPATCHER, "Runtime", "java25",
                "MemorySize", 512, "Timeout", 900), 1);
        Set<String> types = new TreeSet<>();
        Object token = stack.resolve(CustomResourceProvider.of(stack, null).getServiceToken());
        assertEquals(Map.of("Fn::GetAtt", List.of(dispatcher(), "Arn")), token);
        served().forEach((id, resource) -> {
            types.add(String.valueOf(resource.get("Type")));
            assertEquals(token, ((Map<?, ?>) resource.get("Properties")).get("ServiceToken"), id);
        });
        assertEquals(new TreeSet<>(List.of(CustomResourceDispatcher.DATA_REPOSITORY_ASSOCIATION,
                CustomResourceDispatcher.LUSTRE_TASK_GUARD, CustomResourceDispatcher.LUSTRE_PRELOAD,
                CustomResourceDispatcher.TRAINING_TEARDOWN, CustomResourceDispatcher.EFS_DIRECTORIES)), types);
        assertEquals(3, t.findResources("AWS::Lambda::Function").size(), "the dispatcher, the EFS directories "
                + "function in the VPC and aws-cdk-lib's default security group restriction (issue 27: at most 6)");
    }

    private static String dispatcher() {
        return t.findResources("AWS::Lambda::Function", Match.objectLike(Map.of("Properties",
                Match.objectLike(Map.of("Handler", DISPATCHER))))).keySet().iterator().next();
    }

    private static String waiter() {
        return t.findResources("AWS::StepFunctions::StateMachine").keySet().stream()
                .filter(id -> id.startsWith("CustomResourceProviderwaiterstatemachine")).findFirst().orElseThrow();
    }

    /**
     * The dispatcher is named from the stack id, so that the waiter names it without a reference: the function refers to
     * the waiter (its ARN in the environment, its role's permission to start it), nothing refers back, and a custom
     * resource (which refers to the function) is created after the function, its role and the waiter with its role.
     */
    @Test
    void theDispatcherNamesTheWaiterAndMayStartItAndLookUpItsExecutionsOnly() {
        Map<?, ?> function = properties(dispatcher());
        assertEquals(Map.of("Fn::Join", List.of("", List.of("training-data-provider-", Map.of("Fn::Select", List.of(2,
                Map.of("Fn::Split", List.of("/", Map.of("Ref", "AWS::StackId")))))))), function.get("FunctionName"));
        assertEquals(Map.of("Variables", Map.of(CustomResourceDispatcher.WAITER_ENVIRONMENT, Map.of("Fn::GetAtt", List.of(waiter(), "Arn")))),
                function.get("Environment"));
        assertFalse(function.containsKey("VpcConfig"));
        String role = id(function.get("Role"));
        List<?> policies = (List<?>) properties(role).get("Policies");
        assertEquals(1, policies.size());
        String statements = String.valueOf(stack.resolve(((Map<?, ?>) ((Map<?, ?>) policies.get(0))
                .get("PolicyDocument")).get("Statement")));
        assertEquals("[{Action=states:StartExecution, Effect=Allow, Resource={Fn::GetAtt=[" + waiter() + ", Arn]}}, "
                + "{Action=states:DescribeExecution, Effect=Allow, Resource={Fn::Join=[, [arn:, {Ref=AWS::Partition}, "
                + ":states:, {Ref=AWS::Region}, :, {Ref=AWS::AccountId}, :execution:, {Fn::GetAtt=[" + waiter()
                + ", Name]}, :*]]}}]", statements);
        Map<?, ?> waiterRole = properties(id(properties(waiter()).get("RoleArn")));
        String waiterStatements = String.valueOf(((Map<?, ?>) ((Map<?, ?>) ((List<?>) waiterRole.get("Policies"))
                .get(0)).get("PolicyDocument")).get("Statement"));
        assertTrue(waiterStatements.startsWith("[{Action=lambda:InvokeFunction, Effect=Allow, Resource={Fn::Join=[, "
                + "[arn:, {Ref=AWS::Partition}, :lambda:, {Ref=AWS::Region}, :, {Ref=AWS::AccountId}, "
                + ":function:training-data-provider-, {Fn::Select=[2, {Fn::Split=[/, {Ref=AWS::StackId}]}]}]]}}, "),
                waiterStatements);
        assertFalse(String.valueOf(resources.get(waiter())).contains(dispatcher()), "the waiter names the function");
        for (Map.Entry<String, Map<String, Object>> resource : resources.entrySet()) {
            if ("AWS::IAM::Policy".equals(resource.getValue().get("Type"))) {
                assertFalse(((List<?>) properties(resource.getKey()).get("Roles")).contains(Map.of("Ref",
                        id(waiterRole))), resource.getKey() + ": the waiter's role has no other policy");
            }
        }
    }

    /**
     * CloudFormation refuses to change a custom resource's ServiceToken ("Modifying service token is not allowed"):
     * every custom resource of the last release's quickstart either keeps its logical id and its token (aws-cdk-lib's
     * default security group restriction) or leaves the stack (the preload and the EFS directories, served by
     * providers of their own then), replaced by one of a new logical id on the stack's provider.
     */
    @Test
    @SuppressWarnings("unchecked")
    void noCustomResourceOfTheLastReleaseChangesItsServiceToken() throws java.io.IOException {
        Map<String, Object> baseline = new com.fasterxml.jackson.databind.ObjectMapper().readValue(
                java.nio.file.Path.of("test/resources/release-baseline/quickstart/TrainingDataQuickstart.template.json")
                        .toFile(), Map.class);
        List<String> kept = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        for (Map.Entry<String, Object> entry : ((Map<String, Object>) baseline.get("Resources")).entrySet()) {
            Map<String, Object> released = (Map<String, Object>) entry.getValue();
            if (!String.valueOf(released.get("Type")).startsWith("Custom::")) {
                continue;
            }
            if (resources.containsKey(entry.getKey())) {
                assertEquals(((Map<?, ?>) released.get("Properties")).get("ServiceToken"),
                        properties(entry.getKey()).get("ServiceToken"), entry.getKey());
                kept.add(entry.getKey());
            } else {
                removed.add(released.get("Type") + " " + entry.getKey());
            }
        }
        assertEquals(List.of("NetworkVpcRestrictDefaultSecurityGroupCustomResource491E144D"), kept);
        assertEquals(List.of("Custom::EfsDirectories EfsDirectories108DED9D", "Custom::LustrePreload Preload180FEAD3"),
                removed.stream().sorted().toList());
        Object token = stack.resolve(CustomResourceProvider.of(stack, null).getServiceToken());
        for (String type : List.of("Custom::EfsDirectories", "Custom::LustrePreload")) {
            t.resourcePropertiesCountIs(type, Match.objectLike(Map.of("ServiceToken", token)), 1);
        }
    }

    /** The asset's custom hash is the bundle's SHA-256, written by the build: the asset changes when the bundle does. */
    @Test
    void theBundlesHashIsTheBuildsSha256OfItsBytes() throws Exception {
        byte[] bytes = java.nio.file.Files.readAllBytes(CustomResourceProvider.sdkHandlersBundle());
        assertEquals(java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(bytes)), CustomResourceProvider.sdkHandlersHash());
    }

    @Test
    void theWaiterLooksEvery30SecondsTracedAndLoggedWithoutTheResponseUrl() {
        assertEquals(58 * 60, CustomResourceProvider.TOTAL_TIMEOUT.toSeconds().intValue());
        assertEquals(30, CustomResourceProvider.QUERY_INTERVAL.toSeconds().intValue());
        t.resourcePropertiesCountIs("AWS::StepFunctions::StateMachine", Match.objectLike(Map.of(
                "DefinitionString", Match.objectLike(Map.of("Fn::Join", List.of("", Match.arrayWith(List.of(
                        Match.stringLikeRegexp(".*\"Wait\":\\{\"Type\":\"Wait\",\"Seconds\":30,.*")))))),
                "TracingConfiguration", Map.of("Enabled", true),
                "LoggingConfiguration", Match.objectLike(Map.of("Level", "ALL", "IncludeExecutionData", false)))), 1);
    }

    @Test
    void theDispatchersRoleMayOnlyAssumeTheStacksRolesAndEachResourceNamesItsOwnRole() {
        String role = id(properties(t.findResources("AWS::Lambda::Function", Match.objectLike(Map.of("Properties",
                Match.objectLike(Map.of("Handler", DISPATCHER))))).keySet().iterator().next()).get("Role"));
        List<String> policies = new ArrayList<>();
        resources.forEach((id, resource) -> {
            if ("AWS::IAM::Policy".equals(resource.get("Type"))
                    && ((List<?>) properties(id).get("Roles")).contains(Map.of("Ref", role))) {
                policies.add(id);
            }
        });
        assertEquals(1, policies.size(), policies.toString());
        assertTrue(policies.get(0).startsWith("CustomResourceProviderAssumeRoles"), policies.toString());
        for (Map.Entry<String, Map<String, Object>> resource : served().entrySet()) {
            Object roleArn = properties(resource.getKey()).get("RoleArn");
            String handlerRole = id(roleArn);
            assertEquals("AWS::IAM::Role", resources.get(handlerRole).get("Type"), resource.getKey() + ": " + roleArn);
            assertEquals(Map.of("Fn::GetAtt", List.of(handlerRole, "Arn")), roleArn,
                    "the reference keeps the role until the resource is deleted");
            Map<?, ?> trust = (Map<?, ?>) ((List<?>) ((Map<?, ?>) properties(handlerRole)
                    .get("AssumeRolePolicyDocument")).get("Statement")).get(0);
            assertEquals(Map.of("AWS", Map.of("Fn::GetAtt", List.of(role, "Arn"))), trust.get("Principal"),
                    handlerRole + " trusts the dispatcher's role alone");
            assertEquals(List.of(policies.get(0)), resources.get(handlerRole).get("DependsOn"),
                    handlerRole + " is created after, and deleted before, the statement that lets the dispatcher "
                            + "assume it");
        }
    }
}
