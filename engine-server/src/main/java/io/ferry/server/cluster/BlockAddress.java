package io.ferry.server.cluster;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * Where a cluster's block lives, as a coordinator's data directory records it ({@link ClusterStorage#address}), so
 * that the coordinator's next process finds the block again in the memory server that kept it: the node by name and
 * by the incarnation of its process (a node that restarted lost its memory), the region by the key and address the
 * node registered it under, the block by offset and length, and the CRC32C its header carries, which tells the same
 * block from another written into the same slot since.
 *
 * @param slotSize the block size the region's slots were cut at; 0 for a region of one large block
 */
record BlockAddress(String node, String incarnation, int key, long base, int regionLength, int slotSize, long offset,
        int length, int crc) {
    private static final String VERSION = "b1";
    private static final String COPIES = "m1";

    BlockAddress {
        requireNonNull(node, "node is null");
        requireNonNull(incarnation, "incarnation is null");
    }

    /** As text: fixed fields first, the node's name (which may hold any character) last. */
    @Override
    public String toString() {
        return VERSION + ":" + key + ":" + Long.toHexString(base) + ":" + regionLength + ":" + slotSize + ":" + offset
                + ":" + length + ":" + Integer.toHexString(crc) + ":" + incarnation + ":" + node;
    }

    /**
     * Where every copy of a replicated block lives, as one text: a single copy as {@link #toString()} (what a
     * coordinator without replicas writes), several as {@code m1:} then each copy's text prefixed by its length.
     */
    static String ofCopies(List<BlockAddress> copies) {
        if (copies.size() == 1) {
            return copies.get(0).toString();
        }
        StringBuilder out = new StringBuilder(COPIES);
        for (BlockAddress a : copies) {
            String text = a.toString();
            out.append(':').append(text.length()).append(':').append(text);
        }
        return out.toString();
    }

    /** The copies {@link #ofCopies} wrote. */
    static List<BlockAddress> parseCopies(String text) {
        if (!text.startsWith(COPIES + ":")) {
            return List.of(parse(text));
        }
        List<BlockAddress> out = new ArrayList<>();
        int at = COPIES.length();
        try {
            while (at < text.length()) {
                int colon = text.indexOf(':', at + 1);
                int length = Integer.parseInt(text.substring(at + 1, colon));
                out.add(parse(text.substring(colon + 1, colon + 1 + length)));
                at = colon + 1 + length;
            }
        } catch (RuntimeException e) {
            if (e instanceof FerryException f) {
                throw f;
            }
            throw new FerryException(SqlStates.DATA_CORRUPTED, "block location '" + text + "' in the manifest is "
                    + "damaged (" + e.getMessage() + ")");
        }
        return out;
    }

    static BlockAddress parse(String text) {
        String[] f = text.split(":", 10);
        if (f.length != 10 || !f[0].equals(VERSION)) {
            throw new FerryException(SqlStates.DATA_CORRUPTED, "block location '" + text + "' in the manifest is not "
                    + "one this Ferry writes");
        }
        try {
            return new BlockAddress(f[9], f[8], Integer.parseInt(f[1]), Long.parseUnsignedLong(f[2], 16),
                    Integer.parseInt(f[3]), Integer.parseInt(f[4]), Long.parseLong(f[5]), Integer.parseInt(f[6]),
                    Integer.parseUnsignedInt(f[7], 16));
        } catch (NumberFormatException e) {
            throw new FerryException(SqlStates.DATA_CORRUPTED, "block location '" + text + "' in the manifest is "
                    + "damaged (" + e.getMessage() + ")");
        }
    }
}
