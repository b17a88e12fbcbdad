package io.ferry.core.storage;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One file of a table's rows in a data directory: an Arrow IPC file holding the rows of {@code blocks} consecutive
 * blocks of the table (docs/storage.md). The manifest lists a table's files in row order.
 *
 * @param name   the file's name in the data directory's {@code tables/} folder
 * @param bytes  its length, checked before it is read
 * @param crc    the CRC32C of all its bytes, checked before Arrow parses one (Arrow trusts buffer offsets)
 * @param rows   the rows it holds
 * @param blocks the table blocks its rows fill in memory, so the newest files can be merged from their blocks
 */
public record DataFile(String name, long bytes, int crc, long rows, int blocks) {
    public DataFile {
        requireNonNull(name, "name is null");
        if (name.contains("/") || name.contains("\\") || name.startsWith(".")) {
            throw new IllegalArgumentException("data file name '" + name + "'");
        }
        if (bytes < 0 || rows < 0 || blocks < 0) {
            throw new IllegalArgumentException("data file " + name + ": " + bytes + " bytes, " + rows + " rows, "
                    + blocks + " blocks");
        }
    }

    /** The bytes {@code files} take together. */
    public static long bytes(List<DataFile> files) {
        long n = 0;
        for (DataFile f : files) {
            n += f.bytes;
        }
        return n;
    }

    /** This file as holding {@code count} blocks (what reloading it made). */
    public DataFile withBlocks(int count) {
        return new DataFile(name, bytes, crc, rows, count);
    }
}
