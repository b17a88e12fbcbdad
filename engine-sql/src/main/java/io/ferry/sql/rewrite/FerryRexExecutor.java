package io.ferry.sql.rewrite;

import java.math.BigDecimal;
import java.util.List;

import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;
import org.apache.calcite.util.Util;

import io.ferry.core.FerryException;
import io.ferry.core.expr.ExprCompiler;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.WideDecimal;
import io.ferry.core.vector.Vector;
import io.ferry.sql.TypeMapping;
import io.ferry.sql.translate.RexTranslator;
import io.ferry.sql.translate.UnsupportedExpression;

/**
 * Folds constant expressions with Ferry's own kernels, so that a value computed while planning is the value the
 * same expression computes at run time: Calcite's folding (Java's String and BigDecimal semantics) counted
 * {@code CHAR_LENGTH('🦆')} as 2 and rounded {@code CAST(0.125E0 AS DECIMAL(12, 2))} to 0.12, where Ferry's kernels
 * (and DuckDB) say 1 and 0.13. An expression Ferry has no kernel for is folded by Calcite's executor; one whose
 * evaluation fails (a division by zero in a branch that may never run) is left for run time, where it fails only
 * if it is reached. An expression that reads a parameter ({@code ?}) is left as it is: Calcite counts a parameter as
 * a constant, but its value is bound after planning (Calcite's executor folded it to NULL, so a prepared
 * {@code INSERT ... VALUES (1, ?), (2, 'x')} stored NULLs).
 */
public final class FerryRexExecutor implements RexExecutor {
    private static final Batch ONE_ROW = new Batch(1, new Vector[0]);

    private final RexExecutor calcite;

    public FerryRexExecutor(RexExecutor calcite) {
        this.calcite = calcite;
    }

    @Override
    public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
        for (RexNode e : constExps) {
            reducedValues.add(fold(rexBuilder, e));
        }
    }

    private RexNode fold(RexBuilder rexBuilder, RexNode e) {
        if (e instanceof RexLiteral) {
            return e; // nothing to fold: a VALUES list of 1000 rows brings 10,000 of them here
        }
        if (readsParameter(e)) {
            return e;
        }
        FerryType type = TypeMapping.toFerry(e.getType());
        if (type == null) {
            return calcite(rexBuilder, e);
        }
        Vector v;
        try {
            v = ExprCompiler.compile(new RexTranslator(List.of(), rexBuilder).translate(e)).eval(ONE_ROW);
        } catch (UnsupportedExpression unsupported) {
            return calcite(rexBuilder, e);
        } catch (FerryException | ArithmeticException failed) {
            return e;
        }
        if (v.isNull(0)) {
            return rexBuilder.makeNullLiteral(e.getType());
        }
        Object value = switch (type.kind()) {
            case BOOLEAN -> ((LongVector) v).get(0) != 0;
            case INTEGER, BIGINT -> BigDecimal.valueOf(((LongVector) v).get(0));
            case DECIMAL -> v instanceof BytesVector wide ? WideDecimal.get(wide, 0, type.scale())
                    : BigDecimal.valueOf(((LongVector) v).get(0), type.scale());
            case DOUBLE -> {
                double d = ((DoubleVector) v).get(0);
                yield Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
            }
            case DATE -> DateString.fromDaysSinceEpoch((int) ((LongVector) v).get(0));
            case TIMESTAMP -> TimestampString.fromMillisSinceEpoch(((LongVector) v).get(0));
            case VARCHAR -> ((BytesVector) v).getString(0);
        };
        return value == null ? e : rexBuilder.makeLiteral(value, e.getType(), true);
    }

    private static boolean readsParameter(RexNode e) {
        try {
            e.accept(new RexVisitorImpl<Void>(true) {
                @Override
                public Void visitDynamicParam(RexDynamicParam parameter) {
                    throw Util.FoundOne.NULL;
                }
            });
            return false;
        } catch (Util.FoundOne found) {
            return true;
        }
    }

    private RexNode calcite(RexBuilder rexBuilder, RexNode e) {
        List<RexNode> out = new java.util.ArrayList<>(1);
        calcite.reduce(rexBuilder, List.of(e), out);
        return out.get(0);
    }
}
