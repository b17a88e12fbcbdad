package io.ferry.server.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ferry.server.LocalNode;
import io.ferry.server.data.ProgressListener;
import io.ferry.sql.EngineConfig;

/**
 * A BI tool's session through Arrow's Flight SQL JDBC driver, call by call as DBeaver makes them on connect and
 * when a user opens a table: the product, the schemas, the tables of one, a table's columns and keys, the types;
 * then its first rows, a filtered prepared query, and the result set's metadata. The driver answers some calls
 * itself (getTypeInfo, getIndexInfo are empty in 18.3.0); everything it forwards is checked.
 */
class FlightJdbcDriverTest {
    private static LocalNode node;
    private static Connection conn;

    @BeforeAll
    static void start() throws SQLException {
        node = LocalNode.start(new LocalNode.Options(EngineConfig.defaults().withThreads(2)
                .withMemoryLimit(256L << 20), "127.0.0.1", 0, null, List.of()), ProgressListener.NONE);
        node.serveFlight(0);
        try (Connection c = node.engine().connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE customer (c_id INTEGER NOT NULL PRIMARY KEY, c_name VARCHAR(40), "
                    + "c_balance DECIMAL(12, 2), c_since DATE)");
            s.execute("INSERT INTO customer VALUES (1, 'Ann', 10.50, DATE '2020-01-02'), (2, 'Bob', NULL, NULL), "
                    + "(3, 'Zoë', -3.25, DATE '1999-12-31')");
            s.execute("CREATE VIEW rich AS SELECT c_id, c_name FROM customer WHERE c_balance > 0");
        }
        Properties p = new Properties();
        p.setProperty("useEncryption", "false");
        conn = DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + node.flight().port(), p);
    }

    @AfterAll
    static void stop() throws SQLException {
        if (conn != null) {
            conn.close();
        }
        if (node != null) {
            node.close();
        }
    }

    private static List<String> column(ResultSet rs, String name) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                out.add(rs.getString(name));
            }
        }
        return out;
    }

    @Test
    void aBiToolBrowsesTheSchema() throws SQLException {
        DatabaseMetaData md = conn.getMetaData();
        assertEquals("Ferry", md.getDatabaseProductName());
        assertFalse(md.isReadOnly());
        assertEquals("\"", md.getIdentifierQuoteString());
        assertTrue(column(md.getSchemas(), "TABLE_SCHEM").containsAll(List.of("ferry", "information_schema", "sys")));
        assertTrue(column(md.getTableTypes(), "TABLE_TYPE").containsAll(List.of("TABLE", "VIEW")));
        assertEquals(List.of("customer", "rich"), column(md.getTables(null, "ferry", "%",
                new String[] {"TABLE", "VIEW"}), "TABLE_NAME"));
        assertEquals(List.of("customer"), column(md.getTables(null, "ferry", "cust_mer", null), "TABLE_NAME"),
                "_ matches one character");
        List<String> columns = new ArrayList<>();
        try (ResultSet rs = md.getColumns(null, "ferry", "customer", "%")) {
            while (rs.next()) {
                columns.add(rs.getString("COLUMN_NAME") + " " + rs.getInt("DATA_TYPE") + " "
                        + rs.getString("TYPE_NAME"));
            }
        }
        assertEquals(List.of("c_id " + Types.INTEGER + " INTEGER", "c_name " + Types.VARCHAR + " VARCHAR(40)",
                "c_balance " + Types.DECIMAL + " DECIMAL(12,2)", "c_since " + Types.DATE + " DATE"), columns);
        assertEquals(List.of("c_id"), column(md.getPrimaryKeys(null, "ferry", "customer"), "COLUMN_NAME"));
        assertEquals(List.of(), column(md.getImportedKeys(null, "ferry", "customer"), "PKTABLE_NAME"));
    }

    @Test
    void itsQueriesReturnTheRows() throws SQLException {
        try (Statement s = conn.createStatement();
                ResultSet rs = s.executeQuery("SELECT * FROM customer ORDER BY c_id LIMIT 200")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(4, md.getColumnCount());
            assertEquals(Types.DECIMAL, md.getColumnType(3));
            assertEquals(2, md.getScale(3));
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(rs.getInt(1) + "|" + rs.getString(2) + "|" + rs.getBigDecimal(3) + "|" + rs.getDate(4));
            }
            assertEquals(List.of("1|Ann|10.50|2020-01-02", "2|Bob|null|null", "3|Zoë|-3.25|1999-12-31"), rows);
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT c_name FROM customer WHERE c_id > ? ORDER BY "
                + "c_id")) {
            for (int[] probe : new int[][] {{1, 2}, {2, 1}, {3, 0}}) {
                ps.setInt(1, probe[0]);
                int n = 0;
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        n++;
                    }
                }
                assertEquals(probe[1], n, "c_id > " + probe[0]);
            }
        }
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT SUM(c_balance) FROM customer "
                + "WHERE c_id IN (SELECT c_id FROM rich)")) {
            rs.next();
            assertEquals(new BigDecimal("10.50"), rs.getBigDecimal(1));
        }
        SQLException e = assertThrows(SQLException.class, () -> {
            try (Statement s = conn.createStatement()) {
                s.executeQuery("SELECT * FROM nowhere");
            }
        });
        assertTrue(e.getMessage().contains("42P01"), e.getMessage());
    }
}
