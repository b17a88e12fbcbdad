package io.ferry.bench.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** An experiment's files: every measurement as CSV, the medians as a PNG chart, and markdown. */
final class Report {
    private Report() {
    }

    static void csv(Path file, List<Point> points) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("experiment,point,x,series,median_ms,min_ms,max_ms,runs_ms,shipped,compressed,result_bytes,"
                + "model_fs_ms,model_ds_ms,node_cpu_ms,modes");
        for (Point p : points) {
            for (Measurement m : p.series()) {
                lines.add(String.join(",", p.experiment(), p.label(), fmt(p.x()), m.series(), fmt(m.median()),
                        fmt(m.min()), fmt(m.max()), Arrays.stream(m.millis()).mapToObj(Report::fmt)
                                .collect(Collectors.joining(";")), m.shipped(), Boolean.toString(m.compressed()),
                        Long.toString(m.resultBytes()), fmt(m.fsCostMs()), fmt(m.dsCostMs()), fmt(m.nodeCpuMs()),
                        m.mixed().replace(",", ";")));
            }
        }
        Files.write(file, lines);
    }

    /** Median time per series over x; one line per series, in the order given. */
    static void chart(Path file, String title, String xTitle, boolean logX, List<Point> points, List<String> series)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(900).height(560).title(title).xAxisTitle(xTitle)
                .yAxisTitle("response time, ms (median)").build();
        chart.getStyler().setXAxisLogarithmic(logX);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        chart.getStyler().setMarkerSize(7);
        for (String s : series) {
            double[] x = points.stream().mapToDouble(Point::x).toArray();
            double[] y = points.stream().mapToDouble(p -> p.get(s).median()).toArray();
            chart.addSeries(s, x, y).setMarker(SeriesMarkers.CIRCLE);
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** The facts a reader needs to judge the numbers. */
    static String machine(Settings s) {
        return String.format(Locale.ROOT, "%d cores, %.0f GiB, JDK %s, fabric %s; r has %,d rows; each point: %d "
                + "warm-up run(s), then the median of %d (this machine is shared and noisy: expect ±15%% between runs)",
                Runtime.getRuntime().availableProcessors(), totalMemoryGiB(), System.getProperty("java.version"),
                s.fabric(), s.rows(), s.warmups(), s.repeat());
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
        if (b >= 1 << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", b / (1 << 20));
        }
        return String.format(Locale.ROOT, "%.0f KiB", b / 1024);
    }
}
