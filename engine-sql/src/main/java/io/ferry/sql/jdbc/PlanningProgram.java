package io.ferry.sql.jdbc;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rel.rules.DateRangeRules;
import org.apache.calcite.rel.rules.PruneEmptyRules;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mappings;

import io.ferry.sql.rel.CancelChecks;
import io.ferry.sql.rel.CheckedSums;
import io.ferry.sql.rel.FerryImplementation;
import io.ferry.sql.rel.FerryRel;
import io.ferry.sql.rel.FerryRules;
import io.ferry.sql.rel.GrandTotals;
import io.ferry.sql.rel.JoinOrderRule;
import io.ferry.sql.rel.JoinSelectivity;
import io.ferry.sql.rel.NullableCasts;
import io.ferry.sql.rel.PlannerMetadata;
import io.ferry.sql.rel.ProjectionsIntoFerry;
import io.ferry.sql.rel.RoundingCasts;
import io.ferry.sql.rel.RowEngineAverages;
import io.ferry.sql.rel.RowEngineDoubleOrder;
import io.ferry.sql.rel.RowEngineExtracts;
import io.ferry.sql.rel.SignedZeros;
import io.ferry.sql.rewrite.AggregateReductionsRule;
import io.ferry.sql.rewrite.CoalesceCasts;
import io.ferry.sql.rewrite.ConstantJoinKeysRule;
import io.ferry.sql.rewrite.DistinctSemiJoins;
import io.ferry.sql.rewrite.EagerAggregates;
import io.ferry.sql.rewrite.ConstantGroupJoinRule;
import io.ferry.sql.rewrite.ConstantGroupKeys;
import io.ferry.sql.rewrite.ConstantRangeKeysRule;
import io.ferry.sql.rewrite.ConstantRows;
import io.ferry.sql.rewrite.CorrelatedSemiJoins;
import io.ferry.sql.rewrite.CorrelationKeyBuilder;
import io.ferry.sql.rewrite.DmlRewrite;
import io.ferry.sql.rewrite.EnclosingCorrelations;
import io.ferry.sql.rewrite.ExpandedSearches;
import io.ferry.sql.rewrite.FullJoins;
import io.ferry.sql.rewrite.GroupedSumZeroGuardRule;
import io.ferry.sql.rewrite.PullUpConstantsGuardRule;
import io.ferry.sql.rewrite.TypedProjectMergeRule;
import io.ferry.sql.rewrite.GroupingSetsFilterTransposeRule;
import io.ferry.sql.rewrite.GroupingSetsProjectMergeRule;
import io.ferry.sql.rewrite.FerryRexExecutor;
import io.ferry.sql.rewrite.InOperandColumns;
import io.ferry.sql.rewrite.InSubQueries;
import io.ferry.sql.rewrite.LogicalRewrites;
import io.ferry.sql.rewrite.OneRowJoins;
import io.ferry.sql.rewrite.SmallSideExpressions;
import io.ferry.sql.rewrite.SortBelowProjectRule;
import io.ferry.sql.rewrite.SubQueryLogicRule;
import io.ferry.sql.rewrite.NonEquiOuterJoinRule;
import io.ferry.sql.rewrite.NullCalls;
import io.ferry.sql.rewrite.UncorrelatedCorrelates;

