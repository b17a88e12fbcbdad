package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.sql.schema.SystemTable;

/** SET and RESET change one connection's settings, which reach the runner of that connection's queries. */
class SessionSettingsTest {
    private FerryEngine engine;
    private final List<SessionSettings.Shipping> seen = new ArrayList<>();
    private final List<String> fetchAndRetry = new ArrayList<>();

    @BeforeEach
    void start() throws SQLException {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withMemoryLimit(64 << 20));
        engine.setRunner((plan, ctx, session) -> {
            seen.add(session.shipping());
            fetchAndRetry.add(session.prefetch() + "/" + session.retry());
            return engine.executor().stream(plan, ctx);
        });
        try (Connection c = engine.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a BIGINT)");
            s.execute("INSERT INTO t VALUES (1), (2), (3)");
        }
    }

    @AfterEach
    void stop() {
        engine.close();
    }

    private static long sum(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT SUM(a) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void setChangesOnlyThisConnectionAndResetRestores() throws SQLException {
        seen.clear();
        try (Connection one = engine.connect(); Connection two = engine.connect();
                Statement s1 = one.createStatement(); Statement s2 = two.createStatement()) {
            s1.execute("SET shipping = data");
            assertEquals(6, sum(s1));
            assertEquals(6, sum(s2));
            s1.execute("SET shipping = 'Function'");
            assertEquals(6, sum(s1));
            s1.execute("RESET shipping");
            assertEquals(6, sum(s1));
            s1.execute("SET shipping = 'data'");
            s1.execute("RESET ALL");
            assertEquals(6, sum(s1));
        }
        assertEquals(List.of(SessionSettings.Shipping.DATA, SessionSettings.Shipping.AUTO,
                SessionSettings.Shipping.FUNCTION, SessionSettings.Shipping.AUTO, SessionSettings.Shipping.AUTO), seen);
    }

    @Test
    void unknownSettingsAndValuesAreRejectedWithTheChoices() throws SQLException {
        try (Connection c = engine.connect(); Statement s = c.createStatement()) {
            SQLException unknown = assertThrows(SQLException.class, () -> s.execute("SET shiping = 'data'"));
            assertEquals("42704", SqlErrors.translate(unknown).sqlState());
            assertTrue(unknown.getMessage().contains("shipping"), unknown.getMessage());
            SQLException bad = assertThrows(SQLException.class, () -> s.execute("SET shipping = 'sometimes'"));
            assertEquals("22023", SqlErrors.translate(bad).sqlState());
            assertTrue(bad.getMessage().contains("'function'"), bad.getMessage());
            assertEquals(6, sum(s));
        }
    }

    @Test
    void prefetchAndRetryReachTheRunnerAndRefuseWhatIsOutOfRange() throws SQLException {
        try (Connection c = engine.connect(); Statement s = c.createStatement()) {
            fetchAndRetry.clear();
            assertEquals(6, sum(s));
            s.execute("SET prefetch = 10");
            s.execute("SET retry = 'off'");
            assertEquals(6, sum(s));
            for (String bad : List.of("0", "65", "-1", "ten", "99999999999")) {
                SQLException e = assertThrows(SQLException.class, () -> s.execute("SET prefetch = '" + bad + "'"));
                assertEquals("22023", SqlErrors.translate(e).sqlState());
                assertTrue(e.getMessage().contains("from 1 to 64"), e.getMessage());
            }
            SQLException e = assertThrows(SQLException.class, () -> s.execute("SET retry = 'twice'"));
            assertEquals("22023", SqlErrors.translate(e).sqlState());
            assertEquals(6, sum(s));
            s.execute("RESET prefetch");
            s.execute("RESET retry");
            assertEquals(6, sum(s));
        }
        assertEquals(List.of("8/ON", "10/OFF", "10/OFF", "8/ON"), fetchAndRetry);
    }

    @Test
    void systemTablesAnswerSql() throws SQLException {
        engine.systemTables().put("numbers", new SystemTable(List.of(new Column("n", FerryType.BIGINT, false),
                new Column("name", FerryType.VARCHAR, true)), () -> List.of(new Object[] {1L, "one"},
                        new Object[] {2L, null})));
        try (Connection c = engine.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT n, name FROM sys.numbers WHERE n > 1")) {
            assertTrue(rs.next());
            assertEquals(2, rs.getLong(1));
            assertEquals(null, rs.getString(2));
        }
    }
}
