package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.Program;
import org.apache.calcite.util.ImmutableBitSet;

import io.ferry.sql.rel.JoinSelectivity;

/**
 * Expressions of a projection over a join that read one side only are computed on that side, where it has fewer
 * rows than the join: {@code SUM(CASE WHEN d_day_name = 'Sunday' THEN ss_sales_price END)} over sales joined with
 * one year of dates compared 576,000 joined day names with 'Sunday' (and six more days) in TPC-DS q43; below the
 * join, 363 dates are compared and the join carries the answers (q2, q43 and q59 compare day names so). Only the
 * largest parts of an expression that read one side move ({@code d_day_name = 'Sunday'}, not the CASE that also
 * reads the price), only deterministic ones, and only into a side whose rows the join keeps as they are (not the
 * side an outer join pads with NULLs, where the expression of a padded NULL may differ from NULL). The row counts
 * are the estimates join ordering used ({@link JoinSelectivity}).
 */
public final class SmallSideExpressions {
    /** Off ({@code -Dferry.small-side-expressions=off}): expressions stay where the SQL put them, to compare. */
    private static final boolean ON = !"off".equals(System.getProperty("ferry.small-side-expressions"));

    public static final Program PROGRAM = (planner, rel, traits, materializations, lattices) -> ON ? rewrite(rel,
            JoinSelectivity.query()) : rel;

    /** The share of a join's rows that a side may have at most for an expression to move into it. */
    private static final double FEWER = 0.8;

    private SmallSideExpressions() {
    }

    /** {@code node} with expressions moved below joins, from the root down (a moved one may move again). */
    static RelNode rewrite(RelNode node, RelMetadataQuery mq) {
        RelNode n = node instanceof Project p && p.getInput() instanceof Join j ? pushed(p, j, mq) : node;
        List<RelNode> inputs = n.getInputs();
        List<RelNode> rewritten = new ArrayList<>(inputs.size());
        boolean changed = false;
        for (RelNode input : inputs) {
            RelNode r = rewrite(input, mq);
            rewritten.add(r);
            changed |= r != input;
        }
        return changed ? n.copy(n.getTraitSet(), rewritten) : n;
    }