/**
 * The phases that turn a converted statement into an executable plan. Planning is bounded: every rewrite that is
 * always worth doing runs once, to a fixpoint, in heuristic planners, and the cost-based (Volcano) phase only picks
 * an implementation for each node — Ferry's vectorized operator where its kernels can run the node, Calcite's row
 * engine otherwise — plus the few rewrites that are choices (a reduced aggregate, a semi-join, a join pushed through
 * another, which repairs what the join order leaves across a part that runs in the row engine). Exploring every
 * logical rewrite in Volcano, as Calcite's standard program does, registered each variant in both conventions:
 * planning TPC-DS q58 took 660 ms of CPU and q64 450 ms, 65 and 120 ms now.
 *
 * <ol>
 *   <li>Ferry's constant folding, VALUES folding and UPDATE/DELETE rewriting;</li>
 *   <li>IN over a one-row subquery and NULL IN become {@code =} and EXISTS ({@link InSubQueries});</li>
 *   <li>subqueries become joins (Calcite's removal, each call over an IN or EXISTS first put where every answer of
 *       it counts, {@link SubQueryLogicRule}); Ferry's logical rewrites ({@link LogicalRewrites}); correlations are
 *       removed (before join ordering: a correlation left in place hid the WHERE clause's join conditions from it,
 *       and TPC-DS q6 multiplied 5000 addresses by 18000 items);</li>
 *   <li>multi-way inner joins ordered by estimated cardinality ({@link JoinOrderRule}; Calcite's
 *       LoptOptimizeJoinRule where outer joins take part);</li>
 *   <li>unused fields trimmed, then {@link #SIMPLIFY} to a fixpoint; FULL joins become a LEFT join and an ANTI
 *       join ({@link FullJoins}), one-row joins get a constant key ({@link OneRowJoins});</li>
 *   <li>a plan Ferry runs entirely: the rewrites that were choices taken ({@link #CHOICES}), then each node
 *       implemented by Ferry's rule for it ({@link FerryImplementation}); any other plan: the cost-based choice of
 *       implementations, with the planner's rules less {@link #NOT_COST_BASED};</li>
 *   <li>row-engine projections on Ferry's rows moved into Ferry, Calcite's calc rules, then Ferry's adjustments of
 *       what runs in the row engine.</li>
 * </ol>
 */
final class PlanningProgram {
    private PlanningProgram() {
    }

    /**
     * An aggregate over an empty input is empty unless one of its grouping sets is the grand total: Calcite's own
     * rule asks only whether the aggregate has group keys, and pruned {@code GROUP BY GROUPING SETS (k, ())} (or a
     * ROLLUP or CUBE) over {@code WHERE FALSE} to no rows, where SQL gives the grand total's one row (fuzzer).
     */
    private static final RelOptRule PRUNE_EMPTY_AGGREGATE = PruneEmptyRules.RemoveEmptySingleRule
            .RemoveEmptySingleRuleConfig.AGGREGATE.withOperandFor(Aggregate.class, aggregate ->
                    aggregate.getGroupCount() > 0 && !aggregate.getGroupSets().contains(ImmutableBitSet.of()))
            .toRule();

    /**
     * Empty inputs pruned: run in both phases, since the cost-based phase's own rewrites can leave them. A correlation
     * whose outer input is empty is too: the decorrelator leaves one over an outer input a constant-false filter
     * emptied, and it ran in the row engine (fuzzer seed 2003, query 4868).
     */
    private static final List<RelOptRule> PRUNE_EMPTY = List.of(PruneEmptyRules.UNION_INSTANCE,
            PruneEmptyRules.INTERSECT_INSTANCE, PruneEmptyRules.MINUS_INSTANCE, PruneEmptyRules.PROJECT_INSTANCE,
            PruneEmptyRules.FILTER_INSTANCE, PruneEmptyRules.SORT_INSTANCE, PRUNE_EMPTY_AGGREGATE,
            PruneEmptyRules.JOIN_LEFT_INSTANCE, PruneEmptyRules.JOIN_RIGHT_INSTANCE,
            PruneEmptyRules.CORRELATE_LEFT_INSTANCE, PruneEmptyRules.SORT_FETCH_ZERO_INSTANCE);

    /**
     * Rewrites that never make a plan worse, applied to a fixpoint before the cost-based phase, which no longer
     * explores them. Not here: rewrites whose result may not run in Ferry's kernels, which stay choices the
     * cost-based phase makes (AVG reduced to SUM and COUNT, a CASE aggregate into FILTER, semi-joins, DISTINCT
     * aggregates expanded).
     */
    private static final List<RelOptRule> HEURISTIC = List.of(
            CoreRules.FILTER_MERGE, CoreRules.FILTER_PROJECT_TRANSPOSE, CoreRules.FILTER_INTO_JOIN,
            CoreRules.JOIN_CONDITION_PUSH, CoreRules.JOIN_PUSH_EXPRESSIONS, GroupingSetsFilterTransposeRule.INSTANCE,
            TypedProjectMergeRule.INSTANCE, GroupingSetsProjectMergeRule.INSTANCE, GroupedSumZeroGuardRule.INSTANCE,
            CoreRules.AGGREGATE_MERGE, CoreRules.AGGREGATE_REMOVE, PullUpConstantsGuardRule.INSTANCE,
            CoreRules.UNION_PULL_UP_CONSTANTS, CoreRules.UNION_MERGE, CoreRules.INTERSECT_MERGE, CoreRules.MINUS_MERGE,
            CoreRules.FILTER_REDUCE_EXPRESSIONS,
            // a filter over a UNION into each branch: TPC-DS q4, q11 and q74 read one channel and year of a
            // three-channel, every-year CTE six times, and aggregated every year of every channel each time
            CoreRules.FILTER_SET_OP_TRANSPOSE,
            // ORDER BY … LIMIT over at most one row (an aggregate without GROUP BY: TPC-DS q16, q23a, q94, q95)
            CoreRules.SORT_REMOVE_REDUNDANT);

