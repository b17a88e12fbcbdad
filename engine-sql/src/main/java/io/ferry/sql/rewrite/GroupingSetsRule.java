package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;

import com.google.common.collect.ImmutableList;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * GROUPING SETS, ROLLUP and CUBE as a UNION ALL of one plain aggregate per grouping set, each padded with NULL for
 * the keys it does not group by and with its GROUPING() values as constants.
 *
 * <p>Calcite's row engine, which ran grouping sets, returns no row at all for an empty input, where the empty set
 * {@code ()} of a ROLLUP must give its grand total ({@code (NULL, 0)} for {@code COUNT(*)}, as in DuckDB and the
 * standard). A plain aggregate without keys gives that row. And each plain aggregate runs in Ferry's vectorized
 * hash aggregate instead of the row engine, at the price of reading the input once per grouping set.
 */
public final class GroupingSetsRule extends RelOptRule {
    public static final GroupingSetsRule INSTANCE = new GroupingSetsRule();

    private GroupingSetsRule() {
        super(operand(LogicalAggregate.class, any()), "GroupingSetsRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalAggregate aggregate = call.rel(0);
        if (aggregate.getGroupType() == LogicalAggregate.Group.SIMPLE) {
            return;
        }
        RelBuilder b = call.builder();
        RexBuilder rex = aggregate.getCluster().getRexBuilder();
        List<RelDataTypeField> out = aggregate.getRowType().getFieldList();
        List<Integer> keys = aggregate.getGroupSet().asList();
        List<AggregateCall> plain = new ArrayList<>();
        for (AggregateCall c : aggregate.getAggCallList()) {
            if (!isGrouping(c)) {
                plain.add(c);
            }
        }
        for (ImmutableBitSet set : aggregate.getGroupSets()) {
            // Each call typed anew for its set, as Calcite's later rules would type it (SUM of a NOT NULL column is
            // NOT NULL when grouped by keys, nullable over ()); the union then takes the widest
            List<AggregateCall> calls = new ArrayList<>(plain.size());
            for (AggregateCall c : plain) {
                calls.add(AggregateCall.create(c.getAggregation(), c.isDistinct(), c.isApproximate(), c.ignoreNulls(),
                        c.rexList, c.getArgList(), c.filterArg, c.distinctKeys, c.collation, set.cardinality(),
                        aggregate.getInput(), null, c.getName()));
            }
            b.push(aggregate.copy(aggregate.getTraitSet(), aggregate.getInput(), set, ImmutableList.of(set), calls));
            List<RexNode> row = new ArrayList<>(out.size());
            for (int i = 0; i < keys.size(); i++) {
                row.add(set.get(keys.get(i)) ? b.field(set.indexOf(keys.get(i)))
                        : rex.makeNullLiteral(out.get(i).getType()));
            }
            int next = set.cardinality();
            for (int i = 0; i < aggregate.getAggCallList().size(); i++) {
                AggregateCall c = aggregate.getAggCallList().get(i);
                RelDataTypeField field = out.get(keys.size() + i);
                row.add(isGrouping(c) ? rex.makeLiteral(grouping(c, set), field.getType(), false)
                        : b.field(next++));
            }
            b.project(row).convert(aggregate.getRowType(), false);
        }
        // The union's types are the least restrictive of its inputs'; the aggregate's may be wider (a DECIMAL sum)
        call.transformTo(b.union(true, aggregate.getGroupSets().size()).convert(aggregate.getRowType(), false)
                .build());
    }

    private static boolean isGrouping(AggregateCall c) {
        SqlKind kind = c.getAggregation().getKind();
        return kind == SqlKind.GROUPING || kind == SqlKind.GROUPING_ID || kind == SqlKind.GROUP_ID;
    }

    /**
     * GROUPING(a, b, …) in a grouping set: one bit per argument, the first the most significant, set where the
     * argument is not grouped by. GROUP_ID() is 0: a grouping set listed twice reaches the plan as a union already.
     */
    private static long grouping(AggregateCall c, ImmutableBitSet set) {
        if (c.getAggregation().getKind() == SqlKind.GROUP_ID) {
            return 0;
        }
        long bits = 0;
        for (int arg : c.getArgList()) {
            bits = (bits << 1) | (set.get(arg) ? 0 : 1);
        }
        return bits;
    }
}
