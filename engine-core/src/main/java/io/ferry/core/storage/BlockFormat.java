package io.ferry.core.storage;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32C;

import org.apache.arrow.memory.ArrowBuf;

/**
 * The layout of a block (DESIGN.md "Storage layout"): a small header, then one Arrow record batch laid out
 * contiguously as in the Arrow IPC body (each buffer 8-byte aligned). All integers little-endian.
 *
 * <pre>
 *  0  int    magic 'FRYB'
 *  4  short  format version
 *  6  short  column count (c)
 *  8  int    row count
 * 12  int    total length in bytes (header + body)
 * 16  int    CRC32C of the whole block, computed with this field zero
 * 20  int    number of valid next-block pointers (at most {@link #NEXT_POINTERS})
 * 24  NEXT_POINTERS x 16 bytes: next-block pointers (int node, int length, long address), grouped so a reader
 *     can prefetch the following blocks without chasing pointers (I-Store section 3, figure 3)
 * 88  int    the partition the block's rows belong to (I-Store DPE section 3; 0 for an unpartitioned table)
 * 92  int    reserved, zero
 * 96  c x 28 bytes: per column int null count, then (int offset, int length) of validity, offsets and data
 *     buffers; offsets are from the block start, length 0 means the buffer is absent
 *     body, 8-byte aligned
 * </pre>
 *
 * <p>Version 1 had no partition: its column directory starts at 88, and it reads as partition 0.
 *
 * <p>{@link BlockWriter} lays the buffers out column after column, so each column is one contiguous range of the
 * block ({@link BlockReader#columnBounds()}) and a scan that needs some columns reads the header and those ranges
 * only ({@link #readRanges}, {@link #relocate}): a compute server streaming four of LINEORDER's seventeen columns
 * moves a fifth of the bytes.
 */
public final class BlockFormat {
    public static final int MAGIC = 0x42595246;
    public static final short VERSION = 2;
    /** The format before partitions, still read. */
    static final short VERSION_1 = 1;
    public static final int NEXT_POINTERS = 4;

    static final int OFF_MAGIC = 0;
    static final int OFF_VERSION = 4;
    static final int OFF_COLUMNS = 6;
    static final int OFF_ROWS = 8;
    static final int OFF_LENGTH = 12;
    static final int OFF_CHECKSUM = 16;
    static final int OFF_POINTER_COUNT = 20;
    static final int OFF_POINTERS = 24;
    static final int POINTER_BYTES = 16;
    static final int OFF_PARTITION = OFF_POINTERS + NEXT_POINTERS * POINTER_BYTES;
    static final int OFF_DIRECTORY_V1 = OFF_PARTITION;
    static final int OFF_DIRECTORY = OFF_PARTITION + 8;
    static final int COLUMN_ENTRY_BYTES = 28;

    /**
     * Needed ranges closer than this are read as one: a READ costs a work request and a completion (a frame each
     * way over tcp), which is worth more than a few KiB on any link Ferry runs on.
     */
    static final int MERGE_GAP = 4096;

    private BlockFormat() {
    }

    /**
     * The ranges of a block a scan of {@code columns} reads — the header and those columns' buffers — as (from,
     * length) pairs in block order, from the block's {@link BlockReader#columnBounds() column bounds}. Ranges closer
     * than {@link #MERGE_GAP} are merged, and when the pruned read would save less than an eighth of the block it is
     * read whole, as one range.
     */
    public static int[] readRanges(int[] bounds, int[] columns) {
        int length = bounds[bounds.length - 1];
        boolean[] needed = new boolean[bounds.length - 1];
        for (int c : columns) {
            needed[c] = true;
        }
        int[] out = new int[2 * (columns.length + 1)];
        int n = 0;
        int start = 0;
        int end = bounds[0];
        for (int c = 0; c < needed.length; c++) {
            int from = bounds[c];
            int to = bounds[c + 1];
            if (!needed[c] || to == from) {
                continue;
            }
            if (from - end > MERGE_GAP) {
                out[n++] = start;
                out[n++] = end - start;
                start = from;
            }
            end = to;
        }
        out[n++] = start;
        out[n++] = end - start;
        int[] ranges = Arrays.copyOf(out, n);
        return (long) rangeBytes(ranges) * 8 >= (long) length * 7 ? new int[] {0, length} : ranges;
    }

