package io.ferry.core.storage;

import static io.ferry.core.storage.BlockFormat.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.PendingColumn;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;

/**
 * Reads a block in the {@link BlockFormat} layout in place: either as Arrow vectors over the block's own bytes
 * (no copy) or, for execution, column by column into {@link Vector}s.
 */
public final class BlockReader {
    private final ArrowBuf buf;
    private final long offset;
    private final int rows;
    private final int columns;
    private final int length;
    /** Where the column directory starts: it moved when version 2 added the partition. */
    private final int directory;
    /** The block's bytes as one NIO buffer, made on first use: making one costs far more than slicing it. */
    private ByteBuffer bytes;

    /** Checks the header (magic, version, lengths) of the block at {@code offset}; see {@link #verifyChecksum()}. */
    public BlockReader(ArrowBuf buf, long offset) {
        this.buf = buf;
        this.offset = offset;
        if (offset < 0 || offset + OFF_DIRECTORY_V1 > buf.capacity()) {
            throw new MalformedBlockException("block at offset " + offset + " lies outside its buffer of "
                    + buf.capacity() + " bytes");
        }
        int magic = buf.getInt(offset + OFF_MAGIC);
        if (magic != MAGIC) {
            throw new MalformedBlockException(String.format("not a Ferry block: magic 0x%08x, expected 0x%08x",
                    magic, MAGIC));
        }
        short version = buf.getShort(offset + OFF_VERSION);
        if (version != VERSION && version != VERSION_1) {
            throw new MalformedBlockException("block format version " + version + " is not supported (this build "
                    + "reads versions " + VERSION_1 + " and " + VERSION + ")");
        }
        this.directory = directory(version);
        this.columns = buf.getShort(offset + OFF_COLUMNS);
        this.rows = buf.getInt(offset + OFF_ROWS);
        this.length = buf.getInt(offset + OFF_LENGTH);
        if (rows < 0 || columns < 0 || length < headerSize(version, columns) || offset + length > buf.capacity()) {
            throw new MalformedBlockException("block header is inconsistent: " + rows + " rows, " + columns
                    + " columns, " + length + " bytes in a buffer of " + buf.capacity());
        }
        for (int c = 0; c < columns; c++) {
            for (int b = 0; b < 3; b++) {
                long at = entry(c) + 4 + 8L * b;
                long from = buf.getInt(at);
                long len = buf.getInt(at + 4);
                if (len < 0 || from < 0 || (len > 0 && from + len > length)) {
                    throw new MalformedBlockException("column " + c + " buffer " + b + " lies outside the block");
                }
            }
        }
    }

    /** Recomputes the CRC32C and compares it with the one stored in the header. */
    public BlockReader verifyChecksum() {
        int stored = buf.getInt(offset + OFF_CHECKSUM);
        int actual = checksum(buf, offset, length);
        if (stored != actual) {
            throw new MalformedBlockException(String.format("block checksum mismatch: stored 0x%08x, computed 0x%08x",
                    stored, actual));
        }
        return this;
    }

    public int rowCount() {
        return rows;
    }

    /** The CRC32C stored in the header when the block was written (what {@link #verifyChecksum()} compares with). */
    public int storedChecksum() {
        return buf.getInt(offset + OFF_CHECKSUM);
    }

    /** All the block's rows, every column decoded as {@code schema} types it. */
    public Batch batch(TableSchema schema) {
        Vector[] out = new Vector[schema.size()];
        for (int c = 0; c < out.length; c++) {
            out[c] = decode(c, schema.type(c), 0, rows);
        }
        return new Batch(rows, out);
    }

    /** The partition of the table the block's rows belong to; 0 for a version 1 block. */
    public int partition() {
        return directory == OFF_DIRECTORY_V1 ? 0 : buf.getInt(offset + OFF_PARTITION);
    }

    public int columnCount() {
        return columns;
    }

    /**
     * Where the header and each column end, from the block's start: element 0 is the header's end and column c's
     * buffers lie in {@code [bounds[c], bounds[c + 1])}, for {@link BlockFormat#readRanges}.
     */
    public int[] columnBounds() {
        int[] bounds = new int[columns + 1];
        bounds[0] = headerSize(buf.getShort(offset + OFF_VERSION), columns);
        for (int c = 0; c < columns; c++) {
            int end = bounds[c];
            for (int b = 0; b < 3; b++) {
                int len = bufferLength(c, b);
                if (len > 0) {
                    end = Math.max(end, (int) align8(bufferAt(c, b) - offset + len));
                }
            }
            bounds[c + 1] = end;
        }
        bounds[columns] = Math.max(bounds[columns], length);
        return bounds;
    }

