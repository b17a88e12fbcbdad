package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.SetOp;

import io.ferry.core.exec.AggCall;
import io.ferry.core.exec.AggCall.AggKind;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.expr.Call;
import io.ferry.core.expr.Expr;
import io.ferry.core.expr.InputRef;
import io.ferry.core.expr.Literal;
import io.ferry.core.expr.Op;
import io.ferry.core.types.FerryType;

/**
 * The plans of the set operations over Ferry's operators. UNION ALL concatenates its inputs ({@link
 * PlanNode.Union}); UNION groups that by every column. INTERSECT and EXCEPT count: every input's rows get one
 * BOOLEAN column per input, TRUE in their own; the union of them is grouped by the row's columns with one {@code
 * COUNT(*) FILTER} per input, so each distinct row (NULLs equal, as a GROUP BY and the standard's set operations
 * compare them) learns how often each input has it. The distinct forms keep the rows whose counts pass (INTERSECT:
 * in every input; EXCEPT: in the first and no other); the ALL forms give each row back as often as SQL says
 * (INTERSECT ALL: the smallest count; EXCEPT ALL: the first count less the others', {@link PlanNode.Replicate}).
 * The counts are a hash aggregation, so on a cluster each input's fragments count their own rows first.
 */
final class SetOperations {
    private SetOperations() {
    }

    /** UNION [ALL] of {@code union}'s inputs. */
    static PlanNode union(SetOp union) {
        PlanNode all = concat(union, 0);
        return union.all ? all : new PlanNode.Aggregate(all, allColumns(union), List.of());
    }

    /** INTERSECT [ALL] ({@code except} false) or EXCEPT [ALL] of {@code op}'s inputs. */
    static PlanNode counted(SetOp op, boolean except) {
        int width = op.getRowType().getFieldCount();
        int n = op.getInputs().size();
        PlanNode counts = new PlanNode.Aggregate(concat(op, n), allColumns(op), countPerInput(width, n));
        Expr keep = op.all ? multiplicity(width, n, except) : passes(width, n, except);
        List<Expr> out = new ArrayList<>(width + 1);
        for (int c = 0; c < width; c++) {
            out.add(new InputRef(c, counts.types().get(c)));
        }
        if (!op.all) {
            return new PlanNode.Project(new PlanNode.Filter(counts, keep), out);
        }
        List<Expr> withCount = new ArrayList<>(out);
        withCount.add(keep);
        return new PlanNode.Project(new PlanNode.Replicate(new PlanNode.Project(counts, withCount), width), out);
    }

    /**
     * The inputs' rows in the set operation's types, each input cast where Calcite left its type wider, narrower
     * or of another kind (INTEGER beside BIGINT, DECIMAL scales, DATE beside TIMESTAMP), followed by {@code markers}
     * BOOLEAN columns: TRUE in input i's own, FALSE in the others.
     */
    private static PlanNode concat(SetOp op, int markers) {
        List<FerryType> types = FerryRel.types(op.getRowType());
        List<PlanNode> cast = new ArrayList<>(op.getInputs().size());
        for (int i = 0; i < op.getInputs().size(); i++) {
            PlanNode input = FerryRel.plan(op.getInput(i));
            List<FerryType> have = input.types();
            if (have.equals(types) && markers == 0) {
                cast.add(input);
                continue;
            }
            List<Expr> exprs = new ArrayList<>(types.size() + markers);
            for (int c = 0; c < types.size(); c++) {
                Expr ref = new InputRef(c, have.get(c));
                // a plain CAST, not RexTranslator.cast: that leaves an INTEGER as it is where a BIGINT is asked for,
                // and the union's inputs must produce its types exactly
                exprs.add(have.get(c).equals(types.get(c)) ? ref : new Call(Op.CAST, List.of(ref), types.get(c)));
            }
            for (int m = 0; m < markers; m++) {
                exprs.add(new Literal(m == i ? 1L : 0L, FerryType.BOOLEAN));
            }
            cast.add(new PlanNode.Project(input, exprs));
        }
        List<FerryType> unionTypes = new ArrayList<>(types);
        for (int m = 0; m < markers; m++) {
            unionTypes.add(FerryType.BOOLEAN);
        }
        return new PlanNode.Union(cast, unionTypes);
    }

    private static int[] allColumns(RelNode op) {
        int[] keys = new int[op.getRowType().getFieldCount()];
        for (int c = 0; c < keys.length; c++) {
            keys[c] = c;
        }
        return keys;
    }

    /** COUNT(*) FILTER (WHERE marker i) for each input i: the aggregate's columns after the row's. */
    private static List<AggCall> countPerInput(int width, int n) {
        List<AggCall> calls = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            calls.add(new AggCall(AggKind.COUNT, -1, FerryType.BIGINT, 0, false, -1, width + i, false));
        }
        return calls;
    }

    private static Expr count(int width, int i) {
        return new InputRef(width + i, FerryType.BIGINT);
    }

    private static Expr zero() {
        return new Literal(0L, FerryType.BIGINT);
    }

    /** INTERSECT: every count above 0. EXCEPT: the first count above 0, every other 0. */
    private static Expr passes(int width, int n, boolean except) {
        List<Expr> conjuncts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Op op = except && i > 0 ? Op.EQ : Op.GT;
            conjuncts.add(new Call(op, List.of(count(width, i), zero()), FerryType.BOOLEAN));
        }
        return conjuncts.size() == 1 ? conjuncts.get(0) : new Call(Op.AND, conjuncts, FerryType.BOOLEAN);
    }

    /**
     * How often a row comes out. INTERSECT ALL: the smallest count. EXCEPT ALL, which Calcite merges left-deep
     * ({@code (a EXCEPT ALL b) EXCEPT ALL c}): the first count less all the others, where 0 or less means none.
     */
    private static Expr multiplicity(int width, int n, boolean except) {
        Expr m = count(width, 0);
        for (int i = 1; i < n; i++) {
            Expr c = count(width, i);
            m = except ? new Call(Op.MINUS, List.of(m, c), FerryType.BIGINT)
                    : new Call(Op.CASE, List.of(new Call(Op.LT, List.of(c, m), FerryType.BOOLEAN), c, m),
                            FerryType.BIGINT);
        }
        return m;
    }
}