    /** How many bytes {@code ranges} (from {@link #readRanges}) cover. */
    public static int rangeBytes(int[] ranges) {
        int n = 0;
        for (int i = 1; i < ranges.length; i += 2) {
            n += ranges[i];
        }
        return n;
    }

    /**
     * Makes a block read as {@code ranges}, landed one after the other at {@code offset} of {@code buf}, readable by
     * {@link BlockReader}: each buffer that arrived is pointed at where it landed, each that did not is marked absent
     * (reading its column fails clearly), and the length is what landed. The CRC no longer covers the header.
     */
    public static void relocate(ArrowBuf buf, long offset, int[] ranges) {
        int landed = rangeBytes(ranges);
        if (ranges.length == 2 && ranges[0] == 0 && buf.getInt(offset + OFF_LENGTH) == landed) {
            return; // read whole
        }
        long directory = offset + directory(buf.getShort(offset + OFF_VERSION));
        int columns = buf.getShort(offset + OFF_COLUMNS);
        for (int c = 0; c < columns; c++) {
            for (int b = 0; b < 3; b++) {
                long at = directory + (long) c * COLUMN_ENTRY_BYTES + 4 + 8L * b;
                int from = buf.getInt(at);
                int len = buf.getInt(at + 4);
                int moved = -1;
                int landedAt = 0;
                for (int r = 0; r < ranges.length && len > 0; r += 2) {
                    if (from >= ranges[r] && from + len <= ranges[r] + ranges[r + 1]) {
                        moved = from - ranges[r] + landedAt;
                        break;
                    }
                    landedAt += ranges[r + 1];
                }
                buf.setInt(at, Math.max(moved, 0));
                buf.setInt(at + 4, moved < 0 ? 0 : len);
            }
        }
        buf.setInt(offset + OFF_LENGTH, landed);
    }

    public static int headerSize(int columns) {
        return headerSize(VERSION, columns);
    }

    static int headerSize(short version, int columns) {
        return align8(directory(version) + columns * COLUMN_ENTRY_BYTES);
    }

    /** Where a block of {@code version} keeps its column directory. */
    static int directory(short version) {
        return version == VERSION_1 ? OFF_DIRECTORY_V1 : OFF_DIRECTORY;
    }

    static int align8(int n) {
        return (n + 7) & ~7;
    }

    static long align8(long n) {
        return (n + 7) & ~7L;
    }

    /** CRC32C over {@code length} bytes of {@code buf} at {@code offset}, with the checksum field taken as zero. */
    public static int checksum(ArrowBuf buf, long offset, int length) {
        ByteBuffer bytes = buf.nioBuffer(offset, length).order(ByteOrder.LITTLE_ENDIAN);
        CRC32C crc = new CRC32C();
        ByteBuffer head = bytes.duplicate();
        head.limit(OFF_CHECKSUM);
        crc.update(head);
        crc.update(new byte[4]);
        ByteBuffer tail = bytes.duplicate();
        tail.position(OFF_CHECKSUM + 4);
        crc.update(tail);
        return (int) crc.getValue();
    }

    /** Records the pointers to the blocks that follow this one and re-seals the checksum. */
    public static void setNextPointers(ArrowBuf block, long offset, BlockPointer[] pointers) {
        if (pointers.length > NEXT_POINTERS) {
            throw new IllegalArgumentException("at most " + NEXT_POINTERS + " next pointers, got " + pointers.length);
        }
        block.setInt(offset + OFF_POINTER_COUNT, pointers.length);
        for (int i = 0; i < pointers.length; i++) {
            long p = offset + OFF_POINTERS + (long) i * POINTER_BYTES;
            block.setInt(p, pointers[i].node());
            block.setInt(p + 4, pointers[i].length());
            block.setLong(p + 8, pointers[i].address());
        }
        int length = block.getInt(offset + OFF_LENGTH);
        block.setInt(offset + OFF_CHECKSUM, checksum(block, offset, length));
    }

    /** A remote pointer to a block: which node holds it, where, and how long it is. */
    public record BlockPointer(int node, long address, int length) {
    }
}
