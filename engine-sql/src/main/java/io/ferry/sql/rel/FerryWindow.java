package io.ferry.sql.rel;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.rex.RexWindowExclusion;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.type.SqlTypeFamily;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.SortKey;
import io.ferry.core.exec.WindowCall;
import io.ferry.core.exec.WindowFrame;
import io.ferry.core.expr.Expr;
import io.ferry.core.expr.InputRef;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TypeKind;
import io.ferry.sql.TypeMapping;
import io.ferry.sql.translate.RexTranslator;
import io.ferry.sql.translate.UnsupportedExpression;

/**
 * Window functions in Ferry's window operator ({@link PlanNode.Window}, one per window of the SELECT): ROW_NUMBER,
 * RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, COUNT, SUM, MIN, MAX, FIRST_VALUE, LAST_VALUE, NTH_VALUE, LAG and
 * LEAD (the value functions with IGNORE NULLS too), over ROWS and RANGE frames with any bounds (a RANGE offset over
 * one numeric, DATE or TIMESTAMP key, an interval in months too), with or without EXCLUDE. (NTILE arrives as
 * arithmetic over ROW_NUMBER and COUNT, AVG and the statistics as sums and counts: {@code WindowCallsRule} and
 * Calcite's conversion.) A RANGE offset beyond BIGINT in the key's units is the largest BIGINT over keys that never
 * lie further apart, and refused (0A000) over those that may, where Calcite's row engine failed with an internal error.
 * A LAG or LEAD offset may be an expression of the row ({@code LAG(x, n)}: each row looks its own n rows back; the
 * row engine failed such windows with XX000). DISTINCT is refused before planning.
 *
 * <p>Constants a call reads (the default of a LAG, the 1 of a SUM(1)) are Calcite's extra inputs past the input's
 * columns, and a LAG's default may have another type than its value: the plan computes such columns in a
 * projection below the windows and drops them above.
 */
public final class FerryWindow extends Window implements FerryRel {
    public FerryWindow(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<RexLiteral> constants,
            RelDataType rowType, List<Group> groups) {
        super(cluster, traits, input, constants, rowType, groups);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new FerryWindow(getCluster(), traitSet, sole(inputs), constants, getRowType(), groups);
    }

    @Override
    public Window copy(List<RexLiteral> newConstants) {
        return new FerryWindow(getCluster(), getTraitSet(), getInput(), newConstants, getRowType(), groups);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        RelOptCost cost = super.computeSelfCost(planner, mq);
        return cost == null ? null : cost.multiplyBy(COST_FACTOR);
    }

    /** Whether Ferry's window operator computes every call of every window of {@code window}. */
    public static boolean supported(Window window) {
        if (!FerryRel.supported(window.getInput().getRowType()) || !FerryRel.supported(window.getRowType())) {
            return false;
        }
        try {
            new Planner(window).plan(null);
            return true;
        } catch (UnsupportedExpression e) {
            return false;
        }
    }

    @Override
    public PlanNode toPlan() {
        return new Planner(this).plan(FerryRel.plan(getInput()));
    }

    /** Translates one window rel; with a null input it only checks that every part translates. */
    private static final class Planner {
        private final Window window;
        private final int width;
        private final List<FerryType> inputTypes;
        /** Columns computed below the windows (constants, cast defaults), and where each is. */
        private final Map<Expr, Integer> extraColumns = new LinkedHashMap<>();
        private final List<Expr> extraExprs = new ArrayList<>();

        Planner(Window window) {
            this.window = window;
            this.width = window.getInput().getRowType().getFieldCount();
            this.inputTypes = FerryRel.types(window.getInput().getRowType());
        }

        private static WindowFrame.Exclude exclude(RexWindowExclusion exclude) {
            return switch (exclude) {
                case EXCLUDE_NO_OTHER -> WindowFrame.Exclude.NO_OTHERS;
                case EXCLUDE_CURRENT_ROW -> WindowFrame.Exclude.CURRENT_ROW;
                case EXCLUDE_GROUP -> WindowFrame.Exclude.GROUP;
                case EXCLUDE_TIES -> WindowFrame.Exclude.TIES;
            };
        }

