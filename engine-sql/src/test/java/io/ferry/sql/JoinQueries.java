package io.ferry.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The rows and queries that check joins on keys compared with {@code IS NOT DISTINCT FROM} and FULL joins against
 * DuckDB, shared by the local test ({@link NullMatchingAndFullJoinsTest}) and the cluster's. Tables {@code ja} and
 * {@code jb} draw every column but {@code id} from a small domain, so keys repeat within a table and between the two,
 * and every column has NULLs; {@code j_empty} has no rows.
 */
public final class JoinQueries {
    private JoinQueries() {
    }

    /** Creates and fills the tables in each connection, the same rows in each. */
    public static void load(Connection... connections) throws SQLException {
        List<String> statements = new ArrayList<>();
        for (String t : List.of("ja", "jb", "j_empty")) {
            statements.add("CREATE TABLE " + t + " (id INTEGER NOT NULL, k INTEGER, b BIGINT, v VARCHAR, c CHAR(2), "
                    + "d DATE, p DECIMAL(10, 2), x DOUBLE)");
        }
        Random rnd = new Random(11);
        int[] sizes = {1200, 800};
        String[] names = {"ja", "jb"};
        for (int t = 0; t < names.length; t++) {
            List<String> rows = new ArrayList<>();
            for (int id = 0; id < sizes[t]; id++) {
                rows.add("(" + id + ", " + nullable(rnd, String.valueOf(rnd.nextInt(40) - 5)) + ", "
                        + nullable(rnd, String.valueOf(rnd.nextInt(12) * 3_000_000_019L)) + ", "
                        + nullable(rnd, "'v" + rnd.nextInt(30) + "'") + ", "
                        + nullable(rnd, "'" + (char) ('a' + rnd.nextInt(5)) + (rnd.nextBoolean() ? "x" : "") + "'")
                        + ", " + nullable(rnd, "DATE '" + LocalDate.of(2000, 2, 20).plusDays(rnd.nextInt(20)) + "'")
                        + ", " + nullable(rnd, (rnd.nextInt(16) - 4) + "." + (rnd.nextBoolean() ? "50" : "25"))
                        + ", " + nullable(rnd, rnd.nextInt(30) == 0 ? "CAST('-0.0' AS DOUBLE)"
                                : (rnd.nextInt(12) / 4.0) + "E0") + ")");
            }
            for (int from = 0; from < rows.size(); from += 400) {
                statements.add("INSERT INTO " + names[t] + " VALUES " + String.join(", ",
                        rows.subList(from, Math.min(rows.size(), from + 400))));
            }
        }
        for (Connection c : connections) {
            try (Statement s = c.createStatement()) {
                for (String sql : statements) {
                    s.execute(sql);
                }
            }
        }
    }

    private static String nullable(Random rnd, String v) {
        return rnd.nextInt(8) == 0 ? "NULL" : v;
    }

