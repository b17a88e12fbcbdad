package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

import com.google.common.collect.ImmutableMap;

/**
 * Orders a multi-way inner join, and the inner joins around LEFT joins, by estimated cardinality
 * ({@link JoinGraph}): exactly, by dynamic programming over connected sets, up to
 * {@link JoinGraph#EXHAUSTIVE_LIMIT} relations, and greedily beyond. The join is rebuilt in that order, each next
 * relation joined on the left of what is joined so far, each conjunct placed at the first join that has every
 * relation it reads (a conjunct of one relation becomes a filter on it), and a projection puts the
 * columns back in the statement's order. Ferry's hash join then builds on the smaller input of each join
 * ({@link FerryJoin}). The joined part grows on the right because the cost-based phase explores pushing a join
 * through the join on its left input (JoinPushThroughJoinRule): with the joins nested on the left, it registered
 * alternatives for every pair, and TPC-DS q64's cost-based phase took 175 ms instead of 17.
 *
 * <p>Calcite's LoptOptimizeJoinRule, which ordered every join before, builds and costs a whole join tree for each
 * relation it tries first: on TPC-DS q64's 18-way joins that took 55 ms of a 119 ms plan. It still orders the
 * multi-way joins this rule leaves: those with RIGHT or FULL joins, a condition on a LEFT join's null-generating
 * side in WHERE, or non-deterministic conditions.
 */
public final class JoinOrderRule extends RelOptRule {
    public static final JoinOrderRule INSTANCE = new JoinOrderRule();

