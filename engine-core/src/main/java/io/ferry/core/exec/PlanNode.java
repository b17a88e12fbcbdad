package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.expr.Expr;
import io.ferry.core.gen.RowGenerator;
import io.ferry.core.storage.TableHandle;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;

/**
 * A physical plan Ferry executes: the SQL layer's Ferry nodes translate into this tree, which knows nothing of
 * Calcite. Every node lists the types of the columns it produces.
 */
public sealed interface PlanNode {
    List<FerryType> types();

    /** The node's inputs, left before right (none for leaves). */
    default List<PlanNode> inputs() {
        return List.of();
    }

    /** Hands this node to the method of {@code visitor} for its kind. */
    <R> R accept(PlanVisitor<R> visitor);

    /**
     * Reads {@code columns} of {@code table}, optionally sampled, skipping the blocks {@code zones} shows hold no row
     * the filter above can pass.
     */
    record Scan(TableHandle table, int[] columns, SampleSpec sample, ZoneFilter zones) implements PlanNode {
        @Override
        public <R> R accept(PlanVisitor<R> visitor) {
            return visitor.scan(this);
        }

        public Scan {
            java.util.Objects.requireNonNull(zones, "zones is null");
        }

        /** A scan of every block. */
        public Scan(TableHandle table, int[] columns, SampleSpec sample) {
            this(table, columns, sample, ZoneFilter.NONE);
        }

        public Scan withZones(ZoneFilter next) {
            return new Scan(table, columns, sample, next);
        }

        @Override
        public List<FerryType> types() {
            List<FerryType> out = new ArrayList<>(columns.length);
            for (int c : columns) {
                out.add(table.schema().type(c));
            }
            return out;
        }
    }

    /** Rows of {@code input} for which {@code condition} is true (not false, not NULL). */
    record Filter(PlanNode input, Expr condition) implements PlanNode {
        @Override
        public <R> R accept(PlanVisitor<R> visitor) {
            return visitor.filter(this);
        }

        @Override
        public List<PlanNode> inputs() {
            return List.of(input);
        }

        @Override
        public List<FerryType> types() {
            return input.types();
        }
    }

    record Project(PlanNode input, List<Expr> exprs) implements PlanNode {
        @Override
        public <R> R accept(PlanVisitor<R> visitor) {
            return visitor.project(this);
        }

        @Override
        public List<PlanNode> inputs() {
            return List.of(input);
        }

        @Override
        public List<FerryType> types() {
            List<FerryType> out = new ArrayList<>(exprs.size());
            for (Expr e : exprs) {
                out.add(e.type());
            }
            return out;
        }
    }

    /**
     * Hash aggregation: output is the group keys then one column per call. Runs as a partial aggregation per
     * thread followed by a final merge (the split later issues use across the network).
     *
     * <p>{@code groupSets} is empty for a plain GROUP BY. Otherwise (GROUPING SETS, ROLLUP, CUBE) it lists the sets,
     * duplicates kept, each a bitmask over positions in {@code groupKeys} (bit k: key k is in the set; at most 63
     * keys): the output has the rows of each set in turn, with NULL for the keys not in it, and {@link
     * AggCall.AggKind#GROUPING} calls tell which rows' keys were rolled up ({@link GroupingSets}).
     *
     * <p>{@code nearlyUnique}: the planner expects about as many groups as input rows (half as many or more), so that
     * a thread's partial table folds few rows and may go to the merge while small ({@link AggregateSink}).
     */
    record Aggregate(PlanNode input, int[] groupKeys, long[] groupSets, List<AggCall> calls, boolean nearlyUnique)
            implements PlanNode {
        @Override
        public <R> R accept(PlanVisitor<R> visitor) {
            return visitor.aggregate(this);
        }

        /** Most keys an aggregate with grouping sets has: one bit each in a set's mask. */
        public static final int MAX_GROUPING_KEYS = 63;

        public Aggregate {
            if (groupSets.length > 0 && groupKeys.length > MAX_GROUPING_KEYS) {
                throw new IllegalArgumentException(groupKeys.length + " group keys under grouping sets: at most "
                        + MAX_GROUPING_KEYS);
            }
            for (long set : groupSets) {
                if (set < 0 || set >>> groupKeys.length != 0) {
                    throw new IllegalArgumentException("grouping set " + Long.toBinaryString(set) + " names keys "
                            + "beyond the " + groupKeys.length + " group keys");
                }
            }
            for (AggCall c : calls) {
                if (c.kind() == AggCall.AggKind.GROUPING && keyPosition(groupKeys, c.arg()) < 0) {
                    throw new IllegalArgumentException("GROUPING of column " + c.arg() + ", not a group key");
                }
            }
        }

        /** Where input column {@code column} is among {@code groupKeys}, or -1. */
        public static int keyPosition(int[] groupKeys, int column) {
            for (int k = 0; k < groupKeys.length; k++) {
                if (groupKeys[k] == column) {
                    return k;
                }
            }
            return -1;
        }

        /** A plain GROUP BY {@code groupKeys} (or none: one row). */
        public Aggregate(PlanNode input, int[] groupKeys, List<AggCall> calls) {
            this(input, groupKeys, new long[0], calls);
        }

        /** An aggregate whose groups the planner did not estimate. */
        public Aggregate(PlanNode input, int[] groupKeys, long[] groupSets, List<AggCall> calls) {
            this(input, groupKeys, groupSets, calls, false);
        }

        /** This aggregate over another input, with other key and argument columns, the same sets. */
        public Aggregate over(PlanNode newInput, int[] newKeys, List<AggCall> newCalls) {
            return new Aggregate(newInput, newKeys, groupSets, newCalls, nearlyUnique);
        }

        /** Whether the output has the rows of grouping sets rather than of one GROUP BY. */
        public boolean grouped() {
            return groupSets.length > 0;
        }

        @Override
        public List<PlanNode> inputs() {
            return List.of(input);
        }

        @Override
        public List<FerryType> types() {
            List<FerryType> in = input.types();
            List<FerryType> out = new ArrayList<>();
            for (int k : groupKeys) {
                out.add(in.get(k));
            }
            for (AggCall c : calls) {
                out.add(c.type());
            }
            return out;
        }
    }

