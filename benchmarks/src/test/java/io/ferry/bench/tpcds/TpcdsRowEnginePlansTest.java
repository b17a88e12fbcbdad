package io.ferry.bench.tpcds;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;
import io.trino.tpcds.Table;

/**
 * Every one of the 103 TPC-DS statements plans without Calcite's row engine (no Enumerable operator in EXPLAIN), on
 * the data {@link TpcdsTest} uses (SF 0.1, generated once into target/tpcds): the last to move into Ferry's
 * operators were the IS NOT DISTINCT FROM join of q41 and the FULL joins of q51 and q97. A statement that moves back
 * fails the test with its plan.
 */
class TpcdsRowEnginePlansTest {
    @Test
    void everyStatementPlansWithoutTheRowEngine() throws Exception {
        TpcdsData data = new TpcdsData(0.1, Path.of("target", "tpcds", "data-sf0.1"));
        data.generate(2);
        List<String> rowEngine = new ArrayList<>();
        // closing the engine fails the test if Ferry leaked Arrow memory
        try (FerryEngine ferry = FerryEngine.start(EngineConfig.defaults().withThreads(2));
                Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            for (Table t : TpcdsTables.ALL) {
                TpcdsLoader.load(data, t, 0, ferry, duck);
            }
            try (Connection c = ferry.connect(); Statement s = c.createStatement()) {
                for (TpcdsQueries.Query q : TpcdsQueries.all()) {
                    String plan = explain(s, q.sql());
                    if (plan.lines().anyMatch(l -> l.trim().startsWith("Enumerable"))) {
                        rowEngine.add("q" + q.name() + ":\n" + plan);
                    }
                }
            }
        }
        assertTrue(rowEngine.isEmpty(), () -> rowEngine.size() + " of 103 statements have a part in the row "
                + "engine:\n" + String.join("\n", rowEngine));
    }

    private static String explain(Statement s, String sql) throws Exception {
        StringBuilder plan = new StringBuilder();
        try (ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            while (rs.next()) {
                plan.append(rs.getString(1)).append('\n');
            }
        }
        return plan.toString();
    }
}
