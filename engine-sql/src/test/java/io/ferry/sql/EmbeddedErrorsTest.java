package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** An embedded connection's errors carry the SQLSTATE and sentence a client of the JDBC server gets. */
class EmbeddedErrorsTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "SELECT ?                      | 07001 | PreparedStatement",
        "SELECT a FROM t WHERE a = ?   | 07001 | parameter",
        "'  ; -- nothing'              | 42601 | empty statement",
        "SELECT * FROM nope            | 42P01 | 'nope'",
        "SELECT nope FROM t            | 42703 | 'nope'",
        "SELECT 1 / 0                  | 22012 | division by zero",
        "SELECT a FROM t GROUP BY 2    | 42P10 | position",
        "SELECT a FROM t ORDER BY 3    | 42P10 | select list",
        // an outer column the GROUP BY lacks, read in a subquery (Calcite's conversion failed an assertion: XX000)
        "SELECT COUNT(*) FROM t GROUP BY a + 1 HAVING EXISTS (SELECT 1 FROM t u WHERE u.a = t.a) | 42000 | "
                + "not being grouped",
        "INSERT INTO t VALUES (1)      | 23505 | (a)=(1)",
        "UPDATE t SET a = NULL         | 23502 | NOT NULL"})
    void mistakesCarryTheirSqlState(String sql, String state, String mentions) throws SQLException {
        try (FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(1));
                Connection c = engine.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a INTEGER PRIMARY KEY)");
            s.execute("INSERT INTO t VALUES (1), (2)");
            SQLException e = assertThrows(SQLException.class, () -> s.execute(sql));
            assertEquals(state, e.getSQLState(), e.getMessage());
            assertTrue(e.getMessage().contains(mentions), e.getMessage());
            assertFalse(e.getMessage().matches("(?s).*\\b(java|org|io)\\.[a-z]+\\.[A-Za-z.]+.*"), e.getMessage());
            try (PreparedStatement p = c.prepareStatement("SELECT COUNT(*) FROM t WHERE a = ?")) {
                p.setInt(1, 2);
                try (ResultSet rs = p.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(1, rs.getLong(1), "a prepared statement binds its markers; the table is unchanged");
                }
            }
        }
    }
}