    /**
     * What {@link #simplify()} runs: {@link #HEURISTIC}, the pruning of empty inputs, sorts pushed below
     * projections (which the cost-based phase also does, where its reduced aggregates put a projection under a
     * sort), the semi-joins for uncorrelated EXISTS and IN that {@link ConstantGroupJoinRule} left for after
     * decorrelation, and window keys that pruning made constants ({@link ConstantRangeKeysRule}).
     */
    private static final List<RelOptRule> SIMPLIFY = Stream.of(HEURISTIC, PRUNE_EMPTY,
            List.<RelOptRule>of(SortBelowProjectRule.INSTANCE, ConstantGroupJoinRule.INSTANCE,
                    ConstantRangeKeysRule.INSTANCE))
            .flatMap(List::stream).toList();

    /**
     * Rules Calcite registers in the cost-based planner that it does not run: {@link #HEURISTIC}, and what it would
     * explore to no use. Join orders are chosen before (JoinAssociate, JoinCommute, and rules that move aggregates
     * and sorts across joins multiplied the search space: q6 never finished planning, q58 took 16 s); projections
     * are pushed down by the field trimmer; merge joins are not used (Ferry's hash join is faster on its in-memory
     * inputs); sorts go below projections by {@link SortBelowProjectRule} instead; and Calcite's
     * FilterAggregateTransposeRule, AggregateProjectMergeRule, ProjectAggregateMergeRule,
     * AggregateProjectPullUpConstantsRule and ProjectMergeRule, which {@link GroupingSetsFilterTransposeRule},
     * {@link GroupingSetsProjectMergeRule}, {@link GroupedSumZeroGuardRule}, {@link PullUpConstantsGuardRule} and
     * {@link TypedProjectMergeRule} run where they are right.
     */
    private static final List<RelOptRule> NOT_COST_BASED = Stream.of(HEURISTIC, List.<RelOptRule>of(
            CoreRules.FILTER_AGGREGATE_TRANSPOSE, CoreRules.AGGREGATE_PROJECT_MERGE, CoreRules.PROJECT_AGGREGATE_MERGE,
            CoreRules.AGGREGATE_ANY_PULL_UP_CONSTANTS, CoreRules.PROJECT_MERGE,
            CoreRules.PROJECT_FILTER_TRANSPOSE,
            CoreRules.JOIN_ASSOCIATE, CoreRules.JOIN_COMMUTE, CoreRules.AGGREGATE_JOIN_TRANSPOSE,
            CoreRules.SORT_JOIN_TRANSPOSE, CoreRules.SORT_PROJECT_TRANSPOSE, EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE))
            .flatMap(List::stream).toList();

    /**
     * Constants are folded by Ferry's kernels ({@link FerryRexExecutor}). Calcite installs its own executor just
     * before it runs the program, so the program's first step wraps it.
     */
    private static final Program FOLD_WITH_FERRY = (planner, rel, traits, materializations, lattices) -> {
        if (!(planner.getExecutor() instanceof FerryRexExecutor)) {
            planner.setExecutor(new FerryRexExecutor(planner.getExecutor()));
        }
        return rel;
    };

    private static final Program DECORRELATE = (planner, rel, traits, materializations, lattices) -> {
        // the decorrelator mishandles literal GROUP BY keys above or inside a correlation, and enclosing
        // correlations' variables on the right of a LEFT one: those go first; it rewrites a SEARCH's argument
        // (ExpandedSearches); and it leaves a correlation whose semi-join reads its variable (CorrelatedSemiJoins)
        RelNode prepared = hasCorrelate(rel) ? EnclosingCorrelations.PROGRAM.run(planner,
                ConstantGroupKeys.PROGRAM.run(planner, CorrelatedSemiJoins.PROGRAM.run(planner,
                        ExpandedSearches.expand(rel), traits, materializations, lattices), traits, materializations,
                        lattices), traits, materializations, lattices) : rel;
        return RelDecorrelator.decorrelateQuery(prepared, new CorrelationKeyBuilder(rel.getCluster()));
    };

