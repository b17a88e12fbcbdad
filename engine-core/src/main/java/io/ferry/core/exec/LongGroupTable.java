package io.ferry.core.exec;

import java.util.Arrays;

import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Group ids for one integral key. Keys live in the slot array itself, so a probe touches one cache line
 * instead of chasing a group id to its key; the hash is a single Fibonacci multiply whose high bits pick the
 * slot. NULL is a group of its own, kept outside the table.
 */
final class LongGroupTable implements GroupTable {
    private static final long FIBONACCI = 0x9E3779B97F4A7C15L;

    private final QueryMemory memory;
    private long[] slotKeys;
    private int[] slotGroups;
    private int shift;
    private int mask;
    private long[] groupKeys = new long[1024];
    private int groups;
    private int nullGroup = -1;
    private long reserved;

    LongGroupTable(QueryMemory memory) {
        this(memory, 0);
    }

    /** @param expected groups to make room for at once (0: unknown) */
    LongGroupTable(QueryMemory memory, int expected) {
        this.memory = memory;
        allocate(capacity(expected));
    }

    /** Slots for {@code expected} groups at most half full, 2^11 at least, 2^27 at most (it still grows past). */
    static int capacity(int expected) {
        return Integer.highestOneBit(Math.max(1 << 10, Math.min(expected, 1 << 26)) - 1) << 2;
    }

    private void allocate(int capacity) {
        slotKeys = new long[capacity];
        slotGroups = new int[capacity];
        mask = capacity - 1;
        shift = 64 - Integer.numberOfTrailingZeros(capacity);
        long now = 12L * capacity + 8L * groupKeys.length;
        if (now > reserved) {
            memory.reserve(now - reserved);
            reserved = now;
        }
    }

    @Override
    public int groupCount() {
        return groups;
    }

    @Override
    public void findOrInsert(Vector[] keys, int n, int[] out) {
        LongVector v = (LongVector) keys[0];
        long[] x = v.values();
        boolean[] nulls = v.nulls();
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                if (nullGroup < 0) {
                    nullGroup = newGroup(0);
                }
                out[i] = nullGroup;
                continue;
            }
            long key = x[i];
            int slot = (int) ((key * FIBONACCI) >>> shift);
            while (true) {
                int g = slotGroups[slot] - 1;
                if (g < 0) {
                    g = newGroup(key);
                    slotKeys[slot] = key;
                    slotGroups[slot] = g + 1;
                    out[i] = g;
                    if (groups > (slotKeys.length >>> 1)) {
                        grow();
                    }
                    break;
                }
                if (slotKeys[slot] == key) {
                    out[i] = g;
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
    }

    private int newGroup(long key) {
        if (groups == groupKeys.length) {
            groupKeys = Arrays.copyOf(groupKeys, groups * 2);
        }
        groupKeys[groups] = key;
        return groups++;
    }

    private void grow() {
        long[] oldKeys = slotKeys;
        int[] oldGroups = slotGroups;
        allocate(oldKeys.length * 2);
        for (int s = 0; s < oldKeys.length; s++) {
            if (oldGroups[s] != 0) {
                int slot = (int) ((oldKeys[s] * FIBONACCI) >>> shift);
                while (slotGroups[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                slotKeys[slot] = oldKeys[s];
                slotGroups[slot] = oldGroups[s];
            }
        }
    }

    @Override
    public Vector[] keyVectors(int from, int count) {
        boolean[] nulls = null;
        if (nullGroup >= from && nullGroup < from + count) {
            nulls = new boolean[count];
            nulls[nullGroup - from] = true;
        }
        return new Vector[] {new LongVector(Arrays.copyOfRange(groupKeys, from, from + count), nulls, count)};
    }

    @Override
    public long bytes() {
        return reserved;
    }

    @Override
    public void close() {
        memory.release(reserved);
        reserved = 0;
    }
}
