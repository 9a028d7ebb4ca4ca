package io.github.trainingdata.cdk.monitoring;

import static io.github.trainingdata.cdk.internal.DashboardWidgets.GRAPH_HEIGHT;
import static io.github.trainingdata.cdk.internal.DashboardWidgets.axis;
import static io.github.trainingdata.cdk.internal.DashboardWidgets.graph;
import static io.github.trainingdata.cdk.internal.DashboardWidgets.header;

import io.github.trainingdata.cdk.internal.DashboardWidgets;
import io.github.trainingdata.cdk.preload.LustrePreload;
import io.github.trainingdata.cdk.preload.handler.PreloadMetrics;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.TrainingDataStore;
import io.github.trainingdata.cdk.training.CapacityPolicy;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.cloudwatch.Dashboard;
import software.amazon.awscdk.services.cloudwatch.GraphWidget;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.cloudwatch.LogQueryWidget;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.SingleValueWidget;
import software.amazon.awscdk.services.cloudwatch.Stats;
import software.amazon.awscdk.services.stepfunctions.IStateMachine;
import software.constructs.Construct;

/**
 * A CloudWatch dashboard of the training-data path: each store's rows ({@link TrainingDataStore#dashboardRows}: how
 * fast a Lustre cache or EFS store is read, against what its configuration buys), how far each preload worker got and how busy its instance was, how
 * each training-job definition's executions ended and how busy its jobs' instances were.
 *
 * <p>Each store, preload and definition gets a header and a row of widgets, in the order they were given:
 * the props' lists (stores, preloads, definitions), then the {@code add*} calls. Throughput
 * graphs divide the {@code Sum} of a byte count by the period ({@code m/PERIOD(m)}), as the FSx and EFS
 * guides prescribe, so they read in bytes per second whatever the period.
 */
public class TrainingDataDashboard extends Construct {
    /**
     * Namespace of SageMaker training-job metrics: instance metrics (CPU, memory, GPU, disk utilization) with
     * dimension {@code Host = <job name>/algo-<instance number>}, metric-definition metrics with dimension
     * {@code TrainingJobName}.
     */
    public static final String TRAINING_JOBS_NAMESPACE = "/aws/sagemaker/TrainingJobs";
    /** Log group of SageMaker training jobs: one stream per instance, {@code <job name>/algo-<n>-<epoch>}. */
    public static final String TRAINING_JOBS_LOG_GROUP = "/aws/sagemaker/TrainingJobs";
    private static final String TRAINING_JOB_NAME = "TrainingJobName";
    private static final String HOST = "Host";
    private static final Duration DEFAULT_PERIOD = Duration.minutes(5);

    private final Duration period;
    private final DashboardWidgets widgets;
    private final Dashboard dashboard;

    /** Creates the dashboard with a row for every store, preload and definition in {@code props}. */
    public TrainingDataDashboard(Construct scope, String id, TrainingDataDashboardProps props) {
        super(scope, id);
        this.period = DashboardRules.check(this, props, DEFAULT_PERIOD);
        this.widgets = new DashboardWidgets(period);
        this.dashboard = Dashboard.Builder.create(this, "Resource")
                .dashboardName(props.getDashboardName())
                .build();
        props.getStores().forEach(this::addStore);
        props.getPreloads().forEach(this::addPreload);
        props.getDefinitions().forEach(this::addDefinition);
    }

    /**
     * Adds a store's rows ({@link TrainingDataStore#dashboardRows}): for a Lustre cache, read and write throughput
     * against what it buys and the free space on its fullest disk; for an EFS store, throughput against permitted
     * throughput, the I/O limit and burst credits; for the bucket, nothing.
     *
     * @param store the store
     */
    public void addStore(TrainingDataStore store) {
        String id = store instanceof LustreCache cache ? cache.getFileSystemId()
                : store instanceof EfsStore efs ? efs.getFileSystemId() : null;
        DashboardRules.checkSameDeployment(this, "stores", store, id != null && Token.isUnresolved(id));
        for (List<IWidget> row : store.dashboardRows(period)) {
            dashboard.addWidgets(row.toArray(IWidget[]::new));
        }
    }

