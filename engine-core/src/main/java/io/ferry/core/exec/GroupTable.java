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

    /**
     * A single integral key (the common GROUP BY), and several, get tables specialized for them; {@code expected}
     * groups (0: unknown) are made room for at once, so the table does not grow to them one doubling at a time.
     */
    static GroupTable create(Physical[] keyTypes, QueryMemory memory, int expected) {
        boolean integral = true;
        for (Physical t : keyTypes) {
            integral &= t == Physical.LONG;
        }
        if (integral && keyTypes.length == 1) {
            return new LongGroupTable(memory, expected);
        }
        if (integral && keyTypes.length > 1) {
            return new PackedKeyGroupTable(keyTypes, memory, expected);
        }
        return new MultiKeyGroupTable(keyTypes, memory, expected);
    }
}
