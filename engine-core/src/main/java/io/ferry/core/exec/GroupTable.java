package io.ferry.core.exec;

import io.ferry.core.types.Physical;
import io.ferry.core.vector.Vector;

/** Maps grouping keys to dense group ids 0, 1, 2, ... in order of first appearance. */
interface GroupTable {
    int groupCount();

    /** Writes the group id of each of the {@code n} rows into {@code out}, adding groups for new keys. */
    void findOrInsert(Vector[] keys, int n, int[] out);

    /** The keys of groups {@code [from, from + count)}, one vector per key column. */
    Vector[] keyVectors(int from, int count);

    /** The bytes the table has reserved against the query's memory. */
    long bytes();

    void close();

    /** A single integral key (the common GROUP BY) gets a table specialized for it. */
    static GroupTable create(Physical[] keyTypes, QueryMemory memory) {
        if (keyTypes.length == 1 && keyTypes[0] == Physical.LONG) {
            return new LongGroupTable(memory);
        }
        return new MultiKeyGroupTable(keyTypes, memory);
    }
}
