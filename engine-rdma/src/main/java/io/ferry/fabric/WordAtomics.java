package io.ferry.fabric;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

import org.apache.arrow.memory.util.MemoryUtil;

import io.ferry.core.SqlStates;

/**
 * The atomics of {@link Peer} on a word of this process's memory, for the providers that carry them out on the
 * owner's CPU ({@code local} directly, {@code tcp} on the owner's network thread): a {@link VarHandle} over the word,
 * so they are atomic against each other from any thread.
 */
public final class WordAtomics {
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class,
            ByteOrder.nativeOrder());

    private WordAtomics() {
    }

    /** Fails with 22023 unless {@code [offset, offset + 8)} of {@code remote} is a whole 8-byte-aligned word in it. */
    public static void checkWord(NodeAddress node, RegionDescriptor remote, long offset) {
        remote.checkAccess(node, offset, 8);
        if (((remote.address() + offset) & 7) != 0) {
            throw new FabricException(SqlStates.INVALID_PARAMETER_VALUE, "an atomic needs an 8-byte-aligned word; "
                    + "offset " + offset + " of region " + remote.key() + " at " + node + " is not one");
        }
    }

    /** Compare-and-swap at absolute {@code address}; returns the value the word held. */
    public static long compareAndSwap(long address, long expect, long update) {
        return (long) LONGS.compareAndExchange(MemoryUtil.directBuffer(address, 8), 0, expect, update);
    }

    /** Fetch-and-add at absolute {@code address}; returns the value the word held. */
    public static long fetchAndAdd(long address, long delta) {
        return (long) LONGS.getAndAdd(MemoryUtil.directBuffer(address, 8), 0, delta);
    }
}
