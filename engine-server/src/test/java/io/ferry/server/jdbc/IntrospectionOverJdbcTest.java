package io.ferry.server.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.ferry.fabric.Fabrics;
import io.ferry.server.LocalNode;
import io.ferry.server.cluster.Coordinator;
import io.ferry.server.cluster.DataNode;
import io.ferry.server.cluster.Role;
import io.ferry.server.data.ProgressListener;
import io.ferry.sql.EngineConfig;

/**
 * SHOW, DESCRIBE, information_schema, sys and DatabaseMetaData as a client sees them, in local mode and on a
 * coordinator with two workers, through the stock Avatica driver and through ferry-jdbc.
 */
class IntrospectionOverJdbcTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static LocalNode local;
    private static Coordinator coordinator;
    private static final List<DataNode> workers = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        EngineConfig config = EngineConfig.defaults().withThreads(2).withBlockSize(64 * 1024)
                .withMemoryLimit(256L << 20);
        local = LocalNode.start(new LocalNode.Options(config, "127.0.0.1", 0, null, List.of()),
                ProgressListener.NONE);
        coordinator = Coordinator.start(new Coordinator.Options(config, "127.0.0.1", 0, 0, 0, null,
                Fabrics.Kind.TCP, TIMEOUT, List.of()));
        InetSocketAddress control = coordinator.cluster().address();
        for (int i = 1; i <= 2; i++) {
            workers.add(DataNode.start(new DataNode.Options(Role.WORKER, "w" + i, "127.0.0.1", 0, null, control, 1,
                    64L << 20, 64L << 20, Fabrics.Kind.TCP, TIMEOUT)));
        }
        assertTrue(coordinator.cluster().awaitNodes(2, Duration.ofSeconds(30)), "workers joined");
        for (JdbcServer server : List.of(local.server(), coordinator.jdbc())) {
            try (Connection c = DriverManager.getConnection(server.ferryUrl()); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE sales (id INTEGER NOT NULL, amount DECIMAL(12,2), region VARCHAR(8), "
                        + "sold DATE)");
                s.execute("INSERT INTO sales VALUES (1, 10.50, 'north', DATE '2024-01-01'), "
                        + "(2, NULL, 'south', NULL), (3, 7.25, NULL, DATE '2024-02-29')");
                s.execute("CREATE VIEW north_sales AS SELECT id, amount FROM sales WHERE region = 'north'");
                s.execute("CREATE TABLE orders (id INTEGER, line INTEGER, code VARCHAR UNIQUE, "
                        + "CONSTRAINT orders_pk PRIMARY KEY (line, id))");
            }
        }
    }

    @AfterAll
    static void stop() {
        if (local != null) {
            local.close();
        }
        if (coordinator != null) {
            coordinator.close();
        }
        for (DataNode n : workers) {
            n.close();
        }
    }

    /** Each mode through each driver: (label, JDBC URL). */
    static Stream<Arguments> connections() {
        return Stream.of(
                Arguments.of("local, Avatica", local.server().avaticaUrl()),
                Arguments.of("local, ferry-jdbc", local.server().ferryUrl()),
                Arguments.of("cluster, Avatica", coordinator.jdbc().avaticaUrl()),
                Arguments.of("cluster, ferry-jdbc", coordinator.jdbc().ferryUrl()));
    }

    /**
     * A tool that folds names to upper case before a lookup (as the stock Avatica driver tells it to) finds Ferry's
     * lower-case tables and columns.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("connections")
    void upperCaseLookupsFindLowerCaseNames(String label, String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getTables(null, "FERRY", "SALES", null)) {
                assertTrue(rs.next(), "SALES found");
                assertEquals("sales", rs.getString("TABLE_NAME"));
                assertFalse(rs.next());
            }
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = md.getColumns(null, null, "SAL%", null)) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME"));
                }
            }
            assertEquals(List.of("id", "amount", "region", "sold"), columns);
            try (ResultSet rs = md.getTables(null, null, "NO_SUCH", null)) {
                assertFalse(rs.next());
            }
        }
    }

    /**
     * Keys as declared, whatever case a tool writes the table's name in; tables without keys have none. Only
     * ferry-jdbc: Avatica's protocol cannot ask for keys, and its client answers with no rows.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("connections")
    void primaryKeysAndIndexesAreTheDeclaredKeys(String label, String url) throws SQLException {
        org.junit.jupiter.api.Assumptions.assumeTrue(label.endsWith("ferry-jdbc"), "Avatica cannot ask for keys");
        try (Connection c = DriverManager.getConnection(url)) {
            DatabaseMetaData md = c.getMetaData();
            for (String name : List.of("orders", "ORDERS")) {
                List<List<String>> keys = new ArrayList<>();
                try (ResultSet rs = md.getPrimaryKeys(null, null, name)) {
                    while (rs.next()) {
                        keys.add(List.of(rs.getString("TABLE_NAME"), rs.getString("COLUMN_NAME"),
                                String.valueOf(rs.getShort("KEY_SEQ")), rs.getString("PK_NAME")));
                    }
                }
                // ordered by column name, numbered in key order
                assertEquals(List.of(List.of("orders", "id", "2", "orders_pk"), List.of("orders", "line", "1",
                        "orders_pk")), keys, name);
            }
            List<List<String>> indexes = new ArrayList<>();
            try (ResultSet rs = md.getIndexInfo(null, "ferry", "orders", true, false)) {
                while (rs.next()) {
                    indexes.add(List.of(rs.getString("INDEX_NAME"), String.valueOf(rs.getBoolean("NON_UNIQUE")),
                            String.valueOf(rs.getShort("ORDINAL_POSITION")), rs.getString("COLUMN_NAME")));
                }
            }
            assertEquals(List.of(List.of("orders_code_key", "false", "1", "code"),
                    List.of("orders_pk", "false", "1", "line"), List.of("orders_pk", "false", "2", "id")), indexes);
            // A zone-map index is listed, not unique, after the keys' indexes, unless only unique ones are asked for
            try (Statement s = c.createStatement()) {
                s.execute("CREATE INDEX orders_id_zones ON orders (id)");
            }
            try {
                List<List<String>> all = new ArrayList<>();
                try (ResultSet rs = md.getIndexInfo(null, "ferry", "ORDERS", false, false)) {
                    while (rs.next()) {
                        all.add(List.of(rs.getString("INDEX_NAME"), String.valueOf(rs.getBoolean("NON_UNIQUE")),
                                String.valueOf(rs.getShort("TYPE")), rs.getString("COLUMN_NAME")));
                    }
                }
                assertEquals(List.of(List.of("orders_code_key", "false", "2", "code"),
                        List.of("orders_pk", "false", "2", "line"), List.of("orders_pk", "false", "2", "id"),
                        List.of("orders_id_zones", "true", "3", "id")), all);
                try (ResultSet rs = md.getIndexInfo(null, "ferry", "orders", true, false)) {
                    int n = 0;
                    while (rs.next()) {
                        n++;
                    }
                    assertEquals(3, n, "only the unique indexes");
                }
            } finally {
                try (Statement s = c.createStatement()) {
                    s.execute("DROP INDEX orders_id_zones");
                }
            }
            try (ResultSet rs = md.getPrimaryKeys(null, null, "sales")) {
                assertFalse(rs.next(), "sales declares no key");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("connections")
    void showAndDescribeAnswerAsResultSets(String label, String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            assertEquals(List.of(List.of("north_sales", "view"), List.of("orders", "table"), List.of("sales", "table")),
                    rows(c, "SHOW TABLES"));
            assertEquals(List.of(List.of("id", "INTEGER", "NO", "null", "null", "null"),
                    List.of("amount", "DECIMAL(12,2)", "YES", "null", "null", "null"),
                    List.of("region", "VARCHAR(8)", "YES", "null", "null", "null"),
                    List.of("sold", "DATE", "YES", "null", "null", "null")), rows(c, "DESCRIBE sales"));
            assertEquals(rows(c, "DESCRIBE sales"), rows(c, "SHOW COLUMNS FROM ferry.sales"));
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("DESC north_sales")) {
                ResultSetMetaData md = rs.getMetaData();
                assertEquals(List.of("column_name", "column_type", "null", "key", "default", "extra"), labels(md));
                assertEquals(java.sql.Types.VARCHAR, md.getColumnType(2));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("connections")
    void mistakesCarryTheirSqlState(String label, String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            SQLException missing = assertThrows(SQLException.class, () -> s.executeQuery("DESCRIBE missing"));
            assertEquals("42P01", missing.getSQLState(), missing.getMessage());
            assertTrue(missing.getMessage().contains("SHOW TABLES"), missing.getMessage());
            SQLException write = assertThrows(SQLException.class, () -> s.executeUpdate(
                    "INSERT INTO information_schema.schemata VALUES (NULL, 'mine', NULL)"));
            assertEquals("0A000", write.getSQLState(), write.getMessage());
            SQLException create = assertThrows(SQLException.class, () -> s.execute(
                    "CREATE TABLE information_schema.mine (a INTEGER)"));
            assertEquals("0A000", create.getSQLState(), create.getMessage());
        }
    }

    /** getSchemas, getTables and getColumns say what information_schema says, row for row. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("connections")
    void databaseMetaDataAgreesWithInformationSchema(String label, String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            DatabaseMetaData md = c.getMetaData();
            List<List<Object>> schemas = new ArrayList<>();
            try (ResultSet rs = md.getSchemas()) {
                while (rs.next()) {
                    schemas.add(List.of(rs.getString("TABLE_SCHEM")));
                }
            }
            assertEquals(rows(c, "SELECT schema_name FROM information_schema.schemata ORDER BY schema_name"),
                    schemas);
            List<List<Object>> tables = new ArrayList<>();
            try (ResultSet rs = md.getTables(null, null, "%", null)) {
                while (rs.next()) {
                    tables.add(List.of(rs.getString("TABLE_TYPE"), rs.getString("TABLE_SCHEM"),
                            rs.getString("TABLE_NAME")));
                }
            }
            assertEquals(rows(c, "SELECT CASE table_type WHEN 'BASE TABLE' THEN 'TABLE' ELSE table_type END AS t, "
                    + "table_schema, table_name FROM information_schema.tables ORDER BY t, table_schema, table_name"),
                    tables);
            List<List<Object>> columns = new ArrayList<>();
            try (ResultSet rs = md.getColumns(null, null, "%", "%")) {
                while (rs.next()) {
                    columns.add(List.of(rs.getString("TABLE_SCHEM"), rs.getString("TABLE_NAME"),
                            rs.getString("COLUMN_NAME"), String.valueOf(rs.getInt("ORDINAL_POSITION")),
                            rs.getString("IS_NULLABLE"), rs.getString("TYPE_NAME")));
                }
            }
            assertEquals(rows(c, "SELECT table_schema, table_name, column_name, ordinal_position, is_nullable, "
                    + "CASE WHEN data_type LIKE '%(%' THEN SUBSTRING(data_type FROM 1 FOR POSITION('(' IN data_type) - 1)"
                    + " ELSE data_type END FROM information_schema.columns "
                    + "ORDER BY table_schema, table_name, ordinal_position"), columns);
        }
    }

    /** sys has the same tables in both modes (a cluster adds fragments), and they describe what was loaded. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("connections")
    void sysTablesDescribeTheData(String label, String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            Set<String> expected = new TreeSet<>(Set.of("blocks", "grants", "indexes", "nodes", "queries", "tables",
                    "users"));
            if (label.startsWith("cluster")) {
                expected.add("fragments");
            }
            Set<String> sys = new TreeSet<>();
            for (List<Object> row : rows(c, "SHOW TABLES FROM sys")) {
                sys.add((String) row.get(0));
                assertEquals("system table", row.get(1));
            }
            assertEquals(expected, sys);
            String count = rows(c, "SELECT COUNT(*) FROM sales").get(0).get(0).toString();
            assertEquals(List.of(List.of(count, count)), rows(c, "SELECT t.row_count, (SELECT SUM(b.row_count) FROM "
                    + "sys.blocks b WHERE b.table_name = 'sales') FROM sys.tables t WHERE t.name = 'sales'"));
            assertTrue(Integer.parseInt(rows(c, "SELECT COUNT(*) FROM sys.nodes").get(0).get(0).toString()) >= 1);
            List<List<Object>> logged = rows(c, "SELECT state, row_count FROM sys.queries WHERE statement = "
                    + "'SELECT COUNT(*) FROM sales' ORDER BY query_id DESC LIMIT 1");
            assertEquals(List.of(List.of("finished", "1")), logged);
        }
    }

    private static List<List<Object>> rows(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            List<List<Object>> out = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(String.valueOf(rs.getString(i)));
                }
                out.add(row);
            }
            return out;
        }
    }

    private static List<String> labels(ResultSetMetaData md) throws SQLException {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            out.add(md.getColumnLabel(i));
        }
        return out;
    }

    /**
     * EXPLAIN ANALYZE is a query like any other to a client: one row in EXPLAIN's column, the plan (on a cluster with
     * the shipping decision) and the measures of a run whose row count is the query's. A query that fails fails it
     * with the same SQLSTATE.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("connections")
    void explainAnalyzeRunsTheQuery(String label, String url) throws SQLException {
        String query = "SELECT region, COUNT(*) AS n FROM sales GROUP BY region";
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            long groups;
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM (" + query + ") AS q")) {
                assertTrue(rs.next());
                groups = rs.getLong(1);
            }
            try (ResultSet rs = s.executeQuery("EXPLAIN ANALYZE " + query)) {
                assertEquals("PLAN", rs.getMetaData().getColumnLabel(1));
                assertTrue(rs.next());
                String text = rs.getString(1);
                assertFalse(rs.next());
                assertTrue(text.contains("FerryAggregate") && text.contains("Planning Time: ")
                        && text.contains("Execution Time: ") && text.endsWith("\nRows: " + groups), text);
                assertEquals(label.startsWith("cluster"), text.contains("shipping="), text);
            }
            String plain = assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM nowhere"))
                    .getSQLState();
            assertEquals(plain, assertThrows(SQLException.class,
                    () -> s.executeQuery("EXPLAIN ANALYZE SELECT * FROM nowhere")).getSQLState());
        }
    }
}
