package io.ferry.bench.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ferry.bench.fuzz.Expr.Call;
import io.ferry.bench.fuzz.Expr.Column;
import io.ferry.bench.fuzz.Expr.Form;
import io.ferry.bench.fuzz.Query.Select;
import io.ferry.bench.fuzz.Query.TableRef;

/**
 * The second question the fuzzer asks of a query that sums edge DOUBLEs: which sums it rewrites, and that a
 * difference in the huge values' sums is excused while one in the rest of the answer is not. Ferry's answers come
 * from a local engine; DuckDB's "other order" is written out, since neither engine's order can be forced.
 */
class OverflowSumsTest {
    private static final ColumnDef G = new ColumnDef("g", SqlType.VARCHAR, "VARCHAR", ColumnDef.Role.KEY);
    private static final ColumnDef D = new ColumnDef("d", SqlType.DOUBLE, "DOUBLE", ColumnDef.Role.PLAIN);
    private static final ColumnDef ED = new ColumnDef("ed", SqlType.DOUBLE, "DOUBLE", ColumnDef.Role.EDGE);
    private static final ColumnDef EB = new ColumnDef("eb", SqlType.BIGINT, "BIGINT", ColumnDef.Role.EDGE);

    private static Column col(ColumnDef c) {
        return new Column("a0", c);
    }

    private static Call agg(String name, Expr arg, SqlType type) {
        return new Call(name, Form.AGGREGATE, List.of(arg), type, Construct.AGGREGATES);
    }

    private static Select grouped(Expr... items) {
        return new Select(false, List.of(items), new TableRef("t0", "a0"), List.of(), List.of(), List.of(col(G)),
                List.of(), List.of(), null, null);
    }

    @Test
    void sumsAndAveragesOfDoublesAreRewritten() {
        Select edgeSum = grouped(col(G), agg("SUM", col(ED), SqlType.DOUBLE), agg("MAX", col(ED), SqlType.DOUBLE));
        assertTrue(OverflowSums.present(edgeSum));
        assertEquals("SELECT a0.g, SUM(CAST(CASE WHEN (ABS(a0.ed) < 1.0E20) THEN a0.ed END AS DECIMAL(38,9))), "
                + "MAX(a0.ed) FROM t0 a0 GROUP BY a0.g", OverflowSums.withoutHugeValues(edgeSum).sql());
        // an extreme BIGINT made a DOUBLE (here divided), whose sums cancel differently in another order
        Expr quotient = new Call("/", Form.DIVIDE, List.of(col(EB), col(D)), SqlType.DOUBLE, Construct.SCALAR);
        assertTrue(OverflowSums.present(grouped(agg("SUM", quotient, SqlType.DOUBLE))));
        // a CASE that may choose the edge column is rewritten as a whole
        Expr either = new Call("COALESCE", Form.FUNCTION, List.of(col(ED), col(D)), SqlType.DOUBLE, Construct.SCALAR);
        assertTrue(OverflowSums.present(grouped(agg("AVG", either, SqlType.DOUBLE))));
        // plain doubles too (their last bits depend on the order: seed 319 query 734); integer edge values (summed
        // exactly, or failing with 22003) and MIN/MAX are left alone
        assertTrue(OverflowSums.present(grouped(agg("SUM", col(D), SqlType.DOUBLE))));
        assertFalse(OverflowSums.present(grouped(agg("SUM", col(EB), SqlType.DECIMAL))));
        assertFalse(OverflowSums.present(grouped(agg("MIN", col(ED), SqlType.DOUBLE))));
        // a huge literal is summed in some order too
        assertTrue(OverflowSums.present(grouped(agg("AVG", new Expr.Literal("1.0E300", SqlType.DOUBLE),
                SqlType.DOUBLE))));
    }

    @Test
    void aDifferenceOnlyInTheHugeValuesSumsIsOrderDependentAndAnyOtherStaysAMismatch() throws Exception {
        Select q = grouped(col(G), agg("SUM", col(ED), SqlType.DOUBLE), agg("SUM", col(D), SqlType.DOUBLE));
        // group x: MAX + MAX - MAX overflows left to right and is MAX in another order; group y has no huge value
        String rows = "('x', 1.7976931348623157E308, 1.5E0), ('x', 1.7976931348623157E308, 2.5E0), "
                + "('x', -1.7976931348623157E308, 0.5E0), ('y', 2.5E0, 1.0E0), ('y', 3.5E0, 2.0E0)";
        try (Execution execution = new Execution(Duration.ofSeconds(20));
                FerryTarget ferry = FerryTarget.local();
                Connection same = Execution.duckDb();
                Connection offInY = Execution.duckDb();
                Connection offInPlainSum = Execution.duckDb()) {
            load(ferry.connection(), rows);
            load(same, rows);
            // a wrong answer, played by DuckDB over rows that differ from Ferry's where no huge value is summed
            load(offInY, rows.replace("3.5E0", "3.0E0"));
            load(offInPlainSum, rows.replace("2.5E0)", "2.0E0)"));

            Result.Rows ferrys = (Result.Rows) execution.ferry(ferry.connection(), q.sql());
            double xSum = ferrys.rows().stream().filter(r -> r.get(0).equals("x")).map(r -> (Double) r.get(1))
                    .findFirst().orElseThrow();
            double otherOrder = Double.isInfinite(xSum) ? Double.MAX_VALUE : Double.POSITIVE_INFINITY;
            Result inAnotherOrder = new Result.Rows(List.of(row("x", otherOrder, 4.5), row("y", 6.0, 3.0)));
            assertEquals(Outcome.ORDER_DEPENDENT,
                    Fuzzer.judge(execution, same, ferry.connection(), q, inAnotherOrder).outcome());
            for (Connection wrong : List.of(offInY, offInPlainSum)) {
                assertEquals(Outcome.MISMATCH, Fuzzer.judge(execution, wrong, ferry.connection(), q,
                        execution.duck(wrong, q.sql())).outcome());
            }
        }
    }

    private static void load(Connection c, String rows) throws Exception {
        new LoadStatement("CREATE TABLE t0 (g VARCHAR, ed DOUBLE, d DOUBLE)", List.of()).run(c);
        new LoadStatement("INSERT INTO t0 VALUES " + rows, List.of()).run(c);
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }
}
