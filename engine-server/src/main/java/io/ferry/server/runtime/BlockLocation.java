package io.ferry.server.runtime;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.BlockFormat;
import io.ferry.core.storage.BlockReader;
import io.ferry.fabric.BlockStream;
import io.ferry.fabric.RegionDescriptor;
import io.ferry.server.cluster.control.WireReader;
import io.ferry.server.cluster.control.WireWriter;

/**
 * Where one block of a table is: {@code length} bytes at {@code offset} of a registered region on some node, the
 * block's {@code position} in its table (sampling keys on it, so it travels with the block), and where its header and
 * columns end ({@link BlockReader#columnBounds()}), so a reader can fetch only the columns its scan needs.
 */
public record BlockLocation(int position, RegionDescriptor region, long offset, int length, int[] bounds) {
    public BlockLocation {
        boolean ordered = bounds.length > 1 && bounds[0] > 0 && bounds[bounds.length - 1] == length;
        for (int i = 1; ordered && i < bounds.length; i++) {
            ordered = bounds[i] >= bounds[i - 1];
        }
        if (!ordered) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "block " + position + " at " + region.node()
                    + " has column bounds " + java.util.Arrays.toString(bounds) + " that do not fit its " + length
                    + " bytes");
        }
    }

    /** The ranges of the block a scan of {@code columns} reads ({@link BlockFormat#readRanges}). */
    public int[] ranges(int[] columns) {
        return BlockFormat.readRanges(bounds, columns);
    }

    /** The read of the block a scan of {@code columns} makes: its ranges, or the whole block when that is all of it. */
    public BlockStream.BlockRef ref(int[] columns, int tag) {
        int[] ranges = ranges(columns);
        int bytes = BlockFormat.rangeBytes(ranges);
        return new BlockStream.BlockRef(region, offset, bytes, bytes == length ? null : ranges, tag);
    }

    /** The bytes a scan of {@code columns} reads of the block. */
    public int readBytes(int[] columns) {
        return BlockFormat.rangeBytes(ranges(columns));
    }

    public void encode(WireWriter w) {
        w.writeInt(position).writeDescriptor(region).writeLong(offset).writeInt(length).writeInt(bounds.length);
        for (int b : bounds) {
            w.writeInt(b);
        }
    }

    public static BlockLocation decode(WireReader r) {
        int position = r.readInt();
        RegionDescriptor region = r.readDescriptor();
        long offset = r.readLong();
        int length = r.readInt();
        int[] bounds = new int[r.readInt()];
        for (int i = 0; i < bounds.length; i++) {
            bounds[i] = r.readInt();
        }
        return new BlockLocation(position, region, offset, length, bounds);
    }
}