    private static boolean hasCorrelate(RelNode rel) {
        if (rel instanceof Correlate) {
            return true;
        }
        for (RelNode input : rel.getInputs()) {
            if (hasCorrelate(input)) {
                return true;
            }
        }
        return false;
    }

    private static final Program TRIM = (planner, rel, traits, materializations, lattices) -> trimmed(rel,
            r -> new RelFieldTrimmer(null, RelFactories.LOGICAL_BUILDER.create(r.getCluster(), null)).trim(r));

    /** {@link DistinctSemiJoins}, then the columns its semi-joins left unread trimmed. */
    private static final Program DISTINCT_SEMI_JOINS = (planner, rel, traits, materializations, lattices) -> {
        RelNode rewritten = DistinctSemiJoins.rewrite(rel);
        return rewritten == rel ? rel : TRIM.run(planner, rewritten, traits, materializations, lattices);
    };

    /**
     * {@code plan} with its unused columns trimmed by {@code trimmer}, or as it is where Calcite's trimmer fails its
     * own check: trimming only saves work, and the predicates it pulls up from a comparison with a NULL literal
     * ({@code CAST(NULL AS BOOLEAN) > f} under DISTINCT: "Comparison with NULL in pulledUpPredicates", an
     * AssertionError) failed statements that run untrimmed (fuzzer, seeds 41, 43, 46, 48, 49). So did a correlated
     * EXISTS whose correlated column the trimmer had dropped from the outer input: it then looks the column up at
     * position -1 (an IndexOutOfBoundsException: seed 41 query 12723, seed 43 query 7108), or finds no place for it
     * in its mapping (Mappings.NoElementException: {@code SELECT COALESCE(0, MIN(7)) FROM t a0 WHERE EXISTS (SELECT 1
     * FROM t b0 WHERE 0 = a0.k)}, seed 532 query 2873, where no outer column is used but the correlated one).
     */
    static <T> T trimmed(T plan, UnaryOperator<T> trimmer) {
        try {
            return trimmer.apply(plan);
        } catch (AssertionError | IndexOutOfBoundsException | Mappings.NoElementException e) {
            return plan;
        }
    }

    /** Off ({@code -Dferry.direct-implementation=off}): every plan implemented by the cost-based phase, to compare. */
    private static final boolean DIRECT = !"off".equals(System.getProperty("ferry.direct-implementation"));

    /**
     * The rewrites the cost-based phase chose among for plans Ferry runs entirely, and always took in the plans it
     * chose for them: here taken wherever they apply, before such a plan is implemented node by node ({@link
     * FerryImplementation}). An aggregate of a CASE into one with a FILTER (TPC-DS q2, q43, q50, q59, q62, q99),
     * aggregates of GROUP BY keys and sums that cannot be NULL reduced ({@link AggregateReductionsRule}, q35, q50), a
     * join with a set of unique keys into a semi-join (q8), sort keys that are constants dropped, projections that do
     * nothing removed, and sorts below projections again where those rewrites made some. Not Calcite's
     * SortUnionTransposeRule, which the cost-based phase took for q23b: in a heuristic planner it put a FULL join's
     * LEFT and ANTI halves in a cycle, and the statement overflowed the stack.
     */
    private static final Program CHOICES = Programs.of(new HepProgramBuilder()
            .addRuleCollection(List.of(CoreRules.AGGREGATE_CASE_TO_FILTER, AggregateReductionsRule.INSTANCE,
                    CoreRules.PROJECT_TO_SEMI_JOIN, CoreRules.JOIN_TO_SEMI_JOIN, CoreRules.JOIN_ON_UNIQUE_TO_SEMI_JOIN,
                    CoreRules.SORT_REMOVE_CONSTANT_KEYS, CoreRules.PROJECT_REMOVE, SortBelowProjectRule.INSTANCE))
            .build(), false, PlannerMetadata.PROVIDER);

