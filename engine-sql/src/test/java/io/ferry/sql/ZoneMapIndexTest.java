package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ferry.core.storage.Table;

/**
 * CREATE INDEX and DROP INDEX: every query answers as DuckDB does with and without the zone-map indexes, on columns
 * stored sorted (where whole blocks are skipped) and on random ones (where almost none are); the blocks a selective
 * query reads drop; EXPLAIN says so; INSERT, UPDATE and DELETE leave zone maps right for the blocks they publish;
 * mistakes carry their SQLSTATEs. Blocks of 8 KiB spread 12,000 rows over some 110 blocks.
 */
class ZoneMapIndexTest {
    private FerryEngine engine;
    private Connection ferry;
    private Connection duck;

    @BeforeEach
    void load() throws SQLException {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withBlockSize(8192));
        ferry = engine.connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        ZoneMapData.load(ferry, duck);
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
        for (String c : ZoneMapData.INDEXED) {
            ferry("CREATE INDEX z_" + c + " ON z (" + c + ")");
        }
    }

    private Table z() {
        return engine.catalog().require("z");
    }

    @Test
    void answersAreTheSameWithAndWithoutIndexes() throws SQLException {
        for (String q : ZoneMapData.QUERIES) {
            ResultComparison.assertSameResult(ferry, duck, q, false);
        }
        assertEquals(0, z().blocksSkipped(), "nothing is skipped without an index");
        createIndexes();
        for (String q : ZoneMapData.QUERIES) {
            ResultComparison.assertSameResult(ferry, duck, q, false);
        }
        assertTrue(z().blocksSkipped() > 0);
        for (String c : ZoneMapData.INDEXED) {
            ferry("DROP INDEX z_" + c);
        }
        long skipped = z().blocksSkipped();
        ResultComparison.assertSameResult(ferry, duck, ZoneMapData.QUERIES.get(0), false);
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

    @Test
    void aPreparedStatementsValuesPickTheBlocksToo() throws SQLException {
        int blocks = blockCount();
        ferry("CREATE INDEX z_k ON z (k)");
        try (PreparedStatement ps = ferry.prepareStatement("SELECT COUNT(*), SUM(id) FROM z WHERE k BETWEEN ? AND ?")) {
            for (int[] range : new int[][] {{5000, 5000}, {4000, 4100}, {20001, 30000}, {0, 20000}}) {
                ps.setInt(1, range[0]);
                ps.setInt(2, range[1]);
                long read = z().blocksRead();
                long prepared;
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    prepared = rs.getLong(1);
                }
                long readPrepared = z().blocksRead() - read;
                String literal = "SELECT COUNT(*), SUM(id) FROM z WHERE k BETWEEN " + range[0] + " AND " + range[1];
                long[] byLiteral = readAndSkipped(literal);
                assertEquals(byLiteral[0], readPrepared, "the same blocks as with literals: " + literal);
                ResultComparison.assertSameResult(ferry, duck, literal, false);
                assertEquals(((Number) ResultComparison.rows(ferry, literal).get(0).get(0)).longValue(), prepared);
            }
        }
        assertTrue(readAndSkipped("SELECT COUNT(*) FROM z WHERE k BETWEEN 4000 AND 4100")[0] < blocks / 10);
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
