package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.List;

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
 * 1 / max(NDV(x), NDV(y)) of the cross product (the textbook estimate, exact for a key joined to a foreign key),
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
        return new RelMetadataQuery(HANDLERS);
    }

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
        double selectivity = 1;
        List<RexNode> rest = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(predicate)) {
            Double keys = conjunct.getKind() == SqlKind.EQUALS ? equality((RexCall) conjunct, join, mq, leftCount)
                    : null;
            if (keys != null) {
                selectivity *= keys;
            } else {
                rest.add(conjunct);
            }
        }
        return selectivity * RelMdUtil.guessSelectivity(RexUtil.composeConjunction(join.getCluster().getRexBuilder(),
                rest));
    }

    /** 1 / max(NDV) for a column of each input compared, or null when the equality is not such a pair. */
    private static Double equality(RexCall equals, Join join, RelMetadataQuery mq, int leftCount) {
        if (!(equals.getOperands().get(0) instanceof RexInputRef a)
                || !(equals.getOperands().get(1) instanceof RexInputRef b)) {
            return null;
        }
        int l = Math.min(a.getIndex(), b.getIndex());
        int r = Math.max(a.getIndex(), b.getIndex());
        if (l >= leftCount || r < leftCount) {
            return null;
        }
        return keys(distinct(join.getLeft(), l, mq), distinct(join.getRight(), r - leftCount, mq));
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
