package io.ferry.sql.rewrite;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexFieldCollation;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.rex.RexWindowBounds;
import org.apache.calcite.rex.RexWindowExclusion;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

import com.google.common.collect.ImmutableList;

import io.ferry.sql.rel.CheckedSums;

/**
 * Rewrites window function calls that Calcite's row engine ({@code EnumerableWindow}, which runs the windows Ferry's
 * operator, {@link io.ferry.sql.rel.FerryWindow}, does not) would answer wrongly or could not compile. Ferry's
 * operator takes the rewritten calls as they are: the checked SUM as SUM (or $SUM0), NTILE's arithmetic over
 * ROW_NUMBER and COUNT, the keys with -0.0 made 0.0 (its sort ties them anyway).
 *
 * <ul>
 *   <li>SUM and $SUM0 of INTEGER or BIGINT (SQL-to-rel turns {@code SUM(x) OVER w} into
 *       {@code CASE WHEN COUNT(x) OVER w > 0 THEN $SUM0(x) OVER w END}, and AVG into that sum over the count) add
 *       with Java's wrapping {@code +}: {@code SUM(b) OVER ()} of the largest BIGINT and 5 gave a large negative
 *       number. They become {@link CheckedSums#SUM}, which fails with 22003 as Ferry's own SUM and AVG do.
 *       The calls are swapped here, in the logical project's {@link RexOver}, because the physical window cannot be
 *       rebuilt: EnumerableWindow's constructor is package-private and Window has no way to rewrite its calls.
 *       A user-defined aggregate runs in a window frame as it does under GROUP BY (Calcite gives both the same
 *       reflective implementor), re-adding the frame's rows, so every frame's sum is checked.</li>
 *   <li>MIN, MAX, SUM ($SUM0) and AVG of a NULL literal ({@code MIN(CAST(NULL AS DOUBLE)) OVER ()},
 *       {@code MAX(NULLIF(CAST(NULL AS DATE), dt)) OVER (…)}, which folds to one later),
 *       {@code SUM(CAST(NULL AS DECIMAL(12, 2))) OVER ()}): the window's code generation types the constant as
 *       Object and finds no {@code SqlFunctions.lesser(String, Object)} or {@code BigDecimal.add(Object)}, an
 *       internal error. The answer is NULL on every row (0 for $SUM0, which SUM only reads where the count is not
 *       0), so the call becomes that constant. Of another literal, MIN and MAX
 *       ({@code MAX(TIMESTAMP '2999-12-31 23:59:59') OVER ()} failed with a ClassCastException) are the literal
 *       wherever the frame holds the current row, so it is never empty: the call becomes the literal.</li>
 *   <li>NTILE: Calcite's row engine spreads the larger buckets over the partition, and skips buckets when there are
 *       fewer rows than buckets ({@code NTILE(7)} of 3 rows gave 1, 3, 5; SQL gives 1, 2, 3, larger buckets
 *       first). It becomes that arithmetic over ROW_NUMBER and the partition's COUNT(*) ({@link #ntile}).</li>
 *   <li>DOUBLE partition and order keys are partitioned and sorted as {@link SignedZeros#positive} of themselves,
 *       so that -0.0 and 0.0 computed in the row engine are one partition and tie in RANK.</li>
 * </ul>
 */
public final class WindowCallsRule extends OverRewriteRule {
    public static final WindowCallsRule INSTANCE = new WindowCallsRule();

    /** Aggregates that skip NULLs: over nothing but a NULL literal they are NULL ($SUM0 is 0). */
    private static final Set<SqlKind> NULL_STRICT = EnumSet.of(SqlKind.MIN, SqlKind.MAX, SqlKind.SUM, SqlKind.SUM0,
            SqlKind.AVG);

    private WindowCallsRule() {
        super("WindowCallsRule");
    }

    @Override
    ChangeShuttle shuttle(RexBuilder rex) {
        return new Replacer(rex);
    }

    private static final class Replacer extends ChangeShuttle {
        Replacer(RexBuilder rex) {
            super(rex);
        }

        @Override
        public RexNode visitOver(RexOver over) {
            RexOver visited = (RexOver) super.visitOver(over);
            SqlKind kind = visited.getAggOperator().getKind();
            if (NULL_STRICT.contains(kind) && alwaysNull(visited.getOperands().get(0))) {
                changed = true;
                return kind == SqlKind.SUM0
                        ? rex.makeAbstractCast(visited.getType(), rex.makeZeroLiteral(visited.getType()), false)
                        : rex.makeNullLiteral(visited.getType());
            }
            if ((kind == SqlKind.MIN || kind == SqlKind.MAX) && visited.getOperands().get(0) instanceof RexLiteral
                    && holdsCurrentRow(visited.getWindow())) {
                changed = true;
                return rex.makeAbstractCast(visited.getType(), visited.getOperands().get(0), false);
            }
            SqlAggFunction function = visited.getAggOperator();
            if (visited.getOperands().size() == 1 && function != CheckedSums.SUM && function != CheckedSums.WIDE_SUM) {
                SqlAggFunction checked = CheckedSums.replacement(kind, visited.getOperands().get(0).getType(),
                        visited.getType());
                function = checked == null ? function : checked;
            }
            RexWindow w = visited.getWindow();
            List<RexNode> partition = new ArrayList<>();
            for (RexNode key : w.partitionKeys) {
                partition.add(positive(key));
            }
            List<RexFieldCollation> order = new ArrayList<>();
            for (RexFieldCollation key : w.orderKeys) {
                order.add(new RexFieldCollation(positive(key.left), key.right));
            }
            if (kind == SqlKind.NTILE) {
                changed = true;
                return ntile(visited, partition, ImmutableList.copyOf(order));
            }
            if (function == visited.getAggOperator() && partition.equals(w.partitionKeys)
                    && order.equals(w.orderKeys)) {
                return visited;
            }
            changed = true;
            return rex.makeOver(visited.getType(), function, visited.getOperands(), partition,
                    ImmutableList.copyOf(order), w.getLowerBound(), w.getUpperBound(), w.getExclude(), w.isRows(),
                    true, false, visited.isDistinct(), visited.ignoreNulls());
        }

