package io.ferry.core.exec;

import io.ferry.core.expr.InputRef;

/**
 * The part of a plan that can stream one table's blocks wherever they are (DESIGN.md, "The life of a query"): a
 * scan under filters, projections and the probe sides of joins, whose build sides are read whole. The distributed
 * plan ({@code io.ferry.sql.distributed.Fragments}) cuts fragments along it; sampling checks which scan it streams;
 * both ask here where a column of it comes from.
 */
public final class Spine {
    private Spine() {
    }

    /** A scan and the table column of it that a plan's output column passes through unchanged from. */
    public record Origin(PlanNode.Scan scan, int column) {
    }

    /** Whether {@code node} is a spine: a scan under filters, projections and join probes only. */
    public static boolean is(PlanNode node) {
        return node.accept(new PlanVisitor.Partial<Boolean>() {
            @Override
            protected Boolean otherwise(PlanNode other) {
                return false;
            }

            @Override
            public Boolean scan(PlanNode.Scan scan) {
                return true;
            }

            @Override
            public Boolean filter(PlanNode.Filter filter) {
                return filter.input().accept(this);
            }

            @Override
            public Boolean project(PlanNode.Project project) {
                return project.input().accept(this);
            }

            @Override
            public Boolean join(PlanNode.Join join) {
                // the probe side is divided among nodes, the build side read whole by each: right for every join kind
                return join.left().accept(this);
            }
        });
    }

    /** The scan at the bottom of a fragment's spine (under its partial aggregate, if any): the one it divides. */
    public static PlanNode.Scan scan(PlanNode fragment) {
        return fragment.accept(new PlanVisitor.Partial<PlanNode.Scan>() {
            @Override
            protected PlanNode.Scan otherwise(PlanNode node) {
                throw new IllegalArgumentException("not a fragment: " + fragment.getClass().getSimpleName());
            }

            @Override
            public PlanNode.Scan scan(PlanNode.Scan scan) {
                return scan;
            }

            @Override
            public PlanNode.Scan partialAggregate(PlanNode.PartialAggregate partial) {
                return partial.aggregate().input().accept(this);
            }

            @Override
            public PlanNode.Scan aggregate(PlanNode.Aggregate aggregate) {
                return aggregate.input().accept(this);
            }

            @Override
            public PlanNode.Scan filter(PlanNode.Filter filter) {
                return filter.input().accept(this);
            }

            @Override
            public PlanNode.Scan project(PlanNode.Project project) {
                return project.input().accept(this);
            }

            @Override
            public PlanNode.Scan join(PlanNode.Join join) {
                return join.left().accept(this);
            }
        });
    }

    /**
     * Where output column {@code column} of {@code node} comes from unchanged — through filters, sorts, plain column
     * references, group keys and either side of a join — or null for a computed column.
     */
    public static Origin origin(PlanNode node, int column) {
        return node.accept(new PlanVisitor.Partial<Origin>() {
            @Override
            protected Origin otherwise(PlanNode other) {
                return null;
            }

            @Override
            public Origin scan(PlanNode.Scan s) {
                return new Origin(s, s.columns()[column]);
            }

            @Override
            public Origin filter(PlanNode.Filter f) {
                return origin(f.input(), column);
            }

            @Override
            public Origin sort(PlanNode.Sort s) {
                return origin(s.input(), column);
            }

            @Override
            public Origin window(PlanNode.Window w) {
                return column < w.input().types().size() ? origin(w.input(), column) : null;
            }

            @Override
            public Origin replicate(PlanNode.Replicate r) {
                return origin(r.input(), column);
            }

            @Override
            public Origin project(PlanNode.Project p) {
                return p.exprs().get(column) instanceof InputRef ref ? origin(p.input(), ref.index()) : null;
            }

            @Override
            public Origin aggregate(PlanNode.Aggregate a) {
                // a key of grouping sets is NULL in the rows of the sets without it: no input column's values
                return column < a.groupKeys().length && !a.grouped() ? origin(a.input(), a.groupKeys()[column])
                        : null;
            }

            @Override
            public Origin join(PlanNode.Join j) {
                int left = j.left().types().size();
                return column < left ? origin(j.left(), column) : origin(j.right(), column - left);
            }
        });
    }
}
