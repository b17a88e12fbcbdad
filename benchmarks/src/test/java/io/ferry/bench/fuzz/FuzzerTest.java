package io.ferry.bench.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/**
 * The fuzzer as a regression test: a fixed seed, 2000 queries over the same random tables, each in local mode or a
 * two-worker cluster in turn (the cluster alternating function and data shipping), against DuckDB. It fails on a
 * wrong answer or internal error at any query but those in {@link #KNOWN_FAILURES}, which must still fail, so the
 * list only shrinks, and on a plan that runs an operator of Calcite's row engine. Failures are not shrunk here
 * (shrinking replays each failure hundreds of times: {@code bin/ferry fuzz} does it). The run takes about two minutes
 * on two cores.
 */
class FuzzerTest {
    static final long SEED = 20240601;
    static final int QUERIES = 2000;
    static final Constructs CONSTRUCTS = Constructs.ALL;

    /** Query numbers of this seed that still fail, and why (issue 15 leaves them open). */
    static final Map<Integer, String> KNOWN_FAILURES = Map.of();

    @Test
    void ferryAgreesWithDuckDbOnRandomQueries() throws Exception {
        Fuzzer.Options options = Fuzzer.Options.defaults(SEED, QUERIES).withCluster(true, true)
                .withConstructs(CONSTRUCTS).withShipping(List.of("function", "data"))
                .withTimeout(Duration.ofSeconds(20)).withShrinking(0, 0);
        FuzzReport report;
        // closing the fuzzer closes every engine, which fails on leaked Arrow memory
        try (Fuzzer fuzzer = Fuzzer.start(options)) {
            report = fuzzer.run(done -> { });
        }
        System.out.println(report.summary());
        assertEquals(QUERIES, report.queries());
        assertTrue(report.count("cluster", Outcome.MATCH) > QUERIES / 4, "the cluster answered queries");
        // every refusal by one engine is listed in the report, by kind, so none hides in a count
        int refused = report.count(Outcome.UNSUPPORTED) + report.count(Outcome.FERRY_ERROR)
                + report.count(Outcome.DUCKDB_ERROR);
        assertEquals(refused, report.refusals().values().stream().mapToInt(Integer::intValue).sum());
        assertEquals(refused > 0, report.markdown().contains("## Refused by one engine"));
        // and no plan ran an operator of Calcite's row engine, the slow path (the report lists any with its plan)
        assertEquals(Map.of(), report.rowEngineRuns(), report::markdown);
        Map<Integer, String> failing = new TreeMap<>();
        for (Finding f : report.findings()) {
            failing.put(f.index(), f.target() + ": " + f.verdict().outcome().label());
        }
        assertEquals(new TreeMap<>(KNOWN_FAILURES).keySet(), failing.keySet(), () -> "failing queries differ from "
                + "KNOWN_FAILURES (a new failure, or a known one fixed: take it off the list)\n" + report.markdown());
    }
}
