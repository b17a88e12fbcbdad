package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Views, TRUNCATE, IF [NOT] EXISTS and type aliases, with results checked against DuckDB running the same DDL. */
class DdlTest {
    private FerryEngine engine;
    private Connection ferry;
    private Connection duck;

    @BeforeEach
    void start() throws SQLException {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2));
        ferry = engine.connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        both("CREATE TABLE t (a INTEGER, b VARCHAR, c DOUBLE)");
        both("INSERT INTO t VALUES (1, 'x', 0.5), (2, 'y', NULL), (3, NULL, 2.5), (4, 'x', 1.0)");
    }

    @AfterEach
    void stop() throws SQLException {
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

    private void same(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    /**
     * CREATE TABLE AS stores the engine's batches as they come, every type and NULL kept, across many batches; a
     * query whose top runs in Calcite's row engine (ORDER BY with OFFSET over a VALUES) is stored row by row.
     */
    @Test
    void createTableAsStoresEveryTypeAndNullAcrossBatches() throws SQLException {
        both("CREATE TABLE wide (i INTEGER, g BIGINT, d DECIMAL(12, 2), w DECIMAL(30, 4), f DOUBLE, s VARCHAR, "
                + "dt DATE, ts TIMESTAMP, ok BOOLEAN)");
        StringBuilder values = new StringBuilder();
        for (int r = 0; r < 300; r++) {
            values.append(r == 0 ? "" : ", ").append(r % 11 == 3 ? "(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
                    + "NULL)" : "(" + r + ", " + (r * 7919L - 900_000) + ", " + r + ".25, 12345678901234567890." + r
                    % 10 + ", " + r + ".5, 'ü" + r + "', DATE '1999-12-31', TIMESTAMP '2020-02-29 12:00:00', "
                    + (r % 2 == 0) + ")");
        }
        both("INSERT INTO wide VALUES " + values);
        for (int k = 0; k < 5; k++) { // 9,600 rows: more than one batch
            both("INSERT INTO wide SELECT * FROM wide");
        }
        both("CREATE TABLE copy AS SELECT * FROM wide WHERE i IS NULL OR i % 3 <> 1");
        same("SELECT COUNT(*), COUNT(i), SUM(g), SUM(d), SUM(w), SUM(f), COUNT(DISTINCT s), MIN(dt), MAX(ts), "
                + "COUNT(ok) FROM copy");
        same("SELECT * FROM copy EXCEPT ALL SELECT * FROM wide WHERE i IS NULL OR i % 3 <> 1");
        both("CREATE TABLE sorted AS SELECT * FROM (VALUES (3, 'c'), (1, 'a'), (2, 'b')) AS v(k, name) ORDER BY k "
                + "OFFSET 1 ROWS");
        same("SELECT * FROM sorted");
    }

    @Test
    void viewsAreExpandedWhereTheyAreUsed() throws SQLException {
        both("CREATE VIEW v AS SELECT a, b, a * 2 AS doubled FROM t WHERE a > 1");
        both("CREATE VIEW counts (name, n) AS SELECT b, COUNT(*) FROM t GROUP BY b");
        same("SELECT * FROM v");
        same("SELECT v.b, counts.n FROM v JOIN counts ON v.b = counts.name");
        both("INSERT INTO t VALUES (5, 'z', 3.0)");
        same("SELECT * FROM v");
        same("SELECT * FROM counts");
        both("CREATE OR REPLACE VIEW v AS SELECT b FROM t");
        same("SELECT * FROM v");
        both("DROP VIEW v");
        both("DROP VIEW IF EXISTS v");
        SQLException gone = assertThrows(SQLException.class, () -> query("SELECT * FROM v"));
        assertEquals("42P01", gone.getSQLState(), gone.getMessage());
        assertTrue(gone.getMessage().contains("'v' does not exist"), gone.getMessage());
    }

    @Test
    void aViewIsCheckedWhenCreatedAndSharesTheTablesNames() throws SQLException {
        try (Statement s = ferry.createStatement()) {
            SQLException bad = assertThrows(SQLException.class, () -> s.execute("CREATE VIEW bad AS SELECT nope FROM t"));
            assertTrue(bad.getMessage().contains("nope"), bad.getMessage());
            assertThrows(SQLException.class, () -> s.execute("CREATE VIEW t AS SELECT 1"));
            s.execute("CREATE VIEW v AS SELECT a FROM t");
            assertThrows(SQLException.class, () -> s.execute("CREATE TABLE v (x INTEGER)"));
            assertThrows(SQLException.class, () -> s.execute("CREATE VIEW v AS SELECT 1"));
            SQLException dropTable = assertThrows(SQLException.class, () -> s.execute("DROP TABLE v"));
            assertTrue(dropTable.getMessage().contains("DROP VIEW"), dropTable.getMessage());
        }
        try (ResultSet rs = ferry.getMetaData().getTables(null, "ferry", "v", new String[] {"VIEW"})) {
            assertTrue(rs.next(), "the view is listed as a VIEW");
            assertEquals("v", rs.getString("TABLE_NAME"));
        }
    }

    @Test
    void truncateEmptiesTheTable() throws SQLException {
        both("CREATE VIEW v AS SELECT COUNT(*) AS n FROM t");
        both("TRUNCATE TABLE t");
        same("SELECT * FROM t");
        same("SELECT * FROM v");
        both("INSERT INTO t VALUES (9, 'q', 9.5)");
        same("SELECT * FROM t");
    }

    @Test
    void ifExistsAndIfNotExists() throws SQLException {
        both("CREATE TABLE IF NOT EXISTS t (z INTEGER)");
        same("SELECT * FROM t");
        both("DROP TABLE IF EXISTS nothing");
        try (Statement s = ferry.createStatement()) {
            s.execute("DROP TABLE IF EXISTS nothing CASCADE");
            s.execute("CREATE TABLE keyed (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, UNIQUE (name))");
        }
    }

    @Test
    void typeAliasesAreTheirStandardTypes() throws SQLException {
        both("CREATE TABLE aliases (a TEXT, c INT2, d INT4, e INT8, f FLOAT4, g FLOAT8, h BOOL, i NUMERIC(10, 2), "
                + "j DOUBLE PRECISION, k CHAR(3), l VARCHAR(5), m TINYINT, n SMALLINT, o REAL)");
        both("INSERT INTO aliases VALUES ('a', 1, 2, 3, 1.5, 2.5, TRUE, 3.14, 1e10, 'abc', 'hello', 1, 2, 3.5)");
        same("SELECT * FROM aliases");
        same("SELECT CAST(c AS text), CAST('5' AS int8) + 1, CAST(1.5 AS float8), CAST(d AS int2) FROM aliases");
        try (Statement s = ferry.createStatement()) {
            s.execute("CREATE TABLE s (x STRING)");
        }
    }

    private List<Object> query(String sql) throws SQLException {
        List<Object> out = new ArrayList<>();
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getObject(1));
            }
        }
        return out;
    }
}
