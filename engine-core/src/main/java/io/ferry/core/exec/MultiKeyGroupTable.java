package io.ferry.core.exec;

import java.util.Arrays;

import io.ferry.core.types.Physical;
import io.ferry.core.vector.Vector;

/**
 * Maps any combination of grouping keys to dense group ids with open addressing and linear probing. Hashes
 * are computed for a whole batch at once; the probe compares the stored hash before any key.
 */
final class MultiKeyGroupTable implements GroupTable {
    private static final double LOAD = 0.5;

    private final KeyColumn[] keys;
    private final QueryMemory memory;
    private int[] slots;
    private long[] hashes;
    private int mask;
    private int groups;
    private long reserved;

    MultiKeyGroupTable(Physical[] keyTypes, QueryMemory memory) {
        this.memory = memory;
        this.keys = new KeyColumn[keyTypes.length];
        for (int i = 0; i < keyTypes.length; i++) {
            keys[i] = new KeyColumn(keyTypes[i], 1024);
        }
        this.slots = new int[2048];
        this.mask = slots.length - 1;
        this.hashes = new long[1024];
        account();
    }

    @Override
    public int groupCount() {
        return groups;
    }

    @Override
    public void findOrInsert(Vector[] keyVectors, int n, int[] out) {
        long[] h = KeyHasher.hash(keyVectors, n);
        for (int i = 0; i < n; i++) {
            long hash = h[i];
            int slot = (int) hash & mask;
            while (true) {
                int g = slots[slot] - 1;
                if (g < 0) {
                    out[i] = insert(keyVectors, i, hash, slot);
                    break;
                }
                if (hashes[g] == hash && equal(g, keyVectors, i)) {
                    out[i] = g;
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
    }

    private boolean equal(int g, Vector[] keyVectors, int row) {
        for (int k = 0; k < keys.length; k++) {
            if (!keys[k].equalsAt(g, keyVectors[k], row)) {
                return false;
            }
        }
        return true;
    }

    private int insert(Vector[] keyVectors, int row, long hash, int slot) {
        int g = groups++;
        for (int k = 0; k < keys.length; k++) {
            keys[k].append(keyVectors[k], row);
        }
        if (g == hashes.length) {
            hashes = Arrays.copyOf(hashes, hashes.length * 2);
        }
        hashes[g] = hash;
        slots[slot] = g + 1;
        if (groups > slots.length * LOAD) {
            rehash();
        }
        return g;
    }

    private void rehash() {
        int[] bigger = new int[slots.length * 2];
        int m = bigger.length - 1;
        for (int g = 0; g < groups; g++) {
            int s = (int) hashes[g] & m;
            while (bigger[s] != 0) {
                s = (s + 1) & m;
            }
            bigger[s] = g + 1;
        }
        slots = bigger;
        mask = m;
        account();
    }

    private void account() {
        long now = 4L * slots.length + 8L * hashes.length;
        for (KeyColumn k : keys) {
            now += k.bytesUsed();
        }
        if (now > reserved) {
            memory.reserve(now - reserved);
            reserved = now;
        }
    }

    @Override
    public Vector[] keyVectors(int from, int count) {
        Vector[] out = new Vector[keys.length];
        for (int k = 0; k < keys.length; k++) {
            out[k] = keys[k].toVector(from, count);
        }
        return out;
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
