package io.ferry.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The rows and queries that check window functions against DuckDB, shared by the local test
 * ({@link WindowFunctionsTest}) and the cluster's. Table {@code wn} has NULLs in partition and order keys, peers
 * (equal order keys, -0.0 beside 0.0), one-row partitions, BIGINTs near the limit, DOUBLE, DECIMAL, DATE and VARCHAR
 * values; {@code wn_empty} has no rows; {@code wn_big} has a few thousand rows in hundreds of partitions.
 */
public final class WindowQueries {
    private WindowQueries() {
    }

    /** Creates and fills the tables in each connection, the same rows in each. */
    public static void load(Connection... connections) throws SQLException {
        for (Connection c : connections) {
            try (Statement s = c.createStatement()) {
                for (String sql : STATEMENTS) {
                    s.execute(sql);
                }
            }
        }
    }

    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE wn (id INTEGER NOT NULL, g INTEGER, o INTEGER, b BIGINT, x DOUBLE, p DECIMAL(12, 2), "
                    + "d DATE, s VARCHAR)",
            "INSERT INTO wn VALUES "
                    + "(1, 1, 10, 5, 1.5, 10.25, DATE '2024-01-01', 'b'), "
                    + "(2, 1, 10, -3, CAST('-0.0' AS DOUBLE), 3.10, DATE '2024-01-02', 'a'), "
                    + "(3, 1, 20, NULL, 0.0, NULL, NULL, NULL), "
                    + "(4, 1, NULL, 7, -2.25, -4.50, DATE '2023-12-31', 'zz'), "
                    + "(5, 2, 5, 100, NULL, 0.01, DATE '2024-02-29', 'Zürich'), "
                    + "(6, NULL, 1, 1, 3.0, 1.00, DATE '1999-12-31', 'x'), "
                    + "(7, NULL, 1, 2, 4.0, 2.00, DATE '2000-01-01', 'y'), "
                    + "(8, NULL, NULL, NULL, NULL, NULL, NULL, NULL), "
                    + "(9, 3, 7, 9000000000000000000, 1e300, 99999.99, DATE '1970-01-01', 'é'), "
                    + "(10, 3, 7, 8, -1e300, -99999.99, DATE '1969-12-31', 'e'), "
                    // 2e300, not a small number: beside 1e300 and -1e300 a small one vanished or not by the order
                    // of the additions, which a cluster's gathering changes (AVG(x) 0.0 against 0.333)
                    + "(11, 3, 8, -9, 2e300, 5.55, DATE '2024-03-01', 'E'), "
                    + "(12, 4, 0, 0, 0.0, 0.00, DATE '2024-01-01', ''), "
                    + "(13, 1, 20, 11, 0.5, 7.75, DATE '2024-01-05', 'c'), "
                    + "(14, 1, 10, 4, CAST('-0.0' AS DOUBLE), 1.00, DATE '2024-01-03', 'b')",
            "CREATE TABLE wn_empty (id INTEGER NOT NULL, g INTEGER, o INTEGER, b BIGINT)",
            "CREATE TABLE wn_dec (id INTEGER NOT NULL, g INTEGER, p DECIMAL(12, 3))",
            "INSERT INTO wn_dec VALUES (1, 1, 12.345), (2, 1, 12.345), (3, 1, 12.345), (4, 1, 12.345), "
                    + "(5, 2, 0.1), (6, 2, 0.2), (7, 2, 0.3), (8, 3, 1.005), (9, 3, 1.005), (10, 3, 1.005)",
            // a few thousand rows in hundreds of partitions, with peers: every pair of rows of w, twelve times
            "CREATE TABLE wn_big (id INTEGER NOT NULL, g INTEGER, o INTEGER, b BIGINT, x DOUBLE, s VARCHAR)",
            "INSERT INTO wn_big SELECT u.id * 10000 + v.id * 100 + t.id, u.id * 20 + v.id, (u.id * 7 + t.id) % 5, "
                    + "u.id * v.id - t.id, CAST(t.id AS DOUBLE) / 4 - u.id, CAST(v.id + u.id AS VARCHAR) "
                    + "FROM wn u, wn v, wn t WHERE t.id <= 12");