    /**
     * Adds rows for a preload: what the last deploy saw (its {@code Status}, and the locations that held no object
     * when the deploy waits), the worker job's {@value PreloadMetrics#FILES}, {@value PreloadMetrics#BYTES},
     * {@value PreloadMetrics#SECONDS} and {@value PreloadMetrics#LOCATIONS} (metric definitions, published per
     * {@code TrainingJobName}; cumulative, so {@code Maximum}; fewer locations warmed than the preload has means some
     * held no object yet, status PARTIAL), its instance's CPU, memory and disk utilization (per {@code Host}, the
     * worker's one instance {@code <job>/algo-1}), and its log. The worker's name is a deploy-time attribute, so the
     * rows follow a re-warm to its new worker.
     *
     * @param preload the preload
     */
    public void addPreload(LustrePreload preload) {
        DashboardRules.checkSameDeployment(this, "preloads", preload, true);
        String job = preload.getWorkerJobName();
        int locations = preload.getLocations().size();
        Map<String, String> dimensions = Map.of(TRAINING_JOB_NAME, job);
        Map<String, String> host = Map.of(HOST, job + "/algo-1");
        Metric files = widgets.metric(TRAINING_JOBS_NAMESPACE, PreloadMetrics.FILES, dimensions, Stats.MAXIMUM,
                "Files warmed");
        Metric bytes = widgets.metric(TRAINING_JOBS_NAMESPACE, PreloadMetrics.BYTES, dimensions, Stats.MAXIMUM,
                "Bytes warmed");
        Metric seconds = widgets.metric(TRAINING_JOBS_NAMESPACE, PreloadMetrics.SECONDS, dimensions, Stats.MAXIMUM,
                "Seconds");
        Metric warmed = widgets.metric(TRAINING_JOBS_NAMESPACE, PreloadMetrics.LOCATIONS, dimensions, Stats.MAXIMUM,
                "Locations warmed (of " + locations + ")");
        String status = "Last deploy: status `" + preload.getStatus() + "`" + (preload.isWaitForCompletion()
                ? ", locations without data (not warmed): `" + preload.getEmptyLocations() + "`" : "") + ".";
        dashboard.addWidgets(header("Preload `" + preload.getNode().getPath() + "`",
                "Worker job `" + job + "` warms " + locations + " location" + (locations == 1 ? "" : "s") + " of `"
                        + preload.getCache().getNode().getPath() + "`; it logs its progress every poll and its result "
                        + "last. " + status));
        dashboard.addWidgets(
                SingleValueWidget.Builder.create()
                        .title("Preload result (largest value in the time range)")
                        .metrics(List.of(files, bytes, seconds, warmed))
                        .setPeriodToTimeRange(true)
                        .fullPrecision(true)
                        .width(8).height(GRAPH_HEIGHT)
                        .build(),
                GraphWidget.Builder.create()
                        .title("Preload progress")
                        .left(List.of(files))
                        .right(List.of(bytes))
                        .leftYAxis(axis("files"))
                        .rightYAxis(axis("bytes"))
                        .width(8).height(GRAPH_HEIGHT)
                        .build(),
                graph("Preload worker instance utilization (%)", 8,
                        List.of(widgets.metric(TRAINING_JOBS_NAMESPACE, "CPUUtilization", host, Stats.AVERAGE, "CPU (all cores)"),
                                widgets.metric(TRAINING_JOBS_NAMESPACE, "MemoryUtilization", host, Stats.AVERAGE, "Memory"),
                                widgets.metric(TRAINING_JOBS_NAMESPACE, "DiskUtilization", host, Stats.MAXIMUM, "Disk")),
                        List.of()));
        dashboard.addWidgets(LogQueryWidget.Builder.create()
                .title("Preload worker log")
                .logGroupNames(List.of(TRAINING_JOBS_LOG_GROUP))
                .queryLines(List.of(
                        "fields @timestamp, @logStream, @message",
                        "filter @logStream like \"" + job + "/\"",
                        "sort @timestamp desc",
                        "limit 200"))
                .width(24).height(GRAPH_HEIGHT)
                .build());
    }

