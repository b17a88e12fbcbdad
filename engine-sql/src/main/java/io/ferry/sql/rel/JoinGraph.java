package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * The query graph of a multi-way inner join: its relations (factors) with their estimated rows, and the conjuncts
 * of its condition, each with the set of factors it reads and its selectivity. The estimated rows of a set of joined
 * factors are the product of their rows and of the selectivities of the conjuncts the set covers, whatever the
 * order they are joined in, which is what makes ordering a search over sets: {@link #order()} finds the left-deep
 * order with the fewest intermediate rows (the C_out cost) exactly by dynamic programming over connected sets up
 * to {@link #EXHAUSTIVE_LIMIT} factors, and greedily beyond. An equality of two factors' columns keeps
 * 1 / max(NDV) of their pairs, from Ferry's column sketches, or fewer where the domain its keys are drawn from is
 * larger ({@link JoinSelectivity#pair}); several between the same two factors are one compound key.
 */
final class JoinGraph {
    /** Factors ordered exactly; 2^14 sets of a 14-way join are searched in about a millisecond. */
    static final int EXHAUSTIVE_LIMIT = 14;

    private final int size;
    /** Rows of each factor, after the conjuncts that read only it. */
    private final double[] rows;
    /**
     * The edges (the conjuncts reading two or more factors, grouped by the factors they read): their factors and
     * selectivities. An edge's selectivity is that of its conjuncts other than key equalities (backed off) times
     * that of its key equalities between two factors as one compound key: 1 / max(the keys of either factor, the
     * domain they are drawn from; {@link JoinSelectivity#pair}).
     */
    private final long[] joinFactors;
    private final double[] joinSelectivity;
    /** Per factor, the edges (indexes into the two arrays above) that read it. */
    private final int[][] joinsOf;

    private JoinGraph(double[] rows, long[] joinFactors, double[] joinSelectivity) {
        this.size = rows.length;
        this.rows = rows;
        this.joinFactors = joinFactors;
        this.joinSelectivity = joinSelectivity;
        this.joinsOf = new int[size][];
        for (int f = 0; f < size; f++) {
            List<Integer> of = new ArrayList<>();
            for (int c = 0; c < joinFactors.length; c++) {
                if ((joinFactors[c] & (1L << f)) != 0) {
                    of.add(c);
                }
            }
            joinsOf[f] = of.stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /**
     * The graph of {@code factors}, whose fields are numbered one after the other, joined on {@code conjuncts}
     * (each reads at least two factors, those {@code reads} gives as a bit set {@link #factorsOf} computed;
     * {@code local} holds, per factor, the conjuncts that read only it).
     */
    static JoinGraph of(List<RelNode> factors, int[] factorOfField, int[] offsets, List<RexNode> conjuncts,
            long[] reads, List<List<RexNode>> local, RelMetadataQuery mq) {
        double[] rows = new double[factors.size()];
        for (int f = 0; f < rows.length; f++) {
            Double r = mq.getRowCount(factors.get(f));
            Double selectivity = local.get(f).isEmpty() ? Double.valueOf(1)
                    : mq.getSelectivity(factors.get(f), RexUtil.composeConjunction(
                            factors.get(f).getCluster().getRexBuilder(), shifted(local.get(f), -offsets[f])));
            rows[f] = Math.max(1, (r == null ? 100 : r) * (selectivity == null ? 0.25 : selectivity));
        }
        // conjuncts over the same factors are one edge of the graph; an edge's equalities of two factors' columns
        // with known counts are one compound key, the rest back off
        Map<Long, List<Double>> edges = new LinkedHashMap<>();
        Map<Long, double[]> compound = new LinkedHashMap<>();
        for (int c = 0; c < conjuncts.size(); c++) {
            RexNode conjunct = conjuncts.get(c);
            double[] keys = conjunct.getKind() == SqlKind.EQUALS
                    ? equality((RexCall) conjunct, factors, factorOfField, offsets, mq) : null;
            List<Double> edge = edges.computeIfAbsent(reads[c], set -> new ArrayList<>());
            if (keys != null) {
                JoinSelectivity.compound(compound.computeIfAbsent(reads[c], set -> new double[] {1, 1, 1, 1, 1, 1}),
                        keys);
            } else {
                edge.add(RelMdUtil.guessSelectivity(conjunct));
            }
        }
        long[] sets = new long[edges.size()];
        double[] selectivities = new double[edges.size()];
        int e = 0;
        for (Map.Entry<Long, List<Double>> edge : edges.entrySet()) {
            long set = edge.getKey();
            double[] keys = compound.get(set);
            double selectivity = backedOff(edge.getValue());
            if (keys != null) {
                // the compound key has the product of its columns' distinct values, but no more than its side's rows
                int low = Long.numberOfTrailingZeros(set);
                int high = 63 - Long.numberOfLeadingZeros(set);
                selectivity *= JoinSelectivity.keys(Math.min(keys[0], rows[low]), Math.min(keys[1], rows[high]), keys);
            }
            sets[e] = set;
            selectivities[e++] = selectivity;
        }
        return new JoinGraph(rows, sets, selectivities);
    }

    /**
     * The selectivity of conjuncts over the same factors other than key equalities, which are rarely independent:
     * the most selective counts whole, the next by its square root, the next by its fourth root. Key equalities
     * count as one compound key instead: TPC-DS joins store_sales to store_returns on ticket, item and customer, whose
     * product of selectivities estimated one row (backing off still gave one), after which every order of the
     * remaining joins looked alike and the selective date filters went last.
     */
    private static double backedOff(List<Double> selectivities) {
        List<Double> sorted = new ArrayList<>(selectivities);
        sorted.sort(null);
        double combined = 1;
        double exponent = 1;
        for (double s : sorted) {
            combined *= Math.pow(s, exponent);
            exponent /= 2;
        }
        return combined;
    }

    private static List<RexNode> shifted(List<RexNode> conditions, int by) {
        List<RexNode> out = new ArrayList<>();
        for (RexNode condition : conditions) {
            out.add(RexUtil.shift(condition, by));
        }
        return out;
    }

    /** The factors a conjunct reads, as a bit set. */
    static long factorsOf(RexNode conjunct, int[] factorOfField) {
        long set = 0;
        for (int field : RelOptUtil.InputFinder.bits(conjunct)) {
            set |= 1L << factorOfField[field];
        }
        return set;
    }

    /**
     * What the two columns an equality compares count ({@link JoinSelectivity#pair}), the lower-numbered factor's
     * first; null when a side is not a table's column with statistics.
     */
    private static double[] equality(RexCall equals, List<RelNode> factors, int[] factorOfField, int[] offsets,
            RelMetadataQuery mq) {
        RexNode a = RexUtil.removeCast(equals.getOperands().get(0));
        RexNode b = RexUtil.removeCast(equals.getOperands().get(1));
        if (!(a instanceof RexInputRef left) || !(b instanceof RexInputRef right)
                || factorOfField[left.getIndex()] == factorOfField[right.getIndex()]) {
            return null;
        }
        boolean ordered = factorOfField[left.getIndex()] < factorOfField[right.getIndex()];
        int lo = ordered ? left.getIndex() : right.getIndex();
        int hi = ordered ? right.getIndex() : left.getIndex();
        RelNode loFactor = factors.get(factorOfField[lo]);
        RelNode hiFactor = factors.get(factorOfField[hi]);
        int loColumn = lo - offsets[factorOfField[lo]];
        int hiColumn = hi - offsets[factorOfField[hi]];
        double[] pair = JoinSelectivity.pair(loFactor, loColumn, hiFactor, hiColumn, mq);
        if (pair != null) {
            return pair;
        }
        // a computed column (an aggregate's key) on either side: Calcite's count for it, and no domain
        Double l = distinct(loFactor, loColumn, mq);
        Double r = distinct(hiFactor, hiColumn, mq);
        return l == null || r == null ? null : new double[] {l, r, 1, 1, 1, 1};
    }

    private static Double distinct(RelNode factor, int column, RelMetadataQuery mq) {
        Double sketched = JoinSelectivity.distinct(factor, column, mq);
        return sketched != null ? sketched : mq.getDistinctRowCount(factor, ImmutableBitSet.of(column), null);
    }

    int size() {
        return size;
    }

    /** Estimated rows of the factors in {@code set} joined. */
    double rows(long set) {
        double product = 1;
        long joined = 0;
        for (int f : members(set)) {
            product = extended(product, joined, f);
            joined |= 1L << f;
        }
        return Math.max(1, product);
    }

    /** {@code rows(set | 1 << f)} from {@code rows(set)}, where f is not in set. */
    private double extended(double setRows, long set, int f) {
        double product = setRows * rows[f];
        long with = set | (1L << f);
        for (int c : joinsOf[f]) {
            if ((joinFactors[c] & ~with) == 0) {
                product *= joinSelectivity[c];
            }
        }
        return product;
    }

    /** Whether a conjunct joins factor {@code f} to {@code set} once f is added to it. */
    private boolean connects(long set, int f) {
        long with = set | (1L << f);
        for (int c : joinsOf[f]) {
            if ((joinFactors[c] & ~with) == 0 && (joinFactors[c] & set) != 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The factors in join order, left-deep: the first two joined first, each next one joined to the result. Each
     * connected part of the graph is ordered by its intermediate rows; parts the condition does not connect are
     * joined last, as cross products, the largest first (so that the right input of each is the smaller, and a
     * one-row subquery's result ends on the right, where Ferry's hash join takes it).
     */
    int[] order() {
        List<long[]> parts = new ArrayList<>();
        for (long part : components()) {
            parts.add(new long[] {part});
        }
        parts.sort(Comparator.comparingDouble((long[] p) -> rows(p[0])).reversed());
        int[] order = new int[size];
        int next = 0;
        for (long[] part : parts) {
            for (int f : Long.bitCount(part[0]) <= EXHAUSTIVE_LIMIT ? exhaustive(part[0]) : greedy(part[0])) {
                order[next++] = f;
            }
        }
        return order;
    }

    /** The connected parts of the graph, as factor sets. */
    private List<Long> components() {
        List<Long> parts = new ArrayList<>();
        long seen = 0;
        for (int start = 0; start < size; start++) {
            if ((seen & (1L << start)) != 0) {
                continue;
            }
            long part = 1L << start;
            boolean grew = true;
            while (grew) {
                grew = false;
                for (long conjunct : joinFactors) {
                    if ((conjunct & part) != 0 && (conjunct & ~part) != 0) {
                        part |= conjunct;
                        grew = true;
                    }
                }
            }
            seen |= part;
            parts.add(part);
        }
        return parts;
    }

    /**
     * The best left-deep order of a connected part, by dynamic programming over its subsets: the cheapest way to
     * join a set is the cheapest way to join the set less one factor that a conjunct connects to the rest, plus the
     * set's rows. Subsets are numbered within the part, so an n-factor part takes 2^n entries.
     */
    private int[] exhaustive(long part) {
        int[] members = members(part);
        if (members.length == 1) {
            return members;
        }
        int[] order = exhaustive(members, false);
        return order != null ? order : exhaustive(members, true);
    }

    /**
     * The search of {@link #exhaustive(long)}, with cross products ({@code crossProducts}) or without: null where no
     * order joins the whole part one factor at a time. A part is connected, but a conjunct of three factors with
     * nothing between two of them joins none of the three alone; left unjoined, the order had missing factors and
     * the join lost the conjunct (fuzzer, seed 45 query 456). Such a part is searched again with cross products,
     * only then: allowed everywhere, a cross product of two small dimensions came out cheapest, and a hash join on
     * two keys over it (TPC-DS q5), a nested-loop join in the row engine.
     */
    private int[] exhaustive(int[] members, boolean crossProducts) {
        int n = members.length;
        int sets = 1 << n;
        double[] setRows = new double[sets];
        double[] cost = new double[sets];
        byte[] last = new byte[sets];
        long[] global = new long[sets];
        setRows[0] = 1;
        for (int s = 1; s < sets; s++) {
            int low = Integer.numberOfTrailingZeros(s);
            int rest = s & (s - 1);
            global[s] = global[rest] | (1L << members[low]);
            setRows[s] = extended(setRows[rest], global[rest], members[low]);
            if (rest == 0) {
                cost[s] = 0;
                last[s] = (byte) low;
                continue;
            }
            cost[s] = Double.POSITIVE_INFINITY;
            for (int bits = s; bits != 0; bits &= bits - 1) {
                int i = Integer.numberOfTrailingZeros(bits);
                int without = s & ~(1 << i);
                if (cost[without] < cost[s] && (crossProducts || connects(global[without], members[i]))) {
                    cost[s] = cost[without];
                    last[s] = (byte) i;
                }
            }
            cost[s] += Math.max(1, setRows[s]);
        }
        if (cost[sets - 1] == Double.POSITIVE_INFINITY) {
            return null;
        }
        int[] order = new int[n];
        for (int s = sets - 1, k = n - 1; k >= 0; k--) {
            order[k] = members[last[s]];
            s &= ~(1 << last[s]);
        }
        return order;
    }

    /**
     * A left-deep order of a part too large to search: from each factor in turn, the factor joined next is the
     * connected one that leaves the fewest rows; the start with the fewest intermediate rows in all wins.
     */
    private int[] greedy(long part) {
        int[] members = members(part);
        int[] order = greedy(members, false);
        return order != null ? order : greedy(members, true);
    }

    /** The search of {@link #greedy(long)}, with cross products or without (see {@link #exhaustive(int[], boolean)}). */
    private int[] greedy(int[] members, boolean crossProducts) {
        int[] best = null;
        double bestCost = Double.POSITIVE_INFINITY;
        for (int start : members) {
            int[] order = new int[members.length];
            order[0] = start;
            long set = 1L << start;
            double setRows = rows[start];
            double cost = 0;
            for (int k = 1; k < members.length && cost < bestCost; k++) {
                int pick = -1;
                double pickRows = Double.POSITIVE_INFINITY;
                for (int f : members) {
                    if ((set & (1L << f)) == 0 && (crossProducts || connects(set, f))) {
                        double r = extended(setRows, set, f);
                        if (pick < 0 || r < pickRows) {
                            pick = f;
                            pickRows = r;
                        }
                    }
                }
                if (pick < 0) {
                    cost = Double.POSITIVE_INFINITY;
                    break;
                }
                order[k] = pick;
                set |= 1L << pick;
                setRows = pickRows;
                cost += Math.max(1, setRows);
            }
            if (cost < bestCost) {
                bestCost = cost;
                best = order;
            }
        }
        return best;
    }

    private static int[] members(long part) {
        int[] members = new int[Long.bitCount(part)];
        for (int k = 0, f = 0; f < 64; f++) {
            if ((part & (1L << f)) != 0) {
                members[k++] = f;
            }
        }
        return members;
    }
}