        /**
         * Whether an operand is NULL on every row: a NULL literal, or what later constant folding makes one
         * ({@code NULLIF(CAST(NULL AS DATE), dt)}, a CASE of NULLs), which the window would meet as a constant too.
         */
        private boolean alwaysNull(RexNode operand) {
            return RexUtil.isNullLiteral(operand, true) || RexUtil.isNullLiteral(
                    new RexSimplify(rex, RelOptPredicateList.EMPTY, RexUtil.EXECUTOR).simplifyPreservingType(operand),
                    true);
        }

        /** Whether every row's frame holds the row itself, so that it is never empty. */
        private static boolean holdsCurrentRow(RexWindow w) {
            return (w.getLowerBound().isPreceding() || w.getLowerBound().isCurrentRow())
                    && (w.getUpperBound().isFollowing() || w.getUpperBound().isCurrentRow());
        }

        /** Constant keys are left alone: they sort and partition nothing. */
        private RexNode positive(RexNode key) {
            return SignedZeros.signed(key) && !(key instanceof RexLiteral) && !SignedZeros.isPositive(key)
                    ? SignedZeros.positive(rex, key) : key;
        }

        /**
         * NTILE(t) as the standard defines it: of a partition's n rows, the first n % t buckets hold n / t + 1 rows
         * and the rest n / t, so the row at 0-based index i (in the window's order) is in bucket
         * {@code i < big * large ? i / big + 1 : (i - big * large) / small + large + 1}, with small = n / t,
         * big = small + 1, large = n % t. With fewer rows than buckets, small is 0 and every row takes the first
         * branch, its own bucket; the divisor of the other branch is kept off 0 all the same.
         */
        private RexNode ntile(RexOver over, List<RexNode> partition, ImmutableList<RexFieldCollation> order) {
            RelDataType bigint = rex.getTypeFactory().createSqlType(SqlTypeName.BIGINT);
            RexNode t = rex.makeCast(bigint, over.getOperands().get(0));
            RexNode n = rex.makeOver(bigint, SqlStdOperatorTable.COUNT, List.of(), partition, ImmutableList.of(),
                    RexWindowBounds.UNBOUNDED_PRECEDING, RexWindowBounds.UNBOUNDED_FOLLOWING,
                    RexWindowExclusion.EXCLUDE_NO_OTHER, true, true, false, false, false);
            RexNode rowNumber = rex.makeOver(bigint, SqlStdOperatorTable.ROW_NUMBER, List.of(), partition, order,
                    RexWindowBounds.UNBOUNDED_PRECEDING, RexWindowBounds.CURRENT_ROW,
                    RexWindowExclusion.EXCLUDE_NO_OTHER, true, true, false, false, false);
            RexNode one = rex.makeExactLiteral(BigDecimal.ONE, bigint);
            RexNode i = arithmetic(SqlStdOperatorTable.MINUS, rowNumber, one);
            RexNode small = arithmetic(SqlStdOperatorTable.DIVIDE, n, t);
            RexNode big = arithmetic(SqlStdOperatorTable.PLUS, small, one);
            RexNode large = arithmetic(SqlStdOperatorTable.MOD, n, t);
            RexNode inBig = arithmetic(SqlStdOperatorTable.MULTIPLY, big, large);
            RexNode smallDivisor = rex.makeCall(SqlStdOperatorTable.CASE,
                    rex.makeCall(SqlStdOperatorTable.EQUALS, small, rex.makeExactLiteral(BigDecimal.ZERO, bigint)),
                    one, small);
            RexNode bucket = rex.makeCall(SqlStdOperatorTable.CASE,
                    rex.makeCall(SqlStdOperatorTable.LESS_THAN, i, inBig),
                    arithmetic(SqlStdOperatorTable.PLUS, arithmetic(SqlStdOperatorTable.DIVIDE, i, big), one),
                    arithmetic(SqlStdOperatorTable.PLUS, arithmetic(SqlStdOperatorTable.PLUS,
                            arithmetic(SqlStdOperatorTable.DIVIDE,
                                    arithmetic(SqlStdOperatorTable.MINUS, i, inBig), smallDivisor), large), one));
            return rex.makeCast(over.getType(), bucket, true, false);
        }

        /** {@code a op b} over BIGINTs, typed BIGINT: DIVIDE divides integers, as Java's {@code /} does. */
        private RexNode arithmetic(SqlOperator op, RexNode a, RexNode b) {
            RelDataType bigint = rex.getTypeFactory().createSqlType(SqlTypeName.BIGINT);
            return rex.makeCall(rex.getTypeFactory().createTypeWithNullability(bigint,
                    a.getType().isNullable() || b.getType().isNullable()), op, List.of(a, b));
        }
    }
}
