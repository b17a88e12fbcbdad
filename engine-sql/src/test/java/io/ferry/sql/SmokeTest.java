package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import org.junit.jupiter.api.Test;

class SmokeTest {
    @Test
    void createInsertSelect() throws Exception {
        try (FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(2))) {
            try (Connection c = engine.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (a BIGINT NOT NULL, b VARCHAR, c DECIMAL(10,2), d DATE)");
                assertEquals(3, s.executeUpdate("INSERT INTO t VALUES (1, 'x', 1.50, DATE '2020-01-01'), (2, 'y', NULL, NULL), (3, 'x', 2.25, DATE '2021-06-30')"));
                try (ResultSet rs = s.executeQuery("SELECT b, COUNT(*), SUM(a), SUM(c), MAX(d) FROM t GROUP BY b ORDER BY b")) {
                    while (rs.next()) {
                        System.out.println(rs.getString(1) + " " + rs.getLong(2) + " " + rs.getLong(3) + " " + rs.getBigDecimal(4) + " " + rs.getString(5));
                    }
                }
                try (ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR SELECT b, COUNT(*) FROM t WHERE a > 1 GROUP BY b")) {
                    while (rs.next()) {
                        System.out.println(rs.getString(1));
                    }
                }
            }
        }
    }
}
