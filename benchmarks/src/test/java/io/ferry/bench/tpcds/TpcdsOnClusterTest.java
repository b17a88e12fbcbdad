package io.ferry.bench.tpcds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.ferry.bench.tpcds.QueryResult.Outcome;

/**
 * TPC-DS at scale factor 0.1 on two memory and two compute servers in this JVM (tcp fabric), the sales tables, ITEM
 * and CUSTOMER partitioned two ways by item and customer: every one of the 103 statements must give DuckDB's answer
 * as a shuffle join (every join's inputs split by key over the compute servers) and under auto, which pipelines the
 * co-partitioned joins, gathers others and shuffles where that moves the fewest bytes. The reports land in
 * target/tpcds (tpcds-sf0.1-MODE-2x2.md); the generated data is TpcdsTest's.
 */
class TpcdsOnClusterTest {
    @ParameterizedTest(name = "execution = {0}")
    @ValueSource(strings = {"shuffle", "auto"})
    void everyQueryMatchesDuckDbOnACluster(String execution) throws Exception {
        TpcdsBenchmark.Settings settings = new TpcdsBenchmark.Settings(0.1, List.of(), Path.of("target", "tpcds"),
                2, 60, 0, new TpcdsRun.Cluster(2, 2, execution, 2));
        // closing the cluster inside run() fails it if a node leaked Arrow memory
        TpcdsBenchmark.Result run = TpcdsBenchmark.run(settings, TpcdsBenchmark.Listener.NONE);
        System.out.println(execution + ": " + run.summary().line() + "; report: " + run.markdown().toAbsolutePath());
        List<QueryResult> failed = run.results().stream().filter(r -> r.outcome() != Outcome.MATCH).toList();
        assertEquals(103, run.results().size(), "statements run");
        assertEquals(List.of(), run.results().stream().filter(r -> r.rowEngine() != null)
                .map(r -> "q" + r.query() + ": " + r.rowEngine()).toList(),
                "statements that ran operators in Calcite's row engine");
        assertTrue(failed.isEmpty(), () -> failed.size() + " of 103 statements do not match DuckDB ("
                + run.summary().line() + "):\n" + failed.stream().map(r -> "q" + r.query() + " "
                        + r.outcome().label() + ": " + r.detail()).collect(Collectors.joining("\n")));
    }
}