    private JoinOrderRule() {
        super(operand(MultiJoin.class, any()), "JoinOrderRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        MultiJoin multi = spliced(call.rel(0));
        List<RelNode> factors = multi.getInputs();
        if (multi.isFullOuterJoin() || factors.size() > Long.SIZE - 1
                || multi.getJoinTypes().stream().anyMatch(t -> t != JoinRelType.INNER && t != JoinRelType.LEFT)
                || !RexUtil.isDeterministic(multi.getJoinFilter())) {
            return;
        }
        // the null-generating factors of LEFT joins, joined last in their statement's order
        long outer = 0;
        for (int f = 0; f < factors.size(); f++) {
            if (multi.getJoinTypes().get(f) == JoinRelType.LEFT) {
                outer |= 1L << f;
            }
        }
        int[] offsets = new int[factors.size()];
        int fields = 0;
        for (int f = 0; f < factors.size(); f++) {
            offsets[f] = fields;
            fields += factors.get(f).getRowType().getFieldCount();
        }
        int[] factorOfField = new int[fields];
        for (int f = 0; f < factors.size(); f++) {
            for (int i = 0; i < factors.get(f).getRowType().getFieldCount(); i++) {
                factorOfField[offsets[f] + i] = f;
            }
        }
        List<RexNode> joins = new ArrayList<>();
        List<Long> joinReads = new ArrayList<>();
        List<RexNode> constant = new ArrayList<>();
        List<List<RexNode>> local = new ArrayList<>();
        factors.forEach(f -> local.add(new ArrayList<>()));
        for (RexNode conjunct : RelOptUtil.conjunctions(multi.getJoinFilter())) {
            long read = JoinGraph.factorsOf(conjunct, factorOfField);
            if ((read & outer) != 0) {
                return; // a condition on a null-generating factor holds only above its LEFT join
            }
            if (read == 0) {
                constant.add(conjunct);
            } else if (Long.bitCount(read) == 1) {
                local.get(Long.numberOfTrailingZeros(read)).add(conjunct);
            } else {
                joins.add(conjunct);
                joinReads.add(read);
            }
        }
        for (int f = 0; f < factors.size(); f++) {
            long before = (1L << f) - 1;
            RexNode on = multi.getOuterJoinConditions().get(f);
            if ((outer & (1L << f)) != 0
                    && (on == null || (JoinGraph.factorsOf(on, factorOfField) & outer & ~before & ~(1L << f)) != 0)) {
                return; // a LEFT join's condition reads a null-generating factor joined after it
            }
        }
        long[] reads = joinReads.stream().mapToLong(Long::longValue).toArray();
        JoinGraph graph = JoinGraph.of(factors, factorOfField, offsets, joins, reads, local, call.getMetadataQuery());
        // (A LEFT JOIN B) JOIN C ON <A and C> is (A JOIN C) LEFT JOIN B: the inner joins first, ordered, so that a
        // fact table meets its dimensions' filters before its returns (TPC-DS q80, q40)
        int[] order = new int[factors.size()];
        int next = 0;
        for (int f : graph.order()) {
            if ((outer & (1L << f)) == 0) {
                order[next++] = f;
            }
        }
        for (int f = 0; f < factors.size(); f++) {
            if ((outer & (1L << f)) != 0) {
                order[next++] = f;
            }
        }
        call.transformTo(build(multi, order, offsets, factorOfField, joins, reads, constant, local,
                call.builder(), call.getMetadataQuery()));
    }

    /**
     * {@code multi}, an inner multi-way join, with each factor that is itself a multi-way join of inner and LEFT joins
     * spliced in: {@code (A LEFT JOIN B) JOIN C} reaches this rule as MJ(MJ(A, B), C), since Calcite's
     * JoinToMultiJoinRule keeps a part with an outer join whole, and A was joined to its returns B before the filtered
     * dimensions C (TPC-DS q80: store_sales to store_returns, then a month of dates). Spliced, the factors keep their
     * field positions, so A and C are ordered together and B is joined last; {@link #onMatch} still leaves the join
     * to Calcite where a condition of the outer level reads B.
     */
    private static MultiJoin spliced(MultiJoin multi) {
        if (multi.isFullOuterJoin() || multi.getJoinTypes().stream().anyMatch(t -> t != JoinRelType.INNER)) {
            return multi;
        }
        List<RelNode> inputs = new ArrayList<>();
        List<RexNode> outerConditions = new ArrayList<>();
        List<JoinRelType> types = new ArrayList<>();
        List<ImmutableBitSet> projected = new ArrayList<>();
        List<RexNode> filters = new ArrayList<>(List.of(multi.getJoinFilter()));
        boolean spliced = false;
        int offset = 0;
        for (int f = 0; f < multi.getInputs().size(); f++) {
            RelNode input = multi.getInputs().get(f);
            RelNode factor = input instanceof HepRelVertex v ? v.getCurrentRel() : input;
            if (factor instanceof MultiJoin inner && !inner.isFullOuterJoin() && inner.getPostJoinFilter() == null
                    && inner.getJoinTypes().stream().allMatch(t -> t == JoinRelType.INNER || t == JoinRelType.LEFT)) {
                int shift = offset;
                inputs.addAll(inner.getInputs());
                types.addAll(inner.getJoinTypes());
                projected.addAll(inner.getProjFields());
                for (RexNode on : inner.getOuterJoinConditions()) {
                    outerConditions.add(on == null ? null : moved(List.of(on), field -> field + shift).get(0));
                }
                filters.add(moved(List.of(inner.getJoinFilter()), field -> field + shift).get(0));
                spliced = true;
            } else {
                inputs.add(input);
                types.add(JoinRelType.INNER);
                projected.add(multi.getProjFields().get(f));
                outerConditions.add(null);
            }
            offset += factor.getRowType().getFieldCount();
        }
        if (!spliced) {
            return multi;
        }
        return new MultiJoin(multi.getCluster(), inputs,
                RexUtil.composeConjunction(multi.getCluster().getRexBuilder(), filters), multi.getRowType(), false,
                outerConditions, types, projected, ImmutableMap.of(), multi.getPostJoinFilter());
    }

    /** The join of the factors in {@code order}, its columns in the multi-way join's order. */
    private static RelNode build(MultiJoin multi, int[] order, int[] offsets, int[] factorOfField,
            List<RexNode> joins, long[] reads, List<RexNode> constant, List<List<RexNode>> local, RelBuilder b,
            RelMetadataQuery mq) {
        int[] position = new int[factorOfField.length];
        boolean[] placed = new boolean[joins.size()];
        long joined = 0;
        RelNode tree = null;
        for (int f : order) {
            RelNode factor = multi.getInputs().get(f);
            if (!local.get(f).isEmpty()) {
                int shift = offsets[f];
                factor = b.push(factor).filter(moved(local.get(f), field -> field - shift)).build();
            }
            int count = factor.getRowType().getFieldCount();
            long before = joined;
            joined |= 1L << f;
            if (multi.getJoinTypes().get(f) == JoinRelType.LEFT) {
                int width = tree.getRowType().getFieldCount();
                for (int i = 0; i < count; i++) {
                    position[offsets[f] + i] = width + i;
                }
                RexNode on = moved(List.of(multi.getOuterJoinConditions().get(f)), field -> position[field]).get(0);
                tree = b.push(tree).push(factor).join(JoinRelType.LEFT, on).build();
                continue;
            }
            if (tree == null) {
                for (int i = 0; i < count; i++) {
                    position[offsets[f] + i] = i;
                }
                tree = factor;
                continue;
            }
            List<RexNode> condition = new ArrayList<>();
            for (int c = 0; c < joins.size(); c++) {
                if (!placed[c] && (reads[c] & ~joined) == 0) {
                    placed[c] = true;
                    condition.add(joins.get(c));
                }
            }
            // the new factor on the left, the joined part on the right (see the class comment); but a cross
            // product's input and a one-row subquery's result on the right, where OneRowJoins finds it
            Double max = mq.getMaxRowCount(factor);
            boolean left = !condition.isEmpty() && (max == null || max > 1);
            int width = tree.getRowType().getFieldCount();
            for (int field = 0; field < position.length; field++) {
                if (left && (before & (1L << factorOfField[field])) != 0) {
                    position[field] += count;
                }
            }
            for (int i = 0; i < count; i++) {
                position[offsets[f] + i] = left ? i : width + i;
            }
            b.push(left ? factor : tree).push(left ? tree : factor);
            tree = b.join(JoinRelType.INNER, moved(condition, field -> position[field])).build();
        }
        b.push(tree);
        if (!constant.isEmpty()) {
            b.filter(constant);
        }
        List<RexNode> columns = new ArrayList<>();
        for (int field = 0; field < position.length; field++) {
            columns.add(b.field(position[field]));
        }
        b.project(columns, multi.getRowType().getFieldNames(), true);
        if (multi.getPostJoinFilter() != null) {
            b.filter(multi.getPostJoinFilter());
        }
        return b.convert(multi.getRowType(), false).build();
    }

    private static List<RexNode> moved(List<RexNode> conditions, IntUnaryOperator to) {
        RexShuttle shuttle = new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return new RexInputRef(to.applyAsInt(ref.getIndex()), ref.getType());
            }
        };
        List<RexNode> out = new ArrayList<>();
        for (RexNode condition : conditions) {
            out.add(condition.accept(shuttle));
        }
        return out;
    }
}