    /**
     * Adds rows for a training-job definition: its state machine's executions by outcome (succeeded, failed,
     * timed out, aborted) and their duration, and the GPU, CPU and disk utilization of every instance of its
     * jobs. Job names are generated ({@code <prefix>-<UUID>} by the state machine,
     * {@code <prefix>-<timestamp>-<hex>} by the launcher), so the instance graphs are CloudWatch
     * {@code SEARCH} expressions over {@code {/aws/sagemaker/TrainingJobs,Host}} for hosts that contain the
     * job-name prefix: they show jobs with data from the last two weeks, one line per {@code <job>/algo-<n>} (a
     * preload's workers are named after the preload, {@code warm-<preload>-…}, so they are not among them).
     *
     * @param definition the definition
     */
    public void addDefinition(TrainingJobDefinition definition) {
        IStateMachine stateMachine = definition.getStateMachine();
        String prefix = definition.getJobNamePrefix();
        dashboard.addWidgets(header("Training `" + definition.getNode().getPath() + "`",
                "Each execution of the state machine runs one job named `" + prefix + "-<UUID>`; the SDK launcher "
                        + "names jobs `" + prefix + "-<timestamp>-<hex>`. Instance graphs show every job whose name "
                        + "contains `" + prefix + "` and that reported in the last two weeks."));
        dashboard.addWidgets(
                graph("Training executions by outcome", 12,
                        List.of(stateMachine.metricSucceeded(widgets.labelled("Succeeded", Stats.SUM)),
                                stateMachine.metricFailed(widgets.labelled("Failed", Stats.SUM)),
                                stateMachine.metricTimedOut(widgets.labelled("Timed out", Stats.SUM)),
                                stateMachine.metricAborted(widgets.labelled("Aborted", Stats.SUM))),
                        List.of()),
                graph("Training execution time (ms)", 12,
                        List.of(stateMachine.metricTime(widgets.labelled("Average", Stats.AVERAGE)),
                                stateMachine.metricTime(widgets.labelled("Maximum", Stats.MAXIMUM))),
                        List.of()));
        dashboard.addWidgets(
                graph("Training GPU utilization (%, per instance, 100 per GPU)", 8,
                        List.of(jobInstances(prefix, "GPUUtilization", Stats.AVERAGE)), List.of()),
                graph("Training CPU utilization (%, per instance, 100 per core)", 8,
                        List.of(jobInstances(prefix, "CPUUtilization", Stats.AVERAGE)), List.of()),
                graph("Training disk utilization (%, per instance)", 8,
                        List.of(jobInstances(prefix, "DiskUtilization", Stats.MAXIMUM)), List.of()));
        if (definition.getSpec().getCapacityPolicy() != null) {
            addCapacityAttempts(prefix);
        }
    }

    /**
     * A definition with a capacity policy counts each job its state machine ran
     * ({@value CapacityPolicy#METRIC_NAMESPACE}, {@value CapacityPolicy#ATTEMPTS_METRIC}): by outcome, and by
     * instance type and data sources (a search, one line per combination that ran in the last two weeks).
     */
    private void addCapacityAttempts(String prefix) {
        List<IMetric> outcomes = new ArrayList<>();
        for (String outcome : CapacityPolicy.OUTCOMES) {
            Map<String, String> dimensions = new LinkedHashMap<>(); // in a stable order, as the template shows them
            dimensions.put(CapacityPolicy.JOB_NAME_PREFIX_DIMENSION, prefix);
            dimensions.put(CapacityPolicy.OUTCOME_DIMENSION, outcome);
            outcomes.add(widgets.metric(CapacityPolicy.METRIC_NAMESPACE, CapacityPolicy.ATTEMPTS_METRIC, dimensions,
                    Stats.SUM, outcome));
        }
        MathExpression byJob = search(CapacityPolicy.METRIC_NAMESPACE, String.join(",",
                CapacityPolicy.DATA_SOURCES_DIMENSION, CapacityPolicy.INSTANCE_TYPE_DIMENSION,
                CapacityPolicy.JOB_NAME_PREFIX_DIMENSION, CapacityPolicy.OUTCOME_DIMENSION), CapacityPolicy.ATTEMPTS_METRIC,
                CapacityPolicy.JOB_NAME_PREFIX_DIMENSION + "=\"" + prefix + "\"", Stats.SUM);
        dashboard.addWidgets(
                graph("Capacity policy: jobs by outcome", 12, outcomes, List.of()),
                graph("Capacity policy: jobs by instance type, data sources and outcome", 12, List.of(byJob),
                        List.of()));
    }

    /** @return the CloudWatch dashboard */
    public Dashboard getDashboard() {
        return dashboard;
    }

    /**
     * One line per instance of every job whose name contains {@code prefix}: a search over the
     * {@code Host = <job>/algo-<n>} dimension (a partial match on the prefix's tokens), each line labelled by
     * CloudWatch with its host.
     */
    private MathExpression jobInstances(String prefix, String metricName, String statistic) {
        return search(TRAINING_JOBS_NAMESPACE, HOST, metricName, HOST + "=" + prefix, statistic);
    }

    /**
     * A CloudWatch {@code SEARCH} over the metrics {@code metricName} of {@code namespace} with exactly
     * {@code dimensions} (comma-separated) that match {@code filter}, one line per metric, each labelled by CloudWatch.
     */
    private MathExpression search(String namespace, String dimensions, String metricName, String filter,
            String statistic) {
        return MathExpression.Builder.create()
                .expression("SEARCH('{\"" + namespace + "\"," + dimensions + "} MetricName=\"" + metricName + "\" "
                        + filter + "', '" + statistic + "', " + period.toSeconds() + ")")
                .label("") // aws-cdk-lib's way to render no label (else the expression labels every line)
                .period(period)
                .build();
    }
}
