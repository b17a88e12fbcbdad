package io.ferry.sql.distributed;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.PlanVisitor;
import io.ferry.core.exec.SampleSpec;
import io.ferry.core.exec.Spine;

/**
 * Where a plan crosses the network (DESIGN.md, "The life of a query"): a table spread over several nodes is read by
 * a fragment that runs wherever its blocks are, and the fragment's rows are gathered at the coordinator. The
 * fragment is the plan's {@link Spine} above one scan — filters, projections and the probe sides of joins, whose
 * build sides are read whole — topped by the partial half of an aggregate when one sits on it; the final half
 * merges the gathered partial states (ship-or-not section II: "a final aggregation to combine the results from all
 * workers is then performed at the coordinator"). A union is split input by input, so each input's rows arrive once
 * from its own fragments; an aggregate over a union takes its partial half into each input's fragment. How a
 * fragment's joins then run on the cluster — gathered, pipelined or shuffled — is {@link ExecutionChoice}'s.
 */
public final class Fragments {
    private Fragments() {
    }

    /** The plan with a {@link PlanNode.Gather} at every point where a fragment can run on the data's nodes. */
    public static PlanNode split(PlanNode plan) {
        if (Spine.is(plan)) {
            return new PlanNode.Gather(plan);
        }
        return plan.accept(new PlanVisitor.Partial<PlanNode>() {
            @Override
            protected PlanNode otherwise(PlanNode node) {
                return node;
            }

            @Override
            public PlanNode aggregate(PlanNode.Aggregate agg) {
                if (Spine.is(agg.input())) {
                    return new PlanNode.MergeAggregate(agg, new PlanNode.Gather(new PlanNode.PartialAggregate(agg)));
                }
                if (agg.input() instanceof PlanNode.Union union && union.inputs().stream().anyMatch(Spine::is)) {
                    return new PlanNode.MergeAggregate(agg, partialsOfEach(agg, union));
                }
                return agg.over(split(agg.input()), agg.groupKeys(), agg.calls());
            }

            @Override
            public PlanNode union(PlanNode.Union union) {
                List<PlanNode> inputs = new ArrayList<>(union.inputs().size());
                for (PlanNode input : union.inputs()) {
                    inputs.add(split(input));
                }
                return new PlanNode.Union(inputs, union.types());
            }

            @Override
            public PlanNode replicate(PlanNode.Replicate replicate) {
                return new PlanNode.Replicate(split(replicate.input()), replicate.countColumn());
            }

            @Override
            public PlanNode sort(PlanNode.Sort sort) {
                return new PlanNode.Sort(split(sort.input()), sort.keys(), sort.offset(), sort.fetch());
            }

            @Override
            public PlanNode window(PlanNode.Window window) {
                // a partition's rows may be on every node: the window runs here, on the gathered rows
                return window.over(split(window.input()));
            }

            @Override
            public PlanNode filter(PlanNode.Filter filter) {
                return new PlanNode.Filter(split(filter.input()), filter.condition());
            }

            @Override
            public PlanNode project(PlanNode.Project project) {
                return new PlanNode.Project(split(project.input()), project.exprs());
            }

            @Override
            public PlanNode join(PlanNode.Join join) {
                return join.over(split(join.left()), join.right(), join.residual());
            }
        });
    }

    /**
     * An aggregate over a union as the union of the aggregate's partial halves over each input, for the final half
     * to merge: every input that streams a divided table is aggregated partially where its blocks are (a UNION's
     * DISTINCT, INTERSECT's and EXCEPT's counts included), so only its groups cross the network; another input is
     * aggregated partially here. The inputs produce the union's types, so every partial half has the same states.
     */
    private static PlanNode partialsOfEach(PlanNode.Aggregate agg, PlanNode.Union union) {
        List<PlanNode> partials = new ArrayList<>(union.inputs().size());
        for (PlanNode input : union.inputs()) {
            boolean divided = Spine.is(input);
            PlanNode.PartialAggregate partial = new PlanNode.PartialAggregate(
                    agg.over(divided ? input : split(input), agg.groupKeys(), agg.calls()));
            partials.add(divided ? new PlanNode.Gather(partial) : partial);
        }
        return new PlanNode.Union(partials, partials.get(0).types());
    }

    /**
     * The fragment with every sample's seed drawn now and fixed, so all nodes that run a part of it, and the
     * coordinator choosing which blocks SYSTEM sampling reads, agree on one sample.
     */
    public static PlanNode fixSamples(PlanNode node) {
        return node.accept(new PlanVisitor<PlanNode>() {
            @Override
            public PlanNode scan(PlanNode.Scan s) {
                return s.sample() == null || s.sample().repeatable() ? s
                        : new PlanNode.Scan(s.table(), s.columns(), fixed(s.sample()), s.zones());
            }

            @Override
            public PlanNode filter(PlanNode.Filter f) {
                return new PlanNode.Filter(fixSamples(f.input()), f.condition());
            }

            @Override
            public PlanNode project(PlanNode.Project p) {
                return new PlanNode.Project(fixSamples(p.input()), p.exprs());
            }

            @Override
            public PlanNode aggregate(PlanNode.Aggregate a) {
                return a.over(fixSamples(a.input()), a.groupKeys(), a.calls());
            }

            @Override
            public PlanNode join(PlanNode.Join j) {
                return j.over(fixSamples(j.left()), fixSamples(j.right()), j.residual());
            }

            @Override
            public PlanNode sort(PlanNode.Sort s) {
                return new PlanNode.Sort(fixSamples(s.input()), s.keys(), s.offset(), s.fetch());
            }

            @Override
            public PlanNode window(PlanNode.Window w) {
                return w.over(fixSamples(w.input()));
            }

            @Override
            public PlanNode partialAggregate(PlanNode.PartialAggregate p) {
                return new PlanNode.PartialAggregate((PlanNode.Aggregate) fixSamples(p.aggregate()));
            }

            @Override
            public PlanNode mergeAggregate(PlanNode.MergeAggregate m) {
                return new PlanNode.MergeAggregate(m.aggregate(), fixSamples(m.partials()));
            }

            @Override
            public PlanNode gather(PlanNode.Gather g) {
                return new PlanNode.Gather(fixSamples(g.fragment()));
            }

            @Override
            public PlanNode values(PlanNode.Values v) {
                return v;
            }

            @Override
            public PlanNode generate(PlanNode.Generate g) {
                return g;
            }

            @Override
            public PlanNode union(PlanNode.Union u) {
                List<PlanNode> inputs = new ArrayList<>(u.inputs().size());
                for (PlanNode input : u.inputs()) {
                    inputs.add(fixSamples(input));
                }
                return new PlanNode.Union(inputs, u.types());
            }

            @Override
            public PlanNode replicate(PlanNode.Replicate r) {
                return new PlanNode.Replicate(fixSamples(r.input()), r.countColumn());
            }
        });
    }

    private static SampleSpec fixed(SampleSpec s) {
        SampleSpec drawn = s.forExecution();
        return new SampleSpec(drawn.method(), drawn.percent(), drawn.seed(), true);
    }

    /** Group keys of the aggregate a fragment computes partially, or null if it computes none. */
    public static int[] partialGroupKeys(PlanNode fragment) {
        return fragment instanceof PlanNode.PartialAggregate p ? p.aggregate().groupKeys() : null;
    }

    /** The input of the aggregate a fragment computes partially. */
    public static PlanNode partialInput(PlanNode fragment) {
        return ((PlanNode.PartialAggregate) fragment).aggregate().input();
    }
}
