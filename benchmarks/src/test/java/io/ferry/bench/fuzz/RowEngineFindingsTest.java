package io.ferry.bench.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Generated queries whose plans the fuzzer's report listed as running in Calcite's row engine (sys.queries.row_engine),
 * each regenerated from its seed and number over its seed's tables: they now run in Ferry's operators alone, and
 * still give DuckDB's answer.
 */
class RowEngineFindingsTest {
    @ParameterizedTest(name = "seed {0}, query {1}: {2}")
    @CsvSource({
        "2001, 1304, a RIGHT join with a residual (a FULL join filtered on one side)",
        "2002, 1344, an INTERSECT beside a window chosen among both engines",
        "2002, 1072, an INTERSECT beside a window chosen among both engines",
        "2003, 4868, a correlation left over an outer input a constant-false filter emptied"})
    void runsInFerryAlone(long seed, int query, String what) throws Exception {
        Fuzzer.Options options = Fuzzer.Options.defaults(seed, query + 1).withCluster(false, false)
                .withTimeout(Duration.ofSeconds(20)).withShrinking(0, 0);
        FuzzReport report;
        try (Fuzzer fuzzer = Fuzzer.start(options)) {
            report = fuzzer.run(List.of(query), done -> { });
        }
        assertEquals(1, report.count(Outcome.MATCH) + report.count(Outcome.ORDER_DEPENDENT), report::summary);
        assertEquals(Map.of(), report.rowEngineRuns(), report::markdown);
    }
}
