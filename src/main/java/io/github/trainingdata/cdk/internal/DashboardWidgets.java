package io.github.trainingdata.cdk.internal;

import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.GraphWidget;
import software.amazon.awscdk.services.cloudwatch.HorizontalAnnotation;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TextWidget;
import software.amazon.awscdk.services.cloudwatch.Stats;
import software.amazon.awscdk.services.cloudwatch.YAxisProps;

/**
 * Builds the widgets of the training-data dashboard (and of each store's rows on it) and the metrics they plot, every metric at the
 * dashboard's period: headers, graphs from 0 with optional horizontal lines, and byte counts as bytes per
 * second.
 */
public final class DashboardWidgets {
    /** Height of every graph row. */
    public static final int GRAPH_HEIGHT = 6;

    private final Duration period;

    /** Widgets whose metrics are aggregated over {@code period}. */
    public DashboardWidgets(Duration period) {
        this.period = period;
    }

    /** A full-width Markdown header: a title and one paragraph. */
    public static TextWidget header(String title, String text) {
        return TextWidget.Builder.create().markdown("### " + title + "\n" + text).width(24).height(2).build();
    }

    /** A metric of this dashboard's period; {@code label} null for the metric's name. */
    public Metric metric(String namespace, String name, Map<String, String> dimensions, String statistic, String label) {
        return Metric.Builder.create().namespace(namespace).metricName(name).dimensionsMap(dimensions)
                .statistic(statistic).label(label).period(period).build();
    }

    /** Options of a metric of this period with a label and a statistic. */
    public MetricOptions labelled(String label, String statistic) {
        return MetricOptions.builder().label(label).statistic(statistic).period(period).build();
    }

    /** The {@code Sum} of a byte count per period, in bytes per second; {@code id} must be unique in its graph. */
    public MathExpression perSecond(String id, String namespace, String name, Map<String, String> dimensions, String label) {
        return MathExpression.Builder.create()
                .expression(id + "/PERIOD(" + id + ")")
                .usingMetrics(Map.of(id, metric(namespace, name, dimensions, Stats.SUM, null)))
                .label(label)
                .period(period)
                .build();
    }

    /** A graph from 0 of the metrics {@code left}, with horizontal {@code lines}. */
    public static GraphWidget graph(String title, int width, List<IMetric> left, List<HorizontalAnnotation> lines) {
        return GraphWidget.Builder.create()
                .title(title)
                .left(left)
                .leftAnnotations(lines)
                .leftYAxis(axis(null))
                .width(width).height(GRAPH_HEIGHT)
                .build();
    }

    /** An axis from 0, unit-less, with an optional label. */
    public static YAxisProps axis(String label) {
        return YAxisProps.builder().min(0).label(label).showUnits(false).build();
    }

    /** A horizontal line at {@code value}. */
    public static HorizontalAnnotation line(double value, String label) {
        return HorizontalAnnotation.builder().value(value).label(label).build();
    }
}
