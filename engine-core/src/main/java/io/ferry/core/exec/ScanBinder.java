package io.ferry.core.exec;

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
}
