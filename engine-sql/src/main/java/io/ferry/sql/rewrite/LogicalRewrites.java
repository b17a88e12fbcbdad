package io.ferry.sql.rewrite;

import java.util.List;

import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

/**
 * Ferry's rewrites of the logical plan, run once by a heuristic planner before join ordering and the cost-based
 * phase, then {@link CodePointStrings}: they fix what the later phases would get wrong or plan badly, not what is
 * merely cheaper.
 */
public final class LogicalRewrites {
    private LogicalRewrites() {
    }

    public static Program program() {
        HepProgram rewrites = new HepProgramBuilder()
                .addMatchOrder(HepMatchOrder.BOTTOM_UP)
                // Conditions folded first: a comparison with a NULL literal left in a filter (as decorrelation
                // leaves CASE WHEN NULL THEN x END <> y) fails Calcite's predicate pull-up with an AssertionError.
                // Folded alone, without the predicates of their inputs (NoPredicates)
                .addRuleCollection(List.of(CoreRules.FILTER_REDUCE_EXPRESSIONS, CoreRules.JOIN_REDUCE_EXPRESSIONS))
                .addRuleInstance(CorrelatedNullMatchingRule.INSTANCE)
                .addRuleInstance(FactorDisjunctionsRule.FILTER)
                .addRuleInstance(FactorDisjunctionsRule.JOIN)
                .addRuleInstance(AggregateArgumentsRule.INSTANCE)
                .addRuleInstance(QuantileCallsRule.INSTANCE)
                .addRuleInstance(WindowCallsRule.INSTANCE)
                .addRuleInstance(ConstantRangeKeysRule.INSTANCE)
                .addRuleInstance(SignedZeros.SortRule.INSTANCE)
                .addRuleInstance(ConstantGroupJoinRule.INSTANCE)
                .addRuleInstance(SingleRowJoinRule.INSTANCE)
                .addRuleInstance(ProjectedAggCallsRule.INSTANCE)
                .addRuleInstance(NonEquiOuterJoinRule.INSTANCE)
                .build();
        // A cluster keeps its metadata query, and the provider it was made with, until told to forget it: the
        // rewrites get one without predicates, the phases after Calcite's again, as the rewrites had before
        Program forget = (planner, rel, traits, materializations, lattices) -> {
            rel.getCluster().invalidateMetadataQuery();
            return rel;
        };
        Program calciteMetadata = (planner, rel, traits, materializations, lattices) -> {
            rel.getCluster().setMetadataProvider(DefaultRelMetadataProvider.INSTANCE);
            return forget.run(planner, rel, traits, materializations, lattices);
        };
        return Programs.sequence(forget, Programs.of(rewrites, false, NoPredicates.PROVIDER), calciteMetadata,
                CodePointStrings.PROGRAM);
    }
}
