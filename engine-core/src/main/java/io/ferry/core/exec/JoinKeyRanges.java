package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.ferry.core.expr.Call;
import io.ferry.core.expr.Expr;
import io.ferry.core.expr.InputRef;
import io.ferry.core.expr.Literal;
import io.ferry.core.expr.Op;
import io.ferry.core.stats.ColumnStats;
import io.ferry.core.stats.ValueRange;
import io.ferry.core.storage.Table;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.Physical;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;

/**
 * Narrows a hash join's probe side by the range of the keys its build side holds, once the build side is known:
 * a probe row whose key lies outside [min, max] of the build keys cannot match. The range goes down the probe side
 * to the scan that reads the key column — through filters, projections that pass the column on, and other joins'
 * probe sides — where it becomes a zone filter (blocks whose zone map lies outside it are not read) and a range test
 * that runs with the scan's other cheap filters, before the probes of other joins and the decoding of other columns
 * (where it keeps few enough of the column's values to pay). Where the range keeps too many but the keys are few
 * (a dimension filtered to a handful of keys spread over all of the fact table's), the keys themselves are tested
 * instead, against a bitmap ({@link RowSelector}).
 * DuckDB calls this join filter pushdown. It pays where the fact table is stored in the order of the dimension's key
 * (TPC-DS's inventory and catalog_sales by date: a filtered date_dim then skips most of their blocks) and where a
 * dimension filtered to a few keys sits high in a star join.
 *
 * <p>Only joins that drop probe rows without a match (INNER, SEMI), on keys where NULL never matches, and of one
 * integral, DATE, TIMESTAMP or narrow DECIMAL type on both sides. A range that covers every value the table holds in
 * the column (its statistics' minimum and maximum) is not pushed: it would skip nothing.
 */
final class JoinKeyRanges {
    /** The largest share of a column's values a range may keep for its rows to be tested at the scan. */
    static final double SELECTIVE = 0.25;
    /**
     * {@code -Dferry.join-key-ranges=off} turns the narrowing off in the whole process, to measure a query with and
     * without it (FERRY_JAVA_OPTS of {@code bin/ferry}).
     */
    private static final boolean ON = !"off".equals(System.getProperty("ferry.join-key-ranges"));

    private JoinKeyRanges() {
    }

    /**
     * {@code join}'s probe side, narrowed by the range of each key of {@code build} (its build side's rows); each
     * scan it narrowed is put in {@code narrowed}, mapped to the plan's scan it stands for.
     */
    static PlanNode narrowProbe(PlanNode.Join join, Batch build, Map<PlanNode.Scan, PlanNode.Scan> narrowed) {
        if (!ON || join.kind() != JoinKind.INNER && join.kind() != JoinKind.SEMI) {
            return join.left();
        }
        PlanNode probe = join.left();
        List<FerryType> leftTypes = probe.types();
        List<FerryType> rightTypes = join.right().types();
        for (int k = 0; k < join.leftKeys().length; k++) {
            FerryType type = leftTypes.get(join.leftKeys()[k]);
            FerryType other = rightTypes.get(join.rightKeys()[k]);
            if (join.nullsMatch()[k] || type.physical() != Physical.LONG || type.isWideDecimal()
                    || type.kind() != other.kind() || type.scale() != other.scale()) {
                continue;
            }
            PlanNode next = narrow(probe, join.leftKeys()[k],
                    new Keys((LongVector) build.column(join.rightKeys()[k])), narrowed);
            if (next != null) {
                probe = next;
            }
        }
        return probe;
    }

    /**
     * What the build side holds of one key: the range of its values, and the values themselves (sorted, distinct),
     * collected when first asked for and only from at most {@link #MAX_SET} rows.
     */
    private static final class Keys {
        private final LongVector column;
        private final long[] range;
        private long[] values;

        Keys(LongVector column) {
            this.column = column;
            this.range = JoinKeyRanges.range(column);
        }

        long[] range() {
            return range;
        }

        /** The distinct non-NULL keys, sorted; null where the build side has more than {@link #MAX_SET} rows. */
        long[] values() {
            if (values == null && column.size() <= MAX_SET) {
                values = distinct(column);
            }
            return values;
        }
    }

    /**
     * The most build rows whose distinct keys are collected to test probe rows against ({@link RowSelector});
     * {@code -Dferry.join-key-sets=0} tests ranges only, to compare.
     */
    static final int MAX_SET = Integer.getInteger("ferry.join-key-sets", 1 << 16);

    /** The vector's non-NULL values, sorted, each once. */
    private static long[] distinct(LongVector keys) {
        long[] x = keys.values();
        boolean[] nulls = keys.nulls();
        long[] sorted = new long[keys.size()];
        int n = 0;
        for (int i = 0; i < keys.size(); i++) {
            if (nulls == null || !nulls[i]) {
                sorted[n++] = x[i];
            }
        }
        Arrays.sort(sorted, 0, n);
        int d = 0;
        for (int i = 0; i < n; i++) {
            if (d == 0 || sorted[i] != sorted[d - 1]) {
                sorted[d++] = sorted[i];
            }
        }
        return Arrays.copyOf(sorted, d);
    }

    /** {lo, hi} of the vector's non-NULL values; {1, 0} (empty) when it has none. */
    private static long[] range(LongVector keys) {
        long[] x = keys.values();
        boolean[] nulls = keys.nulls();
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (int i = 0; i < keys.size(); i++) {
            if (nulls == null || !nulls[i]) {
                lo = Math.min(lo, x[i]);
                hi = Math.max(hi, x[i]);
            }
        }
        return lo > hi ? new long[] {1, 0} : new long[] {lo, hi};
    }

