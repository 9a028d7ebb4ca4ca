package io.github.trainingdata.cdk.monitoring;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.trainingdata.cdk.Intrinsics;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.preload.LustrePreload;
import io.github.trainingdata.cdk.preload.LustrePreloadProps;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.EfsStoreProps;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.LustreDeploymentType;
import io.github.trainingdata.cdk.storage.LustreMetadataMode;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.storage.TrainingDataBucketProps;
import io.github.trainingdata.cdk.storage.StoreAccess;
import io.github.trainingdata.cdk.storage.StoreGrants;
import io.github.trainingdata.cdk.storage.TrainingDataStore;
import io.github.trainingdata.cdk.training.LustreChannel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.CapacityPolicy;
import io.github.trainingdata.cdk.training.CapacityStep;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.CfnParameter;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.cloudwatch.TextWidget;
import software.amazon.awscdk.services.s3.Bucket;

class TrainingDataDashboardTest {
    private static final ObjectMapper JSON = Json.MAPPER;
    private static Fixture full;
    private static JsonNode fullBody;

    @BeforeAll
    static void synthesizeTheFullDashboardOnce() {
        full = new Fixture(true);
        new TrainingDataDashboard(full.stack, "Dashboard", TrainingDataDashboardProps.builder()
                .dashboardName("training-data")
                .stores(List.of(full.lustre, full.efs))
                .preloads(List.of(full.preload))
                .definitions(List.of(full.training))
                .build());
        fullBody = body(full.stack);
    }

    @Test
    void createsOneNamedDashboardWithTheRowsInTheGivenOrder() {
        Template.fromStack(full.stack).resourceCountIs("AWS::CloudWatch::Dashboard", 1);
        Template.fromStack(full.stack).hasResourceProperties("AWS::CloudWatch::Dashboard",
                Map.of("DashboardName", "training-data"));
        assertEquals(List.of(
                "Lustre read throughput (bytes/s)", "Lustre write throughput (bytes/s)",
                "Lustre free space on the fullest disk (bytes)",
                "EFS throughput (bytes/s)", "EFS metered vs permitted throughput (bytes/s)",
                "EFS I/O limit used (%, General Purpose)", "EFS burst credit balance (bytes)",
                "Preload result (largest value in the time range)", "Preload progress",
                "Preload worker instance utilization (%)", "Preload worker log",
                "Training executions by outcome", "Training execution time (ms)",
                "Training GPU utilization (%, per instance, 100 per GPU)",
                "Training CPU utilization (%, per instance, 100 per core)",
                "Training disk utilization (%, per instance)"), titles(fullBody));
        assertEquals(List.of("### FSx for Lustre cache `Test/Lustre`", "### EFS store `Test/Efs`",
                "### Preload `Test/Preload`", "### Training `Test/Training`"), headers(fullBody));
    }

    @Test
    void graphsLustreThroughputPerSecondAgainstBaselineAndBurst() {
        String id = full.value(full.lustre.getFileSystemId());
        JsonNode read = widget(fullBody, "Lustre read throughput (bytes/s)");
        assertExpression(read, "read/PERIOD(read)", "Data read");
        assertMetric(read, "AWS/FSx", "DataReadBytes", "FileSystemId", id, "Sum", 300);
        // 1200 GiB buys 200 MB/s and 1300 MB/s per TiB: 234.375 and 1523.4375 MB/s.
        assertEquals(List.of(234_375_000.0, 1_523_437_500.0), annotationValues(read));
        assertEquals("Baseline 234 MB/s", read.at("/properties/annotations/horizontal/0/label").asText());

        JsonNode write = widget(fullBody, "Lustre write throughput (bytes/s)");
        assertExpression(write, "write/PERIOD(write)", "Data written");
        assertMetric(write, "AWS/FSx", "DataWriteBytes", "FileSystemId", id, "Sum", 300);
        assertMetric(widget(fullBody, "Lustre free space on the fullest disk (bytes)"),
                "AWS/FSx", "FreeDataStorageCapacity", "FileSystemId", id, "Minimum", 300);
    }

