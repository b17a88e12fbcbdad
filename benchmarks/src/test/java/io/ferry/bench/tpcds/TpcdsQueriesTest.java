package io.ferry.bench.tpcds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;

/** The query texts: all there, and no Spark dialect left after the rewrites. */
class TpcdsQueriesTest {
    @Test
    void all103StatementsLoadAndKeepNoSparkDialect() {
        List<TpcdsQueries.Query> all = TpcdsQueries.all();
        assertEquals(103, all.size());
        assertEquals(99, all.stream().mapToInt(TpcdsQueries.Query::number).distinct().count());
        for (TpcdsQueries.Query q : all) {
            String sql = q.sql().toLowerCase(Locale.ROOT);
            assertFalse(sql.contains("`") || sql.matches("(?s).*interval \\d+ day.*") || sql.contains("concat("),
                    "q" + q.name() + " still has Spark's dialect");
        }
        assertEquals(List.of("14a", "14b"), TpcdsQueries.numbered(List.of(14)).stream()
                .map(TpcdsQueries.Query::name).toList());
    }

    @Test
    void concatBecomesTheOperatorEvenWithCommasInStrings() {
        assertEquals("SELECT ('DHL' || ',' || 'BARIAN') AS c, (a || f(b, c))",
                TpcdsQueries.concatToOperator("SELECT concat('DHL', ',', 'BARIAN') AS c, concat(a, f(b, c))"));
    }
}
