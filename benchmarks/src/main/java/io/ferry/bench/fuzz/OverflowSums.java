package io.ferry.bench.fuzz;

import java.util.List;
import java.util.function.UnaryOperator;

import io.ferry.bench.fuzz.Expr.Call;
import io.ferry.bench.fuzz.Expr.Form;
import io.ferry.bench.fuzz.Expr.Literal;
import io.ferry.bench.fuzz.Expr.SortItem;
import io.ferry.bench.fuzz.Expr.Subquery;
import io.ferry.bench.fuzz.Expr.Window;
import io.ferry.bench.fuzz.Query.Join;
import io.ferry.bench.fuzz.Query.Select;
import io.ferry.bench.fuzz.Query.SetOperation;

/**
 * SUMs and AVGs of DOUBLEs: their answer depends on the order of the additions, which SQL leaves open, in the last
 * bits always and wholly where they add edge values (±Double.MAX_VALUE, 1e300). {@code MAX + MAX - MAX} is Infinity added left to right and MAX in
 * another order, {@code MAX - MAX + 3.5} is 3.5 or 0.0 (3.5 absorbed by MAX), and Ferry (partial sums per thread
 * and per worker) and DuckDB (whose order changes with its threads) add in different orders.
 *
 * <p>Such a query's answer cannot be checked value by value, and the sums may feed a HAVING, a comparison or a
 * DISTINCT. So the fuzzer asks a second, checkable question: the same query with the huge values left out of those
 * sums and the rest added exactly ({@code SUM(CAST(CASE WHEN ABS(x) < 1E20 THEN x END AS DECIMAL(38, 9)))}). Where
 * that query agrees, the first one's difference is put down to the order of the additions
 * ({@link Outcome#ORDER_DEPENDENT}); where it does not, the first one stays a mismatch. Everything else in the query,
 * MIN/MAX and comparisons of the edge values included, is still compared.
 */
final class OverflowSums {
    /** The checking query adds the values below this as DECIMAL(38, 9), exactly, and leaves the others out. */
    static final String EXACT_BELOW = "1.0E20";

    private OverflowSums() {
    }

    /** Whether {@code q} has a SUM or AVG (an aggregate or over a window) of DOUBLEs. */
    static boolean present(Query q) {
        return !withoutHugeValues(q).sql().equals(q.sql());
    }

    /** {@code q} with every huge value left out of such SUMs and AVGs. */
    static Query withoutHugeValues(Query q) {
        return map(q, OverflowSums::rewrite);
    }

    private static Expr rewrite(Expr e) {
        if (e instanceof Call c && orderDependent(c)) {
            return c.withChildren(List.of(belowHuge(c.args().get(0))));
        }
        if (e instanceof Window w && orderDependent(w.function())) {
            Call f = (Call) w.function().withChildren(List.of(belowHuge(w.function().args().get(0))));
            return new Window(f, w.partitionBy(), w.orderBy(), w.constants(), w.frame());
        }
        return e;
    }

    /**
     * Every SUM and AVG of DOUBLEs: with edge values the order of the additions decides overflow and absorption, and
     * without them still the last bits, which a DISTINCT or a GROUP BY over the result then tells apart (fuzzer, seed
     * 319 query 734: two averages of one group's values, added in other orders on the cluster's workers, 1 ulp
     * apart under a DISTINCT, and a LIMIT that cut the answers at different rows).
     */
    private static boolean orderDependent(Call c) {
        return c.aggregate() && (c.name().equals("SUM") || c.name().equals("AVG")) && c.args().size() == 1
                && c.args().get(0).type() == SqlType.DOUBLE;
    }

    /**
     * {@code CAST(CASE WHEN ABS(x) < 1E20 THEN x END AS DECIMAL(38, 9))}: NULL, which SUM and AVG skip, for the huge
     * values, and the others added exactly. A quotient of two extreme BIGINTs is near 1e18, and a group's sum of a
     * few of them and of small ones cancels to -29 in one order and -592 in another (fuzzer, seed 114 query 2435):
     * in DECIMAL the order does not matter.
     */
    private static Expr belowHuge(Expr x) {
        Expr abs = new Call("ABS", Form.FUNCTION, List.of(x), SqlType.DOUBLE, Construct.SCALAR);
        Expr small = new Call("<", Form.INFIX, List.of(abs, new Literal(EXACT_BELOW, SqlType.DOUBLE)),
                SqlType.BOOLEAN, Construct.SCALAR);
        Expr kept = new Call("CASE", Form.CASE, List.of(small, x), SqlType.DOUBLE, Construct.SCALAR);
        return new Call("DECIMAL(38,9)", Form.CAST, List.of(kept), SqlType.DECIMAL, Construct.SCALAR);
    }

    /** Applies {@code f} to every expression of {@code q}, bottom up, subqueries and window orderings included. */
    private static Query map(Query q, UnaryOperator<Expr> f) {
        if (q instanceof SetOperation s) {
            return new SetOperation(s.operator(), map(s.left(), f), map(s.right(), f));
        }
        return map((Select) q, f);
    }

    private static Select map(Select s, UnaryOperator<Expr> f) {
        List<Join> joins = s.joins().stream().map(j -> new Join(j.type(), j.table(), map(j.on(), f))).toList();
        return s.with(map(s.items(), f), joins, map(s.where(), f), map(s.groupBy(), f), map(s.having(), f),
                s.orderBy());
    }

    private static List<Expr> map(List<Expr> exprs, UnaryOperator<Expr> f) {
        return exprs.stream().map(e -> map(e, f)).toList();
    }

    private static Expr map(Expr e, UnaryOperator<Expr> f) {
        Expr out = e.withChildren(map(e.children(), f));
        if (out instanceof Subquery s) {
            out = s.withQuery(map(s.query(), f));
        }
        if (out instanceof Window w) {
            List<SortItem> order = w.orderBy().stream()
                    .map(o -> new SortItem(map(o.expr(), f), o.descending(), o.nullsFirst())).toList();
            out = new Window(w.function(), w.partitionBy(), order, w.constants(), w.frame());
        }
        return f.apply(out);
    }
}
