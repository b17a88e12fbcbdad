package io.ferry.server.cluster;

import io.ferry.fabric.RegionDescriptor;
import io.ferry.server.cluster.control.WireReader;
import io.ferry.server.cluster.control.WireWriter;

/**
 * Where one block of a table is: {@code length} bytes at {@code offset} of a registered region on some node, and
 * the block's {@code position} in its table (sampling keys on it, so it travels with the block).
 */
public record BlockLocation(int position, RegionDescriptor region, long offset, int length) {
    public void encode(WireWriter w) {
        w.writeInt(position).writeDescriptor(region).writeLong(offset).writeInt(length);
    }

    public static BlockLocation decode(WireReader r) {
        return new BlockLocation(r.readInt(), r.readDescriptor(), r.readLong(), r.readInt());
    }
}
