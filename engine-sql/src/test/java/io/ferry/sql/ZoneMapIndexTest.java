package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ferry.core.storage.Table;

/**
 * CREATE INDEX and DROP INDEX: every query answers as DuckDB does with and without the zone-map indexes, on columns
 * stored sorted (where whole blocks are skipped) and on random ones (where almost none are); the blocks a selective
 * query reads drop; EXPLAIN says so; INSERT, UPDATE and DELETE leave zone maps right for the blocks they publish;
 * mistakes carry their SQLSTATEs. Blocks of 8 KiB spread 12,000 rows over some 150 blocks.
 */
class ZoneMapIndexTest {
    private static final int ROWS = 12_000;
    private static final String[] INDEXED = {"k", "d", "p", "dt", "ts", "flag", "r", "n"};

    /** Queries whose filters the zone maps can use (and some they cannot), each checked against DuckDB. */
    private static final List<String> QUERIES = List.of(
            "SELECT id FROM z WHERE k = 5000",
            "SELECT id, k FROM z WHERE k < 300",
            "SELECT COUNT(*), SUM(k) FROM z WHERE k BETWEEN 4000 AND 4100",
            "SELECT id FROM z WHERE k IN (1, 7000, 11999, 123456)",
            "SELECT id FROM z WHERE k IN (3, 17, 301, 302, 303, 5000, 8000, 9000, 11000, 11999, NULL)",
            "SELECT id FROM z WHERE k >= 11990 OR k < 5",
            "SELECT id FROM z WHERE k > 5.5 AND k < 20.25",
            "SELECT id FROM z WHERE k < 100 AND r > 50",
            "SELECT id FROM z WHERE k = 3 OR r = 5",
            "SELECT id FROM z WHERE (k < 10 AND r < 50) OR (k > 11995 AND r > 20)",
            "SELECT id FROM z WHERE k IS NULL",
            "SELECT id FROM z WHERE k IS NOT NULL AND k > 11900",
            "SELECT id FROM z WHERE k IS NULL OR k = 42",
            "SELECT id FROM z WHERE k > 30 AND k < 10",
            "SELECT id FROM z WHERE d < -700",
            "SELECT id FROM z WHERE d = 0",
            "SELECT id FROM z WHERE d >= -0.25 AND d <= 0",
            "SELECT id FROM z WHERE d > 0 AND d < 0.3",
            "SELECT id FROM z WHERE d > 100 AND d < 101",
            "SELECT id FROM z WHERE d < 5 AND d > -5",
            "SELECT id FROM z WHERE p BETWEEN 1000.5 AND 1010.0005",
            "SELECT id FROM z WHERE p = 2.002",
            "SELECT id FROM z WHERE p > 11000",
            "SELECT id FROM z WHERE p < 7",
            "SELECT id FROM z WHERE dt BETWEEN DATE '1993-01-01' AND DATE '1993-01-31'",
            "SELECT id FROM z WHERE dt < TIMESTAMP '1992-01-05 12:00:00'",
            "SELECT id FROM z WHERE dt > TIMESTAMP '1995-04-13 00:00:01'",
            "SELECT id FROM z WHERE ts >= TIMESTAMP '2020-01-08 00:00:00' AND ts < TIMESTAMP '2020-01-08 01:00:00'",
            "SELECT id FROM z WHERE flag",
            "SELECT id FROM z WHERE flag = FALSE AND k > 10990",
            "SELECT id FROM z WHERE n IS NULL AND k > 2900",
            "SELECT id FROM z WHERE n IS NOT NULL AND k < 3010",
            "SELECT id FROM z WHERE r BETWEEN 10 AND 12",
            "SELECT id FROM z WHERE r IS NULL",
            "SELECT COUNT(*) FROM z WHERE k > 20000",
            "SELECT r, COUNT(*), SUM(k) FROM z WHERE k < 2000 GROUP BY r",
            "SELECT z.id, y.name FROM z JOIN y ON z.r = y.r WHERE z.k BETWEEN 100 AND 200",
            "SELECT id FROM z WHERE s = 'w3' AND k < 50");

    private FerryEngine engine;
    private Connection ferry;
    private Connection duck;