    public int length() {
        return length;
    }

    public int nullCount(int column) {
        return buf.getInt(entry(column));
    }

    public BlockPointer[] nextPointers() {
        int n = buf.getInt(offset + OFF_POINTER_COUNT);
        BlockPointer[] out = new BlockPointer[n];
        for (int i = 0; i < n; i++) {
            long p = offset + OFF_POINTERS + (long) i * POINTER_BYTES;
            out[i] = new BlockPointer(buf.getInt(p), buf.getLong(p + 8), buf.getInt(p + 4));
        }
        return out;
    }

    private long entry(int column) {
        return offset + directory + (long) column * COLUMN_ENTRY_BYTES;
    }

    private long bufferAt(int column, int which) {
        return offset + buf.getInt(entry(column) + 4 + 8L * which);
    }

    private int bufferLength(int column, int which) {
        return buf.getInt(entry(column) + 8 + 8L * which);
    }

    /**
     * The block as Arrow vectors that point into the block's bytes (no copy). The root holds references on the
     * block's buffer; close it when done.
     */
    public VectorSchemaRoot toArrow(TableSchema schema, BufferAllocator allocator) {
        if (schema.size() != columns) {
            throw new MalformedBlockException("block has " + columns + " columns, schema has " + schema.size());
        }
        List<ArrowFieldNode> nodes = new ArrayList<>(columns);
        List<ArrowBuf> buffers = new ArrayList<>(columns * 3);
        for (int c = 0; c < columns; c++) {
            nodes.add(new ArrowFieldNode(rows, nullCount(c)));
            buffers.add(slice(c, 0));
            if (schema.type(c).kind() == TypeKind.VARCHAR) {
                buffers.add(slice(c, 1));
            }
            buffers.add(slice(c, 2));
        }
        VectorSchemaRoot root = VectorSchemaRoot.create(schema.toArrow(), allocator);
        try (ArrowRecordBatch batch = new ArrowRecordBatch(rows, nodes, buffers)) {
            new VectorLoader(root).load(batch);
        }
        return root;
    }

    private ArrowBuf slice(int column, int which) {
        int len = bufferLength(column, which);
        return len == 0 ? buf.slice(offset, 0) : buf.slice(bufferAt(column, which), len);
    }

    /**
     * Rows {@code [from, from + count)} of {@code column}, to be decoded when first used. The block must stay
     * alive (its table version held) until then.
     */
    public PendingColumn pending(int column, FerryType type, int from, int count) {
        if (rows > 0 && bufferLength(column, 0) == 0 && bufferLength(column, 1) == 0 && bufferLength(column, 2) == 0) {
            throw new MalformedBlockException("column " + column + " of the block was not read: the scan that read "
                    + "the block asked for other columns");
        }
        return new BlockColumn(this, column, type, from, null, count);
    }

    /** A column range of this block, optionally narrowed to some of its rows, decoded on first use. */
    private record BlockColumn(BlockReader reader, int column, FerryType type, int from, int[] positions, int count)
            implements PendingColumn {
        @Override
        public Vector materialize() {
            return positions == null ? reader.decode(column, type, from, count)
                    : reader.decodeAt(column, type, from, positions, count);
        }

        @Override
        public PendingColumn gather(int[] inner, int n) {
            int[] p = positions == null ? inner : PendingColumn.compose(positions, inner, n);
            return new BlockColumn(reader, column, type, from, p, n);
        }

        @Override
        public int select(long lo, long span, long[] bits, int[] out) {
            return positions == null ? reader.select(column, type, from, count, lo, span, bits, out) : -1;
        }
    }