    /** Calcite's rewrite of projections with window calls into a projection over a window. */
    private static final Program WINDOWS = Programs.of(new HepProgramBuilder()
            .addRuleInstance(CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW).build(), false, PlannerMetadata.PROVIDER);

    /**
     * The implementation of the plan with the required traits. A plan that runs entirely in Ferry ({@link
     * FerryRules#runsEntirely}) is implemented node by node after {@link #CHOICES} ({@link FerryImplementation}), or,
     * should that fail (a required order its operators do not give) or {@code -Dferry.direct-implementation=off} say
     * so, chosen by Calcite's cost-based phase among Ferry's implementations alone; where those alone do not cover it
     * (an ORDER BY … LIMIT below a projection of a CAST, fuzzer seeds 57 and 59: 0A000), and for any other plan, the
     * cost-based phase chooses among both engines'.
     */
    private static final Program CHOOSE = (planner, logical, traits, materializations, lattices) -> {
        // window calls still inside projections become windows first, so that whether Ferry runs them is asked of
        // the windows: a projection with one looked unsupported, and every SELECT with a window was chosen among both
        // engines, where the cheapest could be the row engine's (an INTERSECT beside a window, fuzzer seed 2002)
        RelNode rel = hasWindowCall(logical) ? WINDOWS.run(planner, logical, traits, materializations, lattices)
                : logical;
        // costs are re-estimated whenever a cheaper input appears: estimates that are cheap to redo
        rel.getCluster().setMetadataProvider(PlannerMetadata.PROVIDER);
        rel.getCluster().invalidateMetadataQuery();
        // a result of at most one row is in every order: the ORDER BY over a grand total (TPC-DS q16, q94, q95)
        // would otherwise be enforced by a sort in the row engine
        Double most = rel.getCluster().getMetadataQuery().getMaxRowCount(rel);
        RelTraitSet wanted = most != null && most <= 1 ? traits.replace(RelCollations.EMPTY) : traits;
        if (!FerryRules.runsEntirely(rel)) {
            return cheapest(planner, rel, wanted);
        }
        if (DIRECT) {
            RelNode chosen = CHOICES.run(planner, rel, traits, materializations, lattices);
            RelNode ferry = FerryRules.runsEntirely(chosen)
                    ? FerryImplementation.of(chosen, wanted.replace(FerryRel.CONVENTION)) : null;
            if (ferry != null) {
                return FerryRules.toRowEngine(ferry);
            }
        }
        List<RelOptRule> rules = List.copyOf(planner.getRules());
        FerryRules.rowEngineRules(planner).forEach(planner::removeRule);
        try {
            return FerryRules.toRowEngine(cheapest(planner, rel, wanted.replace(FerryRel.CONVENTION)));
        } catch (RelOptPlanner.CannotPlanException e) {
            planner.clear();
            rules.forEach(planner::addRule);
            return cheapest(planner, rel, wanted);
        }
    };

    /** Whether a projection of {@code rel}'s tree computes a window call (a heuristic pass costs a graph). */
    private static boolean hasWindowCall(RelNode rel) {
        if (rel instanceof Project p && RexOver.containsOver(p.getProjects(), null)) {
            return true;
        }
        for (RelNode input : rel.getInputs()) {
            if (hasWindowCall(input)) {
                return true;
            }
        }
        return false;
    }

    private static RelNode cheapest(RelOptPlanner planner, RelNode rel, RelTraitSet traits) {
        planner.setRoot(rel);
        if (!rel.getTraitSet().equals(traits)) {
            planner.setRoot(planner.changeTraits(rel, traits));
        }
        RelNode best = planner.chooseDelegate().findBestExp();
        if (best == null) {
            throw new IllegalStateException("the planner found no implementation");
        }
        return best;
    }

