package io.ferry.server.cluster;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Two tables and a view loaded by several statements, and the queries whose answers must not change when a cluster's
 * nodes do (a coordinator restarted, a memory server lost): for the tests that restart or kill them.
 */
final class ClusterTables {
    static final String[] QUERIES = {
        "SELECT COUNT(*), SUM(k), COUNT(DISTINCT s), SUM(d), MIN(s), MAX(k) FROM t",
        "SELECT g, COUNT(*), SUM(d) FROM t GROUP BY g ORDER BY g",
        "SELECT COUNT(*), SUM(x) FROM u",
        "SELECT t.g, COUNT(*), SUM(u.x) FROM t JOIN u ON t.k = u.x GROUP BY t.g ORDER BY t.g",
        "SELECT * FROM v ORDER BY g",
    };

    private ClusterTables() {
    }

    /** Table t (23,001 rows: numbers, strings, decimals, a non-ASCII one), table u (500 keys) and view v. */
    static void load(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t AS SELECT generate_series AS k, generate_series % 37 AS g, "
                    + "'name ' || CAST(generate_series % 501 AS VARCHAR) AS s, "
                    + "CAST(generate_series % 1000 AS DECIMAL(12, 2)) / 8 AS d FROM generate_series(1, 20000)");
            s.execute("INSERT INTO t SELECT k + 20000, g, s, d FROM t WHERE k <= 3000");
            s.execute("INSERT INTO t VALUES (-1, 0, 'Zürich ✓', 0.5)");
            s.execute("CREATE TABLE u (x INTEGER PRIMARY KEY)");
            s.execute("INSERT INTO u SELECT generate_series FROM generate_series(1, 500)");
            s.execute("CREATE VIEW v AS SELECT g, COUNT(*) AS n FROM t GROUP BY g");
        }
    }

    /** Every query's rows as text, in function and in data shipping. */
    static List<String> answers(Coordinator c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection conn = c.engine().connect(); Statement s = conn.createStatement()) {
            for (String mode : List.of("function", "data")) {
                s.execute("SET shipping = '" + mode + "'");
                for (String q : QUERIES) {
                    StringBuilder rows = new StringBuilder();
                    try (ResultSet rs = s.executeQuery(q)) {
                        int n = rs.getMetaData().getColumnCount();
                        while (rs.next()) {
                            for (int i = 1; i <= n; i++) {
                                rows.append(rs.getString(i)).append(i < n ? "|" : "\n");
                            }
                        }
                    }
                    out.add(q + "\n" + rows);
                }
            }
        }
        return out;
    }
}
