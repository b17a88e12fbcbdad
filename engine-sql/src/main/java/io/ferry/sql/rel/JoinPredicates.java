package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

/**
 * What a join's rows are known to satisfy, without inference across the join: its inputs' predicates (for an outer
 * join, only those of the side that is never padded with NULLs) and, for an inner join, its condition. Calcite also
 * derives, from equalities in the condition, each side's predicates for the other side's columns and simplifies
 * them all, which it redoes whenever the heuristic planner changes a node below (every change drops the cached
 * metadata): with the aggregate rules that read these predicates, that took two thirds of the simplification phase
 * on TPC-DS q64. Knowing fewer predicates only leaves a plan less simplified, never wrong, and Ferry's rewrites do not
 * use the derived ones (no transitive predicate pushdown).
 */
public final class JoinPredicates implements MetadataHandler<BuiltInMetadata.Predicates> {
    static final JoinPredicates INSTANCE = new JoinPredicates();

    private JoinPredicates() {
    }

    @Override
    public MetadataDef<BuiltInMetadata.Predicates> getDef() {
        return BuiltInMetadata.Predicates.DEF;
    }

    public RelOptPredicateList getPredicates(Join join, RelMetadataQuery mq) {
        RexBuilder rex = join.getCluster().getRexBuilder();
        List<RexNode> known = new ArrayList<>();
        boolean left = !join.getJoinType().generatesNullsOnLeft();
        boolean right = !join.getJoinType().generatesNullsOnRight() && join.getJoinType().projectsRight();
        if (left) {
            known.addAll(mq.getPulledUpPredicates(join.getLeft()).pulledUpPredicates);
        }
        if (right) {
            int shift = join.getLeft().getRowType().getFieldCount();
            for (RexNode predicate : mq.getPulledUpPredicates(join.getRight()).pulledUpPredicates) {
                known.add(RexUtil.shift(predicate, shift));
            }
        }
        if (left && right) {
            for (RexNode conjunct : RelOptUtil.conjunctions(join.getCondition())) {
                if (RexUtil.isDeterministic(conjunct) && !conjunct.isAlwaysTrue()) {
                    known.add(conjunct);
                }
            }
        }
        return RelOptPredicateList.of(rex, known);
    }
}
