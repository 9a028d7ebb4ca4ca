package io.github.trainingdata.cdk.storage;

import static io.github.trainingdata.cdk.internal.DashboardWidgets.graph;
import static io.github.trainingdata.cdk.internal.DashboardWidgets.header;
import static io.github.trainingdata.cdk.internal.DashboardWidgets.line;

import io.github.trainingdata.cdk.internal.DashboardWidgets;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.cloudwatch.Stats;

/**
 * An EFS store's rows on the dashboard: throughput, metered against permitted throughput, the share of the General
 * Purpose I/O limit used, and the burst credit balance.
 */
final class EfsStoreRows {
    private static final String EFS = "AWS/EFS";

    private EfsStoreRows() {
    }

    static List<List<IWidget>> of(EfsStore store, Duration period) {
        DashboardWidgets widgets = new DashboardWidgets(period);
        Map<String, String> dimensions = Map.of("FileSystemId", store.getFileSystemId());
        return List.of(
                List.of(header("EFS store `" + store.getNode().getPath() + "`",
                        "File system `" + store.getFileSystemId() + "`. The I/O limit applies to General Purpose file "
                                + "systems only; burst credits matter in bursting throughput mode.")),
                List.of(
                        graph("EFS throughput (bytes/s)", 6,
                                List.of(widgets.perSecond("total", EFS, "TotalIOBytes", dimensions, "All I/O"),
                                        widgets.perSecond("read", EFS, "DataReadIOBytes", dimensions, "Data read")),
                                List.of()),
                        graph("EFS metered vs permitted throughput (bytes/s)", 6,
                                List.of(widgets.perSecond("metered", EFS, "MeteredIOBytes", dimensions,
                                                "Metered (reads count one third)"),
                                        widgets.metric(EFS, "PermittedThroughput", dimensions, Stats.AVERAGE,
                                                "Permitted")),
                                List.of()),
                        graph("EFS I/O limit used (%, General Purpose)", 6,
                                List.of(widgets.metric(EFS, "PercentIOLimit", dimensions, Stats.MAXIMUM,
                                        "I/O limit used")),
                                List.of(line(100, "I/O limit"))),
                        graph("EFS burst credit balance (bytes)", 6,
                                List.of(widgets.metric(EFS, "BurstCreditBalance", dimensions, Stats.MINIMUM,
                                        "Burst credits")),
                                List.of())));
    }
}
