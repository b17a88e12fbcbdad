package io.ferry.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbGenerator;
import io.ferry.server.data.SsbQueries;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.QueryLog;

/**
 * The 13 SSB queries, the everyday constructs the side-by-side benchmark times ({@link ConstructsVsDuckDb}) and a
 * corpus of one statement per function and operator ({@code row-engine-corpus.sql}: arithmetic, comparisons, numeric,
 * string, date and conditional functions, casts, aggregates, window functions, joins, subqueries, set operations,
 * ordering, VALUES, table functions) run without Calcite's row engine: sys.queries names no row-engine operator
 * for any of them ({@code RowEngineOperators}). A statement that falls back to the row-at-a-time path fails the test
 * with its plan. (TPC-DS: {@code TpcdsTest} and {@code TpcdsOnClusterTest}.)
 */
class RowEnginePlansTest {
    @Test
    void ssbAndTheEverydayConstructsPlanWithoutTheRowEngine() throws Exception {
        Map<String, String> statements = new LinkedHashMap<>();
        SsbQueries.all().forEach((name, sql) -> statements.put("SSB " + name, sql));
        for (ConstructsVsDuckDb.Construct c : ConstructsVsDuckDb.CONSTRUCTS) {
            statements.put(c.name(), c.ferry());
        }
        corpus().forEach(sql -> statements.put(sql, sql));
        List<String> rowEngine = new ArrayList<>();
        // closing the engine fails the test if Ferry leaked Arrow memory
        try (FerryEngine ferry = FerryEngine.start(EngineConfig.defaults().withThreads(2));
                Connection c = ferry.connect(); Statement s = c.createStatement()) {
            new SsbGenerator(0.01).load(ferry.catalog(), ProgressListener.NONE);
            s.execute(ConstructsVsDuckDb.table(10_000));
            AtomicReference<QueryLog.Entry> ended = new AtomicReference<>();
            ferry.queries().onEnded(ended::set);
            for (Map.Entry<String, String> q : statements.entrySet()) {
                s.executeQuery(q.getValue()).close(); // it runs, and its entry in sys.queries names what ran where
                String operators = ended.get().rowEngine();
                if (operators != null) {
                    rowEngine.add(q.getKey() + " (" + operators + "):\n" + BenchSql.plan(c, q.getValue()));
                }
            }
        }
        assertTrue(rowEngine.isEmpty(), () -> rowEngine.size() + " of " + statements.size() + " statements have a "
                + "part in the row engine:\n" + String.join("\n", rowEngine));
    }

    /** The corpus's statements: its lines but comments and blank ones. */
    private static List<String> corpus() throws IOException {
        try (InputStream in = RowEnginePlansTest.class.getResourceAsStream("/row-engine-corpus.sql")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("--")).toList();
        }
    }
}