    /**
     * Joins on keys compared with IS NOT DISTINCT FROM, alone, several, and beside {@code =} keys, of every type
     * Ferry hashes, for INNER, LEFT and RIGHT joins, EXISTS and NOT EXISTS, with a residual and with an empty side.
     */
    public static List<String> nullMatching() {
        List<String> out = new ArrayList<>();
        List<String> keys = List.of(
                "a.k IS NOT DISTINCT FROM b.k",
                "a.v IS NOT DISTINCT FROM b.v",
                "a.k = b.k AND a.v IS NOT DISTINCT FROM b.v",
                "a.d IS NOT DISTINCT FROM b.d AND a.p IS NOT DISTINCT FROM b.p AND a.c IS NOT DISTINCT FROM b.c",
                "a.x IS NOT DISTINCT FROM b.x AND a.b IS NOT DISTINCT FROM b.b AND a.c = b.c",
                "a.k IS NOT DISTINCT FROM b.k AND a.c IS NOT DISTINCT FROM b.c AND a.x < b.x");
        for (String join : List.of("JOIN", "LEFT JOIN", "RIGHT JOIN")) {
            for (String on : keys) {
                out.add("SELECT a.id, b.id FROM ja a " + join + " jb b ON " + on);
            }
            out.add("SELECT a.id, b.id FROM ja a " + join + " j_empty b ON a.k IS NOT DISTINCT FROM b.k");
            out.add("SELECT a.id, b.id FROM j_empty a " + join + " jb b ON a.v IS NOT DISTINCT FROM b.v "
                    + "AND a.k = b.k");
        }
        // correlated subqueries whose decorrelated join compares the correlation key with IS NOT DISTINCT FROM
        out.add("SELECT a.id FROM ja a WHERE EXISTS (SELECT 1 FROM jb b WHERE b.v IS NOT DISTINCT FROM a.v "
                + "AND b.k IS NOT DISTINCT FROM a.k)");
        out.add("SELECT a.id FROM ja a WHERE NOT EXISTS (SELECT 1 FROM jb b WHERE b.c IS NOT DISTINCT FROM a.c "
                + "AND b.d IS NOT DISTINCT FROM a.d)");
        // TPC-DS q41's shape: a COUNT(*) subquery correlated on a nullable column
        out.add("SELECT DISTINCT a.v FROM ja a WHERE a.id < 300 AND (SELECT COUNT(*) FROM jb b WHERE b.c = a.c "
                + "AND (b.x > 2 OR b.k < 0)) > 0");
        out.add("SELECT a.id, (SELECT COUNT(*) FROM jb b WHERE b.v = a.v AND b.d = a.d) FROM ja a");
        // under an aggregate, and grouped by a key whose NULLs matched
        out.add("SELECT a.v, COUNT(*), SUM(b.p), MIN(a.d) FROM ja a JOIN jb b ON a.v IS NOT DISTINCT FROM b.v "
                + "AND a.k IS NOT DISTINCT FROM b.k GROUP BY a.v");
        return out;
    }

    /**
     * FULL joins: one key and several, of several types, IS NOT DISTINCT FROM keys, residual conditions on both
     * sides and on either, empty sides, USING, nested, under aggregates and grouped, filtered and limited.
     */
    public static List<String> full() {
        List<String> out = new ArrayList<>();
        for (String on : List.of(
                "a.k = b.k",
                "a.k = b.k AND a.v = b.v",
                "a.d = b.d AND a.p = b.p AND a.c = b.c",
                "a.x = b.x AND a.b = b.b",
                "a.k IS NOT DISTINCT FROM b.k AND a.c = b.c",
                "a.v IS NOT DISTINCT FROM b.v AND a.d IS NOT DISTINCT FROM b.d",
                "a.k = b.k AND a.x > b.x",
                "a.k = b.k AND b.x > 1",
                "a.k = b.k AND a.x > 1",
                "a.v = b.v AND (a.id < 100 OR b.p < 0)")) {
            out.add("SELECT a.id, a.k, b.id, b.k FROM ja a FULL JOIN jb b ON " + on);
        }
        out.add("SELECT a.id, b.id FROM ja a FULL JOIN j_empty b ON a.k = b.k");
        out.add("SELECT a.id, b.id FROM j_empty a FULL JOIN jb b ON a.k = b.k AND a.x > b.x");
        out.add("SELECT a.id, b.id FROM j_empty a FULL JOIN j_empty b ON a.k = b.k");
        out.add("SELECT k, a.id, b.id FROM ja a FULL JOIN jb b USING (k)");
        out.add("SELECT a.id, b.id, c.id FROM ja a FULL JOIN jb b ON a.k = b.k AND a.c = b.c "
                + "FULL JOIN (SELECT * FROM ja WHERE id % 3 = 0) c ON b.v = c.v AND b.d = c.d");
        out.add("SELECT a.id, b.id, c.id FROM ja a FULL JOIN jb b ON a.k = b.k AND a.c = b.c "
                + "LEFT JOIN jb c ON COALESCE(a.v, b.v) = c.v AND c.id < 50");
        // TPC-DS q97's shape: distinct pairs of each side, counted by which side they came from
        out.add("SELECT SUM(CASE WHEN a.k IS NOT NULL AND b.k IS NULL THEN 1 ELSE 0 END), "
                + "SUM(CASE WHEN a.k IS NULL AND b.k IS NOT NULL THEN 1 ELSE 0 END), "
                + "SUM(CASE WHEN a.k IS NOT NULL AND b.k IS NOT NULL THEN 1 ELSE 0 END) "
                + "FROM (SELECT k, v FROM ja GROUP BY k, v) a FULL JOIN (SELECT k, v FROM jb GROUP BY k, v) b "
                + "ON a.k = b.k AND a.v = b.v");
        // TPC-DS q51's shape: the keys of either side, then a filter no NULL-padded row passes on its own
        out.add("SELECT COALESCE(a.k, b.k), COUNT(*), COUNT(a.id), COUNT(b.id), SUM(a.x + b.x), MAX(b.p) "
                + "FROM ja a FULL JOIN jb b ON a.k = b.k AND a.c = b.c GROUP BY COALESCE(a.k, b.k)");
        out.add("SELECT CASE WHEN a.k IS NOT NULL THEN a.k ELSE b.k END kk, a.s, b.s FROM "
                + "(SELECT k, SUM(x) s FROM ja GROUP BY k) a FULL JOIN (SELECT k, SUM(x) s FROM jb GROUP BY k) b "
                + "ON a.k = b.k WHERE COALESCE(a.s, 0) > COALESCE(b.s, 0) "
                + "ORDER BY kk NULLS FIRST, a.s NULLS FIRST LIMIT 20");
        out.add("SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k = b.k AND a.v = b.v WHERE a.x > 1");
        out.add("SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k = b.k AND a.v = b.v "
                + "ORDER BY a.id NULLS FIRST, b.id NULLS FIRST LIMIT 30");
        out.add("SELECT COUNT(*) FROM ja a FULL JOIN jb b ON a.k = b.k");
        return out;
    }

