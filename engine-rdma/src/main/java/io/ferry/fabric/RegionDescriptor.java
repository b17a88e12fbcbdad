package io.ferry.fabric;

import org.apache.arrow.memory.ArrowBuf;

import io.ferry.core.SqlStates;

/**
 * What a peer needs to read or write a registered region one-sidedly, small enough to travel in a control
 * message: the owning node, the region's base address in the owner's memory, its length, and the key that
 * grants access (the RDMA rkey; the region's id on other providers). Regions are under 2 GiB: verbs memory
 * regions have an int length.
 */
public record RegionDescriptor(NodeAddress node, long address, int length, int key) {
    public RegionDescriptor {
        if (length < 0) {
            throw new IllegalArgumentException("region length " + length + " is negative");
        }
    }

    /** Describes {@code length} bytes of {@code buffer} from {@code offset}, registered at {@code node} under {@code key}. */
    public static RegionDescriptor of(NodeAddress node, ArrowBuf buffer, long offset,
            int length, int key) {
        if (offset < 0 || length < 0 || offset + length > buffer.capacity()) {
            throw new IllegalArgumentException("bytes [" + offset + ", " + (offset + length)
                    + ") lie outside the buffer of " + buffer.capacity());
        }
        return new RegionDescriptor(node, buffer.memoryAddress() + offset, length, key);
    }

    /** Fails unless this region lives on {@code peer} and {@code [offset, offset + bytes)} lies inside it. */
    public void checkAccess(NodeAddress peer, long offset, long bytes) {
        if (!node.equals(peer)) {
            throw new FabricException(SqlStates.INVALID_PARAMETER_VALUE, "region " + key
                    + " lives on " + node + ", not on the peer " + peer);
        }
        checkRange(offset, bytes);
    }

    /** Fails unless {@code [offset, offset + bytes)} lies inside this region. */
    public void checkRange(long offset, long bytes) {
        if (offset < 0 || bytes < 0 || offset + bytes > length) {
            throw new FabricException(SqlStates.INVALID_PARAMETER_VALUE, "bytes [" + offset + ", "
                    + (offset + bytes) + ") lie outside the " + length + "-byte region " + key + " of " + node);
        }
    }
}
