package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexPermuteInputsShuttle;
import org.apache.calcite.util.mapping.Mappings;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlExplainLevel;

import io.ferry.core.exec.JoinKind;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.expr.Expr;
import io.ferry.core.expr.InputRef;
import io.ferry.core.expr.Literal;
import io.ferry.core.types.FerryType;
import io.ferry.sql.translate.RexTranslator;
import io.ferry.sql.translate.UnsupportedExpression;

/**
 * Hash join on the equi-part of the condition, the rest as a residual. The right input is the build side,
 * so the cost charges build rows more than probe rows: the planner then builds on the smaller input.
 * RIGHT joins run as LEFT joins with the sides swapped (building on the left input), their residual too. An inner
 * join whose right input is estimated larger than its left (join ordering put a dimension table on the left) builds
 * on the left instead; EXPLAIN shows which side is built. A key compared with {@code IS NOT DISTINCT FROM} is a
 * hash key like one compared with {@code =}, its NULLs matching NULLs ({@link PlanNode.Join#nullsMatch()}); EXPLAIN
 * shows it in the condition. FULL joins reach the planner as a LEFT and an ANTI join ({@code FullJoins}). A join of
 * any of these kinds without an equality (a cross join, {@code ON a.x < b.y}) is a hash join on a constant key, every
 * build row in one chain, the condition its residual: each probe row meets every build row, as a nested-loop join
 * would, in batches.
 */
public final class FerryJoin extends Join implements FerryRel {
    /** {@link #keyless()}, once asked. */
    private Boolean keyless;