    /**
     * FULL joins with no equality between the sides: their LEFT and ANTI halves run in Calcite's row engine as
     * nested loops, which must still answer right.
     */
    /**
     * INNER, LEFT, semi and anti joins without an equality — cross joins and joins on inequalities — which Ferry runs
     * as a hash join on a constant key with the condition as its residual: NULLs in the compared columns, empty
     * sides, under aggregates.
     */
    public static List<String> withoutEquality() {
        return List.of(
                "SELECT a.id, b.id FROM ja a JOIN jb b ON a.x < b.x AND a.id < 60 AND b.id < 60",
                "SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k > b.k + 30",
                "SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.d < b.d AND b.id < 5",
                "SELECT COUNT(*), SUM(a.k * b.k), MIN(a.v || b.v) FROM ja a CROSS JOIN jb b",
                "SELECT a.id, b.id FROM ja a, jb b WHERE a.id < 3 AND b.id < 4",
                "SELECT a.id FROM ja a WHERE EXISTS (SELECT 1 FROM jb b WHERE b.x > a.x + 2)",
                "SELECT a.id FROM ja a WHERE NOT EXISTS (SELECT 1 FROM jb b WHERE b.d > a.d)",
                "SELECT a.id, b.id FROM j_empty a JOIN jb b ON a.x < b.x",
                "SELECT a.id, b.id FROM ja a LEFT JOIN j_empty b ON a.k < b.k",
                "SELECT a.v, COUNT(b.id) FROM ja a LEFT JOIN jb b ON a.p > b.p + 9 GROUP BY a.v",
                "SELECT a.id, b.id FROM ja a RIGHT JOIN jb b ON a.k > b.k + 30",
                "SELECT a.id, b.id FROM ja a RIGHT JOIN jb b ON a.d < b.d AND a.id < 5",
                // a RIGHT join with more than equalities, made by the planner from a FULL join filtered on one side
                // (fuzzer seed 2001, query 1304: it ran in the row engine, and everything above it)
                "SELECT a1.id, a2.id FROM ja a0 RIGHT JOIN jb a1 ON a0.k = a1.k FULL JOIN jb a2 ON a0.k = a2.k "
                        + "AND a0.v IN ('v3') WHERE EXISTS (SELECT 1 FROM ja b0) AND a1.x > 2");
    }

    public static List<String> fullWithoutEquality() {
        return List.of(
                "SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.id < b.id - 790",
                "SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k = b.k OR a.id = b.id + 1195",
                "SELECT a.id, b.id FROM ja a FULL JOIN j_empty b ON FALSE");
    }
}