    /**
     * {@code node} with rows whose column {@code column} lies outside {@code range} left out at its scan; null
     * where the column does not come straight from a scan, or the range would leave nothing out.
     */
    private static PlanNode narrow(PlanNode node, int column, Keys keys,
            Map<PlanNode.Scan, PlanNode.Scan> narrowed) {
        if (node instanceof PlanNode.Scan scan) {
            return narrowScan(scan, null, column, keys, narrowed);
        }
        if (node instanceof PlanNode.Filter filter) {
            if (filter.input() instanceof PlanNode.Scan scan) {
                return narrowScan(scan, filter.condition(), column, keys, narrowed);
            }
            PlanNode input = narrow(filter.input(), column, keys, narrowed);
            return input == null ? null : new PlanNode.Filter(input, filter.condition());
        }
        if (node instanceof PlanNode.Project project) {
            if (!(project.exprs().get(column) instanceof InputRef ref)) {
                return null;
            }
            PlanNode input = narrow(project.input(), ref.index(), keys, narrowed);
            return input == null ? null : new PlanNode.Project(input, project.exprs());
        }
        if (node instanceof PlanNode.Join join && column < join.left().types().size()) {
            PlanNode left = narrow(join.left(), column, keys, narrowed);
            return left == null ? null : new PlanNode.Join(left, join.right(), join.kind(), join.leftKeys(),
                    join.rightKeys(), join.nullsMatch(), join.residual());
        }
        return null;
    }

    /**
     * The scan under a filter ({@code condition}, or none) that also keeps only {@code keys} in the column: their
     * range in its zone maps always; its rows by the range where that holds at most {@link #SELECTIVE} of the
     * column's values by the table's statistics, else by the keys themselves where they are at most that share of
     * its distinct values. A test that passes most rows costs more than it saves: it decodes the column for every
     * row, and the columns after it are then decoded row by row at the positions it kept (TPC-DS q52 ran in twice
     * the time with the range of item keys it probes tested on every store_sales row).
     */
    private static PlanNode narrowScan(PlanNode.Scan scan, Expr condition, int column, Keys keys,
            Map<PlanNode.Scan, PlanNode.Scan> narrowed) {
        int tableColumn = scan.columns()[column];
        // the table's statistics for the column; null for a table on another node, whose statistics are not here
        ColumnStats stats = scan.table() instanceof Table table ? table.stats().column(tableColumn) : null;
        long[] range = keys.range();
        double share = share(stats, range);
        // the keys themselves only where their range would keep too many rows: collecting them sorts the build keys
        double setShare = share <= SELECTIVE || keys.values() == null ? 1 : setShare(stats, keys.values().length);
        if (share >= 1 && setShare > SELECTIVE) {
            return null;
        }
        long[] bounds = range[0] > range[1] ? new long[0] : range;
        ZoneFilter zones = new ZoneFilter(List.of(new ZoneFilter.ColumnValues(tableColumn, bounds, false)));
        PlanNode.Scan zoned = scan.withZones(scan.zones().and(zones));
        narrowed.put(zoned, narrowed.getOrDefault(scan, scan));
        if (Math.min(share, setShare) > SELECTIVE) {
            return condition == null ? zoned : new PlanNode.Filter(zoned, condition);
        }
        FerryType type = scan.types().get(column);
        InputRef ref = new InputRef(column, type);
        List<Expr> conjuncts = new ArrayList<>(3);
        if (setShare <= SELECTIVE) {
            // the keys themselves, where they are far fewer than the values in their range (TPC-DS q3's 18 items
            // of one manufacturer, spread over all 18,000): an IN over them, which the scan tests against a bitmap
            List<Expr> in = new ArrayList<>(keys.values().length + 1);
            in.add(ref);
            for (long v : keys.values()) {
                in.add(new Literal(v, type));
            }
            conjuncts.add(new Call(Op.IN, in, FerryType.BOOLEAN));
        } else {
            conjuncts.add(new Call(Op.GE, List.of(ref, new Literal(range[0], type)), FerryType.BOOLEAN));
            conjuncts.add(new Call(Op.LE, List.of(ref, new Literal(range[1], type)), FerryType.BOOLEAN));
        }
        if (condition != null) {
            conjuncts.add(condition);
        }
        return new PlanNode.Filter(zoned, new Call(Op.AND, conjuncts, FerryType.BOOLEAN));
    }

    /**
     * The share of the column's distinct values that {@code keys} distinct keys can be, by the table's statistics:
     * 1 where they are unknown.
     */
    private static double setShare(ColumnStats stats, int keys) {
        return stats == null || stats.distinct() <= 0 ? 1 : Math.min(1, keys / (double) stats.distinct());
    }

    /**
     * The share of the values the scanned table holds in the column that lie in the range, taking them as spread
     * evenly between the minimum and the maximum of its statistics: 1 or more where the range covers them all, 0.5
     * where they are unknown (a table on another node), 0 for an empty range.
     */
    private static double share(ColumnStats stats, long[] range) {
        if (range[0] > range[1]) {
            return 0;
        }
        if (stats == null || !(stats.range() instanceof ValueRange.LongRange r)) {
            return 0.5;
        }
        if (range[0] <= r.min() && r.max() <= range[1]) {
            return 1;
        }
        double lo = Math.max(range[0], r.min());
        double hi = Math.min(range[1], r.max());
        return hi < lo ? 0 : (hi - lo + 1) / ((double) r.max() - r.min() + 1);
    }
}
