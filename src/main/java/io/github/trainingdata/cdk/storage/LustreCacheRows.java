package io.github.trainingdata.cdk.storage;

import static io.github.trainingdata.cdk.internal.DashboardWidgets.graph;
import static io.github.trainingdata.cdk.internal.DashboardWidgets.header;
import static io.github.trainingdata.cdk.internal.DashboardWidgets.line;

import io.github.trainingdata.cdk.internal.DashboardWidgets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.cloudwatch.Stats;

/**
 * A Lustre cache's rows on the dashboard: read throughput against what its deployment type, tier and capacity buy (the
 * baseline reads sustain, and SCRATCH_2's burst or PERSISTENT_2's network ceiling for reads from the file servers'
 * memory), write throughput, and the free space on its fullest disk (a write fails when one disk is full).
 */
final class LustreCacheRows {
    private static final String FSX = "AWS/FSx";
    private static final double BYTES_PER_MB = 1_000_000.0;

    private LustreCacheRows() {
    }

    static List<List<IWidget>> of(LustreCache cache, Duration period) {
        DashboardWidgets widgets = new DashboardWidgets(period);
        Map<String, String> dimensions = Map.of("FileSystemId", cache.getFileSystemId());
        // A deploy-time capacity or tier (or an existing file system's unknown one) buys a throughput unknown at synth.
        boolean known = cache.getStorageCapacityGiB() != null && cache.getTier() != null;
        double baseline = known ? cache.getBaselineThroughputMBps() : 0;
        double peak = known ? cache.getBurstThroughputMBps() : 0;
        boolean persistent = cache.getTier() != null && cache.getTier().persistent();
        String peakName = persistent ? "Network ceiling" : "Burst";
        String kind = cache.getTier() != null ? cache.getTier().toString() : cache.getDeploymentType() != null
                ? cache.getDeploymentType().apiValue() + " with a deploy-time tier" : "a PERSISTENT_1 file system";
        String links = String.join(", ", cache.getDatasets().stream().map(d -> "`" + d.getS3Uri() + "`").toList());
        return List.of(
                List.of(header("FSx for Lustre cache `" + cache.getNode().getPath() + "`",
                        "File system `" + cache.getFileSystemId() + "`, " + kind + ", "
                                + (known ? cache.getStorageCapacityGiB() + " GiB, linked to " + links + ": baseline "
                                        + mbps(baseline) + ", " + peakName.toLowerCase(Locale.ROOT) + " " + mbps(peak)
                                        : "linked to " + links)
                                + ". Files not yet loaded are read from S3 first.")),
                List.of(
                        graph("Lustre read throughput (bytes/s)", 8,
                                List.of(widgets.perSecond("read", FSX, "DataReadBytes", dimensions, "Data read")),
                                known ? List.of(line(baseline * BYTES_PER_MB, "Baseline " + mbps(baseline)),
                                        line(peak * BYTES_PER_MB, peakName + " " + mbps(peak))) : List.of()),
                        graph("Lustre write throughput (bytes/s)", 8,
                                List.of(widgets.perSecond("write", FSX, "DataWriteBytes", dimensions, "Data written")),
                                List.of()),
                        graph("Lustre free space on the fullest disk (bytes)", 8,
                                List.of(widgets.metric(FSX, "FreeDataStorageCapacity", dimensions, Stats.MINIMUM,
                                        "Free (fullest disk)")),
                                List.of())));
    }

    private static String mbps(double value) {
        return String.format(Locale.ROOT, "%.0f MB/s", value);
    }
}
