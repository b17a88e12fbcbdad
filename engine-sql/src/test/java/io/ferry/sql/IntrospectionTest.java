package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SHOW TABLES, SHOW COLUMNS, DESCRIBE and information_schema over a catalog made in the test, checked against DuckDB
 * running the same DDL where DuckDB has the same statement (its user schema is {@code main}, Ferry's {@code ferry}),
 * and against the catalog itself otherwise.
 */
class IntrospectionTest {
    private static final String[] DDL = {
        "CREATE TABLE orders (id INTEGER NOT NULL, customer BIGINT, price DECIMAL(12,2), weight DOUBLE, note VARCHAR, "
                + "placed DATE, shipped TIMESTAMP, paid BOOLEAN)",
        "CREATE TABLE items (order_id INTEGER, sku VARCHAR NOT NULL, qty BIGINT NOT NULL, discount DECIMAL(4,3), "
                + "code VARCHAR UNIQUE, PRIMARY KEY (sku, order_id))",
        "CREATE VIEW big_orders AS SELECT id, price, note FROM orders WHERE price > 100",
    };

    private FerryEngine engine;
    private Connection ferry;
    private Connection duck;

    @BeforeEach
    void start() throws SQLException {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2));
        ferry = engine.connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        for (String sql : DDL) {
            both(sql);
        }
        both("INSERT INTO orders VALUES (1, 10, 250.00, 1.5, 'a', DATE '2024-01-02', TIMESTAMP '2024-01-03 10:00:00',"
                + " TRUE), (2, 11, 50.00, NULL, NULL, NULL, NULL, FALSE)");
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

    private void ferry(String sql) throws SQLException {
        try (Statement s = ferry.createStatement()) {
            s.execute(sql);
        }
    }

    /** The same information_schema query on both, Ferry's user schema standing for DuckDB's. */
    private void sameInformation(String sql, boolean ordered) throws SQLException {
        String duckSql = sql.replaceAll("(\\w+\\.)?table_schema = 'ferry'",
                "$1table_schema = 'main' AND $1table_catalog = current_database()");
        ResultComparison.assertSameResult(ferry, sql, duck, duckSql, ordered);
    }

    @Test
    void describeAnswersAsDuckDb() throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, "DESCRIBE orders", true);
        ResultComparison.assertSameResult(ferry, duck, "DESCRIBE items", true);
        ResultComparison.assertSameResult(ferry, duck, "DESCRIBE big_orders", true);
        ResultComparison.assertSameResult(ferry, "DESC orders", duck, "DESCRIBE orders", true);
        ResultComparison.assertSameResult(ferry, "DESCRIBE TABLE orders", duck, "DESCRIBE orders", true);
        ResultComparison.assertSameResult(ferry, "SHOW COLUMNS FROM items", duck, "DESCRIBE items", true);
        ResultComparison.assertSameResult(ferry, "SHOW COLUMNS IN ferry.items", duck, "DESCRIBE main.items", true);
        ResultComparison.assertSameResult(ferry, "describe FERRY.Orders", duck, "DESCRIBE main.orders", true);
    }

    @Test
    void describeGivesDuckDbsColumnLabelsAndTypes() throws SQLException {
        try (Statement f = ferry.createStatement(); ResultSet fr = f.executeQuery("DESCRIBE orders");
                Statement d = duck.createStatement(); ResultSet dr = d.executeQuery("DESCRIBE orders")) {
            ResultSetMetaData fm = fr.getMetaData();
            ResultSetMetaData dm = dr.getMetaData();
            assertEquals(dm.getColumnCount(), fm.getColumnCount());
            for (int i = 1; i <= dm.getColumnCount(); i++) {
                assertEquals(dm.getColumnLabel(i), fm.getColumnLabel(i));
                assertEquals(dm.getColumnType(i), fm.getColumnType(i), dm.getColumnLabel(i));
            }
        }
    }

    @Test
    void describeShowsADeclaredLengthAndSystemTables() throws SQLException {
        ferry("CREATE TABLE coded (code VARCHAR(25) NOT NULL)");
        assertEquals(List.of(List.of("code", "VARCHAR(25)", "NO")), firstColumns("DESCRIBE coded", 3));
        assertEquals("25", ResultComparison.rows(ferry, "SELECT character_maximum_length FROM "
                + "information_schema.columns WHERE table_name = 'coded'").get(0).get(0).toString());
        List<List<Object>> described = firstColumns("DESCRIBE information_schema.tables", 2);
        assertEquals(List.of("table_catalog", "VARCHAR"), described.get(0));
        assertEquals(labels("SELECT * FROM information_schema.tables"),
                described.stream().map(r -> r.get(0)).toList());
    }

    @Test
    void showTablesListsTablesAndViewsWithTheirKind() throws SQLException {
        assertEquals(List.of(List.of("big_orders", "view"), List.of("items", "table"), List.of("orders", "table")),
                ResultComparison.rows(ferry, "SHOW TABLES"));
        assertEquals(ResultComparison.rows(ferry, "SELECT table_name, 'system table' FROM information_schema.tables"
                + " WHERE table_schema = 'information_schema' ORDER BY table_name"),
                ResultComparison.rows(ferry, "SHOW TABLES FROM information_schema"));
        assertEquals(ResultComparison.rows(duck, "SHOW TABLES"), firstColumns("SHOW TABLES", 1));
    }

    /**
     * One difference is deliberate: a view's column is NOT NULL in Ferry's information_schema when its query cannot
     * give NULL there, as DESCRIBE says in both; DuckDB's information_schema (and PostgreSQL's) call every view
     * column nullable.
     */
    @Test
    void informationSchemaAnswersAsDuckDb() throws SQLException {
        sameInformation("SELECT table_name, column_name, ordinal_position, column_default, is_nullable, data_type, "
                + "character_maximum_length, numeric_precision, numeric_precision_radix, numeric_scale, "
                + "datetime_precision FROM information_schema.columns WHERE table_schema = 'ferry' "
                + "AND table_name <> 'big_orders'", false);
        sameInformation("SELECT table_name, column_name, ordinal_position, data_type, numeric_precision, numeric_scale"
                + " FROM information_schema.columns WHERE table_schema = 'ferry' AND table_name = 'big_orders'", false);
        assertEquals(List.of(List.of("id", "NO"), List.of("price", "YES"), List.of("note", "YES")),
                ResultComparison.rows(ferry, "SELECT column_name, is_nullable FROM information_schema.columns "
                        + "WHERE table_name = 'big_orders' ORDER BY ordinal_position"));
        sameInformation("SELECT table_name, table_type, is_insertable_into FROM information_schema.tables "
                + "WHERE table_schema = 'ferry' ORDER BY table_name", true);
        sameInformation("SELECT table_name, check_option, is_updatable, is_insertable_into FROM "
                + "information_schema.views WHERE table_schema = 'ferry'", false);
        sameInformation("SELECT t.table_type, COUNT(*), SUM(CASE WHEN c.is_nullable = 'NO' THEN 1 ELSE 0 END) "
                + "FROM information_schema.tables t JOIN information_schema.columns c ON c.table_schema = "
                + "t.table_schema AND c.table_name = t.table_name WHERE t.table_schema = 'ferry' "
                + "AND t.table_type = 'BASE TABLE' GROUP BY t.table_type ORDER BY t.table_type", true);
        sameInformation("SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'ferry' "
                + "AND data_type LIKE 'DECIMAL%' ORDER BY numeric_scale DESC, column_name", true);
    }

    @Test
    void viewDefinitionIsTheViewsQuery() throws SQLException {
        List<List<Object>> rows = ResultComparison.rows(ferry, "SELECT view_definition FROM information_schema.views "
                + "WHERE table_name = 'big_orders'");
        assertEquals(1, rows.size());
        String definition = (String) rows.get(0).get(0);
        assertEquals(ResultComparison.rows(ferry, "SELECT * FROM big_orders ORDER BY id"),
                ResultComparison.rows(ferry, "SELECT * FROM (" + definition + ") AS v ORDER BY id"));
    }

    @Test
    void informationSchemaFollowsDdlAtOnce() throws SQLException {
        String count = "SELECT COUNT(*) FROM information_schema.columns WHERE table_name = 'later'";
        try (PreparedStatement p = ferry.prepareStatement(count)) {
            assertEquals(0, single(p));
            both("CREATE TABLE later (a INTEGER, b VARCHAR)");
            assertEquals(2, single(p));
            both("DROP TABLE later");
            assertEquals(0, single(p));
        }
        both("CREATE OR REPLACE VIEW big_orders AS SELECT id FROM orders");
        sameInformation("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'ferry'",
                false);
        both("DROP VIEW big_orders");
        sameInformation("SELECT table_name FROM information_schema.tables WHERE table_schema = 'ferry'", false);
        sameInformation("SELECT table_name FROM information_schema.views WHERE table_schema = 'ferry'", false);
        assertThrows(SQLException.class, () -> ferry("DESCRIBE big_orders"));
    }

    /**
     * information_schema describes every schema, itself and sys included, and what it says of each table is what a
     * query of that table gives.
     */
    @Test
    void informationSchemaDescribesEveryTableAsAQuerySeesIt() throws SQLException {
        assertEquals(List.of(List.of("ferry"), List.of("information_schema"), List.of("sys")),
                ResultComparison.rows(ferry, "SELECT schema_name FROM information_schema.schemata ORDER BY 1"));
        List<List<Object>> tables = ResultComparison.rows(ferry, "SELECT table_schema, table_name, table_type FROM "
                + "information_schema.tables ORDER BY 1, 2");
        assertTrue(tables.contains(List.of("information_schema", "columns", "SYSTEM TABLE")), tables.toString());
        int checked = 0;
        for (List<Object> t : tables) {
            String qualified = t.get(0) + "." + t.get(1);
            List<Object> described = ResultComparison.rows(ferry, "SELECT column_name FROM information_schema.columns"
                    + " WHERE table_schema = '" + t.get(0) + "' AND table_name = '" + t.get(1)
                    + "' ORDER BY ordinal_position").stream().map(r -> r.get(0)).toList();
            assertEquals(labels("SELECT * FROM " + qualified), described, qualified);
            checked++;
        }
        assertEquals(tables.size(), checked);
    }

    @ParameterizedTest
    @ValueSource(strings = {"DESCRIBE missing", "SHOW COLUMNS FROM missing", "DESC ferry.missing",
        "DESCRIBE nowhere.orders", "SHOW COLUMNS FROM sys.missing"})
    void describingWhatDoesNotExistIsUndefinedTable(String sql) {
        SQLException e = assertThrows(SQLException.class, () -> ferry(sql));
        SqlErrors.Translated t = SqlErrors.translate(e);
        assertEquals("42P01", t.sqlState(), t.message());
        assertTrue(t.message().contains("SHOW TABLES"), t.message());
    }

    @Test
    void showTablesFromAnUnknownSchemaIsInvalidSchemaName() {
        SQLException e = assertThrows(SQLException.class, () -> ferry("SHOW TABLES FROM nowhere"));
        SqlErrors.Translated t = SqlErrors.translate(e);
        assertEquals("3F000", t.sqlState(), t.message());
        assertTrue(t.message().contains("information_schema"), t.message());
    }

    @ParameterizedTest
    @ValueSource(strings = {"CREATE TABLE information_schema.x (a INTEGER)", "DROP TABLE information_schema.tables",
        "CREATE VIEW information_schema.v AS SELECT 1 AS x", "INSERT INTO information_schema.tables VALUES "
                + "(NULL, 'ferry', 'fake', 'BASE TABLE', 'YES')", "DELETE FROM information_schema.columns",
        "TRUNCATE TABLE information_schema.views"})
    void informationSchemaIsReadOnly(String sql) throws SQLException {
        String before = ResultComparison.rows(ferry, "SELECT * FROM information_schema.tables").toString();
        SQLException e = assertThrows(SQLException.class, () -> ferry(sql));
        SqlErrors.Translated t = SqlErrors.translate(e);
        assertFalse(t.sqlState().equals("XX000"), t.message());
        assertFalse(t.message().matches("(?s).*\\b(org|io|java)\\.[a-z]+\\.[A-Za-z.]*.*"), t.message());
        assertTrue(t.message().contains("information_schema") && t.message().contains("ferry"), t.message());
        assertEquals(before, ResultComparison.rows(ferry, "SELECT * FROM information_schema.tables").toString());
    }

    @Test
    void theNewKeywordsStayUsableAsNames() throws SQLException {
        both("CREATE TABLE catalogued (tables INTEGER, columns VARCHAR)");
        both("INSERT INTO catalogued VALUES (3, 'x')");
        ResultComparison.assertSameResult(ferry, duck, "SELECT tables, columns FROM catalogued", false);
    }

    /** sys.queries: one entry per execution, with its planning time, whether the plan was cached, and its rows. */
    @Test
    void sysQueriesRecordsEachExecution() throws SQLException {
        String sql = "SELECT id, price FROM orders WHERE paid OR price > 0 ORDER BY id";
        int rows = ResultComparison.rows(ferry, sql).size();
        assertEquals(2, rows);
        ResultComparison.rows(ferry, sql);
        assertThrows(SQLException.class, () -> ferry("SELECT * FROM nowhere"));
        List<List<Object>> log = ResultComparison.rows(ferry, "SELECT state, plan_cached, row_count, sql_state, "
                + "planning_ms >= 0 AND execution_ms >= 0, started_at <= CURRENT_TIMESTAMP FROM sys.queries "
                + "WHERE statement = '" + sql + "' OR statement LIKE '%nowhere' ORDER BY query_id");
        assertEquals(List.of(
                List.of("finished", false, new java.math.BigDecimal(rows), "null", true, true),
                List.of("finished", true, new java.math.BigDecimal(rows), "null", true, true),
                List.of("failed", false, java.math.BigDecimal.ZERO, "42P01", true, true)),
                log.stream().map(r -> r.stream().map(v -> v == null ? "null" : v).toList()).toList());
        assertEquals(ResultComparison.rows(ferry, "SELECT column_name FROM information_schema.columns WHERE "
                + "table_schema = 'sys' AND table_name = 'queries' ORDER BY ordinal_position"),
                firstColumns("DESCRIBE sys.queries", 1));
    }

    /**
     * sys.queries names the operators of Calcite's row engine a statement's plan runs (SOUNDEX has no kernel of
     * Ferry's), and none for one that runs in Ferry's operators alone, also when its plan comes from the cache.
     */
    @Test
    void sysQueriesNamesTheRowEngineOperatorsAPlanRuns() throws SQLException {
        String slow = "SELECT id, SOUNDEX(note) FROM orders";
        String fast = "SELECT customer, SUM(price) FROM orders GROUP BY customer";
        for (int i = 0; i < 2; i++) {
            ResultComparison.rows(ferry, slow);
            ResultComparison.rows(ferry, fast);
        }
        List<List<Object>> log = ResultComparison.rows(ferry, "SELECT statement, plan_cached, row_engine FROM "
                + "sys.queries WHERE statement IN ('" + slow + "', '" + fast + "') ORDER BY query_id");
        assertEquals(List.of(List.of(slow, false, "EnumerableCalc"), List.of(fast, false, "null"),
                List.of(slow, true, "EnumerableCalc"), List.of(fast, true, "null")),
                log.stream().map(r -> r.stream().map(v -> v == null ? "null" : v).toList()).toList());
    }

    private List<List<Object>> firstColumns(String sql, int n) throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : ResultComparison.rows(ferry, sql)) {
            out.add(row.subList(0, n));
        }
        return out;
    }

    private List<String> labels(String sql) throws SQLException {
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            List<String> out = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                out.add(md.getColumnLabel(i));
            }
            return out;
        }
    }

    private static long single(PreparedStatement p) throws SQLException {
        try (ResultSet rs = p.executeQuery()) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }
}