    /** The phases in order, each first checking that the statement was not cancelled ({@link PlanningCancel}). */
    static Program create() {
        return Programs.sequence(Stream.of(FOLD_WITH_FERRY, ConstantRows.INSTANCE, DmlRewrite.INSTANCE,
                NullCalls.PROGRAM, CoalesceCasts.PROGRAM, InSubQueries.PROGRAM, InOperandColumns.PROGRAM,
                SubQueryLogicRule.SUB_QUERY_REMOVAL, LogicalRewrites.program(),
                UncorrelatedCorrelates.PROGRAM, DECORRELATE, joinOrder(), TRIM, simplify(), constantJoinKeys(),
                EagerAggregates.PROGRAM,
                DISTINCT_SEMI_JOINS,
                // again: an input pruned as empty leaves NULLs in the projections above it, such as
                // CAST(NULL AS DOUBLE) / 5.0E0 under a RIGHT JOIN of an empty join, which Calcite's collation
                // metadata took for a literal (XX000 "not a literal", fuzzer seed 64 query 664)
                NullCalls.PROGRAM,
                FullJoins.PROGRAM, OneRowJoins.PROGRAM, SmallSideExpressions.PROGRAM,
                CHOOSE, ProjectionsIntoFerry.PROGRAM, Programs.calc(DefaultRelMetadataProvider.INSTANCE),
                RowEngineAverages.PROGRAM, RoundingCasts.PROGRAM, RowEngineExtracts.PROGRAM,
                RowEngineDoubleOrder.PROGRAM, NullableCasts.PROGRAM, CancelChecks.PROGRAM, CheckedSums.PROGRAM,
                SignedZeros.PROGRAM,
                GrandTotals.PROGRAM)
                .map(PlanningCancel::checked).toArray(Program[]::new));
    }

    /**
     * {@link #SIMPLIFY} until the plan stops changing. One pass of Calcite's heuristic planner is not a fixpoint: a
     * rule that rewrites a node in place (constant reduction turning {@code CASE WHEN x IS NULL THEN 0 ELSE x END > 0}
     * into {@code x > 0}) does not make it look at the node's parent again, and the filter above a LEFT join then
     * never turned it into an inner join (TPC-DS q41 ran its joins in the row engine). Within a pass, each rule
     * runs to its own fixpoint in turn, but the rules that push filters down ({@link #PUSHING_FILTERS}) run
     * together: one after the other, a filter crossed one kind of node per pass, and six TPC-DS statements (q4, q11,
     * q39a, q39b, q41, q74) still changed after the last pass; q74 then aggregated two years of sales where it
     * needed one, and q4 and q11 grouped by a constant year. Together, every statement settles within the passes,
     * in the same planning time.
     */
    private static Program simplify() {
        HepProgramBuilder program = new HepProgramBuilder()
                .addMatchLimit(MAX_PUSHES)
                .addRuleCollection(PUSHING_FILTERS)
                .addMatchLimit(Integer.MAX_VALUE);
        SIMPLIFY.stream().filter(r -> !PUSHING_FILTERS.contains(r)).forEach(program::addRuleInstance);
        Program pass = Programs.of(program.build(), false, PlannerMetadata.PROVIDER);
        return (planner, rel, traits, materializations, lattices) -> {
            RelNode current = rel;
            for (int i = 0; i < MAX_SIMPLIFY_PASSES; i++) {
                RelNode next = pass.run(planner, current, traits, materializations, lattices);
                if (next.deepEquals(current)) {
                    return next;
                }
                current = next;
            }
            return current;
        };
    }

    private static final int MAX_SIMPLIFY_PASSES = 4;

    /**
     * {@link ConstantJoinKeysRule} once over the simplified plan, each join after its inputs; where it added filters,
     * {@link #simplify()} again to push them down. Not among the simplification's rules: a filter it pushed below a
     * node whose predicates do not show it (a computed key under a projection) would be added again and again.
     */
    private static Program constantJoinKeys() {
        Program once = Programs.of(new HepProgramBuilder().addMatchOrder(HepMatchOrder.BOTTOM_UP)
                .addMatchLimit(MAX_PUSHES).addRuleInstance(ConstantJoinKeysRule.INSTANCE).build(), false,
                PlannerMetadata.PROVIDER);
        Program simplify = simplify();
        return (planner, rel, traits, materializations, lattices) -> {
            if (RelOptUtil.countJoins(rel) == 0) {
                return rel;
            }
            RelNode keyed = once.run(planner, rel, traits, materializations, lattices);
            return keyed.deepEquals(rel) ? rel : simplify.run(planner, keyed, traits, materializations, lattices);
        };
    }

    private static final List<RelOptRule> PUSHING_FILTERS = List.of(CoreRules.FILTER_MERGE,
            CoreRules.FILTER_PROJECT_TRANSPOSE, CoreRules.FILTER_INTO_JOIN, CoreRules.JOIN_CONDITION_PUSH,
            GroupingSetsFilterTransposeRule.INSTANCE, CoreRules.FILTER_SET_OP_TRANSPOSE);

