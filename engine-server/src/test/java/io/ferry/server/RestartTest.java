package io.ferry.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.core.durable.DataDirectory;
import io.ferry.server.data.ProgressListener;
import io.ferry.sql.EngineConfig;

/**
 * A local node with a data directory, driven over JDBC as a user would — DDL and DML of every kind, statements that
 * fail — then stopped and started again: every table, column, constraint, index and view answers exactly as before,
 * the demo data is not loaded twice, and the directory holds no file its manifest does not name.
 */
class RestartTest {
    private static final EngineConfig SMALL = EngineConfig.defaults().withThreads(2).withMemoryLimit(512L << 20)
            .withQueryMemoryLimit(128L << 20).withBlockSize(16 << 10).withPlannerWarmup(false);
    private static final LocalNode.Demo DEMO = new LocalNode.Demo(20_000, 100, 0.002);

    @TempDir
    Path dir;

    private LocalNode start() {
        return LocalNode.start(new LocalNode.Options(SMALL, "127.0.0.1", 0, DEMO, List.of(),
                ServerSecurity.DEFAULT, dir), ProgressListener.NONE);
    }

    @Test
    void everythingAUserMadeAnswersAsBeforeAfterARestart() throws Exception {
        Map<String, List<String>> before;
        long generation;
        try (LocalNode node = start(); Connection c = DriverManager.getConnection(node.server().ferryUrl());
                Statement s = c.createStatement()) {
            for (String sql : List.of(
                    "CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20), price DECIMAL(10, 2), wide DECIMAL(30, 3), "
                            + "d DATE, ts TIMESTAMP, ok BOOLEAN, x DOUBLE)",
                    "INSERT INTO t VALUES (1, 'a', 1.50, 12345678901234567890.125, DATE '2020-01-01', "
                            + "TIMESTAMP '2020-01-01 10:00:00', TRUE, 0.5)",
                    "INSERT INTO t VALUES (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
                    "INSERT INTO t SELECT lo_orderkey + 10, 'n' || CAST(lo_linenumber AS VARCHAR), lo_revenue / 100, "
                            + "lo_revenue * 1000, DATE '2021-01-01', NULL, lo_quantity > 20, lo_discount / 3.0 "
                            + "FROM lineorder WHERE lo_linenumber = 1",
                    "UPDATE t SET price = price * 2 WHERE id % 7 = 0",
                    "DELETE FROM t WHERE id % 5 = 0",
                    "CREATE TABLE small (k INT, v VARCHAR)",
                    "INSERT INTO small VALUES (1, 'one')", "INSERT INTO small VALUES (2, 'two')",
                    "INSERT INTO small VALUES (3, 'three')", "INSERT INTO small VALUES (4, 'four')",
                    "INSERT INTO small VALUES (5, 'five')",
                    "CREATE TABLE agg WITH (partition_by = 'k:4') AS SELECT lo_custkey AS k, SUM(lo_revenue) AS rev "
                            + "FROM lineorder GROUP BY lo_custkey",
                    "CREATE VIEW expensive AS SELECT id, name FROM t WHERE price > 100",
                    "CREATE INDEX t_d ON t (d)",
                    "ALTER TABLE small RENAME COLUMN v TO label",
                    "ALTER TABLE small ADD COLUMN extra INT",
                    "ALTER TABLE agg RENAME TO revenue_by_customer",
                    "CREATE TABLE emptied (a INT)", "INSERT INTO emptied VALUES (1)", "TRUNCATE TABLE emptied",
                    "CREATE TABLE dropped (a INT)", "INSERT INTO dropped VALUES (1)", "DROP TABLE dropped",
                    "DROP VIEW IF EXISTS nothing", "DELETE FROM r WHERE a % 2 = 0")) {
                s.execute(sql);
            }
            // statements that fail change nothing, here or on disk
            SQLException dup = assertThrows(SQLException.class, () -> s.execute("INSERT INTO t VALUES (1, 'again', "
                    + "NULL, NULL, NULL, NULL, NULL, NULL)"));
            assertEquals("23505", dup.getSQLState());
            assertThrows(SQLException.class, () -> s.execute("ALTER TABLE small RENAME TO t"));
            assertThrows(SQLException.class, () -> s.execute("CREATE TABLE broken AS SELECT 1 / 0 AS x FROM r"));
            before = snapshot(c);
            generation = node.engine().dataDirectory().manifest().generation();
            try (ResultSet rs = s.executeQuery("SELECT disk_files, disk_bytes FROM sys.tables WHERE name = 'small'")) {
                assertTrue(rs.next());
                assertTrue(rs.getInt(1) >= 1 && rs.getInt(1) <= 3, "five one-row INSERTs and two ALTERs: "
                        + rs.getInt(1) + " files");
                assertTrue(rs.getLong(2) > 0);
            }
        }
        assertEquals(filesNamed(), filesOnDisk(), "the data directory holds exactly the files its manifest names");

        try (LocalNode node = start(); Connection c = DriverManager.getConnection(node.server().ferryUrl())) {
            Map<String, List<String>> after = snapshot(c);
            assertEquals(before.keySet(), after.keySet());
            for (String what : before.keySet()) {
                assertEquals(before.get(what), after.get(what), what);
            }
            assertEquals(generation, node.engine().dataDirectory().manifest().generation(),
                    "the demo data is kept, not loaded again");
            // the restored primary key still refuses a duplicate, and the table takes new rows
            try (Statement s = c.createStatement()) {
                SQLException dup = assertThrows(SQLException.class, () -> s.execute("INSERT INTO t (id) VALUES (1)"));
                assertEquals("23505", dup.getSQLState());
                s.execute("INSERT INTO t (id) VALUES (-1)");
            }
        }
    }

