package io.ferry.bench.tpcds;

import static io.ferry.bench.tpcds.TpcdsReport.quantile;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * First-execution planning of every statement, measured again in passes after the run: each pass plans every
 * statement under a text of its own (a comment names the pass), so none comes from the plan cache, as on a server
 * that has been answering queries for a while and now meets statements it has not seen. The run's own planning
 * times are each statement's first in this JVM, soon after start-up, while the planner's code is still being
 * compiled; the passes show what planning costs once it is. Reported per pass as p50, p95 and maximum of the wall
 * time and of the planning thread's CPU time (which other processes on a busy machine disturb less).
 */
public final class PlanningPasses {
    /** One pass: the planning time of each statement, in the order given, NaN where planning failed. */
    public record Pass(int number, double[] wallMs, double[] cpuMs) {
        public String line() {
            return String.format(Locale.ROOT, "pass %d: wall p50 %.1f ms, p95 %.1f ms, max %.1f ms; thread CPU p50 "
                    + "%.1f ms, p95 %.1f ms, max %.1f ms", number, quantile(wallMs, 0.5), quantile(wallMs, 0.95),
                    quantile(wallMs, 1), quantile(cpuMs, 0.5), quantile(cpuMs, 0.95), quantile(cpuMs, 1));
        }
    }

    private PlanningPasses() {
    }

    /** Plans each of {@code queries} {@code passes} times over, on {@code ferry}. */
    static List<Pass> measure(Connection ferry, List<TpcdsQueries.Query> queries, int passes) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        List<Pass> out = new ArrayList<>();
        for (int pass = 1; pass <= passes; pass++) {
            double[] wall = new double[queries.size()];
            double[] cpu = new double[queries.size()];
            for (int q = 0; q < queries.size(); q++) {
                String sql = "/* planning pass " + pass + " */ " + queries.get(q).sql();
                long cpuStart = threads.getCurrentThreadCpuTime();
                long start = System.nanoTime();
                try {
                    ferry.prepareStatement(sql).close();
                    wall[q] = (System.nanoTime() - start) / 1e6;
                    cpu[q] = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e6;
                } catch (SQLException e) {
                    wall[q] = Double.NaN;
                    cpu[q] = Double.NaN;
                }
            }
            out.add(new Pass(pass, wall, cpu));
        }
        return out;
    }

    /** The passes per statement, as CSV: query, then wall and CPU milliseconds of each pass. */
    static void writeCsv(Path file, List<TpcdsQueries.Query> queries, List<Pass> passes) throws IOException {
        StringBuilder csv = new StringBuilder("query");
        for (Pass p : passes) {
            csv.append(",pass").append(p.number()).append("_wall_ms,pass").append(p.number()).append("_cpu_ms");
        }
        csv.append('\n');
        for (int q = 0; q < queries.size(); q++) {
            csv.append(queries.get(q).name());
            for (Pass p : passes) {
                csv.append(String.format(Locale.ROOT, ",%.2f,%.2f", p.wallMs()[q], p.cpuMs()[q]));
            }
            csv.append('\n');
        }
        Files.writeString(file, csv);
    }
}