    public FerryJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right, RexNode condition,
            JoinRelType joinType) {
        super(cluster, traits, List.of(), left, right, condition, Set.<CorrelationId>of(), joinType);
    }

    @Override
    public Join copy(RelTraitSet traitSet, RexNode condition, RelNode left, RelNode right, JoinRelType joinType,
            boolean semiJoinDone) {
        return new FerryJoin(getCluster(), traitSet, left, right, condition, joinType);
    }

    /** What Calcite's EnumerableHashJoin multiplies a semi-join's cost by. */
    private static final double SEMI_JOIN_DISCOUNT = 0.01;

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double left = mq.getRowCount(getLeft());
        double right = mq.getRowCount(getRight());
        // an inner join builds on its smaller input, whichever side that is (buildsLeft), and its build rows count
        // thrice; the other kinds build on the right input (a RIGHT join on the left), as Calcite's row engine does,
        // and the build rows count twice there: three times had a LEFT join of a few rows to a large input priced
        // above the row engine's (which charges its build rows once, its output and probe rows beside), and run
        // there, everything above it too
        boolean inner = joinType == JoinRelType.INNER;
        double build = inner ? Math.min(left, right) : joinType == JoinRelType.RIGHT ? left : right;
        double rows = left + right + (inner ? 2 : 1) * build;
        if (keyless()) {
            rows += left * right; // every pair is looked at
        }
        // Calcite prices its row engine's semi-join at a hundredth of its cost, so an IN subquery's semi-join always
        // went there, with every operator above it: the same discount keeps the choice between the two engines fair
        double factor = joinType == JoinRelType.SEMI ? COST_FACTOR * SEMI_JOIN_DISCOUNT : COST_FACTOR;
        return planner.getCostFactory().makeCost(rows * factor, rows * factor, 0);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        // Not part of the digest: it follows row estimates, which change while the planner explores.
        boolean detailed = pw.getDetailLevel() != SqlExplainLevel.DIGEST_ATTRIBUTES;
        if (!detailed) {
            return super.explainTerms(pw);
        }
        RelMetadataQuery mq = JoinSelectivity.query();
        double left = mq.getRowCount(getLeft());
        double right = mq.getRowCount(getRight());
        return super.explainTerms(pw).item("build", buildsLeft(left, right) ? "left" : "right")
                .item("estimated", String.format(java.util.Locale.ROOT, "%.0f left, %.0f right", left, right));
    }

    /**
     * Whether this inner join builds its hash table on the left input, the smaller one by estimate — the estimates
     * join ordering used ({@link JoinSelectivity}), from the distinct counts of the keys; EXPLAIN shows them.
     */
    private boolean buildsLeft() {
        if (joinType != JoinRelType.INNER) {
            return false;
        }
        RelMetadataQuery mq = JoinSelectivity.query();
        return buildsLeft(mq.getRowCount(getLeft()), mq.getRowCount(getRight()));
    }

    /** Whether the hash table is built on the left input: a RIGHT join's always, an inner join's when smaller. */
    private boolean buildsLeft(double left, double right) {
        return joinType == JoinRelType.RIGHT || (joinType == JoinRelType.INNER && right > left);
    }

    /**
     * The parts of a join condition Ferry uses: key columns of each side, whether each key's NULL matches a NULL
     * ({@code IS NOT DISTINCT FROM}) or nothing ({@code =}), and the rest of the condition.
     */
    private record Keys(int[] left, int[] right, boolean[] nullsMatch, RexNode residual) {
    }

    private static Keys keys(Join join) {
        List<Integer> lk = new ArrayList<>();
        List<Integer> rk = new ArrayList<>();
        List<Boolean> filterNulls = new ArrayList<>();
        List<RexNode> nonEqui = new ArrayList<>();
        RelOptUtil.splitJoinCondition(join.getLeft(), join.getRight(), join.getCondition(), lk, rk, filterNulls,
                nonEqui);
        // Calcite lists a key compared with IS NOT DISTINCT FROM with filterNulls false: the hash table matches its
        // NULLs with NULLs
        boolean[] nullsMatch = new boolean[lk.size()];
        for (int i = 0; i < nullsMatch.length; i++) {
            nullsMatch[i] = !filterNulls.get(i);
        }
        RexNode rest = RexUtil.composeConjunction(join.getCluster().getRexBuilder(), nonEqui);
        RexNode residual = rest.isAlwaysTrue() ? null : rest;
        return new Keys(lk.stream().mapToInt(Integer::intValue).toArray(),
                rk.stream().mapToInt(Integer::intValue).toArray(), nullsMatch, residual);
    }

    public static boolean supported(Join join) {
        if (!FerryRel.supported(join.getLeft().getRowType()) || !FerryRel.supported(join.getRight().getRowType())) {
            return false;
        }
        JoinRelType t = join.getJoinType();
        if (t == JoinRelType.FULL || t == JoinRelType.ASOF || t == JoinRelType.LEFT_ASOF) {
            return false;
        }
        try {
            Keys k = keys(join);
            List<FerryType> lt = FerryRel.types(join.getLeft().getRowType());
            List<FerryType> rt = FerryRel.types(join.getRight().getRowType());
            for (int i = 0; i < k.left().length; i++) {
                if (!RexTranslator.sameKeyRepresentation(lt.get(k.left()[i]), rt.get(k.right()[i]))) {
                    return false;
                }
            }
            if (k.residual() != null) {
                List<FerryType> all = new ArrayList<>(lt);
                all.addAll(rt);
                return RexTranslator.canTranslate(all, join.getCluster().getRexBuilder(), List.of(k.residual()));
            }
            return true;
        } catch (UnsupportedExpression e) {
            return false;
        }
    }

    /** Whether the condition has no equality of the two inputs' columns: found once, the planner prices a join often. */
    private boolean keyless() {
        if (keyless == null) {
            try {
                keyless = keys(this).left().length == 0;
            } catch (UnsupportedExpression e) {
                keyless = true;
            }
        }
        return keyless;
    }

    @Override
    public PlanNode toPlan() {
        Keys k = keys(this);
        List<FerryType> lt = FerryRel.types(getLeft().getRowType());
        List<FerryType> rt = FerryRel.types(getRight().getRowType());
        PlanNode left = FerryRel.plan(getLeft());
        PlanNode right = FerryRel.plan(getRight());
        if (k.left().length > 0) {
            return plan(left, right, lt, rt, k);
        }
        // no equality: each input gets a constant column to join on, dropped again above the join; the right
        // input's columns in the residual move past the left's constant
        List<FerryType> lc = withConstant(lt);
        List<FerryType> rc = withConstant(rt);
        RexNode residual = k.residual() == null ? null : RexUtil.shift(k.residual(), lt.size(), 1);
        PlanNode join = plan(constant(left, lt), constant(right, rt), lc, rc, new Keys(new int[] {lt.size()},
                new int[] {rt.size()}, new boolean[] {false}, residual));
        List<Expr> keep = new ArrayList<>();
        for (int i = 0; i < lt.size(); i++) {
            keep.add(new InputRef(i, lt.get(i)));
        }
        if (joinType == JoinRelType.INNER || joinType == JoinRelType.LEFT || joinType == JoinRelType.RIGHT) {
            for (int i = 0; i < rt.size(); i++) {
                keep.add(new InputRef(lc.size() + i, rt.get(i)));
            }
        }
        return new PlanNode.Project(join, keep);
    }

    private static List<FerryType> withConstant(List<FerryType> types) {
        List<FerryType> out = new ArrayList<>(types);
        out.add(FerryType.BIGINT);
        return out;
    }

    /** {@code input}'s columns and a constant 0 after them. */
    private static PlanNode constant(PlanNode input, List<FerryType> types) {
        List<Expr> exprs = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            exprs.add(new InputRef(i, types.get(i)));
        }
        exprs.add(new Literal(0L, FerryType.BIGINT));
        return new PlanNode.Project(input, exprs);
    }

    private PlanNode plan(PlanNode left, PlanNode right, List<FerryType> lt, List<FerryType> rt, Keys k) {
        int[] lk = k.left();
        int[] rk = k.right();
        if (joinType == JoinRelType.RIGHT || buildsLeft()) {
            // Probe with the right input, build on the left (a RIGHT join is a LEFT join of the swapped inputs); the
            // residual sees the swapped row, and a projection puts the columns back in the order the join promises.
            // (The row engine, where a RIGHT join with more than equalities went, ran it a row at a time.)
            RexNode residual = k.residual() == null ? null : k.residual().accept(new RexPermuteInputsShuttle(
                    Mappings.target(i -> i < lt.size() ? rt.size() + i : i - lt.size(), lt.size() + rt.size(),
                            lt.size() + rt.size())));
            JoinKind kind = joinType == JoinRelType.RIGHT ? JoinKind.LEFT : JoinKind.INNER;
            return restoreOrder(new PlanNode.Join(right, left, kind, rk, lk, k.nullsMatch(),
                    residual(residual, rt, lt)), lt, rt);
        }
        Expr residual = residual(k.residual(), lt, rt);
        JoinKind kind = switch (joinType) {
            case INNER -> JoinKind.INNER;
            case LEFT -> JoinKind.LEFT;
            case SEMI -> JoinKind.SEMI;
            case ANTI -> JoinKind.ANTI;
            default -> throw new IllegalStateException("join type " + joinType);
        };
        return new PlanNode.Join(left, right, kind, lk, rk, k.nullsMatch(), residual);
    }

    /** A swapped join's output (right columns, then left) back in left-then-right order. */
    private static PlanNode restoreOrder(PlanNode swapped, List<FerryType> lt, List<FerryType> rt) {
        List<Expr> reorder = new ArrayList<>();
        for (int i = 0; i < lt.size(); i++) {
            reorder.add(new InputRef(rt.size() + i, lt.get(i)));
        }
        for (int i = 0; i < rt.size(); i++) {
            reorder.add(new InputRef(i, rt.get(i)));
        }
        return new PlanNode.Project(swapped, reorder);
    }

    private Expr residual(RexNode residual, List<FerryType> first, List<FerryType> second) {
        if (residual == null) {
            return null;
        }
        List<FerryType> all = new ArrayList<>(first);
        all.addAll(second);
        return new RexTranslator(all, getCluster().getRexBuilder()).translate(
                RexUtil.flatten(getCluster().getRexBuilder(), residual));
    }
}