    @Test
    void aPersistent2CachesRowShowsItsTierAndNetworkCeiling() {
        Stack stack = TestApps.stack();
        TrainingNetwork network = new TrainingNetwork(stack, "Network");
        TrainingDataBucket data = new TrainingDataBucket(stack, "Data", TrainingDataBucketProps.builder()
                .bucket(Bucket.fromBucketName(stack, "Existing", "team-datasets")).build());
        LustreCache cache = new LustreCache(stack, "Lustre", LustreCacheProps.builder().network(network)
                .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(data).build()))
                .deploymentType(LustreDeploymentType.PERSISTENT_2).perUnitStorageThroughput(1000).storageCapacityGiB(4800)
                .metadataMode(LustreMetadataMode.AUTOMATIC).build());
        new TrainingDataDashboard(stack, "Dashboard", TrainingDataDashboardProps.builder()
                .stores(List.of(cache)).build());
        JsonNode body = body(stack);
        JsonNode read = widget(body, "Lustre read throughput (bytes/s)");
        // 4800 GiB = 4.6875 TiB: 1000 MB/s per TiB from disk, 2600 MB/s per TiB of network for reads from memory.
        assertEquals(List.of(4_687_500_000.0, 12_187_500_000.0), annotationValues(read));
        assertEquals("Network ceiling 12188 MB/s", read.at("/properties/annotations/horizontal/1/label").asText());
        assertTrue(body.toString().contains("PERSISTENT_2 at 1000 MB/s per TiB, 4800 GiB"), body.toString());
    }

    @Test
    void graphsEfsThroughputLimitAndCredits() {
        String id = full.value(full.efs.getFileSystemId());
        JsonNode throughput = widget(fullBody, "EFS throughput (bytes/s)");
        assertExpression(throughput, "total/PERIOD(total)", "All I/O");
        assertExpression(throughput, "read/PERIOD(read)", "Data read");
        assertMetric(throughput, "AWS/EFS", "TotalIOBytes", "FileSystemId", id, "Sum", 300);
        assertMetric(throughput, "AWS/EFS", "DataReadIOBytes", "FileSystemId", id, "Sum", 300);

        JsonNode metered = widget(fullBody, "EFS metered vs permitted throughput (bytes/s)");
        assertExpression(metered, "metered/PERIOD(metered)", "Metered (reads count one third)");
        assertMetric(metered, "AWS/EFS", "MeteredIOBytes", "FileSystemId", id, "Sum", 300);
        assertMetric(metered, "AWS/EFS", "PermittedThroughput", "FileSystemId", id, "Average", 300);

        JsonNode limit = widget(fullBody, "EFS I/O limit used (%, General Purpose)");
        assertMetric(limit, "AWS/EFS", "PercentIOLimit", "FileSystemId", id, "Maximum", 300);
        assertEquals(List.of(100.0), annotationValues(limit));
        assertMetric(widget(fullBody, "EFS burst credit balance (bytes)"),
                "AWS/EFS", "BurstCreditBalance", "FileSystemId", id, "Minimum", 300);
    }

    @Test
    void followsThePreloadWorkersMetricsAndLog() {
        String job = full.value(full.preload.getWorkerJobName());
        assertTrue(job.matches("GETATT\\(PreloadWarmUp[0-9A-F]{8}\\.WorkerJobName\\)"), job);
        JsonNode result = widget(fullBody, "Preload result (largest value in the time range)");
        for (String name : List.of("preload:files", "preload:bytes", "preload:seconds", "preload:locations")) {
            assertMetric(result, "/aws/sagemaker/TrainingJobs", name, "TrainingJobName", job, "Maximum", 300);
        }
        assertTrue(result.toString().contains("Locations warmed (of 1)"), result.toString());
        JsonNode progress = widget(fullBody, "Preload progress");
        assertMetric(progress, "/aws/sagemaker/TrainingJobs", "preload:files", "TrainingJobName", job, "Maximum", 300);
        assertMetric(progress, "/aws/sagemaker/TrainingJobs", "preload:bytes", "TrainingJobName", job, "Maximum", 300);
        JsonNode instance = widget(fullBody, "Preload worker instance utilization (%)");
        assertMetric(instance, "/aws/sagemaker/TrainingJobs", "CPUUtilization", "Host", job + "/algo-1", "Average", 300);
        assertMetric(instance, "/aws/sagemaker/TrainingJobs", "MemoryUtilization", "Host", job + "/algo-1", "Average",
                300);
        assertMetric(instance, "/aws/sagemaker/TrainingJobs", "DiskUtilization", "Host", job + "/algo-1", "Maximum",
                300);

        assertEquals("SOURCE '/aws/sagemaker/TrainingJobs' | fields @timestamp, @logStream, @message\n"
                        + "| filter @logStream like \"" + job + "/\"\n| sort @timestamp desc\n| limit 200",
                widget(fullBody, "Preload worker log").at("/properties/query").asText());
    }

    @Test
    void showsWhatTheLastDeploySawOfThePreloadAlsoLocationsWithoutData() {
        String status = full.value(full.preload.getStatus());
        String empty = full.value(full.preload.getEmptyLocations());
        assertTrue(fullBody.toString().contains("Last deploy: status `" + status + "`, locations without data (not "
                + "warmed): `" + empty + "`."), fullBody.toString());
    }

    @Test
    void countsTrainingExecutionsByOutcomeAndTime() {
        String arn = full.value(full.training.getStateMachine().getStateMachineArn());
        JsonNode outcomes = widget(fullBody, "Training executions by outcome");
        for (String name : List.of("ExecutionsSucceeded", "ExecutionsFailed", "ExecutionsTimedOut",
                "ExecutionsAborted")) {
            assertMetric(outcomes, "AWS/States", name, "StateMachineArn", arn, "Sum", 300);
        }
        JsonNode time = widget(fullBody, "Training execution time (ms)");
        assertMetric(time, "AWS/States", "ExecutionTime", "StateMachineArn", arn, "Average", 300);
        assertMetric(time, "AWS/States", "ExecutionTime", "StateMachineArn", arn, "Maximum", 300);
    }

    @Test
    void searchesTheInstanceMetricsOfEveryJobOfTheDefinitionByHost() {
        for (String[] graph : new String[][] {
            {"Training GPU utilization (%, per instance, 100 per GPU)", "GPUUtilization", "Average"},
            {"Training CPU utilization (%, per instance, 100 per core)", "CPUUtilization", "Average"},
            {"Training disk utilization (%, per instance)", "DiskUtilization", "Maximum"}}) {
            JsonNode metrics = widget(fullBody, graph[0]).at("/properties/metrics");
            assertEquals(1, metrics.size(), graph[0]);
            assertEquals(JSON.valueToTree(List.of(Map.of("expression", "SEARCH('{\"/aws/sagemaker/TrainingJobs\",Host} "
                    + "MetricName=\"" + graph[1] + "\" Host=train', '" + graph[2] + "', 300)"))), metrics.get(0),
                    "one search, no label: CloudWatch labels each line with its host");
        }
        assertTrue(headers(fullBody).size() == 4 && fullBody.toString().contains("contains `train` and that reported "
                + "in the last two weeks"), fullBody.toString());
    }

    @Test
    void aDefinitionWithACapacityPolicyShowsItsJobsByOutcomeInstanceTypeAndSources() {
        Fixture fixture = new Fixture(true);
        TrainingJobDefinition resilient = new TrainingJobDefinition(fixture.stack, "Resilient",
                TrainingJobDefinitionProps.builder()
                        .jobNamePrefix("resilient")
                        .trainingImage(TrainingImage.fromUri("123456789012.dkr.ecr.us-east-1.amazonaws.com/train:1"))
                        .instanceType("ml.p3.2xlarge")
                        .outputBucket(fixture.data)
                        .channels(List.of(LustreChannel.builder("train").cache(fixture.lustre).path("train").build()))
                        .capacityPolicy(CapacityPolicy.of(List.of(CapacityStep.waitAndRetry(
                                software.amazon.awscdk.Duration.minutes(10), 2), CapacityStep.s3Fallback())))
                        .build());
        TrainingDataDashboard dashboard = new TrainingDataDashboard(fixture.stack, "Dashboard",
                TrainingDataDashboardProps.builder().definitions(List.of(fixture.training)).build());
        dashboard.addDefinition(resilient);
        JsonNode body = body(fixture.stack);

        JsonNode outcomes = widget(body, "Capacity policy: jobs by outcome");
        for (String outcome : List.of("Completed", "CapacityError", "Failed")) {
            assertTrue(outcomes.at("/properties/metrics").toString().contains(JSON.valueToTree(List.of(
                    "TrainingData/CapacityPolicy", "Attempts", "JobNamePrefix", "resilient", "Outcome", outcome))
                    .toString().replace("]", "")), outcomes.toString());
        }
        assertEquals(JSON.valueToTree(List.of(Map.of("expression", "SEARCH('{\"TrainingData/CapacityPolicy\","
                + "DataSources,InstanceType,JobNamePrefix,Outcome} MetricName=\"Attempts\" JobNamePrefix=\"resilient\"', "
                + "'Sum', 300)"))), widget(body, "Capacity policy: jobs by instance type, data sources and outcome")
                .at("/properties/metrics").get(0));
        assertEquals(1, body.toString().split("Capacity policy: jobs by outcome", -1).length - 1,
                "only the definition with a policy has the row: " + body);
    }

    @Test
    void anEfsOnlyDashboardHasNoFsxOrSageMakerMetrics() {
        Fixture efsOnly = new Fixture(false);
        new TrainingDataDashboard(efsOnly.stack, "Dashboard", TrainingDataDashboardProps.builder()
                .stores(List.of(efsOnly.efs)).period(Duration.minutes(1)).build());
        JsonNode body = body(efsOnly.stack);

        String text = body.toString();
        assertFalse(text.contains("AWS/FSx"), text);
        assertFalse(text.contains("/aws/sagemaker"), text);
        assertFalse(text.contains("AWS/States"), text);
        assertMetric(widget(body, "EFS throughput (bytes/s)"), "AWS/EFS", "TotalIOBytes", "FileSystemId",
                efsOnly.value(efsOnly.efs.getFileSystemId()), "Sum", 60);
        Template.fromStack(efsOnly.stack).hasResourceProperties("AWS::CloudWatch::Dashboard",
                Map.of("DashboardName", Match.absent()));
    }

    @Test
    void addMethodsAppendRowsAfterThePropsRows() {
        Fixture fixture = new Fixture(true);
        TrainingDataDashboard dashboard = new TrainingDataDashboard(fixture.stack, "Dashboard",
                TrainingDataDashboardProps.builder().stores(List.of(fixture.efs)).build());
        dashboard.addStore(fixture.lustre);
        dashboard.addDefinition(fixture.training);

        assertEquals(List.of("### EFS store `Test/Efs`", "### FSx for Lustre cache `Test/Lustre`",
                "### Training `Test/Training`"), headers(body(fixture.stack)));
    }

    @Test
    void everyStoreBringsItsOwnRowsAndTheBucketNone() {
        Stack stack = TestApps.stack();
        TrainingDataBucket bucket = new TrainingDataBucket(stack, "Data");
        new TrainingDataDashboard(stack, "Dashboard", TrainingDataDashboardProps.builder()
                .stores(List.of(bucket, new OneRowStore(stack, "Custom"))).build());

        JsonNode body = body(stack);
        assertEquals(List.of("### A store `Test/Custom`"), headers(body));
        assertEquals(1, body.get("widgets").size());
    }

    /** A store of a kind the dashboard does not know: one header row. */
    private static final class OneRowStore extends software.constructs.Construct implements TrainingDataStore {
        OneRowStore(software.constructs.Construct scope, String id) {
            super(scope, id);
        }

        @Override
        public TrainingNetwork getNetwork() {
            return null;
        }

        @Override
        public String getPinnedAvailabilityZone() {
            return null;
        }

        @Override
        public void grantTraining(StoreGrants grants, StoreAccess access, String path) {
        }

        @Override
        public List<List<IWidget>> dashboardRows(Duration period) {
            return List.of(List.of(TextWidget.Builder.create().markdown("### A store `" + getNode().getPath() + "`")
                    .width(24).height(2).build()));
        }
    }

    @Test
    void rejectsAStoreOfAnotherStackWhoseFileSystemIdAReplacementChanges() {
        Fixture fixture = new Fixture(false);
        Stack ops = new Stack((software.constructs.Construct) fixture.stack.getNode().getScope(), "Ops");
        assertRule("DASHBOARD_SAME_DEPLOYMENT", () -> new TrainingDataDashboard(ops, "Dashboard",
                TrainingDataDashboardProps.builder().stores(List.of(fixture.data, fixture.efs)).build()),
                "Ops/Dashboard", "stores", "Test/Efs", "a store or preload of the dashboard's stack: its widgets name "
                        + "the file system id, which a replacement changes, and a value passed across stacks at deploy "
                        + "time is not updated then; create the dashboard in the stack that owns it");
    }

    @Test
    void rejectsADashboardOfNothing() {
        Stack stack = TestApps.stack();
        assertRule("DASHBOARD_NOT_EMPTY", () -> new TrainingDataDashboard(stack,
                "Dashboard", TrainingDataDashboardProps.builder().stores(List.of()).build()),
                "Test/Dashboard", "stores, preloads and definitions", "all empty",
                "at least one store, preload or training-job definition to show");
    }

    @Test
    void rejectsAPeriodThatIsNotWholeMinutes() {
        Fixture efsOnly = new Fixture(false);
        assertRule("DASHBOARD_PERIOD", () -> new TrainingDataDashboard(efsOnly.stack,
                "Dashboard", TrainingDataDashboardProps.builder().stores(List.of(efsOnly.efs))
                        .period(Duration.seconds(90)).build()),
                "Test/Dashboard", "period", "1 minute 30 seconds",
                "a whole number of minutes, at least 1 (these metrics are published once a minute; a deploy-time value "
                        + "given as Duration.seconds(...))");
        Fixture other = new Fixture(false);
        Number minutes = CfnParameter.Builder.create(other.stack, "Minutes").type("Number")
                .build().getValueAsNumber();
        assertRule("DASHBOARD_PERIOD", () -> new TrainingDataDashboard(other.stack,
                "Dashboard", TrainingDataDashboardProps.builder().stores(List.of(other.efs))
                        .period(Duration.minutes(minutes)).build()),
                "Test/Dashboard", "period", "<token> minutes", "a whole number of minutes, at least 1 (these metrics "
                        + "are published once a minute; a deploy-time value given as Duration.seconds(...))");
        Fixture fractional = new Fixture(false);
        assertRule("DASHBOARD_PERIOD", () -> new TrainingDataDashboard(fractional.stack,
                "Dashboard", TrainingDataDashboardProps.builder().stores(List.of(fractional.efs))
                        .period(Duration.millis(60_500)).build()),
                "Test/Dashboard", "period", "1 minute 500 millis", "a whole number of minutes, at least 1 (these "
                        + "metrics are published once a minute; a deploy-time value given as Duration.seconds(...))");
    }

    /** The quickstart's wiring, on an existing bucket; with Lustre, also a definition reading it and a preload. */
    private static final class Fixture {
        final Stack stack = TestApps.stack();
        final TrainingNetwork network = new TrainingNetwork(stack, "Network");
        final TrainingDataBucket data = new TrainingDataBucket(stack, "Data", TrainingDataBucketProps.builder()
                .bucket(Bucket.fromBucketName(stack, "Existing", "team-datasets")).datasetPrefix("imagenet").build());
        final EfsStore efs = new EfsStore(stack, "Efs", EfsStoreProps.builder().network(network).build());
        final LustreCache lustre;
        final TrainingJobDefinition training;
        final LustrePreload preload;

        Fixture(boolean withLustre) {
            if (!withLustre) {
                lustre = null;
                training = null;
                preload = null;
                return;
            }
            lustre = new LustreCache(stack, "Lustre", LustreCacheProps.builder()
                    .network(network).datasets(List.of(LustreDataset.builder("imagenet").dataBucket(data).build())).build());
            training = new TrainingJobDefinition(stack, "Training", TrainingJobDefinitionProps.builder()
                    .jobNamePrefix("train")
                    .trainingImage(TrainingImage.fromUri("123456789012.dkr.ecr.us-east-1.amazonaws.com/train:1"))
                    .instanceType("ml.p3.2xlarge")
                    .outputBucket(data)
                    .channels(List.of(LustreChannel.builder("train").cache(lustre).path("train").build()))
                    .build());
            preload = new LustrePreload(stack, "Preload", LustrePreloadProps.builder()
                    .cache(lustre).definition(training).build());
        }

        /** @return a token as CloudFormation would deploy it, with the placeholders of {@link Intrinsics} */
        String value(String token) {
            return Intrinsics.string(stack.resolve(token));
        }
    }

    private static JsonNode body(Stack stack) {
        Map<String, Map<String, Object>> dashboards =
                Template.fromStack(stack).findResources("AWS::CloudWatch::Dashboard");
        assertEquals(1, dashboards.size());
        Map<?, ?> properties = (Map<?, ?>) dashboards.values().iterator().next().get("Properties");
        try {
            return JSON.readTree(Intrinsics.string(properties.get("DashboardBody")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> titles(JsonNode body) {
        List<String> titles = new ArrayList<>();
        body.get("widgets").forEach(w -> {
            if (w.at("/properties/title").isTextual()) {
                titles.add(w.at("/properties/title").asText());
            }
        });
        return titles;
    }

    private static List<String> headers(JsonNode body) {
        List<String> headers = new ArrayList<>();
        body.get("widgets").forEach(w -> {
            if ("text".equals(w.get("type").asText())) {
                headers.add(w.at("/properties/markdown").asText().lines().findFirst().orElseThrow());
            }
        });
        return headers;
    }

    private static JsonNode widget(JsonNode body, String title) {
        for (JsonNode w : body.get("widgets")) {
            if (title.equals(w.at("/properties/title").asText())) {
                return w;
            }
        }
        throw new AssertionError("no widget titled '" + title + "' in " + body);
    }

    private static List<Double> annotationValues(JsonNode widget) {
        List<Double> values = new ArrayList<>();
        widget.at("/properties/annotations/horizontal").forEach(a -> values.add(a.get("value").asDouble()));
        return values;
    }

    /** Asserts that the widget graphs the metric with that one dimension, statistic and period. */
    private static void assertMetric(JsonNode widget, String namespace, String name, String dimension, String value,
            String statistic, int period) {
        for (JsonNode row : widget.at("/properties/metrics")) {
            JsonNode options = row.get(row.size() - 1);
            if (row.size() == 5 && namespace.equals(row.get(0).asText()) && name.equals(row.get(1).asText())
                    && dimension.equals(row.get(2).asText()) && value.equals(row.get(3).asText())
                    && statistic.equals(options.path("stat").asText("Average"))
                    && period == options.path("period").asInt(300)) {
                return;
            }
        }
        throw new AssertionError("no " + namespace + " " + name + " " + dimension + "=" + value + " " + statistic
                + " per " + period + " s in " + widget);
    }

    /** Asserts that the widget shows the metric-math expression with that label. */
    private static void assertExpression(JsonNode widget, String expression, String label) {
        for (JsonNode row : widget.at("/properties/metrics")) {
            JsonNode options = row.get(0);
            if (expression.equals(options.path("expression").asText())
                    && label.equals(options.path("label").asText())) {
                return;
            }
        }
        throw new AssertionError("no expression " + expression + " labelled " + label + " in " + widget);
    }
}
