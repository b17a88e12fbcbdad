package io.ferry.sql.rel;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sample;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalIntersect;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalMinus;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.logical.LogicalTableFunctionScan;
import org.apache.calcite.rel.logical.LogicalTableModify;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.logical.LogicalWindow;

import io.ferry.sql.translate.RexTranslator;

/** Ferry's planner rules: logical operators into the Ferry convention, and the one converter out of it. */
public final class FerryRules {
    private FerryRules() {
    }

    public static final List<RelOptRule> RULES = List.of(
            FilterRule.CONFIG.toRule(FilterRule.class),
            ProjectRule.CONFIG.toRule(ProjectRule.class),
            AggregateRule.CONFIG.toRule(AggregateRule.class),
            JoinRule.CONFIG.toRule(JoinRule.class),
            SortRule.CONFIG.toRule(SortRule.class),
            WindowRule.CONFIG.toRule(WindowRule.class),
            SampleRule.CONFIG.toRule(SampleRule.class),
            ValuesRule.CONFIG.toRule(ValuesRule.class),
            GenerateRule.CONFIG.toRule(GenerateRule.class),
            SetOpRule.UNION.toRule(SetOpRule.class),
            SetOpRule.INTERSECT.toRule(SetOpRule.class),
            SetOpRule.MINUS.toRule(SetOpRule.class),
            ToEnumerableRule.CONFIG.toRule(ToEnumerableRule.class),
            TableModifyRule.CONFIG.toRule(TableModifyRule.class));

    public static void register(RelOptPlanner planner) {
        for (RelOptRule r : RULES) {
            planner.addRule(r);
        }
    }

    /**
     * Whether Ferry's rules implement every node of {@code plan}, a logical plan before the cost-based phase: then
     * the row engine's implementations are not worth registering there. Each logical node otherwise got three
     * implementations (Ferry's, the row engine's, and Ferry's converted for a row-engine parent), and the 103 TPC-DS
     * statements, which all run in Ferry, registered 3790 conversions to the row engine.
     */
    public static boolean runsEntirely(RelNode plan) {
        return runsEntirely(plan, Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private static boolean runsEntirely(RelNode rel, Set<RelNode> seen) {
        if (!seen.add(rel)) {
            return true;
        }
        boolean here = rel instanceof FerryRel
                || rel instanceof LogicalFilter f && FilterRule.runs(f)
                || rel instanceof LogicalProject p && ProjectRule.runs(p)
                || rel instanceof LogicalAggregate a && AggregateRule.runs(a)
                || rel instanceof LogicalJoin j && FerryJoin.supported(j)
                || rel instanceof LogicalSort s && FerrySort.supported(s)
                || rel instanceof LogicalWindow w && FerryWindow.supported(w)
                || rel instanceof LogicalValues v && FerryRel.supported(v.getRowType())
                || rel instanceof LogicalTableFunctionScan t && FerryGenerate.runs(t)
                || rel instanceof Sample
                || (rel instanceof LogicalUnion || rel instanceof LogicalIntersect || rel instanceof LogicalMinus)
                        && SetOpRule.runs((SetOp) rel);
        return here && rel.getInputs().stream().allMatch(i -> runsEntirely(i, seen));
    }

    /**
     * The rules that implement logical nodes in Calcite's row engine, and the conversion of Ferry's nodes for a
     * row-engine parent, which a plan that {@link #runsEntirely} needs at its root only ({@link #toRowEngine}).
     */
    public static List<RelOptRule> rowEngineRules(RelOptPlanner planner) {
        return planner.getRules().stream().filter(r -> r == EnumerableRules.ENUMERABLE_LIMIT_RULE
                || r instanceof ToEnumerableRule
                || r instanceof ConverterRule c && c.getInTrait() == Convention.NONE
                        && c.getOutConvention() == EnumerableConvention.INSTANCE).toList();
    }

    /** A plan of Ferry's operators handed to the row engine, which runs the statement's root. */
    public static RelNode toRowEngine(RelNode ferryPlan) {
        return new FerryToEnumerableConverter(ferryPlan.getCluster(),
                ferryPlan.getTraitSet().replace(EnumerableConvention.INSTANCE), ferryPlan);
    }

    private static RelTraitSet ferry(RelNode rel) {
        return rel.getTraitSet().replace(FerryRel.CONVENTION);
    }

    private static RelNode toFerry(RelNode input) {
        return convert(input, input.getTraitSet().replace(FerryRel.CONVENTION));
    }

    private static RelNode convert(RelNode rel, RelTraitSet traits) {
        return RelOptRule.convert(rel, traits);
    }

    public static final class FilterRule extends ConverterRule {
        static final Config CONFIG = Config.INSTANCE.withConversion(LogicalFilter.class, Convention.NONE,
                FerryRel.CONVENTION, "FerryFilterRule").withRuleFactory(FilterRule::new);

        FilterRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            LogicalFilter f = (LogicalFilter) rel;
            if (!runs(f)) {
                return null;
            }
            return new FerryFilter(f.getCluster(), ferry(f), toFerry(f.getInput()), f.getCondition());
        }

        static boolean runs(LogicalFilter f) {
            return FerryRel.supported(f.getInput().getRowType()) && RexTranslator.canTranslate(
                    FerryRel.types(f.getInput().getRowType()), f.getCluster().getRexBuilder(), List.of(f.getCondition()));
        }
    }

    public static final class ProjectRule extends ConverterRule {
        static final Config CONFIG = Config.INSTANCE.withConversion(LogicalProject.class, Convention.NONE,
                FerryRel.CONVENTION, "FerryProjectRule").withRuleFactory(ProjectRule::new);

        ProjectRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            LogicalProject p = (LogicalProject) rel;
            if (!runs(p)) {
                return null;
            }
            return new FerryProject(p.getCluster(), ferry(p), toFerry(p.getInput()), p.getProjects(), p.getRowType());
        }

        /** Whether Ferry's kernels compute every expression of {@code p}. */
        static boolean runs(Project p) {
            return FerryRel.supported(p.getInput().getRowType()) && FerryRel.supported(p.getRowType())
                    && RexTranslator.canTranslate(FerryRel.types(p.getInput().getRowType()),
                            p.getCluster().getRexBuilder(), p.getProjects());
        }
    }

