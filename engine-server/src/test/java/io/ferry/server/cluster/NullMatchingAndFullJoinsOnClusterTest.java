package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

import io.ferry.sql.JoinQueries;
import io.ferry.sql.ResultComparison;

/**
 * The joins of {@code NullMatchingAndFullJoinsTest} on a coordinator and two workers over the tcp fabric, in forced
 * function shipping, forced data shipping and the cost model's choice, each against DuckDB on the same rows. A hash
 * join's probe side is divided among the nodes and its build side read whole by each: NULL-matching keys must match
 * on every node, and a FULL join's right rows that no left row matches anywhere must come back once each (its ANTI
 * half probes with the right input against all of the left).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NullMatchingAndFullJoinsOnClusterTest {
    private TwoWorkerCluster cluster;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void start() throws Exception {
        cluster = TwoWorkerCluster.start();
        ferry = cluster.ferry();
        duck = cluster.duck();
        JoinQueries.load(ferry, duck);
    }

    @AfterAll
    void stop() throws SQLException {
        if (cluster != null) {
            cluster.close();
        }
    }

    Stream<Arguments> queries() {
        List<Arguments> out = new ArrayList<>();
        for (String mode : List.of("function", "data", "auto")) {
            for (String sql : JoinQueries.nullMatching()) {
                out.add(Arguments.of(mode, sql));
            }
            for (String sql : JoinQueries.full()) {
                out.add(Arguments.of(mode, sql));
            }
            for (String sql : JoinQueries.withoutEquality()) {
                out.add(Arguments.of(mode, sql));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("queries")
    void answersAsDuckDbInFerry(String mode, String sql) throws SQLException {
        cluster.shipping(mode);
        ResultComparison.assertSameResult(ferry, duck, sql, sql.contains("ORDER BY"));
        String plan = ResultComparison.plan(ferry, sql);
        assertFalse(plan.lines().anyMatch(l -> l.trim().startsWith("Enumerable")), plan);
    }

    /** Each half of a FULL join is gathered on its own, the LEFT join's probe and the ANTI join's both divided. */
    @Test
    void bothHalvesOfAFullJoinAreGathered() throws SQLException {
        String plan = ResultComparison.plan(ferry, "SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k = b.k AND a.x > b.x");
        assertTrue(plan.split(java.util.regex.Pattern.quote("=[gather "), -1).length - 1 >= 2, plan);
    }
}