        PlanNode plan(PlanNode input) {
            List<int[]> keys = new ArrayList<>();
            List<List<SortKey>> orders = new ArrayList<>();
            List<WindowFrame> frames = new ArrayList<>();
            List<List<WindowCall>> calls = new ArrayList<>();
            for (Group g : window.groups) {
                keys.add(g.keys.toArray());
                orders.add(orderKeys(g));
                frames.add(frame(g).excluding(exclude(g.exclude)));
                List<WindowCall> list = new ArrayList<>();
                for (RexWinAggCall c : g.aggCalls) {
                    list.add(call(c));
                }
                calls.add(list);
            }
            if (input == null) {
                return null;
            }
            PlanNode node = input;
            if (!extraExprs.isEmpty()) {
                List<Expr> exprs = new ArrayList<>();
                for (int i = 0; i < width; i++) {
                    exprs.add(new InputRef(i, inputTypes.get(i)));
                }
                exprs.addAll(extraExprs);
                node = new PlanNode.Project(node, exprs);
            }
            for (int g = 0; g < keys.size(); g++) {
                node = new PlanNode.Window(node, keys.get(g), orders.get(g), frames.get(g), calls.get(g));
            }
            if (extraExprs.isEmpty()) {
                return node;
            }
            List<FerryType> types = node.types();
            List<Expr> kept = new ArrayList<>();
            for (int i = 0; i < types.size(); i++) {
                if (i < width || i >= width + extraExprs.size()) {
                    kept.add(new InputRef(i, types.get(i)));
                }
            }
            return new PlanNode.Project(node, kept);
        }

        private static List<SortKey> orderKeys(Group g) {
            List<SortKey> out = new ArrayList<>();
            for (RelFieldCollation c : g.orderKeys.getFieldCollations()) {
                boolean desc = c.getDirection().isDescending();
                boolean nullsFirst = switch (c.nullDirection) {
                    case FIRST -> true;
                    case LAST -> false;
                    default -> desc;
                };
                out.add(new SortKey(c.getFieldIndex(), desc, nullsFirst));
            }
            return out;
        }

        private WindowFrame frame(Group g) {
            if (g.isRows || !(offset(g.lowerBound) || offset(g.upperBound))) {
                return new WindowFrame(g.isRows, bound(g.lowerBound), bound(g.upperBound));
            }
            List<RelFieldCollation> order = g.orderKeys.getFieldCollations();
            if (order.isEmpty()) {
                // an ORDER BY key the planner found constant (a COALESCE of literals, a column an empty join side
                // makes NULL) and dropped: every row is a peer of every other, so an offset reaches the whole
                // partition, as it does over the constant key (the row engine failed such windows with XX000)
                return new WindowFrame(false, WindowFrame.Bound.UNBOUNDED_PRECEDING_BOUND,
                        WindowFrame.Bound.UNBOUNDED_FOLLOWING_BOUND);
            }
            if (order.size() != 1) {
                throw new UnsupportedExpression("a RANGE frame with an offset over " + order.size()
                        + " ORDER BY keys");
            }
            FerryType key = inputTypes.get(order.get(0).getFieldIndex());
            WindowFrame.RangeUnit lower = unit(g.lowerBound, key);
            WindowFrame.RangeUnit upper = unit(g.upperBound, key);
            return new WindowFrame(false, rangeBound(g.lowerBound, key, lower), rangeBound(g.upperBound, key, upper),
                    lower, upper, WindowFrame.Exclude.NO_OTHERS);
        }

        /** What bound {@code b}'s offset counts: calendar months for a year-month interval, else the key's units. */
        private WindowFrame.RangeUnit unit(RexWindowBound b, FerryType key) {
            if (!offset(b) || !SqlTypeFamily.INTERVAL_YEAR_MONTH.contains(constant(b.getOffset()).getType())) {
                return WindowFrame.RangeUnit.KEY;
            }
            return switch (key.kind()) {
                case DATE -> WindowFrame.RangeUnit.DATE_MONTHS;
                case TIMESTAMP -> WindowFrame.RangeUnit.TIMESTAMP_MONTHS;
                default -> throw new UnsupportedExpression("a RANGE offset in months over " + key);
            };
        }

        private WindowFrame.Bound bound(RexWindowBound b) {
            if (b.isUnboundedPreceding()) {
                return WindowFrame.Bound.UNBOUNDED_PRECEDING_BOUND;
            }
            if (b.isUnboundedFollowing()) {
                return WindowFrame.Bound.UNBOUNDED_FOLLOWING_BOUND;
            }
            if (b.isCurrentRow()) {
                return WindowFrame.Bound.CURRENT_ROW_BOUND;
            }
            long offset = constantLong(b.getOffset());
            if (offset < 0) {
                throw new UnsupportedExpression("a negative frame offset");
            }
            return new WindowFrame.Bound(offsetKind(b), offset);
        }

