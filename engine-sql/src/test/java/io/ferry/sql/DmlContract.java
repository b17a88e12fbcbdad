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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * DELETE, UPDATE, ALTER TABLE and key constraints, each statement run on Ferry and on DuckDB with the table compared
 * after it, update counts included; failing statements must change nothing. Subclasses say where Ferry runs (one
 * JVM, or a coordinator with workers, where a table's blocks live on the workers).
 */
public abstract class DmlContract {
    private Connection ferry;
    private Connection duck;

    /** A connection to a Ferry with no table named t, u, k or v. */
    protected abstract Connection connectFerry() throws SQLException;

    @BeforeEach
    void start() throws SQLException {
        ferry = connectFerry();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        both("CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR, qty INTEGER, price DECIMAL(10,2), d DATE)");
        StringBuilder values = new StringBuilder();
        for (int i = 1; i <= 1200; i++) {
            values.append(i == 1 ? "" : ", ").append('(').append(i).append(", ")
                    .append(i % 7 == 0 ? "NULL" : "'n" + (i % 13) + "'").append(", ")
                    .append(i % 11 == 0 ? "NULL" : String.valueOf(i % 50 - 10)).append(", ")
                    .append(i % 100).append('.').append(i % 10).append("5, DATE '2020-01-01' + INTERVAL '")
                    .append(i % 400).append("' DAY)");
        }
        both("INSERT INTO t VALUES " + values);
        both("CREATE TABLE u (id INTEGER, factor INTEGER)");
        both("INSERT INTO u VALUES (3, 2), (5, 3), (7, NULL), (1200, 4), (9999, 5)");
    }

    @AfterEach
    void stop() throws SQLException {
        try (Statement s = ferry.createStatement()) {
            for (String drop : List.of("DROP VIEW IF EXISTS v", "DROP TABLE IF EXISTS t", "DROP TABLE IF EXISTS t2",
                    "DROP TABLE IF EXISTS u", "DROP TABLE IF EXISTS k")) {
                s.execute(drop);
            }
        }
        ferry.close();
        duck.close();
    }

    /** Runs {@code sql} on both; their update counts must agree (DDL has none in DuckDB, 0 in Ferry). */
    private void both(String sql) throws SQLException {
        int expected = count(duck, sql);
        int actual = count(ferry, sql);
        if (expected >= 0) {
            assertEquals(expected, actual, "update count of " + sql);
        }
    }

    private static int count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
            return s.getUpdateCount();
        }
    }

    /** Runs {@code sql} on both, then compares table {@code table}. */
    private void change(String sql, String table) throws SQLException {
        both(sql);
        same("SELECT * FROM " + table);
    }

    private void same(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    /** {@code sql} fails on Ferry with {@code sqlState}, and table t stays as DuckDB has it. */
    private SQLException refused(String sql, String sqlState) throws SQLException {
        SQLException e = assertThrows(SQLException.class, () -> count(ferry, sql), sql);
        assertEquals(sqlState, e.getSQLState(), e.getMessage());
        assertFalse(e.getMessage().matches("(?s).*\\b(java|org|io)\\.[a-z]+\\.[A-Za-z.]+.*"), e.getMessage());
        same("SELECT * FROM t");
        return e;
    }

    @Test
    void deleteKeepsExactlyTheRowsItsConditionIsNotTrueFor() throws SQLException {
        change("DELETE FROM t WHERE qty > 30", "t");
        change("DELETE FROM t WHERE qty IS NULL AND name LIKE 'n1%'", "t");
        change("DELETE FROM t WHERE id IN (SELECT id FROM u WHERE factor IS NOT NULL)", "t");
        change("DELETE FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.id = t.id + 1)", "t");
        change("DELETE FROM t WHERE price > (SELECT AVG(price) * 1.5 FROM t)", "t");
        change("DELETE FROM t WHERE 1 = 0", "t");
        change("DELETE FROM t AS x WHERE x.d < DATE '2020-02-01'", "t");
        change("DELETE FROM t", "t");
        change("INSERT INTO t VALUES (1, 'again', 1, 1.00, DATE '2021-01-01')", "t");
    }

    /**
     * Literal rows the validator casts to their columns' types ({@code 12.5} into a DOUBLE, {@code 1.005} into a
     * DECIMAL(10, 2)) are folded into one VALUES (FerrySqlToRelConverter.convertValues), not planned as a UNION of
     * one-row projections: the values stored are DuckDB's, and so are those of a list that takes the slow way (a
     * NULL, an expression).
     */
    @Test
    void castLiteralRowsStoreTheValuesTheirCastsMake() throws SQLException {
        both("CREATE TABLE k (a DOUBLE, b DECIMAL(10, 2), c BIGINT, e DECIMAL(18, 6), s VARCHAR)");
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            rows.append(i == 0 ? "" : ", ").append('(').append(i).append(".5, ").append(i % 17).append(".005, ")
                    .append(i * 1000003).append(", -").append(i).append(".1234565, 'r").append(i).append("')");
        }
        String insert = "INSERT INTO k VALUES " + rows;
        try (Statement s = ferry.createStatement(); ResultSet plan = s.executeQuery("EXPLAIN PLAN FOR " + insert)) {
            StringBuilder text = new StringBuilder();
            while (plan.next()) {
                text.append(plan.getString(1)).append('\n');
            }
            assertFalse(text.toString().contains("Union"), text.toString());
        }
        change(insert, "k");
        change("INSERT INTO k VALUES (0.1, 0.1, 1, 0.1, 'x'), (1e-3, 2, 3.0, 1e-7, NULL)", "k");
        change("INSERT INTO k VALUES (2.25, 1 + 0.25, 7, 0, 'y'), (3, 4, 5, 6.0000005, 'z')", "k");
        same("SELECT SUM(a), SUM(b), SUM(c), SUM(e) FROM k");
    }

    @Test
    void updateSetsValuesOnlyWhereItsConditionIsTrue() throws SQLException {
        change("UPDATE t SET qty = qty * 2, name = UPPER(name) WHERE qty > 20", "t");
        change("UPDATE t SET price = price * 1.075 WHERE id % 3 = 0", "t");
        change("UPDATE t SET name = NULL, d = d + INTERVAL '1' MONTH WHERE name = 'n5'", "t");
        // qty IS NULL on some rows: the condition is unknown there, and those rows stay
        change("UPDATE t SET qty = qty + 1000 WHERE qty < 0", "t");
        // only the selected rows compute the new value: no division by zero elsewhere
        change("UPDATE t SET qty = CAST(FLOOR(1000.0 / qty) AS INTEGER) WHERE qty <> 0", "t");
        change("UPDATE t SET qty = (SELECT factor FROM u WHERE u.id = t.id) WHERE id IN (SELECT id FROM u)", "t");
        change("UPDATE t SET name = CASE WHEN qty IS NULL THEN 'none' ELSE name || '!' END", "t");
        change("UPDATE t SET id = id + 10000", "t");
        change("UPDATE t SET qty = 5 WHERE 1 = 0", "t");
    }

    @Test
    void preparedStatementsBindTheirParametersEachRun() throws SQLException {
        try (PreparedStatement f = ferry.prepareStatement("UPDATE t SET qty = ? WHERE id BETWEEN ? AND ?");
                PreparedStatement d = duck.prepareStatement("UPDATE t SET qty = ? WHERE id BETWEEN ? AND ?")) {
            for (int run = 0; run < 3; run++) {
                for (PreparedStatement p : List.of(f, d)) {
                    p.setInt(1, 100 + run);
                    p.setInt(2, run * 10);
                    p.setInt(3, run * 10 + 4);
                }
                assertEquals(d.executeUpdate(), f.executeUpdate());
            }
        }
        try (PreparedStatement f = ferry.prepareStatement("DELETE FROM t WHERE name = ?");
                PreparedStatement d = duck.prepareStatement("DELETE FROM t WHERE name = ?")) {
            for (String name : List.of("n1", "n2", "nothing")) {
                f.setString(1, name);
                d.setString(1, name);
                assertEquals(d.executeUpdate(), f.executeUpdate());
            }
        }
        same("SELECT * FROM t");
    }

    @Test
    void aFailingStatementChangesNothing() throws SQLException {
        refused("UPDATE t SET qty = qty * 1000000000 WHERE qty > 0", "22003");
        refused("UPDATE t SET qty = 10 / (qty - 5)", "22012");
        refused("UPDATE t SET price = 123456789.5 WHERE id = 5", "22003");
        refused("UPDATE t SET id = NULL WHERE id = 5", "23502");
        refused("UPDATE t SET nope = 1", "42703");
        refused("UPDATE nope SET a = 1", "42P01");
        refused("DELETE FROM nope", "42P01");
        refused("DELETE FROM t WHERE nope = 1", "42703");
        refused("DELETE FROM t WHERE name", "42804");
    }

    @Test
    void keysAreEnforcedByEveryWrite() throws SQLException {
        SQLException dup = refused("INSERT INTO t VALUES (3001, 'a', 1, 1.00, NULL), (5, 'b', 1, 1.00, NULL)", "23505");
        assertTrue(dup.getMessage().contains("(id)=(5)"), dup.getMessage());
        refused("INSERT INTO t VALUES (3001, 'a', 1, 1.00, NULL), (3001, 'b', 1, 1.00, NULL)", "23505");
        refused("INSERT INTO t VALUES (NULL, 'a', 1, 1.00, NULL)", "23502");
        refused("UPDATE t SET id = 7 WHERE id = 8", "23505");
        refused("UPDATE t SET id = id % 100", "23505");
        refused("INSERT INTO t SELECT id, name, qty, price, d FROM t WHERE id < 3", "23505");
        // Keys are checked once the statement is done, as the SQL standard says, not row by row as in DuckDB
        count(ferry, "UPDATE t SET id = 1201 - id");
        count(duck, "UPDATE t SET id = -id");
        count(duck, "UPDATE t SET id = 1201 + id");
        same("SELECT * FROM t");
        change("INSERT INTO t SELECT id + 5000, name, qty, price, d FROM t WHERE id < 30", "t");

        both("CREATE TABLE k (a INTEGER, b VARCHAR, c DOUBLE UNIQUE, PRIMARY KEY (a, b))");
        change("INSERT INTO k VALUES (1, 'x', NULL), (1, 'y', NULL), (2, 'x', 0.5)", "k");
        SQLException composite = assertThrows(SQLException.class, () -> count(ferry,
                "INSERT INTO k VALUES (2, 'x', 7.0)"));
        assertEquals("23505", composite.getSQLState());
        assertTrue(composite.getMessage().contains("(a, b)=(2, x)"), composite.getMessage());
        SQLException zero = assertThrows(SQLException.class, () -> count(ferry,
                "INSERT INTO k VALUES (3, 'x', 0.0), (4, 'x', -0.0)"));
        assertEquals("23505", zero.getSQLState(), "-0.0 and 0.0 are one value");
        change("DELETE FROM k WHERE a = 2", "k");
        change("INSERT INTO k VALUES (2, 'x', 0.5)", "k");
    }

    @Test
    void alterTableChangesColumnsAndNames() throws SQLException {
        change("ALTER TABLE t ADD COLUMN note VARCHAR", "t");
        change("UPDATE t SET note = name || '/' || CAST(qty AS VARCHAR) WHERE id % 2 = 0", "t");
        change("ALTER TABLE t DROP COLUMN qty", "t");
        change("ALTER TABLE t RENAME COLUMN price TO cost", "t");
        same("SELECT id, cost FROM t WHERE cost > 50");
        change("ALTER TABLE t RENAME TO t2", "t2");
        refused2("SELECT * FROM t", "42P01");
        change("INSERT INTO t2 VALUES (4000, 'z', 1.50, NULL, 'note')", "t2");
        SQLException dup = assertThrows(SQLException.class, () -> count(ferry,
                "INSERT INTO t2 VALUES (4000, 'z', 1.50, NULL, 'note')"));
        assertEquals("23505", dup.getSQLState(), "the key stays with the renamed table");
        change("ALTER TABLE t2 RENAME TO t", "t");

        assertEquals("42701", refused2("ALTER TABLE t ADD COLUMN name INTEGER", "42701").getSQLState());
        refused2("ALTER TABLE t DROP COLUMN nope", "42703");
        refused2("ALTER TABLE t ADD COLUMN must INTEGER NOT NULL", "23502");
        refused2("ALTER TABLE nope ADD COLUMN x INTEGER", "42P01");
        refused2("ALTER TABLE t RENAME TO u", "42P07");
        count(ferry, "ALTER TABLE IF EXISTS nope ADD COLUMN x INTEGER");
        count(ferry, "ALTER TABLE t DROP COLUMN IF EXISTS nope");
        same("SELECT * FROM t");

        both("CREATE VIEW v AS SELECT id, name FROM t WHERE id < 100");
        SQLException dependent = refused2("ALTER TABLE t DROP COLUMN name", "2BP01");
        assertTrue(dependent.getMessage().contains("v"), dependent.getMessage());
        same("SELECT * FROM v");
        count(ferry, "ALTER TABLE t DROP COLUMN name CASCADE");
        refused2("SELECT * FROM v", "42P01");
    }

    /** {@code sql} fails on Ferry with {@code sqlState}. */
    private SQLException refused2(String sql, String sqlState) throws SQLException {
        SQLException e = assertThrows(SQLException.class, () -> count(ferry, sql), sql);
        assertEquals(sqlState, e.getSQLState(), e.getMessage());
        return e;
    }

    /**
     * Readers never see half a statement: while UPDATEs move value between rows of a table whose total is fixed, and
     * INSERTs and DELETEs add and remove pairs of rows that cancel out, every read sums to the same total.
     */
    @Test
    void concurrentReadersSeeEachStatementWholeAndNoWriteIsLost() throws Exception {
        try (Statement s = ferry.createStatement()) {
            s.execute("CREATE TABLE k (id INTEGER PRIMARY KEY, v BIGINT)");
            s.execute("INSERT INTO k SELECT id, 10 FROM t");
        }
        long total = 12_000;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Set<Long> sums = ConcurrentHashMap.newKeySet();
        List<Thread> threads = new ArrayList<>();
        threads.add(new Thread(() -> run(failure, c -> {
            for (int i = 0; i < 8; i++) {
                count(c, "UPDATE k SET v = CASE WHEN id % 2 = 0 THEN v + " + i + " ELSE v - " + i + " END");
            }
        })));
        threads.add(new Thread(() -> run(failure, c -> {
            for (int i = 0; i < 9; i++) {
                count(c, "INSERT INTO k VALUES (" + (10_000 + 2 * i) + ", 7), (" + (10_001 + 2 * i) + ", -7)");
                if (i % 3 == 2) {
                    count(c, "DELETE FROM k WHERE id IN (" + (10_000 + 2 * i) + ", " + (10_001 + 2 * i) + ")");
                }
            }
        })));
        threads.add(new Thread(() -> run(failure, c -> {
            for (int i = 0; i < 25; i++) {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT SUM(v) FROM k")) {
                    rs.next();
                    sums.add(rs.getLong(1));
                }
            }
        })));
        threads.forEach(Thread::start);
        for (Thread th : threads) {
            th.join(120_000);
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertEquals(Set.of(total), sums, "every read saw whole statements");
        try (Statement s = ferry.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(v) FROM k WHERE id >= 10000")) {
            rs.next();
            assertEquals(12, rs.getLong(1), "9 pairs inserted, 3 deleted");
            assertEquals(0, rs.getLong(2));
        }
    }

    private interface Work {
        void run(Connection c) throws Exception;
    }

    private void run(AtomicReference<Throwable> failure, Work work) {
        try (Connection c = connectFerry()) {
            work.run(c);
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }
}
