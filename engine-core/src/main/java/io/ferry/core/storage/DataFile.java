package io.ferry.core.storage;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * One file of a table's rows in a data directory: an Arrow IPC file holding the rows of {@code blocks} consecutive
 * blocks of the table (docs/storage.md). The manifest lists a table's files in row order.
 *
 * @param name      the file's name in the data directory's {@code tables/} folder
 * @param bytes     its length, checked before it is read
 * @param crc       the CRC32C of all its bytes, checked before Arrow parses one (Arrow trusts buffer offsets)
 * @param rows      the rows it holds
 * @param blocks    the table blocks its rows fill in memory, so the newest files can be merged from their blocks
 * @param locations where each of those blocks lives when it outlives the process ({@link Block#address()}: a
 *                  cluster's blocks in memory servers' memory), so a restarted coordinator adopts them instead of
 *                  reading the file; empty when they do not
 */
public record DataFile(String name, long bytes, int crc, long rows, int blocks, List<String> locations) {
    public DataFile {
        requireNonNull(name, "name is null");
        if (name.contains("/") || name.contains("\\") || name.startsWith(".")) {
            throw new IllegalArgumentException("data file name '" + name + "'");
        }
        if (bytes < 0 || rows < 0 || blocks < 0) {
            throw new IllegalArgumentException("data file " + name + ": " + bytes + " bytes, " + rows + " rows, "
                    + blocks + " blocks");
        }
        locations = List.copyOf(locations);
        if (!locations.isEmpty() && locations.size() != blocks) {
            throw new IllegalArgumentException("data file " + name + ": " + locations.size() + " block locations for "
                    + blocks + " blocks");
        }
    }

    /** A file of {@code blocks} (its rows, in order): their count, and their locations if they all have one. */
    public static DataFile of(String name, long bytes, int crc, long rows, List<Block> blocks) {
        return new DataFile(name, bytes, crc, rows, blocks.size(), locationsOf(blocks));
    }

    private static List<String> locationsOf(List<Block> blocks) {
        List<String> out = new ArrayList<>(blocks.size());
        for (Block b : blocks) {
            String at = b.address();
            if (at == null) {
                return List.of();
            }
            out.add(at);
        }
        return out;
    }

    /** The bytes {@code files} take together. */
    public static long bytes(List<DataFile> files) {
        long n = 0;
        for (DataFile f : files) {
            n += f.bytes;
        }
        return n;
    }

    /** This file as holding {@code staged}, the blocks reloading (or adopting) it made. */
    public DataFile heldIn(List<Block> staged) {
        return new DataFile(name, bytes, crc, rows, staged.size(), locationsOf(staged));
    }
}
