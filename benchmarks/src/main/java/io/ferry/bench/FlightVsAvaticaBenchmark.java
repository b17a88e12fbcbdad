package io.ferry.bench;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableAppender;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;
import io.ferry.server.LocalNode;
import io.ferry.server.data.ProgressListener;

/**
 * Fetching a large result through Arrow Flight SQL and through Avatica's JDBC protocol, side by side on one local
 * server: a table of {@code --rows} rows (default 10 M) × 3 columns (BIGINT, DOUBLE, VARCHAR of ~12 bytes), read
 * whole with {@code SELECT k, d, s FROM wide} by Arrow's Flight SQL client (reading every value of each batch) and
 * by Avatica's remote driver (rs.next() and a getter per value), in alternating rounds. Client and server share the
 * machine (and its cores) and talk over loopback. Reports medians, rows per second and Avatica / Flight as markdown.
 * The bar: Flight SQL at least 5× faster.
 *
 * <pre>java -Xmx8g -cp benchmarks/target/ferry-benchmarks.jar io.ferry.bench.FlightVsAvaticaBenchmark --rows 10000000</pre>
 */
public final class FlightVsAvaticaBenchmark {
    private FlightVsAvaticaBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        long rows = 10_000_000;
        int rounds = 3;
        java.nio.file.Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rows" -> rows = Long.parseLong(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--out" -> out = java.nio.file.Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; options: --rows N --rounds N --out FILE");
            }
        }
        List<String> report = new ArrayList<>();
        try (LocalNode node = LocalNode.start(new LocalNode.Options(io.ferry.sql.EngineConfig.defaults()
                .withMemoryLimit(6L << 30), "127.0.0.1", 0, null, List.of()), ProgressListener.NONE)) {
            BenchSql.log("making %,d rows", rows);
            fill(node, rows);
            int port = node.serveFlight(0).port();
            String avatica = node.server().avaticaUrl();
            String sql = "SELECT k, d, s FROM wide";
            List<Double> flightMs = new ArrayList<>();
            List<Double> avaticaMs = new ArrayList<>();
            try (BufferAllocator allocator = new RootAllocator();
                    FlightSqlClient flight = new FlightSqlClient(FlightClient.builder(allocator,
                            Location.forGrpcInsecure("127.0.0.1", port)).build())) {
                BenchSql.log("warming up (one untimed fetch each)");
                time(() -> viaFlight(flight, sql), rows);
                time(() -> viaAvatica(avatica, sql), rows);
                for (int round = 0; round < rounds; round++) {
                    flightMs.add(time(() -> viaFlight(flight, sql), rows));
                    avaticaMs.add(time(() -> viaAvatica(avatica, sql), rows));
                    BenchSql.log("round %d: Flight SQL %.0f ms, Avatica %.0f ms", round + 1,
                            flightMs.get(round), avaticaMs.get(round));
                }
            }
            double f = BenchSql.median(flightMs);
            double a = BenchSql.median(avaticaMs);
            report.add(String.format(Locale.ROOT, "Fetching %,d rows × 3 columns (BIGINT, DOUBLE, VARCHAR) from a "
                    + "local server over loopback, client in the same JVM; median of %d alternating rounds after one untimed fetch "
                    + "each; "
                    + "%d cores shared by client and server, JVM %s.", rows, rounds,
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.version")));
            report.add("");
            report.add("| protocol | median ms | rows per s |");
            report.add("|---|---:|---:|");
            report.add(String.format(Locale.ROOT, "| Arrow Flight SQL | %.0f | %,.0f |", f, rows / (f / 1000)));
            report.add(String.format(Locale.ROOT, "| Avatica (protobuf over HTTP) | %.0f | %,.0f |", a,
                    rows / (a / 1000)));
            report.add("");
            report.add(String.format(Locale.ROOT, "Avatica / Flight SQL: %.1f (the bar: at least 5)", a / f));
        }
        report.forEach(System.out::println);
        if (out != null) {
            java.nio.file.Files.write(out, report);
        }
    }

    /** {@code rows} rows of (k, k / 3.0, 'name-' || k), appended as batches. */
    private static void fill(LocalNode node, long rows) {
        TableSchema schema = new TableSchema(List.of(new Column("k", FerryType.BIGINT, false),
                new Column("d", FerryType.DOUBLE, true), new Column("s", FerryType.VARCHAR, true)));
        Table t = node.engine().catalog().create("wide", schema, false);
        try (TableAppender appender = t.appender()) {
            for (long from = 0; from < rows; from += Vector.MAX_ROWS) {
                int n = (int) Math.min(Vector.MAX_ROWS, rows - from);
                long[] k = new long[n];
                double[] d = new double[n];
                BytesVector.Builder s = new BytesVector.Builder(n);
                for (int i = 0; i < n; i++) {
                    k[i] = from + i;
                    d[i] = (from + i) / 3.0;
                    s.append(("name-" + (from + i)).getBytes(StandardCharsets.UTF_8));
                }
                appender.append(new Batch(n, new Vector[] {new LongVector(k, null, n), new DoubleVector(d, null, n),
                    s.build()}));
            }
            appender.commit();
        }
    }

    /** A fetch to time; returns the rows read. */
    private interface Fetch {
        long run() throws Exception;
    }

    private static double time(Fetch fetch, long expected) throws Exception {
        System.gc();
        long start = System.nanoTime();
        long rows = fetch.run();
        double ms = (System.nanoTime() - start) / 1e6;
        if (rows != expected) {
            throw new IllegalStateException("fetched " + rows + " rows, expected " + expected);
        }
        return ms;
    }

    /** Every value read from each batch, as an Arrow client reads them. */
    private static long viaFlight(FlightSqlClient flight, String sql) throws Exception {
        FlightInfo info = flight.execute(sql);
        long rows = 0;
        long check = 0;
        try (FlightStream stream = flight.getStream(info.getEndpoints().get(0).getTicket())) {
            while (stream.next()) {
                VectorSchemaRoot root = stream.getRoot();
                BigIntVector k = (BigIntVector) root.getVector(0);
                Float8Vector d = (Float8Vector) root.getVector(1);
                VarCharVector s = (VarCharVector) root.getVector(2);
                int n = root.getRowCount();
                for (int i = 0; i < n; i++) {
                    check += k.get(i) + (long) d.get(i) + s.getEndOffset(i) - s.getStartOffset(i);
                }
                rows += n;
            }
        }
        if (check == 42) {
            BenchSql.log("unlikely checksum");
        }
        return rows;
    }

    /** Every value read with its getter, as a JDBC client reads them. */
    private static long viaAvatica(String url, String sql) throws Exception {
        long rows = 0;
        long check = 0;
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.setFetchSize(10_000);
            try (ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    check += rs.getLong(1) + (long) rs.getDouble(2) + rs.getString(3).length();
                    rows++;
                }
            }
        }
        if (check == 42) {
            BenchSql.log("unlikely checksum");
        }
        return rows;
    }
}
