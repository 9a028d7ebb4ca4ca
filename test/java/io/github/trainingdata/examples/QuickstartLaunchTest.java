package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.Intrinsics;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.launch.AwsJsonEmulator;
import io.github.trainingdata.cdk.launch.TrainingJobLauncher;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * The deployed request, end to end: the JSON the quickstart stores in SSM (as CloudFormation would
 * render it) is started with the SDK launcher against a loopback SageMaker, and the body the real SDK
 * client sends must be exactly that document plus the job name, checkpoints under the job's own prefix.
 */
class QuickstartLaunchTest {
    private static String deployedDocument;

    @BeforeAll
    static void synthesize() {
        QuickstartStack stack = new QuickstartStack(TestApps.app(), "TrainingDataQuickstart");
        Template template = Template.fromStack(stack);
        // The definition's request document (the preload's CurrentExecution pointer is the other parameter).
        List<Map<?, ?>> requests = template.findResources("AWS::SSM::Parameter").values().stream()
                .<Map<?, ?>>map(p -> (Map<?, ?>) p.get("Properties"))
                .filter(p -> String.valueOf(p.get("Description")).startsWith("CreateTrainingJob request")).toList();
        assertEquals(1, requests.size());
        Map<?, ?> properties = requests.get(0);
        deployedDocument = Intrinsics.string(properties.get("Value"));
    }

    @Test
    void theSdkSendsExactlyTheDeployedDocumentPlusTheJobNameAndItsCheckpointPrefix() throws Exception {
        try (AwsJsonEmulator sageMaker = new AwsJsonEmulator()) {
            sageMaker.on("SageMaker.CreateTrainingJob", call -> AwsJsonEmulator.Reply.ok(
                    "{\"TrainingJobArn\":\"arn:aws:sagemaker:us-east-1:123456789012:training-job/x\"}"));
            String jobName = new TrainingJobLauncher(sageMaker.sageMaker()).start(deployedDocument, "quickstart");

            List<AwsJsonEmulator.Call> calls = sageMaker.calls("SageMaker.CreateTrainingJob");
            assertEquals(1, calls.size());
            assertTrue(jobName.startsWith("quickstart-") && jobName.length() <= 63, jobName);
            String checkpoints = ((Map<?, ?>) ((Map<?, ?>) Json.tree(deployedDocument)).get("CheckpointConfig"))
                    .get("S3Uri") + jobName + "/";
            assertEquals(Json.treeWithJob(deployedDocument, jobName, checkpoints),
                    Json.tree(calls.get(0).body()));
        }
    }

    @Test
    void theDeployedDocumentWiresEachStoreInAsTheMissionSays() {
        Map<?, ?> request = (Map<?, ?>) Json.tree(deployedDocument);
        List<?> channels = (List<?>) request.get("InputDataConfig");
        Map<?, ?> lustre = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) channels.get(0)).get("DataSource"))
                .get("FileSystemDataSource");
        Map<?, ?> s3 = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) channels.get(1)).get("DataSource")).get("S3DataSource");
        Map<?, ?> efs = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) channels.get(2)).get("DataSource"))
                .get("FileSystemDataSource");

        assertEquals("FSxLustre", lustre.get("FileSystemType"));
        assertTrue(((String) lustre.get("DirectoryPath")).matches("/GETATT\\(Lustre[0-9A-F]+\\.LustreMountName\\)/imagenet/train"),
                (String) lustre.get("DirectoryPath"));
        assertEquals("File", ((Map<?, ?>) channels.get(0)).get("InputMode"));
        assertEquals("EFS", efs.get("FileSystemType"));
        assertEquals("/features", efs.get("DirectoryPath"));
        assertEquals("File", ((Map<?, ?>) channels.get(2)).get("InputMode"));
        assertEquals("FastFile", ((Map<?, ?>) channels.get(1)).get("InputMode"));
        assertTrue(((String) s3.get("S3Uri")).endsWith("/datasets/imagenet/validation/"), (String) s3.get("S3Uri"));
        List<?> subnets = (List<?>) ((Map<?, ?>) request.get("VpcConfig")).get("Subnets");
        assertEquals(1, subnets.size(), "training runs only in the data subnet, the Lustre AZ");
        assertTrue(((String) subnets.get(0)).startsWith("REF(NetworkVpcDataSubnet1"), (String) subnets.get(0));
    }
}
