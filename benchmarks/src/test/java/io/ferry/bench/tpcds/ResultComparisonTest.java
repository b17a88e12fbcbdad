package io.ferry.bench.tpcds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The comparison rule of docs/tpcds.md, on small hand-made results. */
class ResultComparisonTest {
    private static List<Object> row(Object... values) {
        return Arrays.stream(values).map(ResultComparison::normalize).toList();
    }

    @Test
    void numbersCompareAcrossTypesWithinTheTolerance() {
        assertTrue(ResultComparison.equal(ResultComparison.normalize(0.1 + 0.2), new BigDecimal("0.3")));
        assertTrue(ResultComparison.equal(ResultComparison.normalize(7L), new BigDecimal("7.00")));
        assertFalse(ResultComparison.equal(new BigDecimal("1000000"), new BigDecimal("1000000.01")));
        assertFalse(ResultComparison.equal(null, ""), "NULL is not the empty string");
    }

    @Test
    void unorderedResultsCompareAsMultisets() {
        ResultOrder none = ResultOrder.of("SELECT a, b FROM t");
        assertFalse(none.ordered());
        assertTrue(ResultComparison.compare(List.of(row("x", 1), row("y", 2)), List.of(row("y", 2), row("x", 1)),
                none).isEmpty());
        assertTrue(ResultComparison.compare(List.of(row("x", 1), row("x", 1)), List.of(row("x", 1), row("y", 1)),
                none).isPresent());
    }

    @Test
    void orderByKeysAreResultColumnsByAliasNamePositionOrExpression() {
        assertEquals(List.of(1, 0), ResultOrder.of("SELECT a, sum(b) AS s FROM t GROUP BY a ORDER BY s DESC, a")
                .keyColumns());
        assertEquals(List.of(1), ResultOrder.of("WITH w AS (SELECT 1 AS x) SELECT t.a, t.b FROM t ORDER BY 2 "
                + "LIMIT 5").keyColumns());
        assertEquals(List.of(0), ResultOrder.of("SELECT sum(b), a FROM t GROUP BY a ORDER BY sum(b)").keyColumns());
        assertEquals(5, ResultOrder.of("SELECT a FROM t UNION SELECT b FROM u ORDER BY a LIMIT 5").limit());
        assertEquals(null, ResultOrder.of("SELECT a FROM t ORDER BY a + 1").keyColumns());
    }

    @Test
    void tiesMayComeInAnyOrderButKeysMayNot() {
        ResultOrder byKey = ResultOrder.of("SELECT k, v FROM t ORDER BY k");
        List<List<Object>> ferry = List.of(row(1, "b"), row(1, "a"), row(2, "c"));
        assertTrue(ResultComparison.compare(ferry, List.of(row(1, "a"), row(1, "b"), row(2, "c")), byKey).isEmpty());
        assertTrue(ResultComparison.compare(ferry, List.of(row(2, "c"), row(1, "a"), row(1, "b")), byKey)
                .isPresent());
    }

    @Test
    void theLastTieGroupOfALimitedResultMayHoldOtherRows() {
        ResultOrder limited = ResultOrder.of("SELECT k, v FROM t ORDER BY k LIMIT 3");
        List<List<Object>> ferry = List.of(row(1, "a"), row(2, "b"), row(2, "c"));
        assertTrue(ResultComparison.compare(ferry, List.of(row(1, "a"), row(2, "d"), row(2, "b")), limited)
                .isEmpty());
        assertTrue(ResultComparison.compare(ferry, List.of(row(1, "z"), row(2, "b"), row(2, "c")), limited)
                .isPresent(), "only the last run is exempt");
    }
}