    /** A bound on the filters pushed in one pass, should two of those rules ever undo each other. */
    private static final int MAX_PUSHES = 10_000;

    /** Ferry's rules in a new cost-based planner, and Calcite's that {@link #create()} runs elsewhere out. */
    static void configure(RelOptPlanner planner) {
        // Converting SQL to relational algebra already folds casts of literals, with this executor
        planner.setExecutor(new FerryRexExecutor(planner.getExecutor()));
        FerryRules.register(planner);
        // Calcite's rewrite of BERNOULLI samples into a RAND() filter: Ferry samples in the scan, deterministically
        // per block and row
        planner.removeRule(CoreRules.SAMPLE_TO_FILTER);
        // EXTRACT(YEAR FROM x) = n as a range of x: its plans were never the ones chosen (the costs are alike), and
        // a year beyond a Calendar's failed the statement with XX000 "Invalid range" (fuzzer, seed 45 query 3500)
        planner.removeRule(DateRangeRules.FILTER_INSTANCE);
        // Calcite's pruning of an aggregate over an empty input drops a grand-total grouping set's row
        planner.removeRule(PruneEmptyRules.AGGREGATE_INSTANCE);
        planner.addRule(PRUNE_EMPTY_AGGREGATE);
        NOT_COST_BASED.forEach(planner::removeRule);
        // Calcite's sorts pushed through a CAST, less those that lost the order of later keys
        planner.addRule(SortBelowProjectRule.INSTANCE);
        planner.getRules().stream().filter(r -> r.toString().startsWith("MaterializedView")
                || r.toString().startsWith("Delta")).toList().forEach(planner::removeRule);
        planner.removeRule(EnumerableRules.ENUMERABLE_TABLE_MODIFICATION_RULE);
        // EnumerableValues trips over DECIMAL literals in nullable DOUBLE columns; Ferry's VALUES converts them.
        planner.removeRule(EnumerableRules.ENUMERABLE_VALUES_RULE);
        // A sort with a LIMIT over a UNION became a merge of sorted inputs in the row engine, each input cut to the
        // LIMIT even under a distinct UNION, whose duplicates then left too few rows. Ferry sorts the union instead.
        planner.removeRule(EnumerableRules.ENUMERABLE_MERGE_UNION_RULE);
        // The row engine cannot run Ferry's generators (GENERATE_SERIES): its scan of one, priced at one row, was
        // chosen under an INSERT ... SELECT and failed to compile (XX000)
        planner.removeRule(EnumerableRules.ENUMERABLE_TABLE_FUNCTION_SCAN_RULE);
    }

    /**
     * Calcite's standard program keeps joins in FROM-clause order (its heuristic join ordering starts at six
     * joins), which turns a star join listed dimension-first into cross products. Ferry orders every multi-way
     * inner join by estimated cardinality.
     */
    private static Program joinOrder() {
        // one heuristic planner for the three steps: one graph of the plan built, not three
        HepProgram steps = new HepProgramBuilder()
                // gathered into multi-way joins
                .addRuleInstance(CoreRules.FILTER_INTO_JOIN)
                .addMatchOrder(HepMatchOrder.BOTTOM_UP)
                .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
                // Ferry's ordering of inner joins; Calcite's for those with outer joins: an outer multi-way join
                // before the ones among its factors, which JoinOrderRule may splice in
                .addMatchOrder(HepMatchOrder.TOP_DOWN)
                .addRuleInstance(JoinOrderRule.INSTANCE)
                .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
                // Ordering may swap an outer join's inputs into a RIGHT join, which Calcite's nested-loop join gets
                // wrong without an equality: those become LEFT joins again
                .addMatchOrder(HepMatchOrder.DEPTH_FIRST)
                .addRuleInstance(NonEquiOuterJoinRule.INSTANCE)
                .build();
        // join order from estimates that know distinct counts (JoinSelectivity)
        Program ordering = Programs.of(steps, false, JoinSelectivity.PROVIDER);
        return (planner, rel, traits, materializations, lattices) -> RelOptUtil.countJoins(rel) < 2 ? rel
                : ordering.run(planner, rel, traits, materializations, lattices);
    }
}