        private static boolean offset(RexWindowBound b) {
            return b.getOffset() != null;
        }

        private static WindowFrame.BoundKind offsetKind(RexWindowBound b) {
            return b.isPreceding() ? WindowFrame.BoundKind.PRECEDING : WindowFrame.BoundKind.FOLLOWING;
        }

        /**
         * A RANGE offset in the ORDER BY key's units. Keys lie on a grid (whole numbers, a DECIMAL's last digit,
         * whole days), so an offset between two grid points selects what the lower one does: {@code x >= v - 1.5}
         * over integers is {@code x >= v - 1}.
         */
        private WindowFrame.Bound rangeBound(RexWindowBound b, FerryType key, WindowFrame.RangeUnit unit) {
            if (!offset(b)) {
                return bound(b);
            }
            RexLiteral lit = constant(b.getOffset());
            BigDecimal value = lit.getValueAs(BigDecimal.class);
            if (value == null || value.signum() < 0) {
                throw new UnsupportedExpression("a RANGE offset that is NULL or negative: " + lit);
            }
            boolean interval = SqlTypeFamily.DATETIME_INTERVAL.contains(lit.getType());
            BigDecimal units = switch (key.kind()) {
                case INTEGER, BIGINT -> interval ? null : value;
                case DECIMAL -> interval ? null : value.movePointRight(key.scale());
                // an interval's value is milliseconds, or months for a year-month one
                case DATE -> !interval ? null : unit == WindowFrame.RangeUnit.KEY
                        ? value.divide(BigDecimal.valueOf(86_400_000L), 0, RoundingMode.FLOOR) : value;
                case TIMESTAMP -> interval ? value : null;
                case DOUBLE -> interval ? null : BigDecimal.ZERO;
                default -> null;
            };
            if (units == null || (interval && (unit == WindowFrame.RangeUnit.KEY)
                    == SqlTypeFamily.INTERVAL_YEAR_MONTH.contains(lit.getType()))) {
                throw new UnsupportedExpression("a RANGE offset of " + lit.getType() + " over " + key);
            }
            BigDecimal whole = units.setScale(0, RoundingMode.FLOOR);
            if (whole.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                // No two INTEGERs, DATEs or DECIMALs of up to 18 digits lie further apart than a BIGINT counts, so
                // the largest BIGINT offset selects exactly the rows a larger one does (NULL keys keep their own
                // frames, as for any offset). Over BIGINT, TIMESTAMP or wider DECIMAL keys it would not.
                boolean spanFitsLong = key.kind() == TypeKind.INTEGER || key.kind() == TypeKind.DATE
                        || (key.kind() == TypeKind.DECIMAL && !key.isWideDecimal());
                if (!spanFitsLong) {
                    throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "a RANGE offset of " + lit
                            + " over a " + key.sqlName() + " key is larger than Ferry compares keys with (a BIGINT);"
                            + " write UNBOUNDED PRECEDING or UNBOUNDED FOLLOWING for a frame without that limit");
                }
                whole = BigDecimal.valueOf(Long.MAX_VALUE);
            }
            long offset = whole.longValueExact();
            double real = key.kind() == TypeKind.DOUBLE ? value.doubleValue() : offset;
            if (Double.isInfinite(real)) {
                throw new UnsupportedExpression("a RANGE offset beyond DOUBLE: " + lit);
            }
            return new WindowFrame.Bound(offsetKind(b), offset, real);
        }

        /** Whether {@code node} is a literal, or one of the constants Calcite passes past the input's columns. */
        private boolean isConstant(RexNode node) {
            return node instanceof RexLiteral || (node instanceof RexInputRef ref && ref.getIndex() >= width);
        }

        private RexLiteral constant(RexNode node) {
            if (node instanceof RexLiteral lit) {
                return lit;
            }
            if (node instanceof RexInputRef ref && ref.getIndex() >= width) {
                return window.constants.get(ref.getIndex() - width);
            }
            throw new UnsupportedExpression("a window argument that is not a constant: " + node);
        }

