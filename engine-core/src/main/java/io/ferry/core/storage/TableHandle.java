package io.ferry.core.storage;

import io.ferry.core.types.TableSchema;

/**
 * What a scan reads, as a plan names it: a table's name and schema. Where the table's blocks are is decided when the
 * plan runs, by the query's {@link io.ferry.core.exec.ScanBinder}: the node's own storage, or blocks in other nodes' memory.
 */
public interface TableHandle {
    String name();

    TableSchema schema();
}
