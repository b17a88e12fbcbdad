package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * DECIMAL sums and differences that cannot overflow run without checks ({@code ArithmeticKernels.exactSum}: each
 * operand at the result's scale with its own integral digits), a SUM without GROUP BY adds a batch whose values are
 * small enough as one long ({@code Accumulator.SumWide}), and a widening cast passes its vector on. Checked against
 * DuckDB, to the last digit, on 20,000 rows (five batches and more), with NULLs, values at each type's largest, negative values, and
 * batches whose values cross the bound below which a batch is summed as one long (2^49, a DECIMAL(18, 2) of
 * 5,629,499,534,213.12) in both directions.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DecimalSumsTest {
    private FerryAndDuckDb db;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void start() throws SQLException {
        db = FerryAndDuckDb.start();
        ferry = db.ferry();
        duck = db.duck();
        db.executeOnBoth("CREATE TABLE d (id INTEGER, g INTEGER, a DECIMAL(12, 2), b DECIMAL(7, 4), i INTEGER, "
                + "w DECIMAL(18, 2), z DECIMAL(12, 2))");
        Random rnd = new Random(49);
        for (int from = 0; from < 20_000; from += 1000) {
            StringBuilder rows = new StringBuilder("INSERT INTO d VALUES ");
            for (int id = from; id < from + 1000; id++) {
                rows.append(id == from ? "" : ", ").append('(').append(id).append(", ").append(id % 7).append(", ")
                        .append(id % 97 == 0 ? "NULL" : extreme(id, "9999999999.99", rnd, 10, 2)).append(", ")
                        .append(id % 89 == 0 ? "NULL" : extreme(id, "999.9999", rnd, 3, 4)).append(", ")
                        .append(id % 83 == 0 ? "NULL" : String.valueOf(id % 5 == 0 ? Integer.MIN_VALUE + 1
                                : rnd.nextInt())).append(", ")
                        // past 2^49 in some batches only: rows 6000-6999 hold values up to 10^16
                        .append(id / 1000 == 6 ? extreme(id, "9999999999999999.99", rnd, 16, 2)
                                : extreme(id, "5629499534213.12", rnd, 12, 2)).append(", ")
                        // no NULLs: the batch-at-once sum's path
                        .append(extreme(id, "9999999999.99", rnd, 10, 2)).append(')');
            }
            db.executeOnBoth(rows.toString());
        }
    }

    /** The largest value of the type (or its negative) every 1000 rows, else a random one of {@code digits}. */
    private static String extreme(int id, String largest, Random rnd, int digits, int scale) {
        if (id % 1000 == 1) {
            return largest;
        }
        if (id % 1000 == 2) {
            return "-" + largest;
        }
        long bound = (long) Math.pow(10, Math.min(digits, 15));
        long v = Math.floorMod(rnd.nextLong(), bound) * (rnd.nextBoolean() ? 1 : -1);
        return BigDecimal.valueOf(v).movePointLeft(scale).toPlainString();
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    static Stream<String> queries() {
        return Stream.of(
                "SELECT SUM(z * 1.07 - 0.50) FROM d",
                "SELECT SUM(a * 1.07 - 0.50), SUM(a + b), SUM(a - b), SUM(b - a) FROM d",
                "SELECT SUM(a + i), SUM(i - a), SUM(b + 1), SUM(1.5 - b) FROM d",
                "SELECT SUM(w), SUM(-w), SUM(z), SUM(-z), COUNT(*) FROM d",
                "SELECT SUM(w) FROM d WHERE id BETWEEN 5000 AND 7999",
                "SELECT SUM(w + w), SUM(w - z) FROM d",
                "SELECT g, SUM(a + b), SUM(w), SUM(z - 0.01) FROM d GROUP BY g ORDER BY g",
                "SELECT id, a + b, a - b, b - a, a + i, w - z, z + 0.005 FROM d WHERE id % 1000 < 4 OR id % 97 = 0 "
                        + "ORDER BY id",
                "SELECT MIN(a + b), MAX(a - b), AVG(z + w) FROM d");
    }

    /** Exactly DuckDB's values, to the last digit (not within the relative 1e-9 other tests allow). */
    @ParameterizedTest
    @MethodSource("queries")
    void exactlyAsDuckDb(String sql) throws SQLException {
        List<List<Object>> want = ResultComparison.rows(duck, sql);
        List<List<Object>> got = ResultComparison.rows(ferry, sql);
        assertEquals(want.size(), got.size(), sql);
        for (int r = 0; r < want.size(); r++) {
            for (int c = 0; c < want.get(r).size(); c++) {
                Object w = want.get(r).get(c);
                Object g = got.get(r).get(c);
                boolean same = w instanceof BigDecimal bw && g instanceof BigDecimal bg ? bw.compareTo(bg) == 0
                        : Objects.equals(w == null ? null : w.toString(), g == null ? null : g.toString());
                assertTrue(same, "row " + r + " column " + (c + 1) + ": DuckDB " + w + ", Ferry " + g + " in " + sql);
            }
        }
    }
}