    /**
     * Hash join: builds on {@code right}, probes with {@code left}. Output is left's columns then right's
     * (SEMI and ANTI: left's only). {@code residual} (or null) is evaluated over left ++ right columns.
     *
     * <p>Key k compares {@code leftKeys[k]} with {@code rightKeys[k]}: with {@code =} (a NULL matches nothing) where
     * {@code nullsMatch[k]} is false, with {@code IS NOT DISTINCT FROM} (a NULL matches a NULL) where it is true.
     */
    record Join(PlanNode left, PlanNode right, JoinKind kind, int[] leftKeys, int[] rightKeys, boolean[] nullsMatch,
            Expr residual) implements PlanNode {
        @Override
        public <R> R accept(PlanVisitor<R> visitor) {
            return visitor.join(this);
        }

        public Join {
            if (leftKeys.length != rightKeys.length || nullsMatch.length != leftKeys.length) {
                throw new IllegalArgumentException(leftKeys.length + " left keys, " + rightKeys.length
                        + " right keys and " + nullsMatch.length + " NULL-matching flags");
            }
        }

        /** A join whose keys all compare with {@code =}. */
        public Join(PlanNode left, PlanNode right, JoinKind kind, int[] leftKeys, int[] rightKeys, Expr residual) {
            this(left, right, kind, leftKeys, rightKeys, new boolean[leftKeys.length], residual);
        }

        /** This join over other inputs with the same columns, its residual replaced. */
        public Join over(PlanNode newLeft, PlanNode newRight, Expr newResidual) {
            return new Join(newLeft, newRight, kind, leftKeys, rightKeys, nullsMatch, newResidual);
        }

        @Override
        public List<PlanNode> inputs() {
            return List.of(left, right);
        }

        @Override
        public List<FerryType> types() {
            List<FerryType> out = new ArrayList<>(left.types());
            if (kind == JoinKind.INNER || kind == JoinKind.LEFT) {
                out.addAll(right.types());
            }
            return out;
        }
    }

    /** ORDER BY keys, then OFFSET and FETCH ({@code fetch < 0}: no limit). With no keys: just OFFSET/FETCH. */
    record Sort(PlanNode input, List<SortKey> keys, long offset, long fetch) implements PlanNode {
        @Override
        public <R> R accept(PlanVisitor<R> visitor) {
            return visitor.sort(this);
        }

        @Override
        public List<PlanNode> inputs() {
            return List.of(input);
        }

        @Override
        public List<FerryType> types() {
            return input.types();
        }
    }

    /**
     * Window functions over the rows of {@code input}, split into partitions by {@code partitionKeys} and ordered
     * within each by {@code orderKeys}; every call sees {@code frame} (ranking functions and LAG/LEAD ignore it).
     * Output is the input's columns then one column per call, rows in no promised order. It needs every row of a
     * partition in one place: a plan runs it above its input's {@link Gather} (the distributed plan's Fragments).
     */
    record Window(PlanNode input, int[] partitionKeys, List<SortKey> orderKeys, WindowFrame frame,
            List<WindowCall> calls) implements PlanNode {
        @Override
        public <R> R accept(PlanVisitor<R> visitor) {
            return visitor.window(this);
        }

        public Window {
            java.util.Objects.requireNonNull(frame, "frame is null");
        }

        /** This window over another input with the same columns. */
        public Window over(PlanNode newInput) {
            return new Window(newInput, partitionKeys, orderKeys, frame, calls);
        }

        @Override
        public List<PlanNode> inputs() {
            return List.of(input);
        }

        @Override
        public List<FerryType> types() {
            List<FerryType> out = new ArrayList<>(input.types());
            for (WindowCall c : calls) {
                out.add(c.type());
            }
            return out;
        }
    }

