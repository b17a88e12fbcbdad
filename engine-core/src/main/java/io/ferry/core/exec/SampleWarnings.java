package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.ferry.core.storage.Table;
import io.ferry.core.stats.TableStats;

/**
 * The result-quality warning of ship-or-not section II-B.2: SYSTEM (cluster) sampling keeps or drops whole blocks,
 * so when a table's rows lie in the order of a column — each block a narrow slice of its values — a GROUP BY on that
 * column can miss groups altogether and a WHERE on it can miss all the rows it asks for, or keep them only from a
 * block or two. BERNOULLI sampling has no such bias. A column counts as ordered when its load-time stats say so
 * ({@link io.ferry.core.stats.ColumnStats#clustered}).
 */
public final class SampleWarnings {
    private SampleWarnings() {
    }

    /** Warnings for {@code plan}, one sentence each, in plan order; none when nothing is SYSTEM-sampled. */
    public static List<String> of(PlanNode plan) {
        Set<String> out = new LinkedHashSet<>();
        visit(plan, out);
        return new ArrayList<>(out);
    }

    private static void visit(PlanNode node, Set<String> out) {
        if (node instanceof PlanNode.Aggregate a) {
            for (int k : a.groupKeys()) {
                check(a.input(), k, "GROUP BY", out);
            }
        } else if (node instanceof PlanNode.Filter f) {
            BitSet read = new BitSet();
            ColumnPruner.refs(f.condition(), read);
            read.stream().forEach(c -> check(f.input(), c, "WHERE", out));
        }
        for (PlanNode in : node.inputs()) {
            visit(in, out);
        }
    }

    private static void check(PlanNode input, int column, String clause, Set<String> out) {
        Spine.Origin o = Spine.origin(input, column);
        if (o == null || o.scan().sample() == null || o.scan().sample().method() != SampleSpec.Method.SYSTEM
                || !(o.scan().table() instanceof Table table)) {
            return;
        }
        TableStats stats = table.stats();
        if (!stats.column(o.column()).clustered()) {
            return;
        }
        String name = table.schema().column(o.column()).name();
        out.add(clause + " " + name + " on " + table.name() + " TABLESAMPLE SYSTEM: the table is stored in order of "
                + name + ", and SYSTEM sampling keeps or drops whole blocks, so it can miss " + (clause.equals("WHERE")
                ? "every row the condition selects, or keep them from a block or two"
                : "whole groups, and estimates the rest from a few blocks") + "; use TABLESAMPLE BERNOULLI for this query "
                + "(ship-or-not section II-B.2)");
    }
}
