package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.ferry.sql.ResultComparison;
import io.ferry.sql.SetOperationQueries;

/**
 * The set operations of {@code SetOperationsTest} on a coordinator and two workers over the tcp fabric, in forced
 * function shipping (each union input's fragments run on the workers; under UNION, INTERSECT and EXCEPT their rows
 * are counted there first) and forced data shipping, each against DuckDB on the same rows: every input's rows must
 * arrive once, however many inputs read the same table.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SetOperationsOnClusterTest {
    private TwoWorkerCluster cluster;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void start() throws Exception {
        cluster = TwoWorkerCluster.start();
        ferry = cluster.ferry();
        duck = cluster.duck();
        SetOperationQueries.load(ferry, duck);
    }

    @AfterAll
    void stop() throws SQLException {
        if (cluster != null) {
            cluster.close();
        }
    }

    Stream<Arguments> queries() {
        List<Arguments> out = new ArrayList<>();
        for (String mode : List.of("function", "data")) {
            for (String sql : SetOperationQueries.queries()) {
                out.add(Arguments.of(mode, sql));
            }
            for (String sql : SetOperationQueries.subqueries()) {
                out.add(Arguments.of(mode, sql));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("queries")
    void answersAsDuckDb(String mode, String sql) throws SQLException {
        cluster.shipping(mode);
        ResultComparison.assertSameResult(ferry, duck, sql, sql.contains("ORDER BY"));
    }

    /**
     * A union of three inputs, two over the same table, is gathered input by input; EXCEPT ALL counts each input's
     * rows where its blocks are, so its plan gathers partial aggregates, one gather per input.
     */
    @Test
    void eachInputIsGatheredOnItsOwn() throws SQLException {
        String union = ResultComparison.plan(ferry, "SELECT i FROM sa UNION ALL SELECT i FROM sa WHERE id < 10 UNION ALL SELECT b FROM sb");
        assertEquals(3, occurrences(union, "=[gather "), union);
        String except = ResultComparison.plan(ferry, "SELECT i, v FROM sa EXCEPT ALL SELECT i, v FROM sb");
        assertEquals(2, occurrences(except, "(PartialAggregate on "), except);
        assertFalse(except.contains("EnumerableMinus"), except);
    }

    private static int occurrences(String text, String part) {
        return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
    }
}
