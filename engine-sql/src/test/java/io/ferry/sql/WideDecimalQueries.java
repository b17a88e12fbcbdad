package io.ferry.sql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * DECIMAL values past 18 digits (Ferry's 128-bit {@code WideDecimal}) and the queries that check every operation on
 * them against DuckDB's HUGEINT-backed DECIMALs, shared by the local test ({@link DecimalTypesTest}) and the
 * cluster's. Table {@code h} holds hand-picked edges (the largest BIGINT, 2^64, 32 and 33 integral digits, NULLs);
 * {@code hw} 3000 generated rows of every magnitude up to 30 digits, so that a cluster splits them between workers.
 */
public final class WideDecimalQueries {
    private WideDecimalQueries() {
    }

    /** Creates and fills {@code h} and {@code hw} in each connection, the same rows in each. */
    public static void load(Connection... connections) throws SQLException {
        List<String> statements = new ArrayList<>(List.of(
                "CREATE TABLE h (id INTEGER, k INTEGER, a DECIMAL(38, 2), b DECIMAL(20, 0), c DECIMAL(18, 4), "
                        + "i BIGINT)",
                "INSERT INTO h VALUES "
                        + "(1, 1, 123456789012345678901234567890123.45, 99999999999999999999, 99999999999999.9999, "
                        + "9223372036854775807), "
                        + "(2, 1, -123456789012345678901234567890123.40, -12345678901234567890, -0.0001, "
                        + "-9223372036854775807), "
                        + "(3, 2, NULL, NULL, NULL, NULL), "
                        + "(4, 2, 0.01, 1, 12345678901234.5678, 9000000000000000000), "
                        + "(5, 3, 99999999999999999999999999999999.99, 10000000000000000000, -99999999999999.9999, "
                        + "9000000000000000000), "
                        + "(6, 3, -0.01, 0, 0, -1), "
                        + "(7, 4, 18446744073709551616.00, 18446744073709551615, 1.5, 2)",
                "CREATE TABLE hw (id INTEGER, g INTEGER, a DECIMAL(38, 2), b DECIMAL(20, 0), c DECIMAL(18, 4))"));
        Random rnd = new Random(38);
        StringBuilder rows = new StringBuilder();
        for (int id = 0; id < 3000; id++) {
            rows.append(id == 0 ? "" : ", ").append('(').append(id).append(", ").append(rnd.nextInt(20)).append(", ")
                    .append(value(rnd, 30, 2)).append(", ").append(value(rnd, 20, 0)).append(", ")
                    .append(value(rnd, 18, 4)).append(')');
        }
        statements.add("INSERT INTO hw VALUES " + rows);
        for (Connection c : connections) {
            try (Statement s = c.createStatement()) {
                for (String sql : statements) {
                    s.execute(sql);
                }
            }
        }
    }

    /** A DECIMAL of up to {@code digits} digits, {@code scale} of them after the point; one in 17 is NULL. */
    private static String value(Random rnd, int digits, int scale) {
        if (rnd.nextInt(17) == 0) {
            return "NULL";
        }
        int d = 1 + rnd.nextInt(digits);
        BigInteger v = new BigInteger(d * 4, rnd).mod(BigInteger.TEN.pow(d));
        return new BigDecimal(rnd.nextBoolean() ? v : v.negate(), scale).toPlainString();
    }

    public static List<String> queries() {
        return List.of(
                "SELECT * FROM h",
                "SELECT id, a + b, a - c, b * c, CAST(c AS DECIMAL(19, 4)) * c, -a, ABS(a), SIGN(a), SIGN(b) FROM h",
                "SELECT SUM(a), SUM(b), SUM(c), SUM(c * CAST(c AS DECIMAL(19, 4))), AVG(a), AVG(b), AVG(i), MIN(a), "
                        + "MAX(b), COUNT(DISTINCT a), COUNT(*) FROM h",
                "SELECT k, SUM(a), SUM(b * c), AVG(c), MIN(b), MAX(a) FROM h GROUP BY k",
                "SELECT k FROM h GROUP BY k HAVING SUM(b) > 10000000000000000000",
                "SELECT b, COUNT(*) FROM h GROUP BY b",
                "SELECT DISTINCT a FROM h",
                "SELECT x.id, y.id FROM h x JOIN h y ON x.b = y.b",
                "SELECT x.id, y.id FROM h x JOIN h y ON x.a = y.c",
                "SELECT id FROM h WHERE a > 123456789012345678901234567890123.44",
                "SELECT id FROM h WHERE a BETWEEN -1 AND 100000000000000000000000000000000",
                "SELECT id FROM h WHERE b IN (99999999999999999999, 1, -12345678901234567890)",
                "SELECT id FROM h WHERE b NOT IN (99999999999999999999, 1)",
                "SELECT id FROM h WHERE b = 18446744073709551615 OR a < 0",
                "SELECT id FROM h WHERE i > b",
                "SELECT id, CAST(a AS VARCHAR), CAST(b AS VARCHAR), CAST(a AS DOUBLE), CAST(c AS DECIMAL(38, 10)) "
                        + "FROM h",
                "SELECT id, CAST(i AS DECIMAL(38, 0)) * 10, CAST(c AS DECIMAL(20, 2)), CAST(a AS DECIMAL(36, 0)) "
                        + "FROM h",
                "SELECT CAST('12345678901234567890.5' AS DECIMAL(30, 1)), CAST(-1.25E20 AS DECIMAL(30, 2)), "
                        + "CAST(12345678901234567890.55 AS DOUBLE)",
                "SELECT id, ROUND(a, 1), ROUND(a, -30), ROUND(a, -3), TRUNC(b, -3), TRUNC(a), CEIL(a), FLOOR(a), "
                        + "CEIL(b) FROM h",
                "SELECT id, a / NULLIF(b, 0), MOD(b, 7), MOD(a, 1000.5) FROM h",
                "SELECT id, SUM(a) OVER (PARTITION BY k ORDER BY id), "
                        + "SUM(c) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), "
                        + "MAX(b) OVER (PARTITION BY k) FROM h",
                "SELECT STDDEV_SAMP(a), VAR_POP(b), CORR(a, b), COVAR_POP(b, c) FROM h",
                "SELECT id, COALESCE(a, b), CASE WHEN k > 1 THEN a ELSE b END, NULLIF(b, 1) FROM h",
                "SELECT a FROM h UNION SELECT b FROM h",
                "SELECT 12345678901234567890123456789.123 * 2, 99999999999999999999 + 1, "
                        + "-123456789012345678901234567890",
                "SELECT id, b FROM h ORDER BY b DESC NULLS FIRST, id LIMIT 4",
                // thousands of rows, split between workers on a cluster
                "SELECT g, SUM(a), SUM(b), SUM(c), SUM(b * c), AVG(a), MIN(a), MAX(b), COUNT(DISTINCT b) FROM hw "
                        + "GROUP BY g",
                "SELECT b, COUNT(*), SUM(a) FROM hw GROUP BY b HAVING COUNT(*) > 1",
                "SELECT id, a FROM hw ORDER BY a DESC NULLS LAST, id LIMIT 25",
                "SELECT x.id, y.id, x.b FROM hw x JOIN hw y ON x.b = y.b AND x.id < y.id",
                "SELECT hw.id, h.id FROM hw JOIN h ON hw.c = h.c",
                "SELECT COUNT(*), SUM(a * 10), SUM(a - b) FROM hw WHERE a > b",
                "SELECT id, SUM(a) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) "
                        + "FROM hw",
                "SELECT g, MEDIAN(a), PERCENTILE_DISC(0.25) WITHIN GROUP (ORDER BY b), "
                        + "PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY a) FROM hw GROUP BY g",
                "SELECT id, LAG(a) OVER (ORDER BY id), FIRST_VALUE(b) OVER (PARTITION BY k ORDER BY id), "
                        + "MIN(a) OVER (PARTITION BY k) FROM h",
                "SELECT g, STRING_AGG(CAST(b AS VARCHAR), ',' ORDER BY b, id) FROM hw WHERE id < 200 GROUP BY g",
                "SELECT g, COUNT(*) FROM hw GROUP BY g HAVING MAX(a) > 1000000000000000000000");
    }
}