    /** Every table's and view's rows in a stable order, and the columns, keys and indexes metadata shows. */
    private static Map<String, List<String>> snapshot(Connection c) throws SQLException {
        Map<String, List<String>> out = new TreeMap<>();
        DatabaseMetaData md = c.getMetaData();
        List<String> relations = new ArrayList<>();
        try (ResultSet rs = md.getTables(null, "FERRY", "%", new String[] {"TABLE", "VIEW"})) {
            while (rs.next()) {
                relations.add(rs.getString("TABLE_NAME"));
                out.computeIfAbsent("relations", k -> new ArrayList<>()).add(rs.getString("TABLE_NAME") + " "
                        + rs.getString("TABLE_TYPE"));
            }
        }
        assertTrue(relations.size() >= 10, relations.toString());
        for (String name : relations) {
            out.put(name + " columns", rows(md.getColumns(null, "FERRY", name, "%"), "COLUMN_NAME", "TYPE_NAME",
                    "COLUMN_SIZE", "DECIMAL_DIGITS", "IS_NULLABLE"));
            out.put(name + " keys", rows(md.getPrimaryKeys(null, "FERRY", name), "COLUMN_NAME", "PK_NAME"));
            out.put(name + " indexes", rows(md.getIndexInfo(null, "FERRY", name, false, true), "INDEX_NAME",
                    "COLUMN_NAME"));
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM \"" + name + "\"")) {
                List<String> all = rows(rs, null);
                all.sort(null);
                out.put(name + " rows", all);
            }
        }
        return out;
    }

    private static List<String> rows(ResultSet rs, String... columns) throws SQLException {
        try (rs) {
            List<String> out = new ArrayList<>();
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                if (columns == null) {
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        row.append(i == 1 ? "" : "|").append(rs.getString(i));
                    }
                } else {
                    for (String col : columns) {
                        row.append(row.length() == 0 ? "" : "|").append(rs.getString(col));
                    }
                }
                out.add(row.toString());
            }
            return out;
        }
    }

    private Set<String> filesNamed() throws IOException {
        return new HashSet<>(DataDirectory.readManifest(dir).fileNames());
    }

    private Set<String> filesOnDisk() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve(DataDirectory.TABLES))) {
            return new HashSet<>(files.map(p -> p.getFileName().toString()).toList());
        }
    }
}
