package io.ferry.core.exec;

import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableData;

/**
 * Binds scans to the node's own tables: the table's current version is held for the whole query (so a concurrent
 * INSERT or DROP cannot free blocks under it) and its blocks are read in place, but for those sampling or the scan's
 * zone maps leave out.
 */
public final class LocalScanBinder implements ScanBinder {
    public static final LocalScanBinder INSTANCE = new LocalScanBinder();

    private LocalScanBinder() {
    }

    @Override
    public BlockSource bind(PlanNode.Scan scan, SampleSpec sample) {
        return bind(scan, sample, scan.zones());
    }

    @Override
    public BlockSource bind(PlanNode.Scan scan, SampleSpec sample, ZoneFilter zones) {
        if (!(scan.table() instanceof Table table)) {
            throw new IllegalStateException("table '" + scan.table().name() + "' has no blocks on this node");
        }
        TableData data = table.snapshot();
        int[] positions = ScanBinder.blocksToRead(zones, sample, table, data);
        return new BlockSource() {
            @Override
            public int blockCount() {
                return positions.length;
            }

            @Override
            public void read(int morsel, BlockVisitor visitor) {
                int position = positions[morsel];
                visitor.visit(position, data.blocks().get(position).reader());
            }

            @Override
            public void close() {
                data.close();
            }
        };
    }
}