    /**
     * The partial half of {@code aggregate} (AggregatePlan): group keys then partial states (AVG as SUM and COUNT),
     * merged over this node's threads but not finished. What a worker runs under function shipping.
     */
    record PartialAggregate(Aggregate aggregate) implements PlanNode {
        @Override
        public <R> R accept(PlanVisitor<R> visitor) {
            return visitor.partialAggregate(this);
        }

        @Override
        public List<PlanNode> inputs() {
            return List.of(aggregate);
        }

        @Override
        public List<FerryType> types() {
            return new AggregatePlan(aggregate).partialTypes(aggregate.input().types());
        }
    }

    /**
     * The final half of {@code aggregate}: merges rows of partial states ({@code partials}, shaped as a
     * {@link PartialAggregate} of it produces) and finishes them into the aggregate's output.
     */
    record MergeAggregate(Aggregate aggregate, PlanNode partials) implements PlanNode {
        @Override
        public <R> R accept(PlanVisitor<R> visitor) {
            return visitor.mergeAggregate(this);
        }

        @Override
        public List<PlanNode> inputs() {
            return List.of(aggregate, partials);
        }

        @Override
        public List<FerryType> types() {
            return aggregate.types();
        }
    }

    /**
     * The rows of {@code fragment} run on the blocks of a table spread over several nodes, gathered here: the point
     * where a plan crosses the network (the query's {@link Gatherer} decides, per node, whether the node runs the
     * fragment or this node reads the node's blocks and runs it itself).
     */
    record Gather(PlanNode fragment) implements PlanNode {
        @Override
        public <R> R accept(PlanVisitor<R> visitor) {
            return visitor.gather(this);
        }

        @Override
        public List<PlanNode> inputs() {
            return List.of(fragment);
        }

        @Override
        public List<FerryType> types() {
            return fragment.types();
        }
    }

    /** Literal rows. */
    record Values(List<FerryType> types, Batch rows) implements PlanNode {
        @Override
        public <R> R accept(PlanVisitor<R> visitor) {
            return visitor.values(this);
        }

    }

    /** Rows a generator makes: a table function such as {@code generate_series}. */
    record Generate(RowGenerator generator) implements PlanNode {
        @Override
        public <R> R accept(PlanVisitor<R> visitor) {
            return visitor.generate(this);
        }

        @Override
        public List<FerryType> types() {
            return generator.types();
        }
    }

    /**
     * UNION ALL: the rows of every input, in no particular order. Every input produces exactly {@code types} (the SQL
     * layer casts where its inputs' types differ), so that batches from any input mean the same to the operator
     * above.
     */
    record Union(List<PlanNode> inputs, List<FerryType> types) implements PlanNode {
        @Override
        public <R> R accept(PlanVisitor<R> visitor) {
            return visitor.union(this);
        }

        public Union {
            inputs = List.copyOf(inputs);
            types = List.copyOf(types);
            if (inputs.isEmpty()) {
                throw new IllegalArgumentException("a union of no inputs");
            }
            for (int i = 0; i < inputs.size(); i++) {
                if (!inputs.get(i).types().equals(types)) {
                    throw new IllegalArgumentException("union input " + i + " produces " + inputs.get(i).types()
                            + ", not the union's " + types);
                }
            }
        }
    }

    /**
     * Each row of {@code input} repeated as many times as its BIGINT column {@code countColumn} says, and dropped
     * where that is 0, negative or NULL: how INTERSECT ALL and EXCEPT ALL give back the multiplicities they
     * computed by counting.
     */
    record Replicate(PlanNode input, int countColumn) implements PlanNode {
        @Override
        public <R> R accept(PlanVisitor<R> visitor) {
            return visitor.replicate(this);
        }

        public Replicate {
            List<FerryType> in = input.types();
            if (countColumn < 0 || countColumn >= in.size() || !in.get(countColumn).equals(FerryType.BIGINT)) {
                throw new IllegalArgumentException("replication count column " + countColumn + " is not a BIGINT "
                        + "column of " + in);
            }
        }

        @Override
        public List<PlanNode> inputs() {
            return List.of(input);
        }

        @Override
        public List<FerryType> types() {
            return input.types();
        }
    }
}
