package io.ferry.server.runtime;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import io.ferry.core.exec.JoinKind;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.expr.InputRef;
import io.ferry.core.storage.Block;
import io.ferry.core.storage.PartitionScheme;
import io.ferry.core.storage.Table;

/**
 * Which build sides of a fragment's joins need only some of their partitions (I-Store DPE section 2, partial
 * replication): where a join equates a partitioning column of the divided (probe) table with a partitioning column
 * of a build table in the same domain split into as many parts, a probe row of part k can only meet build rows of
 * part k, so a unit probing the blocks of some parts reads only those parts of the build table, not all of it.
 * Only joins whose unmatched build rows do not show (INNER, LEFT, SEMI) qualify, and only a build side that is a
 * scan under filters and projections; anything else reads its build table whole, as before.
 */
final class CoPartitioning {
    /** A build scan that needs only the parts of {@code domain} its unit's probe blocks are in. */
    record Restriction(PlanNode.Scan build, String domain) {
    }

    private CoPartitioning() {
    }

    /** The restrictions of {@code fragment}'s build scans, by scan (identity), given its divided scan. */
    static Map<PlanNode.Scan, Restriction> of(PlanNode fragment, PlanNode.Scan divided) {
        Map<PlanNode.Scan, Restriction> out = new IdentityHashMap<>();
        collect(fragment, divided, out);
        return out;
    }

    private static void collect(PlanNode node, PlanNode.Scan divided, Map<PlanNode.Scan, Restriction> out) {
        if (node instanceof PlanNode.Join join && (join.kind() == JoinKind.INNER || join.kind() == JoinKind.LEFT
                || join.kind() == JoinKind.SEMI)) {
            for (int i = 0; i < join.leftKeys().length; i++) {
                Origin probe = trace(join.left(), join.leftKeys()[i]);
                Origin build = traceBuild(join.right(), join.rightKeys()[i]);
                if (probe == null || build == null || probe.scan() != divided) {
                    continue;
                }
                PartitionScheme.Key pk = ((Table) divided.table()).partitioning().keyOn(probe.column());
                PartitionScheme.Key bk = ((Table) build.scan().table()).partitioning().keyOn(build.column());
                if (pk != null && bk != null && pk.domain().equals(bk.domain()) && pk.parts() == bk.parts()) {
                    out.putIfAbsent(build.scan(), new Restriction(build.scan(), bk.domain()));
                }
            }
        }
        for (PlanNode input : node.inputs()) {
            collect(input, divided, out);
        }
    }

    /** Where a column of a plan's output comes from: a table column read by a scan. */
    private record Origin(PlanNode.Scan scan, int column) {
    }

    /** A probe-side column's origin, through filters, projections of plain columns and the left of joins. */
    private static Origin trace(PlanNode node, int column) {
        if (node instanceof PlanNode.Scan scan) {
            return scan.table() instanceof Table ? new Origin(scan, scan.columns()[column]) : null;
        }
        if (node instanceof PlanNode.Filter f) {
            return trace(f.input(), column);
        }
        if (node instanceof PlanNode.Project p) {
            return p.exprs().get(column) instanceof InputRef ref ? trace(p.input(), ref.index()) : null;
        }
        if (node instanceof PlanNode.Join j) {
            int leftWidth = j.left().types().size();
            if (column < leftWidth) {
                return trace(j.left(), column);
            }
            return j.kind() == JoinKind.INNER ? trace(j.right(), column - leftWidth) : null;
        }
        return null;
    }

    /** A build-side column's origin: only through filters and projections of plain columns down to one scan. */
    private static Origin traceBuild(PlanNode node, int column) {
        PlanNode n = node;
        while (n instanceof PlanNode.Filter || n instanceof PlanNode.Project) {
            n = n.inputs().get(0);
        }
        return n instanceof PlanNode.Scan ? trace(node, column) : null;
    }

    /** The parts of {@code domain} the probe blocks at {@code positions} of {@code table} are in. */
    static boolean[] neededParts(Table table, List<Block> blocks, List<BlockLocation> probe,
            String domain) {
        PartitionScheme scheme = table.partitioning();
        boolean[] needed = new boolean[scheme.keyFor(domain).parts()];
        for (BlockLocation b : probe) {
            needed[scheme.digit(blocks.get(b.position()).partition(), domain)] = true;
        }
        return needed;
    }

    /** Of a build table's blocks {@code whole}, those in the needed parts of {@code domain}. */
    static List<BlockLocation> restrict(Table build, List<Block> blocks,
            List<BlockLocation> whole, String domain, boolean[] needed) {
        PartitionScheme scheme = build.partitioning();
        return whole.stream().filter(b -> needed[scheme.digit(blocks.get(b.position()).partition(), domain)])
                .toList();
    }
}
