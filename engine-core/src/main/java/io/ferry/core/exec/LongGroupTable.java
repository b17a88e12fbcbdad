package io.ferry.core.exec;

import java.util.Arrays;

import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Group ids for one integral key. Keys live in the slot array itself, so a probe touches one cache line
 * instead of chasing a group id to its key; the hash is a single Fibonacci multiply whose high bits pick the
 * slot. NULL is a group of its own, kept outside the table.
 *
 * <p>Keys that are dense integers (surrogate keys, the benchmark's 0 to 999,999) are mapped directly once the table
 * grows and their range is at most {@link #DIRECT_SPREAD} slots a group: the slot is the key's offset from the
 * smallest, one int read with no key to compare, in key order where the keys come in order (the join's direct
 * mapping does the same). A key beyond the range widens it, doubling, while it stays that dense; past that the
 * table hashes again, for good.
 */
final class LongGroupTable implements GroupTable {
    private static final long FIBONACCI = 0x9E3779B97F4A7C15L;
    /** Direct mapping while the keys' range is at most this many slots a group (4 bytes each: 16 a group). */
    private static final long DIRECT_SPREAD = 4;
    /** Nor more slots than this (256 MiB), whatever the groups. */
    private static final long DIRECT_MAX = 1L << 26;

    private final QueryMemory memory;
    private long[] slotKeys;
    private int[] slotGroups;
    private int shift;
    private int mask;
    private long[] groupKeys = new long[1024];
    private int groups;
    private int nullGroup = -1;
    private long reserved;
    /** The smallest and largest key of a group, NULL's aside. */
    private long lo = Long.MAX_VALUE;
    private long hi = Long.MIN_VALUE;
    /** Direct mapping: group id + 1 at {@code key - directMin}; null while hashing. */
    private int[] direct;
    private long directMin;
    /** Whether the keys outgrew direct mapping once: they are hashed from then on. */
    private boolean sparse;
    /** How often the direct slots were laid out (for the tests: a few times, not once a key). */
    int directWidenings;

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
        for (int i = 0; i < n; ) {
            i = direct != null ? findDirect(x, nulls, i, n, out) : findHashed(x, nulls, i, n, out);
        }
    }

    /** Hashing from row {@code from} on; returns the row after the last it did: {@code n}, or where it went direct. */
    private int findHashed(long[] x, boolean[] nulls, int from, int n, int[] out) {
        for (int i = from; i < n; i++) {
            if (nulls != null && nulls[i]) {
                out[i] = nullGroup();
                continue;
            }
            long key = x[i];
            int slot = (int) ((key * FIBONACCI) >>> shift);
            while (true) {
                int g = slotGroups[slot] - 1;
                if (g < 0) {
                    g = newGroup(key, false);
                    slotKeys[slot] = key;
                    slotGroups[slot] = g + 1;
                    out[i] = g;
                    if (groups > (slotKeys.length >>> 1)) {
                        grow();
                        if (direct != null) {
                            return i + 1;
                        }
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
        return n;
    }

    /**
     * Direct mapping from row {@code from} on; returns the row it stopped at: {@code n}, or a key outside the range,
     * which has been widened, or given up for hashing, by then.
     */
    private int findDirect(long[] x, boolean[] nulls, int from, int n, int[] out) {
        int[] slots = direct;
        long min = directMin;
        for (int i = from; i < n; i++) {
            if (nulls != null && nulls[i]) {
                out[i] = nullGroup();
                continue;
            }
            // unsigned: x - min is the true distance wherever x >= min, however far
            long d = x[i] - min;
            if (x[i] < min || Long.compareUnsigned(d, slots.length) >= 0) {
                widen(x[i]);
                return i;
            }
            int g = slots[(int) d] - 1;
            if (g < 0) {
                g = newGroup(x[i], false);
                slots[(int) d] = g + 1;
            }
            out[i] = g;
        }
        return n;
    }

    /** NULL's group, made on its first row. */
    private int nullGroup() {
        if (nullGroup < 0) {
            nullGroup = newGroup(0, true);
        }
        return nullGroup;
    }

    private int newGroup(long key, boolean isNull) {
        if (groups == groupKeys.length) {
            groupKeys = Arrays.copyOf(groupKeys, groups * 2);
        }
        groupKeys[groups] = key;
        if (!isNull) {
            lo = Math.min(lo, key);
            hi = Math.max(hi, key);
        }
        return groups++;
    }

    /** The slots direct mapping would take for the keys seen and {@code key}; -1 where that is too many. */
    private long directSlots(long key) {
        long from = Math.min(lo, key);
        long to = Math.max(hi, key);
        long range = to - from;
        long limit = Math.min(DIRECT_MAX, DIRECT_SPREAD * Math.max(groups, 1024));
        return range >= 0 && range < limit ? range + 1 : -1;
    }

    /**
     * Direct mapping that reaches {@code key} too, or hashing for good where it would be too sparse. The slots
     * double, the new ones on the side the key lies: keys that arrive in descending order widen it as rarely as
     * ascending ones.
     */
    private void widen(long key) {
        long slots = directSlots(key);
        if (slots < 0) {
            sparse = true;
            direct = null;
            allocate(capacity(groups));
            rehashGroups();
            return;
        }
        long length = Math.max(slots, Math.min(DIRECT_MAX, 2L * direct.length));
        long from = Math.min(lo, key);
        if (key >= directMin) {
            mapDirect(from, length);
            return;
        }
        // below: the room goes under the smallest key, down to Long.MIN_VALUE at most (distances unsigned)
        long room = length - slots;
        mapDirect(Long.compareUnsigned(from - Long.MIN_VALUE, room) >= 0 ? from - room : Long.MIN_VALUE, length);
    }

    /** Direct mapping from {@code min} over {@code slots} slots (at least the keys' range), of every group so far. */
    private void mapDirect(long min, long slots) {
        int length = (int) Math.max(slots, hi - min + 1);
        directWidenings++;
        long now = 4L * length + 8L * groupKeys.length;
        if (now > reserved) {
            memory.reserve(now - reserved);
            reserved = now;
        }
        direct = new int[length];
        directMin = min;
        slotKeys = null;
        slotGroups = null;
        for (int g = 0; g < groups; g++) {
            if (g != nullGroup) {
                direct[(int) (groupKeys[g] - min)] = g + 1;
            }
        }
    }

    /** Every group's key into the (empty) hashed slots. */
    private void rehashGroups() {
        for (int g = 0; g < groups; g++) {
            if (g != nullGroup) {
                int slot = (int) ((groupKeys[g] * FIBONACCI) >>> shift);
                while (slotGroups[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                slotKeys[slot] = groupKeys[g];
                slotGroups[slot] = g + 1;
            }
        }
    }

    private void grow() {
        if (!sparse && directSlots(lo) > 0) {
            mapDirect(lo, Math.min(DIRECT_MAX, 2L * (hi - lo + 1)));
            return;
        }
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
