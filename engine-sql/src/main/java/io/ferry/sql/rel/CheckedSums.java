package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.schema.impl.AggregateFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.tools.Program;
import org.apache.calcite.util.Optionality;

import io.ferry.core.FerryException;

/**
 * SUM over integers in Calcite's row engine adds with Java's wrapping {@code +}: the sum of the largest BIGINT and 1
 * came back as the smallest, where Ferry's own aggregate (and DuckDB) fail with 22003. The last planning step
 * ({@link #PROGRAM}) gives every row-engine aggregate a SUM that adds with {@link Math#addExact}.
 */
public final class CheckedSums {
    private CheckedSums() {
    }

    /** The row engine's accumulator: the sum so far, overflow-checked. NULLs never reach it (a strict aggregate). */
    public static final class Sum {
        public long init() {
            return 0;
        }

        public long add(long sum, long value) {
            try {
                return Math.addExact(sum, value);
            } catch (ArithmeticException e) {
                throw FerryException.overflow("BIGINT (SUM)");
            }
        }

        public long merge(long a, long b) {
            return add(a, b);
        }

        public long result(long sum) {
            return sum;
        }
    }

    @SuppressWarnings("deprecation")
    private static final SqlUserDefinedAggFunction SUM = new SqlUserDefinedAggFunction(
            new SqlIdentifier("SUM", SqlParserPos.ZERO), ReturnTypes.ARG0_NULLABLE_IF_EMPTY, InferTypes.FIRST_KNOWN,
            OperandTypes.NUMERIC, AggregateFunctionImpl.create(Sum.class), false, false, Optionality.FORBIDDEN,
            new JavaTypeFactoryImpl());

    /** Swaps SUM and $SUM0 over BIGINT and INTEGER for {@link Sum} in every row-engine aggregate. */
    public static final Program PROGRAM = (planner, rel, traits, materializations, lattices) ->
            rel.accept(new RelHomogeneousShuttle() {
                @Override
                public RelNode visit(RelNode other) {
                    RelNode visited = super.visit(other);
                    if (!(visited instanceof EnumerableAggregate aggregate)) {
                        return visited;
                    }
                    List<AggregateCall> calls = new ArrayList<>();
                    boolean changed = false;
                    for (AggregateCall c : aggregate.getAggCallList()) {
                        if (isIntegerSum(c, aggregate)) {
                            calls.add(AggregateCall.create(SUM, c.isDistinct(), c.isApproximate(), c.ignoreNulls(),
                                    c.rexList, c.getArgList(), c.filterArg, c.distinctKeys, c.collation,
                                    c.getType(), c.getName()));
                            changed = true;
                        } else {
                            calls.add(c);
                        }
                    }
                    return changed ? aggregate.copy(aggregate.getTraitSet(), aggregate.getInput(),
                            aggregate.getGroupSet(), aggregate.getGroupSets(), calls) : aggregate;
                }
            });

    private static boolean isIntegerSum(AggregateCall c, EnumerableAggregate aggregate) {
        SqlKind kind = c.getAggregation().getKind();
        if (kind != SqlKind.SUM || c.getArgList().size() != 1) {
            return false;
        }
        SqlTypeName arg = aggregate.getInput().getRowType().getFieldList().get(c.getArgList().get(0)).getType()
                .getSqlTypeName();
        SqlTypeName result = c.getType().getSqlTypeName();
        return (arg == SqlTypeName.BIGINT || arg == SqlTypeName.INTEGER) && result == SqlTypeName.BIGINT;
    }
}