    /**
     * Ranking, aggregate and value functions over every kind of frame Ferry computes, several windows in one SELECT,
     * and windows under joins, over aggregates and below ORDER BY ... LIMIT (the only ones whose order is asserted).
     * Where DuckDB and Ferry (as PostgreSQL) place NULLs differently by default, under DESC, the order says where.
     */
    public static List<String> queries() {
        return List.of(
                // the average of a DECIMAL divides its unscaled sum once, as DuckDB's: 12.345 three times averaged
                // 12.344999999999999 when the sum was cast to DOUBLE first (fuzzer, seed 83 query 853)
                "SELECT DISTINCT AVG(12.345) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 "
                        + "FOLLOWING), AVG(p) OVER (PARTITION BY g) FROM wn_dec",
                // SELECT DISTINCT ordered by windowed items, by position, alias and expression: Calcite refused
                // them with 42000 "Expression 'b' is not in the select clause" (DistinctWindowOrder)
                "SELECT DISTINCT g, SUM(b) OVER (PARTITION BY g) FROM wn ORDER BY 2 DESC NULLS LAST, 1 NULLS FIRST "
                        + "LIMIT 10",
                "SELECT DISTINCT g, AVG(p) OVER (PARTITION BY g) AS a FROM wn ORDER BY a NULLS FIRST, g NULLS FIRST "
                        + "LIMIT 10",
                "SELECT DISTINCT g, MAX(s) OVER (PARTITION BY g) FROM wn ORDER BY MAX(s) OVER (PARTITION BY g) "
                        + "NULLS LAST, g NULLS LAST LIMIT 3 OFFSET 1",
                // ranking, with NULL partition keys, NULL and tied order keys, one-row partitions
                "SELECT id, ROW_NUMBER() OVER (PARTITION BY g ORDER BY o, id), "
                        + "RANK() OVER (PARTITION BY g ORDER BY o), "
                        + "DENSE_RANK() OVER (PARTITION BY g ORDER BY o DESC NULLS LAST) FROM wn",
                "SELECT id, RANK() OVER (ORDER BY o NULLS FIRST), DENSE_RANK() OVER (ORDER BY o DESC NULLS LAST), "
                        + "ROW_NUMBER() OVER (ORDER BY id DESC) FROM wn",
                "SELECT id, PERCENT_RANK() OVER (PARTITION BY g ORDER BY o), "
                        + "CUME_DIST() OVER (PARTITION BY g ORDER BY o)"
                        + ", PERCENT_RANK() OVER (ORDER BY s), CUME_DIST() OVER (ORDER BY x) FROM wn",
                // -0.0 and 0.0 are peers, and one partition
                "SELECT id, RANK() OVER (ORDER BY x), DENSE_RANK() OVER (ORDER BY x DESC NULLS FIRST), "
                        + "COUNT(*) OVER (PARTITION BY x)"
                        + ", SUM(b) OVER (ORDER BY x) FROM wn",
                // aggregates over the whole partition
                "SELECT id, SUM(b) OVER (PARTITION BY g), COUNT(*) OVER (PARTITION BY g), "
                        + "COUNT(x) OVER (PARTITION BY g)"
                        + ", AVG(x) OVER (PARTITION BY g), MIN(s) OVER (PARTITION BY g), MAX(d) OVER (PARTITION BY g), "
                        + "SUM(p) OVER (PARTITION BY g), AVG(p) OVER (PARTITION BY g), MIN(x) OVER (), MAX(p) OVER () "
                        + "FROM wn",
                "SELECT id, AVG(b) OVER (), AVG(o) OVER (PARTITION BY g), SUM(o) OVER (PARTITION BY g) FROM wn "
                        + "WHERE id <> 9",
                // the default frame with ORDER BY: peers share one value
                "SELECT id, SUM(b) OVER (PARTITION BY g ORDER BY o), COUNT(*) OVER (PARTITION BY g ORDER BY o), "
                        + "AVG(p) OVER (PARTITION BY g ORDER BY o DESC NULLS LAST), "
                        + "MIN(s) OVER (PARTITION BY g ORDER BY o), "
                        + "MAX(x) OVER (ORDER BY o NULLS FIRST), SUM(x) OVER (PARTITION BY g ORDER BY d) FROM wn",
                // ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
                "SELECT id, SUM(b) OVER (PARTITION BY g ORDER BY o, id ROWS UNBOUNDED PRECEDING), "
                        + "COUNT(s) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT "
                        + "ROW), "
                        + "MAX(s) OVER (ORDER BY id ROWS UNBOUNDED PRECEDING), "
                        + "SUM(p) OVER (PARTITION BY g ORDER BY id ROWS UNBOUNDED PRECEDING) FROM wn",
                // sliding frames
                "SELECT id, SUM(b) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING), "
                        + "MIN(x) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), "
                        + "MAX(s) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 3 PRECEDING AND CURRENT ROW), "
                        + "COUNT(p) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING), "
                        + "SUM(x) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING), "
                        + "AVG(p) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING) FROM wn",
                "SELECT id, SUM(b) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING), "
                        + "MAX(d) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), "
                        + "COUNT(*) OVER (ORDER BY o RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING), "
                        + "MIN(p) OVER (ORDER BY o RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM wn",
                // RANGE frames with offsets: integer keys with NULLs and peers, either direction, bounds that
                // reach past the partition, an UNBOUNDED end that takes the NULLs in
                "SELECT id, COUNT(*) OVER (ORDER BY o RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING), "
                        + "SUM(b) OVER (PARTITION BY g ORDER BY o RANGE BETWEEN 5 PRECEDING AND CURRENT ROW), "
                        + "MIN(s) OVER (ORDER BY o DESC NULLS FIRST RANGE BETWEEN 3 PRECEDING AND 2 FOLLOWING), "
                        + "COUNT(*) OVER (ORDER BY o NULLS FIRST RANGE BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), "
                        + "MAX(id) OVER (ORDER BY o RANGE BETWEEN 2 FOLLOWING AND UNBOUNDED FOLLOWING), "
                        + "SUM(p) OVER (ORDER BY id DESC RANGE BETWEEN 2 FOLLOWING AND 4 FOLLOWING) FROM wn",
                // DOUBLE keys (-0.0 beside 0.0, 1e300), DECIMAL keys with offsets finer than their scale
                "SELECT id, SUM(b) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND 0.5 FOLLOWING), "
                        + "COUNT(*) OVER (ORDER BY x DESC NULLS LAST RANGE BETWEEN 1e300 PRECEDING AND CURRENT ROW), "
                        + "COUNT(*) OVER (ORDER BY p RANGE BETWEEN 2.5 PRECEDING AND 1.005 FOLLOWING), "
                        + "SUM(p) OVER (PARTITION BY g ORDER BY p DESC NULLS LAST RANGE BETWEEN CURRENT ROW AND 10 "
                        + "FOLLOWING) FROM wn",
                // DECIMAL keys wider than a long (fuzzer seed 1703 query 725: the row engine's code did not compile)
                "SELECT id, COUNT(*) OVER (ORDER BY CAST(p AS DECIMAL(30, 2)) RANGE BETWEEN 5 PRECEDING AND 2.5 "
                        + "FOLLOWING), SUM(b) OVER (ORDER BY p * 100000000000 DESC NULLS LAST RANGE BETWEEN "
                        + "1000000000000 PRECEDING AND CURRENT ROW), AVG(0) OVER (ORDER BY 42 * CAST(p AS DECIMAL(30, "
                        + "2)) ASC NULLS FIRST RANGE BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING) FROM wn",
                // offsets beyond BIGINT over keys that never lie that far apart: the largest BIGINT, the same rows
                // (Calcite's row engine failed them with XX000); NULL keys keep their own frames
                "SELECT id, SUM(x) OVER (ORDER BY o RANGE BETWEEN 100000000000000000000 PRECEDING AND CURRENT ROW), "
                        + "COUNT(*) OVER (ORDER BY p DESC RANGE BETWEEN CURRENT ROW AND 1e30 FOLLOWING), "
                        + "MIN(id) OVER (PARTITION BY g ORDER BY o NULLS FIRST RANGE BETWEEN 99999999999999999999 "
                        + "PRECEDING AND 99999999999999999999 FOLLOWING) FROM wn",
                // DATE and TIMESTAMP keys: days, hours, calendar months (2024-01-31 plus a month is 2024-02-29)
                "SELECT id, COUNT(*) OVER (ORDER BY d RANGE BETWEEN INTERVAL '1' DAY PRECEDING AND INTERVAL '2' DAY "
                        + "FOLLOWING), MAX(s) OVER (ORDER BY d RANGE BETWEEN INTERVAL '1' MONTH PRECEDING AND CURRENT "
                        + "ROW), MIN(id) OVER (ORDER BY d DESC NULLS FIRST RANGE BETWEEN INTERVAL '1' YEAR PRECEDING "
                        + "AND INTERVAL '2' MONTH FOLLOWING), COUNT(*) OVER (ORDER BY CAST(d AS TIMESTAMP) RANGE "
                        + "BETWEEN INTERVAL '36' HOUR PRECEDING AND INTERVAL '12' HOUR FOLLOWING), SUM(o) OVER "
                        + "(ORDER BY CAST(d AS TIMESTAMP) RANGE BETWEEN CURRENT ROW AND INTERVAL '1' MONTH FOLLOWING) "
                        + "FROM wn",
                // RANGE offsets over a constant key: every row a peer, the frame the partition or nothing (XX000 in
                // Calcite before, fuzzer seed 20240601 query 1254)
                "SELECT id, COUNT(*) OVER (ORDER BY 5 RANGE BETWEEN 10 PRECEDING AND CURRENT ROW), COUNT(*) OVER "
                        + "(ORDER BY 5 DESC RANGE BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), SUM(x) OVER (PARTITION "
                        + "BY g ORDER BY 7 RANGE BETWEEN 0 FOLLOWING AND 2 FOLLOWING), MAX(b) OVER (ORDER BY CAST(NULL "
                        + "AS INTEGER) RANGE BETWEEN 3 FOLLOWING AND 5 FOLLOWING), MIN(s) OVER (ORDER BY CAST(NULL AS "
                        + "DECIMAL(12, 2)) - p RANGE BETWEEN 10 PRECEDING AND UNBOUNDED FOLLOWING) FROM wn",
                // ... and keys constant only once an empty input is pruned (fuzzer seed 1701 query 499)
                "SELECT c.id, COUNT(*) OVER (ORDER BY a.o RANGE BETWEEN 1 PRECEDING AND CURRENT ROW), AVG(a.x) OVER "
                        + "(PARTITION BY c.g ORDER BY a.p RANGE BETWEEN 2 FOLLOWING AND 100 FOLLOWING) FROM wn a RIGHT "
                        + "JOIN wn c ON FALSE",
                // ... and a key constant only once folded, under EXCLUDE TIES (fuzzer seed 2305 query 5048: 1, not 0)
                "SELECT id, COUNT(*) OVER (PARTITION BY g ORDER BY COALESCE(0.0E0, 0.0E0) DESC NULLS LAST RANGE "
                        + "BETWEEN 2 FOLLOWING AND 100 FOLLOWING EXCLUDE TIES), COUNT(*) OVER (ORDER BY COALESCE(1, 2) "
                        + "RANGE BETWEEN 3 PRECEDING AND CURRENT ROW EXCLUDE TIES) FROM wn",
                "SELECT id, SUM(x) OVER (PARTITION BY g ORDER BY o RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING), "
                        + "COUNT(*) OVER (PARTITION BY o ORDER BY id RANGE BETWEEN 100 PRECEDING AND 50 FOLLOWING), "
                        + "MAX(s) OVER (ORDER BY b DESC RANGE BETWEEN 3 PRECEDING AND 3 FOLLOWING) FROM wn_big",
                // value functions
                "SELECT id, LAG(b) OVER (PARTITION BY g ORDER BY id), LEAD(s, 2) OVER (ORDER BY id), "
                        + "LAG(x, 1, -1.5) OVER (ORDER BY id), LEAD(d, 1, "
                        + "DATE '2000-01-01') OVER (PARTITION BY g ORDER BY id), "
                        + "LAG(p, 3, 0.5) OVER (PARTITION BY g ORDER BY id), LEAD(s, 1, "
                        + "'none') OVER (ORDER BY id DESC), "
                        + "LAG(b, 0) OVER (ORDER BY id) FROM wn",
                // each row's own offset: negative looks the other way, NULL gives NULL (not the default), past the
                // partition the default (Calcite's row engine failed these with XX000)
                "SELECT id, LAG(b, o % 3) OVER (PARTITION BY g ORDER BY id), LEAD(s, id % 4 - 1, 'edge') OVER "
                        + "(ORDER BY id), LAG(x, CASE WHEN id % 5 = 0 THEN NULL ELSE id % 3 END, -1.5) OVER (ORDER BY "
                        + "id), LEAD(p, g) OVER (ORDER BY id DESC), LAG(d, NULL) OVER (ORDER BY id), LEAD(id, "
                        + "CAST(NULL AS INTEGER), 0) OVER (ORDER BY id) FROM wn",
                // RANGE offsets over an ORDER BY key the planner finds constant and drops: every row a peer
                // (fuzzer seed 2004, queries 477 and 3029: the row engine failed them with XX000)
                "SELECT id, COUNT(*) OVER (ORDER BY COALESCE(1.5, 1.5) RANGE BETWEEN 10 PRECEDING AND 2 FOLLOWING), "
                        + "SUM(b) OVER (ORDER BY COALESCE(-1.25, -1.25) RANGE BETWEEN 10 PRECEDING AND UNBOUNDED "
                        + "FOLLOWING EXCLUDE GROUP), MIN(x) OVER (PARTITION BY g ORDER BY CAST(NULL AS INTEGER) RANGE "
                        + "BETWEEN CURRENT ROW AND 3 FOLLOWING EXCLUDE TIES) FROM wn",
                // a BIGINT's default an INTEGER and the other way round (the row engine: XX000, "Integer cannot be
                // cast to Long")
                "SELECT id, LEAD(b, 1, -7) OVER (ORDER BY id), LAG(id, 2, b % 1000) OVER (PARTITION BY g ORDER BY id) "
                        + "FROM wn",
                "SELECT id, LAG(b, o) OVER (PARTITION BY g ORDER BY id), LEAD(x, o - 2, 0.0) OVER (ORDER BY id), "
                        + "LAG(s, CAST(b AS BIGINT) % 7) OVER (PARTITION BY o ORDER BY id) FROM wn_big",
                "SELECT id, FIRST_VALUE(s) OVER (PARTITION BY g ORDER BY id), "
                        + "LAST_VALUE(b) OVER (PARTITION BY g ORDER BY o), "
                        + "FIRST_VALUE(x) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING), "
                        + "LAST_VALUE(p) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND "
                        + "UNBOUNDED FOLLOWING) FROM wn",
                // NTH_VALUE: NULL where the frame has fewer rows (Calcite's row engine gave 0.0; Calcite typed it NOT
                // NULL over a NOT NULL argument, and Ferry gave 0: fuzzer seed 20240601 query 185)
                "SELECT id, NTH_VALUE(x, 2) OVER (ORDER BY id), NTH_VALUE(id + 10, 2) OVER (PARTITION BY g ORDER BY "
                        + "id), NTH_VALUE(s, 3) OVER (PARTITION BY g ORDER BY id "
                        + "ROWS BETWEEN 1 PRECEDING AND 2 FOLLOWING), NTH_VALUE(p, 1) OVER (PARTITION BY g ORDER BY o "
                        + "RANGE BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) FROM wn",
                "SELECT id, NTILE(3) OVER (PARTITION BY g ORDER BY id), NTILE(5) OVER (ORDER BY id) FROM wn",
                // a frame with EXCLUDE may be empty: NULL, where Calcite counted on frames that hold the current row
                // (SUM(constant) became SUM0, MIN of a NOT NULL column NOT NULL: fuzzer seed 1805)
                "SELECT id, SUM(-0.001) OVER (ORDER BY id ROWS UNBOUNDED PRECEDING EXCLUDE GROUP), MIN(id) OVER "
                        + "(PARTITION BY g ORDER BY id ROWS UNBOUNDED PRECEDING EXCLUDE CURRENT ROW), SUM(id) OVER w, "
                        + "FIRST_VALUE(id) OVER w FROM wn WINDOW w AS (PARTITION BY g ORDER BY id ROWS BETWEEN CURRENT "
                        + "ROW AND UNBOUNDED FOLLOWING EXCLUDE CURRENT ROW)",
                // EXCLUDE: the row, its peers, or its peers but itself, out of ROWS and RANGE frames of every kind
                "SELECT id, SUM(b) OVER (PARTITION BY g ORDER BY o, id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING "
                        + "EXCLUDE CURRENT ROW), COUNT(x) OVER (ORDER BY o RANGE BETWEEN UNBOUNDED PRECEDING AND "
                        + "CURRENT ROW EXCLUDE GROUP), AVG(p) OVER (PARTITION BY g ORDER BY o ROWS BETWEEN "
                        + "UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE TIES), MIN(s) OVER (ORDER BY o "
                        + "RANGE BETWEEN 10 PRECEDING AND 10 FOLLOWING EXCLUDE TIES), MAX(x) OVER (PARTITION BY g "
                        + "ORDER BY o RANGE BETWEEN 2 PRECEDING AND CURRENT ROW EXCLUDE GROUP) FROM wn",
                "SELECT id, FIRST_VALUE(s) OVER (ORDER BY o, id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE "
                        + "CURRENT ROW), LAST_VALUE(b) OVER (PARTITION BY g ORDER BY o, id RANGE BETWEEN UNBOUNDED "
                        + "PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE CURRENT ROW), NTH_VALUE(id, 2) OVER (ORDER BY o, "
                        + "id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW), MAX(id) OVER (ORDER BY o "
                        + "RANGE BETWEEN 5 PRECEDING AND 5 FOLLOWING EXCLUDE TIES), COUNT(*) OVER (PARTITION BY g ORDER BY o "
                        + "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE TIES), SUM(x) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW "
                        + "EXCLUDE CURRENT ROW) FROM wn",
                "SELECT id, SUM(b) OVER (PARTITION BY g ORDER BY o RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW "
                        + "EXCLUDE GROUP), SUM(x) OVER (PARTITION BY o "
                        + "ORDER BY g RANGE BETWEEN 3 PRECEDING AND 3 FOLLOWING EXCLUDE TIES), MIN(b) OVER (PARTITION "
                        + "BY g ORDER BY o RANGE BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW), "
                        + "STDDEV(x) OVER (PARTITION BY g ORDER BY o RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING "
                        + "EXCLUDE GROUP) FROM wn_big",
                "SELECT id, SUM(p) OVER (PARTITION BY g ORDER BY p RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW "
                        + "EXCLUDE TIES), COUNT(p) OVER (ORDER BY p "
                        + "RANGE BETWEEN 0.2 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP) FROM wn_dec",
                // several windows, different partitions, one SELECT; window values used in expressions
                "SELECT id, b - AVG(b) OVER (PARTITION BY g), SUM(o) OVER (PARTITION BY g) * 2, "
                        + "RANK() OVER (PARTITION BY s ORDER BY id) + ROW_NUMBER() OVER (ORDER BY id) FROM wn",
                // empty input
                "SELECT id, ROW_NUMBER() OVER (ORDER BY id), SUM(b) OVER (PARTITION BY g), "
                        + "LAG(o) OVER (ORDER BY id) FROM wn_empty",
                "SELECT COUNT(*) OVER (), MAX(b) OVER (PARTITION BY g ORDER BY o) FROM wn WHERE id < 0",
                // many partitions
                "SELECT id, ROW_NUMBER() OVER (PARTITION BY g ORDER BY o, id), "
                        + "RANK() OVER (PARTITION BY g ORDER BY o), "
                        + "SUM(b) OVER (PARTITION BY g ORDER BY o), AVG(x) OVER (PARTITION BY o), "
                        + "MAX(s) OVER (PARTITION BY g), SUM(x) OVER (PARTITION BY o ORDER BY id ROWS BETWEEN "
                        + "5 PRECEDING AND 5 FOLLOWING), LAG(id, 2) OVER (PARTITION BY g ORDER BY id) FROM wn_big",
                // DOUBLE sums of frames that shrink to the partition's end (exact binary fractions: any order of
                // addition gives the same sums)
                "SELECT id, SUM(x) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), "
                        + "AVG(x) OVER (PARTITION BY o ORDER BY g RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING), "
                        + "SUM(x) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 2 PRECEDING) FROM wn_big",
                // statistics, which Calcite expands into sums and counts
                "SELECT id, STDDEV(x) OVER (PARTITION BY g), VAR_POP(b) OVER (PARTITION BY o ORDER BY id ROWS "
                        + "BETWEEN 2 PRECEDING AND CURRENT ROW), STDDEV_POP(x) OVER (ORDER BY g, id) FROM wn_big",
                // windows under joins, over aggregates, below ORDER BY ... LIMIT
                "SELECT a.id, c.id, RANK() OVER (PARTITION BY a.g ORDER BY c.b), SUM(c.p) OVER (PARTITION BY a.id) "
                        + "FROM wn a JOIN wn c ON a.g = c.g",
                "SELECT g, SUM(b), RANK() OVER (ORDER BY SUM(b) DESC), SUM(SUM(b)) OVER (), "
                        + "AVG(SUM(p)) OVER (ORDER BY g ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM wn GROUP BY g",
                "SELECT * FROM (SELECT g, o, SUM(b) AS total, RANK() OVER (PARTITION BY g ORDER BY SUM(b) DESC) AS r "
                        + "FROM wn_big GROUP BY g, o) t WHERE r <= 2",
                "SELECT id, ROW_NUMBER() OVER (PARTITION BY g ORDER BY x DESC, "
                        + "id) FROM wn_big ORDER BY id DESC LIMIT 20",
                "SELECT s, rk FROM (SELECT s, DENSE_RANK() OVER (ORDER BY SUM(b) DESC) AS rk FROM wn_big GROUP BY s) t "
                        + "ORDER BY rk, s LIMIT 7");
    }
}
