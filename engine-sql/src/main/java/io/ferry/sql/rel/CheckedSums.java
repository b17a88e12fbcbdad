package io.ferry.sql.rel;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
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
 * came back as the smallest, where Ferry's own aggregate fails with 22003. The last planning step ({@link #PROGRAM})
 * gives every row-engine aggregate a SUM of INTEGERs that adds with {@link Math#addExact}, and a SUM of BIGINTs
 * (a DECIMAL(38, 0), as Ferry types it) that adds exactly; window functions get them earlier, from
 * {@code WindowCallsRule}.
 */
public final class CheckedSums {
    private CheckedSums() {
    }

    /**
     * The row engine's accumulator: the sum so far, overflow-checked. NULLs never reach it (a strict aggregate).
     * Where no value was added, Calcite's implementor gives NULL for a nullable result type (SUM) and {@link #init}
     * for a NOT NULL one ($SUM0), so one function serves both.
     */
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

    /**
     * The row engine's SUM of BIGINTs (or INTEGERs) into a DECIMAL(38, 0), Ferry's type for a SUM of BIGINTs:
     * Calcite cannot implement its own SUM of that type ("Unable to implement EnumerableAggregate").
     */
    public static final class WideSum {
        private static final BigDecimal LIMIT = BigDecimal.TEN.pow(38);

        public BigDecimal init() {
            return BigDecimal.ZERO;
        }

        public BigDecimal add(BigDecimal sum, long value) {
            return sum.add(BigDecimal.valueOf(value));
        }

        public BigDecimal merge(BigDecimal a, BigDecimal b) {
            return a.add(b);
        }

        public BigDecimal result(BigDecimal sum) {
            if (sum.abs().compareTo(LIMIT) >= 0) {
                throw FerryException.overflow("DECIMAL(38, 0) (SUM)");
            }
            return sum;
        }
    }

    /** {@link Sum} as an aggregate function of the row engine; the call's type says whether it is SUM or $SUM0. */
    @SuppressWarnings("deprecation")
    public static final SqlUserDefinedAggFunction SUM = new SqlUserDefinedAggFunction(
            new SqlIdentifier("SUM", SqlParserPos.ZERO), ReturnTypes.ARG0_NULLABLE_IF_EMPTY, InferTypes.FIRST_KNOWN,
            OperandTypes.NUMERIC, AggregateFunctionImpl.create(Sum.class), false, false, Optionality.FORBIDDEN,
            new JavaTypeFactoryImpl());

    /** {@link WideSum} as an aggregate function of the row engine. */
    @SuppressWarnings("deprecation")
    public static final SqlUserDefinedAggFunction WIDE_SUM = new SqlUserDefinedAggFunction(
            new SqlIdentifier("SUM", SqlParserPos.ZERO), ReturnTypes.ARG0_NULLABLE_IF_EMPTY, InferTypes.FIRST_KNOWN,
            OperandTypes.NUMERIC, AggregateFunctionImpl.create(WideSum.class), false, false, Optionality.FORBIDDEN,
            new JavaTypeFactoryImpl());

    /** Swaps SUM and $SUM0 over BIGINT and INTEGER for {@link Sum} or {@link WideSum} in row-engine aggregates. */
    public static final Program PROGRAM = BottomUp.program(visited -> {
        if (!(visited instanceof EnumerableAggregate aggregate)) {
            return visited;
        }
        List<AggregateCall> calls = new ArrayList<>();
        boolean changed = false;
        for (AggregateCall c : aggregate.getAggCallList()) {
            SqlUserDefinedAggFunction checked = c.getArgList().size() != 1 ? null
                    : replacement(c.getAggregation().getKind(), aggregate.getInput().getRowType().getFieldList()
                            .get(c.getArgList().get(0)).getType(), c.getType());
            if (checked != null) {
                calls.add(AggregateCall.create(checked, c.isDistinct(), c.isApproximate(), c.ignoreNulls(),
                        c.rexList, c.getArgList(), c.filterArg, c.distinctKeys, c.collation,
                        c.getType(), c.getName()));
                changed = true;
            } else {
                calls.add(c);
            }
        }
        return changed ? aggregate.copy(aggregate.getTraitSet(), aggregate.getInput(),
                aggregate.getGroupSet(), aggregate.getGroupSets(), calls) : aggregate;
    });

    /**
     * The checked function for an aggregate of {@code kind} over {@code arg} giving {@code result}: {@link #SUM} for
     * a BIGINT sum of integers, {@link #WIDE_SUM} for a DECIMAL(p, 0) one, null for any other.
     */
    public static SqlUserDefinedAggFunction replacement(SqlKind kind, RelDataType arg, RelDataType result) {
        SqlTypeName a = arg.getSqlTypeName();
        if ((kind != SqlKind.SUM && kind != SqlKind.SUM0) || (a != SqlTypeName.BIGINT && a != SqlTypeName.INTEGER)) {
            return null;
        }
        if (result.getSqlTypeName() == SqlTypeName.BIGINT) {
            return SUM;
        }
        return result.getSqlTypeName() == SqlTypeName.DECIMAL && result.getScale() == 0 ? WIDE_SUM : null;
    }
}
