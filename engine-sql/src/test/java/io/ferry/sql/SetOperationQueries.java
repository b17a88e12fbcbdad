package io.ferry.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The rows and queries that check UNION, INTERSECT and EXCEPT, with and without ALL, against DuckDB, shared by the
 * local test ({@link SetOperationsTest}) and the cluster's. Tables {@code sa}, {@code sb} and {@code sc} draw their
 * values from small domains, so rows repeat within a table and between tables, and every column has NULLs; their
 * columns' types differ in pairs (INTEGER and BIGINT, DECIMAL(10, 2) and DECIMAL(12, 4), CHAR and VARCHAR, DATE and
 * TIMESTAMP); {@code s_empty} has no rows.
 */
public final class SetOperationQueries {
    private SetOperationQueries() {
    }

    /** Creates and fills the tables in each connection, the same rows in each. */
    public static void load(Connection... connections) throws SQLException {
        List<String> statements = new ArrayList<>();
        for (String t : List.of("sa", "sb", "sc", "s_empty")) {
            statements.add("CREATE TABLE " + t + " (id INTEGER, i INTEGER, b BIGINT, p DECIMAL(10, 2), "
                    + "q DECIMAL(12, 4), c CHAR(3), v VARCHAR, d DATE, t TIMESTAMP, x DOUBLE)");
        }
        Random rnd = new Random(42);
        int[] sizes = {3000, 2000, 500};
        String[] names = {"sa", "sb", "sc"};
        for (int t = 0; t < names.length; t++) {
            List<String> rows = new ArrayList<>();
            for (int id = 0; id < sizes[t]; id++) {
                rows.add("(" + id + ", " + nullable(rnd, String.valueOf(rnd.nextInt(40) - 10)) + ", "
                        + nullable(rnd, String.valueOf(rnd.nextInt(30) * 1_000_000_007L)) + ", "
                        + nullable(rnd, (rnd.nextInt(20) - 5) + "." + (rnd.nextBoolean() ? "50" : "25")) + ", "
                        + nullable(rnd, (rnd.nextInt(20) - 5) + "." + (rnd.nextBoolean() ? "5000" : "2501")) + ", "
                        + nullable(rnd, "'" + (char) ('a' + rnd.nextInt(4)) + (rnd.nextBoolean() ? "x" : "") + "'")
                        + ", " + nullable(rnd, "'" + (char) ('a' + rnd.nextInt(4)) + (rnd.nextBoolean() ? "x" : "yz")
                                + "'") + ", "
                        + nullable(rnd, "DATE '" + LocalDate.of(1999, 12, 25).plusDays(rnd.nextInt(15)) + "'") + ", "
                        + nullable(rnd, "TIMESTAMP '" + LocalDate.of(1999, 12, 25).plusDays(rnd.nextInt(15))
                                + (rnd.nextInt(3) == 0 ? " 12:30:00'" : " 00:00:00'")) + ", "
                        + nullable(rnd, rnd.nextInt(25) == 0 ? "CAST('-0.0' AS DOUBLE)" : (rnd.nextInt(8) / 4.0) + "E0")
                        + ")");
            }
            for (int from = 0; from < rows.size(); from += 500) {
                statements.add("INSERT INTO " + names[t] + " VALUES " + String.join(", ",
                        rows.subList(from, Math.min(rows.size(), from + 500))));
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
        return rnd.nextInt(10) == 0 ? "NULL" : v;
    }

    /** Queries whose answers are compared as multisets (or in order, where they sort every column). */
    public static List<String> queries() {
        List<String> out = new ArrayList<>();
        for (String op : List.of("UNION ALL", "UNION", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL")) {
            // one column, several, every type; NULLs and duplicates in all
            out.add("SELECT i FROM sa " + op + " SELECT i FROM sb");
            out.add("SELECT i, c FROM sa WHERE id % 3 = 0 " + op + " SELECT i, c FROM sb WHERE id % 2 = 0");
            out.add("SELECT i, b, p, c, v, d, t, x FROM sa " + op + " SELECT i, b, p, c, v, d, t, x FROM sb");
            // the types differ between the inputs: INTEGER and BIGINT, DECIMAL scales, CHAR and VARCHAR, DATE and
            // TIMESTAMP, INTEGER and DOUBLE, INTEGER and DECIMAL
            out.add("SELECT i, p, c, d FROM sa " + op + " SELECT b / 1000000007, q, v, t FROM sb");
            out.add("SELECT b, q, v, t FROM sa " + op + " SELECT i, p, c, d FROM sb");
            out.add("SELECT x, p FROM sa " + op + " SELECT i, i FROM sb");
            // empty inputs, on either side and both
            out.add("SELECT i, v FROM sa " + op + " SELECT i, v FROM s_empty");
            out.add("SELECT i, v FROM s_empty " + op + " SELECT i, v FROM sa");
            out.add("SELECT i, v FROM s_empty " + op + " SELECT i, v FROM s_empty");
            // three inputs, which Calcite merges into one operator
            out.add("SELECT i, c FROM sa " + op + " SELECT i, c FROM sb " + op + " SELECT i, c FROM sc");
            // under an aggregate, a join, ORDER BY with LIMIT
            out.add("SELECT c, COUNT(*), COUNT(i), SUM(i), MIN(d) FROM (SELECT i, c, d FROM sa " + op
                    + " SELECT i, c, d FROM sb) u GROUP BY c");
            out.add("SELECT COUNT(*), COUNT(DISTINCT i) FROM (SELECT i, v FROM sa " + op + " SELECT i, v FROM sc) u");
            out.add("SELECT u.i, u.v, s.id FROM (SELECT i, v FROM sb " + op + " SELECT i, v FROM sc) u "
                    + "JOIN sc s ON s.i = u.i AND s.v = u.v WHERE s.id < 100");
            out.add("SELECT s.id, s.i FROM sa s JOIN (SELECT i FROM sb " + op + " SELECT i FROM sc) u ON s.i = u.i "
                    + "WHERE s.id < 300");
            out.add("SELECT i, v FROM sa " + op + " SELECT i, v FROM sb ORDER BY i NULLS LAST, v NULLS LAST "
                    + "LIMIT 7");
            // in scalar subqueries
            out.add("SELECT (SELECT COUNT(*) FROM (SELECT i, v FROM sa " + op + " SELECT i, v FROM sb) u), "
                    + "(SELECT SUM(x) FROM (SELECT x FROM sa " + op + " SELECT x FROM sc) w)");
        }
        // nested, mixed operators; ALL over distinct and distinct over ALL
        out.add("(SELECT i, c FROM sa UNION SELECT i, c FROM sb) EXCEPT SELECT i, c FROM sc");
        out.add("(SELECT i, c FROM sa EXCEPT ALL SELECT i, c FROM sb) EXCEPT ALL SELECT i, c FROM sc");
        out.add("SELECT i, c FROM sa EXCEPT ALL (SELECT i, c FROM sb EXCEPT ALL SELECT i, c FROM sc)");
        out.add("(SELECT i FROM sa EXCEPT SELECT i FROM sb) UNION ALL (SELECT i FROM sb INTERSECT ALL "
                + "SELECT i FROM sa)");
        out.add("SELECT i, v FROM sa INTERSECT ALL (SELECT i, v FROM sb UNION ALL SELECT i, v FROM sc)");
        out.add("(SELECT i FROM sa UNION ALL SELECT i FROM sa) INTERSECT ALL (SELECT i FROM sb UNION ALL SELECT i "
                + "FROM sb UNION ALL SELECT i FROM sb)");
        out.add("(SELECT i FROM sa UNION ALL SELECT i FROM sa UNION ALL SELECT i FROM sc) EXCEPT ALL SELECT i FROM sb");
        out.add("SELECT DISTINCT c FROM (SELECT c FROM sa UNION ALL SELECT v FROM sb UNION ALL SELECT 'zz') u");
        // an aggregate as an input, and literals
        out.add("SELECT c, COUNT(*) FROM sa GROUP BY c UNION ALL SELECT v, SUM(i) FROM sb GROUP BY v");
        out.add("SELECT c, MAX(i) FROM sa GROUP BY c INTERSECT SELECT c, MAX(i) FROM sb GROUP BY c");
        out.add("SELECT 1, 'a' UNION ALL SELECT 2, 'bc' UNION ALL SELECT i, v FROM sc WHERE id < 20");
        out.add("SELECT i FROM sa WHERE id < 50 EXCEPT SELECT 3 EXCEPT SELECT NULL");
        return out;
    }

    /**
     * Set operations in IN and EXISTS subqueries. A correlated EXISTS runs in the row engine once decorrelated (its
     * joins compare with IS NOT DISTINCT FROM, which Ferry's hash join does not take as keys), set operation and all.
     */
    public static List<String> subqueries() {
        List<String> out = new ArrayList<>();
        for (String op : List.of("UNION ALL", "UNION", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL")) {
            out.add("SELECT id FROM sc WHERE i IN (SELECT i FROM sa WHERE id < 500 " + op
                    + " SELECT i FROM sb WHERE id < 200)");
            out.add("SELECT id FROM sc s WHERE EXISTS (SELECT v FROM sa WHERE sa.i = s.i AND sa.id < 300 " + op
                    + " SELECT v FROM sb WHERE sb.i = s.i AND sb.id < 100)");
        }
        return out;
    }
}
