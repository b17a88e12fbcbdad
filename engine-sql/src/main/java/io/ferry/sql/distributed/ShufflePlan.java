package io.ferry.sql.distributed;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

import io.ferry.core.exec.PlanCodec;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.PlanVisitor;
import io.ferry.core.storage.TableRef;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;

/**
 * A fragment's joins as a shuffle hash join, the baseline of I-Store DPE Fig. 7a: each compute server reads its share
 * of every table and splits the rows by the join key into one part per server; server j then joins part j of both
 * inputs. A join above another splits the lower join's output again by its own key (a second shuffle, which the
 * pipelined execution avoids). Each such split is an <em>exchange</em>; a stage is a plan every compute server runs,
 * over its share of one table's blocks or over its part of each exchange it reads, whose rows are split into an
 * exchange — or, for the last stage, sent to the coordinator (partial aggregates, which it merges).
 *
 * <p>A stage reads an exchange through a scan of a table named {@link #EXCHANGE} and the exchange's number, with the
 * exchange's columns; the runtime binds it to the blocks of that part. A join whose build side is not made of tables
 * (an aggregate — a NOT EXISTS or IN subquery's distinct keys — or VALUES) is not split: every node reads that side
 * whole and joins its own rows with it, as gathering does.
 *
 * @param stages in an order in which they can run: a stage reads only exchanges that stages before it fill
 */
public record ShufflePlan(List<Stage> stages) {
    /** The name prefix of a scan that reads an exchange. */
    public static final String EXCHANGE = "$exchange ";

    /**
     * One stage.
     *
     * @param plan   what every compute server runs
     * @param output the exchange its rows are split into, or -1 for the last stage (its rows go to the coordinator)
     * @param keys   the columns of the plan's rows that choose their part (none for the last stage)
     * @param whole  per scan of the plan ({@link PlanCodec#scans} order), whether every node reads all its blocks (a
     *               build side that is not split) rather than a share
     */
    public record Stage(PlanNode plan, int output, int[] keys, boolean[] whole) {
        public boolean last() {
            return output < 0;
        }
    }

    /** The exchange {@code scan} reads, or -1 for a scan of a table. */
    public static int exchangeOf(PlanNode.Scan scan) {
        String name = scan.table().name();
        return name.startsWith(EXCHANGE) ? Integer.parseInt(name.substring(EXCHANGE.length())) : -1;
    }

    /**
     * The shuffle stages of {@code fragment}, or null when no join in it can be split (it has none, or only joins
     * with a build side that is not made of tables): it runs gathered.
     */
    public static ShufflePlan of(PlanNode fragment) {
        Builder b = new Builder();
        Part top = b.part(fragment);
        if (top == null || !top.joined()) {
            return null;
        }
        b.add(top.plan(), -1, new int[0]);
        return new ShufflePlan(List.copyOf(b.stages));
    }

    /** How many exchanges the stages fill. */
    public int exchanges() {
        int n = 0;
        for (Stage s : stages) {
            n = Math.max(n, s.output() + 1);
        }
        return n;
    }

    /** One line per stage for EXPLAIN: what it reads and how its rows are split. */
    public List<String> describe(int servers) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < stages.size(); i++) {
            Stage s = stages.get(i);
            StringJoiner reads = new StringJoiner(", ");
            List<PlanNode.Scan> scans = PlanCodec.scans(s.plan());
            for (int c = 0; c < scans.size(); c++) {
                int e = exchangeOf(scans.get(c));
                reads.add(e >= 0 ? "exchange " + e + " (its own part)" : scans.get(c).table().name()
                        + (s.whole()[c] ? " (whole, on every node)" : " (a share of its blocks each)"));
            }
            out.add("stage " + (i + 1) + ": " + reads + (s.last() ? " → joined, to the coordinator"
                    : " → exchange " + s.output() + ", split by column" + (s.keys().length > 1 ? "s " : " ")
                            + java.util.Arrays.toString(s.keys()) + " into " + servers + " parts"));
        }
        return out;
    }

    /** A plan of the shuffle: over a table's blocks, or ({@code joined}) over exchanges. */
    private record Part(PlanNode plan, boolean joined) {
    }

    private static final class Builder {
        final List<Stage> stages = new ArrayList<>();
        /** Scans of build sides every node reads whole. */
        final java.util.Set<PlanNode.Scan> whole = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        int exchanges;

        void add(PlanNode plan, int output, int[] keys) {
            List<PlanNode.Scan> scans = PlanCodec.scans(plan);
            boolean[] flags = new boolean[scans.size()];
            for (int i = 0; i < flags.length; i++) {
                flags[i] = whole.contains(scans.get(i));
            }
            stages.add(new Stage(plan, output, keys, flags));
        }

        /** {@code node} as a part of the shuffle, or null where it is neither a table's nor made of joins of them. */
        Part part(PlanNode node) {
            return node.accept(new PlanVisitor.Partial<Part>() {
                @Override
                protected Part otherwise(PlanNode other) {
                    return null;
                }

                @Override
                public Part scan(PlanNode.Scan scan) {
                    return new Part(scan, false);
                }

                @Override
                public Part filter(PlanNode.Filter f) {
                    Part p = part(f.input());
                    return p == null ? null : new Part(new PlanNode.Filter(p.plan(), f.condition()), p.joined());
                }

                @Override
                public Part project(PlanNode.Project pr) {
                    Part p = part(pr.input());
                    return p == null ? null : new Part(new PlanNode.Project(p.plan(), pr.exprs()), p.joined());
                }

                @Override
                public Part partialAggregate(PlanNode.PartialAggregate pa) {
                    PlanNode.Aggregate agg = pa.aggregate();
                    Part p = part(agg.input());
                    return p == null ? null : new Part(new PlanNode.PartialAggregate(agg.over(p.plan(),
                            agg.groupKeys(), agg.calls())), p.joined());
                }

                @Override
                public Part join(PlanNode.Join j) {
                    Part left = part(j.left());
                    if (left == null) {
                        return null;
                    }
                    Part right = part(j.right());
                    if (right == null) {
                        whole.addAll(PlanCodec.scans(j.right()));
                        return new Part(j.over(left.plan(), j.right(), j.residual()), left.joined());
                    }
                    int l = split(left.plan(), j.leftKeys());
                    int r = split(right.plan(), j.rightKeys());
                    return new Part(new PlanNode.Join(exchange(l, left.plan().types()), exchange(r,
                            right.plan().types()), j.kind(), j.leftKeys(), j.rightKeys(), j.nullsMatch(),
                            j.residual()), true);
                }
            });
        }

        /** A stage splitting {@code plan}'s rows by {@code keys} into a new exchange; its number. */
        int split(PlanNode plan, int[] keys) {
            int e = exchanges++;
            add(plan, e, keys.clone());
            return e;
        }

        static PlanNode.Scan exchange(int e, List<FerryType> types) {
            List<Column> columns = new ArrayList<>(types.size());
            int[] all = new int[types.size()];
            for (int i = 0; i < all.length; i++) {
                columns.add(new Column("c" + i, types.get(i), true));
                all[i] = i;
            }
            return new PlanNode.Scan(new TableRef(EXCHANGE + e, new TableSchema(columns)), all, null);
        }
    }
}
