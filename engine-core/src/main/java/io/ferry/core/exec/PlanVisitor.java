package io.ferry.core.exec;

/**
 * A walk over plan nodes by kind ({@link PlanNode#accept}): one method per kind, so that a new kind of node fails to
 * compile in every walk that has not said what to do with it — which a chain of {@code instanceof} tests would let
 * fall through to its last branch (Java 17 has no pattern {@code switch} over the sealed {@link PlanNode}).
 *
 * @param <R> what the walk makes of a node
 */
public interface PlanVisitor<R> {
    R scan(PlanNode.Scan scan);

    R filter(PlanNode.Filter filter);

    R project(PlanNode.Project project);

    R aggregate(PlanNode.Aggregate aggregate);

    R join(PlanNode.Join join);

    R sort(PlanNode.Sort sort);

    R window(PlanNode.Window window);

    R partialAggregate(PlanNode.PartialAggregate partial);

    R mergeAggregate(PlanNode.MergeAggregate merge);

    R gather(PlanNode.Gather gather);

    R values(PlanNode.Values values);

    R generate(PlanNode.Generate generate);

    R union(PlanNode.Union union);

    R replicate(PlanNode.Replicate replicate);

    /** A walk that treats every kind it does not override alike ({@link #otherwise}). */
    abstract class Partial<R> implements PlanVisitor<R> {
        /** What the walk makes of a node whose kind it does not handle. */
        protected abstract R otherwise(PlanNode node);

        @Override
        public R scan(PlanNode.Scan scan) {
            return otherwise(scan);
        }

        @Override
        public R filter(PlanNode.Filter filter) {
            return otherwise(filter);
        }

        @Override
        public R project(PlanNode.Project project) {
            return otherwise(project);
        }

        @Override
        public R aggregate(PlanNode.Aggregate aggregate) {
            return otherwise(aggregate);
        }

        @Override
        public R join(PlanNode.Join join) {
            return otherwise(join);
        }

        @Override
        public R sort(PlanNode.Sort sort) {
            return otherwise(sort);
        }

        @Override
        public R window(PlanNode.Window window) {
            return otherwise(window);
        }

        @Override
        public R partialAggregate(PlanNode.PartialAggregate partial) {
            return otherwise(partial);
        }

        @Override
        public R mergeAggregate(PlanNode.MergeAggregate merge) {
            return otherwise(merge);
        }

        @Override
        public R gather(PlanNode.Gather gather) {
            return otherwise(gather);
        }

        @Override
        public R values(PlanNode.Values values) {
            return otherwise(values);
        }

        @Override
        public R generate(PlanNode.Generate generate) {
            return otherwise(generate);
        }

        @Override
        public R union(PlanNode.Union union) {
            return otherwise(union);
        }

        @Override
        public R replicate(PlanNode.Replicate replicate) {
            return otherwise(replicate);
        }
    }
}
