package io.ferry.sql;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Range filters and IN lists on a table's columns, tested where the scan's blocks hold the values
 * (BlockReader.select): every integral, date, timestamp and DECIMAL width, NULLs among the values, bounds at the
 * extremes and empty ranges, over rows that fill several blocks; each answer as DuckDB's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScanRangeFiltersTest {
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private FerryAndDuckDb db;

    @BeforeAll
    void start() throws SQLException {
        db = FerryAndDuckDb.start();
        Random rnd = new Random(41);
        StringBuilder rows = new StringBuilder();
        for (int id = 0; id < 30_000; id++) {
            boolean nulls = id % 9 == 4;
            long big = id % 1000 == 0 ? (id % 2000 == 0 ? Long.MAX_VALUE : Long.MIN_VALUE) : rnd.nextLong() >> 20;
            rows.append(id == 0 ? "" : ", ").append('(').append(id).append(", ")
                    .append(nulls ? "NULL" : String.valueOf(rnd.nextInt(60) - 10)).append(", ")
                    .append(nulls ? "NULL" : String.valueOf(big)).append(", ")
                    .append(nulls ? "NULL" : "DATE '" + LocalDate.of(1998, 1, 1).plusDays(rnd.nextInt(2000)) + "'")
                    .append(", ").append(nulls ? "NULL" : "TIMESTAMP '" + LocalDateTime.of(2001, 2, 3, 4, 5, 6)
                            .plusSeconds(rnd.nextInt(100_000)).format(SECONDS) + "'").append(", ")
                    .append(nulls ? "NULL" : BigDecimal.valueOf(rnd.nextInt(20_000) - 10_000, 2)).append(", ")
                    .append(nulls ? "NULL" : BigDecimal.valueOf(rnd.nextLong() % 1_000_000_000_000L, 4)).append(')');
        }
        db.executeOnBoth("CREATE TABLE r (id INTEGER NOT NULL, q INTEGER, b BIGINT, d DATE, ts TIMESTAMP, "
                + "p DECIMAL(7, 2), w DECIMAL(18, 4))", "INSERT INTO r VALUES " + rows);
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"q BETWEEN 1 AND 20", "q BETWEEN -10 AND -10", "q BETWEEN 21 AND 40 AND id < 20000",
            "q BETWEEN 50 AND 10", "q >= 49", "q <= -10", "b BETWEEN -1000000 AND 1000000000",
            "b >= 9223372036854775807", "b <= -9223372036854775808", "b BETWEEN 0 AND 9223372036854775807",
            "d BETWEEN DATE '1999-02-01' AND DATE '1999-03-02'", "d >= DATE '2003-06-01'",
            "ts BETWEEN TIMESTAMP '2001-02-03 10:00:00' AND TIMESTAMP '2001-02-03 11:00:00'",
            "p BETWEEN -5.25 AND 5.25", "p BETWEEN 99.99 AND 99.99", "w BETWEEN -1000.5 AND 12345.0625",
            "w > 0", "q IN (1, 5, 7, -10, 49)", "q IN (-10, 49) AND id > 100",
            "b IN (9223372036854775807, -9223372036854775808, 0)",
            "d IN (DATE '1999-02-01', DATE '2003-06-01', DATE '1998-01-01')", "p IN (-5.25, 99.99, 0.01, -100.00)",
            "ts IN (TIMESTAMP '2001-02-03 04:05:06', TIMESTAMP '2001-02-04 00:00:00')"})
    void answersAsDuckDb(String condition) throws SQLException {
        for (String select : List.of("COUNT(*), SUM(id), MIN(q), MAX(b)", "id")) {
            ResultComparison.assertSameResult(db.ferry(), db.duck(), "SELECT " + select + " FROM r WHERE "
                    + condition, false);
        }
    }
}
