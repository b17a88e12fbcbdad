package io.ferry.sql.jdbc;

import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.rel.rules.CoreRules;

import io.ferry.sql.rel.FerryRules;

/**
 * Calcite's statement preparation with Ferry's rules in the planner. Calcite's own rewrite of BERNOULLI samples
 * into a RAND() filter is removed: Ferry samples in the scan, deterministically per block and row.
 */
public final class FerryPrepare extends CalcitePrepareImpl {
    @Override
    protected RelOptPlanner createPlanner(CalcitePrepare.Context prepareContext, org.apache.calcite.plan.Context externalContext,
            RelOptCostFactory costFactory) {
        RelOptPlanner planner = super.createPlanner(prepareContext, externalContext, costFactory);
        FerryRules.register(planner);
        planner.removeRule(CoreRules.SAMPLE_TO_FILTER);
        planner.removeRule(EnumerableRules.ENUMERABLE_TABLE_MODIFICATION_RULE);
        // EnumerableValues trips over DECIMAL literals in nullable DOUBLE columns; Ferry's VALUES converts them.
        planner.removeRule(EnumerableRules.ENUMERABLE_VALUES_RULE);
        return planner;
    }
}