        private long constantLong(RexNode node) {
            RexLiteral lit = constant(node);
            BigDecimal v = lit.getValueAs(BigDecimal.class);
            if (v == null || v.stripTrailingZeros().scale() > 0) {
                throw new UnsupportedExpression("a window offset that is not an integer: " + lit);
            }
            try {
                return v.longValueExact();
            } catch (ArithmeticException e) {
                throw new UnsupportedExpression("a window offset beyond BIGINT: " + lit);
            }
        }

        private WindowCall call(RexWinAggCall c) {
            if (c.distinct) {
                throw new UnsupportedExpression("DISTINCT in a window");
            }
            FerryType type = RexTranslator.type(c.getType());
            SqlAggFunction fn = (SqlAggFunction) c.getOperator();
            List<RexNode> args = c.getOperands();
            WindowCall.Kind kind = kind(fn, c.getType().isNullable());
            if (c.ignoreNulls && !kind.picksValues()) {
                throw new UnsupportedExpression(kind + " IGNORE NULLS");
            }
            switch (kind) {
                case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST -> {
                    expectArgs(kind, args, 0);
                    FerryType expected = kind == WindowCall.Kind.PERCENT_RANK || kind == WindowCall.Kind.CUME_DIST
                            ? FerryType.DOUBLE : FerryType.BIGINT;
                    if (type.kind() != expected.kind()) {
                        throw new UnsupportedExpression(kind + " typed " + type);
                    }
                    return new WindowCall(kind, -1, type);
                }
                case COUNT -> {
                    if (args.size() > 1 || type.kind() != TypeKind.BIGINT) {
                        throw new UnsupportedExpression("COUNT of " + args.size() + " arguments typed " + type);
                    }
                    return new WindowCall(kind, args.isEmpty() ? -1 : column(args.get(0), null), type);
                }
                case SUM, SUM0 -> {
                    expectArgs(kind, args, 1);
                    int arg = column(args.get(0), null);
                    if (!summable(argType(arg), type)) {
                        throw new UnsupportedExpression("SUM of " + argType(arg) + " typed " + type);
                    }
                    return new WindowCall(kind, arg, type);
                }
                case NTH_VALUE -> {
                    expectArgs(kind, args, 2);
                    int arg = column(args.get(0), null);
                    sameType(kind, argType(arg), type);
                    long nth = constantLong(args.get(1));
                    if (nth < 1) {
                        throw new UnsupportedExpression("NTH_VALUE of row " + nth);
                    }
                    return new WindowCall(kind, arg, type, nth, -1, c.ignoreNulls);
                }
                case LAG, LEAD -> {
                    if (args.isEmpty() || args.size() > 3) {
                        throw new UnsupportedExpression(kind + " of " + args.size() + " arguments");
                    }
                    int arg = column(args.get(0), null);
                    sameType(kind, argType(arg), type);
                    int dflt = args.size() > 2 ? column(args.get(2), type) : -1;
                    if (dflt >= 0) {
                        sameType(kind, argType(dflt), type);
                    }
                    boolean constantOffset = args.size() < 2 || isConstant(args.get(1));
                    if (!constantOffset || (args.size() > 1 && constant(args.get(1)).isNull())) {
                        // each row's own offset, from a column of whole numbers (a NULL one: NULL in every row)
                        int offsetArg = column(args.get(1), constantOffset ? FerryType.BIGINT : null);
                        TypeKind offsetKind = argType(offsetArg).kind();
                        if (offsetKind != TypeKind.INTEGER && offsetKind != TypeKind.BIGINT) {
                            throw new UnsupportedExpression(kind + " with an offset of " + argType(offsetArg));
                        }
                        return new WindowCall(kind, arg, type, 0, dflt, c.ignoreNulls, offsetArg);
                    }
                    long offset = args.size() > 1 ? constantLong(args.get(1)) : 1;
                    return new WindowCall(kind, arg, type, offset, dflt, c.ignoreNulls);
                }
                default -> {
                    expectArgs(kind, args, 1);
                    int arg = column(args.get(0), null);
                    sameType(kind, argType(arg), type);
                    return new WindowCall(kind, arg, type, 0, -1, c.ignoreNulls);
                }
            }
        }

