package io.ferry.core.exec;

import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableData;

/**
 * Finds the blocks a scan reads when a plan runs. The default binds a node's own tables ({@link LocalScanBinder});
 * a cluster binds scans to blocks in other nodes' memory.
 */
@FunctionalInterface
public interface ScanBinder {
    /**
     * The blocks of {@code scan} for one execution. {@code sample} is the execution's sample (its seed drawn), or
     * null: a binder leaves out the blocks SYSTEM sampling skips, so they are never read.
     */
    BlockSource bind(PlanNode.Scan scan, SampleSpec sample);

    /**
     * {@link #bind(PlanNode.Scan, SampleSpec)}, where the blocks whose zone maps {@code zones} rule out may be left
     * out too: zones a join's build keys gave the scan when the plan ran ({@link JoinKeyRanges}), which include the
     * scan's own. A binder whose blocks were chosen before (a cluster node's, by the coordinator) reads them all:
     * a filter above the scan still drops the rows.
     */
    default BlockSource bind(PlanNode.Scan scan, SampleSpec sample, ZoneFilter zones) {
        return bind(scan, sample);
    }

    /**
     * The positions of the blocks of {@code data}, a version of {@code table}, that one execution of {@code scan}
     * reads: those {@code sample} keeps (all without one) and that the scan's zone maps do not rule out. Counts them,
     * and the ones skipped, in the table's totals.
     */
    static int[] blocksToRead(PlanNode.Scan scan, SampleSpec sample, Table table, TableData data) {
        return blocksToRead(scan.zones(), sample, table, data);
    }

    /** {@link #blocksToRead(PlanNode.Scan, SampleSpec, Table, TableData)} under {@code zones}. */
    static int[] blocksToRead(ZoneFilter zones, SampleSpec sample, Table table, TableData data) {
        int[] sampled = SampleSpec.keptBlocks(sample, data.blocks().size());
        int[] read = zones.keep(sampled, data.blocks());
        table.recordScan(read.length, sampled.length - read.length);
        return read;
    }
}
