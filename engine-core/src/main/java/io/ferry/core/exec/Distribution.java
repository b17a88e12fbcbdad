package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a plan crosses the network (DESIGN.md, "The life of a query"): a table spread over several nodes is read by
 * a fragment that runs wherever its blocks are, and the fragment's rows are gathered at the coordinator. The
 * fragment is the plan's <em>spine</em> above one scan — filters, projections and the probe sides of joins, whose
 * build sides are read whole — topped by the partial half of an aggregate when one sits on it; the final half
 * merges the gathered partial states (ship-or-not section II: "a final aggregation to combine the results from all
 * workers is then performed at the coordinator"). The spine's scan is the one whose blocks are divided among nodes;
 * every other scan reads its whole table. A union is split input by input, so each input's rows arrive once from
 * its own fragments; an aggregate over a union takes its partial half into each input's fragment.
 */
public final class Distribution {
    private Distribution() {
    }

    /** The plan with a {@link PlanNode.Gather} at every point where a fragment can run on the data's nodes. */
    public static PlanNode split(PlanNode node) {
        if (node instanceof PlanNode.Aggregate agg && streamable(agg.input())) {
            return new PlanNode.MergeAggregate(agg, new PlanNode.Gather(new PlanNode.PartialAggregate(agg)));
        }
        if (node instanceof PlanNode.Aggregate agg && agg.input() instanceof PlanNode.Union union
                && union.inputs().stream().anyMatch(Distribution::streamable)) {
            return new PlanNode.MergeAggregate(agg, partialsOfEach(agg, union));
        }
        if (streamable(node)) {
            return new PlanNode.Gather(node);
        }
        if (node instanceof PlanNode.Union union) {
            List<PlanNode> inputs = new ArrayList<>(union.inputs().size());
            for (PlanNode input : union.inputs()) {
                inputs.add(split(input));
            }
            return new PlanNode.Union(inputs, union.types());
        }
        if (node instanceof PlanNode.Replicate replicate) {
            return new PlanNode.Replicate(split(replicate.input()), replicate.countColumn());
        }
        if (node instanceof PlanNode.Aggregate agg) {
            return agg.over(split(agg.input()), agg.groupKeys(), agg.calls());
        }
        if (node instanceof PlanNode.Sort sort) {
            return new PlanNode.Sort(split(sort.input()), sort.keys(), sort.offset(), sort.fetch());
        }
        if (node instanceof PlanNode.Window window) {
            // a partition's rows may be on every node: the window runs here, on the gathered rows
            return window.over(split(window.input()));
        }
        if (node instanceof PlanNode.Filter filter) {
            return new PlanNode.Filter(split(filter.input()), filter.condition());
        }
        if (node instanceof PlanNode.Project project) {
            return new PlanNode.Project(split(project.input()), project.exprs());
        }
        if (node instanceof PlanNode.Join join) {
            return join.over(split(join.left()), join.right(), join.residual());
        }
        return node;
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
            boolean divided = streamable(input);
            PlanNode.PartialAggregate partial = new PlanNode.PartialAggregate(
                    agg.over(divided ? input : split(input), agg.groupKeys(), agg.calls()));
            partials.add(divided ? new PlanNode.Gather(partial) : partial);
        }
        return new PlanNode.Union(partials, partials.get(0).types());
    }

    /** Whether {@code node} is a spine: a scan under filters, projections and join probes only. */
    static boolean streamable(PlanNode node) {
        if (node instanceof PlanNode.Scan) {
            return true;
        }
        if (node instanceof PlanNode.Filter filter) {
            return streamable(filter.input());
        }
        if (node instanceof PlanNode.Project project) {
            return streamable(project.input());
        }
        if (node instanceof PlanNode.Join join) {
            // The probe side is divided among nodes, the build side read whole by each: right for every join kind.
            return streamable(join.left());
        }
        return false;
    }

    /** The scan at the bottom of a fragment's spine: the one whose blocks are divided among nodes. */
    public static PlanNode.Scan partitionedScan(PlanNode fragment) {
        PlanNode n = fragment;
        while (true) {
            if (n instanceof PlanNode.Scan scan) {
                return scan;
            } else if (n instanceof PlanNode.PartialAggregate p) {
                n = p.aggregate().input();
            } else if (n instanceof PlanNode.Aggregate a) {
                n = a.input();
            } else if (n instanceof PlanNode.Filter f) {
                n = f.input();
            } else if (n instanceof PlanNode.Project p) {
                n = p.input();
            } else if (n instanceof PlanNode.Join j) {
                n = j.left();
            } else {
                throw new IllegalArgumentException("not a fragment: " + fragment.getClass().getSimpleName());
            }
        }
    }

    /**
     * The fragment with every sample's seed drawn now and fixed, so all nodes that run a part of it, and the
     * coordinator choosing which blocks SYSTEM sampling reads, agree on one sample.
     */
    public static PlanNode fixSamples(PlanNode node) {
        if (node instanceof PlanNode.Scan s) {
            return s.sample() == null || s.sample().repeatable() ? s
                    : new PlanNode.Scan(s.table(), s.columns(), fixed(s.sample()), s.zones());
        } else if (node instanceof PlanNode.Filter f) {
            return new PlanNode.Filter(fixSamples(f.input()), f.condition());
        } else if (node instanceof PlanNode.Project p) {
            return new PlanNode.Project(fixSamples(p.input()), p.exprs());
        } else if (node instanceof PlanNode.Aggregate a) {
            return a.over(fixSamples(a.input()), a.groupKeys(), a.calls());
        } else if (node instanceof PlanNode.PartialAggregate p) {
            return new PlanNode.PartialAggregate((PlanNode.Aggregate) fixSamples(p.aggregate()));
        } else if (node instanceof PlanNode.MergeAggregate m) {
            return new PlanNode.MergeAggregate(m.aggregate(), fixSamples(m.partials()));
        } else if (node instanceof PlanNode.Gather g) {
            return new PlanNode.Gather(fixSamples(g.fragment()));
        } else if (node instanceof PlanNode.Join j) {
            return j.over(fixSamples(j.left()), fixSamples(j.right()), j.residual());
        } else if (node instanceof PlanNode.Sort s) {
            return new PlanNode.Sort(fixSamples(s.input()), s.keys(), s.offset(), s.fetch());
        } else if (node instanceof PlanNode.Window w) {
            return w.over(fixSamples(w.input()));
        } else if (node instanceof PlanNode.Union u) {
            List<PlanNode> inputs = new ArrayList<>(u.inputs().size());
            for (PlanNode input : u.inputs()) {
                inputs.add(fixSamples(input));
            }
            return new PlanNode.Union(inputs, u.types());
        } else if (node instanceof PlanNode.Replicate r) {
            return new PlanNode.Replicate(fixSamples(r.input()), r.countColumn());
        }
        return node;
    }

    private static SampleSpec fixed(SampleSpec s) {
        SampleSpec drawn = s.forExecution();
        return new SampleSpec(drawn.method(), drawn.percent(), drawn.seed(), true);
    }

    /** A scan and the table column of it that a plan's output column passes through unchanged from. */
    public record Origin(PlanNode.Scan scan, int column) {
    }

    /**
     * Where output column {@code column} of {@code node} comes from unchanged — through filters, sorts, plain column
     * references, group keys and either side of a join — or null for a computed column.
     */
    public static Origin origin(PlanNode node, int column) {
        if (node instanceof PlanNode.Scan s) {
            return new Origin(s, s.columns()[column]);
        } else if (node instanceof PlanNode.Filter f) {
            return origin(f.input(), column);
        } else if (node instanceof PlanNode.Sort s) {
            return origin(s.input(), column);
        } else if (node instanceof PlanNode.Window w) {
            return column < w.input().types().size() ? origin(w.input(), column) : null;
        } else if (node instanceof PlanNode.Replicate r) {
            return origin(r.input(), column);
        } else if (node instanceof PlanNode.Project p) {
            return p.exprs().get(column) instanceof io.ferry.core.expr.InputRef ref ? origin(p.input(), ref.index())
                    : null;
        } else if (node instanceof PlanNode.Aggregate a) {
            // a key of grouping sets is NULL in the rows of the sets without it: no input column's values
            return column < a.groupKeys().length && !a.grouped() ? origin(a.input(), a.groupKeys()[column]) : null;
        } else if (node instanceof PlanNode.Join j) {
            int left = j.left().types().size();
            return column < left ? origin(j.left(), column) : origin(j.right(), column - left);
        }
        return null;
    }

    /** The column of the fragment's divided table that output column {@code column} of the spine passes through, or -1. */
    public static int sourceColumn(PlanNode spine, int column) {
        Origin o = origin(spine, column);
        return o != null && o.scan() == partitionedScan(spine) ? o.column() : -1;
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
