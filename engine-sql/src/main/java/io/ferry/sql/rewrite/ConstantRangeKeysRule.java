package io.ferry.sql.rewrite;

import java.math.BigDecimal;

import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexFieldCollation;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.rex.RexWindowBounds;

/**
 * A RANGE frame with an offset over ORDER BY keys that are all constants ({@code ORDER BY CAST(NULL AS INTEGER)
 * RANGE BETWEEN 10 PRECEDING AND CURRENT ROW}; constant folding makes one of any key over an input pruned as empty,
 * as the left side of {@code RIGHT JOIN … ON FALSE}): every row is a peer of every other, so each row's frame is the
 * whole partition, or nothing where a bound lies an offset away from the (non-NULL) value. Written as ROWS frames:
 * Calcite drops constant order keys and then built no window at all (XX000 "Unable to implement", fuzzer seed
 * 20240601 query 1254 and seed 1701 query 499). Run before join ordering and again in the simplification, after
 * empty inputs are pruned.
 */
public final class ConstantRangeKeysRule extends OverRewriteRule {
    public static final ConstantRangeKeysRule INSTANCE = new ConstantRangeKeysRule();

    private ConstantRangeKeysRule() {
        super("ConstantRangeKeysRule");
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
            RexWindow w = visited.getWindow();
            if (w.isRows() || (w.getLowerBound().getOffset() == null && w.getUpperBound().getOffset() == null)
                    || w.orderKeys.isEmpty() || !w.orderKeys.stream().allMatch(k -> constant(k.left))) {
                return visited;
            }
            boolean nullKey = w.orderKeys.stream().map(RexFieldCollation::getKey)
                    .anyMatch(k -> k instanceof RexLiteral literal && literal.isNull());
            boolean all = nullKey || (reachesPeers(w.getLowerBound(), true) && reachesPeers(w.getUpperBound(), false));
            RexNode one = rex.makeExactLiteral(BigDecimal.ONE);
            changed = true;
            return (RexOver) rex.makeOver(visited.getType(), visited.getAggOperator(), visited.getOperands(),
                    w.partitionKeys, w.orderKeys,
                    all ? RexWindowBounds.UNBOUNDED_PRECEDING : RexWindowBounds.following(one),
                    all ? RexWindowBounds.UNBOUNDED_FOLLOWING : RexWindowBounds.preceding(one), w.getExclude(), true,
                    true, false, visited.isDistinct(), visited.ignoreNulls());
        }

        /**
         * A literal, or a constant expression that cannot be NULL ({@code COALESCE(0.0E0, 0.0E0)}): folded into a
         * literal only later, after which Calcite drops the key and the frame spanned the partition (fuzzer seed 2305
         * query 5048: {@code RANGE BETWEEN 2 FOLLOWING AND 100 FOLLOWING EXCLUDE TIES} counted the row itself).
         */
        private static boolean constant(RexNode key) {
            return key instanceof RexLiteral
                    || (RexUtil.isConstant(key) && RexUtil.isDeterministic(key) && !key.getType().isNullable());
        }

        /**
         * Whether a RANGE bound around a constant ORDER BY value v reaches v itself: all but an offset away from the
         * current row (a start n FOLLOWING, an end n PRECEDING, n above 0) do.
         */
        private static boolean reachesPeers(RexWindowBound b, boolean start) {
            if (b.getOffset() == null || (start ? b.isPreceding() : b.isFollowing())) {
                return true;
            }
            return b.getOffset() instanceof RexLiteral offset
                    && offset.getValueAs(BigDecimal.class).signum() == 0;
        }
    }
}
