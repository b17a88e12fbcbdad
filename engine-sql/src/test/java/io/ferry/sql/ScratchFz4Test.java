package io.ferry.sql;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;

import org.junit.jupiter.api.Test;

class ScratchFz4Test {
    @Test
    void run() throws Exception {
        try (FerryAndDuckDb both = FerryAndDuckDb.start()) {
            both.executeOnBoth("CREATE TABLE t1 (id INTEGER NOT NULL, k INTEGER, g VARCHAR, i INTEGER, b BIGINT, "
                    + "d DOUBLE, p DECIMAL(12,2), dt DATE, ts TIMESTAMP, s VARCHAR, f BOOLEAN, ei INTEGER, "
                    + "eb BIGINT, ed DOUBLE)",
                    "INSERT INTO t1 VALUES (1, 1, 'a', 1, 2, 1.5, 1.25, DATE '2000-01-01', TIMESTAMP '2000-01-01 "
                    + "10:11:12', 'x', TRUE, 3, 4, 0.5), (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
                    + "NULL, NULL, NULL, NULL), (3, 2, 'b', -1, -2, -0.5, 3.5, DATE '1999-03-04', "
                    + "TIMESTAMP '1999-03-04 00:00:00', '', FALSE, 7, 8, 9.5)");
            both.executeOnBoth("CREATE TABLE t2 AS SELECT * FROM t1", "CREATE TABLE t0 AS SELECT * FROM t1");
            for (String sql : Files.readString(Path.of("/tmp/fz4/q.sql")).split(";\n")) {
                if (sql.isBlank()) {
                    continue;
                }
                System.out.println("=== " + sql);
                for (var c : new java.sql.Connection[] {both.ferry(), both.duck()}) {
                    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                        StringBuilder out = new StringBuilder();
                        while (rs.next()) {
                            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                                out.append(rs.getString(i)).append(i < rs.getMetaData().getColumnCount() ? "|" : "\n");
                            }
                        }
                        System.out.println((c == both.ferry() ? "FERRY:\n" : "DUCK:\n") + out);
                    } catch (Exception | AssertionError e) {
                        System.out.println((c == both.ferry() ? "FERRY ERR: " : "DUCK ERR: ") + e);
                        if (c == both.ferry()) {
                            Throwable t = e;
                            while (t.getCause() != null) {
                                t = t.getCause();
                            }
                            t.printStackTrace(System.out);
                        }
                    }
                }
                try (Statement s = both.ferry().createStatement();
                        ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
                    while (rs.next()) {
                        System.out.println(rs.getString(1));
                    }
                } catch (Exception | AssertionError e) {
                    System.out.println("EXPLAIN ERR " + e);
                }
            }
        }
    }
}
