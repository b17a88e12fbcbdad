package io.ferry.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The data and queries the zone-map tests share, local and on a cluster: table z of 12,000 rows whose k, d, p, dt, ts
 * and flag columns rise with the row (so each block holds a narrow slice of them), r random with NULLs, n NULL for the
 * first quarter, a run of NULL k in the middle, and both signed zeros in d; table y to join with.
 */
public final class ZoneMapData {
    public static final int ROWS = 12_000;
    /** The columns the tests index. */
    public static final List<String> INDEXED = List.of("k", "d", "p", "dt", "ts", "flag", "r", "n");

    /** Queries whose filters the zone maps can use (and some they cannot), each checked against DuckDB. */
    public static final List<String> QUERIES = List.of(
            "SELECT id FROM z WHERE k = 5000",
            "SELECT id, k FROM z WHERE k < 300",
            "SELECT COUNT(*), SUM(k) FROM z WHERE k BETWEEN 4000 AND 4100",
            "SELECT id FROM z WHERE k IN (1, 7000, 11999, 123456)",
            "SELECT id FROM z WHERE k IN (3, 17, 301, 302, 303, 5000, 8000, 9000, 11000, 11999, NULL)",
            "SELECT id FROM z WHERE k >= 11990 OR k < 5",
            "SELECT id FROM z WHERE k > 5.5 AND k < 20.25",
            "SELECT id FROM z WHERE k < 100 AND r > 50",
            "SELECT id FROM z WHERE k = 3 OR r = 5",
            "SELECT id FROM z WHERE (k < 10 AND r < 50) OR (k > 11995 AND r > 20)",
            "SELECT id FROM z WHERE k IS NULL",
            "SELECT id FROM z WHERE k IS NOT NULL AND k > 11900",
            "SELECT id FROM z WHERE k IS NULL OR k = 42",
            "SELECT id FROM z WHERE k > 30 AND k < 10",
            "SELECT id FROM z WHERE d < -700",
            "SELECT id FROM z WHERE d = 0",
            "SELECT id FROM z WHERE d >= -0.25 AND d <= 0",
            "SELECT id FROM z WHERE d > 0 AND d < 0.3",
            "SELECT id FROM z WHERE d > 100 AND d < 101",
            "SELECT id FROM z WHERE d < 5 AND d > -5",
            "SELECT id FROM z WHERE p BETWEEN 1000.5 AND 1010.0005",
            "SELECT id FROM z WHERE p = 2.002",
            "SELECT id FROM z WHERE p > 11000",
            "SELECT id FROM z WHERE p < 7",
            "SELECT id FROM z WHERE dt BETWEEN DATE '1993-01-01' AND DATE '1993-01-31'",
            "SELECT id FROM z WHERE dt < TIMESTAMP '1992-01-05 12:00:00'",
            "SELECT id FROM z WHERE dt > TIMESTAMP '1995-04-13 00:00:01'",
            "SELECT id FROM z WHERE ts >= TIMESTAMP '2020-01-08 00:00:00' AND ts < TIMESTAMP '2020-01-08 01:00:00'",
            "SELECT id FROM z WHERE flag",
            "SELECT id FROM z WHERE flag = FALSE AND k > 10990",
            "SELECT id FROM z WHERE n IS NULL AND k > 2900",
            "SELECT id FROM z WHERE n IS NOT NULL AND k < 3010",
            "SELECT id FROM z WHERE r BETWEEN 10 AND 12",
            "SELECT id FROM z WHERE r IS NULL",
            "SELECT COUNT(*) FROM z WHERE k > 20000",
            "SELECT r, COUNT(*), SUM(k) FROM z WHERE k < 2000 GROUP BY r",
            "SELECT z.id, y.name FROM z JOIN y ON z.r = y.r WHERE z.k BETWEEN 100 AND 200",
            "SELECT id FROM z WHERE s = 'w3' AND k < 50");

    private ZoneMapData() {
    }

    /** Creates and fills z and y on both connections. */
    public static void load(Connection ferry, Connection duck) throws SQLException {
        both(ferry, duck, "CREATE TABLE z (id INTEGER NOT NULL, k BIGINT, d DOUBLE, p DECIMAL(12,3), dt DATE, "
                + "ts TIMESTAMP, flag BOOLEAN, r INTEGER, n INTEGER, s VARCHAR)");
        both(ferry, duck, "CREATE TABLE y (r INTEGER, name VARCHAR)");
        both(ferry, duck, "INSERT INTO y VALUES (1, 'one'), (11, 'eleven'), (50, 'fifty'), (NULL, 'none')");
        Random rnd = new Random(7);
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            int milli = i * 1001;
            rows.add("(" + i + ", " + (i >= 6000 && i < 6100 ? "NULL" : String.valueOf(i)) + ", "
                    + (i == 6001 ? "CAST('-0.0' AS DOUBLE)" : String.valueOf((i - 6000) / 8.0)) + ", "
                    + String.format("%d.%03d", milli / 1000, milli % 1000) + ", DATE '"
                    + LocalDate.of(1992, 1, 1).plusDays(i / 10) + "', TIMESTAMP '"
                    + LocalDateTime.of(2020, 1, 1, 0, 0).plusMinutes(i).toString().replace('T', ' ') + ":00', "
                    + (i >= 11000 ? "TRUE" : "FALSE") + ", "
                    + (rnd.nextInt(10) == 0 ? "NULL" : String.valueOf(rnd.nextInt(100))) + ", "
                    + (i < 3000 ? "NULL" : String.valueOf(i % 50)) + ", 'w" + (i % 17) + "')");
        }
        for (int from = 0; from < rows.size(); from += 1000) {
            both(ferry, duck, "INSERT INTO z VALUES " + String.join(", ", rows.subList(from, from + 1000)));
        }
    }

    private static void both(Connection ferry, Connection duck, String sql) throws SQLException {
        for (Connection c : List.of(ferry, duck)) {
            try (Statement s = c.createStatement()) {
                s.execute(sql);
            }
        }
    }
}