    public static final class AggregateRule extends ConverterRule {
        static final Config CONFIG = Config.INSTANCE.withConversion(LogicalAggregate.class, Convention.NONE,
                FerryRel.CONVENTION, "FerryAggregateRule").withRuleFactory(AggregateRule::new);

        AggregateRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            LogicalAggregate a = (LogicalAggregate) rel;
            if (!runs(a)) {
                return null;
            }
            return new FerryAggregate(a.getCluster(), ferry(a), toFerry(a.getInput()), a.getGroupSet(),
                    a.getGroupSets(), a.getAggCallList());
        }

        static boolean runs(LogicalAggregate a) {
            return FerryRel.supported(a.getInput().getRowType()) && FerryAggregate.supported(a);
        }
    }

    public static final class JoinRule extends ConverterRule {
        static final Config CONFIG = Config.INSTANCE.withConversion(LogicalJoin.class, Convention.NONE,
                FerryRel.CONVENTION, "FerryJoinRule").withRuleFactory(JoinRule::new);

        JoinRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            LogicalJoin j = (LogicalJoin) rel;
            if (!FerryJoin.supported(j)) {
                return null;
            }
            return new FerryJoin(j.getCluster(), ferry(j), toFerry(j.getLeft()), toFerry(j.getRight()),
                    j.getCondition(), j.getJoinType());
        }
    }

    public static final class SortRule extends ConverterRule {
        static final Config CONFIG = Config.INSTANCE.withConversion(LogicalSort.class, Convention.NONE,
                FerryRel.CONVENTION, "FerrySortRule").withRuleFactory(SortRule::new);

        SortRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            LogicalSort s = (LogicalSort) rel;
            if (!FerrySort.supported(s)) {
                return null;
            }
            return new FerrySort(s.getCluster(), ferry(s).replace(s.getCollation()), convert(s.getInput(),
                    s.getInput().getTraitSet().replace(FerryRel.CONVENTION)), s.getCollation(), s.offset, s.fetch);
        }
    }

    public static final class WindowRule extends ConverterRule {
        static final Config CONFIG = Config.INSTANCE.withConversion(LogicalWindow.class, Convention.NONE,
                FerryRel.CONVENTION, "FerryWindowRule").withRuleFactory(WindowRule::new);

        WindowRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            LogicalWindow w = (LogicalWindow) rel;
            if (!FerryWindow.supported(w)) {
                return null;
            }
            return new FerryWindow(w.getCluster(), ferry(w), toFerry(w.getInput()), w.getConstants(), w.getRowType(),
                    w.groups);
        }
    }

    public static final class SampleRule extends ConverterRule {
        static final Config CONFIG = Config.INSTANCE.withConversion(Sample.class, Convention.NONE,
                FerryRel.CONVENTION, "FerrySampleRule").withRuleFactory(SampleRule::new);

        SampleRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            Sample s = (Sample) rel;
            return new FerrySample(s.getCluster(), ferry(s), toFerry(s.getInput()), s.getSamplingParameters());
        }
    }

    public static final class ValuesRule extends ConverterRule {
        static final Config CONFIG = Config.INSTANCE.withConversion(LogicalValues.class, Convention.NONE,
                FerryRel.CONVENTION, "FerryValuesRule").withRuleFactory(ValuesRule::new);

        ValuesRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            LogicalValues v = (LogicalValues) rel;
            if (!FerryRel.supported(v.getRowType())) {
                return null;
            }
            return new FerryValues(v.getCluster(), v.getRowType(), v.getTuples(), ferry(v));
        }
    }

    public static final class GenerateRule extends ConverterRule {
        static final Config CONFIG = Config.INSTANCE.withConversion(LogicalTableFunctionScan.class, Convention.NONE,
                FerryRel.CONVENTION, "FerryGenerateRule").withRuleFactory(GenerateRule::new);

        GenerateRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            LogicalTableFunctionScan scan = (LogicalTableFunctionScan) rel;
            return FerryGenerate.runs(scan) ? FerryGenerate.of(scan, ferry(scan)) : null;
        }
    }

    /**
     * UNION, INTERSECT and EXCEPT, with and without ALL, where every column has a Ferry type. An input that cannot
     * run in Ferry leaves the set operation to the row engine.
     */
    public static final class SetOpRule extends ConverterRule {
        static final Config UNION = config(LogicalUnion.class, "FerryUnionRule");
        static final Config INTERSECT = config(LogicalIntersect.class, "FerryIntersectRule");
        static final Config MINUS = config(LogicalMinus.class, "FerryMinusRule");

        private static Config config(Class<? extends SetOp> kind, String name) {
            return Config.INSTANCE.withConversion(kind, Convention.NONE, FerryRel.CONVENTION, name)
                    .withRuleFactory(SetOpRule::new);
        }

        SetOpRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            SetOp op = (SetOp) rel;
            if (!runs(op)) {
                return null;
            }
            List<RelNode> inputs = op.getInputs().stream().map(FerryRules::toFerry).toList();
            if (op instanceof LogicalUnion) {
                return new FerryUnion(op.getCluster(), ferry(op), inputs, op.all);
            }
            return op instanceof LogicalIntersect ? new FerryIntersect(op.getCluster(), ferry(op), inputs, op.all)
                    : new FerryMinus(op.getCluster(), ferry(op), inputs, op.all);
        }

        static boolean runs(SetOp op) {
            return FerryRel.supported(op.getRowType())
                    && op.getInputs().stream().allMatch(i -> FerryRel.supported(i.getRowType()));
        }
    }

    public static final class ToEnumerableRule extends ConverterRule {
        static final Config CONFIG = Config.INSTANCE.withConversion(RelNode.class, FerryRel.CONVENTION,
                EnumerableConvention.INSTANCE, "FerryToEnumerableConverterRule").withRuleFactory(ToEnumerableRule::new);

        ToEnumerableRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            return new FerryToEnumerableConverter(rel.getCluster(),
                    rel.getTraitSet().replace(EnumerableConvention.INSTANCE), rel);
        }
    }

    public static final class TableModifyRule extends ConverterRule {
        static final Config CONFIG = Config.INSTANCE.withConversion(LogicalTableModify.class, Convention.NONE,
                EnumerableConvention.INSTANCE, "FerryTableModifyRule").withRuleFactory(TableModifyRule::new);

        TableModifyRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            LogicalTableModify m = (LogicalTableModify) rel;
            if (m.getTable().unwrap(io.ferry.sql.schema.FerryTable.class) == null || m.isMerge()) {
                return null;
            }
            RelTraitSet traits = m.getTraitSet().replace(EnumerableConvention.INSTANCE);
            return new FerryTableModify(m.getCluster(), traits, m.getTable(), m.getCatalogReader(),
                    convert(m.getInput(), m.getInput().getTraitSet().replace(EnumerableConvention.INSTANCE)),
                    m.getOperation(), m.getUpdateColumnList(), m.getSourceExpressionList(), m.isFlattened());
        }
    }
}
