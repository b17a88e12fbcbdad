package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.JaninoRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

import io.ferry.core.stats.ColumnStats;

/**
 * The selectivity of a join condition from the distinct counts of its keys: {@code l.x = r.y} keeps
 * 1 / max(NDV(x), NDV(y)) of the cross product (the textbook estimate, exact for a key joined to a foreign key), and
 * several equalities keep 1 / max of each side's compound key, the product of its columns' counts but at most its
 * rows (multiplying the equalities' selectivities, as independence would, rated TPC-DS q25's join of store_sales
 * to store_returns on item, customer and ticket at one row, where every return finds its sale, and joined it first),
 * where Calcite guesses 0.15 for every equality. The distinct counts come from Ferry's column sketches, for key
 * columns that are a table's columns passed through; other conjuncts keep Calcite's guess. Only join ordering reads
 * it (the planner's other phases keep Calcite's estimates, which are alike for Ferry's and the row engine's operators).
 * Join ordering needs it: TPC-DS q85 joins two copies of customer_demographics on their marital and education status
 * (35 combinations of 1.9 M rows), which the guess rated as selective as a key join and ordered first.
 */
public final class JoinSelectivity implements MetadataHandler<BuiltInMetadata.Selectivity> {
    /** Calcite's metadata with this estimate for joins, and Ferry's statistics for conditions on a table. */
    public static final RelMetadataProvider PROVIDER = ChainedRelMetadataProvider.of(List.of(
            ReflectiveRelMetadataProvider.reflectiveSource(new JoinSelectivity(),
                    BuiltInMetadata.Selectivity.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(ScanSelectivity.INSTANCE,
                    BuiltInMetadata.Selectivity.Handler.class),
            DefaultRelMetadataProvider.INSTANCE));

    private static final JaninoRelMetadataProvider HANDLERS =
            JaninoRelMetadataProvider.of(PROVIDER);

    private JoinSelectivity() {
    }

    /**
     * A metadata query that estimates with {@link #PROVIDER}: what a hash join's choice of build side reads, so that
     * it follows the same row counts join ordering did (Calcite's 0.15 per equality rates the join of two filtered
     * dimensions above an unfiltered fact table, and built the fact table).
     */
    public static RelMetadataQuery query() {
        RelMetadataQuery shared = SHARED.get();
        return shared != null ? shared : new RelMetadataQuery(HANDLERS);
    }

    /** The query {@link #query()} gives on this thread while {@code work} runs over a plan that no longer changes. */
    static <T> T sharingQuery(Supplier<T> work) {
        if (SHARED.get() != null) {
            return work.get();
        }
        SHARED.set(new RelMetadataQuery(HANDLERS));
        try {
            return work.get();
        } finally {
            SHARED.remove();
        }
    }

    private static final ThreadLocal<RelMetadataQuery> SHARED = new ThreadLocal<>();

    @Override
    public MetadataDef<BuiltInMetadata.Selectivity> getDef() {
        return BuiltInMetadata.Selectivity.DEF;
    }

    public Double getSelectivity(Join join, RelMetadataQuery mq, RexNode predicate) {
        if (join.isSemiJoin()) {
            // as Calcite: the semi-join's own filter on its left input
            RexNode semi = RelMdUtil.makeSemiJoinSelectivityRexNode(mq, join);
            return mq.getSelectivity(join.getLeft(), predicate == null ? semi
                    : join.getCluster().getRexBuilder().makeCall(SqlStdOperatorTable.AND, semi, predicate));
        }
        if (predicate == null) {
            return 1.0;
        }
        int leftCount = join.getLeft().getRowType().getFieldCount();
        // the equalities on keys with known distinct counts together: a compound key of as many distinct values as
        // the product of its columns' counts, but no more than its side has rows
        double leftKeys = 1;
        double rightKeys = 1;
        boolean anyKey = false;
        List<RexNode> rest = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(predicate)) {
            double[] pair = conjunct.getKind() == SqlKind.EQUALS ? equality((RexCall) conjunct, join, mq, leftCount)
                    : null;
            if (pair != null) {
                leftKeys *= pair[0];
                rightKeys *= pair[1];
                anyKey = true;
            } else {
                rest.add(conjunct);
            }
        }
        double selectivity = 1;
        if (anyKey) {
            Double leftRows = mq.getRowCount(join.getLeft());
            Double rightRows = mq.getRowCount(join.getRight());
            selectivity = keys(leftRows == null ? leftKeys : Math.min(leftKeys, leftRows),
                    rightRows == null ? rightKeys : Math.min(rightKeys, rightRows));
        }
        return selectivity * RelMdUtil.guessSelectivity(RexUtil.composeConjunction(join.getCluster().getRexBuilder(),
                rest));
    }

    /**
     * The distinct counts of the two columns an equality compares, one of each input; null when the equality is not
     * such a pair or a count is unknown.
     */
    private static double[] equality(RexCall equals, Join join, RelMetadataQuery mq, int leftCount) {
        if (!(equals.getOperands().get(0) instanceof RexInputRef a)
                || !(equals.getOperands().get(1) instanceof RexInputRef b)) {
            return null;
        }
        int l = Math.min(a.getIndex(), b.getIndex());
        int r = Math.max(a.getIndex(), b.getIndex());
        if (l >= leftCount || r < leftCount) {
            return null;
        }
        Double left = distinct(join.getLeft(), l, mq);
        Double right = distinct(join.getRight(), r - leftCount, mq);
        return left == null || right == null ? null : new double[] {left, right};
    }

    /** 1 / max(NDV) of an equality between columns of these distinct counts; null if either is unknown. */
    static Double keys(Double left, Double right) {
        return left == null || right == null ? null : 1 / Math.max(1, Math.max(left, right));
    }

    /**
     * Distinct values of an input's column that is a table's column passed through: the table's sketched count, at
     * most the input's rows (a filter above the table keeps fewer). Null for a computed column or a table without
     * statistics.
     */
    static Double distinct(RelNode input, int column, RelMetadataQuery mq) {
        ColumnStats stats = ScanSelectivity.stats(input, column, mq);
        Double rows = mq.getRowCount(input);
        if (stats == null || stats.rowCount() == 0 || rows == null) {
            return null;
        }
        return Math.min((double) stats.groupCount(), rows);
    }
}
