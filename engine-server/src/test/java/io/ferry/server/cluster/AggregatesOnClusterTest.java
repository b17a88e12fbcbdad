package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.ferry.sql.AggregateQueries;
import io.ferry.sql.PreparedQueries;
import io.ferry.sql.ResultComparison;
import io.ferry.sql.SubqueryQueries;
import io.ferry.sql.WideDecimalQueries;
import io.ferry.sql.WindowQueries;

/**
 * The quantile, grouping-set and other aggregate queries of {@code OrderedSetAggregatesTest} (FILTER, DISTINCT
 * beside other calls, CORR and REGR_*, STRING_AGG with and without ORDER BY: their partial states merged) on a
 * coordinator and two workers over the tcp fabric, in forced function shipping (partial states, values and sketches,
 * cross the network) and forced data shipping, each against DuckDB on the same rows; and the subqueries of
 * {@code SubqueryOracleTest} (three-valued IN and NOT IN, literal GROUP BY keys under NOT EXISTS), whose rewrites
 * come before planning and must hold once the plan is split between nodes; and the window functions of
 * {@code WindowFunctionsTest}, which the coordinator computes in Ferry's window operator over the rows it gathered;
 * and the DECIMALs past 18 digits of {@code DecimalTypesTest}, whose 128-bit values and sums cross the network.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AggregatesOnClusterTest {
    private TwoWorkerCluster cluster;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void start() throws Exception {
        cluster = TwoWorkerCluster.start();
        ferry = cluster.ferry();
        duck = cluster.duck();
        AggregateQueries.load(ferry, duck);
        SubqueryQueries.load(ferry, duck);
        WindowQueries.load(ferry, duck);
        WideDecimalQueries.load(ferry, duck);
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
            for (String sql : AggregateQueries.exactQuantiles()) {
                out.add(Arguments.of(mode, sql));
            }
            for (String sql : AggregateQueries.groupingSets()) {
                out.add(Arguments.of(mode, sql));
            }
            for (String sql : AggregateQueries.moreAggregates()) {
                out.add(Arguments.of(mode, sql));
            }
            for (String sql : AggregateQueries.orderedStringAggregates()) {
                out.add(Arguments.of(mode, sql));
            }
            for (String sql : SubqueryQueries.queries()) {
                out.add(Arguments.of(mode, sql));
            }
            for (String sql : SubqueryQueries.enclosingCorrelations()) {
                out.add(Arguments.of(mode, sql));
            }
            for (String sql : WindowQueries.queries()) {
                out.add(Arguments.of(mode, sql));
            }
            for (String sql : WideDecimalQueries.queries()) {
                out.add(Arguments.of(mode, sql));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("queries")
    void answersAsDuckDb(String mode, String sql) throws SQLException {
        cluster.shipping(mode);
        ResultComparison.assertSameResult(ferry, duck, sql, sql.contains(" LIMIT "));
    }

    Stream<Arguments> prepared() {
        List<Arguments> out = new ArrayList<>();
        for (String mode : List.of("function", "data")) {
            for (PreparedQueries.Case c : PreparedQueries.cases()) {
                out.add(Arguments.of(mode, c));
            }
        }
        return out.stream();
    }

    /** Parameters are bound to their values before the plan is split and shipped: every node sees the constants. */
    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("prepared")
    void preparedStatementsAnswerAsDuckDb(String mode, PreparedQueries.Case c) throws SQLException {
        cluster.shipping(mode);
        PreparedQueries.assertAnswersAsDuckDb(ferry, duck, c);
    }

    Stream<Arguments> correlatedRowIns() {
        List<Arguments> out = new ArrayList<>();
        for (String mode : List.of("function", "data")) {
            for (List<String> pair : SubqueryQueries.correlatedRowIns()) {
                out.add(Arguments.of(mode, pair.get(0), pair.get(1)));
            }
        }
        return out.stream();
    }

    /** An IN of several columns over a correlated subquery, against the EXISTS that DuckDB answers in its place. */
    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("correlatedRowIns")
    void correlatedInOfSeveralColumnsAsDuckDbsExists(String mode, String sql, String duckSql) throws SQLException {
        cluster.shipping(mode);
        ResultComparison.assertSameResult(ferry, sql, duck, duckSql, false);
    }

    Stream<Arguments> severalRowScalars() {
        List<Arguments> out = new ArrayList<>();
        for (String mode : List.of("function", "data")) {
            for (String sql : SubqueryQueries.severalRowScalars()) {
                out.add(Arguments.of(mode, sql));
            }
        }
        return out.stream();
    }

    /** More than one row from a scalar subquery fails (21000) once the plan is split between nodes too. */
    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("severalRowScalars")
    void scalarSubqueryOfSeveralRowsFails(String mode, String sql) throws SQLException {
        cluster.shipping(mode);
        SQLException e = assertThrows(SQLException.class, () -> ResultComparison.rows(ferry, sql));
        assertEquals("21000", e.getSQLState(), e.getMessage());
    }

    Stream<String> groupingSets() {
        return AggregateQueries.groupingSets().stream();
    }

    /** The coordinator's plan derives the grouping sets in Ferry's merge, not in the row engine. */
    @ParameterizedTest
    @MethodSource("groupingSets")
    void groupingSetsRunInFerrysAggregate(String sql) throws SQLException {
        String plan = ResultComparison.plan(ferry, sql);
        assertFalse(plan.contains("EnumerableAggregate"), plan);
    }

    Stream<Arguments> orderedStringAggregates() {
        List<Arguments> out = new ArrayList<>();
        for (String mode : List.of("function", "data")) {
            for (String sql : AggregateQueries.orderedStringAggregates()) {
                out.add(Arguments.of(mode, sql));
            }
        }
        return out.stream();
    }

    /**
     * STRING_AGG ... ORDER BY runs in Ferry's aggregate in either shipping mode (in function shipping its entries,
     * keys and all, cross the network as partial states): no node of the row engine below the converter at the top.
     */
    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("orderedStringAggregates")
    void orderedStringAggregatesRunInFerrysAggregate(String mode, String sql) throws SQLException {
        cluster.shipping(mode);
        String plan = ResultComparison.plan(ferry, sql);
        assertTrue(plan.contains("FerryAggregate"), plan);
        assertFalse(plan.replace("FerryToEnumerableConverter", "").contains("Enumerable"), plan);
    }

    Stream<String> windows() {
        return WindowQueries.queries().stream();
    }

    /** Windows run in Ferry's operator on the coordinator, above the gather of their input. */
    @ParameterizedTest
    @MethodSource("windows")
    void windowsRunInFerry(String sql) throws SQLException {
        String plan = ResultComparison.plan(ferry, sql);
        assertTrue(plan.contains("FerryWindow"), plan);
        assertFalse(plan.contains("EnumerableWindow") || plan.contains("CheckedWindow"), plan);
    }
}
