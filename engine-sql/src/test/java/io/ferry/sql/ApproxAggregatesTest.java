package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableAppender;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;

/**
 * APPROX_COUNT, APPROX_SUM and APPROX_AVG with their bounds through SQL: exact without a sample, scaled by the rate
 * with one, intervals that cover the true value at about their stated 95% over many seeds — for rows (BERNOULLI) and
 * for blocks (SYSTEM) as units, on a column spread evenly over the blocks and on one ordered by them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApproxAggregatesTest {
    private static final int ROWS = 200_000;
    private FerryEngine engine;
    private Connection conn;

    @BeforeAll
    void load() throws Exception {
        // 8 KiB blocks: a few hundred of them, so that SYSTEM samples hold dozens of blocks
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withBlockSize(8192));
        conn = engine.connect();
        // k ascends with the load order (blocks hold narrow ranges of it); x and d are spread evenly over the blocks;
        // n is NULL on every 7th row
        Table t = engine.catalog().create("t", TableSchema.of(new Column("k", FerryType.BIGINT, false),
                new Column("g", FerryType.BIGINT, false), new Column("x", FerryType.DOUBLE, false),
                new Column("d", FerryType.decimal(10, 2), false), new Column("n", FerryType.BIGINT, true)), false);
        try (TableAppender app = t.appender()) {
            for (int from = 0; from < ROWS; from += 4096) {
                int rows = Math.min(4096, ROWS - from);
                long[] k = new long[rows];
                long[] g = new long[rows];
                double[] x = new double[rows];
                long[] d = new long[rows];
                long[] n = new long[rows];
                boolean[] nNull = new boolean[rows];
                for (int i = 0; i < rows; i++) {
                    int row = from + i;
                    long h = (row * 0x9E3779B97F4A7C15L) >>> 40;
                    k[i] = row;
                    g[i] = row % 5;
                    x[i] = h % 1000;
                    d[i] = h % 10000; // cents
                    n[i] = row % 11;
                    nNull[i] = row % 7 == 0;
                }
                app.append(Batch.of(new LongVector(k, null), new LongVector(g, null), new DoubleVector(x, null, rows),
                        new LongVector(d, null), new LongVector(n, nNull)));
            }
            app.commit();
        }
    }

    @AfterAll
    void close() throws Exception {
        conn.close();
        engine.close();
    }

    private double[] row(String sql) throws SQLException {
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            double[] out = new double[rs.getMetaData().getColumnCount()];
            for (int i = 0; i < out.length; i++) {
                out[i] = rs.getDouble(i + 1);
                if (rs.wasNull()) {
                    out[i] = Double.NaN;
                }
            }
            return out;
        }
    }

    @Test
    void withoutASampleTheEstimatesAreExact() throws Exception {
        double[] exact = row("SELECT COUNT(*), SUM(x), AVG(x), COUNT(n), SUM(d) FROM t");
        double[] approx = row("SELECT APPROX_COUNT(*), APPROX_COUNT_LOWER(*), APPROX_COUNT_UPPER(*), APPROX_SUM(x), "
                + "APPROX_SUM_LOWER(x), APPROX_SUM_UPPER(x), APPROX_AVG(x), APPROX_AVG_LOWER(x), APPROX_AVG_UPPER(x), "
                + "approx_count(n), approx_sum(d) FROM t");
        assertEquals(exact[0], approx[0], 0);
        assertEquals(exact[0], approx[1], 0);
        assertEquals(exact[0], approx[2], 0);
        assertEquals(exact[1], approx[3], 1e-9 * exact[1]);
        assertEquals(approx[3], approx[4], 0);
        assertEquals(approx[3], approx[5], 0);
        assertEquals(exact[2], approx[6], 1e-9);
        assertEquals(approx[6], approx[7], 0);
        assertEquals(approx[6], approx[8], 0);
        assertEquals(exact[3], approx[9], 0);
        assertEquals(exact[4], approx[10], 1e-6);
    }

    /**
     * An estimate with FILTER is the estimate of the argument where the filter holds and NULL elsewhere, bounds and
     * all, on the same sample (BERNOULLI and SYSTEM, grouped and not); without a sample it is the exact aggregate
     * with the same FILTER. In Ferry's aggregate, not the row engine.
     */
    @Test
    void aFilterEstimatesWhereItHolds() throws Exception {
        String[] calls = {"APPROX_COUNT(*)", "APPROX_COUNT_UPPER(*)", "APPROX_SUM(x)", "APPROX_SUM_LOWER(x)",
            "APPROX_AVG(d)", "APPROX_AVG_UPPER(d)", "APPROX_COUNT(n)"};
        for (String sample : List.of("TABLESAMPLE BERNOULLI(10) REPEATABLE(3)", "TABLESAMPLE SYSTEM(20) REPEATABLE(5)",
                "WHERE g < 4")) {
            List<String> filtered = new ArrayList<>();
            List<String> masked = new ArrayList<>();
            for (String call : calls) {
                String arg = call.substring(call.indexOf('(') + 1, call.length() - 1);
                filtered.add(call + " FILTER (WHERE k % 3 = 0 AND x > 100)");
                masked.add(call.replace("(" + arg + ")", "(CASE WHEN k % 3 = 0 AND x > 100 THEN "
                        + (arg.equals("*") ? "1" : arg) + " END)"));
            }
            for (String groupBy : List.of("", " GROUP BY g")) {
                String sql = "SELECT " + String.join(", ", filtered) + ", " + String.join(", ", masked)
                        + ", APPROX_SUM(x) FROM t " + sample + groupBy;
                try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                    int rows = 0;
                    while (rs.next()) {
                        rows++;
                        for (int i = 1; i <= calls.length; i++) {
                            assertEquals(rs.getDouble(calls.length + i), rs.getDouble(i),
                                    1e-9 * Math.abs(rs.getDouble(i)), sql + ": " + calls[i - 1]);
                        }
                        // the unfiltered call beside them sees every row
                        assertTrue(rs.getDouble(2 * calls.length + 1) > rs.getDouble(3), sql);
                    }
                    assertTrue(rows > 0, sql);
                }
                String plan = ResultComparison.plan(conn, sql);
                assertFalse(plan.contains("EnumerableAggregate"), plan);
            }
        }
        double[] exact = row("SELECT COUNT(*) FILTER (WHERE g = 2), SUM(x) FILTER (WHERE g = 2), AVG(d) FILTER "
                + "(WHERE n > 3) FROM t");
        double[] approx = row("SELECT APPROX_COUNT(*) FILTER (WHERE g = 2), APPROX_SUM(x) FILTER (WHERE g = 2), "
                + "APPROX_AVG(d) FILTER (WHERE n > 3) FROM t");
        assertEquals(exact[0], approx[0], 0);
        assertEquals(exact[1], approx[1], 1e-9 * exact[1]);
        assertEquals(exact[2], approx[2], 1e-9 * exact[2]);
    }

    @Test
    void theEstimatesAreDoubleColumns() throws Exception {
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT g, APPROX_SUM(x) AS total, APPROX_SUM_LOWER(x) AS low FROM t TABLESAMPLE SYSTEM(10) "
                        + "REPEATABLE(1) GROUP BY g")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(Types.DOUBLE, md.getColumnType(2));
            assertEquals("TOTAL", md.getColumnLabel(2).toUpperCase());
            assertEquals(ResultSetMetaData.columnNullable, md.isNullable(3));
        }
    }

    @Test
    void theCountScalesTheSampleByItsRate() throws Exception {
        double[] r = row("SELECT APPROX_COUNT(*), COUNT(*), APPROX_SUM(x), SUM(x) FROM t TABLESAMPLE BERNOULLI(10) "
                + "REPEATABLE(7)");
        assertEquals(r[1] * 10, r[0], 1e-6);
        assertEquals(r[3] * 10, r[2], 1e-6 * r[2]);
    }

    @Test
    void aZeroSampleIsAnEmptyTable() throws Exception {
        // Calcite plans TABLESAMPLE ...(0) as an empty input: the estimates of no rows, as COUNT, SUM and AVG give
        double[] r = row("SELECT APPROX_COUNT(*), APPROX_COUNT_UPPER(*), APPROX_SUM(x), APPROX_AVG_UPPER(x) FROM t "
                + "TABLESAMPLE SYSTEM(0)");
        assertEquals(0, r[0], 0);
        assertEquals(0, r[1], 0);
        assertTrue(Double.isNaN(r[2]) && Double.isNaN(r[3]), java.util.Arrays.toString(r));
    }

    @Test
    void intervalsCoverTheTruthAtAboutTheirRate() throws Exception {
        double[] truth = row("SELECT COUNT(*), SUM(x), AVG(x), SUM(k) FROM t");
        for (String method : new String[] {"BERNOULLI(2)", "SYSTEM(20)"}) {
            int seeds = 200;
            int[] covered = new int[4];
            for (int seed = 1; seed <= seeds; seed++) {
                double[] r = row("SELECT APPROX_COUNT_LOWER(*), APPROX_COUNT_UPPER(*), APPROX_SUM_LOWER(x), "
                        + "APPROX_SUM_UPPER(x), APPROX_AVG_LOWER(x), APPROX_AVG_UPPER(x), APPROX_SUM_LOWER(k), "
                        + "APPROX_SUM_UPPER(k) FROM t TABLESAMPLE " + method + " REPEATABLE(" + seed + ")");
                for (int q = 0; q < 4; q++) {
                    covered[q] += r[2 * q] <= truth[q] && truth[q] <= r[2 * q + 1] ? 1 : 0;
                }
            }
            for (int q = 0; q < 4; q++) {
                // 95% of 200: binomial sd 3.1, so 178..199 holds with near certainty for a correct interval
                assertTrue(covered[q] >= 178 && covered[q] <= 199, method + " estimate " + q + " covered "
                        + covered[q] + " of " + seeds);
            }
        }
    }

    @Test
    void estimatesNeedTheirSampleOnTheStreamedTable() throws Exception {
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE dim (g INTEGER, name VARCHAR)");
            s.execute("INSERT INTO dim VALUES (0, 'a'), (1, 'b'), (2, 'c'), (3, 'd'), (4, 'e')");
            SQLException e = assertThrows(SQLException.class, () -> row("SELECT APPROX_SUM(x) FROM t "
                    + "TABLESAMPLE BERNOULLI(10) JOIN dim TABLESAMPLE BERNOULLI(50) ON t.g = dim.g"));
            assertEquals("0A000", SqlErrors.translate(e).sqlState(), e.getMessage());
            assertTrue(e.getMessage().contains("one sampled table"), e.getMessage());
            double[] r = row("SELECT APPROX_COUNT(*), COUNT(*) FROM t TABLESAMPLE BERNOULLI(10) REPEATABLE(4) "
                    + "JOIN dim ON t.g = dim.g WHERE dim.name <> 'a'");
            assertEquals(r[1] * 10, r[0], 1e-6);
        } finally {
            try (Statement s = conn.createStatement()) {
                s.execute("DROP TABLE IF EXISTS dim");
            }
        }
    }
}
