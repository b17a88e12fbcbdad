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
import io.ferry.core.stats.ValueRange;

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
        double[] key = {1, 1, 1, 1, 1, 1};
        boolean anyKey = false;
        List<RexNode> rest = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(predicate)) {
            double[] pair = conjunct.getKind() == SqlKind.EQUALS ? equality((RexCall) conjunct, join, mq, leftCount)
                    : null;
            if (pair != null) {
                compound(key, pair);
                anyKey = true;
            } else {
                rest.add(conjunct);
            }
        }
        double selectivity = 1;
        if (anyKey) {
            Double leftRows = mq.getRowCount(join.getLeft());
            Double rightRows = mq.getRowCount(join.getRight());
            selectivity = keys(leftRows == null ? key[0] : Math.min(key[0], leftRows),
                    rightRows == null ? key[1] : Math.min(key[1], rightRows), key);
        }
        return selectivity * RelMdUtil.guessSelectivity(RexUtil.composeConjunction(join.getCluster().getRexBuilder(),
                rest));
    }

    /**
     * What an equality's two columns, one of each input, count: see {@link #pair}; null when the equality is not
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
        return pair(join.getLeft(), l, join.getRight(), r - leftCount, mq);
    }

    /**
     * What an equality of {@code left}'s column {@code l} and {@code right}'s column {@code r} counts, each a
     * table's column passed through: {distinct values of each input's column (at most its rows), the distinct
     * values of each column's table that lie within the other column's table's range, each table's rows}; null
     * where either column has no statistics.
     *
     * <p>The second pair is the domain the join draws its matches from. 1 / max(NDV) of the inputs' columns
     * assumes the side with fewer values finds each of them on the other side, which holds for a dimension that a
     * filter cut to the few keys a fact table uses (the 365 days of a year among the 1,800 days of sales of a
     * 73,049-day date table: the year keeps a fifth of the sales) but not for one a filter cut at random:
     * customer_demographics cut to a fifth by its marital status still has more keys than catalog_sales uses, and
     * 1 / max kept every sale, where a fifth of them find their demographics (TPC-DS q72 joined the filter last, after
     * a join of 16 million rows). The table's distinct values within the fact's range tell the two apart: a date
     * table has 1,840 days within the sales' range, and the year keeps 365 of them; the demographics' 1.9 million
     * keys all lie within the sales' range. A join keeps at most 1 / that domain of its pairs.
     */
    static double[] pair(RelNode left, int l, RelNode right, int r, RelMetadataQuery mq) {
        ColumnStats ls = ScanSelectivity.stats(left, l, mq);
        ColumnStats rs = ScanSelectivity.stats(right, r, mq);
        Double leftKeys = distinct(left, ls, mq);
        Double rightKeys = distinct(right, rs, mq);
        if (leftKeys == null || rightKeys == null) {
            return null;
        }
        return new double[] {leftKeys, rightKeys, within(ls, rs), within(rs, ls), ls.rowCount(), rs.rowCount()};
    }

    /** {@code a}'s distinct values that lie within {@code b}'s range: all of them where a range is not of longs. */
    private static double within(ColumnStats a, ColumnStats b) {
        if (!(a.range() instanceof ValueRange.LongRange ar) || !(b.range() instanceof ValueRange.LongRange br)) {
            return a.distinct();
        }
        double width = (double) ar.max() - ar.min() + 1;
        double overlap = Math.min((double) ar.max(), br.max()) - Math.max((double) ar.min(), br.min()) + 1;
        return a.distinct() * Math.max(0, Math.min(1, overlap / width));
    }

    /** {@code pair} ({@link #pair}) added to the compound key {@code key}: counts multiply, rows do not. */
    static void compound(double[] key, double[] pair) {
        for (int i = 0; i < 4; i++) {
            key[i] *= pair[i];
        }
        key[4] = Math.max(key[4], pair[4]);
        key[5] = Math.max(key[5], pair[5]);
    }

    /**
     * The domain of a compound key, from the products {@link #pair} counts ({keys..., domain, domain, rows, rows}):
     * the larger side's, at most its table's rows.
     */
    private static double domain(double[] key) {
        return Math.max(1, Math.max(Math.min(key[2], key[4]), Math.min(key[3], key[5])));
    }

    /**
     * 1 / max(NDV) of an equality or compound key of these distinct counts, or 1 / its domain ({@link #pair}, {@link #compound})
     * where that is at least twice as large: only then, since the domain is an estimate too (of values spread
     * evenly over a range), and differences below that changed join orders for the worse as often as for the better
     * (TPC-DS SF 1, 29 November: the domain everywhere changed 28 plans, and q10 and q18 took twice as long).
     */
    static double keys(double left, double right, double[] key) {
        double keys = Math.max(1, Math.max(left, right));
        double domain = domain(key);
        return 1 / (domain >= 2 * keys ? domain : keys);
    }

    /**
     * Distinct values of an input's column that is a table's column passed through: the table's sketched count, at
     * most the input's rows (a filter above the table keeps fewer). Null for a computed column or a table without
     * statistics.
     */
    public static Double distinct(RelNode input, int column, RelMetadataQuery mq) {
        return distinct(input, ScanSelectivity.stats(input, column, mq), mq);
    }

    /**
     * The groups of {@code input} by {@code columns}, as the product of their distinct counts ({@link #distinct});
     * a column whose count is not known (a computed one: a negative index) counts as {@code unknown} values.
     */
    public static double groups(RelNode input, int[] columns, double unknown, RelMetadataQuery mq) {
        double groups = 1;
        for (int column : columns) {
            Double distinct = column < 0 ? null : distinct(input, column, mq);
            groups *= distinct == null ? unknown : distinct;
        }
        return groups;
    }

    private static Double distinct(RelNode input, ColumnStats stats, RelMetadataQuery mq) {
        Double rows = mq.getRowCount(input);
        if (stats == null || stats.rowCount() == 0 || rows == null) {
            return null;
        }
        return Math.min((double) stats.groupCount(), rows);
    }
}
