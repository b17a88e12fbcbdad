package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ferry.core.storage.Table;

/**
 * A hash join's build keys narrow its probe side's scan (io.ferry.core.exec.JoinKeyRanges): every join below answers
 * as DuckDB does — inner and semi joins, which are narrowed, and left, anti and NULL-matching joins, which must not
 * be — and a join with a dimension filtered to a few keys reads only the blocks of the fact table that hold them,
 * where the fact table is stored in key order. Blocks of 8 KiB spread f's 60,000 rows over some 300 blocks.
 */
class JoinKeyRangesTest {
    private static FerryEngine engine;
    private static Connection ferry;
    private static Connection duck;

    /**
     * f: dk rises with the row (1..600, 100 rows each, NULL in every 37th row), dd a DATE and p a DECIMAL rising
     * with it, r random; dim: dk 1..600 with a category, and keys outside f's (0, 601..650) and a NULL key.
     */
    private static final List<String> SETUP = List.of(
            "CREATE TABLE f (id INTEGER, dk INTEGER, dd DATE, p DECIMAL(9, 2), big BIGINT, r INTEGER)",
            "CREATE TABLE dim (dk INTEGER, cat INTEGER, dd DATE, p DECIMAL(9, 2), name VARCHAR)");

    private static final List<String> QUERIES = List.of(
            // inner joins with a dimension filtered to a narrow range of keys
            "SELECT COUNT(*), SUM(f.r) FROM f JOIN dim ON f.dk = dim.dk WHERE dim.dk BETWEEN 200 AND 210",
            "SELECT dim.name, COUNT(*) FROM f JOIN dim ON f.dk = dim.dk WHERE dim.cat = 3 AND dim.dk < 40 "
                    + "GROUP BY dim.name",
            "SELECT COUNT(*) FROM f JOIN dim ON f.dd = dim.dd WHERE dim.dk IN (5, 6, 7)",
            "SELECT COUNT(*), SUM(f.id) FROM f JOIN dim ON f.p = dim.p WHERE dim.dk BETWEEN 300 AND 302",
            "SELECT COUNT(*) FROM f JOIN dim ON f.big = dim.dk WHERE dim.dk BETWEEN 100 AND 120",
            "SELECT COUNT(*) FROM f JOIN dim ON f.dk = dim.dk AND f.r < dim.cat * 10 WHERE dim.dk < 30",
            "SELECT COUNT(*) FROM f JOIN dim ON f.dk = dim.dk WHERE dim.dk > 600",
            "SELECT COUNT(*) FROM f JOIN dim ON f.dk = dim.dk WHERE dim.name IS NULL",
            "SELECT COUNT(*) FROM f JOIN dim ON f.dk = dim.dk WHERE dim.dk = 0 OR dim.dk IS NULL",
            "SELECT COUNT(*) FROM f JOIN dim ON f.dk = dim.dk WHERE f.r > 50 AND dim.dk BETWEEN 10 AND 20",
            // through a projection, and a star of two dimensions
            "SELECT COUNT(*) FROM (SELECT dk AS key, r FROM f WHERE r < 90) x JOIN dim ON x.key = dim.dk "
                    + "WHERE dim.cat = 1 AND dim.dk BETWEEN 50 AND 80",
            "SELECT d1.cat, COUNT(*) FROM f JOIN dim d1 ON f.dk = d1.dk JOIN dim d2 ON f.dd = d2.dd "
                    + "WHERE d1.dk BETWEEN 100 AND 400 AND d2.dk BETWEEN 150 AND 160 GROUP BY d1.cat",
            "SELECT COUNT(*) FROM f JOIN dim ON f.dk + 1 = dim.dk WHERE dim.dk BETWEEN 10 AND 12",
            // dimensions filtered to keys spread over all of f's: the keys themselves tested at the scan
            "SELECT COUNT(*), SUM(f.r) FROM f JOIN dim ON f.dk = dim.dk WHERE dim.cat = 3",
            "SELECT dim.name, COUNT(*) FROM f JOIN dim ON f.dk = dim.dk WHERE MOD(dim.dk, 97) = 0 GROUP BY dim.name",
            "SELECT COUNT(*) FROM f JOIN dim ON f.dd = dim.dd WHERE MOD(dim.dk, 50) = 1",
            "SELECT COUNT(*), SUM(f.id) FROM f JOIN dim ON f.p = dim.p WHERE MOD(dim.dk, 60) = 7",
            "SELECT COUNT(*) FROM f JOIN dim ON f.big = dim.dk WHERE MOD(dim.dk, 45) = 2 OR dim.dk IS NULL",
            "SELECT COUNT(*) FROM f JOIN dim d1 ON f.dk = d1.dk JOIN dim d2 ON f.dd = d2.dd "
                    + "WHERE MOD(d1.dk, 7) = 0 AND MOD(d2.dk, 11) = 0",
            // IN lists of constants, which the scan tests the same way
            "SELECT COUNT(*) FROM f WHERE dk IN (3, 5, 600, -1, 77)",
            "SELECT COUNT(*) FROM f WHERE r IN (1, 2, NULL)",
            "SELECT COUNT(*) FROM f WHERE big IN (1, 9223372036854775807, -9223372036854775808, 300)",
            "SELECT COUNT(*) FROM f WHERE dd IN (DATE '2000-01-05', DATE '2000-03-01', DATE '1999-01-01')",
            "SELECT COUNT(*) FROM f WHERE dk NOT IN (3, 5, 600) AND r IN (4, 8, 15, 16, 23, 42)",
            // semi joins
            "SELECT COUNT(*) FROM f WHERE dk IN (SELECT dk FROM dim WHERE cat = 2 AND dk < 100)",
            "SELECT COUNT(*) FROM f WHERE EXISTS (SELECT 1 FROM dim WHERE dim.dk = f.dk AND dim.dk > 590)",
            // joins that keep the probe rows without a match: must not be narrowed
            "SELECT COUNT(*), COUNT(dim.name) FROM f LEFT JOIN dim ON f.dk = dim.dk AND dim.dk < 10",
            "SELECT COUNT(*) FROM f WHERE dk NOT IN (SELECT dk FROM dim WHERE dk BETWEEN 1 AND 590)",
            "SELECT COUNT(*) FROM f WHERE NOT EXISTS (SELECT 1 FROM dim WHERE dim.dk = f.dk AND dim.dk < 500)",
            "SELECT COUNT(*) FROM dim RIGHT JOIN f ON f.dk = dim.dk AND dim.dk < 10",
            "SELECT COUNT(*) FROM f FULL JOIN dim ON f.dk = dim.dk AND dim.dk BETWEEN 3 AND 4",
            "SELECT COUNT(*) FROM f JOIN dim ON f.dk IS NOT DISTINCT FROM dim.dk WHERE dim.dk < 5 OR dim.dk IS NULL");

