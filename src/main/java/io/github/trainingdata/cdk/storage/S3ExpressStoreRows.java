package io.github.trainingdata.cdk.storage;

import static io.github.trainingdata.cdk.internal.DashboardWidgets.graph;
import static io.github.trainingdata.cdk.internal.DashboardWidgets.header;

import io.github.trainingdata.cdk.internal.DashboardWidgets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.cloudwatch.Stats;

/**
 * A directory bucket's rows on the dashboard (AWS/S3, by {@code BucketName}; request metrics also by
 * {@code FilterId}): first-byte latency, GET and LIST requests, bytes downloaded, errors, and the daily size and
 * object count.
 */
final class S3ExpressStoreRows {
    /** The request-metrics configuration of the whole bucket. */
    static final String FILTER_ID = "EntireBucket";
    private static final String S3 = "AWS/S3";

    private S3ExpressStoreRows() {
    }

    static List<List<IWidget>> of(S3ExpressStore store, boolean requestMetrics, Duration period) {
        DashboardWidgets widgets = new DashboardWidgets(period);
        Map<String, String> bucket = Map.of("BucketName", store.getBucketName());
        Map<String, String> requests = new TreeMap<>(Map.of("BucketName", store.getBucketName(),
                "FilterId", FILTER_ID));
        List<IWidget> graphs = new ArrayList<>();
        if (requestMetrics) {
            graphs.add(graph("S3 Express first-byte latency (ms)", 6,
                    List.of(widgets.metric(S3, "FirstByteLatency", requests, Stats.p(50), "p50"),
                            widgets.metric(S3, "FirstByteLatency", requests, Stats.p(99), "p99")),
                    List.of()));
            graphs.add(graph("S3 Express requests", 6,
                    List.of(widgets.metric(S3, "GetRequests", requests, Stats.SUM, "GET"),
                            widgets.metric(S3, "ListRequests", requests, Stats.SUM, "LIST")),
                    List.of()));
            graphs.add(graph("S3 Express download (bytes/s) and errors", 6,
                    List.of(widgets.perSecond("down", S3, "BytesDownloaded", requests, "Downloaded"),
                            widgets.metric(S3, "4xxErrors", requests, Stats.SUM, "4xx"),
                            widgets.metric(S3, "5xxErrors", requests, Stats.SUM, "5xx")),
                    List.of()));
        }
        graphs.add(graph("S3 Express size (daily)", requestMetrics ? 6 : 24,
                List.of(widgets.metric(S3, "BucketSizeBytes", bucket, Stats.AVERAGE, "Bytes"),
                        widgets.metric(S3, "NumberOfObjects", bucket, Stats.AVERAGE, "Objects")),
                List.of()));
        return List.of(
                List.of(header("S3 Express One Zone store `" + store.getNode().getPath() + "`",
                        "Directory bucket `" + store.getBucketName() + "` in zone `" + store.getZoneId() + "`. "
                                + (requestMetrics ? "Request metrics come from its metrics configuration `"
                                        + FILTER_ID + "`; size" : "Size") + " is reported once a day.")),
                graphs);
    }
}
