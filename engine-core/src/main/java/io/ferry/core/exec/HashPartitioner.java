package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.vector.Batch;
import io.ferry.core.vector.Vector;

/**
 * Splits rows into {@code parts} by a hash of their key columns: the send side of a shuffle hash join (I-Store DPE
 * section 5, the baseline of Fig. 7a). Both inputs of a join are split with their own key columns; a key hashes alike
 * on either side whatever its column's position, so rows that can match land in the same part, NULL keys included
 * (all in one part: an outer or anti join still sees each probe row once). The hash is the join's own
 * ({@link KeyHasher}); the part is taken from its high bits by multiply-shift, so it does not follow the low bits the
 * join's buckets use.
 */
public final class HashPartitioner {
    private final int[] keys;
    private final int parts;
    private final int level;

    public HashPartitioner(int[] keys, int parts) {
        this(keys, parts, 0);
    }

    /**
     * @param level 0 for the join's hash; a part of level {@code k} is split again at level {@code k + 1} by a hash
     *        remixed with the level, so the rows of one part spread over all parts of the next
     */
    public HashPartitioner(int[] keys, int parts, int level) {
        if (parts < 1) {
            throw new IllegalArgumentException("parts must be at least 1, got " + parts);
        }
        this.keys = keys.clone();
        this.parts = parts;
        this.level = level;
    }

    /** The part of each row of {@code batch}. */
    public int[] partsOf(Batch batch) {
        int n = batch.rowCount();
        int[] out = new int[n];
        if (parts == 1 || n == 0) {
            return out;
        }
        Vector[] key = new Vector[keys.length];
        for (int k = 0; k < keys.length; k++) {
            key[k] = batch.column(keys[k]);
        }
        long[] h = KeyHasher.hash(key, n);
        if (level > 0) {
            long salt = 0x9E3779B97F4A7C15L * level;
            for (int i = 0; i < n; i++) {
                h[i] = KeyHasher.mix(h[i] ^ salt);
            }
        }
        for (int i = 0; i < n; i++) {
            out[i] = (int) (((h[i] >>> 32) * parts) >>> 32);
        }
        return out;
    }

    /** Each part's rows of {@code batches}, as batches that gather them (no copy until a column is used). */
    public List<List<Batch>> split(List<Batch> batches) {
        List<List<Batch>> out = new ArrayList<>(parts);
        for (int p = 0; p < parts; p++) {
            out.add(new ArrayList<>());
        }
        for (Batch b : batches) {
            int n = b.rowCount();
            if (n == 0) {
                continue;
            }
            if (parts == 1) {
                out.get(0).add(b);
                continue;
            }
            int[] part = partsOf(b);
            int[] counts = new int[parts];
            for (int i = 0; i < n; i++) {
                counts[part[i]]++;
            }
            int[][] rows = new int[parts][];
            for (int p = 0; p < parts; p++) {
                rows[p] = new int[counts[p]];
                counts[p] = 0;
            }
            for (int i = 0; i < n; i++) {
                int p = part[i];
                rows[p][counts[p]++] = i;
            }
            for (int p = 0; p < parts; p++) {
                if (counts[p] > 0) {
                    out.get(p).add(b.gather(rows[p], counts[p]));
                }
            }
        }
        return out;
    }
}
