package io.ferry.bench.tpcds;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.ferry.bench.tpcds.QueryResult.Outcome;

/**
 * TPC-DS at scale factor 0.1: every one of the 99 queries (103 statements) must give DuckDB's answer, and Ferry must
 * plan each within 500 ms. The report lands in target/tpcds (tpcds-sf0.1.md and .csv); the generated data is kept in
 * target/tpcds/data-sf0.1 for the next run.
 */
class TpcdsTest {
    private static final double MAX_PLANNING_MS = 500;

    @Test
    void everyQueryMatchesDuckDbAndPlansQuickly() throws Exception {
        TpcdsBenchmark.Settings settings = new TpcdsBenchmark.Settings(0.1, List.of(), Path.of("target", "tpcds"),
                Runtime.getRuntime().availableProcessors(), 10);
        // closing the engines inside run() fails it if Ferry leaked Arrow memory
        TpcdsBenchmark.Result run = TpcdsBenchmark.run(settings, TpcdsBenchmark.Listener.NONE);
        System.out.println(run.summary().line() + "; report: " + run.markdown().toAbsolutePath());

        List<QueryResult> failed = run.results().stream().filter(r -> r.outcome() != Outcome.MATCH).toList();
        List<QueryResult> slow = run.results().stream().filter(r -> !(r.planningMs() <= MAX_PLANNING_MS)
                && Double.isFinite(r.planningMs())).toList();
        assertAll(
                () -> assertEquals(103, run.results().size(), "statements run"),
                () -> assertTrue(failed.isEmpty(), () -> failed.size() + " of 103 statements do not match DuckDB ("
                        + run.summary().line() + "):\n" + failed.stream().map(r -> "q" + r.query() + " "
                        + r.outcome().label() + ": " + r.detail()).collect(Collectors.joining("\n"))),
                () -> assertTrue(slow.isEmpty(), () -> "planning over " + MAX_PLANNING_MS + " ms:\n" + slow.stream()
                        .map(r -> "q" + r.query() + " " + Math.round(r.planningMs()) + " ms")
                        .collect(Collectors.joining("\n"))));
    }
}