    @BeforeEach
    void load() throws SQLException {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withBlockSize(8192));
        ferry = engine.connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        both("CREATE TABLE z (id INTEGER NOT NULL, k BIGINT, d DOUBLE, p DECIMAL(12,3), dt DATE, ts TIMESTAMP, "
                + "flag BOOLEAN, r INTEGER, n INTEGER, s VARCHAR)");
        both("CREATE TABLE y (r INTEGER, name VARCHAR)");
        both("INSERT INTO y VALUES (1, 'one'), (11, 'eleven'), (50, 'fifty'), (NULL, 'none')");
        Random rnd = new Random(7);
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            int milli = i * 1001;
            rows.add("(" + i + ", " + (i >= 6000 && i < 6100 ? "NULL" : String.valueOf(i)) + ", "
                    + (i == 6001 ? "CAST('-0.0' AS DOUBLE)" : String.valueOf((i - 6000) / 8.0)) + ", "
                    + String.format("%d.%03d", milli / 1000, milli % 1000) + ", DATE '"
                    + LocalDate.of(1992, 1, 1).plusDays(i / 10) + "', TIMESTAMP '"
                    + LocalDateTime.of(2020, 1, 1, 0, 0).plusMinutes(i).toString().replace('T', ' ') + ":00', "
                    + (i >= 11000 ? "TRUE" : "FALSE") + ", "
                    + (rnd.nextInt(10) == 0 ? "NULL" : String.valueOf(rnd.nextInt(100))) + ", "
                    + (i < 3000 ? "NULL" : String.valueOf(i % 50)) + ", 'w" + (i % 17) + "')");
        }
        for (int from = 0; from < rows.size(); from += 1000) {
            both("INSERT INTO z VALUES " + String.join(", ", rows.subList(from, Math.min(rows.size(), from + 1000))));
        }
    }

    @AfterEach
    void close() throws SQLException {
        ferry.close();
        duck.close();
        engine.close();
    }

    private void both(String sql) throws SQLException {
        for (Connection c : List.of(ferry, duck)) {
            try (Statement s = c.createStatement()) {
                s.execute(sql);
            }
        }
    }

    private void ferry(String sql) throws SQLException {
        try (Statement s = ferry.createStatement()) {
            s.execute(sql);
        }
    }

    private void createIndexes() throws SQLException {
        for (String c : INDEXED) {
            ferry("CREATE INDEX z_" + c + " ON z (" + c + ")");
        }
    }

    private Table z() {
        return engine.catalog().require("z");
    }

    @Test
    void answersAreTheSameWithAndWithoutIndexes() throws SQLException {
        for (String q : QUERIES) {
            ResultComparison.assertSameResult(ferry, duck, q, false);
        }
        assertEquals(0, z().blocksSkipped(), "nothing is skipped without an index");
        createIndexes();
        for (String q : QUERIES) {
            ResultComparison.assertSameResult(ferry, duck, q, false);
        }
        assertTrue(z().blocksSkipped() > 0);
        for (String c : INDEXED) {
            ferry("DROP INDEX z_" + c);
        }
        long skipped = z().blocksSkipped();
        ResultComparison.assertSameResult(ferry, duck, QUERIES.get(0), false);
        assertEquals(skipped, z().blocksSkipped(), "DROP INDEX stops the skipping");
    }

    @Test
    void aSelectiveQueryOnASortedColumnReadsOnlyTheBlocksThatHoldItsRows() throws SQLException {
        int blocks = blockCount();
        assertTrue(blocks > 100, blocks + " blocks");
        assertEquals(blocks, readAndSkipped("SELECT id FROM z WHERE k = 5000")[0], "no index: every block read");
        ferry("CREATE INDEX z_k ON z (k)");
        long[] one = readAndSkipped("SELECT id FROM z WHERE k = 5000");
        assertEquals(1, one[0], "one block holds k = 5000");
        assertEquals(blocks - 1, one[1]);
        long[] range = readAndSkipped("SELECT COUNT(*) FROM z WHERE k BETWEEN 4000 AND 4100");
        assertTrue(range[0] >= 1 && range[0] <= 3, range[0] + " blocks read for 101 consecutive keys");
        long[] none = readAndSkipped("SELECT COUNT(*) FROM z WHERE k > 20000");
        assertEquals(0, none[0]);
        // A random column's blocks each span nearly all its values: only the few short blocks an INSERT ends with
        // can be skipped.
        ferry("CREATE INDEX z_r ON z (r)");
        long[] random = readAndSkipped("SELECT COUNT(*) FROM z WHERE r BETWEEN 10 AND 12");
        assertEquals(blocks, random[0] + random[1]);
        assertTrue(random[0] > blocks * 9 / 10, random[0] + " of " + blocks + " blocks read");
    }

    private int blockCount() {
        try (var data = z().snapshot()) {
            return data.blocks().size();
        }
    }

    /** Blocks of z the query read and skipped. */
    private long[] readAndSkipped(String sql) throws SQLException {
        long read = z().blocksRead();
        long skipped = z().blocksSkipped();
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rs.getObject(1);
            }
        }
        return new long[] {z().blocksRead() - read, z().blocksSkipped() - skipped};
    }

    @Test
    void explainNamesTheZoneMapsAndTheBlocksTheyLeave() throws SQLException {
        assertFalse(explain("SELECT id FROM z WHERE k = 5000").contains("zonemap"));
        ferry("CREATE INDEX z_k ON z (k)");
        ferry("CREATE INDEX z_dt ON z (dt)");
        String plan = explain("SELECT id FROM z WHERE k = 5000");
        assertTrue(plan.contains("zonemap=[k: reads 1 of " + blockCount() + " blocks]"), plan);
        String two = explain("SELECT id FROM z WHERE k < 6000 AND dt >= DATE '1994-01-01'");
        assertTrue(two.contains("zonemap=[k, dt: reads "), two);
        assertFalse(explain("SELECT id FROM z WHERE r = 5").contains("zonemap"));
    }

    private String explain(String sql) throws SQLException {
        StringBuilder out = new StringBuilder();
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            while (rs.next()) {
                out.append(rs.getString(1)).append('\n');
            }
        }
        return out.toString();
    }

    @Test
    void insertUpdateAndDeletePublishBlocksWithTheirOwnZoneMaps() throws SQLException {
        createIndexes();
        both("INSERT INTO z (id, k, d, p, dt, flag, r) VALUES (20000, 50000, -9999.5, 0.001, DATE '2030-01-01', "
                + "TRUE, 1000)");
        both("UPDATE z SET k = k + 100000, r = 500 WHERE k < 10");
        both("DELETE FROM z WHERE k BETWEEN 100 AND 200");
        for (String q : List.of("SELECT id, k FROM z WHERE k = 50000", "SELECT id, k FROM z WHERE k >= 100000",
                "SELECT id FROM z WHERE k < 10", "SELECT COUNT(*) FROM z WHERE k BETWEEN 90 AND 210",
                "SELECT id FROM z WHERE d < -9000", "SELECT id FROM z WHERE p < 0.01",
                "SELECT id FROM z WHERE dt > DATE '2029-12-31'", "SELECT id FROM z WHERE r >= 500",
                "SELECT id FROM z WHERE ts IS NULL", "SELECT id FROM z WHERE n IS NULL AND k > 49999")) {
            ResultComparison.assertSameResult(ferry, duck, q, false);
        }
        // The rewrite keeps the rows nearly in key order: a point query still reads a block or two.
        long[] point = readAndSkipped("SELECT id FROM z WHERE k = 50000");
        assertTrue(point[0] >= 1 && point[0] <= 3 && point[1] > 90, point[0] + " read, " + point[1] + " skipped");
        both("TRUNCATE TABLE z");
        ResultComparison.assertSameResult(ferry, duck, "SELECT COUNT(*) FROM z WHERE k = 5", false);
    }

    @Test
    void nanAndSignedZerosNeverHideARow() throws SQLException {
        ferry("CREATE TABLE f (x DOUBLE)");
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            values.add(i % 1000 == 7 ? "(CAST('NaN' AS DOUBLE))" : i == 1500 ? "(CAST('-0.0' AS DOUBLE))"
                    : i % 997 == 0 ? "(NULL)" : "(" + (i - 1500) / 4.0 + ")");
        }
        for (int from = 0; from < values.size(); from += 500) {
            ferry("INSERT INTO f VALUES " + String.join(", ", values.subList(from, from + 500)));
        }
        List<String> queries = List.of("SELECT x FROM f WHERE x = 0", "SELECT x FROM f WHERE x >= 0 AND x < 1",
                "SELECT x FROM f WHERE x <= 0 AND x > -1", "SELECT x FROM f WHERE x > 370",
                "SELECT x FROM f WHERE x < -370", "SELECT COUNT(*) FROM f WHERE x IS NULL",
                "SELECT COUNT(*) FROM f WHERE x IN (0.0, 2.5, 100.25)", "SELECT COUNT(*) FROM f WHERE x <> x");
        List<List<List<Object>>> before = new ArrayList<>();
        for (String q : queries) {
            before.add(ResultComparison.rows(ferry, q));
        }
        ferry("CREATE INDEX f_x ON f (x)");
        for (int i = 0; i < queries.size(); i++) {
            List<List<Object>> after = ResultComparison.rows(ferry, queries.get(i));
            assertEquals(sorted(before.get(i)), sorted(after), queries.get(i));
        }
        assertTrue(engine.catalog().require("f").blocksSkipped() > 0);
    }

    private static List<String> sorted(List<List<Object>> rows) {
        return rows.stream().map(String::valueOf).sorted().toList();
    }

    @Test
    void indexesAreListedAndFollowTheirTable() throws SQLException {
        ferry("CREATE INDEX z_k ON z (k)");
        ferry("CREATE INDEX IF NOT EXISTS z_k ON z (d)");
        ferry("CREATE INDEX z_p ON z (p)");
        ferry("CREATE INDEX z_n ON z (n)");
        assertEquals(List.of(List.of("z_k", "z", "k", "zonemap"), List.of("z_n", "z", "n", "zonemap"),
                List.of("z_p", "z", "p", "zonemap")), indexes());
        ferry("ALTER TABLE z RENAME COLUMN k TO key");
        ferry("ALTER TABLE z DROP COLUMN d");
        ferry("ALTER TABLE z RENAME TO zz");
        ferry("ALTER TABLE zz DROP COLUMN n");
        ferry("ALTER TABLE zz ADD COLUMN extra INTEGER");
        assertEquals(List.of(List.of("z_k", "zz", "key", "zonemap"), List.of("z_p", "zz", "p", "zonemap")),
                indexes());
        long skipped = engine.catalog().require("zz").blocksSkipped();
        ResultComparison.assertSameResult(ferry, "SELECT id, p FROM zz WHERE key = 77", duck,
                "SELECT id, p FROM z WHERE k = 77", false);
        assertTrue(engine.catalog().require("zz").blocksSkipped() > skipped, "the renamed column's index is used");
        ferry("DROP TABLE zz");
        assertEquals(List.of(), indexes());
        ferry("CREATE INDEX z_k ON y (r)");
        ferry("DROP INDEX z_k");
        ferry("DROP INDEX IF EXISTS z_k");
        assertEquals(List.of(), indexes());
    }

    private List<List<Object>> indexes() throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        for (List<Object> r : ResultComparison.rows(ferry, "SELECT index_name, table_name, column_name, index_type "
                + "FROM sys.indexes ORDER BY index_name")) {
            rows.add(r.stream().map(String::valueOf).map(Object.class::cast).toList());
        }
        return rows;
    }

    @Test
    void mistakesCarryTheirSqlStates() throws SQLException {
        ferry("CREATE INDEX z_k ON z (k)");
        assertState("42P01", "CREATE INDEX i ON nope (k)");
        assertState("42703", "CREATE INDEX i ON z (nope)");
        assertState("42P07", "CREATE INDEX z_k ON z (d)");
        assertState("42P07", "CREATE INDEX Z_K ON y (r)");
        assertState("42704", "DROP INDEX nope");
        assertState("0A000", "CREATE INDEX i ON z (k, d)");
        assertState("0A000", "CREATE INDEX i ON z (s)");
        assertState("42601", "CREATE OR REPLACE INDEX z_k ON z (k)");
        assertState("0A000", "CREATE INDEX i ON sys.tables (name)");
        ferry("DROP INDEX IF EXISTS nope");
        ferry("CREATE INDEX IF NOT EXISTS z_k ON z (k)");
        // INDEX stays usable as a name
        ferry("CREATE TABLE \"index\" (index INTEGER)");
        ferry("CREATE INDEX index ON index (index)");
        ferry("DROP INDEX index");
    }

    private void assertState(String state, String sql) {
        SQLException e = assertThrows(SQLException.class, () -> ferry(sql), sql);
        assertEquals(state, e.getSQLState(), sql + ": " + e.getMessage());
        assertFalse(e.getMessage().contains("Exception"), e.getMessage());
    }
}