    /**
     * {@link PendingColumn#select} over rows {@code [from, from + count)} of {@code column}, read from the block: the
     * values decode would make, tested where they lie (TPC-DS q9's fifteen scans of store_sales filtered by quantity
     * ranges decoded each batch's quantities into a vector and its validity into booleans first). As the selectors'
     * loops over a vector: one unsigned test for both bounds and no branch per row, a loop for each width, then the
     * validity of the rows selected only.
     */
    int select(int column, FerryType type, int from, int count, long lo, long span, long[] bits,
            int[] out) {
        int width = switch (type.kind()) {
            case INTEGER, DATE -> 4;
            case BIGINT, TIMESTAMP -> 8;
            case DECIMAL -> type.isWideDecimal() ? 0 : 16;
            default -> 0;
        };
        if (width == 0) {
            return -1;
        }
        long data = bufferAt(column, 2) + (long) width * from;
        int c = 0;
        if (bits == null && width == 4) {
            for (int i = 0; i < count; i++) {
                out[c] = i;
                c += Long.compareUnsigned(buf.getInt(data + 4L * i) - lo, span) <= 0 ? 1 : 0;
            }
        } else if (bits == null) {
            for (int i = 0; i < count; i++) {
                out[c] = i;
                c += Long.compareUnsigned(buf.getLong(data + (long) width * i) - lo, span) <= 0 ? 1 : 0;
            }
        } else {
            for (int i = 0; i < count; i++) {
                long d = (width == 4 ? buf.getInt(data + 4L * i) : buf.getLong(data + (long) width * i)) - lo;
                out[c] = i;
                c += Long.compareUnsigned(d, span) <= 0 ? (int) (bits[(int) (d >>> 6)] >>> d) & 1 : 0;
            }
        }
        if (nullCount(column) == 0 || c == 0) {
            return c;
        }
        // drop the NULL rows among those selected (their values are whatever the writer left there)
        long validity = bufferAt(column, 0);
        int kept = 0;
        for (int j = 0; j < c; j++) {
            int i = out[j];
            out[kept] = i;
            kept += bit(validity, from + i) ? 1 : 0;
        }
        return kept;
    }

    /**
     * Rows {@code from + positions[i]} of {@code column} for i in {@code [0, count)}, a position of -1 giving
     * NULL: decodes only the rows a filter or join let through.
     */
    public Vector decodeAt(int column, FerryType type, int from, int[] positions, int count) {
        boolean[] nulls = null;
        boolean mayBeNull = nullCount(column) > 0;
        long validity = bufferAt(column, 0);
        for (int i = 0; i < count; i++) {
            int p = positions[i];
            if (p < 0 || (mayBeNull && !bit(validity, from + p))) {
                if (nulls == null) {
                    nulls = new boolean[count];
                }
                nulls[i] = true;
            }
        }
        long data = bufferAt(column, 2);
        return switch (type.kind()) {
            case VARCHAR -> bytesAt(bufferAt(column, 1), data, from, positions, nulls, count);
            case DOUBLE -> {
                double[] values = new double[count];
                for (int i = 0; i < count; i++) {
                    int p = positions[i];
                    values[i] = p < 0 ? 0 : buf.getDouble(data + 8L * (from + p));
                }
                yield new DoubleVector(values, nulls, count);
            }
            case BOOLEAN -> {
                long[] values = new long[count];
                for (int i = 0; i < count; i++) {
                    int p = positions[i];
                    values[i] = p >= 0 && bit(data, from + p) ? 1 : 0;
                }
                yield new LongVector(values, nulls, count);
            }
            case INTEGER, DATE -> {
                long[] values = new long[count];
                for (int i = 0; i < count; i++) {
                    int p = positions[i];
                    values[i] = p < 0 ? 0 : buf.getInt(data + 4L * (from + p));
                }
                yield new LongVector(values, nulls, count);
            }
            default -> {
                if (type.isWideDecimal()) {
                    long[] hi = new long[count];
                    long[] lo = new long[count];
                    for (int i = 0; i < count; i++) {
                        int p = positions[i];
                        if (p >= 0) {
                            lo[i] = buf.getLong(data + 16L * (from + p));
                            hi[i] = buf.getLong(data + 16L * (from + p) + 8);
                        }
                    }
                    yield WideDecimal.of(hi, lo, nulls, count);
                }
                // BIGINT and TIMESTAMP are 8 bytes; DECIMAL is 16 (Arrow's little-endian Decimal128), its low 8
                // bytes the unscaled long of a DECIMAL of up to 18 digits.
                int width = type.kind() == TypeKind.DECIMAL ? 16 : 8;
                long[] values = new long[count];
                for (int i = 0; i < count; i++) {
                    int p = positions[i];
                    values[i] = p < 0 ? 0 : buf.getLong(data + (long) width * (from + p));
                }
                yield new LongVector(values, nulls, count);
            }
        };
    }

    /**
     * Bits {@code [from, from + count)} of the bitmap at {@code bitmap} into {@code out}, each flipped when {@code
     * flip} (a validity bitmap's 1 is "not NULL"). A byte at a time where the range starts on one, as scans' batches
     * do: a bit a time cost more than the filter that read the column (TPC-DS's columns all hold some NULLs).
     */
    private void unpackBits(long bitmap, int from, int count, boolean[] out, boolean flip) {
        int i = 0;
        if ((from & 7) == 0) {
            long at = bitmap + (from >>> 3);
            int mask = flip ? 0xFF : 0;
            for (; i + 8 <= count; i += 8) {
                // no test for a byte of all valid rows: with a NULL in one row of 25, one byte in four has one,
                // and the branch's mispredictions cost more than the eight stores
                int b = (buf.getByte(at + (i >>> 3)) ^ mask) & 0xFF;
                out[i] = (b & 1) != 0;
                out[i + 1] = (b & 2) != 0;
                out[i + 2] = (b & 4) != 0;
                out[i + 3] = (b & 8) != 0;
                out[i + 4] = (b & 16) != 0;
                out[i + 5] = (b & 32) != 0;
                out[i + 6] = (b & 64) != 0;
                out[i + 7] = (b & 128) != 0;
            }
        }
        for (; i < count; i++) {
            out[i] = bit(bitmap, from + i) != flip;
        }
    }

