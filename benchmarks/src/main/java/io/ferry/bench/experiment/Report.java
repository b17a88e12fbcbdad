package io.ferry.bench.experiment;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.colors.XChartSeriesColors;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** An experiment's files: every measurement as CSV, the medians as a PNG chart, and markdown. */
final class Report {
    /** Line colours of the series groups in {@link #chart}. */
    private static final Color[] GROUP_COLOURS = {XChartSeriesColors.BLUE, XChartSeriesColors.ORANGE,
        XChartSeriesColors.GREEN, XChartSeriesColors.PURPLE};

    private Report() {
    }

    static void csv(Path file, List<Point> points) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("experiment,point,x,series,median_ms,min_ms,max_ms,runs_ms,shipped,compressed,result_bytes,"
                + "model_fs_ms,model_ds_ms,node_cpu_ms,modes,query_median_ms,block_bytes,block_rows");
        for (Point p : points) {
            for (Measurement m : p.series()) {
                lines.add(String.join(",", p.experiment(), p.label(), fmt(p.x()), m.series(), fmt(m.median()),
                        fmt(m.min()), fmt(m.max()), Arrays.stream(m.millis()).mapToObj(Report::fmt)
                                .collect(Collectors.joining(";")), m.shipped(), Boolean.toString(m.compressed()),
                        Long.toString(m.resultBytes()), fmt(m.fsCostMs()), fmt(m.dsCostMs()), fmt(m.nodeCpuMs()),
                        m.mixed().replace(",", ";"), fmt(m.queryMedian()), Long.toString(m.blockBytes()),
                        Long.toString(m.blockRows())));
            }
        }
        Files.write(file, lines);
    }

    /** Median time per series over x; one line per series, in the order given. */
    static void chart(Path file, String title, String xTitle, boolean logX, List<Point> points, List<String> series)
            throws IOException {
        chart(file, title, xTitle, "response time, ms (median)", logX, points, series);
    }

    static void chart(Path file, String title, String xTitle, String yTitle, boolean logX, List<Point> points,
            List<String> series) throws IOException {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(900).height(560).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        chart.getStyler().setXAxisLogarithmic(logX);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        chart.getStyler().setMarkerSize(7);
        List<String> groups = new ArrayList<>();
        for (String s : series) {
            double[] x = points.stream().mapToDouble(Point::x).toArray();
            double[] y = points.stream().mapToDouble(p -> p.get(s).median()).toArray();
            XYSeries line = chart.addSeries(s, x, y);
            line.setMarker(SeriesMarkers.CIRCLE);
            int space = s.lastIndexOf(' ');
            if (space > 0) {
                // "GROUP setting" (e.g. "SYSTEM data"): a colour per group, a dash and a marker per setting, so
                // that six lines read as two groups of three
                String group = s.substring(0, space);
                if (!groups.contains(group)) {
                    groups.add(group);
                }
                Color colour = GROUP_COLOURS[groups.indexOf(group) % GROUP_COLOURS.length];
                line.setLineColor(colour);
                line.setMarkerColor(colour);
                switch (s.substring(space + 1)) {
                    case "data", "off" -> {
                        line.setLineStyle(SeriesLines.DASH_DASH);
                        line.setMarker(SeriesMarkers.SQUARE);
                    }
                    case "auto" -> {
                        line.setLineStyle(SeriesLines.DASH_DOT);
                        line.setMarker(SeriesMarkers.DIAMOND);
                    }
                    default -> line.setLineStyle(SeriesLines.SOLID);
                }
            }
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /**
     * Grouped bars: for every category (the x axis) one bar per series, in the order given; each value list is in
     * the categories' order. A logarithmic y axis when the values span more than a factor of 20.
     */
    static void bars(Path file, String title, String yTitle, List<String> categories,
            Map<String, List<Double>> series) throws IOException {
        System.setProperty("java.awt.headless", "true");
        CategoryChart chart = new CategoryChartBuilder().width(900).height(560).title(title).yAxisTitle(yTitle)
                .build();
        DoubleSummaryStatistics range = series.values().stream().flatMap(List::stream).mapToDouble(v -> v)
                .filter(v -> v > 0).summaryStatistics();
        if (range.getCount() > 0 && range.getMax() > 20 * range.getMin()) {
            chart.getStyler().setYAxisLogarithmic(true);
            // bars start at the axis' minimum, which a logarithmic axis needs above zero
            chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(range.getMin()))));
        }
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        chart.getStyler().setXAxisLabelRotation(categories.size() > 4 ? 20 : 0);
        series.forEach((name, values) -> chart.addSeries(name, categories, values));
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** The facts a reader needs to judge the numbers. */
    static String machine(Settings s) {
        return machine(s, String.format(Locale.ROOT, "r has %,d rows; ", s.rows()));
    }

    /** As above, with {@code data} (ending in "; ") saying what the queries read, or empty. */
    static String machine(Settings s, String data) {
        return String.format(Locale.ROOT, "%d cores, %.0f GiB, JDK %s, fabric %s; %seach point: %d warm-up run(s), "
                + "then the median of %d (this machine is shared and noisy: expect ±15%% between runs)",
                Runtime.getRuntime().availableProcessors(), totalMemoryGiB(), System.getProperty("java.version"),
                s.fabric(), data, s.warmups(), s.repeat());
    }

    private static double totalMemoryGiB() {
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        return os.getTotalMemorySize() / (double) (1L << 30);
    }

    static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "";
        }
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v)
                : String.format(Locale.ROOT, "%.2f", v);
    }

    static String ms(double v) {
        return String.format(Locale.ROOT, v < 100 ? "%.1f" : "%.0f", v);
    }

    static String bytes(double b) {
        if (b < 1024) {
            return String.format(Locale.ROOT, "%.0f B", b);
        }
        if (b >= 1 << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", b / (1 << 20));
        }
        return String.format(Locale.ROOT, "%.0f KiB", b / 1024);
    }
}
