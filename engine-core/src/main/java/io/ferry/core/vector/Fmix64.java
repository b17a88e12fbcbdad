package io.ferry.core.vector;

/**
 * Murmur3's 64-bit finalizer: a bijection on longs in which every input bit flips each output bit with probability
 * close to 1/2, so dense, sequential keys spread evenly over hash buckets and partitions. The one mixer the hash
 * kernels (join and group keys) and the partitioning of tables share.
 */
public final class Fmix64 {
    private Fmix64() {
    }

    public static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }
}
