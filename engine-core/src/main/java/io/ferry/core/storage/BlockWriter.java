package io.ferry.core.storage;

import static io.ferry.core.storage.BlockFormat.*;

import java.nio.ByteOrder;

import org.apache.arrow.memory.ArrowBuf;

import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;

/** Lays rows of a {@link Batch} out as one block in the {@link BlockFormat} layout. */
public final class BlockWriter {
    private final TableSchema schema;

    public BlockWriter(TableSchema schema) {
        this.schema = schema;
    }

    /** Bytes a block holding rows {@code [from, from + count)} of {@code batch} takes. */
    public long sizeOf(Batch batch, int from, int count) {
        long size = headerSize(schema.size());
        for (int c = 0; c < schema.size(); c++) {
            Vector v = batch.column(c);
            FerryType type = schema.type(c);
            if (v.nulls() != null) {
                size += align8((count + 7L) / 8);
            }
            if (type.kind() == TypeKind.VARCHAR) {
                BytesVector bv = (BytesVector) v;
                size += align8(4L * (count + 1));
                size += align8((long) bv.offsets()[from + count] - bv.offsets()[from]);
            } else if (type.kind() == TypeKind.BOOLEAN) {
                size += align8((count + 7L) / 8);
            } else {
                size += align8((long) type.fixedWidth() * count);
            }
        }
        return size;
    }

    /** The most rows from {@code from} on that fit in {@code maxBytes}; at least one, so every row finds a block. */
    public int fitRows(Batch batch, int from, long maxBytes) {
        int lo = 1;
        int hi = batch.rowCount() - from;
        if (sizeOf(batch, from, hi) <= maxBytes) {
            return hi;
        }
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (sizeOf(batch, from, mid) <= maxBytes) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** Writes rows {@code [from, from + count)} at {@code offset} of {@code dst}; returns the block's length. */
    public int write(Batch batch, int from, int count, ArrowBuf dst, long offset) {
        return write(batch, from, count, dst, offset, 0);
    }

    /** As above, for rows of partition {@code partition} of the table. */
    public int write(Batch batch, int from, int count, ArrowBuf dst, long offset, int partition) {
        int columns = schema.size();
        long pos = offset + headerSize(columns);
        for (int c = 0; c < columns; c++) {
            Vector v = batch.column(c);
            FerryType type = schema.type(c);
            long entry = offset + OFF_DIRECTORY + (long) c * COLUMN_ENTRY_BYTES;
            int nullCount = 0;
            long validityAt = 0;
            int validityLen = 0;
            if (v.nulls() != null) {
                boolean[] nulls = v.nulls();
                validityLen = (count + 7) / 8;
                validityAt = pos;
                dst.setZero(pos, align8(validityLen));
                for (int i = 0; i < count; i++) {
                    if (nulls[from + i]) {
                        nullCount++;
                    } else {
                        setBit(dst, pos, i);
                    }
                }
                pos += align8(validityLen);
            }
            long offsetsAt = 0;
            int offsetsLen = 0;
            long dataAt = pos;
            int dataLen;
            switch (type.kind()) {
                case VARCHAR -> {
                    BytesVector bv = (BytesVector) v;
                    int[] offs = bv.offsets();
                    int base = offs[from];
                    offsetsAt = pos;
                    offsetsLen = 4 * (count + 1);
                    for (int i = 0; i <= count; i++) {
                        dst.setInt(pos + 4L * i, offs[from + i] - base);
                    }
                    pos += align8(offsetsLen);
                    dataAt = pos;
                    dataLen = offs[from + count] - base;
                    dst.setBytes(pos, bv.data(), base, dataLen);
                }
                case BOOLEAN -> {
                    long[] values = ((LongVector) v).values();
                    dataLen = (count + 7) / 8;
                    dst.setZero(pos, align8(dataLen));
                    for (int i = 0; i < count; i++) {
                        if (values[from + i] != 0) {
                            setBit(dst, pos, i);
                        }
                    }
                }
                case INTEGER, DATE -> {
                    long[] values = ((LongVector) v).values();
                    dataLen = 4 * count;
                    var ints = dst.nioBuffer(pos, dataLen).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
                    for (int i = 0; i < count; i++) {
                        ints.put(i, (int) values[from + i]);
                    }
                }
                case DECIMAL -> {
                    dataLen = 16 * count;
                    if (v instanceof BytesVector wide) {
                        byte[] d = wide.data();
                        for (int i = 0; i < count; i++) {
                            boolean isNull = wide.isNull(from + i);
                            int at = wide.start(from + i);
                            dst.setLong(pos + 16L * i, isNull ? 0 : WideDecimal.lo(d, at));
                            dst.setLong(pos + 16L * i + 8, isNull ? 0 : WideDecimal.hi(d, at));
                        }
                        break;
                    }
                    long[] values = ((LongVector) v).values();
                    for (int i = 0; i < count; i++) {
                        long x = values[from + i];
                        dst.setLong(pos + 16L * i, x);
                        dst.setLong(pos + 16L * i + 8, x >> 63);
                    }
                }
                case DOUBLE -> {
                    dataLen = 8 * count;
                    dst.nioBuffer(pos, dataLen).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer()
                            .put(((DoubleVector) v).values(), from, count);
                }
                default -> {
                    dataLen = 8 * count;
                    dst.nioBuffer(pos, dataLen).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer()
                            .put(((LongVector) v).values(), from, count);
                }
            }
            if (align8(dataLen) > dataLen) {
                dst.setZero(pos + dataLen, align8(dataLen) - dataLen);
            }
            pos += align8(dataLen);
            dst.setInt(entry, nullCount);
            dst.setInt(entry + 4, validityLen == 0 ? 0 : (int) (validityAt - offset));
            dst.setInt(entry + 8, validityLen);
            dst.setInt(entry + 12, offsetsLen == 0 ? 0 : (int) (offsetsAt - offset));
            dst.setInt(entry + 16, offsetsLen);
            dst.setInt(entry + 20, (int) (dataAt - offset));
            dst.setInt(entry + 24, dataLen);
        }
        int length = (int) (pos - offset);
        dst.setInt(offset + OFF_MAGIC, MAGIC);
        dst.setShort(offset + OFF_VERSION, VERSION);
        dst.setShort(offset + OFF_COLUMNS, (short) columns);
        dst.setInt(offset + OFF_ROWS, count);
        dst.setInt(offset + OFF_LENGTH, length);
        dst.setInt(offset + OFF_POINTER_COUNT, 0);
        dst.setZero(offset + OFF_POINTERS, (long) NEXT_POINTERS * POINTER_BYTES);
        dst.setInt(offset + OFF_PARTITION, partition);
        dst.setInt(offset + OFF_PARTITION + 4, 0);
        long headerPad = offset + OFF_DIRECTORY + (long) columns * COLUMN_ENTRY_BYTES;
        dst.setZero(headerPad, offset + headerSize(columns) - headerPad);
        dst.setInt(offset + OFF_CHECKSUM, checksum(dst, offset, length));
        return length;
    }

    private static void setBit(ArrowBuf buf, long base, int i) {
        long at = base + (i >>> 3);
        buf.setByte(at, buf.getByte(at) | (1 << (i & 7)));
    }
}
