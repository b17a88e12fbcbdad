package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

import io.ferry.core.expr.Call;
import io.ferry.core.expr.Expr;
import io.ferry.core.expr.InputRef;
import io.ferry.core.types.FerryType;

/**
 * Removes columns no operator above needs, down to the scans, so a scan decodes only the columns a query
 * touches (a columnar store's main saving).
 */
public final class ColumnPruner {
    private ColumnPruner() {
    }

    /** A pruned node and where each old output column went (-1: dropped). */
    private record Pruned(PlanNode node, int[] mapping) {
    }

    public static PlanNode prune(PlanNode plan) {
        BitSet all = new BitSet();
        all.set(0, plan.types().size());
        return prune(plan, all).node();
    }

    private static Pruned prune(PlanNode node, BitSet required) {
        if (node instanceof PlanNode.Scan scan) {
            int[] old = scan.columns();
            int[] mapping = new int[old.length];
            List<Integer> kept = new ArrayList<>();
            for (int i = 0; i < old.length; i++) {
                mapping[i] = required.get(i) ? kept.size() : -1;
                if (required.get(i)) {
                    kept.add(old[i]);
                }
            }
            int[] cols = kept.stream().mapToInt(Integer::intValue).toArray();
            return new Pruned(new PlanNode.Scan(scan.table(), cols, scan.sample(), scan.zones()), mapping);
        }
        if (node instanceof PlanNode.Filter filter) {
            BitSet need = (BitSet) required.clone();
            refs(filter.condition(), need);
            Pruned in = prune(filter.input(), need);
            return new Pruned(new PlanNode.Filter(in.node(), remap(filter.condition(), in.mapping())), in.mapping());
        }
        if (node instanceof PlanNode.Project project) {
            List<Expr> exprs = project.exprs();
            int[] mapping = new int[exprs.size()];
            BitSet need = new BitSet();
            List<Expr> kept = new ArrayList<>();
            for (int i = 0; i < exprs.size(); i++) {
                if (required.get(i)) {
                    mapping[i] = kept.size();
                    kept.add(exprs.get(i));
                    refs(exprs.get(i), need);
                } else {
                    mapping[i] = -1;
                }
            }
            Pruned in = prune(project.input(), need);
            List<Expr> remapped = new ArrayList<>(kept.size());
            for (Expr e : kept) {
                remapped.add(remap(e, in.mapping()));
            }
            return new Pruned(new PlanNode.Project(in.node(), remapped), mapping);
        }
        if (node instanceof PlanNode.Aggregate agg) {
            BitSet need = new BitSet();
            for (int k : agg.groupKeys()) {
                need.set(k);
            }
            for (AggCall c : agg.calls()) {
                for (int col : new int[] {c.arg(), c.arg2(), c.filter()}) {
                    if (col >= 0) {
                        need.set(col);
                    }
                }
                for (SortKey k : c.order()) {
                    need.set(k.column());
                }
                c.moreArgs().forEach(need::set);
            }
            Pruned in = prune(agg.input(), need);
            int[] keys = new int[agg.groupKeys().length];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = in.mapping()[agg.groupKeys()[i]];
            }
            List<AggCall> calls = new ArrayList<>();
            for (AggCall c : agg.calls()) {
                int[] map = in.mapping();
                List<SortKey> order = new ArrayList<>();
                for (SortKey k : c.order()) {
                    order.add(new SortKey(map[k.column()], k.descending(), k.nullsFirst()));
                }
                List<Integer> moreArgs = new ArrayList<>();
                for (int a : c.moreArgs()) {
                    moreArgs.add(map[a]);
                }
                calls.add(c.withColumns(c.arg() < 0 ? -1 : map[c.arg()], c.arg2() < 0 ? -1 : map[c.arg2()],
                        c.filter() < 0 ? -1 : map[c.filter()]).withOrder(order).withMoreArgs(moreArgs));
            }
            return new Pruned(agg.over(in.node(), keys, calls), identity(agg.types().size()));
        }
        if (node instanceof PlanNode.Join join) {
            int leftWidth = join.left().types().size();
            int rightWidth = join.right().types().size();
            BitSet needLeft = new BitSet();
            BitSet needRight = new BitSet();
            BitSet residualRefs = new BitSet();
            if (join.residual() != null) {
                refs(join.residual(), residualRefs);
            }
            for (int i = required.nextSetBit(0); i >= 0; i = required.nextSetBit(i + 1)) {
                split(i, leftWidth, needLeft, needRight);
            }
            for (int i = residualRefs.nextSetBit(0); i >= 0; i = residualRefs.nextSetBit(i + 1)) {
                split(i, leftWidth, needLeft, needRight);
            }
            for (int k : join.leftKeys()) {
                needLeft.set(k);
            }
            for (int k : join.rightKeys()) {
                needRight.set(k);
            }
            Pruned l = prune(join.left(), needLeft);
            Pruned r = prune(join.right(), needRight);
            int newLeftWidth = l.node().types().size();
            int[] combined = new int[leftWidth + rightWidth];
            for (int i = 0; i < leftWidth; i++) {
                combined[i] = l.mapping()[i];
            }
            for (int j = 0; j < rightWidth; j++) {
                combined[leftWidth + j] = r.mapping()[j] < 0 ? -1 : newLeftWidth + r.mapping()[j];
            }
            int[] lk = new int[join.leftKeys().length];
            int[] rk = new int[join.rightKeys().length];
            for (int i = 0; i < lk.length; i++) {
                lk[i] = l.mapping()[join.leftKeys()[i]];
                rk[i] = r.mapping()[join.rightKeys()[i]];
            }
            Expr residual = join.residual() == null ? null : remap(join.residual(), combined);
            PlanNode out = new PlanNode.Join(l.node(), r.node(), join.kind(), lk, rk, join.nullsMatch(), residual);
            int outWidth = join.types().size();
            return new Pruned(out, java.util.Arrays.copyOf(combined, outWidth));
        }
        if (node instanceof PlanNode.Sort sort) {
            BitSet need = (BitSet) required.clone();
            for (SortKey k : sort.keys()) {
                need.set(k.column());
            }
            Pruned in = prune(sort.input(), need);
            List<SortKey> keys = new ArrayList<>();
            for (SortKey k : sort.keys()) {
                keys.add(new SortKey(in.mapping()[k.column()], k.descending(), k.nullsFirst()));
            }
            return new Pruned(new PlanNode.Sort(in.node(), keys, sort.offset(), sort.fetch()), in.mapping());
        }
        if (node instanceof PlanNode.Window window) {
            return window(window, required);
        }
        if (node instanceof PlanNode.Replicate replicate) {
            BitSet need = (BitSet) required.clone();
            need.set(replicate.countColumn());
            Pruned in = prune(replicate.input(), need);
            return new Pruned(new PlanNode.Replicate(in.node(), in.mapping()[replicate.countColumn()]), in.mapping());
        }
        if (node instanceof PlanNode.Union union) {
            return pruneUnion(union, required);
        }
        return new Pruned(node, identity(node.types().size()));
    }

    /** A window keeps every call (their columns are few) and reads its keys, arguments and defaults. */
    private static Pruned window(PlanNode.Window window, BitSet required) {
        int width = window.input().types().size();
        BitSet need = required.get(0, width);
        for (int k : window.partitionKeys()) {
            need.set(k);
        }
        for (SortKey k : window.orderKeys()) {
            need.set(k.column());
        }
        for (WindowCall c : window.calls()) {
            if (c.arg() >= 0) {
                need.set(c.arg());
            }
            if (c.defaultArg() >= 0) {
                need.set(c.defaultArg());
            }
            if (c.offsetArg() >= 0) {
                need.set(c.offsetArg());
            }
        }
        Pruned in = prune(window.input(), need);
        int[] m = in.mapping();
        int[] keys = new int[window.partitionKeys().length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = m[window.partitionKeys()[i]];
        }
        List<SortKey> order = new ArrayList<>();
        for (SortKey k : window.orderKeys()) {
            order.add(new SortKey(m[k.column()], k.descending(), k.nullsFirst()));
        }
        List<WindowCall> calls = new ArrayList<>();
        for (WindowCall c : window.calls()) {
            calls.add(new WindowCall(c.kind(), c.arg() < 0 ? -1 : m[c.arg()], c.type(), c.offset(),
                    c.defaultArg() < 0 ? -1 : m[c.defaultArg()], c.ignoreNulls(),
                    c.offsetArg() < 0 ? -1 : m[c.offsetArg()]));
        }
        PlanNode out = new PlanNode.Window(in.node(), keys, order, window.frame(), calls);
        int newWidth = in.node().types().size();
        int[] mapping = java.util.Arrays.copyOf(m, width + calls.size());
        for (int k = 0; k < calls.size(); k++) {
            mapping[width + k] = newWidth + k;
        }
        return new Pruned(out, mapping);
    }

    /**
     * Every input keeps the required columns, in order and nothing else: inputs pruned on their own can keep
     * others (a filter's), and a union's inputs must produce the same columns.
     */
    private static Pruned pruneUnion(PlanNode.Union union, BitSet required) {
        int[] mapping = new int[union.types().size()];
        List<FerryType> types = new ArrayList<>();
        for (int i = 0; i < mapping.length; i++) {
            mapping[i] = required.get(i) ? types.size() : -1;
            if (required.get(i)) {
                types.add(union.types().get(i));
            }
        }
        List<PlanNode> inputs = new ArrayList<>(union.inputs().size());
        for (PlanNode input : union.inputs()) {
            Pruned in = prune(input, required);
            List<Expr> exprs = new ArrayList<>(types.size());
            boolean exact = in.node().types().size() == types.size();
            for (int i = required.nextSetBit(0); i >= 0; i = required.nextSetBit(i + 1)) {
                exact &= in.mapping()[i] == exprs.size();
                exprs.add(new InputRef(in.mapping()[i], union.types().get(i)));
            }
            inputs.add(exact ? in.node() : new PlanNode.Project(in.node(), exprs));
        }
        return new Pruned(new PlanNode.Union(inputs, types), mapping);
    }

    private static void split(int i, int leftWidth, BitSet left, BitSet right) {
        if (i < leftWidth) {
            left.set(i);
        } else {
            right.set(i - leftWidth);
        }
    }

    private static int[] identity(int n) {
        int[] m = new int[n];
        for (int i = 0; i < n; i++) {
            m[i] = i;
        }
        return m;
    }

    /** Sets the input columns {@code e} reads. */
    static void refs(Expr e, BitSet out) {
        if (e instanceof InputRef r) {
            out.set(r.index());
        } else if (e instanceof Call c) {
            for (Expr a : c.args()) {
                refs(a, out);
            }
        }
    }

    private static Expr remap(Expr e, int[] mapping) {
        if (e instanceof InputRef r) {
            return new InputRef(mapping[r.index()], r.type());
        }
        if (e instanceof Call c) {
            List<Expr> args = new ArrayList<>(c.args().size());
            for (Expr a : c.args()) {
                args.add(remap(a, mapping));
            }
            return new Call(c.op(), args, c.type());
        }
        return e;
    }
}
