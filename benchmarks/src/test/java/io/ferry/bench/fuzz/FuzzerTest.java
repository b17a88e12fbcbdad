package io.ferry.bench.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.EnumSet;

import org.junit.jupiter.api.Test;

/**
 * The fuzzer as a regression test: a fixed seed, 2000 queries over the same random tables, in local mode and in a
 * two-worker cluster (each query on one of them in turn, the cluster rotating function, data and auto shipping),
 * against DuckDB. A wrong answer or an internal error fails the test with the shrunk queries and their regression
 * tests in the message (at most four shrunk). The 2000 queries take about three minutes on two busy cores;
 * shrinking adds up to a minute per failure.
 *
 * <p>Every family but subqueries: with them, this seed still finds wrong answers and planner failures in Calcite's
 * decorrelation of correlated subqueries (NOT IN and IN over an aggregate, NOT EXISTS under GROUP BY of a
 * constant; docs/fuzzing.md lists them), which issue 15 leaves open. {@code bin/ferry fuzz} runs them all.
 */
class FuzzerTest {
    static final long SEED = 20240601;
    static final int QUERIES = 2000;
    static final Constructs CONSTRUCTS = new Constructs(EnumSet.complementOf(EnumSet.of(Construct.SUBQUERIES)));

    @Test
    void ferryAgreesWithDuckDbOnRandomQueries() throws Exception {
        Fuzzer.Options options = Fuzzer.Options.defaults(SEED, QUERIES).withCluster(true, true)
                .withConstructs(CONSTRUCTS)
                .withTimeout(Duration.ofSeconds(20)).withShrinking(4, 80);
        FuzzReport report;
        // closing the fuzzer closes every engine, which fails on leaked Arrow memory
        try (Fuzzer fuzzer = Fuzzer.start(options)) {
            report = fuzzer.run(done -> { });
        }
        System.out.println(report.summary());
        assertEquals(QUERIES, report.queries());
        assertTrue(report.count("cluster", Outcome.MATCH) > QUERIES / 4, "the cluster answered queries");
        assertEquals(0, report.count(Outcome.MISMATCH) + report.count(Outcome.INTERNAL_ERROR),
                () -> report.markdown());
    }
}
