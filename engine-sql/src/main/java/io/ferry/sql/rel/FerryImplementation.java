package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexInputRef;

/**
 * A logical plan implemented in Ferry's operators node by node, inputs first, with no search: each node by the one
 * rule of {@link FerryRules} for its kind. Where Ferry runs a whole plan ({@link FerryRules#runsEntirely}), each
 * node has one implementation, and Calcite's cost-based planner only found it again at a price: registering every
 * node and its implementation in the planner's equivalence sets and costing them took 3.3–4.1 ms of the 10–15 ms a
 * TPC-DS statement took to plan, the largest phase; 1.6–2.2 ms with the rewrites before it, this, and what remains
 * of the phase (29 November 2026, 103 statements, one JVM, six passes). The few rewrites that were choices there,
 * each always taken in the plans it chose for Ferry, run before in a heuristic pass (PlanningProgram's CHOICES).
 */
public final class FerryImplementation {
    /** The rules that implement a logical node in Ferry's convention. */
    private static final List<ConverterRule> RULES = FerryRules.RULES.stream()
            .filter(r -> r instanceof ConverterRule c && c.getOutConvention() == FerryRel.CONVENTION)
            .map(ConverterRule.class::cast).toList();

    private final Map<RelNode, RelNode> done = new IdentityHashMap<>();

    private FerryImplementation() {
    }

    /**
     * {@code logical} in Ferry's operators, with {@code traits} (Ferry's convention and the statement's order), or
     * null where a node has no Ferry implementation or the result lacks the traits.
     */
    public static RelNode of(RelNode logical, RelTraitSet traits) {
        RelNode plan = new FerryImplementation().implement(logical);
        if (plan == null || plan.getTraitSet().satisfies(traits)) {
            return plan;
        }
        return ordered(plan, traits);
    }

    /**
     * {@code plan} with {@code traits} if its rows come in their order, but for keys that are constants: the
     * statement's ORDER BY still names a column that pruning made a constant (TPC-DS q14a's {@code channel}, q42's
     * {@code d_year}), and a projection over a sort does not carry the order in its traits. Null if they do not.
     */
    private static RelNode ordered(RelNode plan, RelTraitSet traits) {
        RelCollation wanted = traits.getCollation();
        if (wanted == null || !plan.getTraitSet().replace(wanted).satisfies(traits)) {
            return null;
        }
        RelMetadataQuery mq = plan.getCluster().getMetadataQuery();
        Set<Integer> constants = new HashSet<>();
        mq.getPulledUpPredicates(plan).constantMap.keySet().forEach(e -> {
            if (e instanceof RexInputRef ref) {
                constants.add(ref.getIndex());
            }
        });
        RelCollation needed = RelCollations.of(wanted.getFieldCollations().stream()
                .filter(k -> !constants.contains(k.getFieldIndex())).toList());
        List<RelCollation> orders = mq.collations(plan);
        boolean sorted = needed.getFieldCollations().isEmpty()
                || orders != null && orders.stream().anyMatch(c -> c.satisfies(needed));
        return sorted ? plan.copy(plan.getTraitSet().replace(wanted), plan.getInputs()) : null;
    }

    private RelNode implement(RelNode rel) {
        // a subplan the plan uses twice (a CTE read by two branches) stays one node, as Calcite's planner keeps it
        RelNode known = done.get(rel);
        if (known != null) {
            return known;
        }
        List<RelNode> inputs = new ArrayList<>(rel.getInputs().size());
        for (RelNode input : rel.getInputs()) {
            RelNode implemented = implement(input);
            if (implemented == null) {
                return null;
            }
            inputs.add(implemented);
        }
        RelNode withInputs = inputs.equals(rel.getInputs()) ? rel : rel.copy(rel.getTraitSet(), inputs);
        RelNode out = withInputs instanceof FerryRel ? withInputs : convert(withInputs);
        if (out == null) {
            return null;
        }
        // one order of each kind, as Calcite's planner keeps for its sets: the rules cannot convert an input with
        // several (VALUES, sorted by each of its columns) to their convention
        if (!out.getTraitSet().allSimple()) {
            out = out.copy(out.getTraitSet().simplify(), out.getInputs());
        }
        done.put(rel, out);
        return out;
    }

    /**
     * {@code rel}, whose inputs are Ferry's, by the rule for its kind; null if none implements it. The rules convert
     * their inputs to Ferry's convention, which Ferry's inputs already have: no planner is asked for a conversion.
     */
    private static RelNode convert(RelNode rel) {
        for (ConverterRule rule : RULES) {
            if (rule.getOperand().matches(rel)) {
                RelNode out = rule.convert(rel);
                if (out != null) {
                    return out;
                }
            }
        }
        return null;
    }
}