        private static WindowCall.Kind kind(SqlAggFunction fn, boolean nullable) {
            if (fn == CheckedSums.SUM || fn == CheckedSums.WIDE_SUM) {
                // WindowCallsRule's overflow-checked SUM: the result type says whether it stands for SUM or $SUM0
                return nullable ? WindowCall.Kind.SUM : WindowCall.Kind.SUM0;
            }
            return switch (fn.getKind()) {
                case ROW_NUMBER -> WindowCall.Kind.ROW_NUMBER;
                case RANK -> WindowCall.Kind.RANK;
                case DENSE_RANK -> WindowCall.Kind.DENSE_RANK;
                case PERCENT_RANK -> WindowCall.Kind.PERCENT_RANK;
                case CUME_DIST -> WindowCall.Kind.CUME_DIST;
                case COUNT -> WindowCall.Kind.COUNT;
                case SUM -> WindowCall.Kind.SUM;
                case SUM0 -> WindowCall.Kind.SUM0;
                case MIN -> WindowCall.Kind.MIN;
                case MAX -> WindowCall.Kind.MAX;
                case FIRST_VALUE -> WindowCall.Kind.FIRST_VALUE;
                case LAST_VALUE -> WindowCall.Kind.LAST_VALUE;
                case NTH_VALUE -> WindowCall.Kind.NTH_VALUE;
                case LAG -> WindowCall.Kind.LAG;
                case LEAD -> WindowCall.Kind.LEAD;
                default -> throw new UnsupportedExpression("window function " + fn.getName());
            };
        }

        private static void expectArgs(WindowCall.Kind kind, List<RexNode> args, int n) {
            if (args.size() != n) {
                throw new UnsupportedExpression(kind + " of " + args.size() + " arguments");
            }
        }

        /**
         * Sums add longs (INTEGERs into BIGINT), 128-bit values (DECIMALs unscaled at their scale, BIGINTs into a
         * DECIMAL(38, 0)) or doubles; a result of another type (an INTEGER SUM, which would have to fail at
         * INTEGER's bounds) stays in the row engine.
         */
        private static boolean summable(FerryType arg, FerryType result) {
            boolean integer = arg.kind() == TypeKind.BIGINT || arg.kind() == TypeKind.INTEGER;
            return switch (result.kind()) {
                case DOUBLE -> arg.kind() == TypeKind.DOUBLE;
                case BIGINT -> integer;
                case DECIMAL -> arg.kind() == TypeKind.DECIMAL ? arg.scale() == result.scale()
                        : integer && result.isWideDecimal() && result.scale() == 0;
                default -> false;
            };
        }

        /** Value functions give their argument's values: the same kind (and scale) in and out. */
        private static void sameType(WindowCall.Kind kind, FerryType arg, FerryType result) {
            if (!sameKind(arg, result)) {
                throw new UnsupportedExpression(kind + " of " + arg + " typed " + result);
            }
        }

        /**
         * Whether values of {@code a} are values of {@code b} as they are held: INTEGER and BIGINT are both longs (a
         * LAG of a BIGINT with an INTEGER default is typed BIGINT; Ferry's cast between them changes nothing, and its
         * row engine failed such a window with XX000 "Integer cannot be cast to Long").
         */
        private static boolean sameKind(FerryType a, FerryType b) {
            return (a.kind() == b.kind() && a.scale() == b.scale())
                    || (TypeMapping.isExactInteger(a) && TypeMapping.isExactInteger(b));
        }

        private FerryType argType(int column) {
            return column < width ? inputTypes.get(column) : extraExprs.get(column - width).type();
        }

        /**
         * The column an operand reads: an input column, or one computed below the windows: a constant, or a default
         * of another type than the call's, cast to it ({@code as}, null where the operand keeps its type).
         */
        private int column(RexNode operand, FerryType as) {
            if (operand instanceof RexInputRef ref && ref.getIndex() < width
                    && (as == null || sameKind(inputTypes.get(ref.getIndex()), as))) {
                return ref.getIndex();
            }
            RexNode value = operand instanceof RexInputRef ref && ref.getIndex() < width ? operand : constant(operand);
            Expr e = new RexTranslator(inputTypes, window.getCluster().getRexBuilder()).translate(value);
            Expr cast = as == null ? e : RexTranslator.cast(e, as);
            Integer known = extraColumns.get(cast);
            if (known != null) {
                return known;
            }
            extraExprs.add(cast);
            int column = width + extraExprs.size() - 1;
            extraColumns.put(cast, column);
            return column;
        }
    }
}