    @BeforeAll
    static void load() throws SQLException {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withBlockSize(8192));
        ferry = engine.connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = duck.createStatement()) {
            s.execute("SET integer_division = true"); // INTEGER / INTEGER truncates, as in Ferry
        }
        for (String sql : SETUP) {
            both(sql);
        }
        both("INSERT INTO f SELECT i, CASE WHEN i % 37 = 0 THEN NULL ELSE i / 100 + 1 END, "
                + "CAST(DATE '2000-01-01' + CAST(i / 100 AS INTEGER) AS DATE), CAST(i / 100 AS DECIMAL(9, 2)) + 1, "
                + "i / 100 + 1, CAST((i * 7919) % 101 AS INTEGER) FROM generate_series(0, 59999) AS g(i)");
        both("INSERT INTO dim SELECT i, i % 5, CAST(DATE '1999-12-31' + CAST(i AS INTEGER) AS DATE), "
                + "CAST(i AS DECIMAL(9, 2)), 'n' || CAST(i % 7 AS VARCHAR) FROM generate_series(0, 650) AS g(i)");
        both("INSERT INTO dim VALUES (NULL, 9, NULL, NULL, NULL)");
    }

    @AfterAll
    static void close() throws SQLException {
        ferry.close();
        duck.close();
        engine.close();
    }

    private static void both(String sql) throws SQLException {
        for (Connection c : List.of(ferry, duck)) {
            try (Statement s = c.createStatement()) {
                s.execute(sql);
            }
        }
    }

    @Test
    void everyJoinAnswersAsDuckDbDoes() throws SQLException {
        for (String q : QUERIES) {
            ResultComparison.assertSameResult(ferry, duck, q, false);
        }
    }

    @Test
    void aNarrowDimensionReadsOnlyTheFactBlocksThatHoldItsKeys() throws SQLException {
        int blocks;
        try (var data = f().snapshot()) {
            blocks = data.blocks().size();
        }
        assertTrue(blocks > 50, blocks + " blocks");
        long[] narrow = readAndSkipped(
                "SELECT COUNT(*) FROM f JOIN dim ON f.dk = dim.dk WHERE dim.dk BETWEEN 200 AND 205");
        assertEquals(blocks, narrow[0] + narrow[1]);
        assertTrue(narrow[0] <= 5, narrow[0] + " of " + blocks + " blocks read for 600 consecutive rows");
        long[] dates = readAndSkipped("SELECT COUNT(*) FROM f JOIN dim ON f.dd = dim.dd WHERE dim.dk IN (5, 6, 7)");
        assertTrue(dates[0] <= 4, dates[0] + " of " + blocks + " blocks read by the DATE key");
        long[] none = readAndSkipped("SELECT COUNT(*) FROM f JOIN dim ON f.dk = dim.dk WHERE dim.dk > 600");
        assertEquals(0, none[0], "no build key within f's: no block read");
        // Keys over all of f's: nothing to skip. A left join and an anti join keep f's rows without a match.
        for (String q : List.of("SELECT COUNT(*) FROM f JOIN dim ON f.dk = dim.dk",
                "SELECT COUNT(*), COUNT(dim.name) FROM f LEFT JOIN dim ON f.dk = dim.dk AND dim.dk < 10",
                "SELECT COUNT(*) FROM f WHERE NOT EXISTS (SELECT 1 FROM dim WHERE dim.dk = f.dk AND dim.dk < 5)")) {
            assertEquals(0, readAndSkipped(q)[1], q);
        }
    }

    private static Table f() {
        return engine.catalog().require("f");
    }

    /** The blocks of f that {@code sql} read and skipped. */
    private static long[] readAndSkipped(String sql) throws SQLException {
        long read = f().blocksRead();
        long skipped = f().blocksSkipped();
        try (Statement s = ferry.createStatement()) {
            s.executeQuery(sql).close();
        }
        return new long[] {f().blocksRead() - read, f().blocksSkipped() - skipped};
    }
}
