package io.ferry.sql.rewrite;

import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

/**
 * Ferry's rewrites of the logical plan, run once by a heuristic planner before join ordering and the cost-based
 * phase: they fix what the later phases would get wrong or plan badly, not what is merely cheaper.
 */
public final class LogicalRewrites {
    private LogicalRewrites() {
    }

    public static Program program() {
        HepProgram rewrites = new HepProgramBuilder()
                .addMatchOrder(HepMatchOrder.BOTTOM_UP)
                .addRuleInstance(FactorDisjunctionsRule.FILTER)
                .addRuleInstance(FactorDisjunctionsRule.JOIN)
                .addRuleInstance(AggregateArgumentsRule.INSTANCE)
                .build();
        return Programs.of(rewrites, false, DefaultRelMetadataProvider.INSTANCE);
    }
}