    private static RelNode pushed(Project project, Join join, RelMetadataQuery mq) {
        JoinRelType type = join.getJoinType();
        Mover mover = new Mover(join, mq, join.getLeft().getRowType().getFieldCount(),
                !type.generatesNullsOnLeft(), type.projectsRight() && !type.generatesNullsOnRight());
        if (!mover.intoLeft() && !mover.intoRight()) {
            return project;
        }
        List<RexNode> left = new ArrayList<>();
        List<RexNode> right = new ArrayList<>();
        // first the parts that move, to know the join's new width; then the projection over it
        RexShuttle collect = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                int side = mover.side(call);
                if (side < 0) {
                    return super.visitCall(call);
                }
                List<RexNode> moved = side == 0 ? left : right;
                if (!moved.contains(call)) {
                    moved.add(call);
                }
                return call;
            }
        };
        project.getProjects().forEach(e -> e.accept(collect));
        if (left.isEmpty() && right.isEmpty()) {
            return project;
        }
        int leftWidth = mover.leftWidth();
        RexBuilder rex = join.getCluster().getRexBuilder();
        Widened newLeft = widened(join.getLeft(), left, 0, rex);
        Widened newRight = widened(join.getRight(), right, -leftWidth, rex);
        int addedLeft = newLeft.rel().getRowType().getFieldCount() - leftWidth;
        RexShuttle reread = new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return ref.getIndex() < leftWidth ? ref : new RexInputRef(ref.getIndex() + addedLeft, ref.getType());
            }

            @Override
            public RexNode visitCall(RexCall call) {
                int side = mover.side(call);
                if (side == 0) {
                    return new RexInputRef(newLeft.columns()[left.indexOf(call)], call.getType());
                }
                if (side == 1) {
                    return new RexInputRef(leftWidth + addedLeft + newRight.columns()[right.indexOf(call)],
                            call.getType());
                }
                return super.visitCall(call);
            }
        };
        RexNode condition = RexUtil.shift(join.getCondition(), leftWidth, addedLeft);
        Join newJoin = join.copy(join.getTraitSet(), condition, newLeft.rel(), newRight.rel(), type,
                join.isSemiJoinDone());
        List<RexNode> projects = new ArrayList<>();
        for (RexNode e : project.getProjects()) {
            projects.add(e.accept(reread));
        }
        return LogicalProject.create(newJoin, project.getHints(), projects, project.getRowType());
    }

    /** Where the parts of a projection over {@code join} go. */
    private record Mover(Join join, RelMetadataQuery mq, int leftWidth, boolean intoLeft, boolean intoRight) {
        /**
         * 0 if {@code call} moves into the left side, 1 into the right, -1 if it stays: it reads columns of that
         * side alone, computes the same for the same row, holds no window, and meets fewer rows there than the
         * join has, or moves on to fewer below.
         */
        int side(RexCall call) {
            ImmutableBitSet read = RelOptUtil.InputFinder.bits(call);
            if (read.isEmpty() || !RexUtil.isDeterministic(call) || RexOver.containsOver(call)
                    || RexUtil.containsCorrelation(call)) {
                return -1;
            }
            Double joined = mq.getRowCount(join);
            if (intoLeft && read.nextSetBit(leftWidth) < 0 && fewer(join.getLeft(), read, joined)) {
                return 0;
            }
            return intoRight && read.nextSetBit(0) >= leftWidth
                    && fewer(join.getRight(), read.shift(-leftWidth), joined) ? 1 : -1;
        }

        /**
         * Whether an expression of {@code side}'s columns {@code read} is computed on fewer rows there than above
         * it ({@code above} rows): the side has a fifth fewer, or the expression would move on into a side of an
         * inner join below (through projections of plain columns) that has. The join of sales and dates that q43's
         * stores join keeps every row; its dates are 363 of them.
         */
        private boolean fewer(RelNode side, ImmutableBitSet read, Double above) {
            Double rows = mq.getRowCount(side);
            if (rows == null || above == null) {
                return false;
            }
            if (rows <= FEWER * above) {
                return true;
            }
            if (side instanceof Project p) {
                ImmutableBitSet.Builder below = ImmutableBitSet.builder();
                for (int i : read) {
                    if (!(p.getProjects().get(i) instanceof RexInputRef ref)) {
                        return false;
                    }
                    below.set(ref.getIndex());
                }
                return fewer(p.getInput(), below.build(), rows);
            }
            if (side instanceof Join j && j.getJoinType() == JoinRelType.INNER) {
                int width = j.getLeft().getRowType().getFieldCount();
                return read.nextSetBit(width) < 0 ? fewer(j.getLeft(), read, rows)
                        : read.nextSetBit(0) >= width && fewer(j.getRight(), read.shift(-width), rows);
            }
            return false;
        }
    }

    /** A side with the expressions moved into it, and the column each is. */
    private record Widened(RelNode rel, int[] columns) {
    }

    /**
     * {@code input} with {@code moved} (read with column indexes {@code offset} away) as columns after its own; a
     * projection extended rather than projected again, and a column it already computes read, not computed twice.
     */
    private static Widened widened(RelNode input, List<RexNode> moved, int offset, RexBuilder rex) {
        int[] at = new int[moved.size()];
        if (moved.isEmpty()) {
            return new Widened(input, at);
        }
        Project below = input instanceof Project p ? p : null;
        List<RexNode> columns = new ArrayList<>(below != null ? below.getProjects()
                : rex.identityProjects(input.getRowType()));
        List<String> names = new ArrayList<>(input.getRowType().getFieldNames());
        for (int i = 0; i < at.length; i++) {
            RexNode shifted = RexUtil.shift(moved.get(i), offset);
            RexNode column = below != null ? RelOptUtil.pushPastProject(shifted, below) : shifted;
            at[i] = columns.indexOf(column);
            if (at[i] < 0) {
                at[i] = columns.size();
                columns.add(column);
                names.add(null);
            }
        }
        return new Widened(columns.size() == input.getRowType().getFieldCount() ? input : LogicalProject.create(below != null ? below.getInput() : input, List.of(), columns, names,
                Set.of()), at);
    }
}
