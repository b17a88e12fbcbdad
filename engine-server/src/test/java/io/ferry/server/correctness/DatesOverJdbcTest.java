package io.ferry.server.correctness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.ferry.server.jdbc.JdbcServer;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;

/**
 * Dates and timestamps far from today, through the stock Avatica driver against a real server, read as DuckDB
 * reads them: both count in the proleptic Gregorian calendar, so a date before 1582-10-15 must not move (it came
 * back ten days late, read through {@code java.sql.Date}'s Julian milliseconds).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatesOverJdbcTest {
    private static final String[] DAYS = {"0001-01-01", "1200-02-29", "1500-03-01", "1582-10-04", "1582-10-15",
        "1600-02-29", "1899-12-31", "1969-12-31", "1970-01-01", "2024-02-29", "2999-12-31", "9999-12-31"};

    private FerryEngine engine;
    private JdbcServer server;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void start() throws Exception {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2));
        server = JdbcServer.start(engine, "127.0.0.1", 0, List.of());
        ferry = DriverManager.getConnection(server.avaticaUrl());
        duck = DriverManager.getConnection("jdbc:duckdb:");
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < DAYS.length; i++) {
            rows.add("(" + i + ", DATE '" + DAYS[i] + "', TIMESTAMP '" + DAYS[i] + " 13:14:15.678')");
        }
        for (Connection c : List.of(ferry, duck)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE days (i INTEGER, d DATE, ts TIMESTAMP)");
                s.execute("INSERT INTO days VALUES " + String.join(", ", rows));
            }
        }
    }

    @AfterAll
    void stop() throws Exception {
        ferry.close();
        duck.close();
        server.close();
        engine.close();
    }

    @Test
    void storedDatesAndTimestampsReadAsDuckDbReadsThem() throws SQLException {
        String sql = "SELECT i, d, ts, EXTRACT(YEAR FROM d), EXTRACT(DOY FROM d) FROM days ORDER BY i";
        assertEquals(read(duck, sql), read(ferry, sql));
    }

    @Test
    void literalsBeforeTheGregorianReformKeepTheirDay() throws SQLException {
        String sql = "SELECT DATE '1500-03-01', TIMESTAMP '1000-01-01 12:00:00' FROM days WHERE i = 0";
        assertEquals(read(duck, sql), read(ferry, sql));
    }

    @Test
    void dateParametersKeepTheirDay() throws SQLException {
        try (PreparedStatement p = ferry.prepareStatement("SELECT i FROM days WHERE d = ?")) {
            for (int i = 0; i < DAYS.length; i++) {
                p.setDate(1, java.sql.Date.valueOf(java.time.LocalDate.parse(DAYS[i])));
                try (ResultSet rs = p.executeQuery()) {
                    assertTrue(rs.next(), DAYS[i] + " found");
                    assertEquals(i, rs.getInt(1), DAYS[i]);
                }
            }
        }
    }

    /** Each value as the ISO text of the LocalDate or LocalDateTime the driver's getDate/getTimestamp give. */
    private static List<String> read(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    int type = rs.getMetaData().getColumnType(i);
                    Object v = type == java.sql.Types.DATE ? rs.getDate(i).toLocalDate()
                            : type == java.sql.Types.TIMESTAMP ? rs.getTimestamp(i).toLocalDateTime()
                            : rs.getLong(i);
                    row.append(v).append('|');
                }
                out.add(row.toString());
            }
        }
        return out;
    }
}
