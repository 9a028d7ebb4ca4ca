package io.github.trainingdata.cdk.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator.Reply;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * A launch fills in what its document reads of a store of another stack from the store's publication, read when it
 * starts, and refuses to start when the publication is missing or lacks a value.
 */
class DataStoreBindingsTest {
    private static final String PARAMETER = "/training-data/stores/Data.Lustre";
    private static final String DOCUMENT = "{\"InputDataConfig\":[{\"ChannelName\":\"train\",\"DataSource\":"
            + "{\"FileSystemDataSource\":{\"FileSystemId\":\"{{DataStore:" + PARAMETER + ":FileSystemId}}\","
            + "\"FileSystemAccessMode\":\"ro\",\"FileSystemType\":\"FSxLustre\",\"DirectoryPath\":\"/{{DataStore:"
            + PARAMETER + ":MountName}}/imagenet/train\"}},\"InputMode\":\"File\"}],\"VpcConfig\":"
            + "{\"SecurityGroupIds\":[\"sg-0123456789abcdef0\"],\"Subnets\":\"{{DataStore:" + PARAMETER + ":Subnets}}\"}}";
    private static final String PUBLISHED = "{\"Store\":\"Data/Lustre\",\"FileSystemType\":\"FSxLustre\","
            + "\"FileSystemId\":\"fs-0123456789abcdef0\",\"MountName\":\"abcdefgh\",\"DnsName\":\"x\","
            + "\"AvailabilityZone\":\"us-east-1a\",\"Subnets\":[\"subnet-0a1b2c3d4e5f60001\"]}";

    private static String resolve(Reply answer) throws IOException {
        try (AwsJsonEmulator emulator = new AwsJsonEmulator(); SsmClient ssm = emulator.ssm()) {
            emulator.on(DeployedTrainingJobDefinitionTest.GET_PARAMETER, call -> answer);
            String resolved = DataStoreBindings.resolve(ssm, DOCUMENT);
            assertEquals(1, emulator.calls().size(), "each parameter is read once");
            return resolved;
        }
    }

    @Test
    void fillsInTheStoresValuesAsPublishedNow() throws IOException {
        String resolved = resolve(DeployedTrainingJobDefinitionTest.parameterReply(PARAMETER, PUBLISHED));
        assertEquals(Json.tree(DOCUMENT.replace("{{DataStore:" + PARAMETER + ":FileSystemId}}", "fs-0123456789abcdef0")
                .replace("{{DataStore:" + PARAMETER + ":MountName}}", "abcdefgh")
                .replace("\"{{DataStore:" + PARAMETER + ":Subnets}}\"", "[\"subnet-0a1b2c3d4e5f60001\"]")),
                Json.tree(resolved));
    }

    @Test
    void anEfsChannelNeedsOnlyTheFileSystemIdAndSubnetsOfItsPublication() throws IOException {
        String parameter = "/training-data/stores/Data.Efs";
        String document = "{\"InputDataConfig\":[{\"ChannelName\":\"train\",\"DataSource\":{\"FileSystemDataSource\":"
                + "{\"FileSystemId\":\"{{DataStore:" + parameter + ":FileSystemId}}\",\"FileSystemAccessMode\":\"ro\","
                + "\"FileSystemType\":\"EFS\",\"DirectoryPath\":\"/datasets/train\"}},\"InputMode\":\"File\"}],"
                + "\"VpcConfig\":{\"SecurityGroupIds\":[\"sg-0123456789abcdef0\"],\"Subnets\":\"{{DataStore:" + parameter
                + ":Subnets}}\"}}";
        String published = "{\"Store\":\"Data/Efs\",\"FileSystemType\":\"EFS\",\"FileSystemId\":\"fs-0a1b2c3d\","
                + "\"AvailabilityZone\":\"us-east-1a\",\"Subnets\":[\"subnet-0a1b2c3d4e5f60001\"]}";
        try (AwsJsonEmulator emulator = new AwsJsonEmulator(); SsmClient ssm = emulator.ssm()) {
            emulator.on(DeployedTrainingJobDefinitionTest.GET_PARAMETER,
                    call -> DeployedTrainingJobDefinitionTest.parameterReply(parameter, published));
            assertEquals(Json.tree(document.replace("{{DataStore:" + parameter + ":FileSystemId}}", "fs-0a1b2c3d")
                    .replace("\"{{DataStore:" + parameter + ":Subnets}}\"", "[\"subnet-0a1b2c3d4e5f60001\"]")),
                    Json.tree(DataStoreBindings.resolve(ssm, document)));
        }
    }

    @Test
    void aDocumentWithoutPlaceholdersIsLeftAsItIs() throws IOException {
        try (AwsJsonEmulator emulator = new AwsJsonEmulator(); SsmClient ssm = emulator.ssm()) {
            assertEquals("{\"RoleArn\":\"r\"}", DataStoreBindings.resolve(ssm, "{\"RoleArn\":\"r\"}"));
            assertEquals(0, emulator.calls().size());
        }
    }

    @Test
    void aMissingPublicationFailsTheLaunchNamingTheParameter() {
        DataStoreNotReadyException e = assertThrows(DataStoreNotReadyException.class, () -> resolve(Reply.error(400,
                "ParameterNotFound", "not found")));
        assertEquals("DataStoreNotPublished", e.getError());
        assertEquals(PARAMETER, e.getParameterName());
        assertEquals("DataStoreNotPublished: SSM parameter " + PARAMETER + ", where a store of another stack "
                + "publishes what jobs read of it, does not exist: deploy the stack that owns the store first (is it "
                + "deployed in this account and Region?)", e.getMessage());
    }

    @Test
    void aHalfReplacedStoreFailsTheLaunchNamingTheStoreAndTheParameter() throws IOException {
        Map<String, String> broken = Map.of(
                "\"MountName\":\"abcdefgh\",", "MountName is missing",
                "\"FileSystemId\":\"fs-0123456789abcdef0\"", "FileSystemId is not a file system id (fs-...)",
                "\"Subnets\":[\"subnet-0a1b2c3d4e5f60001\"]", "Subnets is not a non-empty list of subnet ids");
        for (Map.Entry<String, String> change : broken.entrySet()) {
            String document = PUBLISHED.replace(change.getKey(), change.getKey().startsWith("\"MountName")
                    ? "" : change.getKey().startsWith("\"FileSystemId") ? "\"FileSystemId\":\"\"" : "\"Subnets\":[]");
            DataStoreNotReadyException e = assertThrows(DataStoreNotReadyException.class,
                    () -> resolve(DeployedTrainingJobDefinitionTest.parameterReply(PARAMETER, document)));
            assertEquals("DataStoreIncomplete", e.getError());
            assertEquals("DataStoreIncomplete: SSM parameter " + PARAMETER + " does not hold what jobs need of "
                    + "Data/Lustre: " + change.getValue() + ". Is its stack half-deployed, or was the parameter changed "
                    + "by hand? Deploy the stack that owns the store again", e.getMessage());
        }
    }
}