    /** Bit {@code index} of the bitmap at {@code bitmap} (Arrow's LSB-first validity and boolean layout). */
    private boolean bit(long bitmap, int index) {
        return (buf.getByte(bitmap + (index >>> 3)) & (1 << (index & 7))) != 0;
    }

    /** The strings at {@code from + positions[i]}: lengths first, then one copy per string. */
    private BytesVector bytesAt(long offs, long data, int from, int[] positions, boolean[] nulls, int count) {
        int[] offsets = new int[count + 1];
        int total = 0;
        for (int i = 0; i < count; i++) {
            int p = positions[i];
            if (p >= 0) {
                long at = offs + 4L * (from + p);
                total += buf.getInt(at + 4) - buf.getInt(at);
            }
            offsets[i + 1] = total;
        }
        byte[] bytes = new byte[total];
        for (int i = 0; i < count; i++) {
            int p = positions[i];
            int len = offsets[i + 1] - offsets[i];
            if (p >= 0 && len > 0) {
                buf.getBytes(data + buf.getInt(offs + 4L * (from + p)), bytes, offsets[i], len);
            }
        }
        return new BytesVector(bytes, offsets, nulls, count);
    }

    /** {@code len} bytes at absolute {@code at} of the block, little-endian, for bulk copies into arrays. */
    private ByteBuffer view(long at, int len) {
        if (bytes == null) {
            bytes = buf.nioBuffer(offset, length);
        }
        return bytes.slice((int) (at - offset), len).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Rows {@code [from, from + count)} of {@code column} as an execution vector (one bulk copy per buffer). */
    public Vector decode(int column, FerryType type, int from, int count) {
        boolean[] nulls = null;
        if (nullCount(column) > 0) {
            nulls = new boolean[count];
            unpackBits(bufferAt(column, 0), from, count, nulls, true);
        }
        long data = bufferAt(column, 2);
        switch (type.kind()) {
            case VARCHAR -> {
                long offs = bufferAt(column, 1);
                int base = buf.getInt(offs + 4L * from);
                int[] offsets = new int[count + 1];
                view(offs + 4L * from, 4 * (count + 1)).asIntBuffer()
                        .get(offsets);
                for (int i = 0; i <= count; i++) {
                    offsets[i] -= base;
                }
                byte[] bytes = new byte[offsets[count]];
                buf.getBytes(data + base, bytes, 0, bytes.length);
                return new BytesVector(bytes, offsets, nulls, count);
            }
            case BOOLEAN -> {
                boolean[] bits = new boolean[count];
                unpackBits(data, from, count, bits, false);
                long[] values = new long[count];
                for (int i = 0; i < count; i++) {
                    values[i] = bits[i] ? 1 : 0;
                }
                return new LongVector(values, nulls, count);
            }
            case INTEGER, DATE -> {
                // Widening read straight from off-heap memory (bounds checks are off in production, see pom).
                long[] values = new long[count];
                long at = data + 4L * from;
                for (int i = 0; i < count; i++) {
                    values[i] = buf.getInt(at + 4L * i);
                }
                return new LongVector(values, nulls, count);
            }
            case DECIMAL -> {
                long[] values = new long[count];
                for (int i = 0; i < count; i++) {
                    values[i] = buf.getLong(data + 16L * (from + i));
                }
                if (!type.isWideDecimal()) {
                    return new LongVector(values, nulls, count);
                }
                long[] hi = new long[count];
                for (int i = 0; i < count; i++) {
                    hi[i] = buf.getLong(data + 16L * (from + i) + 8);
                }
                return WideDecimal.of(hi, values, nulls, count);
            }
            case DOUBLE -> {
                double[] values = new double[count];
                view(data + 8L * from, 8 * count).asDoubleBuffer()
                        .get(values);
                return new DoubleVector(values, nulls, count);
            }
            default -> {
                long[] values = new long[count];
                view(data + 8L * from, 8 * count).asLongBuffer().get(values);
                return new LongVector(values, nulls, count);
            }
        }
    }
}
